/**
 * Input messages name the input's bad value and a fix a user can apply as written (issue 12):
 * a duration gets its seconds, a manifest-style `apiVersion` its `group`, an unknown QuerySpec
 * field the fields allowed at that place, and parser errors no stray punctuation.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { durationFix } from '../../../src/settings/fields.ts'
import { ImpactSchema } from '../../../src/commands/impact/inputs.ts'
import { QuerySchema } from '../../../src/commands/query/inputs.ts'
import { loadStructuredParser } from '../../../src/settings/structured.ts'
import { COMMANDS } from '../../../src/commands/index.ts'
import { inputDefaults } from '../../../src/settings/defaults.ts'

const INPUT_DEFAULTS = inputDefaults(COMMANDS)

function targetsMessages(targets: string): string[] {
  const result = ImpactSchema.safeParse({ ...INPUT_DEFAULTS, targets }) // the impact schema reads its own inputs among the defaults
  return result.success ? [] : result.error.issues.map((issue) => issue.message)
}

function queryMessages(query: string): string[] {
  const result = QuerySchema.safeParse({ query, 'max-objects': '100', 'timeout-seconds': '60' })
  return result.success ? [] : result.error.issues.map((issue) => issue.message)
}

beforeAll(loadStructuredParser)

describe('durationFix', () => {
  it.each([
    ['30m', 'Write 1800 (30m in seconds).'],
    ['1h30m', 'Write 5400 (1h30m in seconds).'],
    ['2 hours', 'Write 7200 (2 hours in seconds).'],
    ['90 seconds', 'Write 90 (90 seconds in seconds).'],
  ])('turns %s into seconds', (text, fix) => expect(durationFix(text)).toBe(fix))

  it.each(['abc', '1.5', '-1', '30mx', '5x', ''])('says nothing for %j, which is no duration', (text) =>
    expect(durationFix(text)).toBeUndefined(),
  )
})

describe('targets messages', () => {
  it('show the bad value', () => {
    expect(targetsMessages('[{kind: Deployment, name: Checkout}]')).toEqual([
      'item 1 (`name`): "Checkout" must be a Kubernetes object name (lower-case letters, digits, "-" and ".").',
    ])
    expect(targetsMessages('hello')).toEqual([
      'must be a list of objects, each with `kind` and `name` (and optional `group`, `namespace`, `edge`); it is "hello". Give a list such as [{kind: Deployment, name: checkout}].',
    ])
  })

  it('say "an object" of an item that is not one', () => {
    expect(targetsMessages('[5]')).toEqual(['item 1: "5" is not an object.'])
  })

  it('tell a missing field from a wrong one', () => {
    expect(targetsMessages('[{name: checkout}]')).toEqual(['item 1 (`kind`): is required: a kind such as Deployment.'])
    expect(targetsMessages('[{kind: 5, name: checkout}]')).toEqual([
      'item 1 (`kind`): "5" must be text: a kind such as Deployment.',
    ])
  })

  it('turn a manifest-style apiVersion into the group to write', () => {
    expect(targetsMessages('[{apiVersion: apps/v1, kind: Deployment, name: checkout}]')).toEqual([
      'item 1 (unknown `apiVersion`; allowed: kind, name, group, namespace, edge): has fields the action does not know: for `apiVersion: apps/v1` write `group: apps`.',
    ])
    expect(targetsMessages('[{apiVersion: v1, kind: ConfigMap, name: settings}]')[0]).toContain(
      '`apiVersion: v1` is the core group',
    )
  })

  it('quote the parser without its trailing colon', () => {
    const [message] = targetsMessages('{a: [1, 2}')
    expect(message).toMatch(/^is not valid YAML or JSON: .+ at line 1, column \d+\. Give a list such as/)
    expect(message).not.toMatch(/:\./)
  })
})

describe('query messages', () => {
  it('list the fields allowed where an unknown one stands', () => {
    expect(queryMessages('{filtr: {}}')).toEqual([
      'is not a valid QuerySpec: unknown field `filtr`; allowed: root, cluster, filter, limit, order, count, maxDepth, objects.',
    ])
    expect(queryMessages('{filter: {objects: [{nam: x}]}}')[0]).toContain(
      'at `filter.objects.0`: unknown field `nam`; allowed: groupKind, name, namespace, labels,',
    )
    expect(queryMessages('{objects: {relations: {descendants+: {limt: 3}}}}')).toEqual([
      'is not a valid QuerySpec at `objects.relations.descendants+`: unknown field `limt`; allowed: limit, filters, objects.',
    ])
  })

  it('show the bad value and the range or the values allowed', () => {
    expect(queryMessages('{limit: 0}')).toEqual([
      'is not a valid QuerySpec at `limit`: "0" is too small: the least is 1.',
    ])
    expect(queryMessages('{root: nodes}')).toEqual([
      'is not a valid QuerySpec at `root`: "nodes" is not one of objects, clusters.',
    ])
  })

  it('say "an object" or "a list", with an example of the shape wanted there (issue 21)', () => {
    expect(queryMessages('[1, 2]')).toEqual([
      'is not a valid QuerySpec: is not an object such as {filter: {objects: [{groupKind: {apiGroup: apps, kind: Deployment}}]}}.',
    ])
    expect(queryMessages('{filter: {objects: {name: x}}}')).toEqual([
      'is not a valid QuerySpec at `filter.objects`: is not a list such as [{groupKind: {apiGroup: apps, kind: Deployment}, namespace: shop}].',
    ])
    expect(queryMessages('{filter: {objects: [{groupKind: Deployment}]}}')).toEqual([
      'is not a valid QuerySpec at `filter.objects.0.groupKind`: "Deployment" is not an object such as {apiGroup: apps, kind: Deployment}.',
    ])
    expect(queryMessages('{objects: {object: {metadata: yes}}}')).toEqual([
      'is not a valid QuerySpec at `objects.object.metadata`: "yes" is neither true nor a tree of fields such as {name: true}.',
    ])
    expect(queryMessages('{objects: {relations: {owners: 3}}}')[0]).toContain(
      '"3" is not an object such as {limit: 50,',
    )
  })

  it('refuse `page` and `cursor` as one problem: the action pages by itself', () => {
    const problem =
      'must not set `page` or `cursor`: the action follows every page by itself (`limit` in the query sets the page size, the `max-objects` input the total).'
    expect(queryMessages('{page: 2, cursor: abc}')).toEqual([`${problem} Remove \`page\` and \`cursor\`.`])
    expect(queryMessages('{cursor: true, limit: 50}')).toEqual([`${problem} Remove \`cursor\`.`])
    // The rest of the spec is still checked, so every problem shows at once.
    expect(queryMessages('{page: {cursor: x}, limit: 0}')).toEqual([
      `${problem} Remove \`page\`.`,
      'is not a valid QuerySpec at `limit`: "0" is too small: the least is 1.',
    ])
  })

  it('point a kubectl-style `kind:` at `filter.objects[].groupKind`', () => {
    expect(queryMessages('kind: Deployment')[0]).toMatch(
      /unknown field `kind`; allowed: .+; the kind goes in `filter.objects\[\].groupKind`: \{filter: \{objects: \[\{groupKind: \{kind: Deployment\}\}\]\}\}\.$/,
    )
    expect(queryMessages('{filter: {kind: Pod, namespace: shop}}')[0]).toContain(
      'the kind goes in `filter.objects[].groupKind`: {filter: {objects: [{groupKind: {kind: Pod}, namespace: shop}]}}.',
    )
    expect(queryMessages('{filter: {objects: [{apiVersion: apps/v1, kind: Deployment}]}}')[0]).toContain(
      'a selector names its kind in `groupKind`: {groupKind: {apiGroup: apps, kind: Deployment}}.',
    )
    expect(queryMessages('{filter: {objects: [{groupKind: {group: apps, kind: Deployment}}]}}')[0]).toContain(
      'unknown field `group`; allowed: apiGroup, kind; the group is `apiGroup` here: {apiGroup: apps, kind: Deployment}.',
    )
    expect(queryMessages('{filtr: {}}')[0]).not.toContain('groupKind')
  })

  it('refuse a value that contains itself or nests past 64 levels, before a schema walks it', () => {
    expect(queryMessages('objects: &p {relations: {descendants+: {objects: *p}}}')[0]).toMatch(
      /^is not valid JSON or YAML: an alias \(\*name\) stands inside the anchor \(&name\) it names, .+\. Give a QuerySpec/,
    )
    expect(targetsMessages('- &t {kind: Deployment, name: checkout, labels: [*t]}')[0]).toContain(
      'stands inside the anchor',
    )
    expect(queryMessages(`${'['.repeat(80)}${']'.repeat(80)}`)[0]).toContain('it nests deeper than 64 levels')
    // The same anchor twice, side by side, is no cycle.
    expect(targetsMessages('- &t {kind: Deployment, name: checkout}\n- *t')).toEqual([])
  })

  it('end a parser error with an example, not stray punctuation', () => {
    const [message] = queryMessages('{a: [1, 2}')
    expect(message).toMatch(/^is not valid JSON or YAML: .+ column \d+\. Give a QuerySpec such as \{/)
  })
})
