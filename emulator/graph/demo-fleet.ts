// The demo fleet: a realistic workspace over three edges, the default fleet of the hub emulator.
import type { Fleet, FleetOptions } from './fleet.ts'
import { Builder, GROUP_LABEL, LINKED_ANNOTATION, createFleet } from './fleet.ts'
import { container, cronJob, daemonSet, deployment, statefulSet } from './workloads.ts'

const DEMO_EDGES = ['prod-eu', 'prod-us', 'staging'] as const

/** The recommended labels: their keys hold a `.`, which the engine's selectors on SQLite never match. */
const recommended = (name: string, partOf: string) => ({
  'app.kubernetes.io/name': name,
  'app.kubernetes.io/part-of': partOf,
})

/**
 * A realistic fleet over three edges; every workload has its ReplicaSet/Pods (or Pods, or Job
 * and Pod) with owner references and the template's volumes, env and labels, and statuses a
 * rollout gate accepts (except the unhealthy canary).
 * - prod-eu, prod-us: namespaces `shop`, `payments`; staging: `shop`, `canary` (canary only on staging).
 * - Deployment `checkout` (ns `shop`) on prod-eu (3 pods) and prod-us (2 pods): its Pods mount
 *   ConfigMap `checkout-config` (volume and envFrom), read Secret `checkout-db` and ConfigMap
 *   `feature-flags` through env, pull with Secret `regcred`, run as ServiceAccount `checkout`;
 *   Service `checkout` (spec.selector) and PDB `checkout` select its Pods; HPA `checkout` scales
 *   it; Ingress `shop` routes to Services; both checkouts are `grouped` (label kuery.io/group).
 * - Deployment `frontend` (ns `shop`, every edge): its Pods mount ConfigMap `frontend-config` and
 *   ConfigMap `app.config` (a dotted name, which the engine drops from relation results).
 * - ConfigMap `feature-flags` exists in namespaces `shop` and `payments` on prod-eu.
 * - Deployment `payments-api` (ns `payments`) is `linked` to its Service on the same edge;
 *   CronJob `nightly-report` (prod-eu, payments) owns a Job that owns a Pod reading `payments-api-config`.
 * - StatefulSet `orders-db` (prod-eu, payments) with a PVC; DaemonSet `node-exporter` (prod-eu, monitoring).
 * - Deployment `search` only on staging, selecting its Pods by `app.kubernetes.io/name` only (so the
 *   engine's `selects` finds nothing); Deployment `checkout-canary` (staging, canary) is unhealthy.
 * - Pod template labels carry the recommended `app.kubernetes.io/*` keys.
 */
export function createDemoFleet(opts: FleetOptions = {}): Fleet {
  const b = new Builder(0xa11)
  const stdNamespaces = (edge: string, names: string[]) => {
    for (const ns of ['default', 'kube-system', ...names]) {
      b.add(edge, 'Namespace', ns, undefined, {
        metadata: { labels: { 'kubernetes.io/metadata.name': ns } },
        spec: { finalizers: ['kubernetes'] },
        status: { phase: 'Active' },
      })
      b.add(edge, 'ServiceAccount', 'default', ns)
      b.add(edge, 'ConfigMap', 'kube-root-ca.crt', ns, {
        metadata: { annotations: { 'kubernetes.io/description': 'cluster CA bundle' } },
      })
    }
    b.add(edge, 'StorageClass', 'standard', undefined, {
      apiVersion: 'storage.k8s.io/v1',
      spec: undefined,
      metadata: { annotations: { 'storageclass.kubernetes.io/is-default-class': 'true' } },
    })
  }

  const checkoutPodSpec = (image: string) => ({
    serviceAccountName: 'checkout',
    imagePullSecrets: [{ name: 'regcred' }],
    containers: [
      container('checkout', image, {
        envFrom: [{ configMapRef: { name: 'checkout-config' } }],
        env: [
          { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'checkout-db', key: 'password' } } },
          {
            name: 'FEATURE_FLAGS',
            valueFrom: { configMapKeyRef: { name: 'feature-flags', key: 'flags', optional: true } },
          },
        ],
        volumeMounts: [{ name: 'config', mountPath: '/etc/checkout' }],
      }),
    ],
    volumes: [{ name: 'config', configMap: { name: 'checkout-config' } }],
  })

  const shopCommon = (edge: string, withCheckout: boolean, checkoutReplicas: number, checkoutHash: string) => {
    b.add(edge, 'ServiceAccount', 'frontend', 'shop')
    b.add(edge, 'Secret', 'regcred', 'shop', { spec: undefined, metadata: {}, status: undefined })
    b.add(edge, 'ConfigMap', 'frontend-config', 'shop', { metadata: { labels: { app: 'frontend' } } })
    b.add(edge, 'ConfigMap', 'app.config', 'shop', { metadata: { labels: recommended('frontend', 'shop') } })
    deployment(b, edge, 'shop', 'frontend', {
      replicas: 2,
      hash: '5c8d9f7b46',
      labels: { tier: 'web', team: 'storefront', ...recommended('frontend', 'shop') },
      podSpec: {
        serviceAccountName: 'frontend',
        imagePullSecrets: [{ name: 'regcred' }],
        containers: [
          container('frontend', 'registry.acme.test/shop/frontend:1.14.2', {
            envFrom: [{ configMapRef: { name: 'frontend-config' } }],
            volumeMounts: [
              { name: 'config', mountPath: '/etc/frontend' },
              { name: 'app-config', mountPath: '/etc/app' },
            ],
          }),
        ],
        volumes: [
          { name: 'config', configMap: { name: 'frontend-config' } },
          { name: 'app-config', configMap: { name: 'app.config' } },
        ],
      },
    })
    b.add(edge, 'Service', 'frontend', 'shop', {
      metadata: { labels: { app: 'frontend' } },
      spec: { selector: { app: 'frontend' }, ports: [{ port: 80, targetPort: 'http' }], type: 'ClusterIP' },
    })
    if (withCheckout) {
      b.add(edge, 'ServiceAccount', 'checkout', 'shop')
      b.add(edge, 'ConfigMap', 'checkout-config', 'shop', { metadata: { labels: { app: 'checkout' } } })
      b.add(edge, 'Secret', 'checkout-db', 'shop', { metadata: { labels: { app: 'checkout' } } })
      deployment(b, edge, 'shop', 'checkout', {
        replicas: checkoutReplicas,
        hash: checkoutHash,
        labels: { tier: 'backend', team: 'payments', ...recommended('checkout', 'shop') },
        ownLabels: { [GROUP_LABEL]: 'shop-checkout' },
        podSpec: checkoutPodSpec('registry.acme.test/shop/checkout:2.3.1'),
      })
      b.add(edge, 'Service', 'checkout', 'shop', {
        metadata: { labels: { app: 'checkout' } },
        spec: { selector: { app: 'checkout' }, ports: [{ port: 80, targetPort: 'http' }], type: 'ClusterIP' },
      })
      b.add(edge, 'PodDisruptionBudget', 'checkout', 'shop', {
        spec: { minAvailable: 1, selector: { matchLabels: { app: 'checkout' } } },
      })
      b.add(edge, 'HorizontalPodAutoscaler', 'checkout', 'shop', {
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'checkout' },
          minReplicas: 2,
          maxReplicas: 10,
        },
      })
    }
    b.add(edge, 'Ingress', 'shop', 'shop', {
      spec: {
        ingressClassName: 'nginx',
        tls: [{ hosts: [`shop.${edge}.acme.test`], secretName: 'shop-tls' }],
        rules: [
          {
            host: `shop.${edge}.acme.test`,
            http: {
              paths: [
                { path: '/', pathType: 'Prefix', backend: { service: { name: 'frontend', port: { number: 80 } } } },
                ...(withCheckout
                  ? [
                      {
                        path: '/checkout',
                        pathType: 'Prefix',
                        backend: { service: { name: 'checkout', port: { number: 80 } } },
                      },
                    ]
                  : []),
              ],
            },
          },
        ],
      },
    })
    b.add(edge, 'Secret', 'shop-tls', 'shop', {
      metadata: { annotations: { 'cert-manager.io/issuer-name': 'letsencrypt' } },
    })
    b.add(edge, 'NetworkPolicy', 'default-deny', 'shop', { spec: { podSelector: {}, policyTypes: ['Ingress'] } })
  }

  const payments = (edge: string) => {
    b.add(edge, 'ServiceAccount', 'payments-api', 'payments')
    b.add(edge, 'ConfigMap', 'payments-api-config', 'payments')
    b.add(edge, 'Secret', 'payments-api-keys', 'payments')
    deployment(b, edge, 'payments', 'payments-api', {
      replicas: 2,
      hash: '7f6b8d5c9a',
      labels: { tier: 'backend', team: 'payments', ...recommended('payments-api', 'payments') },
      ownLabels: { [GROUP_LABEL]: 'payments' },
      annotations: {
        [LINKED_ANNOTATION]: JSON.stringify([{ kind: 'Service', namespace: 'payments', name: 'payments-api' }]),
      },
      podSpec: {
        serviceAccountName: 'payments-api',
        containers: [
          container('api', 'registry.acme.test/payments/api:4.0.0', {
            envFrom: [{ configMapRef: { name: 'payments-api-config' } }, { secretRef: { name: 'payments-api-keys' } }],
          }),
        ],
      },
    })
    b.add(edge, 'Service', 'payments-api', 'payments', {
      spec: { selector: { app: 'payments-api' }, ports: [{ port: 443, targetPort: 'http' }] },
    })
  }

  // prod-eu -----------------------------------------------------------------
  stdNamespaces('prod-eu', ['shop', 'payments', 'monitoring'])
  shopCommon('prod-eu', true, 3, '7d9f8c6b5')
  b.add('prod-eu', 'ConfigMap', 'feature-flags', 'shop', { metadata: { labels: { team: 'storefront' } } })
  payments('prod-eu')
  b.add('prod-eu', 'ConfigMap', 'feature-flags', 'payments', { metadata: { labels: { team: 'payments' } } })
  cronJob(b, 'prod-eu', 'payments', 'nightly-report', {
    schedule: '0 2 * * *',
    podSpec: {
      serviceAccountName: 'payments-api',
      containers: [
        container('report', 'registry.acme.test/payments/report:1.2.0', {
          envFrom: [{ configMapRef: { name: 'payments-api-config' } }],
        }),
      ],
    },
  })
  // StatefulSet orders-db with a PVC (prod-eu only)
  b.add('prod-eu', 'Secret', 'orders-db-credentials', 'payments')
  b.add('prod-eu', 'PersistentVolumeClaim', 'data-orders-db-0', 'payments', {
    metadata: { labels: { app: 'orders-db' } },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'standard',
      resources: { requests: { storage: '20Gi' } },
    },
    status: { phase: 'Bound' },
  })
  statefulSet(b, 'prod-eu', 'payments', 'orders-db', {
    replicas: 1,
    claim: 'data',
    podSpec: {
      serviceAccountName: 'default',
      containers: [
        container('postgres', 'postgres:16.4', {
          env: [
            {
              name: 'POSTGRES_PASSWORD',
              valueFrom: { secretKeyRef: { name: 'orders-db-credentials', key: 'password' } },
            },
          ],
        }),
      ],
    },
  })
  b.add('prod-eu', 'Service', 'orders-db', 'payments', {
    spec: { clusterIP: 'None', selector: { app: 'orders-db' }, ports: [{ port: 5432 }] },
  })
  b.add('prod-eu', 'PodDisruptionBudget', 'orders-db', 'payments', {
    spec: { maxUnavailable: 0, selector: { matchLabels: { app: 'orders-db' } } },
  })
  daemonSet(b, 'prod-eu', 'monitoring', 'node-exporter', {
    nodes: 3,
    podSpec: {
      hostNetwork: true,
      serviceAccountName: 'default',
      containers: [container('node-exporter', 'quay.io/prometheus/node-exporter:v1.8.2')],
    },
  })

  // prod-us -----------------------------------------------------------------
  stdNamespaces('prod-us', ['shop', 'payments'])
  shopCommon('prod-us', true, 2, '6c7b9d8f4')
  payments('prod-us')

  // staging -----------------------------------------------------------------
  stdNamespaces('staging', ['shop', 'canary'])
  shopCommon('staging', false, 0, '')
  b.add('staging', 'ConfigMap', 'search-config', 'shop')
  deployment(b, 'staging', 'shop', 'search', {
    replicas: 1,
    hash: '84c5f6d7b9',
    labels: { tier: 'backend', team: 'discovery', ...recommended('search', 'shop') },
    matchLabels: { 'app.kubernetes.io/name': 'search' },
    podSpec: {
      serviceAccountName: 'default',
      containers: [
        container('search', 'registry.acme.test/shop/search:0.9.0-rc1', {
          envFrom: [{ configMapRef: { name: 'search-config' } }],
        }),
      ],
    },
  })
  b.add('staging', 'Service', 'search', 'shop', {
    spec: { selector: { app: 'search' }, ports: [{ port: 80, targetPort: 'http' }] },
  })
  deployment(b, 'staging', 'canary', 'checkout-canary', {
    replicas: 1,
    hash: '9b8c7d6e5f',
    labels: { track: 'canary' },
    unhealthy: true,
    podSpec: checkoutPodSpec('registry.acme.test/shop/checkout:2.4.0-rc2'),
  })
  b.add('staging', 'ConfigMap', 'checkout-config', 'canary')

  return createFleet(b.objects, { ...opts, edges: [...DEMO_EDGES] })
}
