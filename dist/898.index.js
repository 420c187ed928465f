export const id = 898;
export const ids = [898];
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

/***/ 5898:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  queryStep: () => (/* binding */ queryStep)
});

// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
// EXTERNAL MODULE: ./src/hub/graph.ts
var graph = __webpack_require__(4835);
// EXTERNAL MODULE: ./src/runner/outputs.ts
var outputs = __webpack_require__(7424);
// EXTERNAL MODULE: ./src/runner/core.ts
var core = __webpack_require__(1019);
// EXTERNAL MODULE: ./src/runner/publish.ts
var publish = __webpack_require__(5493);
// EXTERNAL MODULE: ./src/model/target.ts
var target = __webpack_require__(5936);
// EXTERNAL MODULE: ./src/steps/rollout/live-object.ts
var live_object = __webpack_require__(7251);
// EXTERNAL MODULE: ./src/markdown/format.ts
var format = __webpack_require__(4370);
;// CONCATENATED MODULE: ./src/steps/query/summary.ts




const MAX_CELL = 300;
const MAX_EDGES = 50;
const MAX_EDGE = 200;
function renderQuerySummary(result, maxObjects) {
    const atLeast = result.stoppedBy === 'truncated' ? '≥ ' : '';
    const sections = [`## Fleet query: ${atLeast}${(0,format/* formatCount */.B4)(result.count)} object${result.count === 1 ? '' : 's'}`];
    sections.push(`Collected from ${result.pages} page${result.pages === 1 ? '' : 's'}; written to ${(0,format/* code */.aY)(result.resultFile)} (output \`result-file\`).`);
    if (result.stoppedBy === 'max-objects') {
        sections.push(`> [!WARNING]\n> Stopped at max-objects (${(0,format/* formatCount */.B4)(maxObjects)}): more objects match. Raise \`max-objects\` or narrow the query.`);
    }
    if (result.stoppedBy === 'cursor-restart') {
        sections.push('> [!WARNING]\n> The hub restarted the results at page 1 (it did not accept the paging cursor), so paging stopped there to avoid a loop. The objects collected are distinct but may be incomplete.');
    }
    if (result.stoppedBy === 'truncated') {
        const said = result.warnings.length > 0 ? ` The hub said: ${result.warnings.map((warning) => (0,format/* inline */.mG)((0,format/* clip */.$Q)(warning, MAX_CELL))).join('; ')}.` : '';
        sections.push(`> [!WARNING]\n> Incomplete: the hub's 10,000-row cap (objects and their relations together) cut a page, so whole objects after it are missing and ${(0,format/* formatCount */.B4)(result.count)} is a lower bound.${said} Ask for smaller pages (a lower \`limit\`) or fewer relations.`);
    }
    if (result.count === 0) {
        const edges = result.edges ?? [];
        const shown = edges.slice(0, MAX_EDGES).map((edge) => (0,format/* code */.aY)((0,format/* clip */.$Q)(edge, MAX_EDGE)));
        if (edges.length > MAX_EDGES)
            shown.push(`and ${(0,format/* formatCount */.B4)(edges.length - MAX_EDGES)} more`);
        const engaged = edges.length > 0 ? `Engaged edges in this workspace: ${shown.join(', ')}.` : 'This workspace has no engaged edges, which explains an empty result.';
        sections.push(`> [!NOTE]\n> No object matched. An empty result does not prove absence: an edge may be stale, the token may lack visibility, or \`org\`/\`workspace\` may not be what you meant (the hub silently falls back to the personal org). ${engaged}`);
        return `${sections.join('\n\n')}\n`;
    }
    const sample = sampleTable(result.sample.map((row) => describe(row)), format/* SUMMARY_BYTE_BUDGET */.Gh - (0,format/* byteLength */.dp)(sections.join('\n\n')) - 1_024);
    sections.push(`First ${sample.rows} of ${(0,format/* formatCount */.B4)(result.count)}:`);
    sections.push(sample.markdown);
    return `${sections.join('\n\n')}\n`;
}
/** The sample table, whole rows only, within `budget` bytes (20 rows of clipped cells always fit today). */
function sampleTable(rows, budget) {
    const render = (kept) => (0,format/* table */.tp)([
        { header: 'Kind', cell: (row) => (0,format/* inline */.mG)((0,format/* clip */.$Q)(row.kind, MAX_CELL)) },
        { header: 'Namespace/Name', cell: (row) => (0,format/* inline */.mG)((0,format/* clip */.$Q)(row.name, MAX_CELL)) },
        { header: 'Edge', cell: (row) => (0,format/* inline */.mG)((0,format/* clip */.$Q)(row.edge, MAX_CELL)) },
    ], kept);
    let kept = rows.length;
    let markdown = render(rows);
    while (kept > 0 && (0,format/* byteLength */.dp)(markdown) > budget)
        markdown = render(rows.slice(0, --kept));
    return { markdown, rows: kept };
}
function describe(row) {
    const object = (row.object ?? {});
    const name = typeof object.metadata?.name === 'string' ? object.metadata.name : typeof row.id === 'string' ? row.id : '?';
    const namespace = typeof object.metadata?.namespace === 'string' ? `${object.metadata.namespace}/` : '';
    return {
        // qualified by its group when the query selected apiVersion, as the impact report writes kinds
        kind: typeof object.kind === 'string' ? (0,target/* kindLabel */.tf)(object.kind, (0,live_object/* groupOf */.F8)(object.apiVersion)) : '—',
        name: namespace + name,
        edge: (0,graph/* edgeOf */.BQ)(typeof row.cluster === 'string' ? row.cluster : undefined) ?? '—',
    };
}

;// CONCATENATED MODULE: ./src/steps/query/publish.ts
/** The query step's outputs, log lines and job summary (the result file is written while paging). */



function publishQuery(result, maxObjects) {
    core/* setOutput */.uH('count', String(result.count));
    core/* setOutput */.uH('result-file', result.resultFile);
    core/* info */.pq(`Query: ${plural(result.count, 'object')} from ${plural(result.pages, 'page')} → ${result.resultFile}`);
    if (result.stoppedBy === 'max-objects')
        core/* warning */.$e(`Stopped at max-objects (${maxObjects}): more objects match the query.`);
    if (result.stoppedBy === 'cursor-restart')
        core/* warning */.$e('The hub restarted the results at page 1 (cursor not accepted): paging stopped to avoid a loop; the result may be incomplete.');
    if (result.stoppedBy === 'truncated')
        core/* warning */.$e(`Incomplete: the hub's 10,000-row cap cut the result, so ${result.count} is a lower bound (hub: ${result.warnings.join('; ') || 'incomplete'}). Ask for smaller pages (a lower \`limit\`) or fewer relations.`);
    if (result.count === 0)
        core/* notice */.lm('No object matched the query. An empty result does not prove absence: see the job summary.');
    (0,publish/* writeSummary */.Sy)(renderQuerySummary(result, maxObjects));
}
function plural(count, noun) {
    return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

// EXTERNAL MODULE: ./src/steps/query/run-query.ts
var run_query = __webpack_require__(1248);
;// CONCATENATED MODULE: ./src/steps/query/index.ts
/** The query step, loaded on demand by main.ts: every page of the query, then the summary. */





async function queryStep(settings, transport, signal) {
    const file = (0,external_node_path_.join)((0,outputs/* resultDirectory */.Hc)(settings.runner.tempDir), 'query-result.json');
    const result = await (0,run_query/* runQuery */.G)(settings.query, new graph/* GraphClient */.oh(transport), file, signal);
    publishQuery(result, settings.query.maxObjects);
    return undefined;
}


/***/ }),

/***/ 1248:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   G: () => (/* binding */ runQuery),
/* harmony export */   I: () => (/* binding */ pageSizeOf)
/* harmony export */ });
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(3024);
/* harmony import */ var node_fs__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_fs__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _hub_graph_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(4835);
/* harmony import */ var _redact_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(6670);
/* harmony import */ var _runner_outputs_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(7424);
/**
 * `command: query` — run a QuerySpec through every page and stream the objects to the result
 * file as they arrive, so memory stays flat however many there are.
 */




const DEFAULT_PAGE_SIZE = 1_000;
const SAMPLE_SIZE = 20;
/** Objects per request: the spec's own `limit`, else 1,000; never above the hub's 10,000. */
function pageSizeOf(settings) {
    return Math.min(settings.spec.limit ?? DEFAULT_PAGE_SIZE, _hub_graph_js__WEBPACK_IMPORTED_MODULE_1__/* .MAX_QUERY_LIMIT */ .i7, settings.maxObjects);
}
async function runQuery(settings, graph, resultFile, signal) {
    const spec = settings.spec;
    const pageSize = pageSizeOf(settings);
    const sample = [];
    const fd = (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.openSync)(resultFile, 'w', 0o600);
    let written = 0;
    let outcome;
    try {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.writeSync)(fd, `{"schema":${JSON.stringify(_runner_outputs_js__WEBPACK_IMPORTED_MODULE_3__/* .RESULT_FILES */ .Se.query.schema)},"version":${_runner_outputs_js__WEBPACK_IMPORTED_MODULE_3__/* .RESULT_FILES */ .Se.query.version},"query":${JSON.stringify(spec)},"objects":[\n`);
        outcome = await graph.forEachPage(spec, { pageSize, maxObjects: settings.maxObjects, ...(signal ? { signal } : {}) }, (objects) => {
            const chunk = objects.map((object) => JSON.stringify(object)).join(',\n');
            (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.writeSync)(fd, (written > 0 ? ',\n' : '') + (0,_redact_js__WEBPACK_IMPORTED_MODULE_2__/* .redact */ .E$)(chunk));
            written += objects.length;
            for (const object of objects)
                if (sample.length < SAMPLE_SIZE)
                    sample.push(object);
        });
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.writeSync)(fd, `\n],"count":${outcome.count},"pages":${outcome.pages},"complete":${outcome.stoppedBy === 'last-page'},"stoppedBy":${JSON.stringify(outcome.stoppedBy)},"hubWarnings":${(0,_redact_js__WEBPACK_IMPORTED_MODULE_2__/* .redact */ .E$)(JSON.stringify(outcome.warnings))}}\n`);
    }
    finally {
        (0,node_fs__WEBPACK_IMPORTED_MODULE_0__.closeSync)(fd);
    }
    const edges = outcome.count === 0 ? await graph.edges(signal) : undefined;
    return { count: outcome.count, pages: outcome.pages, stoppedBy: outcome.stoppedBy, warnings: outcome.warnings, sample, edges, resultFile };
}


/***/ }),

/***/ 7251:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   D3: () => (/* binding */ conditionText),
/* harmony export */   F8: () => (/* binding */ groupOf),
/* harmony export */   Vw: () => (/* binding */ inProgress),
/* harmony export */   Wh: () => (/* binding */ int),
/* harmony export */   _V: () => (/* binding */ kindKey),
/* harmony export */   at: () => (/* binding */ at),
/* harmony export */   gx: () => (/* binding */ str),
/* harmony export */   gz: () => (/* binding */ failed),
/* harmony export */   os: () => (/* binding */ shortText),
/* harmony export */   p_: () => (/* binding */ list),
/* harmony export */   ss: () => (/* binding */ current),
/* harmony export */   u4: () => (/* binding */ isRecord),
/* harmony export */   uH: () => (/* binding */ condition),
/* harmony export */   xi: () => (/* binding */ generationsOf),
/* harmony export */   yb: () => (/* binding */ conditionsOf)
/* harmony export */ });
/* unused harmony export MAX_LIST */
/* harmony import */ var _markdown_format_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4370);
/**
 * Reading a Kubernetes object as the graph stores it (hub-behaviour.md §7): untrusted JSON, so
 * every read checks its type, every list is capped, and nothing here throws.
 */

/** No real object has this many conditions or containers; more is reported, not walked. @internal */
const MAX_LIST = 256;
/** A short reason for a job-summary cell: untrusted text is flattened and clipped to this. */
const MAX_TEXT = 80;
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
/** The value at a path of keys, or undefined; own keys only, so "constructor" is not Object's. */
function at(value, ...path) {
    let node = value;
    for (const key of path) {
        if (!isRecord(node) || !Object.hasOwn(node, key))
            return undefined;
        node = node[key];
    }
    return node;
}
/** A whole number, else the fallback (kstatus reads counts the same way: wrong type = default). */
function int(value, fallback) {
    return typeof value === 'number' && Number.isSafeInteger(value) ? value : fallback;
}
function str(value) {
    return typeof value === 'string' ? value : '';
}
/** "apps/v1" → "apps"; "v1" → "" (the core group). */
function groupOf(apiVersion) {
    const text = str(apiVersion);
    const slash = text.indexOf('/');
    return slash === -1 ? '' : text.slice(0, slash);
}
/** The table key for a kind, as kstatus keys it: "apps/Deployment", or "Pod" for the core group. */
function kindKey(group, kind) {
    return group ? `${group}/${kind}` : kind;
}
/** Text from the hub on one line, without control characters, short enough for a table cell. */
function shortText(text) {
    const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
    return (0,_markdown_format_js__WEBPACK_IMPORTED_MODULE_0__/* .clipCharacters */ .Pu)(flat, MAX_TEXT, '…').text;
}
/** A list field: absent is empty; not a list, or longer than MAX_LIST, is a problem. */
function list(value, field) {
    if (value === undefined || value === null)
        return { ok: true, value: [] };
    if (!Array.isArray(value))
        return { ok: false, problem: `${field} is not a list` };
    if (value.length > MAX_LIST)
        return { ok: false, problem: `${field} has ${value.length} entries (more than ${MAX_LIST})` };
    return { ok: true, value };
}
/** status.conditions; entries that are not objects with a string type are skipped. */
function conditionsOf(object) {
    const entries = list(at(object, 'status', 'conditions'), 'status.conditions');
    if (!entries.ok)
        return entries;
    const conditions = [];
    for (const entry of entries.value) {
        const type = str(at(entry, 'type'));
        if (type)
            conditions.push({ type, status: str(at(entry, 'status')), reason: str(at(entry, 'reason')), message: str(at(entry, 'message')) });
    }
    return { ok: true, value: conditions };
}
/**
 * metadata.generation and status.observedGeneration: absent stays undefined (not every kind has
 * them), but present and not a whole number is a problem, since guessing could say "current".
 */
function generationsOf(object) {
    const generation = at(object, 'metadata', 'generation');
    const observed = at(object, 'status', 'observedGeneration');
    for (const [value, field] of [
        [generation, 'metadata.generation'],
        [observed, 'status.observedGeneration'],
    ]) {
        if (value !== undefined && int(value, NaN) !== value)
            return { ok: false, problem: `${field} is not a whole number` };
    }
    return { ok: true, value: { generation: generation, observed: observed } };
}
const current = (reason) => ({ status: 'current', reason });
const inProgress = (reason) => ({ status: 'in-progress', reason });
const failed = (reason) => ({ status: 'failed', reason });
function condition(live, type, status) {
    return live.conditions.find((c) => c.type === type && (status === undefined || c.status === status));
}
/** "Reconciling: Progressing" — the condition's reason, else its message, else its type alone. */
function conditionText(label, c) {
    const detail = c.reason || c.message;
    return detail ? `${label}: ${shortText(detail)}` : label;
}


/***/ })

};
