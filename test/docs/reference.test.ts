/**
 * The README's inputs and outputs tables are generated from action.yml and must match it; its
 * Versioning section says how to pin the action and whether a release exists yet.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { renderTables, updateReadme } from '../../scripts/readme-tables.ts'

const actionYaml = readFileSync(new URL('../../action.yml', import.meta.url), 'utf8')
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')

describe('README tables', () => {
  it('are what action.yml generates (run `npm run docs` after changing action.yml)', () => {
    expect(updateReadme(readme, renderTables(actionYaml))).toBe(readme)
  })

  it('name every input and output of action.yml', () => {
    const action = parse(actionYaml) as { inputs: Record<string, unknown>; outputs: Record<string, unknown> }
    for (const name of [...Object.keys(action.inputs), ...Object.keys(action.outputs)]) expect(readme).toContain(`| \`${name}\` |`)
  })

  it('a newly added input makes the check fail until the README is regenerated', () => {
    const withNew = actionYaml.replace('inputs:\n', 'inputs:\n  brand-new:\n    description: A new input.\n    default: x\n')
    expect(updateReadme(readme, renderTables(withNew))).not.toBe(readme)
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

  it('says that no release is tagged yet exactly while CHANGELOG.md has no release section', () => {
    const released = /^## \[\d+\.\d+\.\d+[^\]]*\]/m.test(changelog)
    expect(versioning.includes('No release is tagged yet'), released ? 'CHANGELOG.md has a release' : 'CHANGELOG.md has only Unreleased').toBe(!released)
  })
})
