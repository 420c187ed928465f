/**
 * End to end, the query route's sharp edges (issue 33, item 6): what the engine answers with a 500
 * or silently wrong (docs/hub-facts.md, "Relations, more precisely") is an input error naming the
 * field and the fix, and no request is sent. dist/index.js against the hub emulator.
 */
import { expect, it } from 'vitest'
import { errorLines as errors, hubInputs, runStep, useHubEmulator } from './harness.ts'

const hub = useHubEmulator()
const DEPLOYMENTS = { filter: { objects: [{ groupKind: { apiGroup: 'apps', kind: 'Deployment' } }] } }

it.each([
  [
    'a transitive form the hub has not',
    { ...DEPLOYMENTS, objects: { relations: { 'selects+': {} } } },
    'is not a transitive relation the hub has: only `descendants+`, `owners+` and `linked+` exist',
  ],
  [
    'a kind filter on a + relation',
    { ...DEPLOYMENTS, objects: { relations: { 'descendants+': { filters: [{ groupKind: { kind: 'Pod' } }] } } } },
    'cannot filter by kind, name or namespace on a transitive (`+`) relation',
  ],
  [
    'In without values',
    { filter: { objects: [{ labelExpressions: [{ key: 'tier', operator: 'In' }] }] } },
    'needs values with operator In: the hub drops an In expression without values, so the filter would match everything',
  ],
  [
    'a references kind in lower case',
    { ...DEPLOYMENTS, objects: { relations: { references: { filters: [{ groupKind: { kind: 'configmap' } }] } } } },
    'compares exactly and case-sensitively, so "configmap" matches nothing: write the kind as Kubernetes spells it (ConfigMap)',
  ],
])('%s: an input error, nothing sent', async (_name, spec, words) => {
  const result = await runStep({ inputs: hubInputs(hub, { command: 'query', query: JSON.stringify(spec) }) })
  expect(result.code).toBe(1)
  expect(errors(result).join('\n')).toContain(words)
  expect(hub.requests).toEqual([])
})

it('a negative limit: an input error too (the hub would take the default instead)', async () => {
  const result = await runStep({
    inputs: hubInputs(hub, { command: 'query', query: JSON.stringify({ ...DEPLOYMENTS, limit: -5 }) }),
  })
  expect(result.code).toBe(1)
  expect(errors(result).join('\n')).toContain('`limit`')
  expect(hub.requests).toEqual([])
})
