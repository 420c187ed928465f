/**
 * The notice on the diff: its title names the object, so the message does not name it again, and
 * counts read "upstream, downstream" as in the comment, the summary and the log.
 */
import { describe, expect, it } from 'vitest'
import { impactAnnotations } from '../../../../src/commands/impact/annotations.ts'
import type { RelatedObject, TargetImpact } from '../../../../src/commands/impact/model.ts'
import type { Target } from '../../../../src/model/target.ts'

const target: Target = {
  group: 'apps',
  kind: 'Deployment',
  namespace: 'shop',
  name: 'checkout',
  origin: { kind: 'manifest', path: 'deploy/checkout.yaml', change: 'modified', line: 2 },
}
const related = (count: number): RelatedObject[] =>
  Array.from({ length: count }, (_, at) => ({
    group: '',
    kind: 'Pod',
    namespace: 'shop',
    name: `pod-${at}`,
    relations: ['descendants'],
  }))
const impact = (edge: string, upstream: number, downstream: number): TargetImpact => ({
  target: { ...target, edge },
  edge,
  upstream: related(upstream),
  downstream: related(downstream),
  associated: [],
  incomplete: false,
})

describe('impact notice', () => {
  it('names the object once (in the title) and counts upstream before downstream', async () => {
    const [notice] = await impactAnnotations(
      { targets: [target], impacts: [impact('prod-eu', 6, 4), impact('prod-us', 5, 3)], notFound: [] },
      { root: undefined, changedPaths: [] },
    )
    expect(notice?.title).toBe('hub-action impact: Deployment.apps shop/checkout')
    expect(notice?.message).toBe(
      'Modified: 6 upstream, 4 downstream on prod-eu; 5 upstream, 3 downstream on prod-us. See the job summary for the objects.',
    )
    expect(notice?.message).not.toContain('shop/checkout')
  })

  it('says a target found on no edge has unknown impact, without repeating its name', async () => {
    const [notice] = await impactAnnotations(
      { targets: [target], impacts: [], notFound: [target] },
      { root: undefined, changedPaths: [] },
    )
    expect(notice?.message).toMatch(/^Modified: not found on any edge, so its impact is unknown/)
  })
})
