/**
 * End to end, which token each route takes (issue 33, items 9 and 10): a service-account token on
 * a graph command is told that graph commands need a user token (not "set `cluster-id`"); a
 * mistyped `cluster-id` on `wait` meets the route's 409 "not mapped yet" (reads check the mapping
 * first), and the message names both causes (docs/hub-facts.md, "Service-account route").
 * dist/index.js against the hub emulator.
 */
import { expect, it } from 'vitest'
import { errorLines as errors, hubInputs, runStep, useHubEmulator } from './harness.ts'

const hub = useHubEmulator({ maxHoldMs: 300 })

it.each([
  ['query', { command: 'query', query: '{filter: {objects: [{groupKind: {kind: Deployment}}]}}' }],
  ['impact', { command: 'impact', targets: '[{kind: Deployment, group: apps, name: checkout, namespace: shop}]' }],
])('a service-account token on %s: graph commands need a user token', async (_name, inputs) => {
  const result = await runStep({ inputs: hubInputs(hub, { token: hub.serviceAccountToken, ...inputs }) })
  expect(result.code).toBe(1)
  const said = errors(result).join('\n')
  expect(said).toContain(
    'The hub refused the token for a graph command (`impact`, `query` and `rollout` each read the fleet graph)',
  )
  expect(said).not.toContain('set `cluster-id`')
})

it('a mistyped cluster-id on wait: the 409 names a wrong cluster id and an unmapped workspace', async () => {
  const result = await runStep({
    inputs: hubInputs(hub, {
      command: 'wait',
      'run-id': 'r-1',
      token: hub.serviceAccountToken,
      'cluster-id': 'c-7f3a9f',
    }),
  })
  expect(result.code).toBe(1)
  const said = errors(result).join('\n')
  expect(said).toContain('409')
  expect(said).toContain('Either `cluster-id` is mistyped')
  expect(said).toContain('whoami does not write it')
})
