export const id = 289;
export const ids = [289];
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

/***/ 9286:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   IA: () => (/* binding */ classifyRelated),
/* harmony export */   MG: () => (/* binding */ mergeRelated),
/* harmony export */   cd: () => (/* binding */ baseRelation)
/* harmony export */ });
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(2547);

const DIRECTIONS = {
    owners: 'upstream',
    references: 'upstream',
    selects: 'upstream',
    namespace: 'upstream',
    descendants: 'downstream',
    'selected-by': 'downstream',
    namespaced: 'downstream',
    // Ours: the reverse of `references`, which the hub's tool does not offer.
    'referenced-by': 'downstream',
    linked: 'associated',
    grouped: 'associated',
};
/** Direction of a relation name, with or without the transitive "+"; undefined if unknown. */
function directionOf(relation) {
    return DIRECTIONS[baseRelation(relation)];
}
function baseRelation(relation) {
    return relation.endsWith('+') ? relation.slice(0, -1) : relation;
}
/** Group refs by direction, merge duplicates, and sort for a stable report. */
function classifyRelated(refs, exclude) {
    const byDirection = {
        upstream: new Map(),
        downstream: new Map(),
        associated: new Map(),
    };
    for (const ref of refs) {
        const direction = directionOf(ref.relation);
        if (!direction)
            continue;
        const key = (0,_model_js__WEBPACK_IMPORTED_MODULE_0__/* .objectKey */ .T)(ref);
        if (key === exclude)
            continue;
        const relation = baseRelation(ref.relation);
        const existing = byDirection[direction].get(key);
        if (existing) {
            if (!existing.relations.includes(relation))
                existing.relations.push(relation);
            continue;
        }
        byDirection[direction].set(key, {
            edge: ref.edge,
            group: ref.group,
            kind: ref.kind,
            namespace: ref.namespace,
            name: ref.name,
            relations: [relation],
        });
    }
    const finish = (map) => [...map.values()].map((object) => ({ ...object, relations: object.relations.sort() })).sort((a, b) => compare(a, b));
    return { upstream: finish(byDirection.upstream), downstream: finish(byDirection.downstream), associated: finish(byDirection.associated) };
}
/** Merge more related objects into a classified set (e.g. `referenced-by` found later). */
function mergeRelated(into, more) {
    const byKey = new Map(into.map((object) => [(0,_model_js__WEBPACK_IMPORTED_MODULE_0__/* .objectKey */ .T)(object), { ...object, relations: [...object.relations] }]));
    for (const object of more) {
        const existing = byKey.get((0,_model_js__WEBPACK_IMPORTED_MODULE_0__/* .objectKey */ .T)(object));
        if (!existing)
            byKey.set((0,_model_js__WEBPACK_IMPORTED_MODULE_0__/* .objectKey */ .T)(object), { ...object, relations: [...object.relations] });
        else
            for (const relation of object.relations)
                if (!existing.relations.includes(relation))
                    existing.relations.push(relation);
    }
    return [...byKey.values()].map((object) => ({ ...object, relations: object.relations.sort() })).sort(compare);
}
function compare(a, b) {
    return ((a.edge ?? '').localeCompare(b.edge ?? '') ||
        a.kind.localeCompare(b.kind) ||
        (a.namespace ?? '').localeCompare(b.namespace ?? '') ||
        a.name.localeCompare(b.name));
}


/***/ }),

/***/ 7289:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  impactStep: () => (/* binding */ impactStep)
});

// EXTERNAL MODULE: ./src/hub/errors.ts
var errors = __webpack_require__(4668);
// EXTERNAL MODULE: ./src/hub/graph.ts
var hub_graph = __webpack_require__(4835);
// EXTERNAL MODULE: ./src/steps/impact/classify.ts
var classify = __webpack_require__(9286);
// EXTERNAL MODULE: ./src/steps/impact/model.ts
var model = __webpack_require__(2547);
// EXTERNAL MODULE: ./src/steps/impact/query-impact.ts
var query_impact = __webpack_require__(6209);
;// CONCATENATED MODULE: ./src/steps/impact/referenced-by.ts


const REFERENCED_KINDS = new Set(['ConfigMap', 'Secret', 'PersistentVolumeClaim', 'ServiceAccount']);
const PAGE_SIZE = 2_000;
const MAX_SCANNED = 100_000;
function isReferencedKind(group, kind) {
    return group === '' && REFERENCED_KINDS.has(kind);
}
/**
 * Adds `referenced-by` objects to the downstream lists of the impacts that can have them. The
 * (edge, namespace) lookups run side by side; each one's pages hold one place of the limiter.
 */
async function addReferencedBy(graph, impacts, limit, signal) {
    const groups = new Map();
    for (const impact of impacts) {
        const { target } = impact;
        if (!isReferencedKind(target.group, target.kind) || !target.namespace)
            continue;
        const key = `${impact.edge}\u0000${target.namespace}`;
        groups.set(key, [...(groups.get(key) ?? []), impact]);
    }
    const perGroup = await Promise.all([...groups.values()].map((members) => referrersIn(graph, members, limit, signal)));
    return perGroup.flatMap((warning) => (warning ? [warning] : []));
}
/** One (edge, namespace): its referrers merged into the members' downstream; a warning when the lookup stopped early. */
async function referrersIn(graph, members, limit, signal) {
    const first = members[0];
    if (!first?.target.namespace)
        return undefined;
    const namespace = first.target.namespace;
    const filters = members.map((impact) => ({
        groupKind: { apiGroup: '', kind: impact.target.kind },
        name: impact.target.name,
        namespace,
    }));
    const spec = {
        cluster: { name: first.edge },
        filter: { objects: [{ namespace }] },
        objects: {
            id: true,
            cluster: true,
            object: { kind: true, apiVersion: true, metadata: { name: true, namespace: true } },
            relations: { references: { filters, objects: { object: { kind: true, metadata: { name: true } } } } },
        },
    };
    const found = new Map();
    const result = await limit(() => graph.forEachPage(spec, {
        pageSize: PAGE_SIZE,
        maxObjects: MAX_SCANNED,
        deep: true,
        operation: `find what references objects in namespace ${namespace} on edge ${first.edge}`,
        ...(signal ? { signal } : {}),
    }, (objects) => {
        for (const object of objects)
            collect(object, members, found);
    }));
    for (const [impact, referrers] of found)
        impact.downstream = (0,classify/* mergeRelated */.MG)(impact.downstream, referrers);
    if (result.stoppedBy === 'last-page')
        return undefined;
    return `Referenced-by lookup in namespace ${namespace} on edge ${first.edge} stopped early (${result.stoppedBy}); dependents may be missing.`;
}
function collect(object, members, found) {
    const references = object.relations?.references ?? object.relations?.['references+'] ?? [];
    if (references.length === 0)
        return;
    const self = (0,query_impact/* refOf */.H8)(object, 'referenced-by');
    for (const reference of references) {
        const ref = reference.object;
        const impact = members.find((member) => member.target.kind === ref?.kind && member.target.name === ref?.metadata?.name);
        if (!impact)
            continue;
        const list = found.get(impact) ?? [];
        list.push({ edge: self.edge, group: self.group, kind: self.kind, namespace: self.namespace, name: self.name, relations: ['referenced-by'] });
        found.set(impact, list);
    }
}

// EXTERNAL MODULE: ./src/errors.ts
var src_errors = __webpack_require__(3916);
;// CONCATENATED MODULE: ./src/steps/impact/bounds.ts
/**
 * What bounds the work a pull request can cause: a cap on targets per step and on documents per
 * file, each checked while reading (before the first hub request), and one limiter on the hub
 * requests in flight, shared by every fan-out of the step (per target, edge and namespace).
 */

/** A cap on what the inputs declared was passed; the step fails before any hub request. */
class CapError extends src_errors/* ActionError */.l {
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

;// CONCATENATED MODULE: ./src/steps/impact/scope.ts
function partitionByScope(targets, scope) {
    const inScope = [];
    const skipped = [];
    for (const target of targets) {
        const reason = outOfScope(target, scope);
        if (reason)
            skipped.push({ target, reason });
        else
            inScope.push(target);
    }
    return { inScope, skipped };
}
function outOfScope(target, { namespaces, kinds }) {
    if (kinds.length > 0 && !kinds.some((allowed) => allowed.kind === target.kind && (allowed.group === undefined || allowed.group === target.group))) {
        return 'its kind is not in `allowed-kinds`: not queried';
    }
    if (namespaces.length > 0) {
        if (!target.namespace)
            return 'it names no namespace (cluster-scoped, or none given) and `allowed-namespaces` is set: not queried';
        if (!namespaces.includes(target.namespace))
            return 'its namespace is not in `allowed-namespaces`: not queried';
    }
    return undefined;
}

;// CONCATENATED MODULE: ./src/steps/impact/compute-impact.ts
/**
 * `command: impact` — targets → impact on every edge where each exists → one report.
 * The source is the query API (default) or the hub's graph_impact MCP tool; both feed the
 * same classification, so they report the same thing for the same fleet. Referenced-by
 * dependents come from the query API either way (the tool has no such relation).
 */








async function computeImpact(settings, inputs, deps) {
    const warnings = [];
    let edges;
    // every hub request of the step, whichever fan-out sends it, waits for a place here
    const limit = requestLimiter();
    const workspaceEdges = async () => (edges ??= await limit(() => deps.graph.edges(deps.signal)));
    const { inScope: targets, skipped: skippedTargets } = partitionByScope(inputs.targets, settings.scope);
    const perTarget = await Promise.all(targets.map((target) => impactsOfTarget(target, settings, { ...deps, limit })));
    const impacts = perTarget.flatMap((found) => found.sort((a, b) => a.edge.localeCompare(b.edge)));
    const notFound = targets.filter((_, index) => (perTarget[index] ?? []).length === 0);
    warnings.push(...(await addReferencedBy(deps.graph, impacts, limit, deps.signal)));
    if (notFound.length > 0)
        await workspaceEdges();
    for (const impact of impacts) {
        if (impact.incomplete)
            warnings.push(`The hub cut the result for ${impact.target.kind} ${impact.target.name} on ${impact.edge} (row cap): counts are a lower bound.`);
    }
    return {
        source: settings.source,
        targets,
        impacts,
        notFound,
        skippedFiles: [...inputs.skippedFiles],
        skippedTargets,
        edges: edges ?? [],
        totals: distinctTotals(impacts),
        maxDepth: settings.maxDepth,
        commit: inputs.commit,
        warnings,
    };
}
/** The impact of one target on each edge where it exists; each request waits for the limiter. */
async function impactsOfTarget(target, settings, deps) {
    const { limit } = deps;
    if (settings.source === 'mcp') {
        const tool = deps.tool;
        if (!tool)
            throw new Error('impact-source is mcp but no MCP client was given');
        // The tool answers for its first match only: ask it once per place the object exists.
        const found = [];
        for (const place of await limit(() => placesOf(deps.graph, target, deps.signal))) {
            const impact = await limit(() => impactFromTool(tool, { ...target, namespace: place.namespace }, place.edge, settings.maxDepth, deps.signal));
            // The tool runs the query API's own query: not finding what the query API just found means
            // it asked as another tenant, which is what an `mcp-url` with the cluster id does (§4).
            if (!impact)
                throw toolMissesObject(target, place, settings.mcpUrl);
            found.push(impact);
        }
        return found;
    }
    // A relation query across edges merges same-named objects into one node (hub-behaviour.md §3):
    // ask one edge at a time, each edge where the target exists, so each gets its own relations.
    const edgesOfTarget = target.edge ? [target.edge] : [...new Set((await limit(() => placesOf(deps.graph, target, deps.signal))).map((place) => place.edge))];
    const found = [];
    for (const edge of edgesOfTarget) {
        const onEdge = { ...target, edge };
        const operation = `compute the impact of ${target.kind} ${target.name} on edge ${edge}`;
        const status = onePage(await limit(() => deps.graph.query((0,query_impact/* buildImpactQuery */.tx)(onEdge, settings.maxDepth), deps.signal, operation)), operation);
        found.push(...(0,query_impact/* impactsFromStatus */._H)(status, target));
    }
    return found;
}
/** Every (edge, namespace) where the target exists, from one light query. */
async function placesOf(graph, target, signal) {
    const filter = { groupKind: { apiGroup: target.group, kind: target.kind }, name: target.name };
    if (target.namespace)
        filter.namespace = target.namespace;
    const spec = { filter: { objects: [filter] }, objects: { id: true, cluster: true, object: { metadata: { namespace: true } } } };
    if (target.edge)
        spec.cluster = { name: target.edge };
    const operation = `look up ${target.kind} ${target.name} on the workspace's edges`;
    const status = onePage(await graph.query(spec, signal, operation), operation);
    return (status.objects ?? []).map((object) => {
        const namespace = object.object?.metadata?.namespace;
        const cut = object.cluster?.lastIndexOf('/') ?? -1;
        return {
            edge: (0,hub_graph/* edgeOf */.BQ)(object.cluster) ?? target.edge ?? '',
            namespace: typeof namespace === 'string' && namespace ? namespace : undefined,
            workspacePath: object.cluster && cut > 0 ? object.cluster.slice(0, cut) : undefined,
        };
    });
}
/**
 * These queries set no `limit`, so the hub answers one page of at most 100 roots. More is an
 * answer no hub gives, and each root would be classified and fan out into further queries.
 */
function onePage(status, operation) {
    const roots = status.objects?.length ?? 0;
    if (roots <= query_impact/* DEFAULT_ROOT_LIMIT */.TY)
        return status;
    throw new errors/* HubProtocolError */.mT({
        operation,
        hubMessage: `${roots.toLocaleString('en-US')} objects in one page`,
        hint: `A page of this query holds at most ${query_impact/* DEFAULT_ROOT_LIMIT */.TY} objects, so the answer was not used and no query followed from it. Check that \`hub-url\` is the hub.`,
    });
}
const MCP_PATH = /^(.*\/services\/mcpserver\/)([^]+?)(\/apis\/hub\.sh\/v1alpha1\/mcpservers\/[^/]+\/mcp\/?)$/;
/**
 * The query API found the target and the tool did not. Say which `mcp-url` form works, with the
 * exact URL when the one given has the hub's MCP path and the workspace path is known.
 */
function toolMissesObject(target, place, mcpUrl) {
    const what = `${target.group ? `${target.kind}.${target.group}` : target.kind} ${place.namespace ? `${place.namespace}/` : ''}${target.name} on edge ${place.edge}`;
    const form = '…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp';
    let fix = `Set \`mcp-url\` to the form ${form}, with the workspace path where the hub's connect page puts the cluster id.`;
    const parts = mcpUrl ? MCP_PATH.exec(mcpUrl.pathname) : null;
    if (mcpUrl && parts && place.workspacePath) {
        let given = parts[2] ?? '';
        try {
            given = decodeURIComponent(given);
        }
        catch {
            // keep it as written
        }
        if (given !== place.workspacePath) {
            const fixed = new URL(mcpUrl);
            fixed.pathname = `${parts[1] ?? ''}${encodeURIComponent(place.workspacePath)}${parts[3] ?? ''}`;
            fix = `\`mcp-url\` names "${given}" where the graph tools need the workspace path "${place.workspacePath}" (the hub's connect page hands out the cluster-id form, which finds nothing): set \`mcp-url\` to ${fixed.href}`;
        }
    }
    return new errors/* HubRequestError */.r7({
        operation: `get the impact of ${what} from the MCP tool`,
        hubMessage: 'found:false, although the query API finds the object there',
        hint: `The MCP tool asked the graph as another tenant than the query API, so every answer it gives would be "not found". ${fix} Or use \`impact-source: query\`.`,
    });
}
async function impactFromTool(tool, target, edge, maxDepth, signal) {
    const input = { kind: target.kind, name: target.name, group: target.group, edge, maxDepth };
    if (target.namespace)
        input.namespace = target.namespace;
    const result = await tool.impact(input, signal);
    if (!result.found)
        return undefined;
    const self = { ...result.object, group: result.object.group ?? '', edge: result.object.edge ?? edge };
    const refs = [...result.upstream, ...result.downstream, ...result.associated].map((ref) => ({ ...ref, relation: (0,classify/* baseRelation */.cd)(ref.relation) }));
    return {
        target: { ...target, namespace: target.namespace ?? self.namespace },
        edge: self.edge,
        ...(0,classify/* classifyRelated */.IA)(refs, (0,model/* objectKey */.T)(self)),
        incomplete: false,
    };
}
/** Distinct objects per direction across every target and edge. */
function distinctTotals(impacts) {
    const count = (direction) => new Set(impacts.flatMap((impact) => impact[direction].map(model/* objectKey */.T))).size;
    return { upstream: count('upstream'), downstream: count('downstream'), associated: count('associated') };
}
function impactVerdict(report, failOnDownstream) {
    const counts = `${report.totals.upstream} upstream, ${report.totals.downstream} downstream, ${report.totals.associated} associated`;
    if (report.impacts.length === 0) {
        return {
            status: 'pass',
            message: `Impact: none of the ${report.targets.length} target(s) was found on any edge; see the job summary for why that proves nothing.`,
        };
    }
    const scope = `${report.impacts.length} target-edge pair${report.impacts.length === 1 ? '' : 's'}`;
    if (failOnDownstream !== undefined && report.totals.downstream > failOnDownstream) {
        return {
            status: 'fail',
            message: `Impact: ${report.totals.downstream} distinct objects downstream, more than fail-on-downstream (${failOnDownstream}). ${counts} across ${scope}.`,
        };
    }
    return { status: 'pass', message: `Impact: ${counts} across ${scope}.` };
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(6760);
;// CONCATENATED MODULE: ./src/model/target.ts
/**
 * The objects a step reports on: named by the user (input `targets`), or found in a changed
 * manifest or a rendered set. Settings parse them and the steps follow them, so they live
 * here, between both, and neither imports the other for them.
 */
/** The riskiest changes: a removed object takes its downstream with it. */
function isRemovedTarget(target) {
    return (target.origin.kind === 'manifest' || target.origin.kind === 'rendered') && target.origin.change === 'removed';
}
function targetLabel(target) {
    const kind = target.group ? `${target.kind}.${target.group}` : target.kind;
    return `${kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}`;
}

// EXTERNAL MODULE: external "node:fs/promises"
var promises_ = __webpack_require__(1455);
// EXTERNAL MODULE: ./src/markdown/format.ts
var format = __webpack_require__(4370);
// EXTERNAL MODULE: ./src/redact.ts
var redact = __webpack_require__(6670);
;// CONCATENATED MODULE: ./src/steps/impact/read-workspace-file.ts
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
    return (0,promises_.realpath)(workspace);
}
/** Reads `path` (relative to the workspace) if it is a regular file inside it, at most `maxBytes` long. */
async function readWorkspaceFile(root, path, maxBytes = MAX_MANIFEST_BYTES) {
    let real;
    try {
        real = await (0,promises_.realpath)((0,external_node_path_.resolve)(root, path));
    }
    catch (error) {
        return { skipped: errorCode(error) === 'ELOOP' ? 'a symlink loop: nothing was read' : MISSING };
    }
    if (!isInside(root, real))
        return { skipped: OUTSIDE };
    let handle;
    try {
        // O_NOFOLLOW: the last part cannot have become a link since realpath; O_NONBLOCK: a FIFO does not hang the step
        handle = await (0,promises_.open)(real, external_node_fs_.constants.O_RDONLY | (external_node_fs_.constants.O_NOFOLLOW ?? 0) | (external_node_fs_.constants.O_NONBLOCK ?? 0));
    }
    catch (error) {
        return { skipped: errorCode(error) === 'ENOENT' ? MISSING : `not readable (${errorCode(error) ?? 'error'}): nothing was read` };
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
    return `${(0,format/* formatBytes */.z3)(size)}, larger than the ${(0,format/* formatBytes */.z3)(maxBytes)} read for a manifest file: split it, or name its objects in \`targets\``;
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
    return { text: (0,redact/* redact */.E$)(buffer.toString('utf8', 0, filled)) };
}
/** Linux names the file behind a descriptor in /proc; elsewhere there is no such answer. */
async function openedPath(handle) {
    try {
        return await (0,promises_.readlink)(`/proc/self/fd/${handle.fd}`);
    }
    catch {
        return undefined;
    }
}
function isInside(root, path) {
    const rel = (0,external_node_path_.relative)(root, path);
    return rel !== '' && rel !== '..' && !rel.startsWith(`..${external_node_path_.sep}`) && !(0,external_node_path_.isAbsolute)(rel);
}
function errorCode(error) {
    const code = error?.code;
    return typeof code === 'string' ? code : undefined;
}

;// CONCATENATED MODULE: ./src/steps/impact/annotations.ts
/**
 * The blast radius on the diff: one notice annotation per target, on the line that declares it
 * — the `kind:` line of a changed manifest, or of the chart or overlay file a renderer names —
 * so it shows in the pull request's "Files changed" view with no extra permission.
 *
 * GitHub shows at most 10 annotations of each level (error, warning, notice) per step and 50
 * per job (docs: "Workflow commands for GitHub Actions" and the Checks API's annotation limits);
 * more are dropped silently. So at most MAX_NOTICES are written (one fewer than the limit: the
 * step's verdict is a notice too), the last being a summary of the
 * rest when there are more, most downstream objects first.
 */




/** Notice annotations GitHub shows per step. @internal */
const NOTICES_PER_STEP = 10;
/** What the impact step may write: the verdict line of the step is a notice too (publish.ts). @internal */
const MAX_NOTICES = NOTICES_PER_STEP - 1;
/** A declaring template or overlay file read to find its `kind:` line; larger ones are placed at line 1. */
const MAX_DECLARING_FILE_BYTES = 512 * 1024;
/** Where each target is declared, with what it affects; targets declared nowhere in the checkout get none. */
async function impactAnnotations(report, context) {
    const annotations = [];
    const placed = new Map();
    for (const target of report.targets) {
        const place = await placeOf(target, context, placed);
        if (!place)
            continue;
        const impacts = report.impacts.filter((impact) => sameObject(impact.target, target));
        const downstream = impacts.reduce((sum, impact) => sum + impact.downstream.length, 0);
        annotations.push({ ...place, title: `hub-action impact: ${targetLabel(target)}`, message: messageFor(target, impacts), downstream });
    }
    return annotations;
}
/** At most `max` annotations: the ones with most downstream first, then one that counts the rest. */
function capAnnotations(annotations, max = MAX_NOTICES) {
    const ordered = [...annotations].sort((a, b) => b.downstream - a.downstream);
    if (ordered.length <= max)
        return { shown: ordered, summary: undefined };
    const shown = ordered.slice(0, max - 1);
    const rest = ordered.length - shown.length;
    return {
        shown,
        summary: `${rest} more changed object(s) have impact not annotated on the diff: GitHub shows at most ${NOTICES_PER_STEP} notice annotations per step. The job summary and the pull request comment list them all.`,
    };
}
function messageFor(target, impacts) {
    const change = changeText(target);
    if (impacts.length === 0)
        return `${targetLabel(target)} (${change}): not found on any edge, so its impact is unknown (a new object, a stale edge, or no visibility).`;
    const perEdge = impacts.map((impact) => `${impact.downstream.length} downstream, ${impact.upstream.length} upstream on ${impact.edge}${impact.incomplete ? ' (incomplete)' : ''}`);
    const removed = isRemovedTarget(target) ? ' Removing it affects every downstream object.' : '';
    return `${targetLabel(target)} (${change}): ${perEdge.join('; ')}.${removed} See the job summary for the objects.`;
}
function changeText(target) {
    const origin = target.origin;
    if (origin.kind === 'input')
        return 'named in targets';
    if (origin.kind === 'manifest')
        return origin.change === 'workspace' ? 'in the workspace' : origin.change;
    return origin.change === 'rendered' ? 'rendered' : `${origin.change} in the rendered set`;
}
async function placeOf(target, context, placed) {
    const origin = target.origin;
    if (origin.kind === 'manifest')
        return origin.change === 'removed' || origin.line === undefined ? undefined : { file: origin.path, line: origin.line };
    if (origin.kind !== 'rendered' || !origin.source || context.root === undefined)
        return undefined;
    const key = `${origin.source}\u0000${target.kind}`;
    let place = placed.get(key);
    if (!place) {
        place = declaringLine(context.root, origin.source, target.kind, context.changedPaths);
        placed.set(key, place);
    }
    return place;
}
/**
 * The file a renderer names, found in the checkout: Helm names it from the chart's parent
 * (`shop/templates/x.yaml`), Kustomize from the overlay (`../../base/x.yaml`); so it is tried
 * from the workspace root and from each folder of the changed files and their parents, nearest
 * first. Only paths inside the workspace, read with the workspace reader.
 */
async function declaringLine(root, source, kind, changedPaths) {
    for (const candidate of candidates(source, changedPaths)) {
        if (!isRegularFile(`${root}/${candidate}`))
            continue;
        const read = await readWorkspaceFile(root, candidate, MAX_DECLARING_FILE_BYTES);
        if ('skipped' in read)
            continue;
        return { file: candidate, line: kindLine(read.text, kind) };
    }
    return undefined;
}
function candidates(source, changedPaths) {
    const folders = new Set();
    for (const path of changedPaths) {
        for (let folder = (0,external_node_path_.dirname)(path); folder !== '.' && folder !== '/' && !folders.has(folder); folder = (0,external_node_path_.dirname)(folder))
            folders.add(folder);
    }
    const found = [];
    for (const candidate of [source, ...[...folders].sort((a, b) => b.length - a.length).map((folder) => `${folder}/${source}`)]) {
        const path = (0,external_node_path_.normalize)(candidate).split('\\').join('/');
        if ((0,external_node_path_.isAbsolute)(path) || path === '..' || path.startsWith('../') || found.includes(path))
            continue;
        found.push(path);
    }
    return found;
}
function isRegularFile(path) {
    try {
        return (0,external_node_fs_.statSync)(path).isFile();
    }
    catch {
        return false;
    }
}
/** The line of `kind: <Kind>` (a template may declare several kinds), else the first `kind:`, else 1. */
function kindLine(text, kind) {
    const lines = text.split('\n');
    const exact = lines.findIndex((line) => line.trim() === `kind: ${kind}`);
    if (exact !== -1)
        return exact + 1;
    const any = lines.findIndex((line) => /^\s*kind:/.test(line));
    return any + 1 || 1;
}
function sameObject(a, b) {
    return (a.group === b.group &&
        a.kind === b.kind &&
        a.name === b.name &&
        (b.namespace === undefined || a.namespace === b.namespace) &&
        (b.edge === undefined || a.edge === b.edge));
}

// EXTERNAL MODULE: external "node:timers/promises"
var external_node_timers_promises_ = __webpack_require__(8500);
// EXTERNAL MODULE: external "node:v8"
var external_node_v8_ = __webpack_require__(8877);
// EXTERNAL MODULE: external "node:vm"
var external_node_vm_ = __webpack_require__(714);
// EXTERNAL MODULE: ./node_modules/yaml/dist/index.js
var dist = __webpack_require__(8815);
;// CONCATENATED MODULE: ./src/steps/impact/manifests.ts
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
            throw tooManyDocuments(path, maxDocuments);
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
            (0,external_node_v8_.setFlagsFromString)('--expose-gc');
            gc = (0,external_node_vm_.runInNewContext)('gc');
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
    const parser = new dist.Parser();
    const composer = new dist.Composer({});
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
    for (const lexeme of new dist.Lexer().lex(text)) {
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
                await (0,external_node_timers_promises_.setImmediate)();
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
        const items = (0,dist.isMap)(node) ? node.get('items', true) : undefined;
        value.items.forEach((item, index) => expandLists(item, (0,dist.isSeq)(items) ? items.items[index] : undefined, out));
        return;
    }
    out.push({ value, offset: kindOffset(node) });
}
function kindOffset(node) {
    if (!(0,dist.isMap)(node))
        return undefined;
    const pair = node.items.find((item) => (0,dist.isScalar)(item.key) && item.key.value === 'kind');
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

;// CONCATENATED MODULE: ./src/steps/impact/rendered.ts
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
        await (0,external_node_timers_promises_.setImmediate)();
        options.signal?.throwIfAborted();
        set.files.push(path);
        const read = options.root === undefined
            ? { skipped: 'not in the workspace: render it in an earlier step of this job' }
            : await readWorkspaceFile(options.root, path, options.maxFileBytes ?? MAX_RENDERED_FILE_BYTES);
        if ('skipped' in read) {
            set.skippedFiles.push({ path, reason: read.skipped });
            continue;
        }
        const parsed = await objectsFromManifest(path, read.text, {
            defaultNamespace: options.defaultNamespace,
            signal: options.signal,
            maxDocuments: options.maxDocuments,
        });
        if (parsed.skipped)
            set.skippedFiles.push(parsed.skipped);
        for (const object of parsed.objects) {
            const key = (0,model/* objectKey */.T)(object.target);
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
    const before = new Map(base.objects.map((object) => [(0,model/* objectKey */.T)(object.target), object]));
    const inHead = new Set(head.objects.map((object) => (0,model/* objectKey */.T)(object.target)));
    const added = head.objects.filter((object) => !before.has((0,model/* objectKey */.T)(object.target)));
    const removed = base.objects.filter((object) => !inHead.has((0,model/* objectKey */.T)(object.target)));
    const regenerated = pairGenerated(added, removed);
    const targets = [];
    for (const object of head.objects) {
        const old = before.get((0,model/* objectKey */.T)(object.target));
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
    const stem = (object) => GENERATED_SUFFIX.test(object.target.name) ? (0,model/* objectKey */.T)({ ...object.target, name: object.target.name.replace(GENERATED_SUFFIX, '') }) : undefined;
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
        for (const entry of (0,external_node_fs_.globSync)(glob, { cwd: workspace, withFileTypes: true, exclude: (entry) => entry.name === 'node_modules' || entry.name === '.git' })) {
            if (entry.isDirectory())
                continue;
            paths.add((0,external_node_path_.relative)((0,external_node_path_.resolve)(workspace), (0,external_node_path_.resolve)(workspace, (0,external_node_path_.join)(entry.parentPath, entry.name)))
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

;// CONCATENATED MODULE: ./src/steps/impact/targets.ts
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
            throw tooManyTargets(maxTargets, found.size, complete, inputs);
    };
    const rendering = (options.renderedHead?.length ?? 0) > 0;
    add(options.given, options.globs.length === 0 && !rendering);
    const skippedFiles = [];
    const files = [];
    const warnings = [];
    const root = await workspaceRoot(options.workspace).catch(() => undefined);
    const wantsChanged = options.globs.length > 0 || (options.renderedHead?.length ?? 0) > 0;
    const changed = options.pullRequest && wantsChanged ? await options.pullRequest.changedFiles() : [];
    if (options.globs.length > 0) {
        const { sources, emptyGlobs } = options.pullRequest
            ? changedManifests(changed, options.globs, options.workspace)
            : workspaceManifests(options.workspace, options.globs);
        if (emptyGlobs.length > 0)
            warnings.push(emptyGlobWarning('manifests', emptyGlobs, options.workspace, options.pullRequest !== undefined));
        if (sources.length > 0)
            options.log?.(`Reading ${sources.length} manifest file(s).`);
        for (const [index, source] of sources.entries()) {
            // a turn of the event loop between files, so a cancel is heard even when each file is quick
            await (0,external_node_timers_promises_.setImmediate)();
            options.signal?.throwIfAborted();
            files.push(source.path);
            const read = await readSource(source, root, options);
            if ('skipped' in read) {
                skippedFiles.push({ path: source.path, reason: read.skipped });
                continue;
            }
            const origin = { kind: 'manifest', path: source.path, change: source.change };
            const result = await targetsFromManifest(source.path, read.text, origin, {
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
        const read = (globs) => readRenderedSet({
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
        const rendered = renderedTargets(head, base);
        options.log?.(base
            ? `Rendered sets: ${head.objects.length} object(s) at the head, ${base.objects.length} at the base; ${rendered.length} added, removed or changed.`
            : `Rendered set: ${head.objects.length} object(s) at the head (no base set: every one is a target).`);
        // the last source: every target is counted by now
        add(rendered, true);
    }
    return {
        targets: [...found.values()],
        skippedFiles,
        files,
        warnings,
        changedPaths: changed.filter((file) => file.status !== 'removed').map((file) => file.path),
    };
}
/** Names the input, its globs and where they were matched, and what to check. */
function emptyGlobWarning(input, globs, workspace, pullRequest) {
    const where = pullRequest ? `the files this pull request changes nor the workspace ${workspace}` : `the workspace ${workspace}`;
    const list = globs.map((glob) => `\`${glob}\``).join(', ');
    return `\`${input}\`: ${globs.length === 1 ? 'the glob' : 'the globs'} ${list} matched no file in ${where} (folders are not matched as files; globs are relative to the workspace, e.g. deploy/**/*.yaml). Check the paths, and that an earlier step wrote the files.`;
}
/** A removed file is read at the base commit; every other one from the checkout of the head. */
async function readSource(source, root, options) {
    const maxBytes = options.maxFileBytes ?? MAX_MANIFEST_BYTES;
    if (source.change === 'removed') {
        const atBase = await options.pullRequest?.readAtBase(source.path, maxBytes);
        if (atBase === undefined)
            return { skipped: 'removed, and not readable at the base commit' };
        return 'text' in atBase ? atBase : { skipped: tooLarge(atBase.tooLarge, maxBytes) };
    }
    if (root === undefined)
        return { skipped: 'not in the workspace: check out the pull request head (actions/checkout) before this step' };
    return readWorkspaceFile(root, source.path, maxBytes);
}
/** One target per object; a removed manifest's origin wins, since it is the riskier change. */
function addDistinct(byKey, targets) {
    for (const target of targets) {
        const key = [target.edge ?? '', target.group, target.kind, target.namespace ?? '', target.name].join('\u0000');
        const existing = byKey.get(key);
        if (!existing || isRemovedTarget(target))
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
        const glob = globs.find((glob) => (0,external_node_path_.matchesGlob)(file.path, glob));
        if (glob === undefined)
            continue;
        used.add(glob);
        const change = file.status === 'removed' ? 'removed' : file.status === 'added' ? 'added' : file.status === 'renamed' ? 'renamed' : 'modified';
        sources.push({ path: file.path, change });
    }
    const unused = globs.filter((glob) => !used.has(glob));
    return { sources, emptyGlobs: unused.length > 0 ? matchFiles(workspace, unused).emptyGlobs : [] };
}
function workspaceManifests(workspace, globs) {
    const { paths, emptyGlobs } = matchFiles(workspace, globs);
    return { sources: paths.map((path) => ({ path, change: 'workspace' })), emptyGlobs };
}

// EXTERNAL MODULE: ./src/runner/outputs.ts
var outputs = __webpack_require__(7424);
// EXTERNAL MODULE: ./src/runner/publish.ts
var publish = __webpack_require__(5493);
// EXTERNAL MODULE: external "node:buffer"
var external_node_buffer_ = __webpack_require__(4573);
;// CONCATENATED MODULE: ./src/markdown/fit.ts
/**
 * Measured pieces of markdown, for documents that must fit a budget of characters (code
 * points, as GitHub counts them) and bytes: sizes are known before any text is joined, lists
 * can be cut to their first K items, and a last-resort clip keeps any budget.
 */


function piece(text) {
    return { text, chars: (0,format/* codePointLength */.O7)(text), bytes: external_node_buffer_.Buffer.byteLength(text, 'utf8') };
}
/** The largest k in [0, max] for which `ok(k)` holds (0 when none does); `ok` grows false with k. */
function largestFitting(max, ok) {
    let low = 0;
    let high = max;
    while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (ok(mid))
            low = mid;
        else
            high = mid - 1;
    }
    return low;
}
function cuttable(heading, items, more) {
    const prefix = [{ chars: 0, bytes: 0 }];
    for (const item of items) {
        const last = prefix[prefix.length - 1] ?? { chars: 0, bytes: 0 };
        prefix.push({ chars: last.chars + item.chars + 1, bytes: last.bytes + item.bytes + 1 });
    }
    return { heading: piece(`${heading}\n\n`), items, prefix, more };
}
/** "heading\n\n" + the first `limit` items, one a line, + "… and M more" when cut. */
function cutList(list, limit) {
    const kept = Math.min(Math.max(0, limit), list.items.length);
    const rest = list.items.length - kept;
    const tail = rest > 0 ? piece(list.more(rest)) : undefined;
    const itemsSize = list.prefix[kept] ?? { chars: 0, bytes: 0 };
    // Items carry a newline each; the last newline is dropped unless a tail follows it.
    const chars = list.heading.chars + itemsSize.chars + (tail ? tail.chars : -Math.min(1, kept));
    const bytes = list.heading.bytes + itemsSize.bytes + (tail ? tail.bytes : -Math.min(1, kept));
    let text;
    return {
        chars,
        bytes,
        get text() {
            if (text === undefined) {
                const lines = list.items.slice(0, kept).map((item) => item.text);
                if (tail)
                    lines.push(tail.text);
                text = list.heading.text + lines.join('\n');
            }
            return text;
        },
    };
}
/** Last resort for a budget too small for even the kept sections: cut by code points, then bytes. */
function enforceBudget(text, budget) {
    if ((0,format/* codePointLength */.O7)(text) <= budget && external_node_buffer_.Buffer.byteLength(text, 'utf8') <= format/* SUMMARY_BYTE_BUDGET */.Gh)
        return text;
    const marker = '\n\n…(trimmed to fit)\n';
    let out = (0,format/* clipCharacters */.Pu)(text, budget, marker).text;
    while (external_node_buffer_.Buffer.byteLength(out, 'utf8') > format/* SUMMARY_BYTE_BUDGET */.Gh) {
        const chars = Array.from(out);
        out = (0,format/* clipCharacters */.Pu)(out, Math.floor(chars.length * 0.95), marker).text;
    }
    return Array.from(out).length <= budget ? out : Array.from(out).slice(0, budget).join('');
}

;// CONCATENATED MODULE: ./src/steps/impact/fit-report.ts
/**
 * Fitting an impact report to a budget. The document is built from measured parts
 * (impact-report.ts) and, when it is over budget, re-assembled with less detail — whole
 * sections dropped in a fixed order, never a table cut mid-row:
 * Mermaid graphs, associated tables, upstream tables, downstream tables (longest first),
 * the per-target details, skipped files, warnings, the not-found explanation; then the
 * verdict lines and the not-found names are shortened to the first K. Title, totals and the
 * caveat always stay. Every rendering also stays within SUMMARY_BYTE_BUDGET bytes, well under
 * the job summary's 1 MiB per step.
 */


/** A degradation of one level: `give` is the plan without the detail. */
const drop = (give) => ({ levels: () => 1, apply: (plan, keep) => (keep >= 1 ? plan : give(plan)) });
/** The document of `doc` within `budget` characters and SUMMARY_BYTE_BUDGET bytes. */
function fitReport(doc, budget) {
    const fits = (plan) => {
        const size = measure(doc, plan);
        return size.chars + 1 <= budget && size.bytes + 1 <= format/* SUMMARY_BYTE_BUDGET */.Gh;
    };
    const text = `${assemble(doc, choosePlan(doc, fits)).join('\n\n')}\n`;
    return enforceBudget(text, budget);
}
/**
 * The degradations in the order they are made, then the largest document that fits: the first
 * whose plan fits, keeping as many levels of the last one as fit. When none does, all of them
 * are made (and enforceBudget clips what is left).
 */
function choosePlan(doc, fits) {
    const full = fullPlan(doc);
    // Graphs are rendered only when the rest fits without them: they are dropped first anyway.
    if (fits({ ...full, mermaid: false }) && fits(full))
        return full;
    let plan = full;
    for (const degradation of degradations(doc)) {
        // `plan` does not fit, so neither does keeping every level.
        const keep = largestFitting(degradation.levels(plan) - 1, (levels) => fits(degradation.apply(plan, levels)));
        plan = degradation.apply(plan, keep);
        if (fits(plan))
            return plan;
    }
    return plan;
}
/**
 * Whole sections first, in a fixed order: Mermaid graphs (with the "trimmed" notice), associated
 * tables, upstream tables, downstream tables one at a time (longest first: first cut to their
 * first rows, then dropped), the per-target details, skipped files, warnings, the not-found
 * explanation; then the verdict lines and the not-found names, each cut to its first K.
 */
function degradations(doc) {
    const longestFirst = doc.impacts.map((_, index) => index).sort((a, b) => (doc.impacts[b]?.downstream.chars ?? 0) - (doc.impacts[a]?.downstream.chars ?? 0));
    return [
        drop((plan) => ({ ...plan, trimmed: true, mermaid: false })),
        drop((plan) => ({ ...plan, associated: false })),
        drop((plan) => ({ ...plan, upstream: false })),
        downstreamTables(doc, longestFirst),
        drop((plan) => ({ ...plan, details: false })),
        drop((plan) => ({ ...plan, skipped: false })),
        drop((plan) => ({ ...plan, warnings: false })),
        drop((plan) => ({ ...plan, notFoundFull: false })),
        { levels: (plan) => ('heading' in doc.verdicts ? plan.verdictLimit : 0), apply: (plan, keep) => ({ ...plan, verdictLimit: keep }) },
        { levels: (plan) => plan.notFoundLimit, apply: (plan, keep) => ({ ...plan, notFoundLimit: keep }) },
    ];
}
/**
 * Downstream tables, in `order`, each first cut to its first rows, then (once all are cut)
 * dropped: 2 × n steps, of which `keep` are not taken. A table whose cut form is no smaller (a
 * few rows over the cut, and the "… and N more" line) stays whole until it is dropped, so each
 * step leaves a document no larger than the one before.
 */
function downstreamTables(doc, order) {
    const n = order.length;
    const cutIsSmaller = (parts) => parts !== undefined && parts.downstreamShort.chars <= parts.downstream.chars && parts.downstreamShort.bytes <= parts.downstream.bytes;
    return {
        levels: () => 2 * n,
        apply(plan, keep) {
            const taken = 2 * n - keep;
            const downstream = [...plan.downstream];
            order.forEach((index, position) => {
                if (taken > n + position)
                    downstream[index] = 'none';
                else if (taken > position && cutIsSmaller(doc.impacts[index]))
                    downstream[index] = 'short';
            });
            return { ...plan, downstream };
        },
    };
}
function fullPlan(doc) {
    return {
        trimmed: false,
        mermaid: true,
        associated: true,
        upstream: true,
        downstream: doc.impacts.map(() => 'full'),
        details: true,
        skipped: true,
        warnings: true,
        notFoundFull: true,
        verdictLimit: doc.impacts.length,
        notFoundLimit: doc.notFoundNames?.items.length ?? 0,
    };
}
/** The sections the plan keeps, each as text and size; joined with "\n\n". */
function sections(doc, plan) {
    const out = [doc.title, doc.overview];
    if (plan.trimmed)
        out.push(doc.notice);
    const verdicts = doc.verdicts;
    out.push('heading' in verdicts ? () => cutList(verdicts, plan.verdictLimit) : verdicts);
    if (plan.details) {
        doc.impacts.forEach((parts, index) => out.push(() => detailsPiece(parts, plan, index)));
    }
    const names = doc.notFoundNames;
    if (plan.notFoundFull && doc.notFoundFull)
        out.push(doc.notFoundFull);
    else if (names)
        out.push(() => cutList(names, plan.notFoundLimit));
    if (plan.skipped && doc.skipped)
        out.push(doc.skipped);
    if (plan.warnings && doc.warnings)
        out.push(doc.warnings);
    out.push(doc.caveat);
    return out;
}
function optionalBlocks(parts, plan, index) {
    const blocks = [];
    if (plan.mermaid)
        blocks.push(parts.mermaid());
    if (plan.upstream)
        blocks.push(parts.upstream);
    if (plan.downstream[index] === 'full')
        blocks.push(parts.downstream);
    else if (plan.downstream[index] === 'short')
        blocks.push(parts.downstreamShort);
    if (plan.associated)
        blocks.push(parts.associated);
    return blocks;
}
/** A lazily assembled details block; its size is known without building the text. */
function detailsPiece(parts, plan, index) {
    const blocks = optionalBlocks(parts, plan, index);
    const size = blocks.reduce((sum, block) => ({ chars: sum.chars + block.chars + 2, bytes: sum.bytes + block.bytes + 2 }), {
        chars: parts.wrapper.chars,
        bytes: parts.wrapper.bytes,
    });
    let text;
    return {
        ...size,
        get text() {
            text ??= (0,format/* details */.zH)(parts.summary, [parts.fixed, ...blocks.map((block) => block.text)].join('\n\n'), parts.open);
            return text;
        },
    };
}
function measure(doc, plan) {
    const all = sections(doc, plan);
    let chars = 2 * (all.length - 1);
    let bytes = chars;
    for (const entry of all) {
        const part = typeof entry === 'function' ? entry() : entry;
        chars += part.chars;
        bytes += part.bytes;
    }
    return { chars, bytes };
}
function assemble(doc, plan) {
    return sections(doc, plan).map((entry) => (typeof entry === 'function' ? entry() : entry).text);
}

;// CONCATENATED MODULE: ./src/steps/impact/mermaid.ts

const DEFAULT_MAX_NODES_PER_DIRECTION = 8;
/** Longest run of one label line, in code points; longer names are clipped with "…". */
const MAX_LABEL_LINE = 60;
/**
 * Mermaid wraps a label wider than this many pixels (its default, 200, splits a pod name such as
 * shop/checkout-7d9f8c6b5-5z5q5 at a hyphen). Set in the diagram's front matter, which GitHub's
 * Mermaid reads; wider would shrink every diagram in a comment column.
 */
const LABEL_WRAP_PX = 320;
/** Characters of `namespace/name` that fit in LABEL_WRAP_PX at Mermaid's 16 px sans-serif. */
const ONE_LINE_NAME = 40;
/** Said above every graph: which side is which, and what a dotted line means. @internal */
const GRAPH_LEGEND = '_Upstream (what it depends on) on the left, the target highlighted, downstream (what depends on it) on the right; a dotted line links an associated object._';
/** The legend, then the graph: the block the report shows for one target and edge. */
function renderGraph(impact, options = {}) {
    return `${GRAPH_LEGEND}\n\n${renderMermaid(impact, options)}`;
}
/** @internal */
function renderMermaid(impact, options = {}) {
    const cap = nodeCap(options.maxNodesPerDirection);
    const nodes = [`  n0["${label([impact.target.kind, ...nameLines(impact.target)])}"]`];
    const links = [];
    const collapsed = [];
    let next = 1;
    const add = (direction, objects) => {
        const shown = objects.slice(0, cap);
        for (const object of shown) {
            const id = `n${next++}`;
            const lines = [object.kind, ...nameLines(object)];
            if (object.edge && object.edge !== impact.edge)
                lines.push(`on ${object.edge}`);
            nodes.push(`  ${id}["${label(lines)}"]`);
            links.push(mermaid_link(direction, id));
        }
        const rest = objects.length - shown.length;
        if (rest > 0) {
            const id = `n${next++}`;
            nodes.push(`  ${id}["+${(0,format/* formatCount */.B4)(rest)} more ${direction}"]`);
            links.push(mermaid_link(direction, id));
            collapsed.push(id);
        }
    };
    add('upstream', impact.upstream);
    add('downstream', impact.downstream);
    add('associated', impact.associated);
    const styles = ['  classDef target fill:#fff3bf,stroke:#e8590c,stroke-width:3px,color:#000', '  class n0 target'];
    if (collapsed.length > 0) {
        styles.push('  classDef collapsed stroke-dasharray:4 3', `  class ${collapsed.join(',')} collapsed`);
    }
    const frontMatter = ['---', 'config:', '  flowchart:', `    wrappingWidth: ${LABEL_WRAP_PX}`, '---'];
    return (0,format/* fenced */.OF)([...frontMatter, 'flowchart LR', ...nodes, ...links, ...styles].join('\n'), 'mermaid');
}
function mermaid_link(direction, id) {
    switch (direction) {
        case 'upstream':
            return `  ${id} --> n0`;
        case 'downstream':
            return `  n0 --> ${id}`;
        case 'associated':
            return `  n0 -.- ${id}`;
    }
}
function nodeCap(value) {
    if (value === undefined || !Number.isFinite(value))
        return DEFAULT_MAX_NODES_PER_DIRECTION;
    return Math.max(0, Math.floor(value));
}
/**
 * `namespace/name` on one line when it fits the wrapping width, else the namespace on a line of
 * its own: a long name then wraps (or is clipped) in its own line and keeps its distinctive end.
 */
function nameLines(object) {
    if (!object.namespace)
        return [object.name];
    const qualified = `${object.namespace}/${object.name}`;
    return Array.from(qualified).length <= ONE_LINE_NAME ? [qualified] : [`${object.namespace}/`, object.name];
}
/** Lines of a quoted node label, each escaped, joined with the one piece of markup we add. */
function label(lines) {
    return lines.map((line) => mermaidText(line)).join('<br/>');
}
/**
 * One label line made inert. Entities: `"` → `#quot;`, and `#`/`&` are encoded so a name
 * cannot spell an entity of its own. Brackets, pipes, angle brackets and backticks (shape
 * syntax, edge text, HTML, markdown strings) become look-alikes; `{`/`}` also rules out a
 * `%%{init}%%` directive. Control characters and line breaks become spaces; `@name` gets a
 * zero-width space.
 * @internal
 */
function mermaidText(text) {
    const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
    return ((0,format/* clip */.$Q)(flat, MAX_LABEL_LINE)
        .replace(/["#&<>[\]{}()|`]/g, (ch) => LOOK_ALIKE[ch] ?? ' ')
        // Not a mention even if the diagram is ever shown as text.
        .replace(/@(?=[A-Za-z0-9])/g, `@${format/* ZERO_WIDTH_SPACE */.pe}`) || ' ');
}
const LOOK_ALIKE = {
    '"': '#quot;',
    '#': '#35;',
    '&': '#38;',
    '<': '‹',
    '>': '›',
    '[': '［',
    ']': '］',
    '{': '｛',
    '}': '｝',
    '(': '（',
    ')': '）',
    '|': '¦',
    '`': 'ˋ',
};

;// CONCATENATED MODULE: ./src/steps/impact/impact-report.ts





const DEFAULT_IMPACT_TITLE = 'Impact of this change';
const REMOVED_NOTE = 'removed in this PR — deleting it affects every downstream object';
const INCOMPLETE_NOTE = 'incomplete — the hub cut the result (row cap or limit), so there may be more';
const MAX_WARNING = 2_000;
const CAVEAT = [
    '> [!NOTE]',
    '> Impact comes only from declared relationships: owner references, spec references, label selectors, namespace membership and declared links.',
    '> Runtime traffic (calls, DNS names, queues, shared databases) is not traced, and the hub stops at 10,000 rows.',
    '> An empty list proves nothing: something can still depend on an object in a way the graph does not record.',
].join('\n');
/** One line for logs: plain text, no markdown, no line breaks or control characters. */
function renderImpactVerdictLine(impact) {
    const parts = [`${logSafe(targetLabel(impact.target))} on ${logSafe(impact.edge)} — ${countsText(impact)}`];
    if (isRemoved(impact.target))
        parts.push(REMOVED_NOTE);
    if (impact.incomplete)
        parts.push(INCOMPLETE_NOTE);
    return parts.join(' · ');
}
/** The report within `options.budget` characters: see fit-report.ts for what gives way first. */
function renderImpactReport(report, options) {
    return fitReport(buildParts(report, options), Math.max(0, Math.floor(options.budget)));
}
function buildParts(report, options) {
    // The first target and edge opens, so a reader sees one graph without a click; the rest stay folded.
    const impacts = report.impacts.map((impact, index) => impactParts(impact, index === 0));
    const verdictItems = report.impacts.map((impact) => piece(`- ${verdictMarkdown(impact)}`));
    const verdicts = verdictItems.length > 0
        ? cuttable('### By target and edge', verdictItems, (rest) => `- … and ${(0,format/* formatCount */.B4)(rest)} more ${plural(rest, 'target')} (trimmed to fit)`)
        : piece(report.targets.length === 0
            ? report.skippedTargets.length > 0
                ? 'No targets in scope: every object declared is outside `allowed-namespaces` or `allowed-kinds`, so nothing was queried.'
                : 'No targets: nothing was named in `targets` and no changed manifest declared an object.'
            : 'None of the targets was found on an edge, so no impact could be read.');
    return {
        title: piece(`## ${(0,format/* inline */.mG)(options.title ?? DEFAULT_IMPACT_TITLE)}`),
        overview: piece(overview(report)),
        notice: piece(options.trimmedNote ?? trimNotice(options.summaryUrl)),
        verdicts,
        impacts,
        notFoundFull: report.notFound.length > 0 ? piece(notFoundSection(report)) : undefined,
        notFoundNames: report.notFound.length > 0
            ? cuttable(`### Not synchronized (${(0,format/* formatCount */.B4)(report.notFound.length)})`, report.notFound.map((target) => piece(`- ${targetName(target)}`)), (rest) => `- … and ${(0,format/* formatCount */.B4)(rest)} more (trimmed to fit)`)
            : undefined,
        skipped: report.skippedFiles.length > 0 || report.skippedTargets.length > 0 ? piece(skippedSection(report)) : undefined,
        warnings: report.warnings.length > 0 ? piece(warningsSection(report.warnings)) : undefined,
        caveat: piece(CAVEAT),
    };
}
function overview(report) {
    const totals = report.totals;
    const incomplete = report.impacts.filter((impact) => impact.incomplete).length;
    // A cut result holds only part of the related objects: its counts are a lower bound.
    const atLeast = incomplete > 0 ? '≥ ' : '';
    const lines = [
        `**${(0,format/* formatCount */.B4)(report.targets.length)} ${plural(report.targets.length, 'target')} · ${atLeast}${(0,format/* formatCount */.B4)(totals.upstream)} upstream · ${atLeast}${(0,format/* formatCount */.B4)(totals.downstream)} downstream · ${atLeast}${(0,format/* formatCount */.B4)(totals.associated)} associated**`,
    ];
    const counts = [];
    if (report.notFound.length > 0)
        counts.push(`Not found on any edge: ${(0,format/* formatCount */.B4)(report.notFound.length)}`);
    if (report.skippedFiles.length > 0)
        counts.push(`Skipped files: ${(0,format/* formatCount */.B4)(report.skippedFiles.length)}`);
    if (report.skippedTargets.length > 0)
        counts.push(`Outside the allowed scope: ${(0,format/* formatCount */.B4)(report.skippedTargets.length)}`);
    if (incomplete > 0)
        counts.push(`Incomplete results: ${(0,format/* formatCount */.B4)(incomplete)}`);
    if (counts.length > 0)
        lines.push(counts.join(' · '));
    const source = report.source === 'mcp' ? 'the MCP impact tool' : 'the query API';
    const commit = report.commit ? ` for commit ${(0,format/* inline */.mG)(report.commit.slice(0, 40))}` : '';
    lines.push(`Relationships up to depth ${(0,format/* formatCount */.B4)(report.maxDepth)}, read through ${source}${commit}.`);
    return lines.join('\n\n');
}
function trimNotice(summaryUrl) {
    const href = safeHref(summaryUrl);
    return href ? `Trimmed to fit: [see the full report in the job summary](<${href}>).` : 'Trimmed to fit: see the full report in the job summary.';
}
function verdictMarkdown(impact) {
    let line = `**${(0,format/* inline */.mG)(targetLabel(impact.target))}** on ${(0,format/* inline */.mG)(impact.edge)} — ${countsText(impact)}`;
    if (isRemoved(impact.target))
        line += ` · ⚠️ **removed in this PR** — deleting it affects every downstream object`;
    else if (impact.target.origin.kind === 'rendered' && impact.target.origin.change !== 'rendered')
        line += ` · **${impact.target.origin.change}** in the rendered set`;
    if (impact.target.origin.kind === 'rendered' && impact.target.origin.source)
        line += ` · from ${(0,format/* inline */.mG)(impact.target.origin.source)}`;
    if (impact.incomplete)
        line += ` · ⚠️ **incomplete** — the hub cut the result (row cap or limit), so there may be more`;
    return line;
}
function impactParts(impact, open) {
    const summary = renderImpactVerdictLine(impact);
    // The summary line already names the target, the edge and the counts: the body adds only where the target came from.
    const fixed = `${capitalize(originText(impact.target))}.${impact.incomplete ? ' The hub cut this result (row cap or limit): the lists below are incomplete.' : ''}`;
    return {
        summary,
        fixed,
        open,
        wrapper: piece((0,format/* details */.zH)(summary, fixed, open)),
        mermaid: once(() => piece(renderGraph(impact))),
        upstream: piece(directionBlock('upstream', impact)),
        downstream: piece(directionBlock('downstream', impact)),
        downstreamShort: piece(directionBlock('downstream', impact, SHORT_TABLE_ROWS)),
        associated: piece(directionBlock('associated', impact)),
    };
}
const DIRECTION_TITLE = {
    upstream: 'Upstream — what it depends on',
    downstream: 'Downstream — what depends on it',
    associated: 'Associated — declared links',
};
/** Rows a cut downstream table keeps: enough to show reviewers what kind of objects are hit. */
const SHORT_TABLE_ROWS = 25;
function directionBlock(direction, impact, limit) {
    const objects = impact[direction];
    if (objects.length === 0)
        return `**${DIRECTION_TITLE[direction]}:** none found.`;
    const heading = `**${DIRECTION_TITLE[direction]} (${(0,format/* formatCount */.B4)(objects.length)})**`;
    if (limit === undefined || objects.length <= limit)
        return `${heading}\n\n${relatedTable(objects, impact.edge)}`;
    const rest = objects.length - limit;
    return `${heading}\n\n${relatedTable(objects.slice(0, limit), impact.edge)}\n\n… and ${(0,format/* formatCount */.B4)(rest)} more ${direction} ${rest === 1 ? 'object' : 'objects'}: the job summary and the result file list them all.`;
}
/**
 * One table per target and edge: no Edge column, which would repeat that edge on every row.
 * An object on another edge (an associated object can be) says so after its name.
 */
function relatedTable(objects, edge) {
    const columns = [
        { header: 'Kind', cell: (object) => repeated(object.group ? `${object.kind}.${object.group}` : object.kind) },
        { header: 'Namespace/Name', cell: (object) => objectName(object, edge) },
        { header: 'Relation(s)', cell: (object) => repeated(object.relations.join(', ')) },
    ];
    return (0,format/* table */.tp)(columns, objects);
}
function objectName(object, edge) {
    const name = (0,format/* inline */.mG)(object.namespace ? `${object.namespace}/${object.name}` : object.name);
    return object.edge && object.edge !== edge ? `${name} (on edge ${(0,format/* inline */.mG)(object.edge)})` : name;
}
/** `inline` for the few values that repeat across thousands of rows (kinds, edges, relations). */
const repeatedCache = new Map();
function repeated(text) {
    let escaped = repeatedCache.get(text);
    if (escaped === undefined) {
        escaped = (0,format/* inline */.mG)(text);
        if (repeatedCache.size >= 1_000)
            repeatedCache.clear();
        repeatedCache.set(text, escaped);
    }
    return escaped;
}
function notFoundSection(report) {
    const edges = report.edges.length > 0
        ? `Engaged edges in this workspace: ${report.edges.map((edge) => (0,format/* inline */.mG)(edge)).join(', ')}.`
        : 'No engaged edges were read for this workspace (an empty edge list also explains empty results).';
    const items = report.notFound.map((target) => `- ${targetName(target)} — ${originText(target)}`);
    return [
        `### Not synchronized (${(0,format/* formatCount */.B4)(report.notFound.length)})`,
        'These targets were found on no edge. Either the object is new (it appears once it is applied and synchronized), the edge named is stale or wrong, or the hub cannot see it with these credentials — including when the org or workspace input is not a membership of the token owner, which the hub answers with empty results rather than an error. Their impact is unknown, not empty.',
        edges,
        items.join('\n'),
    ].join('\n\n');
}
/** Files not read, and targets outside the scope the workflow allows (never queried). */
function skippedSection(report) {
    const sections = [];
    if (report.skippedFiles.length > 0) {
        const items = report.skippedFiles.map((file) => `- ${(0,format/* inline */.mG)(file.path)} — ${(0,format/* inline */.mG)(file.reason)}`);
        sections.push(`### Skipped files (${(0,format/* formatCount */.B4)(report.skippedFiles.length)})\n\n${items.join('\n')}`);
    }
    if (report.skippedTargets.length > 0) {
        const items = report.skippedTargets.map(({ target, reason }) => `- ${targetName(target)} — ${originText(target)}; ${(0,format/* inline */.mG)(reason)}`);
        sections.push(`### Outside the allowed scope (${(0,format/* formatCount */.B4)(report.skippedTargets.length)})\n\n${items.join('\n')}`);
    }
    return sections.join('\n\n');
}
function warningsSection(warnings) {
    const items = warnings.map((warning) => `- ${(0,format/* inline */.mG)((0,format/* clip */.$Q)(warning, MAX_WARNING, ' …'))}`);
    return `### Warnings\n\n${items.join('\n')}`;
}
function targetName(target) {
    return `${(0,format/* inline */.mG)(targetLabel(target))}${target.edge ? ` (edge ${(0,format/* inline */.mG)(target.edge)})` : ''}`;
}
function originText(target) {
    const origin = target.origin;
    if (origin.kind === 'input')
        return 'named in the targets input';
    if (origin.kind === 'rendered') {
        const from = origin.source ? `rendered from ${(0,format/* inline */.mG)(origin.source)}` : 'rendered';
        return `${from}, in ${(0,format/* inline */.mG)(origin.path)} (${origin.change === 'rendered' ? 'head set' : origin.change})`;
    }
    const change = origin.change === 'workspace' ? 'in the workspace' : origin.change;
    return `from ${(0,format/* inline */.mG)(origin.path)} (${change})`;
}
function countsText(impact) {
    return `${(0,format/* formatCount */.B4)(impact.upstream.length)} upstream, ${(0,format/* formatCount */.B4)(impact.downstream.length)} downstream, ${(0,format/* formatCount */.B4)(impact.associated.length)} associated`;
}
function isRemoved(target) {
    return isRemovedTarget(target);
}
// ---------------------------------------------------------------------------------------
// Small helpers
/** One log-safe line: no control characters, no line breaks, no workflow command ("::"). */
function logSafe(text) {
    return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/::/g, `:${format/* ZERO_WIDTH_SPACE */.pe}:`);
}
function safeHref(url) {
    if (!url)
        return undefined;
    try {
        const parsed = new URL(url);
        if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
            return undefined;
        return parsed.href.replace(/</g, '%3C').replace(/>/g, '%3E').replace(/\s/g, '%20');
    }
    catch {
        return undefined;
    }
}
function once(make) {
    let value;
    let made = false;
    return () => {
        if (!made) {
            value = make();
            made = true;
        }
        return value;
    };
}
function capitalize(text) {
    return text.charAt(0).toUpperCase() + text.slice(1);
}
function plural(count, word) {
    return count === 1 ? word : `${word}s`;
}

// EXTERNAL MODULE: ./src/runner/core.ts
var core = __webpack_require__(1019);
;// CONCATENATED MODULE: ./src/steps/impact/publish.ts





function publishImpact(published, runner) {
    const { report } = published;
    for (const impact of report.impacts)
        core/* info */.pq(renderImpactVerdictLine(impact));
    for (const target of report.notFound)
        core/* info */.pq(`${targetLabel(target)}: not found on any edge (new object, stale edge, or no visibility).`);
    for (const skipped of report.skippedFiles)
        core/* info */.pq(`Skipped ${skipped.path}: ${skipped.reason}`);
    for (const { target, reason } of report.skippedTargets)
        core/* info */.pq(`Skipped ${targetLabel(target)}: ${reason}.`);
    for (const warning of report.warnings)
        core/* warning */.$e(warning);
    const path = (0,outputs/* writeJsonFile */.An)((0,outputs/* resultDirectory */.Hc)(runner.tempDir), 'impact-report.json', {
        ...outputs/* RESULT_FILES */.Se.impact,
        ...report,
    });
    const wholeIn = `the result file ${path} (output \`result-file\`)`;
    for (const [name, value] of Object.entries((0,outputs/* impactOutputs */.n_)(report, published.commentMarkdown, published.commentUrl, path)))
        core/* setOutput */.uH(name, value, { wholeIn });
    (0,publish/* writeSummary */.Sy)(published.summaryMarkdown);
}

// EXTERNAL MODULE: ./src/runner/context.ts
var context = __webpack_require__(1953);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
;// CONCATENATED MODULE: ./src/steps/impact/pull-request-session.ts





async function openPullRequest(impact, runner) {
    if (!(0,context/* isPullRequestEvent */.T5)(runner.eventName))
        return undefined;
    if (impact.comment === 'off' && impact.manifests.length === 0)
        return undefined;
    const github = await Promise.all(/* import() */[__webpack_require__.e(239), __webpack_require__.e(476)]).then(__webpack_require__.bind(__webpack_require__, 6476));
    const pr = github.readPullRequestEvent(runner.eventPath, runner.repository);
    if (!pr) {
        core/* warning */.$e(`The ${runner.eventName} event carries no pull request: no changed files are read and no comment is written.`);
        return undefined;
    }
    const octokit = github.createGitHubClient({
        token: impact.githubToken,
        apiUrl: runner.apiUrl,
        userAgent: `hub-action/${version/* VERSION */.x}`,
        log: core/* info */.pq,
    });
    return {
        number: pr.number,
        headSha: pr.headSha,
        files: impact.manifests.length > 0 || (impact.renderedHead?.length ?? 0) > 0
            ? {
                changedFiles: async () => {
                    const files = await github.listChangedFiles(octokit, pr);
                    if (files.length >= github.MAX_LISTED_PR_FILES) {
                        core/* warning */.$e(`GitHub lists at most ${github.MAX_LISTED_PR_FILES} changed files of a pull request, and #${pr.number} reached that: manifests beyond it were not read. Name them in \`targets\`, or split the pull request.`);
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
                    body: (0,redact/* redact */.E$)(markdown),
                    runId: runner.runId,
                    runAttempt: runner.runAttempt,
                    sha: pr.headSha,
                    mode: impact.comment === 'new' ? 'new' : 'update',
                });
                switch (result.action) {
                    case 'forbidden':
                        core/* warning */.$e(`Could not comment on pull request #${pr.number} (403): the token may not write to it — a pull request from a fork, or a workflow without \`permissions: pull-requests: write\`. The report is in the job summary.`);
                        return undefined;
                    case 'skipped-newer':
                        core/* notice */.lm(`Left the comment on #${pr.number} alone: it holds the report of a newer run.`);
                        return result.url;
                    default:
                        core/* info */.pq(`Comment on #${pr.number} ${result.action}: ${result.url ?? ''}`);
                        return result.url;
                }
            }
            catch (error) {
                if (!(error instanceof github.GitHubError))
                    throw error;
                core/* warning */.$e(`Could not comment on pull request #${pr.number}: ${(0,src_errors/* renderError */.v)(error)} The report is in the job summary.`);
                return undefined;
            }
        },
    };
}

;// CONCATENATED MODULE: ./src/steps/impact/index.ts
/**
 * The impact step, loaded on demand by main.ts (a `run` step never loads yaml or the graph
 * code): targets → impact → comment, summary, annotations → the verdict on the blast radius.
 */









/** The comment leaves room for the hidden marker line under GitHub's 65,536 characters. */
const COMMENT_BUDGET = 65_000;
/** Characters of the job summary's report; its bytes are held to SUMMARY_BYTE_BUDGET by the renderer. */
const SUMMARY_CHARACTER_BUDGET = 1_000_000;
const SUMMARY_TRIMMED = 'Trimmed to stay under the job summary limit of 1 MiB: the result file (output `result-file`) holds the whole report.';
async function impactStep(settings, transport, signal) {
    const { impact, runner } = settings;
    const pullRequest = await openPullRequest(impact, runner);
    // Off a runner (npm run local), the manifests are read from where the action was started.
    const workspace = runner.workspace ?? process.cwd();
    // Every target is collected, and the caps checked, before the first hub request.
    const collected = await collectTargets({
        given: impact.targets,
        globs: impact.manifests,
        renderedHead: impact.renderedHead,
        renderedBase: impact.renderedBase,
        defaultNamespace: impact.defaultNamespace,
        workspace,
        pullRequest: pullRequest?.files,
        signal,
        log: core/* info */.pq,
        maxTargets: impact.maxTargets,
        maxDocuments: impact.maxDocuments,
    });
    const tool = impact.source === 'mcp' && impact.mcpUrl ? await openImpactTool(transport, impact.mcpUrl) : undefined;
    try {
        return await reportImpact(settings, { graph: new hub_graph/* GraphClient */.oh(transport), tool, pullRequest, collected, workspace }, signal);
    }
    finally {
        // A failure to close changes nothing the step reported.
        await tool?.close().catch(() => undefined);
    }
}
async function reportImpact(settings, { graph, tool, pullRequest, collected, workspace }, signal) {
    const { impact, runner } = settings;
    core/* info */.pq(`Impact of ${collected.targets.length} target(s)${collected.files.length ? ` from ${collected.files.length} manifest file(s)` : ''}, via ${impact.source}.`);
    const report = await computeImpact(impact, { targets: collected.targets, skippedFiles: collected.skippedFiles, commit: pullRequest?.headSha ?? runner.sha }, { graph, tool, log: core/* info */.pq, signal });
    report.warnings.unshift(...collected.warnings);
    const summaryUrl = runner.repository && runner.runId ? `${runner.serverUrl}/${runner.repository}/actions/runs/${runner.runId}` : undefined;
    const commentMarkdown = renderImpactReport(report, { budget: COMMENT_BUDGET, ...(summaryUrl ? { summaryUrl } : {}) });
    const commentUrl = pullRequest && impact.comment !== 'off' ? await pullRequest.comment(commentMarkdown) : undefined;
    publishImpact({ report, commentMarkdown, commentUrl, summaryMarkdown: renderImpactReport(report, { budget: SUMMARY_CHARACTER_BUDGET, trimmedNote: SUMMARY_TRIMMED }) }, runner);
    await annotateDeclarations(report, workspace, collected.changedPaths);
    // Only now, with the summary and comment out, may the step fail on the blast radius.
    return impactVerdict(report, impact.failOnDownstream);
}
/** The blast radius on each declaring line, within GitHub's notice limit per step. */
async function annotateDeclarations(report, workspace, changedPaths) {
    const root = await workspaceRoot(workspace).catch(() => undefined);
    const { shown, summary } = capAnnotations(await impactAnnotations(report, { root, changedPaths }));
    for (const annotation of shown)
        core/* notice */.lm(annotation.message, { file: annotation.file, startLine: annotation.line, title: annotation.title });
    if (summary)
        core/* notice */.lm(summary, { title: 'hub-action impact' });
}
async function openImpactTool(transport, url) {
    const { McpGraphClient } = await __webpack_require__.e(/* import() */ 851).then(__webpack_require__.bind(__webpack_require__, 3851));
    // On the hub's transport: its token renewal, retries, caps and redaction reach MCP calls too.
    return new McpGraphClient({ url, transport, log: core/* info */.pq });
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

/***/ 6209:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   H8: () => (/* binding */ refOf),
/* harmony export */   TY: () => (/* binding */ DEFAULT_ROOT_LIMIT),
/* harmony export */   _H: () => (/* binding */ impactsFromStatus),
/* harmony export */   tx: () => (/* binding */ buildImpactQuery)
/* harmony export */ });
/* harmony import */ var _hub_graph_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(4835);
/* harmony import */ var _classify_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(9286);
/* harmony import */ var _model_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(2547);
/**
 * Impact over the query API, the way the hub's own graph_impact tool computes it
 * (hub-behaviour.md §3, "Impact over the query API"): one query per target with the tool's
 * relation set, each related object projected to kind, apiVersion, name and namespace.
 * Unlike the tool, every matching object is an anchor, so a target without an edge is
 * reported on each edge where it exists.
 */



const IMPACT_RELATIONS = ['descendants+', 'references', 'selects', 'selected-by', 'owners', 'linked+', 'grouped', 'namespace', 'namespaced'];
/** The hub's default `limit` (roots per page); the impact query sets none. */
const DEFAULT_ROOT_LIMIT = 100;
const RELATED_PROJECTION = { id: true, cluster: true, object: { kind: true, apiVersion: true, metadata: { name: true, namespace: true } } };
function buildImpactQuery(target, maxDepth) {
    const filter = { groupKind: { apiGroup: target.group, kind: target.kind }, name: target.name };
    if (target.namespace)
        filter.namespace = target.namespace;
    const relations = {};
    for (const relation of IMPACT_RELATIONS) {
        relations[relation] = relation === 'namespaced' ? { limit: 200, objects: RELATED_PROJECTION } : { objects: RELATED_PROJECTION };
    }
    const spec = {
        filter: { objects: [filter] },
        maxDepth,
        objects: { id: true, cluster: true, object: { kind: true, apiVersion: true, metadata: { name: true, namespace: true } }, relations },
    };
    if (target.edge)
        spec.cluster = { name: target.edge };
    return spec;
}
/** One TargetImpact per matching object (one per edge, or per namespace when none was named). */
function impactsFromStatus(status, target) {
    return (status.objects ?? []).map((anchor) => {
        const self = refOf(anchor, '');
        const refs = [];
        for (const [relation, related] of Object.entries(anchor.relations ?? {})) {
            for (const object of related)
                refs.push(refOf(object, relation));
        }
        const classified = (0,_classify_js__WEBPACK_IMPORTED_MODULE_1__/* .classifyRelated */ .IA)(refs, (0,_model_js__WEBPACK_IMPORTED_MODULE_2__/* .objectKey */ .T)(self));
        return {
            target: { ...target, namespace: target.namespace ?? self.namespace },
            edge: self.edge ?? target.edge ?? '',
            ...classified,
            // `incomplete` alone also marks a full page of roots; the row cap adds a warning (§3).
            incomplete: (0,_hub_graph_js__WEBPACK_IMPORTED_MODULE_0__/* .isTruncated */ .pQ)(status) || (status.incomplete === true && (status.objects?.length ?? 0) >= DEFAULT_ROOT_LIMIT),
        };
    });
}
function refOf(result, relation) {
    const object = (result.object ?? {});
    const apiVersion = typeof object.apiVersion === 'string' ? object.apiVersion : '';
    const namespace = object.metadata?.namespace;
    const edge = (0,_hub_graph_js__WEBPACK_IMPORTED_MODULE_0__/* .edgeOf */ .BQ)(result.cluster);
    return {
        ...(edge === undefined ? {} : { edge }),
        group: apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '',
        kind: typeof object.kind === 'string' ? object.kind : '',
        ...(typeof namespace === 'string' && namespace ? { namespace } : {}),
        name: typeof object.metadata?.name === 'string' ? object.metadata.name : '',
        relation,
    };
}


/***/ })

};
