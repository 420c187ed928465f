/**
 * What the demo's impact, query and rollout steps work on: a small pull request that scales the checkout
 * Deployment (its head checked out in a throw-away workspace, as actions/checkout would), and a
 * query for every Deployment on every edge of the hub emulator's demo fleet.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const owner = 'acme'
const repo = 'shop'
const number = 42
const baseSha = '0a1b2c3d4e5f60718293a4b5c6d7e8f901234567'
const headSha = '4c5e1f0b9a7d3e2c1b0a9f8e7d6c5b4a39281706'
const changed = 'deploy/shop/checkout.yaml'

export const PULL_REQUEST = {
  owner,
  repo,
  number,
  baseSha,
  headSha,
  title: 'Scale checkout to 4 replicas',
  changed,
  /** The payload the runner writes to GITHUB_EVENT_PATH for a pull_request run. */
  event: {
    action: 'synchronize',
    number,
    pull_request: { number, base: { sha: baseSha }, head: { sha: headSha } },
    repository: { name: repo, full_name: `${owner}/${repo}`, owner: { login: owner } },
  },
} as const

const CHECKOUT_AT_HEAD = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata:',
  '  name: checkout',
  '  namespace: shop',
  'spec:',
  '  replicas: 4',
  '  template:',
  '    spec:',
  '      containers:',
  '        - name: checkout',
  '          image: registry.acme.test/shop/checkout:2.4.0',
  '',
].join('\n')

/** What the rollout gate waits for: the frontend as deployed, which every edge of the demo fleet runs. */
export const FRONTEND = 'deploy/shop/frontend.yaml'
export const FRONTEND_DEPLOYED = [
  'apiVersion: apps/v1',
  'kind: Deployment',
  'metadata: {name: frontend, namespace: shop}',
  'spec:',
  '  replicas: 2',
  '  template:',
  '    spec:',
  '      containers: [{name: frontend, image: "registry.acme.test/shop/frontend:1.14.2"}]',
  '',
].join('\n')

/** A canary the demo fleet runs unhealthy on edge staging: a gate on it names that edge. */
export const CANARY_TARGETS =
  '- {kind: Deployment, group: apps, namespace: canary, name: checkout-canary, edge: staging}'

/** The pull request's head, checked out; `cleanup()` removes it. */
export function pullRequestWorkspace(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'hub-action-demo-'))
  const path = join(dir, changed)
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, CHECKOUT_AT_HEAD)
  writeFileSync(join(dir, FRONTEND), FRONTEND_DEPLOYED)
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** Every Deployment on every edge: its edge, group and kind, namespace, name and replicas. */
export const QUERY = [
  'filter:',
  '  objects:',
  '    - groupKind: {apiGroup: apps, kind: Deployment}',
  'objects:',
  '  cluster: true',
  '  object:',
  '    apiVersion: true',
  '    kind: true',
  '    metadata: {name: true, namespace: true}',
  '    spec: {replicas: true}',
].join('\n')
