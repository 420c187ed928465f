/**
 * Kubernetes objects in manifest files. A file can hold many YAML documents and `kind: List`
 * objects. Templates (Helm's `{{ }}`) and files that hold no Kubernetes object are skipped
 * with a reason, never dropped silently.
 *
 * The text comes from a pull request, so it may be built to hurt: every check here is linear,
 * one YAML document may hold only so many tokens before the file is skipped (the parser's
 * memory grows with them), aliases may not expand without bound, and any parse failure skips
 * this file only. The work yields to the event loop as it goes, so a SIGTERM is handled within
 * one slice of parsing rather than after the whole file.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { Composer, Lexer, Parser, type Document } from 'yaml'
import type { SkippedFile, Target, TargetOrigin } from './model.js'

/** Kinds that live outside namespaces: they never get the default namespace. */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'Node',
  'PersistentVolume',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'StorageClass',
  'PriorityClass',
  'IngressClass',
  'RuntimeClass',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
  'APIService',
  'CSIDriver',
  'VolumeAttachment',
])

/**
 * Lexical tokens (scalars, indicators, spaces, line breaks) one YAML document may hold. The
 * `yaml` parser keeps a document's whole syntax tree, at ~200-350 bytes a token for the densest
 * input (`[a,a,a,…]`); this bound keeps one document under ~100 MB. A real object is far
 * smaller: Kubernetes stores at most ~1.5 MiB per object, and even the largest CRDs (long
 * descriptions, few tokens per byte) stay well under it.
 */
export const MAX_TOKENS_PER_DOCUMENT = 300_000
/**
 * Flow collections (`[`, `{`) open inside each other. Kubernetes objects nest a few dozen levels
 * at most (CRD schemas, JSON manifests); a thousand can overflow the composer's stack, and the
 * parser's stack costs memory long before that.
 */
export const MAX_FLOW_DEPTH = 200
/** The `yaml` package's own guard against alias expansion ("billion laughs"), its default. */
export const MAX_ALIAS_COUNT = 100
/** Parse at most this long between two turns of the event loop. */
const SLICE_MS = 20

export interface ManifestTargets {
  targets: Target[]
  skipped?: SkippedFile
}

export interface ManifestOptions {
  defaultNamespace?: string | undefined
  /** Aborted when the job is cancelled: parsing stops at the next slice. */
  signal?: AbortSignal | undefined
  maxTokensPerDocument?: number
}

export const TEMPLATE_REASON = 'a template (contains {{ }}): render it first, or name its objects in `targets`'

/** The objects a manifest file holds, or why it was skipped. Throws only the abort reason. */
export async function targetsFromManifest(path: string, text: string, origin: TargetOrigin, options: ManifestOptions = {}): Promise<ManifestTargets> {
  if (isTemplate(text)) return { targets: [], skipped: { path, reason: TEMPLATE_REASON } }
  const targets: Target[] = []
  try {
    await eachDocument(text, options, (value) => {
      for (const object of expandLists(value)) {
        const target = asTarget(object, origin, options.defaultNamespace)
        if (target) targets.push(target)
      }
    })
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason
    return { targets: [], skipped: { path, reason: error instanceof NotParsed ? error.message : `not readable as YAML (${firstLine(error)})` } }
  }
  if (targets.length === 0) return { targets, skipped: { path, reason: 'holds no Kubernetes object (apiVersion, kind and metadata.name)' } }
  return { targets }
}

/** `{{` somewhere before a later `}}`: what `/\{\{.*?\}\}/s` asked, in one pass instead of one per `{{`. */
export function isTemplate(text: string): boolean {
  const open = text.indexOf('{{')
  return open !== -1 && text.indexOf('}}', open + 2) !== -1
}

/** Why a file could not be read as YAML; its message is the reason shown to the user. */
class NotParsed extends Error {}

/**
 * Each document's plain value, in order. The lexer, parser and composer are driven one token
 * at a time (what `parseAllDocuments` does in one go), so the token count of the document in
 * progress is known before its syntax tree grows past the bound, and the loop can pause.
 */
async function eachDocument(text: string, options: ManifestOptions, onValue: (value: unknown) => void): Promise<void> {
  const maxTokens = options.maxTokensPerDocument ?? MAX_TOKENS_PER_DOCUMENT
  const parser = new Parser()
  const composer = new Composer({})
  const take = (document: Document.Parsed) => onValue(plainValue(document, text))
  let tokensInDocument = 0
  let flowDepth = 0
  let sliceStart = performance.now()
  let sinceClock = 0
  for (const lexeme of new Lexer().lex(text)) {
    if (++tokensInDocument > maxTokens) {
      throw new NotParsed(
        `a YAML document in it holds more than ${maxTokens.toLocaleString('en-US')} tokens, more than any Kubernetes object needs: split it, or name its objects in \`targets\``,
      )
    }
    if (lexeme === '[' || lexeme === '{') {
      if (++flowDepth > MAX_FLOW_DEPTH)
        throw new NotParsed(`its YAML nests more than ${MAX_FLOW_DEPTH.toLocaleString('en-US')} levels of [ ] or { }: no Kubernetes object needs that`)
    } else if ((lexeme === ']' || lexeme === '}') && flowDepth > 0) flowDepth--
    for (const token of parser.next(lexeme)) {
      if (token.type === 'document') tokensInDocument = flowDepth = 0
      for (const document of composer.next(token)) take(document)
    }
    if (++sinceClock >= 1000) {
      sinceClock = 0
      if (performance.now() - sliceStart >= SLICE_MS) {
        await nextTurn()
        options.signal?.throwIfAborted()
        sliceStart = performance.now()
      }
    }
  }
  for (const token of parser.end()) for (const document of composer.next(token)) take(document)
  for (const document of composer.end()) take(document)
}

function plainValue(document: Document.Parsed, text: string): unknown {
  const error = document.errors[0]
  if (error) throw new NotParsed(`not valid YAML (${firstLine(error)}${lineOf(text, error.pos[0])})`)
  try {
    return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (failure) {
    // "Excessive alias count indicates a resource exhaustion attack", or an unknown anchor
    throw new NotParsed(`its YAML aliases cannot be expanded safely (${firstLine(failure)})`)
  }
}

function expandLists(value: unknown): unknown[] {
  if (!isRecord(value)) return []
  if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) return value.items.flatMap(expandLists)
  return [value]
}

function asTarget(value: unknown, origin: TargetOrigin, defaultNamespace?: string): Target | undefined {
  if (!isRecord(value) || !isRecord(value.metadata)) return undefined
  const { apiVersion, kind } = value
  const { name, namespace } = value.metadata
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string' || !name) return undefined
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : ''
  const scoped = !CLUSTER_SCOPED.has(kind)
  const ns = scoped ? (typeof namespace === 'string' && namespace ? namespace : defaultNamespace) : undefined
  return { kind, name, group, namespace: ns, origin }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}

/** " at line N" for an offset, counted only when there is an error to place. */
function lineOf(text: string, offset: number | undefined): string {
  if (offset === undefined || offset < 0) return ''
  let line = 1
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++
  return ` at line ${line}`
}
