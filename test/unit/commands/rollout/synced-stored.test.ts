/**
 * Synced, as the API server stores an object (docs/hub-facts.md, "What the API server stores"):
 * every top-level field a manifest sets and its labels and annotations, zero values it omits,
 * SQLite's 1/0 booleans, quantities wherever the API type is one, tolerations as a set, and
 * the fields other managers own. One case per rule.
 */
import { describe, expect, it } from 'vitest'
import { differenceText, firstDifference } from '../../../../src/commands/rollout/synced.js'

const deployment = (pod: object, template: object = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { replicas: 2, template: { ...template, spec: pod } },
})
const container = (extra: object = {}) => ({ name: 'web', image: 'registry/web:1.5', ...extra })
/** As the API server stores it: defaults filled in, a sidecar injected. */
const stored = (extra: object = {}, template: object = {}, pod: object = {}) =>
  deployment(
    {
      containers: [
        { name: 'istio-proxy', image: 'istio/proxyv2:1.22' },
        container({ imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', ...extra }),
      ],
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      ...pod,
    },
    template,
  )
const text = (want: unknown, live: unknown) => {
  const d = firstDifference(want as Record<string, unknown>, live)
  return d && differenceText(d)
}

describe('firstDifference, as the API server stores an object', () => {
  const object = (kind: string, body: object, apiVersion = 'v1') => ({
    apiVersion,
    kind,
    metadata: { name: 'x', namespace: 'shop' },
    ...body,
  })

  it("compares a Role's rules, a binding's subjects and roleRef, and a ServiceAccount's fields", () => {
    const rbac = 'rbac.authorization.k8s.io/v1'
    const role = (verbs: string[]) => object('Role', { rules: [{ apiGroups: [''], resources: ['pods'], verbs }] }, rbac)
    expect(text(role(['get', 'list']), role(['get', 'list', 'watch']))).toBe(
      'rules[0].verbs is ["get","list","watch"], the manifest sets ["get","list"]',
    )
    const binding = (name: string) =>
      object(
        'RoleBinding',
        {
          subjects: [{ kind: 'ServiceAccount', name }],
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' },
        },
        rbac,
      )
    expect(text(binding('deployer'), binding('ci'))).toBe('subjects[0].name is "ci", the manifest sets "deployer"')
    const account = (secret: string, automount: unknown) =>
      object('ServiceAccount', { imagePullSecrets: [{ name: secret }], automountServiceAccountToken: automount })
    expect(text(account('pull-2', false), account('pull-1', false))).toBe(
      'imagePullSecrets[pull-2] is not set, the manifest sets {"name":"pull-2"}',
    )
  })

  it('compares the labels and annotations the manifest sets, and only those', () => {
    const service = (annotations: object, labels: object = {}) => ({
      ...object('Service', { spec: { ports: [{ port: 80 }] } }),
      metadata: { name: 'x', namespace: 'shop', annotations, labels },
    })
    const want = service({ 'service.beta.kubernetes.io/aws-load-balancer-internal': 'true' }, { tier: 'web' })
    const stale = service(
      { 'service.beta.kubernetes.io/aws-load-balancer-internal': 'false', other: 'x' },
      { tier: 'web', extra: 'y' },
    )
    expect(text(want, stale)).toBe(
      'metadata.annotations["service.beta.kubernetes.io/aws-load-balancer-internal"] is "false", the manifest sets "true"',
    )
    expect(text(service({}, { tier: 'api' }), stale)).toBe('metadata.labels.tier is "web", the manifest sets "api"')
  })

  it('takes a zero value the API server omits as absent, and a projected 1 or 0 as the boolean (SQLite)', () => {
    const pod = (spec: object) => deployment({ containers: [container()], ...spec })
    expect(
      firstDifference(pod({ hostNetwork: false, priority: 0, subdomain: '', tolerations: [] }), stored()),
    ).toBeUndefined()
    const live = stored({ securityContext: { runAsNonRoot: 1, readOnlyRootFilesystem: 0 } })
    expect(
      firstDifference(
        deployment({
          containers: [container({ securityContext: { runAsNonRoot: true, readOnlyRootFilesystem: false } })],
        }),
        live,
      ),
    ).toBeUndefined()
    expect(text(deployment({ containers: [container({ securityContext: { runAsNonRoot: false } })] }), live)).toBe(
      'spec.template.spec.containers[web].securityContext.runAsNonRoot is 1, the manifest sets false',
    )
  })

  it('compares quantities wherever the API type is one: LimitRange bounds, quotas, HPA targets, sizeLimit', () => {
    const limits = object('LimitRange', {
      spec: {
        limits: [
          {
            type: 'Container',
            max: { cpu: '2000m' },
            default: { memory: '1024Mi' },
            maxLimitRequestRatio: { cpu: '2' },
          },
        ],
      },
    })
    const live = object('LimitRange', {
      spec: {
        limits: [
          { type: 'Container', max: { cpu: '2' }, default: { memory: '1Gi' }, maxLimitRequestRatio: { cpu: '2' } },
        ],
      },
    })
    expect(firstDifference(limits, live)).toBeUndefined()
    const hpa = (averageValue: string) =>
      object(
        'HorizontalPodAutoscaler',
        {
          spec: {
            metrics: [
              { type: 'Pods', pods: { metric: { name: 'rps' }, target: { type: 'AverageValue', averageValue } } },
            ],
          },
        },
        'autoscaling/v2',
      )
    expect(firstDifference(hpa('1000m'), hpa('1'))).toBeUndefined()
    expect(
      firstDifference(
        object('ResourceQuota', { spec: { hard: { 'requests.memory': '2048Mi' } } }),
        object('ResourceQuota', { spec: { hard: { 'requests.memory': '2Gi' } } }),
      ),
    ).toBeUndefined()
    const emptyDir = (sizeLimit: string) =>
      deployment({ containers: [container()], volumes: [{ name: 'tmp', emptyDir: { sizeLimit } }] })
    expect(firstDifference(emptyDir('1024Mi'), emptyDir('1Gi'))).toBeUndefined()
  })

  it("matches tolerations as a set holding the manifest's (admission adds some)", () => {
    const mine = { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }
    const added = {
      key: 'node.kubernetes.io/not-ready',
      operator: 'Exists',
      effect: 'NoExecute',
      tolerationSeconds: 300,
    }
    expect(
      firstDifference(
        deployment({ containers: [container()], tolerations: [mine] }),
        stored({}, {}, { tolerations: [added, mine] }),
      ),
    ).toBeUndefined()
    expect(
      text(deployment({ containers: [container()], tolerations: [mine] }), stored({}, {}, { tolerations: [added] })),
    ).toBe(
      'spec.template.spec.tolerations[0] is not set, the manifest sets {"key":"dedicated","operator":"Equal","value":"web","effect":"NoSchedule"}',
    )
  })

  it('lets a PVC grow past its manifest, and skips an injected caBundle and what the caller says another manager owns', () => {
    const claim = (storage: string) =>
      object('PersistentVolumeClaim', { spec: { resources: { requests: { storage } } } })
    expect(firstDifference(claim('10Gi'), claim('20Gi'))).toBeUndefined()
    expect(text(claim('10Gi'), claim('5Gi'))).toBe('spec.resources.requests.storage is "5Gi", the manifest sets "10Gi"')
    const hook = (caBundle: string) =>
      object(
        'MutatingWebhookConfiguration',
        { webhooks: [{ name: 'a.example.com', clientConfig: { caBundle, service: { name: 'a' } } }] },
        'admissionregistration.k8s.io/v1',
      )
    expect(firstDifference(hook(''), hook('LS0tLS1CRUdJTi'))).toBeUndefined()
    expect(
      firstDifference(
        deployment({ containers: [container()] }),
        { ...stored(), spec: { ...stored().spec, replicas: 5 } },
        { skip: new Set(['spec.replicas']) },
      ),
    ).toBeUndefined()
  })
})
