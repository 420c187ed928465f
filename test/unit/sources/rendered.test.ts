/**
 * Rendered manifest sets compared by identity: noise fields ignored, `List` items and `# Source:`
 * comments kept, the first declaration of a duplicate kept, Kustomize origins read; and the
 * notice cap's arithmetic.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { realpath } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import {
  capAnnotations,
  MAX_NOTICES,
  NOTICES_PER_STEP,
  type Annotation,
} from '../../../src/commands/impact/annotations.ts'
import { fingerprint, readRenderedSet, renderedTargets } from '../../../src/sources/rendered.ts'
import { COMMANDS } from '../../../src/commands/index.ts'
import { inputDefaults } from '../../../src/settings/defaults.ts'
import { ImpactSchema } from '../../../src/commands/impact/inputs.ts'

const INPUT_DEFAULTS = inputDefaults(COMMANDS)

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

async function setOf(files: Record<string, string>, globs: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'hub-action-rendered-unit-'))
  dirs.push(dir)
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text)
  return readRenderedSet({ globs, workspace: dir, root: await realpath(dir), defaultNamespace: 'shop' })
}

const deployment = (checksum: string, chart: string, replicas: number) =>
  [
    '---',
    '# Source: shop/templates/deployment.yaml',
    'apiVersion: apps/v1',
    'kind: Deployment',
    'metadata:',
    '  name: checkout',
    `  labels: {helm.sh/chart: "${chart}", app: checkout}`,
    '  creationTimestamp: null',
    'spec:',
    `  replicas: ${replicas}`,
    '  template:',
    '    metadata:',
    `      annotations: {checksum/config: "${checksum}", prometheus.io/scrape: "true"}`,
    'status: {}',
    '',
  ].join('\n')

describe('fingerprint', () => {
  it('ignores checksum annotations, helm.sh/chart, Kustomize build annotations, creationTimestamp and status, and key order', () => {
    const a = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', annotations: { 'checksum/a': '1', keep: 'k' }, labels: { 'helm.sh/chart': 'c-1' } },
      data: { a: '1' },
    }
    const b = {
      data: { a: '1' },
      kind: 'ConfigMap',
      apiVersion: 'v1',
      status: { phase: 'x' },
      metadata: {
        creationTimestamp: null,
        labels: { 'helm.sh/chart': 'c-2' },
        annotations: {
          keep: 'k',
          'checksum/a': '2',
          'config.kubernetes.io/origin': 'path: a.yaml',
          'internal.config.kubernetes.io/id': '1',
        },
        name: 'x',
      },
    }
    expect(fingerprint(a)).toBe(fingerprint(b))
  })

  it('sees every other change: a kept annotation, a label, data, a spec field', () => {
    const base = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', annotations: { keep: 'k' }, labels: { app: 'a' } },
      data: { a: '1' },
    }
    for (const changed of [
      { ...base, metadata: { ...base.metadata, annotations: { keep: 'other' } } },
      { ...base, metadata: { ...base.metadata, labels: { app: 'b' } } },
      { ...base, data: { a: '2' } },
      { ...base, immutable: true },
    ])
      expect(fingerprint(changed)).not.toBe(fingerprint(base))
  })
})

describe('renderedTargets', () => {
  it('labels added, removed and changed objects; an object whose only difference is noise is no target', async () => {
    const list = (role: string) =>
      [
        '---',
        '# Source: shop/templates/rbac.yaml',
        'apiVersion: v1',
        'kind: List',
        'items:',
        '  - apiVersion: rbac.authorization.k8s.io/v1',
        '    kind: Role',
        '    metadata:',
        `      name: ${role}`,
        '',
      ].join('\n')
    const base = await setOf({ 'base.yaml': deployment('aaa', 'shop-1.0.0', 3) + list('reader') }, ['base.yaml'])
    const head = await setOf({ 'head.yaml': deployment('bbb', 'shop-1.0.1', 3) + list('writer') }, ['head.yaml'])
    expect(
      renderedTargets(head, base).map(
        (t) =>
          `${t.kind} ${t.namespace}/${t.name} ${t.origin.kind === 'rendered' ? `${t.origin.change} ${t.origin.source} ${t.origin.path}:${t.origin.line}` : ''}`,
      ),
    ).toEqual([
      'Role shop/writer added shop/templates/rbac.yaml head.yaml:21',
      'Role shop/reader removed shop/templates/rbac.yaml base.yaml:21',
    ])
    const scaled = await setOf({ 'head.yaml': deployment('bbb', 'shop-1.0.1', 4) }, ['head.yaml'])
    expect(
      renderedTargets(scaled, base).map(
        (t) => `${t.kind} ${t.name} ${t.origin.kind === 'rendered' ? t.origin.change : ''}`,
      ),
    ).toEqual(['Deployment checkout changed', 'Role reader removed'])
  })

  it('without a base every object is a target; a duplicate declaration keeps the first; Kustomize origins are read', async () => {
    const kustomized = [
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  annotations:',
      '    config.kubernetes.io/origin: |',
      '      path: ../../base/service.yaml',
      '  name: web',
      '---',
      'apiVersion: v1',
      'kind: Service',
      'metadata:',
      '  name: web',
      '',
    ].join('\n')
    const head = await setOf({ 'a.yaml': kustomized, 'b.yaml': deployment('x', 'y', 1) }, ['*.yaml'])
    expect(head.files).toEqual(['a.yaml', 'b.yaml'])
    expect(
      renderedTargets(head, undefined).map((t) =>
        t.origin.kind === 'rendered'
          ? `${t.kind} ${t.origin.change} ${t.origin.source} ${t.origin.path}:${t.origin.line}`
          : '',
      ),
    ).toEqual([
      'Service rendered ../../base/service.yaml a.yaml:2',
      'Deployment rendered shop/templates/deployment.yaml b.yaml:4',
    ])
  })

  it('reads {{ }} in rendered data as text, and reports a glob that matches only a folder as empty', async () => {
    const text =
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: rules\ndata:\n  alert: "{{ $labels.instance }} down"\n'
    const set = await setOf({ 'r.yaml': text }, ['r.yaml', '.', 'missing/*.yaml'])
    expect(set.objects.map((o) => o.target.name)).toEqual(['rules'])
    expect(set.emptyGlobs).toEqual(['.', 'missing/*.yaml'])
    expect(set.skippedFiles).toEqual([])
  })
})

describe('Kustomize generated names', () => {
  const generated = (name: string, value: string) =>
    `---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ${name}\ndata:\n  LOG_LEVEL: ${value}\n`

  it('a generated ConfigMap whose content hash changed is one changed object, named as at the base', async () => {
    const base = await setOf(
      { 'base.yaml': generated('app-config-7g2hbd8t5k', 'info') + generated('other-4dk5m8b9tc', 'x') },
      ['base.yaml'],
    )
    const head = await setOf(
      { 'head.yaml': generated('app-config-c9bt68g7hm', 'debug') + generated('unrelated-c9bt68g7hm', 'y') },
      ['head.yaml'],
    )
    expect(
      renderedTargets(head, base).map(
        (t) => `${t.name} ${t.origin.kind === 'rendered' ? `${t.origin.change} ${t.origin.path}` : ''}`,
      ),
    ).toEqual([
      'app-config-7g2hbd8t5k changed head.yaml',
      'unrelated-c9bt68g7hm added head.yaml',
      'other-4dk5m8b9tc removed base.yaml',
    ])
  })

  it('names that only look generated, or pairs that are ambiguous, stay added and removed', async () => {
    const base = await setOf(
      { 'base.yaml': generated('app-config-aaaaaaaaaa', 'info') + generated('x-7g2hbd8t5k', '1') },
      ['base.yaml'],
    )
    const head = await setOf(
      {
        'head.yaml':
          generated('app-config-bbbbbbbbbb', 'debug') + generated('x-c9bt68g7hm', '2') + generated('x-d9bt68g7hm', '3'),
      },
      ['head.yaml'],
    )
    expect(
      renderedTargets(head, base).map((t) => `${t.name} ${t.origin.kind === 'rendered' ? t.origin.change : ''}`),
    ).toEqual([
      'app-config-bbbbbbbbbb added',
      'x-c9bt68g7hm added',
      'x-d9bt68g7hm added',
      'app-config-aaaaaaaaaa removed',
      'x-7g2hbd8t5k removed',
    ])
  })
})

describe('capAnnotations', () => {
  const annotation = (downstream: number): Annotation => ({
    file: `f${downstream}.yaml`,
    line: 1,
    title: 't',
    message: 'm',
    downstream,
  })

  it('keeps all when they fit, ordered by downstream', () => {
    const { shown, summary } = capAnnotations([1, 5, 3].map(annotation))
    expect(shown.map((a) => a.downstream)).toEqual([5, 3, 1])
    expect(summary).toBeUndefined()
    expect(capAnnotations(Array.from({ length: MAX_NOTICES }, (_, i) => annotation(i))).summary).toBeUndefined()
  })

  it('over the cap: the most downstream first, then one notice for the rest, within GitHub’s limit with the verdict', () => {
    const { shown, summary } = capAnnotations(Array.from({ length: 30 }, (_, i) => annotation(i)))
    expect(shown.length + 1 + 1).toBe(NOTICES_PER_STEP)
    expect(shown[0]?.downstream).toBe(29)
    expect(summary).toMatch(/^22 more changed object\(s\)/)
  })
})

describe('rendered-head and rendered-base inputs', () => {
  const parse = (inputs: Record<string, string>) =>
    ImpactSchema.safeParse({ ...INPUT_DEFAULTS, 'github-token': '', ...inputs })

  it('are globs, one a line, comments and blank lines left out; rendered-head alone is enough for impact', () => {
    const parsed = parse({
      'rendered-head': 'rendered/*-head.yaml\n\n# the base below\n  other/head.yaml  ',
      'rendered-base': 'rendered/*-base.yaml',
    })
    expect(parsed.success).toBe(true)
    expect(parsed.data?.['rendered-head']).toEqual(['rendered/*-head.yaml', 'other/head.yaml'])
    expect(parsed.data?.['rendered-base']).toEqual(['rendered/*-base.yaml'])
  })

  it('rendered-base without rendered-head is an error that says what to add', () => {
    const parsed = parse({ manifests: 'deploy/*.yaml', 'rendered-base': 'base.yaml' })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`)).toEqual([
      'rendered-base: needs `rendered-head`: the base set is what the head set is compared with. Render the pull request head too and give its files in `rendered-head`.',
    ])
  })
})
