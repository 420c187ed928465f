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
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { Composer, Lexer, Parser, isMap, isScalar, isSeq, type CST, type Document } from 'yaml'
import type { SkippedFile, Target, TargetOrigin } from '../model/target.js'
import { isRecord, unwalkable } from '../model/plain-value.js'
import { tooManyDocuments } from './caps.js'
import { asTarget, generatedName, type UnnamedObject } from './manifest-identity.js'
import { KUBECTL_YAML } from './yaml-1-1.js'

/**
 * Lexical tokens (scalars, indicators, spaces, line breaks) one YAML document may hold. The
 * `yaml` parser keeps a document's whole syntax tree, at ~200-350 bytes a token for the densest
 * input (`[a,a,a,…]`); this bound keeps one document under ~100 MB. A real object is far
 * smaller: Kubernetes stores at most ~1.5 MiB per object, and even the largest CRDs (long
 * descriptions, few tokens per byte) stay well under it.
 */
const MAX_TOKENS_PER_DOCUMENT = 300_000
/**
 * Flow collections (`[`, `{`) open inside each other. Kubernetes objects nest a few dozen levels
 * at most (CRD schemas, JSON manifests); a thousand can overflow the composer's stack, and the
 * parser's stack costs memory long before that.
 */
const MAX_FLOW_DEPTH = 200
/** The `yaml` package's own guard against alias expansion ("billion laughs"), its default. */
const MAX_ALIAS_COUNT = 100
/** Parse at most this long between two turns of the event loop. */
const SLICE_MS = 20

export interface ManifestOptions {
  defaultNamespace?: string | undefined
  /** Aborted when the job is cancelled: parsing stops at the next slice. */
  signal?: AbortSignal | undefined
  maxTokensPerDocument?: number
  /**
   * YAML documents (a `List`'s items each count as one) the file may hold; past it the step
   * fails (`max-documents`), counted as the lexer goes so a hostile file stops early.
   */
  maxDocuments?: number | undefined
}

/** @internal */
export const TEMPLATE_REASON =
  'a template (contains {{ }}): render it (`helm template`, `kustomize build`) in an earlier step and pass the output as `rendered-head` (examples/helm-impact.yml), or name its objects in `targets`'

export interface ManifestTargets {
  targets: Target[]
  skipped?: SkippedFile
  /** Objects named by `generateName`: no row can be matched to them, so they are listed, not targets. */
  unnamed?: UnnamedObject[] | undefined
}

/** The objects a manifest file holds, or why it was skipped. Throws only the abort reason and a CapError. */
export async function targetsFromManifest(
  path: string,
  text: string,
  origin: TargetOrigin,
  options: ManifestOptions = {},
): Promise<ManifestTargets> {
  if (isTemplate(text)) return { targets: [], skipped: { path, reason: TEMPLATE_REASON } }
  const read = await objectsFromManifest(path, text, options)
  if (read.skipped) return { targets: [], skipped: read.skipped, unnamed: read.unnamed }
  const targets = read.objects.map((object) => ({
    ...object.target,
    origin: origin.kind === 'manifest' ? { ...origin, line: object.line } : origin,
  }))
  return { targets, unnamed: read.unnamed }
}

/** One Kubernetes object of a file: its identity, its plain value, where it is declared. */
export interface ManifestObject {
  /** The identity; its origin is filled in by the caller. */
  target: Omit<Target, 'origin'>
  value: Record<string, unknown>
  /** 1-based line of its `kind:` (or of the object when that is not found). */
  line: number
  /** The template a renderer names in a `# Source:` comment above the document (`helm template`). */
  source?: string | undefined
}

/**
 * Every object of a file (documents, `List` items), with no template check: rendered output may
 * hold `{{ }}` in data (alerting rules, Go templates of other tools) and is still plain YAML.
 */
export async function objectsFromManifest(
  path: string,
  text: string,
  options: ManifestOptions = {},
): Promise<{ objects: ManifestObject[]; skipped?: SkippedFile | undefined; unnamed?: UnnamedObject[] | undefined }> {
  const objects: ManifestObject[] = []
  const unnamed: UnnamedObject[] = []
  const lineAt = lineIndex(text)
  const maxDocuments = options.maxDocuments ?? Infinity
  const counted = { documents: 0 }
  try {
    await eachDocument(text, options, counted, (value, document) => {
      const source = sourceComment(document)
      const found: Array<{ value: unknown; offset: number | undefined }> = []
      expandLists(value, document.contents, found)
      // the document itself was counted as it ended; a List's further items count here
      counted.documents += Math.max(0, found.length - 1)
      if (counted.documents > maxDocuments) throw new TooManyDocuments()
      for (const { value: object, offset } of found) {
        const target = asTarget(object, options.defaultNamespace)
        const line = lineAt(offset ?? document.range[0])
        if (target) objects.push({ target, value: object as Record<string, unknown>, line, source })
        else {
          const generated = generatedName(object, options.defaultNamespace)
          if (generated) unnamed.push({ path, line, ...generated })
        }
      }
    })
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason
    if (error instanceof TooManyDocuments) throw tooManyDocuments(path, maxDocuments)
    return {
      objects: [],
      skipped: {
        path,
        reason: error instanceof NotParsed ? error.message : `not readable as YAML (${firstLine(error)})`,
        unreadable: { line: error instanceof NotParsed ? error.line : undefined },
      },
    }
  } finally {
    if (text.length >= LARGE_FILE_CHARS) collectGarbage()
  }
  const named = unnamed.length > 0 ? { unnamed } : {}
  if (objects.length === 0)
    return {
      objects,
      skipped: { path, reason: 'holds no Kubernetes object (apiVersion, kind and metadata.name)' },
      ...named,
    }
  return { objects, ...named }
}

/** `# Source: chart/templates/x.yaml`, which `helm template` writes above each document. */
function sourceComment(document: Document.Parsed): string | undefined {
  const contents = document.contents as { commentBefore?: string | null } | null
  for (const comment of [document.commentBefore, contents?.commentBefore]) {
    const match = comment ? /^ ?Source: *(\S[^\n]*)$/m.exec(comment) : null
    if (match?.[1]) return match[1].trim()
  }
  return undefined
}

/** Offset → 1-based line, by binary search over the line starts, computed once per file. */
function lineIndex(text: string): (offset: number) => number {
  let starts: number[] | undefined
  return (offset) => {
    if (!starts) {
      starts = [0]
      for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1)
    }
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if ((starts[middle] ?? 0) <= offset) low = middle
      else high = middle - 1
    }
    return low + 1
  }
}

/** A file this large leaves tens of MB of parse garbage (syntax nodes of up to 300,000 tokens). */
const LARGE_FILE_CHARS = 1024 * 1024

let gc: ((options: { type: 'major'; flavor: 'last-resort' }) => void) | undefined | null = null

/**
 * Collect the garbage a large file's parse left before the next file is read. V8 collects when
 * it chooses, and keeps the young generation grown after a burst, so several large hostile
 * files otherwise stack into one peak (314 MB for the worst pull request in `npm run bench`,
 * against a 300 MB bound; 216 MB with this). `gc` is V8's own collector, exposed at run time;
 * a memory-reducing ("last-resort") collection also gives the grown space back. Where that
 * fails, nothing is done.
 */
function collectGarbage(): void {
  if (gc === null) {
    try {
      setFlagsFromString('--expose-gc')
      gc = runInNewContext('gc') as typeof gc
    } catch {
      gc = undefined
    }
  }
  gc?.({ type: 'major', flavor: 'last-resort' })
}

/** `{{` somewhere before a later `}}`: what `/\{\{.*?\}\}/s` asked, in one pass instead of one per `{{`. @internal */
export function isTemplate(text: string): boolean {
  const open = text.indexOf('{{')
  return open !== -1 && text.indexOf('}}', open + 2) !== -1
}

/** Why a file could not be read as YAML; its message is the reason shown to the user. */
class NotParsed extends Error {
  readonly line: number | undefined
  constructor(message: string, line?: number) {
    super(message)
    this.line = line
  }
}

/** The file holds more documents than `maxDocuments`: the step fails, naming the file. */
class TooManyDocuments extends Error {}

/**
 * Each document's plain value, in order. The lexer, parser and composer are driven one token
 * at a time (what `parseAllDocuments` does in one go), so the token count of the document in
 * progress is known before its syntax tree grows past the bound, and the loop can pause.
 */
async function eachDocument(
  text: string,
  options: ManifestOptions,
  counted: { documents: number },
  onValue: (value: unknown, document: Document.Parsed) => void,
): Promise<void> {
  const maxTokens = options.maxTokensPerDocument ?? MAX_TOKENS_PER_DOCUMENT
  const maxDocuments = options.maxDocuments ?? Infinity
  const parser = new Parser()
  const composer = new Composer(KUBECTL_YAML)
  const take = (document: Document.Parsed) => onValue(plainValue(document, text), document)
  // The parser hands over each document as it ends: count it then, before it is composed. Empty
  // ones count too (a million `---` cost seconds), but for the one a trailing `---` leaves.
  const compose = (token: CST.Token, last = false) => {
    if (token.type === 'document' && (!last || token.value) && ++counted.documents > maxDocuments)
      throw new TooManyDocuments()
    for (const document of composer.next(token)) take(document)
  }
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
        throw new NotParsed(
          `its YAML nests more than ${MAX_FLOW_DEPTH.toLocaleString('en-US')} levels of [ ] or { }: no Kubernetes object needs that`,
        )
    } else if ((lexeme === ']' || lexeme === '}') && flowDepth > 0) flowDepth--
    for (const token of parser.next(lexeme)) {
      if (token.type === 'document') tokensInDocument = flowDepth = 0
      compose(token)
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
  for (const token of parser.end()) compose(token, true)
  for (const document of composer.end()) take(document)
}

function plainValue(document: Document.Parsed, text: string): unknown {
  const error = document.errors[0]
  if (error) {
    const line = lineOf(text, error.pos[0])
    throw new NotParsed(`not valid YAML (${firstLine(error)}${line ? ` at line ${line}` : ''})`, line)
  }
  let value: unknown
  try {
    value = document.toJS({ maxAliasCount: MAX_ALIAS_COUNT })
  } catch (failure) {
    // "Excessive alias count indicates a resource exhaustion attack", or an unknown anchor
    const line = lineOf(text, document.range[0])
    throw new NotParsed(`its YAML aliases cannot be expanded safely (${firstLine(failure)})`, line)
  }
  // An alias inside its own anchor: the List expansion and the rendered sets' fingerprint walk the value.
  const cycle = unwalkable(value)
  if (cycle)
    throw new NotParsed(`its YAML aliases cannot be expanded safely (${cycle})`, lineOf(text, document.range[0]))
  return value
}

/** Objects of a value, `List` items expanded, each with the offset of its `kind:` key in the text. */
function expandLists(value: unknown, node: unknown, out: Array<{ value: unknown; offset: number | undefined }>): void {
  if (!isRecord(value)) return
  if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) {
    const items = isMap(node) ? node.get('items', true) : undefined
    value.items.forEach((item, index) => expandLists(item, isSeq(items) ? items.items[index] : undefined, out))
    return
  }
  out.push({ value, offset: kindOffset(node) })
}

function kindOffset(node: unknown): number | undefined {
  if (!isMap(node)) return undefined
  const pair = node.items.find((item) => isScalar(item.key) && item.key.value === 'kind')
  const key = pair?.key as { range?: [number, number, number] } | undefined
  return key?.range?.[0] ?? node.range?.[0]
}

function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error)
  return message.split('\n')[0] ?? message
}

/** The 1-based line of an offset, counted only when there is an error to place. */
function lineOf(text: string, offset: number | undefined): number | undefined {
  if (offset === undefined || offset < 0) return undefined
  let line = 1
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) line++
  return line
}
