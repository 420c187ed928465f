/**
 * Parsing a manifest a pull request controls: objects found as before, and every hostile shape
 * (template braces, alias bombs, token floods, deep nesting, broken YAML) skipped with a reason
 * for that file only, in bounded time; a cancel stops a long parse.
 */
import { existsSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { isTemplate, targetsFromManifest, TEMPLATE_REASON } from '../../../src/sources/manifests.js'
import type { TargetOrigin } from '../../../src/model/target.js'
import { BILLION_LAUGHS } from '../../fixtures/hostile-yaml.ts'

const ORIGIN: TargetOrigin = { kind: 'manifest', path: 'deploy/app.yaml', change: 'workspace' }
const parse = (text: string, options = {}) => targetsFromManifest('deploy/app.yaml', text, ORIGIN, options)

describe('targetsFromManifest', () => {
  it('finds the objects of every document and List, with the default namespace where none is set', async () => {
    const text = [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata: {name: checkout}',
      '---',
      'apiVersion: v1',
      'kind: List',
      'items:',
      '  - {apiVersion: v1, kind: ConfigMap, metadata: {name: flags, namespace: other}}',
      '  - {apiVersion: v1, kind: Namespace, metadata: {name: shop}}',
    ].join('\n')
    const { targets, skipped } = await parse(text, { defaultNamespace: 'shop' })
    expect(skipped).toBeUndefined()
    expect(targets.map((t) => `${t.group}/${t.kind} ${t.namespace ?? '-'} ${t.name}`)).toEqual([
      'apps/Deployment shop checkout',
      '/ConfigMap other flags',
      '/Namespace - shop',
    ])
  })

  it('skips a template, and tells `{{` without a later `}}` from one', async () => {
    expect(await parse('metadata:\n  name: {{ .Values.name }}\n')).toEqual({
      targets: [],
      skipped: { path: 'deploy/app.yaml', reason: TEMPLATE_REASON },
    })
    expect(isTemplate('a: "{{"\nb: "}}"')).toBe(true)
    expect(isTemplate('a: "}}"\nb: "{{"')).toBe(false)
    expect(isTemplate('a: "{"\nb: "}"')).toBe(false)
  })

  it('answers for a megabyte of `{{` in one pass (the old regex took minutes)', async () => {
    expect(isTemplate('{{'.repeat(512 * 1024))).toBe(false)
    expect(isTemplate(`${'{{'.repeat(512 * 1024)}}}`)).toBe(true)
    // not a template, so it is parsed: the nesting bound ends it at once
    const { skipped } = await parse('{{'.repeat(512 * 1024))
    expect(skipped?.reason).toBe('its YAML nests more than 200 levels of [ ] or { }: no Kubernetes object needs that')
  })

  it('skips an alias bomb with its reason instead of failing the step', async () => {
    const { targets, skipped } = await parse(BILLION_LAUGHS)
    expect(targets).toEqual([])
    expect(skipped?.reason).toBe(
      'its YAML aliases cannot be expanded safely (Excessive alias count indicates a resource exhaustion attack)',
    )
  })

  it('skips a value that contains itself through an alias, in an object or a List, with the reason', async () => {
    const reason =
      'its YAML aliases cannot be expanded safely (an alias (*name) stands inside the anchor (&name) it names, so the value would contain itself; write that part out)'
    const inData = await parse(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: loop, namespace: shop}\ndata: &d {a: {b: *d}}\n',
    )
    expect(inData).toMatchObject({ targets: [], skipped: { reason } })
    const inList = await parse('&l {apiVersion: v1, kind: List, items: [*l]}\n')
    expect(inList).toMatchObject({ targets: [], skipped: { reason } })
  })

  it('still expands a few honest aliases', async () => {
    const text =
      'apiVersion: v1\nkind: List\nitems:\n  - {apiVersion: v1, kind: ConfigMap, metadata: &m {name: shared, namespace: shop}}\n  - {apiVersion: v1, kind: Secret, metadata: *m}\n'
    const { targets } = await parse(text)
    expect(targets.map((t) => `${t.kind} ${t.namespace}/${t.name}`)).toEqual([
      'ConfigMap shop/shared',
      'Secret shop/shared',
    ])
  })

  it('skips a document with more tokens than the budget, before its syntax tree is built', async () => {
    const flood = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: flood}\ndata: [${'a,'.repeat(5000)}]\n`
    expect((await parse(flood)).targets).toHaveLength(1)
    const { targets, skipped } = await parse(flood, { maxTokensPerDocument: 2000 })
    expect(targets).toEqual([])
    expect(skipped?.reason).toBe(
      'a YAML document in it holds more than 2,000 tokens, more than any Kubernetes object needs: split it, or name its objects in `targets`',
    )
  })

  it('counts tokens per document: many small documents pass', async () => {
    const document = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n'
    const { targets, skipped } = await parse(document.repeat(200), { maxTokensPerDocument: 100 })
    expect(skipped).toBeUndefined()
    expect(targets).toHaveLength(200)
  })

  it('skips deep nesting before it can overflow the stack, and broken YAML with its line', async () => {
    expect((await parse('['.repeat(100_000))).skipped?.reason).toBe(
      'its YAML nests more than 200 levels of [ ] or { }: no Kubernetes object needs that',
    )
    expect((await parse(`${'['.repeat(200)}${']'.repeat(200)}`)).skipped?.reason).toBe(
      'holds no Kubernetes object (apiVersion, kind and metadata.name)',
    )
    // brackets inside scalars are text, not nesting
    const scalars = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "a[b]{c}"}\ndata:\n  x: ${'[{a: '.repeat(10)}1${'}]'.repeat(10)}\n  y: a[b}c}\n`
    expect(await parse(scalars)).toEqual({ targets: [expect.objectContaining({ name: 'a[b]{c}' })] })
    expect((await parse('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n---\nkey: : :\n')).skipped?.reason).toBe(
      'not valid YAML (Nested mappings are not allowed in compact mappings at line 5)',
    )
    expect((await parse('- *nowhere\n')).skipped?.reason).toMatch(
      /^its YAML aliases cannot be expanded safely \(Unresolved alias/,
    )
  })

  it('skips a file without Kubernetes objects', async () => {
    expect((await parse('replicas: 3\n')).skipped?.reason).toBe(
      'holds no Kubernetes object (apiVersion, kind and metadata.name)',
    )
  })

  it('stops a long parse when cancelled, with the cancel reason', async () => {
    const controller = new AbortController()
    const document = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: b, c: d, e: f}\n---\n'
    const parsing = parse(document.repeat(40_000), { signal: controller.signal })
    // the parse yields to the event loop as it goes, so this timer runs while it is under way
    setTimeout(() => controller.abort(new Error('received SIGTERM')), 50)
    await expect(parsing).rejects.toThrow('received SIGTERM')
  })
})

describe('a template', () => {
  it('is skipped with the way forward: render it and pass the output as `rendered-head`, as the Helm example does', () => {
    expect(TEMPLATE_REASON).toContain('as `rendered-head` (examples/helm-impact.yml)')
    expect(existsSync(new URL('../../../examples/helm-impact.yml', import.meta.url))).toBe(true)
  })
})
