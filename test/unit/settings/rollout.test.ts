// `command: rollout`'s inputs: the quorum, the edges, the budget, each bad value named with its fix.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { InputError, loadSettings } from '../../../src/settings/settings.js'
import { COMMANDS, type SettingsFor } from '../../../src/commands/index.js'

const BASE: Record<string, string> = {
  command: 'rollout',
  'hub-url': 'https://hub.example.com',
  token: 'hubtok_Zq8xVv3Kp0',
  org: '11111111-2222-3333-4444-555555555555',
  workspace: '66666666-7777-8888-9999-000000000000',
  targets: '[{kind: Deployment, group: apps, namespace: shop, name: web}]',
}

beforeEach(() => {
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
})
afterEach(() => {
  vi.restoreAllMocks()
})

const env = (inputs: Record<string, string>): NodeJS.ProcessEnv =>
  Object.fromEntries(
    Object.entries({ ...BASE, ...inputs }).map(([name, value]) => [`INPUT_${name.toUpperCase()}`, value]),
  )

async function rollout(inputs: Record<string, string> = {}) {
  return ((await loadSettings(env(inputs), COMMANDS)) as SettingsFor<'rollout'>).rollout
}

async function problems(inputs: Record<string, string>): Promise<readonly string[]> {
  const error = await loadSettings(env(inputs), COMMANDS).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(InputError)
  return (error as InputError).problems
}

describe('rollout inputs', () => {
  it('defaults to every engaged edge, all of them required, 1800 s, fail', async () => {
    expect(await rollout()).toMatchObject({
      edges: undefined,
      require: { kind: 'all' },
      timeoutSeconds: 1800,
      onTimeout: 'fail',
    })
  })

  it('reads edges and a quorum of edges or a percentage', async () => {
    expect(await rollout({ edges: 'prod-eu, prod-us\nprod-eu', require: '2' })).toMatchObject({
      edges: ['prod-eu', 'prod-us'],
      require: { kind: 'edges', count: 2 },
    })
    expect((await rollout({ require: '80%' })).require).toEqual({ kind: 'percent', percent: 80 })
    expect((await rollout({ require: '3 edges' })).require).toEqual({ kind: 'edges', count: 3 })
  })

  it('names each bad value and its fix', async () => {
    expect(await problems({ targets: '' })).toEqual([
      'Input `targets` or `manifests` is required for `command: rollout`, or `rendered-head`: name the objects, or give globs of the manifests that were deployed (the expected state).',
    ])
    expect(await problems({ require: '150%', edges: 'prod eu/x', 'on-timeout': 'cancel' })).toEqual([
      "Input `edges`: \"eu/x\" is not an edge name (letters, digits, '.', '_' and '-'). List edge names separated by commas or new lines, or leave it empty for every engaged edge.",
      'Input `require`: "150%" is not a quorum: use `all` (every target on every edge), a number of edges such as `2`, or a percentage of edges such as `80%` (1 to 100).',
      'Input `on-timeout`: "cancel" is not one of fail, warn. It says what to do when `timeout-seconds` runs out before every target rolled out (`cancel` is for runs).',
    ])
  })

  it('reads `revision` as a value of app.kubernetes.io/version, or as key=value', async () => {
    expect((await rollout()).revision).toBeUndefined()
    expect((await rollout({ revision: ' 1.4.2 ' })).revision).toEqual({
      key: 'app.kubernetes.io/version',
      value: '1.4.2',
    })
    expect((await rollout({ revision: 'helm.sh/chart=web-1.4.2' })).revision).toEqual({
      key: 'helm.sh/chart',
      value: 'web-1.4.2',
    })
  })

  it('defaults the absent grace to 600 s and on-unverifiable to fail, and names bad values', async () => {
    expect(await rollout()).toMatchObject({ absentGraceSeconds: 600, onUnverifiable: 'fail' })
    expect((await rollout({ 'absent-grace-seconds': '60', 'on-unverifiable': 'warn' })).onUnverifiable).toBe('warn')
    const found = await problems({
      revision: 'app version=1.5',
      'absent-grace-seconds': '10m',
      'on-unverifiable': 'pass',
    })
    expect(found).toHaveLength(3)
    expect(found[0]).toMatch(
      /^Input `revision`: "app version=1\.5" is not a revision: give the value the deploy stamps/,
    )
    expect(found[1]).toMatch(/^Input `absent-grace-seconds`: "10m" is not a whole number of seconds\. Write 600/)
    expect(found[2]).toMatch(/^Input `on-unverifiable`: /)
  })
})
