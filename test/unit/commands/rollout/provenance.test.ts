/**
 * Provenance: a live object is this release's when kubectl's last-applied annotation is this
 * manifest, or when the applier's managedFields hold exactly its fields (server-side apply) or
 * were written during the step (an update); otherwise the cell says what could not be proven.
 * Fields another manager owns are skipped. Each rule with the managedFields a real API server writes.
 */
import { describe, expect, it } from 'vitest'
import { APPLY_SLACK_MS, provenance } from '../../../../src/commands/rollout/provenance.js'
import { rolloutState } from '../../../../src/commands/rollout/revision.js'

const STARTED = Date.parse('2025-06-02T10:00:00Z')
const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z')

const env = (names: string[]) => names.map((name) => ({ name, value: 'on' }))
const manifest = (names: string[], replicas = 3) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { replicas, template: { spec: { containers: [{ name: 'web', image: 'registry/web:1.5', env: env(names) }] } } },
})

/** The fieldsV1 a server-side apply of `manifest(names)` records. */
const appliedFields = (names: string[], replicas = true) => ({
  'f:spec': {
    ...(replicas ? { 'f:replicas': {} } : {}),
    'f:template': {
      'f:spec': {
        'f:containers': {
          'k:{"name":"web"}': {
            '.': {},
            'f:name': {},
            'f:image': {},
            'f:env': Object.fromEntries(
              names.map((n) => [`k:{"name":"${n}"}`, { '.': {}, 'f:name': {}, 'f:value': {} }]),
            ),
          },
        },
      },
    },
  },
})

const entry = (manager: string, operation: string, at: number, fieldsV1: object, subresource?: string) => ({
  manager,
  operation,
  apiVersion: 'apps/v1',
  time: iso(at),
  fieldsType: 'FieldsV1',
  fieldsV1,
  ...(subresource ? { subresource } : {}),
})

/** As the graph stores it: the live spec, the managedFields, the annotations. */
const live = (names: string[], managedFields: object[] | undefined, annotations: object = {}, replicas = 3) => ({
  ...manifest(names, replicas),
  metadata: {
    name: 'web',
    namespace: 'shop',
    generation: 2,
    annotations,
    ...(managedFields ? { managedFields } : {}),
  },
  status: {
    observedGeneration: 2,
    replicas,
    updatedReplicas: replicas,
    readyReplicas: replicas,
    availableReplicas: replicas,
    conditions: [
      { type: 'Available', status: 'True' },
      { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
    ],
  },
})

describe('provenance', () => {
  it('sees a removal through the last-applied annotation, and proves the manifest once kubectl applied it', () => {
    const want = manifest(['A'])
    const before = live(['A', 'B'], undefined, {
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(manifest(['A', 'B'])),
    })
    // The live object holds everything the new manifest sets, so fields alone would say synced.
    expect(provenance(want, before, STARTED)).toEqual({
      unproven:
        'not applied yet: last-applied-configuration sets spec.template.spec.containers[0].env to [{"name":"A","value":"on"},{"name":"B","value":"on"}], the manifest to [{"name":"A","value":"on"}]',
      skip: new Set(),
    })
    const after = live(['A'], undefined, {
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({ ...want, metadata: { ...want.metadata } }),
    })
    expect(provenance(want, after, STARTED).proof).toBe('last-applied-configuration is this manifest')
  })

  it("sees a removal through a server-side apply's field set, whatever its time", () => {
    const want = manifest(['A'])
    const old = STARTED - 86_400_000
    const before = live(['A', 'B'], [entry('kubectl', 'Apply', old, appliedFields(['A', 'B']))])
    expect(provenance(want, before, STARTED).unproven).toBe(
      'not applied yet: kubectl still applies spec.template.spec.containers[web].env[B], which the manifest removes',
    )
    // An unchanged object re-applied writes nothing, so its time stays old: the exact field set is the proof.
    // Written during the step, what the apply holds beyond the manifest is a webhook's addition.
    const mutated = live(['A', 'B'], [entry('kubectl', 'Apply', STARTED, appliedFields(['A', 'B']))])
    expect(provenance(want, mutated, STARTED).proof).toBe(
      "managedFields: kubectl applied the manifest's fields during this step (at 2025-06-02T10:00:00.000Z); it also holds spec.template.spec.containers[web].env[B], which admission added",
    )
    const after = live(['A'], [entry('kubectl', 'Apply', old, appliedFields(['A']))])
    expect(provenance(want, after, STARTED).proof).toBe(
      "managedFields: kubectl applied exactly the manifest's fields (server-side apply at 2025-06-01T10:00:00.000Z)",
    )
  })

  it("takes no label or annotation a delivery tool added on apply for a removal (Argo CD's tracking, Flux's owner labels)", () => {
    const want = manifest(['A'])
    const byArgo = live(['A'], undefined, {
      'argocd.argoproj.io/tracking-id': 'shop:apps/Deployment:shop/web',
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify({
        ...want,
        metadata: {
          ...want.metadata,
          annotations: { 'argocd.argoproj.io/tracking-id': 'shop:apps/Deployment:shop/web' },
        },
      }),
    })
    expect(provenance(want, byArgo, STARTED).proof).toBe('last-applied-configuration is this manifest')
    const fields = {
      ...appliedFields(['A']),
      'f:metadata': {
        'f:labels': { 'f:kustomize.toolkit.fluxcd.io/name': {}, 'f:kustomize.toolkit.fluxcd.io/namespace': {} },
      },
    }
    const byFlux = live(['A'], [entry('kustomize-controller', 'Apply', STARTED, fields)])
    expect(provenance(want, byFlux, STARTED).proof).toContain('managedFields: kustomize-controller applied exactly')
    // A label the manifest's author removed is a removal.
    const mine = { ...appliedFields(['A']), 'f:metadata': { 'f:labels': { 'f:tier': {} } } }
    expect(
      provenance(want, live(['A'], [entry('kubectl', 'Apply', STARTED - 86_400_000, mine)]), STARTED).unproven,
    ).toBe('not applied yet: kubectl still applies metadata.labels.tier, which the manifest removes')
  })

  it('says a field the manifest adds that no manager holds is not applied yet', () => {
    const now = live(['A'], [entry('kubectl', 'Apply', STARTED, appliedFields(['A']))])
    expect(provenance(manifest(['A', 'C']), now, STARTED).unproven).toBe(
      "not applied yet: spec.template.spec.containers[web].env[C] is in no manager's fields",
    )
  })

  it("requires an update's time within the step, less the slack, since its fields cannot show a removal", () => {
    const want = manifest(['A'])
    const fields = appliedFields(['A'])
    const stale = live(['A'], [entry('helm', 'Update', STARTED - APPLY_SLACK_MS - 1000, fields)])
    expect(provenance(want, stale, STARTED).unproven).toBe(
      "not proven this release: helm last wrote the manifest's fields at 2025-06-02T09:54:59.000Z, before this step started, and an update's fields cannot show a removal",
    )
    const fresh = live(['A'], [entry('helm', 'Update', STARTED - APPLY_SLACK_MS + 1000, fields)])
    expect(provenance(want, fresh, STARTED).proof).toBe(
      "managedFields: helm wrote the manifest's fields at 2025-06-02T09:55:01.000Z, during this step",
    )
  })

  it("skips what another manager owns (an HPA's scale writes), and says whose it is", () => {
    const want = manifest(['A'], 3)
    const scaled = live(
      ['A'],
      [
        entry('kubectl', 'Apply', STARTED, appliedFields(['A'], false)),
        entry('kube-controller-manager', 'Update', STARTED + 5000, { 'f:spec': { 'f:replicas': {} } }, 'scale'),
      ],
      {},
      5,
    )
    const shown = provenance(want, scaled, STARTED)
    expect(shown.skip).toEqual(new Set(['spec.replicas']))
    expect(shown.proof).toBe(
      "managedFields: kubectl applied exactly the manifest's fields (server-side apply at 2025-06-02T10:00:00.000Z); not compared, owned by kube-controller-manager (spec.replicas)",
    )
    expect(rolloutState(want, scaled, STARTED, { manifest: true, startedAt: STARTED })).toMatchObject({
      state: 'rolled-out',
    })
    // Without managedFields, replicas 5 against the manifest's 3 is a difference…
    expect(rolloutState(want, live(['A'], undefined, {}, 5), STARTED, { manifest: true }).reason).toBe(
      'not synced: spec.replicas is 5, the manifest sets 3',
    )
    // …unless an HPA among the manifests scales it.
    expect(
      rolloutState(want, live(['A'], undefined, {}, 5), STARTED, { manifest: true, skip: ['spec.replicas'] }).state,
    ).toBe('rolled-out')
  })

  it('takes the writer of the last-applied annotation for the applier, and the latest writer for an update', () => {
    const want = manifest(['A'])
    const annotation = {
      'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/last-applied-configuration': {} } },
    }
    // Created by `kubectl create` (owning most), then applied client-side with a new image: that apply is the applier,
    // so the image it owns is compared, not skipped as another manager's.
    const created = entry('kubectl-create', 'Update', STARTED - 86_400_000, appliedFields(['A']))
    const applied = entry('kubectl-client-side-apply', 'Update', STARTED, {
      ...annotation,
      'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"web"}': { 'f:image': {} } } } } },
    })
    const object = live(['A'], [created, applied], {
      'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(want),
    })
    const stale = {
      ...object,
      spec: {
        ...object.spec,
        template: { spec: { containers: [{ name: 'web', image: 'registry/web:1.4', env: env(['A']) }] } },
      },
    }
    expect(rolloutState(want, stale, STARTED, { manifest: true, startedAt: STARTED }).reason).toBe(
      'not synced: spec.template.spec.containers[web].image is "registry/web:1.4", the manifest sets "registry/web:1.5"',
    )
    // Without the annotation, an update's proof is the latest write of the manifest's fields.
    const replaced = entry('kubectl-replace', 'Update', STARTED, appliedFields(['A']))
    expect(provenance(want, live(['A'], [created, replaced]), STARTED).proof).toBe(
      "managedFields: kubectl-replace wrote the manifest's fields at 2025-06-02T10:00:00.000Z, during this step",
    )
  })

  it('never takes managedFields it cannot read for none (which would leave fields alone)', () => {
    const many = Array.from({ length: 300 }, (_, i) => entry(`m${i}`, 'Update', STARTED, {}))
    expect(provenance(manifest(['A']), live(['A'], many), STARTED).unproven).toBe(
      'unreadable: metadata.managedFields has 300 entries (more than 256)',
    )
    const odd = { ...live(['A'], undefined), metadata: { name: 'web', managedFields: 'yes' } }
    expect(rolloutState(manifest(['A']), odd, STARTED, { manifest: true }).reason).toBe(
      'unreadable: metadata.managedFields is not a list',
    )
  })

  it('compares fields only when the object carries neither record, and says so', () => {
    expect(provenance(manifest(['A']), live(['A', 'B'], undefined), STARTED)).toEqual({
      proof:
        'fields only: the object carries neither last-applied-configuration nor managedFields, so a removal cannot be seen',
      skip: new Set(),
    })
  })

  it('holds a row of another API version as "cannot compare", never as not synced', () => {
    const hpa = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: 'shop' },
      spec: {
        minReplicas: 2,
        metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization' } } }],
      },
    }
    const row = { ...hpa, apiVersion: 'autoscaling/v1', spec: { minReplicas: 2, targetCPUUtilizationPercentage: 80 } }
    expect(rolloutState(hpa, row, STARTED, { manifest: true })).toEqual({
      state: 'in-progress',
      reason:
        'cannot compare this read: the graph holds autoscaling/v1 (one row per object whatever the version), the manifest is autoscaling/v2',
      proof: 'not compared: the row is of another API version',
    })
    // A target named in `targets` has no manifest version to hold the row to.
    expect(rolloutState({ ...hpa, spec: undefined }, row, STARTED).state).not.toBe('in-progress')
  })
})
