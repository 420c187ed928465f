export const id = 971;
export const ids = [971];
export const modules = {

/***/ 4835:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   BQ: () => (/* binding */ edgeOf),
/* harmony export */   i7: () => (/* binding */ MAX_QUERY_LIMIT),
/* harmony export */   lm: () => (/* binding */ pagedSpec),
/* harmony export */   oh: () => (/* binding */ GraphClient),
/* harmony export */   pQ: () => (/* binding */ isTruncated)
/* harmony export */ });
/* harmony import */ var zod__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9691);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4668);
/**
 * Fleet query provider client: one query page, every page (with the guards the real hub
 * needs), and the workspace's edges. The hub's paging traps (hub-behaviour.md §3): absent
 * `objects` when nothing matched, `cursor.next` on the last page too, an unreadable cursor
 * silently restarting at page 1, and a keyset that ignores the edge unless ordered by it.
 */


const PREFIX = '/services/providers/graph';
/** The hub cuts a query at 30 s; our request must outlive that to hear its answer. */
const QUERY_TIMEOUT_MS = 45_000;
const MAX_QUERY_LIMIT = 10_000;
/**
 * One query page holds at most 10,000 rows (roots and related objects together: the hub's
 * row cap), whatever `limit` asks. We allow 1.6 KiB and 100 JSON values per row on average
 * at that cap: 16 MiB and 1,000,000 values, which JSON.parse turns into at most ~100 MB of
 * heap whatever their shape. Pages of bigger objects must be asked for in smaller pages.
 */
const QUERY_PAGE_LIMITS = Object.freeze({
    name: 'one query page',
    maxBytes: 16 * 1024 * 1024,
    maxValues: 1_000_000,
    maxDepth: 128,
    hint: 'A page may hold at most 16 MiB (10,000 rows of 1.6 KiB on average): ask for smaller pages with a lower `limit` in the `query` input, or project fewer fields with `objects`.',
});
const ObjectResultSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .lazy */ .RZV(() => zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    id: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    cluster: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(),
    object: zod__WEBPACK_IMPORTED_MODULE_1__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_1__/* .unknown */ .L5J()).optional(),
    relations: zod__WEBPACK_IMPORTED_MODULE_1__/* .record */ .g1P(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP(), zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(ObjectResultSchema)).optional(),
}));
const QueryStatusSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({
    objects: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(ObjectResultSchema).optional(),
    cursor: zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ next: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional() }).optional(),
    count: zod__WEBPACK_IMPORTED_MODULE_1__/* .number */ .aig().optional(),
    incomplete: zod__WEBPACK_IMPORTED_MODULE_1__/* .boolean */ .zMY().optional(),
    warnings: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .unknown */ .L5J()).optional(),
});
/**
 * For paging through many objects: the envelope and each row's identity are checked, the
 * rest passes through as the hub sent it. Checking every field of 10,000 objects costs more
 * than the paging itself.
 */
const ShallowQueryStatusSchema = QueryStatusSchema.extend({
    objects: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ id: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional(), cluster: zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP().optional() })).optional(),
});
const EdgesSchema = zod__WEBPACK_IMPORTED_MODULE_1__/* .looseObject */ ._H3({ edges: zod__WEBPACK_IMPORTED_MODULE_1__/* .array */ .YOg(zod__WEBPACK_IMPORTED_MODULE_1__/* .string */ .YjP()).nullish() });
const MAX_HUB_WARNINGS = 5;
const MAX_HUB_WARNING_CHARS = 300;
class GraphClient {
    transport;
    constructor(transport) {
        this.transport = transport;
    }
    async query(spec, signal, operation = 'query the fleet graph', shallow = false) {
        const { data } = await this.transport.call(this.queryCall(spec, signal, operation, shallow));
        return data;
    }
    queryCall(spec, signal, operation = 'query the fleet graph', shallow = false) {
        return {
            method: 'POST',
            path: `${PREFIX}/api/query`,
            body: spec,
            schema: shallow ? ShallowQueryStatusSchema : QueryStatusSchema,
            operation,
            timeoutMs: QUERY_TIMEOUT_MS,
            limits: QUERY_PAGE_LIMITS,
            // A query reads; sending it twice is harmless.
            repeatable: true,
            ...(signal ? { signal } : {}),
        };
    }
    /** The workspace's engaged edges: a cheap preflight, and what explains an empty result. */
    async edges(signal) {
        const { data } = await this.transport.call({
            method: 'GET',
            path: `${PREFIX}/api/edges`,
            schema: EdgesSchema,
            operation: 'list the workspace edges',
            repeatable: true,
            timeoutMs: 15_000,
            ...(signal ? { signal } : {}),
        });
        return data?.edges ?? [];
    }
    /**
     * Every page of a query, each handed to `onPage` as it arrives so callers can stream.
     * Orders by edge first (the keyset ignores the edge otherwise), stops on a short page, and
     * stops on a cursor that restarts at page 1 instead of looping.
     */
    async forEachPage(spec, options, onPage) {
        const pageSize = Math.min(MAX_QUERY_LIMIT, Math.max(1, options.pageSize));
        const base = pagedSpec(spec);
        const seen = new Set();
        let cursor;
        let count = 0;
        const warnings = [];
        for (let page = 0;; page++) {
            const limit = Math.min(pageSize, options.maxObjects - count);
            if (limit <= 0)
                return { pages: page, count, stoppedBy: 'max-objects', warnings };
            const request = { ...base, limit };
            if (cursor)
                request.page = { cursor };
            const status = await this.query(request, options.signal, options.operation, !options.deep);
            // Rows past the limit asked for break the contract: they are not ours to carry.
            const objects = (status.objects ?? []).slice(0, limit);
            addHubWarnings(warnings, status.warnings);
            const fresh = [];
            let restarted = false;
            for (const object of objects) {
                const key = rowKey(object);
                if (seen.has(key)) {
                    restarted = true;
                    break;
                }
                seen.add(key);
                fresh.push(object);
            }
            count += fresh.length;
            if (fresh.length > 0)
                await onPage(fresh, page);
            if (restarted) {
                if (page === 0) {
                    throw new _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .HubProtocolError */ .mT({
                        operation: options.operation ?? 'query the fleet graph',
                        hubMessage: 'the same object twice in one page',
                        hint: 'The hub returned duplicate rows; report this with the query.',
                    });
                }
                return { pages: page + 1, count, stoppedBy: 'cursor-restart', warnings };
            }
            // A short page is the end, unless the row cap made it short: then the hub says
            // `incomplete` (which a full page says too) and adds a warning (hub-behaviour.md §3).
            if (objects.length < limit && isTruncated(status))
                return { pages: page + 1, count, stoppedBy: 'truncated', warnings };
            // `cursor.next` is present on the last page too: a short page is the real end.
            if (objects.length < limit || status.incomplete === false || !status.cursor?.next) {
                return { pages: page + 1, count, stoppedBy: 'last-page', warnings };
            }
            cursor = status.cursor.next;
        }
    }
}
/** True when the hub says a result was cut: `incomplete` with a warning (a full page is `incomplete` alone). */
function isTruncated(status) {
    return status.incomplete === true && (status.warnings?.length ?? 0) > 0;
}
/** Keeps a few of the hub's warnings as short single-line text: they are untrusted and end up in logs. */
function addHubWarnings(into, given) {
    for (const warning of given ?? []) {
        if (into.length >= MAX_HUB_WARNINGS)
            return;
        const text = (typeof warning === 'string' ? warning : (JSON.stringify(warning) ?? '')).replace(/\s+/g, ' ').trim();
        const clipped = text.length > MAX_HUB_WARNING_CHARS ? `${text.slice(0, MAX_HUB_WARNING_CHARS)}…` : text;
        if (clipped && !into.includes(clipped))
            into.push(clipped);
    }
}
/** A query as paging sends it: ordered by edge first, asking for a cursor, rows carrying ids. */
function pagedSpec(spec) {
    const paged = { ...spec, order: orderedByEdgeFirst(spec.order), cursor: true };
    // Rows are told apart by id for the restart guard, so a projection must carry it.
    if (spec.objects && typeof spec.objects === 'object')
        paged.objects = { ...spec.objects, id: true };
    return paged;
}
/** The edge of an object: the hub sends `<tenant workspace path>/<edge>`. */
function edgeOf(cluster) {
    if (!cluster)
        return undefined;
    const at = cluster.lastIndexOf('/');
    return at >= 0 ? cluster.slice(at + 1) : cluster;
}
function orderedByEdgeFirst(order) {
    const given = Array.isArray(order) ? order : [];
    if (given.some((entry) => entry.field === 'cluster'))
        return given;
    // The keyset uses one comparison for the whole tuple (hub-behaviour.md §3): the edge we put
    // first must take the user's direction, or a Desc order would become a mixed one.
    const direction = given[0]?.direction === 'Desc' ? 'Desc' : 'Asc';
    return [
        { field: 'cluster', direction },
        ...(given.length > 0
            ? given
            : [
                { field: 'namespace', direction: 'Asc' },
                { field: 'name', direction: 'Asc' },
            ]),
    ];
}
function rowKey(object) {
    if (object.id)
        return object.id;
    const meta = (object.object?.metadata ?? {});
    return [object.cluster, object.object?.apiVersion, object.object?.kind, meta.namespace, meta.name, meta.uid].map(String).join('\u0000');
}


/***/ }),

/***/ 5936:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   A: () => (/* binding */ isRemovedTarget),
/* harmony export */   Op: () => (/* binding */ targetLabel),
/* harmony export */   tf: () => (/* binding */ kindLabel)
/* harmony export */ });
/**
 * The objects a step reports on: named by the user (input `targets`), or found in a changed
 * manifest or a rendered set. Settings parse them and the steps follow them, so they live
 * here, between both, and neither imports the other for them.
 */
/** The riskiest changes: a removed object takes its downstream with it. */
function isRemovedTarget(target) {
    return (target.origin.kind === 'manifest' || target.origin.kind === 'rendered') && target.origin.change === 'removed';
}
/** A kind as everything here writes it: qualified by its API group ("Deployment.apps"), bare in the core group ("Pod"). */
function kindLabel(kind, group) {
    return group ? `${kind}.${group}` : kind;
}
function targetLabel(target) {
    const kind = kindLabel(target.kind, target.group);
    return `${kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}`;
}


/***/ }),

/***/ 249:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Yv: () => (/* binding */ tooManyDocuments),
/* harmony export */   cp: () => (/* binding */ tooManyTargets),
/* harmony export */   oG: () => (/* binding */ requestLimiter)
/* harmony export */ });
/* unused harmony export CapError */
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3916);
/**
 * What bounds the work a pull request can cause: a cap on targets per step and on documents per
 * file, each checked while reading (before the first hub request), and one limiter on the hub
 * requests in flight, shared by every fan-out of the step (per target, edge and namespace).
 */

/** A cap on what the inputs declared was passed; the step fails before any hub request. */
class CapError extends _errors_js__WEBPACK_IMPORTED_MODULE_0__/* .ActionError */ .l {
    constructor(statement, input) {
        super({ kind: 'statement', statement, operation: 'collect the impact targets', hint: `raise \`${input}\`, or narrow what is read` });
        this.name = 'CapError';
    }
}
/** `counted` is what was seen when reading stopped: the whole count, or a lower bound. */
function tooManyTargets(max, counted, complete, inputs) {
    const declared = complete ? counted.toLocaleString('en-US') : `more than ${max.toLocaleString('en-US')}`;
    return new CapError(`Too many targets: ${inputs.map((input) => `\`${input}\``).join(', ')} declare ${declared} distinct objects, over \`max-targets\` (${max.toLocaleString('en-US')}); nothing was sent to the hub. Raise \`max-targets\` if every one should be reported, or narrow the globs (a pull request you do not trust chooses them: set \`allowed-namespaces\` and \`allowed-kinds\` too).`, 'max-targets');
}
function tooManyDocuments(path, max) {
    return new CapError(`Too many documents in one file: ${path} holds more than ${max.toLocaleString('en-US')} YAML documents (a List's items each count as one), over \`max-documents\` (${max.toLocaleString('en-US')}); reading stopped there and nothing was sent to the hub. Raise \`max-documents\`, or split the file.`, 'max-documents');
}
/** Hub requests one impact step has in flight at most. */
const PARALLEL_REQUESTS = 4;
/**
 * At most `size` requests in flight; the others wait their turn in order. Wrap single requests
 * (or one paging loop) only: work that waits for another limited request while holding a place
 * could wait for itself.
 */
function requestLimiter(size = PARALLEL_REQUESTS) {
    let active = 0;
    const waiting = [];
    return async (request) => {
        if (active >= size)
            await new Promise((resolve) => waiting.push(resolve));
        else
            active++;
        try {
            return await request();
        }
        finally {
            // hand the place on directly, so a newcomer cannot take it between the two
            const next = waiting.shift();
            if (next)
                next();
            else
                active--;
        }
    };
}


/***/ }),

/***/ 2636:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   Mh: () => (/* binding */ targetsFromManifest),
/* harmony export */   ud: () => (/* binding */ objectsFromManifest)
/* harmony export */ });
/* unused harmony exports TEMPLATE_REASON, isTemplate */
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(8500);
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_timers_promises__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_v8__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8877);
/* harmony import */ var node_v8__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_v8__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_vm__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(714);
/* harmony import */ var node_vm__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_vm__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var yaml__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(8815);
/* harmony import */ var _bounds_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(249);
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
]);
/**
 * Lexical tokens (scalars, indicators, spaces, line breaks) one YAML document may hold. The
 * `yaml` parser keeps a document's whole syntax tree, at ~200-350 bytes a token for the densest
 * input (`[a,a,a,…]`); this bound keeps one document under ~100 MB. A real object is far
 * smaller: Kubernetes stores at most ~1.5 MiB per object, and even the largest CRDs (long
 * descriptions, few tokens per byte) stay well under it.
 */
const MAX_TOKENS_PER_DOCUMENT = 300_000;
/**
 * Flow collections (`[`, `{`) open inside each other. Kubernetes objects nest a few dozen levels
 * at most (CRD schemas, JSON manifests); a thousand can overflow the composer's stack, and the
 * parser's stack costs memory long before that.
 */
const MAX_FLOW_DEPTH = 200;
/** The `yaml` package's own guard against alias expansion ("billion laughs"), its default. */
const MAX_ALIAS_COUNT = 100;
/** Parse at most this long between two turns of the event loop. */
const SLICE_MS = 20;
/** @internal */
const TEMPLATE_REASON = 'a template (contains {{ }}): render it first, or name its objects in `targets`';
/** The objects a manifest file holds, or why it was skipped. Throws only the abort reason and a CapError. */
async function targetsFromManifest(path, text, origin, options = {}) {
    if (isTemplate(text))
        return { targets: [], skipped: { path, reason: TEMPLATE_REASON } };
    const read = await objectsFromManifest(path, text, options);
    if (read.skipped)
        return { targets: [], skipped: read.skipped };
    const targets = read.objects.map((object) => ({
        ...object.target,
        origin: origin.kind === 'manifest' ? { ...origin, line: object.line } : origin,
    }));
    return { targets };
}
/**
 * Every object of a file (documents, `List` items), with no template check: rendered output may
 * hold `{{ }}` in data (alerting rules, Go templates of other tools) and is still plain YAML.
 */
async function objectsFromManifest(path, text, options = {}) {
    const objects = [];
    const lineAt = lineIndex(text);
    const maxDocuments = options.maxDocuments ?? Infinity;
    const counted = { documents: 0 };
    try {
        await eachDocument(text, options, counted, (value, document) => {
            const source = sourceComment(document);
            const found = [];
            expandLists(value, document.contents, found);
            // the document itself was counted as it ended; a List's further items count here
            counted.documents += Math.max(0, found.length - 1);
            if (counted.documents > maxDocuments)
                throw new TooManyDocuments();
            for (const { value: object, offset } of found) {
                const target = asTarget(object, options.defaultNamespace);
                if (target)
                    objects.push({ target, value: object, line: lineAt(offset ?? document.range[0]), source });
            }
        });
    }
    catch (error) {
        if (options.signal?.aborted)
            throw options.signal.reason;
        if (error instanceof TooManyDocuments)
            throw (0,_bounds_js__WEBPACK_IMPORTED_MODULE_4__/* .tooManyDocuments */ .Yv)(path, maxDocuments);
        return { objects: [], skipped: { path, reason: error instanceof NotParsed ? error.message : `not readable as YAML (${firstLine(error)})` } };
    }
    finally {
        if (text.length >= LARGE_FILE_CHARS)
            collectGarbage();
    }
    if (objects.length === 0)
        return { objects, skipped: { path, reason: 'holds no Kubernetes object (apiVersion, kind and metadata.name)' } };
    return { objects };
}
/** `# Source: chart/templates/x.yaml`, which `helm template` writes above each document. */
function sourceComment(document) {
    const contents = document.contents;
    for (const comment of [document.commentBefore, contents?.commentBefore]) {
        const match = comment ? /^ ?Source: *(\S[^\n]*)$/m.exec(comment) : null;
        if (match?.[1])
            return match[1].trim();
    }
    return undefined;
}
/** Offset → 1-based line, by binary search over the line starts, computed once per file. */
function lineIndex(text) {
    let starts;
    return (offset) => {
        if (!starts) {
            starts = [0];
            for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1))
                starts.push(at + 1);
        }
        let low = 0;
        let high = starts.length - 1;
        while (low < high) {
            const middle = (low + high + 1) >> 1;
            if ((starts[middle] ?? 0) <= offset)
                low = middle;
            else
                high = middle - 1;
        }
        return low + 1;
    };
}
/** A file this large leaves tens of MB of parse garbage (syntax nodes of up to 300,000 tokens). */
const LARGE_FILE_CHARS = 1024 * 1024;
let gc = null;
/**
 * Collect the garbage a large file's parse left before the next file is read. V8 collects when
 * it chooses, and keeps the young generation grown after a burst, so several large hostile
 * files otherwise stack into one peak (314 MB for the worst pull request in `npm run bench`,
 * against a 300 MB bound; 216 MB with this). `gc` is V8's own collector, exposed at run time;
 * a memory-reducing ("last-resort") collection also gives the grown space back. Where that
 * fails, nothing is done.
 */
function collectGarbage() {
    if (gc === null) {
        try {
            (0,node_v8__WEBPACK_IMPORTED_MODULE_1__.setFlagsFromString)('--expose-gc');
            gc = (0,node_vm__WEBPACK_IMPORTED_MODULE_2__.runInNewContext)('gc');
        }
        catch {
            gc = undefined;
        }
    }
    gc?.({ type: 'major', flavor: 'last-resort' });
}
/** `{{` somewhere before a later `}}`: what `/\{\{.*?\}\}/s` asked, in one pass instead of one per `{{`. @internal */
function isTemplate(text) {
    const open = text.indexOf('{{');
    return open !== -1 && text.indexOf('}}', open + 2) !== -1;
}
/** Why a file could not be read as YAML; its message is the reason shown to the user. */
class NotParsed extends Error {
}
/** The file holds more documents than `maxDocuments`: the step fails, naming the file. */
class TooManyDocuments extends Error {
}
/**
 * Each document's plain value, in order. The lexer, parser and composer are driven one token
 * at a time (what `parseAllDocuments` does in one go), so the token count of the document in
 * progress is known before its syntax tree grows past the bound, and the loop can pause.
 */
async function eachDocument(text, options, counted, onValue) {
    const maxTokens = options.maxTokensPerDocument ?? MAX_TOKENS_PER_DOCUMENT;
    const maxDocuments = options.maxDocuments ?? Infinity;
    const parser = new yaml__WEBPACK_IMPORTED_MODULE_3__.Parser();
    const composer = new yaml__WEBPACK_IMPORTED_MODULE_3__.Composer({});
    const take = (document) => onValue(plainValue(document, text), document);
    // The parser hands over each document as it ends: count it then, before it is composed. Empty
    // ones count too (a million `---` cost seconds), but for the one a trailing `---` leaves.
    const compose = (token, last = false) => {
        if (token.type === 'document' && (!last || token.value) && ++counted.documents > maxDocuments)
            throw new TooManyDocuments();
        for (const document of composer.next(token))
            take(document);
    };
    let tokensInDocument = 0;
    let flowDepth = 0;
    let sliceStart = performance.now();
    let sinceClock = 0;
    for (const lexeme of new yaml__WEBPACK_IMPORTED_MODULE_3__.Lexer().lex(text)) {
        if (++tokensInDocument > maxTokens) {
            throw new NotParsed(`a YAML document in it holds more than ${maxTokens.toLocaleString('en-US')} tokens, more than any Kubernetes object needs: split it, or name its objects in \`targets\``);
        }
        if (lexeme === '[' || lexeme === '{') {
            if (++flowDepth > MAX_FLOW_DEPTH)
                throw new NotParsed(`its YAML nests more than ${MAX_FLOW_DEPTH.toLocaleString('en-US')} levels of [ ] or { }: no Kubernetes object needs that`);
        }
        else if ((lexeme === ']' || lexeme === '}') && flowDepth > 0)
            flowDepth--;
        for (const token of parser.next(lexeme)) {
            if (token.type === 'document')
                tokensInDocument = flowDepth = 0;
            compose(token);
        }
        if (++sinceClock >= 1000) {
            sinceClock = 0;
            if (performance.now() - sliceStart >= SLICE_MS) {
                await (0,node_timers_promises__WEBPACK_IMPORTED_MODULE_0__.setImmediate)();
                options.signal?.throwIfAborted();
                sliceStart = performance.now();
            }
        }
    }
    for (const token of parser.end())
        compose(token, true);
    for (const document of composer.end())
        take(document);
}
function plainValue(document, text) {
    const error = document.errors[0];
    if (error)
        throw new NotParsed(`not valid YAML (${firstLine(error)}${lineOf(text, error.pos[0])})`);
    try {
        return document.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
    }
    catch (failure) {
        // "Excessive alias count indicates a resource exhaustion attack", or an unknown anchor
        throw new NotParsed(`its YAML aliases cannot be expanded safely (${firstLine(failure)})`);
    }
}
/** Objects of a value, `List` items expanded, each with the offset of its `kind:` key in the text. */
function expandLists(value, node, out) {
    if (!isRecord(value))
        return;
    if (typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)) {
        const items = (0,yaml__WEBPACK_IMPORTED_MODULE_3__.isMap)(node) ? node.get('items', true) : undefined;
        value.items.forEach((item, index) => expandLists(item, (0,yaml__WEBPACK_IMPORTED_MODULE_3__.isSeq)(items) ? items.items[index] : undefined, out));
        return;
    }
    out.push({ value, offset: kindOffset(node) });
}
function kindOffset(node) {
    if (!(0,yaml__WEBPACK_IMPORTED_MODULE_3__.isMap)(node))
        return undefined;
    const pair = node.items.find((item) => (0,yaml__WEBPACK_IMPORTED_MODULE_3__.isScalar)(item.key) && item.key.value === 'kind');
    const key = pair?.key;
    return key?.range?.[0] ?? node.range?.[0];
}
function asTarget(value, defaultNamespace) {
    if (!isRecord(value) || !isRecord(value.metadata))
        return undefined;
    const { apiVersion, kind } = value;
    const { name, namespace } = value.metadata;
    if (typeof apiVersion !== 'string' || typeof kind !== 'string' || typeof name !== 'string' || !name)
        return undefined;
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    const scoped = !CLUSTER_SCOPED.has(kind);
    const ns = scoped ? (typeof namespace === 'string' && namespace ? namespace : defaultNamespace) : undefined;
    return { kind, name, group, namespace: ns };
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function firstLine(error) {
    const message = error instanceof Error ? error.message : String(error);
    return message.split('\n')[0] ?? message;
}
/** " at line N" for an offset, counted only when there is an error to place. */
function lineOf(text, offset) {
    if (offset === undefined || offset < 0)
        return '';
    let line = 1;
    for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1))
        line++;
    return ` at line ${line}`;
}


/***/ }),

/***/ 2547:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   T: () => (/* binding */ objectKey)
/* harmony export */ });
/** Stable identity of an object for de-duplication and counting. */
function objectKey(object) {
    return [object.edge ?? '', object.group, object.kind, object.namespace ?? '', object.name].join('\u0000');
}


/***/ }),

/***/ 3554:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   H: () => (/* binding */ openPullRequest)
/* harmony export */ });
/* harmony import */ var _runner_context_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(1953);
/* harmony import */ var _runner_core_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1019);
/* harmony import */ var _errors_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(3916);
/* harmony import */ var _redact_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(6670);
/* harmony import */ var _version_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(311);





async function openPullRequest(impact, runner) {
    if (!(0,_runner_context_js__WEBPACK_IMPORTED_MODULE_0__/* .isPullRequestEvent */ .T5)(runner.eventName))
        return undefined;
    if (impact.comment === 'off' && impact.manifests.length === 0)
        return undefined;
    const github = await Promise.all(/* import() */[__webpack_require__.e(239), __webpack_require__.e(476)]).then(__webpack_require__.bind(__webpack_require__, 6476));
    const pr = github.readPullRequestEvent(runner.eventPath, runner.repository);
    if (!pr) {
        _runner_core_js__WEBPACK_IMPORTED_MODULE_1__/* .warning */ .$e(`The ${runner.eventName} event carries no pull request: no changed files are read and no comment is written.`);
        return undefined;
    }
    const octokit = github.createGitHubClient({
        token: impact.githubToken,
        apiUrl: runner.apiUrl,
        userAgent: `hub-action/${_version_js__WEBPACK_IMPORTED_MODULE_4__/* .VERSION */ .x}`,
        log: _runner_core_js__WEBPACK_IMPORTED_MODULE_1__/* .info */ .pq,
    });
    return {
        number: pr.number,
        headSha: pr.headSha,
        files: impact.manifests.length > 0 || (impact.renderedHead?.length ?? 0) > 0
            ? {
                changedFiles: async () => {
                    const files = await github.listChangedFiles(octokit, pr);
                    if (files.length >= github.MAX_LISTED_PR_FILES) {
                        _runner_core_js__WEBPACK_IMPORTED_MODULE_1__/* .warning */ .$e(`GitHub lists at most ${github.MAX_LISTED_PR_FILES} changed files of a pull request, and #${pr.number} reached that: manifests beyond it were not read. Name them in \`targets\`, or split the pull request.`);
                    }
                    return files;
                },
                readAtBase: (path, maxBytes) => github.readBoundedFileAtRef(octokit, pr, path, pr.baseSha, maxBytes),
            }
            : undefined,
        async comment(markdown) {
            try {
                const result = await github.upsertStickyComment(octokit, {
                    owner: pr.owner,
                    repo: pr.repo,
                    number: pr.number,
                    key: impact.commentKey,
                    // A comment is written outside the runner's log masking: redact it ourselves.
                    body: (0,_redact_js__WEBPACK_IMPORTED_MODULE_3__/* .redact */ .E$)(markdown),
                    runId: runner.runId,
                    runAttempt: runner.runAttempt,
                    sha: pr.headSha,
                    mode: impact.comment === 'new' ? 'new' : 'update',
                });
                switch (result.action) {
                    case 'forbidden':
                        _runner_core_js__WEBPACK_IMPORTED_MODULE_1__/* .warning */ .$e(`Could not comment on pull request #${pr.number} (403): the token may not write to it — a pull request from a fork, or a workflow without \`permissions: pull-requests: write\`. The report is in the job summary.`);
                        return undefined;
                    case 'skipped-newer':
                        _runner_core_js__WEBPACK_IMPORTED_MODULE_1__/* .notice */ .lm(`Left the comment on #${pr.number} alone: it holds the report of a newer run.`);
                        return result.url;
                    default:
                        _runner_core_js__WEBPACK_IMPORTED_MODULE_1__/* .info */ .pq(`Comment on #${pr.number} ${result.action}: ${result.url ?? ''}`);
                        return result.url;
                }
            }
            catch (error) {
                if (!(error instanceof github.GitHubError))
                    throw error;
                _runner_core_js__WEBPACK_IMPORTED_MODULE_1__/* .warning */ .$e(`Could not comment on pull request #${pr.number}: ${(0,_errors_js__WEBPACK_IMPORTED_MODULE_2__/* .renderError */ .v)(error)} The report is in the job summary.`);
                return undefined;
            }
        },
    };
}


/***/ }),

/***/ 8023:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   ZJ: () => (/* binding */ MAX_MANIFEST_BYTES),
/* harmony export */   g$: () => (/* binding */ tooLarge),
/* harmony export */   oS: () => (/* binding */ workspaceRoot),
/* harmony export */   sL: () => (/* binding */ readWorkspaceFile)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(1455);
/* harmony import */ var node_fs_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_fs_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _markdown_format_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(4370);
/* harmony import */ var _hub_http_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(4563);
/* harmony import */ var _redact_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(6670);
/**
 * Reading a manifest from the checkout, which the pull request controls: only a regular file
 * whose real path lies inside the workspace's real path, and only up to a size cap. A symlink
 * to a secret outside the checkout, to /dev/zero or a FIFO, or a 50 MB file is skipped with a
 * reason and never read. Where a skipped link pointed is not said: that path is not ours to
 * publish.
 */






/**
 * The largest manifest file read, from the checkout or from GitHub at the base commit. 4 MiB:
 * Kubernetes stores at most ~1.5 MiB per object, so this holds a couple of the largest
 * objects or a generated install bundle of many CRDs (the big ones are 1-3 MB), while a file
 * built to exhaust memory or time is refused before it is read.
 */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;
/** The real path of the workspace, against which every file's real path is checked. */
function workspaceRoot(workspace) {
    return (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.realpath)(workspace);
}
/** Reads `path` (relative to the workspace) if it is a regular file inside it, at most `maxBytes` long. */
async function readWorkspaceFile(root, path, maxBytes = MAX_MANIFEST_BYTES) {
    let real;
    try {
        real = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.realpath)((0,node_path__WEBPACK_IMPORTED_MODULE_2__.resolve)(root, path));
    }
    catch (error) {
        return { skipped: (0,_hub_http_js__WEBPACK_IMPORTED_MODULE_4__/* .errorCode */ .CA)(error) === 'ELOOP' ? 'a symlink loop: nothing was read' : MISSING };
    }
    if (!isInside(root, real))
        return { skipped: OUTSIDE };
    let handle;
    try {
        // O_NOFOLLOW: the last part cannot have become a link since realpath; O_NONBLOCK: a FIFO does not hang the step
        handle = await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.open)(real, node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_RDONLY | (node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NOFOLLOW ?? 0) | (node_fs__WEBPACK_IMPORTED_MODULE_0__.constants.O_NONBLOCK ?? 0));
    }
    catch (error) {
        return { skipped: (0,_hub_http_js__WEBPACK_IMPORTED_MODULE_4__/* .errorCode */ .CA)(error) === 'ENOENT' ? MISSING : `not readable (${(0,_hub_http_js__WEBPACK_IMPORTED_MODULE_4__/* .errorCode */ .CA)(error) ?? 'error'}): nothing was read` };
    }
    try {
        // a folder on the way could have been swapped for a link meanwhile: ask the kernel what was opened
        const opened = await openedPath(handle);
        if (opened !== undefined && !isInside(root, opened))
            return { skipped: OUTSIDE };
        const stat = await handle.stat();
        if (!stat.isFile())
            return { skipped: 'not a regular file (a folder, device, FIFO or socket): only regular files are read' };
        if (stat.size > maxBytes)
            return { skipped: tooLarge(stat.size, maxBytes) };
        return await readAtMost(handle, stat.size, maxBytes);
    }
    finally {
        await handle.close();
    }
}
/** The reason for a file over the cap, shared with files read from GitHub. */
function tooLarge(size, maxBytes) {
    return `${(0,_markdown_format_js__WEBPACK_IMPORTED_MODULE_3__/* .formatBytes */ .z3)(size)}, larger than the ${(0,_markdown_format_js__WEBPACK_IMPORTED_MODULE_3__/* .formatBytes */ .z3)(maxBytes)} read for a manifest file: split it, or name its objects in \`targets\``;
}
const MISSING = 'not in the workspace: check out the pull request head (actions/checkout) before this step';
const OUTSIDE = 'a symlink to a file outside the workspace: only files inside the checkout are read';
/** Reads the file `fstat` measured; a file that grows meanwhile is refused rather than read on. */
async function readAtMost(handle, size, maxBytes) {
    const buffer = Buffer.allocUnsafe(size + 1);
    let filled = 0;
    while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
        if (bytesRead === 0)
            break;
        filled += bytesRead;
    }
    if (filled > size)
        return { skipped: filled > maxBytes ? tooLarge(filled, maxBytes) : 'grew while it was read: nothing was used' };
    // The pull request wrote the file, and could plant a secret in it: redacted as it is read.
    return { text: (0,_redact_js__WEBPACK_IMPORTED_MODULE_5__/* .redact */ .E$)(buffer.toString('utf8', 0, filled)) };
}
/** Linux names the file behind a descriptor in /proc; elsewhere there is no such answer. */
async function openedPath(handle) {
    try {
        return await (0,node_fs_promises__WEBPACK_IMPORTED_MODULE_1__.readlink)(`/proc/self/fd/${handle.fd}`);
    }
    catch {
        return undefined;
    }
}
function isInside(root, path) {
    const rel = (0,node_path__WEBPACK_IMPORTED_MODULE_2__.relative)(root, path);
    return rel !== '' && rel !== '..' && !rel.startsWith(`..${node_path__WEBPACK_IMPORTED_MODULE_2__.sep}`) && !(0,node_path__WEBPACK_IMPORTED_MODULE_2__.isAbsolute)(rel);
}


/***/ }),

/***/ 9813:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   IY: () => (/* binding */ renderedTargets),
/* harmony export */   YG: () => (/* binding */ MAX_RENDERED_FILE_BYTES),
/* harmony export */   ag: () => (/* binding */ readRenderedSet),
/* harmony export */   xo: () => (/* binding */ matchFiles)
/* harmony export */ });
/* unused harmony export fingerprint */
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(8500);
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_2___default = /*#__PURE__*/__webpack_require__.n(node_timers_promises__WEBPACK_IMPORTED_MODULE_2__);
/* harmony import */ var _manifests_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(2636);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(2547);
/* harmony import */ var _read_workspace_file_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8023);
/**
 * Rendered manifest sets: what `helm template` or `kustomize build` printed in earlier steps,
 * for the head of a pull request and optionally for its base. Each set is read whole, whichever
 * files the pull request changed. With both, the targets are the objects whose rendered form was
 * added, removed or changed (identity: group, kind, namespace, name); with the head alone, every
 * object in it.
 *
 * The files are produced from the pull request, so they are read like any manifest: workspace-only
 * regular files under the size cap, linear YAML checks (read-workspace-file.ts, manifests.ts).
 */






/**
 * The largest rendered file read. Larger than for a manifest file (4 MiB): one `helm template`
 * of a big chart with its CRDs (monitoring stacks, operators) prints several MiB into one file.
 * Parsing stays bounded per document (manifests.ts), so this bounds the text held and the time.
 */
const MAX_RENDERED_FILE_BYTES = 16 * 1024 * 1024;
/**
 * Fields renderers change without the object changing, ignored when base and head are compared,
 * wherever a `metadata` appears (the object's and its pod template's):
 * - annotations `checksum/*`: Helm charts hash their config into the pod template to roll pods;
 *   the config object itself shows the change;
 * - label `helm.sh/chart`: the chart's version, on every object, bumped by any chart release;
 * - annotations `config.kubernetes.io/*` and `internal.config.kubernetes.io/*`: what Kustomize
 *   records about where an object came from (build metadata), not what is applied;
 * - `metadata.creationTimestamp` (`null` in kubectl and Kustomize output) and `status`.
 */
const NOISY_ANNOTATION = /^(checksum\/|config\.kubernetes\.io\/|internal\.config\.kubernetes\.io\/)/;
const NOISY_LABELS = new Set(['helm.sh/chart']);
/** Reads every file the globs match, in path order; an object declared twice keeps its first declaration. */
async function readRenderedSet(options) {
    const { paths, emptyGlobs } = matchFiles(options.workspace, options.globs);
    const set = { objects: [], files: [], skippedFiles: [], emptyGlobs };
    const seen = new Set();
    for (const path of paths) {
        await (0,node_timers_promises__WEBPACK_IMPORTED_MODULE_2__.setImmediate)();
        options.signal?.throwIfAborted();
        set.files.push(path);
        const read = options.root === undefined
            ? { skipped: 'not in the workspace: render it in an earlier step of this job' }
            : await (0,_read_workspace_file_js__WEBPACK_IMPORTED_MODULE_4__/* .readWorkspaceFile */ .sL)(options.root, path, options.maxFileBytes ?? MAX_RENDERED_FILE_BYTES);
        if ('skipped' in read) {
            set.skippedFiles.push({ path, reason: read.skipped });
            continue;
        }
        const parsed = await (0,_manifests_js__WEBPACK_IMPORTED_MODULE_3__/* .objectsFromManifest */ .ud)(path, read.text, {
            defaultNamespace: options.defaultNamespace,
            signal: options.signal,
            maxDocuments: options.maxDocuments,
        });
        if (parsed.skipped)
            set.skippedFiles.push(parsed.skipped);
        for (const object of parsed.objects) {
            const key = (0,_model_js__WEBPACK_IMPORTED_MODULE_5__/* .objectKey */ .T)(object.target);
            if (seen.has(key))
                continue;
            seen.add(key);
            set.objects.push(renderedObject(path, object));
        }
    }
    return set;
}
function renderedObject(path, object) {
    return { target: object.target, path, line: object.line, source: object.source ?? kustomizeOrigin(object.value), fingerprint: fingerprint(object.value) };
}
/**
 * The targets of a rendered head set, compared with the base set when there is one: added,
 * removed (placed in the base file) and changed objects; unchanged ones are no target.
 */
function renderedTargets(head, base) {
    const target = (object, change, name = object.target.name) => ({
        ...object.target,
        name,
        origin: { kind: 'rendered', path: object.path, line: object.line, change, source: object.source },
    });
    if (!base)
        return head.objects.map((object) => target(object, 'rendered'));
    const before = new Map(base.objects.map((object) => [(0,_model_js__WEBPACK_IMPORTED_MODULE_5__/* .objectKey */ .T)(object.target), object]));
    const inHead = new Set(head.objects.map((object) => (0,_model_js__WEBPACK_IMPORTED_MODULE_5__/* .objectKey */ .T)(object.target)));
    const added = head.objects.filter((object) => !before.has((0,_model_js__WEBPACK_IMPORTED_MODULE_5__/* .objectKey */ .T)(object.target)));
    const removed = base.objects.filter((object) => !inHead.has((0,_model_js__WEBPACK_IMPORTED_MODULE_5__/* .objectKey */ .T)(object.target)));
    const regenerated = pairGenerated(added, removed);
    const targets = [];
    for (const object of head.objects) {
        const old = before.get((0,_model_js__WEBPACK_IMPORTED_MODULE_5__/* .objectKey */ .T)(object.target));
        const live = regenerated.get(object);
        if (live)
            targets.push(target(object, 'changed', live.target.name));
        else if (!old)
            targets.push(target(object, 'added'));
        else if (old.fingerprint !== object.fingerprint)
            targets.push(target(object, 'changed'));
    }
    const paired = new Set(regenerated.values());
    for (const object of removed)
        if (!paired.has(object))
            targets.push(target(object, 'removed'));
    return targets;
}
/**
 * Kustomize names a generated ConfigMap or Secret after a hash of its content (`name-<10 chars>`,
 * hex digits with 0, 1, 3, a, e spelled g, h, k, m, t), so a content change reads as one object
 * removed and one added. Such a pair is one changed object, named as at the base: that is the
 * object the cluster holds, whose downstream the change reaches.
 */
const GENERATED_SUFFIX = /-[2456789bcdfghkmt]{10}$/;
function pairGenerated(added, removed) {
    const stem = (object) => GENERATED_SUFFIX.test(object.target.name) ? (0,_model_js__WEBPACK_IMPORTED_MODULE_5__/* .objectKey */ .T)({ ...object.target, name: object.target.name.replace(GENERATED_SUFFIX, '') }) : undefined;
    const removedByStem = new Map();
    for (const object of removed) {
        const key = stem(object);
        if (key === undefined)
            continue;
        const list = removedByStem.get(key);
        if (list)
            list.push(object);
        else
            removedByStem.set(key, [object]);
    }
    const addedPerStem = new Map();
    for (const object of added) {
        const key = stem(object);
        if (key !== undefined)
            addedPerStem.set(key, (addedPerStem.get(key) ?? 0) + 1);
    }
    const pairs = new Map();
    for (const object of added) {
        const key = stem(object);
        if (key === undefined)
            continue;
        const candidates = removedByStem.get(key);
        // only an unambiguous pair: one old and one new object of that stem
        if (candidates?.length === 1 && addedPerStem.get(key) === 1)
            pairs.set(object, candidates[0]);
    }
    return pairs;
}
/** Regular files the globs match (folders are not files to read), and the globs that matched none. */
function matchFiles(workspace, globs) {
    const paths = new Set();
    const emptyGlobs = [];
    for (const glob of globs) {
        let matched = 0;
        for (const entry of (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.globSync)(glob, { cwd: workspace, withFileTypes: true, exclude: (entry) => entry.name === 'node_modules' || entry.name === '.git' })) {
            if (entry.isDirectory())
                continue;
            paths.add((0,node_path__WEBPACK_IMPORTED_MODULE_1__.relative)((0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(workspace), (0,node_path__WEBPACK_IMPORTED_MODULE_1__.resolve)(workspace, (0,node_path__WEBPACK_IMPORTED_MODULE_1__.join)(entry.parentPath, entry.name)))
                .split('\\')
                .join('/'));
            matched++;
        }
        if (matched === 0)
            emptyGlobs.push(glob);
    }
    return { paths: [...paths].sort(), emptyGlobs };
}
/** Canonical JSON of an object without the noise fields: equal when only noise differs. @internal */
function fingerprint(value) {
    return JSON.stringify(canonical(value, ''));
}
function canonical(value, key) {
    if (Array.isArray(value))
        return value.map((item) => canonical(item, ''));
    if (typeof value !== 'object' || value === null)
        return value;
    const record = value;
    const out = {};
    for (const name of Object.keys(record).sort()) {
        if (key === '' && name === 'status' && 'apiVersion' in record)
            continue;
        if (key === 'metadata' && name === 'creationTimestamp')
            continue;
        let field = record[name];
        if (key === 'metadata' && (name === 'annotations' || name === 'labels') && isPlainRecord(field)) {
            const noisy = name === 'annotations' ? (k) => NOISY_ANNOTATION.test(k) : (k) => NOISY_LABELS.has(k);
            field = Object.fromEntries(Object.entries(field).filter(([k]) => !noisy(k)));
        }
        out[name] = canonical(field, name);
    }
    return out;
}
/** Kustomize's `buildMetadata: [originAnnotations]` records `path: ../base/x.yaml` per object. */
function kustomizeOrigin(value) {
    const metadata = value.metadata;
    const annotations = isPlainRecord(metadata) ? metadata.annotations : undefined;
    const origin = isPlainRecord(annotations) ? annotations['config.kubernetes.io/origin'] : undefined;
    if (typeof origin !== 'string')
        return undefined;
    const match = /^path: *(\S[^\n]*)$/m.exec(origin);
    return match?.[1]?.trim().replace(/^['"]|['"]$/g, '');
}
function isPlainRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}


/***/ }),

/***/ 264:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   r: () => (/* binding */ collectTargets)
/* harmony export */ });
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(6760);
/* harmony import */ var node_path__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_path__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(8500);
/* harmony import */ var node_timers_promises__WEBPACK_IMPORTED_MODULE_1___default = /*#__PURE__*/__webpack_require__.n(node_timers_promises__WEBPACK_IMPORTED_MODULE_1__);
/* harmony import */ var _manifests_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2636);
/* harmony import */ var _model_target_js__WEBPACK_IMPORTED_MODULE_6__ = __webpack_require__(5936);
/* harmony import */ var _rendered_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(9813);
/* harmony import */ var _read_workspace_file_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(8023);
/* harmony import */ var _bounds_js__WEBPACK_IMPORTED_MODULE_5__ = __webpack_require__(249);
/**
 * The objects an impact report is about: those named in `targets`, and every Kubernetes
 * object in the manifest files that `manifests` matches — on a pull request, the files it
 * changes (removed ones read at the base commit: deleting an object is the riskiest change);
 * elsewhere, the files in the workspace.
 */







async function collectTargets(options) {
    const maxTargets = options.maxTargets ?? Infinity;
    const inputs = [
        ...(options.given.length > 0 ? ['targets'] : []),
        ...(options.globs.length > 0 ? ['manifests'] : []),
        ...(options.renderedHead?.length ? ['rendered-head'] : []),
    ];
    const found = new Map();
    // counted as they are found, so a pull request of many objects stops the reading early
    const add = (targets, complete) => {
        addDistinct(found, targets);
        if (found.size > maxTargets)
            throw (0,_bounds_js__WEBPACK_IMPORTED_MODULE_5__/* .tooManyTargets */ .cp)(maxTargets, found.size, complete, inputs);
    };
    const rendering = (options.renderedHead?.length ?? 0) > 0;
    add(options.given, options.globs.length === 0 && !rendering);
    const skippedFiles = [];
    const files = [];
    const warnings = [];
    const root = await (0,_read_workspace_file_js__WEBPACK_IMPORTED_MODULE_4__/* .workspaceRoot */ .oS)(options.workspace).catch(() => undefined);
    const wantsChanged = options.globs.length > 0 || (options.renderedHead?.length ?? 0) > 0;
    const changed = options.pullRequest && wantsChanged ? await options.pullRequest.changedFiles() : [];
    // a pull request that changes no matching file, though the globs match files in the checkout
    let unchanged = false;
    if (options.globs.length > 0) {
        const { sources, emptyGlobs } = options.pullRequest
            ? changedManifests(changed, options.globs, options.workspace)
            : workspaceManifests(options.workspace, options.globs);
        if (emptyGlobs.length > 0)
            warnings.push(emptyGlobWarning('manifests', emptyGlobs, options.workspace, options.pullRequest !== undefined));
        unchanged = options.pullRequest !== undefined && sources.length === 0 && emptyGlobs.length < options.globs.length;
        if (sources.length > 0)
            options.log?.(`Reading ${sources.length} manifest file(s).`);
        for (const [index, source] of sources.entries()) {
            // a turn of the event loop between files, so a cancel is heard even when each file is quick
            await (0,node_timers_promises__WEBPACK_IMPORTED_MODULE_1__.setImmediate)();
            options.signal?.throwIfAborted();
            files.push(source.path);
            const read = await readSource(source, root, options);
            if ('skipped' in read) {
                skippedFiles.push({ path: source.path, reason: read.skipped });
                continue;
            }
            const origin = { kind: 'manifest', path: source.path, change: source.change };
            const result = await (0,_manifests_js__WEBPACK_IMPORTED_MODULE_2__/* .targetsFromManifest */ .Mh)(source.path, read.text, origin, {
                defaultNamespace: options.defaultNamespace,
                signal: options.signal,
                maxDocuments: options.maxDocuments,
            });
            add(result.targets, index === sources.length - 1 && !rendering);
            if (result.skipped)
                skippedFiles.push(result.skipped);
        }
    }
    if (options.renderedHead && rendering) {
        const read = (globs) => (0,_rendered_js__WEBPACK_IMPORTED_MODULE_3__/* .readRenderedSet */ .ag)({
            globs,
            workspace: options.workspace,
            root,
            defaultNamespace: options.defaultNamespace,
            signal: options.signal,
            maxFileBytes: options.maxFileBytes,
            maxDocuments: options.maxDocuments,
        });
        const head = await read(options.renderedHead);
        const base = options.renderedBase && options.renderedBase.length > 0 ? await read(options.renderedBase) : undefined;
        for (const [input, set] of [
            ['rendered-head', head],
            ['rendered-base', base],
        ]) {
            if (!set)
                continue;
            files.push(...set.files);
            skippedFiles.push(...set.skippedFiles);
            if (set.emptyGlobs.length > 0)
                warnings.push(emptyGlobWarning(input, set.emptyGlobs, options.workspace, false));
        }
        const rendered = (0,_rendered_js__WEBPACK_IMPORTED_MODULE_3__/* .renderedTargets */ .IY)(head, base);
        options.log?.(base
            ? `Rendered sets: ${head.objects.length} object(s) at the head, ${base.objects.length} at the base; ${rendered.length} added, removed or changed.`
            : `Rendered set: ${head.objects.length} object(s) at the head (no base set: every one is a target).`);
        // the last source: every target is counted by now
        add(rendered, true);
        if (base && head.objects.length > 0)
            unchanged = true;
    }
    const nothing = found.size === 0 ? nothingCollected(options, files.length, unchanged) : undefined;
    if (nothing && !nothing.quiet && warnings.length === 0)
        warnings.push(`No target: ${nothing.searched}.`);
    return {
        targets: [...found.values()],
        skippedFiles,
        files,
        warnings,
        changedPaths: changed.filter((file) => file.status !== 'removed').map((file) => file.path),
        nothing,
    };
}
/** Names each input's globs and the folder searched: the user sees what was looked for, and where. */
function nothingCollected(options, files, unchanged) {
    const inputs = [
        ...(options.globs.length > 0 ? [`\`manifests\` (${globList(options.globs)})`] : []),
        ...(options.renderedHead?.length ? [`\`rendered-head\` (${globList(options.renderedHead)})`] : []),
    ].join(' and ');
    if (!inputs)
        return { searched: '`targets` names no object and no manifest was given', quiet: false };
    if (unchanged)
        return { searched: `this pull request changes no object that ${inputs} declares`, quiet: true };
    if (files === 0)
        return { searched: `${inputs} matched no file in the workspace ${options.workspace}`, quiet: false };
    return { searched: `the ${files} file(s) that ${inputs} matched in the workspace ${options.workspace} declare no Kubernetes object`, quiet: false };
}
function globList(globs) {
    return globs.map((glob) => `\`${glob}\``).join(', ');
}
/** An example of a glob relative to the workspace that is not one of the user's own (echoing theirs back helps no one). */
function exampleGlob(globs) {
    return ['deploy/**/*.yaml', 'k8s/*.yml', 'manifests/**/*.yaml'].find((example) => !globs.includes(example)) ?? 'k8s/*.yml';
}
/** Names the input, its globs and where they were matched, and what to check. */
function emptyGlobWarning(input, globs, workspace, pullRequest) {
    const where = pullRequest ? `the files this pull request changes nor the workspace ${workspace}` : `the workspace ${workspace}`;
    return `\`${input}\`: ${globs.length === 1 ? 'the glob' : 'the globs'} ${globList(globs)} matched no file in ${where} (folders are not matched as files; globs are relative to the workspace, e.g. ${exampleGlob(globs)}). Check the paths, and that an earlier step wrote the files.`;
}
/** A removed file is read at the base commit; every other one from the checkout of the head. */
async function readSource(source, root, options) {
    const maxBytes = options.maxFileBytes ?? _read_workspace_file_js__WEBPACK_IMPORTED_MODULE_4__/* .MAX_MANIFEST_BYTES */ .ZJ;
    if (source.change === 'removed') {
        const atBase = await options.pullRequest?.readAtBase(source.path, maxBytes);
        if (atBase === undefined)
            return { skipped: 'removed, and not readable at the base commit' };
        return 'text' in atBase ? atBase : { skipped: (0,_read_workspace_file_js__WEBPACK_IMPORTED_MODULE_4__/* .tooLarge */ .g$)(atBase.tooLarge, maxBytes) };
    }
    if (root === undefined)
        return { skipped: 'not in the workspace: check out the pull request head (actions/checkout) before this step' };
    return (0,_read_workspace_file_js__WEBPACK_IMPORTED_MODULE_4__/* .readWorkspaceFile */ .sL)(root, source.path, maxBytes);
}
/** One target per object; a removed manifest's origin wins, since it is the riskier change. */
function addDistinct(byKey, targets) {
    for (const target of targets) {
        const key = [target.edge ?? '', target.group, target.kind, target.namespace ?? '', target.name].join('\u0000');
        const existing = byKey.get(key);
        if (!existing || (0,_model_target_js__WEBPACK_IMPORTED_MODULE_6__/* .isRemovedTarget */ .A)(target))
            byKey.set(key, target);
    }
}
/**
 * The changed files the globs match. A glob that matches none of them is normal (the pull
 * request changes other things) unless it matches no file in the checkout either.
 */
function changedManifests(changed, globs, workspace) {
    const sources = [];
    const used = new Set();
    for (const file of changed) {
        const glob = globs.find((glob) => (0,node_path__WEBPACK_IMPORTED_MODULE_0__.matchesGlob)(file.path, glob));
        if (glob === undefined)
            continue;
        used.add(glob);
        const change = file.status === 'removed' ? 'removed' : file.status === 'added' ? 'added' : file.status === 'renamed' ? 'renamed' : 'modified';
        sources.push({ path: file.path, change });
    }
    const unused = globs.filter((glob) => !used.has(glob));
    return { sources, emptyGlobs: unused.length > 0 ? (0,_rendered_js__WEBPACK_IMPORTED_MODULE_3__/* .matchFiles */ .xo)(workspace, unused).emptyGlobs : [] };
}
function workspaceManifests(workspace, globs) {
    const { paths, emptyGlobs } = (0,_rendered_js__WEBPACK_IMPORTED_MODULE_3__/* .matchFiles */ .xo)(workspace, globs);
    return { sources: paths.map((path) => ({ path, change: 'workspace' })), emptyGlobs };
}


/***/ })

};
