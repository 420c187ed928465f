/**
 * Synced: every field the manifest sets equals the live value, lists matched as Kubernetes merges
 * them, with the normalisations a real cluster applies. One case per rule and per normalisation.
 */
import { describe, expect, it } from 'vitest'
import { differenceText, firstDifference, imageRef, quantity } from '../../../../src/commands/rollout/synced.js'

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

describe('firstDifference', () => {
  it('finds none where the live object holds everything the manifest sets, defaults and sidecars aside', () => {
    expect(firstDifference(deployment({ containers: [container()] }), stored())).toBeUndefined()
  })

  it('names a differing env value by the container and variable names, with both values', () => {
    const want = deployment({
      containers: [
        container({
          env: [
            { name: 'A', value: '1' },
            { name: 'LOG', value: 'debug' },
          ],
        }),
      ],
    })
    const live = stored({
      env: [
        { name: 'LOG', value: 'info' },
        { name: 'A', value: '1' },
      ],
    })
    expect(text(want, live)).toBe(
      'spec.template.spec.containers[web].env[LOG].value is "info", the manifest sets "debug"',
    )
  })

  it('says an env variable the edge does not have yet is not set', () => {
    const want = deployment({ containers: [container({ env: [{ name: 'NEW', value: 'x' }] })] })
    expect(text(want, stored({ env: [] }))).toBe(
      'spec.template.spec.containers[web].env[NEW] is not set, the manifest sets {"name":"NEW","value":"x"}',
    )
  })

  it('compares args as an ordered list', () => {
    const want = deployment({ containers: [container({ args: ['--a', '--b'] })] })
    expect(text(want, stored({ args: ['--b', '--a'] }))).toBe(
      'spec.template.spec.containers[web].args[0] is "--b", the manifest sets "--a"',
    )
    expect(text(want, stored({ args: ['--a'] }))).toBe(
      'spec.template.spec.containers[web].args is ["--a"], the manifest sets ["--a","--b"]',
    )
    expect(firstDifference(want, stored({ args: ['--a', '--b'] }))).toBeUndefined()
  })

  it("compares the pod template's annotations, a key with a slash quoted", () => {
    const want = deployment({ containers: [container()] }, { metadata: { annotations: { 'checksum/config': 'abc' } } })
    const live = stored({}, { metadata: { annotations: { 'checksum/config': 'old' }, labels: { app: 'web' } } })
    expect(text(want, live)).toBe(
      'spec.template.metadata.annotations["checksum/config"] is "old", the manifest sets "abc"',
    )
  })

  it("compares a ConfigMap's data", () => {
    const want = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'cfg' },
      data: { 'app.yaml': 'level: debug' },
    }
    expect(text(want, { ...want, data: { 'app.yaml': 'level: info' } })).toBe(
      'data["app.yaml"] is "level: info", the manifest sets "level: debug"',
    )
    expect(firstDifference(want, { ...want, data: { 'app.yaml': 'level: debug', other: 'x' } })).toBeUndefined()
  })

  it('matches volumes by name and volume mounts by path, whatever their order', () => {
    const volumes = [
      { name: 'a', configMap: { name: 'a' } },
      { name: 'b', emptyDir: {} },
    ]
    const want = deployment({ containers: [container({ volumeMounts: [{ name: 'a', mountPath: '/a' }] })], volumes })
    const live = (name: string) =>
      deployment({
        containers: [
          container({
            volumeMounts: [
              { name: 'x', mountPath: '/x' },
              { name: 'a', mountPath: '/a', readOnly: false },
            ],
          }),
        ],
        volumes: [
          { name: 'b', emptyDir: {} },
          { name: 'a', configMap: { name, defaultMode: 420 } },
        ],
      })
    expect(firstDifference(want, live('a'))).toBeUndefined()
    expect(text(want, live('a-v2'))).toBe(
      'spec.template.spec.volumes[a].configMap.name is "a-v2", the manifest sets "a"',
    )
  })

  it('matches ports by number and protocol (TCP when unset), as server-side apply keys them', () => {
    const want = deployment({
      containers: [container({ ports: [{ containerPort: 8080 }, { name: 'metrics', containerPort: 9090 }] })],
    })
    const live = stored({
      ports: [
        { name: 'metrics', containerPort: 9091, protocol: 'TCP' },
        { containerPort: 8080, protocol: 'TCP' },
      ],
    })
    expect(text(want, live)).toBe(
      'spec.template.spec.containers[web].ports[9090/TCP] is not set, the manifest sets {"name":"metrics","containerPort":9090}',
    )
    const dns = (ports: object[]) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'dns' }, spec: { ports } })
    const both = [
      { name: 'dns-tcp', port: 53, protocol: 'TCP' },
      { name: 'dns', port: 53, protocol: 'UDP' },
    ]
    expect(
      firstDifference(
        dns([
          { name: 'dns-tcp', port: 53 },
          { name: 'dns', port: 53, protocol: 'UDP' },
        ]),
        dns(both),
      ),
    ).toBeUndefined()
    expect(text(dns([{ name: 'dns', port: 53, protocol: 'UDP' }]), dns([both[0] as object]))).toBe(
      'spec.ports[53/UDP] is not set, the manifest sets {"name":"dns","port":53,"protocol":"UDP"}',
    )
  })

  it('treats a field the manifest sets that the live object lacks as a difference, and an empty map it spells out as none', () => {
    expect(text(deployment({ containers: [container()], hostNetwork: true }), stored())).toBe(
      'spec.template.spec.hostNetwork is not set, the manifest sets true',
    )
    expect(firstDifference(deployment({ containers: [container()], securityContext: {} }), stored())).toBeUndefined()
  })

  it('reads a null in the live object (a projected leaf it lacks) as not set', () => {
    expect(
      text(deployment({ containers: [container()] }), {
        ...stored(),
        spec: { replicas: null, template: stored().spec.template },
      }),
    ).toBe('spec.replicas is not set, the manifest sets 2')
  })

  it('compares resource quantities by value', () => {
    const want = deployment({
      containers: [container({ resources: { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: 0.5 } } })],
    })
    expect(
      firstDifference(
        want,
        stored({ resources: { requests: { cpu: '1000m', memory: '1024Mi' }, limits: { cpu: '500m' } } }),
      ),
    ).toBeUndefined()
    expect(text(want, stored({ resources: { requests: { cpu: '900m', memory: '1Gi' } } }))).toBe(
      'spec.template.spec.containers[web].resources.requests.cpu is "900m", the manifest sets "1"',
    )
  })

  it('compares quantities only where Kubernetes keeps quantities', () => {
    const want = deployment({ containers: [container({ env: [{ name: 'CPU', value: '1' }] })] })
    expect(text(want, stored({ env: [{ name: 'CPU', value: '1000m' }] }))).toBe(
      'spec.template.spec.containers[web].env[CPU].value is "1000m", the manifest sets "1"',
    )
  })

  it('takes an image an admission webhook pinned to tag@sha256 as the same image', () => {
    const pinned = stored({ image: 'registry/web:1.5@sha256:0123abcd' })
    expect(firstDifference(deployment({ containers: [container()] }), pinned)).toBeUndefined()
    expect(text(deployment({ containers: [container({ image: 'registry/web:1.6' })] }), pinned)).toBe(
      'spec.template.spec.containers[web].image is "registry/web:1.5@sha256:0123abcd", the manifest sets "registry/web:1.6"',
    )
    expect(text(deployment({ containers: [container({ image: 'registry/web:1.5@sha256:ffff' })] }), pinned)).toContain(
      'image is',
    )
  })

  it('takes docker.io/library/nginx and nginx as the same image', () => {
    const want = deployment({ containers: [container({ image: 'nginx:1.27' })] })
    expect(firstDifference(want, stored({ image: 'docker.io/library/nginx:1.27' }))).toBeUndefined()
    expect(
      firstDifference(
        deployment({ containers: [container({ image: 'docker.io/bitnami/redis:7' })] }),
        stored({ image: 'bitnami/redis:7' }),
      ),
    ).toBeUndefined()
    expect(text(want, stored({ image: 'quay.io/library/nginx:1.27' }))).toContain('the manifest sets "nginx:1.27"')
  })
})

describe('quantity', () => {
  it.each([
    ['1', 1],
    ['1000m', 1],
    ['250m', 0.25],
    ['1Ki', 1024],
    ['1.5Gi', 1.5 * 2 ** 30],
    ['1k', 1000],
    ['1e3', 1000],
    [2, 2],
    ['12x', undefined],
    ['', undefined],
    [null, undefined],
  ])('%s is %s', (text, value) => {
    expect(quantity(text)).toBe(value)
  })
})

describe('imageRef', () => {
  it.each([
    ['nginx', { name: 'nginx', tag: 'latest', digest: undefined }],
    ['docker.io/library/nginx:1.27', { name: 'nginx', tag: '1.27', digest: undefined }],
    ['index.docker.io/library/nginx', { name: 'nginx', tag: 'latest', digest: undefined }],
    ['localhost:5000/web:1.5@sha256:ab', { name: 'localhost:5000/web', tag: '1.5', digest: 'sha256:ab' }],
    ['registry/web@sha256:ab', { name: 'registry/web', tag: undefined, digest: 'sha256:ab' }],
  ])('%s', (reference, parts) => {
    expect(imageRef(reference)).toEqual(parts)
  })
})
