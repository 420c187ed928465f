/**
 * docs/reference.md's inputs and outputs tables say which commands read each input and set each
 * output as the code does (the generator's freshness is test/docs/surface.test.ts); the README is
 * the front door (its first screen, its length) and its Versioning section says how to pin the
 * action and whether a release exists yet.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { outputSetters, surfaceInputs } from '../../scripts/surface.ts'
import { COMMANDS } from '../../src/commands/index.ts'

const actionYaml = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')
const reference = readFileSync(new URL('../../docs/reference.md', import.meta.url), 'utf8')
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe('docs/reference.md', () => {
  it('names every input and output of action.yml, with Required, Default and the commands', () => {
    const action = parse(actionYaml) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> }
    expect(reference).toContain('| input | required | default | commands | description |')
    expect(reference).toContain('| output | commands | description |')
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)])
      expect(reference).toContain(`| \`${name}\` |`)
  })

  it('says which commands read an input and set an output as the code does', () => {
    const readers = new Map(surfaceInputs(COMMANDS).map(({ name, readers }) => [name, readers]))
    expect(readers.get('hub-url')).toEqual(['every command'])
    expect(readers.get('rendered-base')).toEqual(['impact'])
    expect(readers.get('mcp-trusted-origin')).toEqual(['impact']) // read by the row's checks, not its schema
    expect(readers.get('timeout-seconds')).toEqual(expect.arrayContaining(['run', 'wait', 'approve', 'rollout']))
    const setters = outputSetters(COMMANDS)
    expect(setters.get('cancel-result')).toEqual(['cancel'])
    expect(setters.get('approval-id')).toEqual(expect.arrayContaining(['run', 'wait', 'approve']))
    expect(setters.get('lagging')).toEqual(['rollout'])
    expect(setters.get('result-file')).toEqual(
      expect.arrayContaining(['run', 'impact', 'query', 'rollout', 'dry-run: true']),
    )
  })
})

describe('README.md', () => {
  it('is the front door: at most ~400 lines, with the Getting started section', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(400)
    expect(readme).toMatch(/^## Getting started on your hub$/m)
  })

  it('says what a wrong org or workspace does today: the whoami check stops the step; and that whoami’s clusterID is cluster-id', () => {
    const started = /^## Getting started on your hub\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? ''
    const prose = started.replace(/\s+/g, ' ')
    expect(prose).not.toMatch(/a query finds nothing/)
    expect(prose).toMatch(
      /first asks the hub who the token is there \(`GET …\/whoami`\), and stops before sending anything else/,
    )
    expect(prose).toMatch(/That `clusterID` is the workspace's cluster id: the value for `cluster-id`/)
  })

  it('says how long `npm test` and `bash .ci/run` take', () => {
    const row = (command: string) => readme.split('\n').find((line) => line.startsWith(`| \`${command}\` |`)) ?? ''
    expect(row('npm test')).toMatch(/about \d+ minutes/)
    expect(row('bash .ci/run')).toMatch(/about \d+ minutes/)
  })

  it('has recipes read the hub URL from the HUB_URL variable, which it says to add, instead of a hard-coded one', () => {
    const recipes = [
      readme,
      ...readdirSync(new URL('../../examples/', import.meta.url)).map((name) =>
        readFileSync(new URL(`../../examples/${name}`, import.meta.url), 'utf8'),
      ),
    ]
    const urls = recipes.flatMap((text) => [...text.matchAll(/^\s*hub-url: (.*)$/gm)].map((match) => match[1]))
    expect(urls.length).toBeGreaterThan(10)
    expect(urls.filter((url) => !url?.startsWith('${{ vars.HUB_URL }}'))).toEqual([])
    expect(readme).toMatch(/configuration variables\s+`HUB_URL`/)
  })

  it('shows the two set-up commands on its first screen', () => {
    const firstScreen = readme.split('\n').slice(0, 50).join('\n')
    expect(firstScreen).toContain('npm ci && npm run demo')
    expect(firstScreen).toContain('npm ci && npm test')
  })
})

describe('README Versioning', () => {
  const versioning = /^## Versioning\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? ''
  const changelog = readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8')

  it('says how to pin this action by commit SHA, with the version in a comment', () => {
    expect(versioning).toMatch(/`uses: acme\/hub-action@<[^>]*commit SHA> # v\d+\.\d+\.\d+`/)
    // Both ways to find the commit of a release tag; for an annotated tag, ls-remote needs the `*`
    // to list the peeled `^{}` line, which is the commit.
    expect(versioning).toContain('gh api repos/acme/hub-action/commits/v1.2.3 --jq .sha')
    expect(versioning).toContain("git ls-remote --tags https://github.com/acme/hub-action 'v1.2.3*'")
    expect(versioning).toMatch(/Dependabot \(`package-ecosystem: github-actions`\) updates such pins/)
  })

  it('says, where it asks to replace the pin, to replace the all-zero SHA every recipe pins, and how to find the commit', () => {
    const firstRun = readFileSync(new URL('../../examples/first-run.yml', import.meta.url), 'utf8')
    const command = 'git ls-remote https://github.com/acme/hub-action HEAD'
    for (const [name, text] of [
      ['README.md', readme],
      ['examples/first-run.yml', firstRun],
    ]) {
      expect(text, name).not.toMatch(/replace `@v1`/)
      expect(text, name).toMatch(/replace the (all-zero SHA|zeros)/)
      expect(text, name).toContain(command)
    }
    expect(firstRun).toMatch(/uses: acme\/hub-action@0{40} # v1\.0\.0/)
    const started = /^## Getting started on your hub\n([\s\S]*?)^## /m.exec(readme)?.[1] ?? ''
    expect(started).toContain(command)
  })

  it('says that no release is tagged yet exactly while CHANGELOG.md has no release section', () => {
    const released = /^## \[\d+\.\d+\.\d+[^\]]*\]/m.test(changelog)
    expect(
      versioning.includes('No release is tagged yet'),
      released ? 'CHANGELOG.md has a release' : 'CHANGELOG.md has only Unreleased',
    ).toBe(!released)
  })
})
