/**
 * The objects a step reports on: named by the user (input `targets`), or found in a changed
 * manifest or a rendered set. Settings parse them and the steps follow them, so they live
 * here, between both, and neither imports the other for them.
 */

/** An object named by the user (input `targets`) or found in a changed manifest. */
export interface Target {
  kind: string
  name: string
  /** API group; "" for the core group. */
  group: string
  namespace?: string | undefined
  /** When absent, the target is looked up on every edge. */
  edge?: string | undefined
  /** Where the target came from: the input, or a manifest file and how the PR changed it. */
  origin: TargetOrigin
}

export type TargetOrigin =
  | { kind: 'input' }
  | {
      kind: 'manifest'
      path: string
      change: 'added' | 'modified' | 'removed' | 'renamed' | 'workspace'
      line?: number | undefined
    }
  | RenderedOrigin

/**
 * An object of a rendered manifest set (`helm template`, `kustomize build`). With a base set,
 * `change` says how the pull request changed its rendered form; with the head set alone, every
 * object is a target (`rendered`). `path` and `line` place it in the rendered file (the base
 * one for a removed object); `source` is the chart or overlay file the renderer names.
 */
interface RenderedOrigin {
  kind: 'rendered'
  path: string
  line: number
  change: RenderedChange
  source?: string | undefined
}

export type RenderedChange = 'added' | 'removed' | 'changed' | 'rendered'

/** The riskiest changes: a removed object takes its downstream with it. */
export function isRemovedTarget(target: Pick<Target, 'origin'>): boolean {
  return (target.origin.kind === 'manifest' || target.origin.kind === 'rendered') && target.origin.change === 'removed'
}

/** A kind as everything here writes it: qualified by its API group ("Deployment.apps"), bare in the core group ("Pod"). */
export function kindLabel(kind: string, group: string): string {
  return group ? `${kind}.${group}` : kind
}

export function targetLabel(target: Pick<Target, 'kind' | 'name' | 'namespace' | 'group'>): string {
  const kind = kindLabel(target.kind, target.group)
  return `${kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}`
}

/** "apps/v1" → "apps"; "v1" → "" (the core group); anything not a string → "". */
export function groupOf(apiVersion: unknown): string {
  const text = typeof apiVersion === 'string' ? apiVersion : ''
  const slash = text.indexOf('/')
  return slash === -1 ? '' : text.slice(0, slash)
}

/** Stable identity of an object for de-duplication and counting. */
export function objectKey(object: {
  edge?: string | undefined
  group: string
  kind: string
  namespace?: string | undefined
  name: string
}): string {
  return [object.edge ?? '', object.group, object.kind, object.namespace ?? '', object.name].join('\u0000')
}

/** A file read for targets and left out, and why. */
export interface SkippedFile {
  path: string
  reason: string
  /**
   * Set when the file could not be read at all (a YAML error, a parse cap, a read failure), not
   * when it was read and holds a template or no object: a rollout gate fails on it. `line` is
   * where the parser stopped, when it says.
   */
  unreadable?: { line?: number | undefined } | undefined
}

/** A target outside the scope the workflow allows (`allowed-namespaces`, `allowed-kinds`): never queried. */
export interface SkippedTarget {
  target: Target
  reason: string
}

/**
 * Why no target was collected. `quiet` is the one case where that is the expected answer: a pull
 * request that changes none of the files the inputs match (or a rendered set equal to its base).
 */
export interface NothingCollected {
  searched: string
  quiet: boolean
}
