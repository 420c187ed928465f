/**
 * End to end, `command: impact` with rendered manifest sets: dist/index.js as a process against
 * the hub emulator (demo fleet) and the GitHub emulator. The fixtures under test/fixtures/rendered
 * are what `helm template` and `kustomize build` print for the base and head of a pull request
 * (multi-document, `# Source:` comments, a `List`, Kustomize's origin annotations). The targets
 * are exactly the objects whose rendered form changed, labelled, with their origin; the blast
 * radius is annotated on the declaring line of the chart or base file; an empty glob warns.
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished } from 'vitest'
import {
  BASE_SHA,
  expectSecretsNowhere,
  HEAD_SHA,
  hubInputs,
  lines,
  OWNER,
  pullRequestEnv,
  pullRequestEvent,
  readResultFile,
  REPO,
  runAction,
  runStep,
  useGitHubEmulator,
  useHubEmulator,
  verdictLines,
  type ActionRun,
  type ImpactReportFile,
} from './harness.ts'
import { ACTIONS_TOKEN, type PullRequestFileInput } from '../../emulator/index.ts'
import { injectedCommands, readWorkflowCommands, type WorkflowCommand } from '../oracles/workflow-commands.ts'

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'rendered')

const hub = useHubEmulator()
const github = useGitHubEmulator()

/** A checkout of a fixture folder (the repository and what earlier steps rendered into it). */
function checkout(fixture: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'hub-action-rendered-'))
  cpSync(join(FIXTURES, fixture), dir, { recursive: true })
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

async function onPullRequest(
  pr: number,
  files: PullRequestFileInput[],
  workspace: string,
  inputs: Record<string, string>,
): Promise<ActionRun> {
  github.addPullRequest({ owner: OWNER, repo: REPO, number: pr, baseSha: BASE_SHA, headSha: HEAD_SHA, files })
  return runStep({
    inputs: {
      command: 'impact',
      ...hubInputs(hub),
      'github-token': ACTIONS_TOKEN,
      ...inputs,
    },
    env: pullRequestEnv(github.url, workspace),
    event: pullRequestEvent(pr),
  })
}

const allNotices = (result: ActionRun): WorkflowCommand[] =>
  readWorkflowCommands(result.stdout).commands.filter((command) => command.name === 'notice')
/** The notices on declaring lines (the step's verdict is a notice too, with no file). */
const notices = (result: ActionRun): WorkflowCommand[] =>
  allNotices(result).filter((command) => command.properties.file !== undefined)
const targetsOf = (file: ImpactReportFile) =>
  file.targets
    .map(
      (t) =>
        `${t.kind} ${t.namespace}/${t.name}: ${t.origin.change} (${(t.origin as { source?: string }).source ?? '-'})`,
    )
    .sort()

describe('a pull request that changes only a Helm chart’s values', () => {
  it('reports exactly the objects whose rendered form changed, labelled, with one comment and notices on the templates’ kind lines', async () => {
    const workspace = checkout('helm')
    const result = await onPullRequest(21, [{ filename: 'charts/shop/values.yaml', status: 'modified' }], workspace, {
      'rendered-head': 'rendered/head.yaml',
      'rendered-base': 'rendered/base.yaml',
    })
    expect(result.code, result.stderr).toBe(0)
    expect(lines(result.stdout, '::error')).toEqual([])
    expect(lines(result.stdout, '::warning')).toEqual([])

    const file = readResultFile<ImpactReportFile>(result)
    // the Deployment differs only in its checksum annotation and every object in helm.sh/chart: noise, not a change
    expect(targetsOf(file)).toEqual([
      'ConfigMap shop/checkout-config: changed (shop/templates/configmap.yaml)',
      'ConfigMap shop/feature-flags: removed (shop/templates/feature-flags.yaml)',
      'NetworkPolicy shop/checkout: added (shop/templates/networkpolicy.yaml)',
    ])
    expect(file.skippedFiles).toEqual([])
    expect(file.notFound.map((t) => `${t.kind} ${t.namespace}/${t.name}`)).toEqual(['NetworkPolicy shop/checkout'])
    const flags = file.impacts.find((i) => i.target.name === 'feature-flags')
    expect(flags?.edge).toBe('prod-eu')
    expect(flags?.downstream.filter((o) => o.kind === 'Pod')).toHaveLength(3)

    const report = result.outputs.report ?? ''
    expect(verdictLines(report)).toContain(
      '- **ConfigMap shop/feature-flags** on prod-eu — 1 upstream, 5 downstream, 0 associated · ⚠️ **removed in this PR** — deleting it affects every downstream object · from shop/templates/feature-flags.yaml',
    )
    const changed = verdictLines(report).filter((line) => line.startsWith('- **ConfigMap shop/checkout-config**'))
    expect(changed.length).toBeGreaterThan(0)
    for (const line of changed)
      expect(line).toContain('· **changed** in the rendered set · from shop/templates/configmap.yaml')
    expect(report).toContain(
      '- NetworkPolicy.networking.k8s.io shop/checkout — rendered from shop/templates/networkpolicy.yaml, in rendered/head.yaml (added)',
    )
    expect(report).not.toContain('Deployment.apps shop/checkout')

    expect(github.comments(OWNER, REPO, 21)).toHaveLength(1)

    // one notice per target, on the `kind:` line of the template that declares it (found from the chart folder of the changed values file)
    const placed = notices(result).map((n) => `${n.properties.file}:${n.properties.line}`)
    expect(placed.sort()).toEqual([
      'charts/shop/templates/configmap.yaml:2',
      'charts/shop/templates/feature-flags.yaml:3',
      'charts/shop/templates/networkpolicy.yaml:3',
    ])
    const removed = notices(result).find((n) => n.properties.file === 'charts/shop/templates/feature-flags.yaml')
    expect(removed?.data).toMatch(/^Removed in the rendered set: 1 upstream, \d+ downstream on prod-eu\. Removing it/)
    expect(removed?.properties.title).toBe('hub-action impact: ConfigMap shop/feature-flags')
    expectSecretsNowhere(result, [hub.token, ACTIONS_TOKEN])
  })

  it('without a base set, every object of the head set is a target', async () => {
    const workspace = checkout('helm')
    const result = await onPullRequest(22, [{ filename: 'charts/shop/values.yaml', status: 'modified' }], workspace, {
      'rendered-head': 'rendered/*.yaml\n# base.yaml is ignored below',
    })
    expect(result.code, result.stderr).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    // both files are read whole when both match; an object declared in both counts once
    expect(file.targets.map((t) => `${t.kind} ${t.name}`).sort()).toEqual([
      'ConfigMap checkout-config',
      'ConfigMap feature-flags',
      'Deployment checkout',
      'NetworkPolicy checkout',
      'Role checkout-reader',
      'RoleBinding checkout-reader',
      'Service checkout',
      'ServiceAccount checkout',
    ])
    expect(new Set(file.targets.map((t) => t.origin.change))).toEqual(new Set(['rendered']))
  })
})

describe('a pull request that changes a Kustomize overlay', () => {
  it('reports the changed Ingress and the removed ConfigMap with its downstream, placed on the base files the origin annotations name', async () => {
    const workspace = checkout('kustomize')
    const result = await onPullRequest(
      23,
      [
        { filename: 'k8s/overlays/prod/kustomization.yaml', status: 'modified' },
        { filename: 'k8s/overlays/prod/ingress-host.yaml', status: 'modified' },
      ],
      workspace,
      { 'rendered-head': 'rendered/head.yaml', 'rendered-base': 'rendered/base.yaml' },
    )
    expect(result.code, result.stderr).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(targetsOf(file)).toEqual([
      'ConfigMap shop/checkout-config: removed (../../base/checkout-config.yaml)',
      'Ingress shop/shop: changed (../../base/ingress.yaml)',
    ])
    const removed = file.impacts.filter((i) => i.target.name === 'checkout-config')
    expect(removed.map((i) => i.edge).sort()).toEqual(['prod-eu', 'prod-us'])
    for (const impact of removed) expect(impact.downstream.some((o) => o.kind === 'Pod')).toBe(true)
    const report = result.outputs.report ?? ''
    for (const line of verdictLines(report).filter((l) => l.includes('checkout-config')))
      expect(line).toContain('⚠️ **removed in this PR**')
    expect(
      notices(result)
        .map((n) => `${n.properties.file}:${n.properties.line}`)
        .sort(),
    ).toEqual(['k8s/base/checkout-config.yaml:2', 'k8s/base/ingress.yaml:2'])
  })
})

describe('notices are capped at GitHub’s limit per step', () => {
  it('writes at most 10 notices with the verdict: 8 on declaring lines, most downstream first, and one that counts the rest', async () => {
    // 14 changed manifests, each declaring an object of the demo fleet or a new one
    const names = ['checkout', 'frontend', 'payments-api', 'search', 'orders-db']
    const files: Record<string, string> = {}
    for (let i = 0; i < 14; i++) {
      const name = i < names.length ? names[i]! : `new-${i}`
      const ns = name === 'payments-api' || name === 'orders-db' ? 'payments' : 'shop'
      files[`deploy/app-${String(i).padStart(2, '0')}.yaml`] =
        `# app ${i}\napiVersion: v1\nkind: Service\nmetadata:\n  name: ${name}\n  namespace: ${ns}\n`
    }
    const workspace = checkout('helm')
    for (const [path, text] of Object.entries(files)) {
      const { writeFileSync, mkdirSync } = await import('node:fs')
      mkdirSync(join(workspace, 'deploy'), { recursive: true })
      writeFileSync(join(workspace, path), text)
    }
    const result = await onPullRequest(
      24,
      Object.keys(files).map((filename) => ({ filename, status: 'added' })),
      workspace,
      { manifests: 'deploy/*.yaml' },
    )
    expect(result.code, result.stderr).toBe(0)
    const all = allNotices(result)
    expect(all).toHaveLength(10)
    const placed = notices(result)
    expect(placed).toHaveLength(8)
    for (const notice of placed) {
      expect(notice.properties.line).toBe('3')
      expect(notice.properties.file).toMatch(/^deploy\/app-\d\d\.yaml$/)
    }
    // the objects that exist come first (they have downstream); new ones after
    expect(placed.slice(0, 2).every((n) => !/not found on any edge/.test(n.data))).toBe(true)
    expect(all.filter((n) => n.properties.file === undefined).map((n) => n.data)).toContain(
      '6 more changed object(s) have impact not annotated on the diff: GitHub shows at most 10 notice annotations per step. The job summary and the pull request comment list them all.',
    )
  })
})

describe('a glob that matches no file', () => {
  it('is a warning naming the input, the globs and where they were matched, when every glob matches nothing', async () => {
    const workspace = checkout('helm')
    const result = await onPullRequest(25, [{ filename: 'charts/shop/values.yaml', status: 'modified' }], workspace, {
      manifests: 'deploy/**/*.yaml\ncharts/**/*.yml',
      'rendered-head': 'rendered/head.yaml\nrendered/missing-*.yaml',
    })
    expect(result.code, result.stderr).toBe(0)
    const warnings = lines(result.stdout, '::warning')
    expect(warnings).toContain(
      `::warning::\`manifests\`: the globs \`deploy/**/*.yaml\`, \`charts/**/*.yml\` matched no file in the files this pull request changes nor the workspace ${workspace} (folders are not matched as files; globs are relative to the workspace, e.g. k8s/*.yml). Check the paths, and that an earlier step wrote the files.`,
    )
    expect(
      warnings.some((w) =>
        w.includes('`rendered-head`: the glob `rendered/missing-*.yaml` matched no file in the workspace'),
      ),
    ).toBe(true)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.warnings.some((w) => w.startsWith('`manifests`: the globs'))).toBe(true)
    expect(file.skippedFiles).toEqual([])
    expect(result.summary).toContain('### Warnings')
  })

  it('on a push, a glob matching only folders beside one that matches is a log line, and the folders are not skipped as "not in the workspace"', async () => {
    const workspace = checkout('helm')
    const result = await runAction({
      inputs: {
        command: 'impact',
        ...hubInputs(hub),
        manifests: 'charts/shop/templates/*\ncharts/*',
      },
      env: { GITHUB_WORKSPACE: workspace, GITHUB_EVENT_NAME: 'push' },
    })
    onTestFinished(() => result.cleanup())
    expect(result.code, result.stderr).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(
      file.skippedFiles.map((s) => s.reason).filter((r) => r.includes('not in the workspace') || r.includes('folder')),
    ).toEqual([])
    expect(result.stdout).toContain(
      `\`manifests\`: \`charts/*\` matched no file in the workspace ${workspace}; the other globs did.`,
    )
    expect(lines(result.stdout, '::warning').filter((w) => w.includes('matched no file'))).toEqual([])
  })
})

describe('annotation text from untrusted names', () => {
  it('issues no workflow command: names in the message and title, and the renderer’s source, are escaped', async () => {
    const workspace = checkout('helm')
    const { writeFileSync } = await import('node:fs')
    const hostileName = 'PWNED-name\n::error::PWNED-data ##[error]PWNED-legacy,title=PWNED%0A'
    const rendered = [
      '---',
      '# Source: shop/templates/configmap.yaml',
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      `  name: ${JSON.stringify(hostileName)}`,
      '  namespace: shop',
      '---',
      '# Source: PWNED-source::error file=x,line=1::PWNED%0A::warning::PWNED',
      'apiVersion: v1',
      'kind: Secret',
      'metadata:',
      '  name: PWNED-secret',
      '  namespace: shop',
      '',
    ].join('\n')
    writeFileSync(join(workspace, 'rendered', 'hostile.yaml'), rendered)
    const result = await onPullRequest(26, [{ filename: 'charts/shop/values.yaml', status: 'modified' }], workspace, {
      'rendered-head': 'rendered/hostile.yaml',
    })
    expect(result.code, result.stdout).toBe(0)
    const view = readWorkflowCommands(result.stdout)
    expect(injectedCommands(view, 'PWNED').map((c) => view.lines[c.line]?.text)).toEqual([])
    expect(view.commands.filter((c) => c.name === 'error' || c.name === 'warning')).toEqual([])
    // the one object whose source names a file of the checkout is annotated there, its name intact in the title
    const placed = notices(result)
    expect(placed.map((n) => [n.properties.file, n.properties.line, n.properties.title])).toEqual([
      ['charts/shop/templates/configmap.yaml', '2', `hub-action impact: ConfigMap shop/${hostileName}`],
    ])
  })
})

describe('rendered files are read like manifests', () => {
  it('a rendered file that is a symlink out of the workspace is skipped with a reason, and the rest is still compared', async () => {
    const workspace = checkout('helm')
    const { symlinkSync } = await import('node:fs')
    symlinkSync('/etc/hostname', join(workspace, 'rendered', 'leak.yaml'))
    const result = await onPullRequest(27, [{ filename: 'charts/shop/values.yaml', status: 'modified' }], workspace, {
      'rendered-head': 'rendered/head.yaml\nrendered/leak.yaml',
      'rendered-base': 'rendered/base.yaml',
    })
    expect(result.code, result.stdout).toBe(0)
    const file = readResultFile<ImpactReportFile>(result)
    expect(file.skippedFiles).toEqual([
      {
        path: 'rendered/leak.yaml',
        reason: 'a symlink to a file outside the workspace: only files inside the checkout are read',
      },
    ])
    expect(file.targets.map((t) => t.name).sort()).toEqual(['checkout', 'checkout-config', 'feature-flags'])
  })
})
