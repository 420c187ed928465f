/**
 * The GitHub side of `npm run emulator -- --github`, so that a pull-request comment can be tried locally: a
 * GitHub API emulator holding the demo's pull request (acme/shop#42, which changes manifests of the demo
 * fleet), its head checked out in a folder as actions/checkout would, the event file the runner would write,
 * and a dotenv file with which `npm run local` runs `command: impact` on that pull request against the hub
 * emulator and this one. The comment the action posts can then be read back with one GET.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseEnv } from 'node:util'
import { parse as parseYaml } from 'yaml'
import { FRONTEND, PULL_REQUEST, pullRequestWorkspace } from '../demo/fixtures.ts'
import { ROOT } from '../../test/e2e/action-process.ts'
import { ACTIONS_TOKEN, startGitHubEmulator, type GitHubEmulator } from '../../emulator/index.ts'

/** What a dotenv file needs of a hub: the values `npm run emulator` prints. */
export interface HubValues {
  url: string
  token: string
  org: string
  workspace: string
}

export interface PullRequestSide {
  github: GitHubEmulator
  /** `npm run local -- <this file>` runs the impact step on the pull request. */
  dotenvFile: string
  /** The runner variables and inputs that file sets beyond .env.example, to copy into a .env of one's own. */
  variables: Record<string, string>
  /** GET (with `Authorization: Bearer <token>`) lists the pull request's comments. */
  commentsUrl: string
  token: string
  close(): Promise<void>
}

/** .env.example with some values replaced: a dotenv file's later lines win. */
export function dotenvText(overrides: Record<string, string>): string {
  return `${exampleText()}\n${Object.entries(overrides)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n')}\n`
}

/**
 * The variables that make .env.example run another command: `variables` (INPUT_COMMAND and what that
 * command needs), and every other input the example sets away from action.yml's default emptied (run's
 * agent and task), so that the action does not warn about inputs its command does not read.
 */
function forCommand(variables: Record<string, string>): Record<string, string> {
  const example = parseEnv(exampleText())
  if (variables.INPUT_COMMAND === undefined || variables.INPUT_COMMAND === example.INPUT_COMMAND) return variables
  const action = parseYaml(readFileSync(join(ROOT, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>
  }
  const defaults = new Map(
    Object.entries(action.inputs).map(([name, input]) => [`INPUT_${name.toUpperCase()}`, input.default ?? '']),
  )
  const emptied = Object.entries(example)
    .filter(
      ([name, value]) => defaults.has(name) && !(name in variables) && value !== '' && value !== defaults.get(name),
    )
    .map(([name]): [string, string] => [name, ''])
  return { ...variables, ...Object.fromEntries(emptied) }
}

function exampleText(): string {
  return readFileSync(join(ROOT, '.env.example'), 'utf8')
}

export async function startPullRequestSide(hub: HubValues, options: { port?: number } = {}): Promise<PullRequestSide> {
  const github = await startGitHubEmulator({ port: options.port ?? 0 })
  const { owner, repo, number } = PULL_REQUEST
  github.addPullRequest({
    ...PULL_REQUEST,
    files: [
      { filename: PULL_REQUEST.changed, status: 'modified' },
      { filename: FRONTEND, status: 'modified' },
    ],
  })
  const workspace = pullRequestWorkspace()
  const dir = mkdtempSync(join(tmpdir(), 'hub-action-pull-request-'))
  const eventPath = join(dir, 'event.json')
  writeFileSync(eventPath, JSON.stringify(PULL_REQUEST.event, null, 2))
  const variables = forCommand({
    'INPUT_HUB-URL': hub.url,
    INPUT_TOKEN: hub.token,
    INPUT_ORG: hub.org,
    INPUT_WORKSPACE: hub.workspace,
    INPUT_COMMAND: 'impact',
    INPUT_MANIFESTS: 'deploy/**/*.yaml',
    'INPUT_GITHUB-TOKEN': ACTIONS_TOKEN,
    GITHUB_API_URL: github.url,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_REPOSITORY: `${owner}/${repo}`,
    GITHUB_SHA: PULL_REQUEST.headSha,
    GITHUB_JOB: 'impact',
    GITHUB_WORKSPACE: workspace.dir,
  })
  const dotenvFile = join(dir, 'impact.env')
  writeFileSync(dotenvFile, dotenvText(variables))
  return {
    github,
    dotenvFile,
    variables,
    commentsUrl: `${github.url}/repos/${owner}/${repo}/issues/${number}/comments`,
    token: ACTIONS_TOKEN,
    async close() {
      await github.close()
      workspace.cleanup()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
