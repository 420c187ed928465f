/**
 * walkRelations: every node of a nested relation tree (the engine nests transitive relations:
 * Deployment → ReplicaSets → Pods, with no `cluster` below the first level), with its depth,
 * parent and the edge inherited from the nearest ancestor that has one.
 */
import { describe, expect, it } from 'vitest'
import { walkRelations, type ObjectResult } from '../../../src/hub/graph.js'

const named = (name: string, extra: Partial<ObjectResult> = {}): ObjectResult => ({
  object: { metadata: { name } },
  ...extra,
})
const nameOf = (node: ObjectResult) => (node.object?.metadata as { name: string }).name

describe('walkRelations', () => {
  it('walks every level of a transitive tree, parents first, with depth, parent and the inherited edge', () => {
    const pod1 = named('web-abc-1')
    const pod2 = named('web-abc-2')
    const rs = named('web-abc', { id: 'rs', cluster: 'acme/ws/prod-eu', relations: { 'descendants+': [pod1, pod2] } })
    const cm = named('web-config', { cluster: 'acme/ws/prod-eu' })
    const root = named('web', { cluster: 'acme/ws/prod-eu', relations: { 'descendants+': [rs], references: [cm] } })
    const walked = [...walkRelations(root)]
    expect(walked.map((n) => [nameOf(n.node), n.relation, n.depth, nameOf(n.parent), n.cluster, n.inherited])).toEqual([
      ['web-abc', 'descendants+', 1, 'web', 'acme/ws/prod-eu', false],
      ['web-abc-1', 'descendants+', 2, 'web-abc', 'acme/ws/prod-eu', true],
      ['web-abc-2', 'descendants+', 2, 'web-abc', 'acme/ws/prod-eu', true],
      ['web-config', 'references', 1, 'web', 'acme/ws/prod-eu', false],
    ])
    // the hub's nodes are handed out as they are, not copied or filled in
    expect(walked[1]?.node).toBe(pod1)
    expect(pod1.cluster).toBeUndefined()
  })

  it('inherits from the nearest ancestor with an edge, and says so only when one exists', () => {
    const deep = named('p')
    const mid = named('rs', { relations: { 'descendants+': [deep] } })
    const other = named('x', { cluster: 'ws/prod-us', relations: { 'descendants+': [named('y')] } })
    const withEdge = [
      ...walkRelations(named('d', { cluster: 'ws/prod-eu', relations: { 'descendants+': [mid], linked: [other] } })),
    ]
    expect(withEdge.map((n) => [nameOf(n.node), n.cluster, n.inherited])).toEqual([
      ['rs', 'ws/prod-eu', true],
      ['p', 'ws/prod-eu', true],
      ['x', 'ws/prod-us', false],
      ['y', 'ws/prod-us', true],
    ])
    const noEdge = [...walkRelations(named('d', { relations: { 'descendants+': [mid] } }))]
    expect(noEdge.map((n) => [nameOf(n.node), n.cluster, n.inherited])).toEqual([
      ['rs', undefined, false],
      ['p', undefined, false],
    ])
  })

  it('yields nothing for a row without relations, and skips what is not an object', () => {
    expect([...walkRelations(named('alone'))]).toEqual([])
    const odd = {
      relations: { references: [null, 'text', [1], named('ok')], owners: 'not a list' },
    } as unknown as ObjectResult
    expect([...walkRelations(odd)].map((n) => nameOf(n.node))).toEqual(['ok'])
  })

  it('walks a tree 10,000 levels deep without overflowing the stack', () => {
    let node: ObjectResult = named('leaf')
    for (let i = 0; i < 10_000; i++) node = named(`n${i}`, { relations: { 'descendants+': [node] } })
    let deepest = 0
    for (const entry of walkRelations(node)) deepest = Math.max(deepest, entry.depth)
    expect(deepest).toBe(10_000)
  })
})
