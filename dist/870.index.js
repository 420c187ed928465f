export const id = 870;
export const ids = [870];
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

/***/ 7870:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  dryRunStep: () => (/* binding */ dryRunStep)
});

// EXTERNAL MODULE: ./src/hub/transport.ts + 2 modules
var hub_transport = __webpack_require__(6156);
// EXTERNAL MODULE: ./src/steps/query/run-query.ts
var run_query = __webpack_require__(1248);
// EXTERNAL MODULE: ./src/hub/agents.ts
var hub_agents = __webpack_require__(5901);
// EXTERNAL MODULE: ./src/steps/run/pacing.ts
var pacing = __webpack_require__(2013);
// EXTERNAL MODULE: ./src/hub/graph.ts
var hub_graph = __webpack_require__(4835);
// EXTERNAL MODULE: ./src/hub/request.ts
var hub_request = __webpack_require__(7270);
// EXTERNAL MODULE: ./src/steps/impact/query-impact.ts
var query_impact = __webpack_require__(6209);
// EXTERNAL MODULE: ./src/steps/rollout/observe.ts + 3 modules
var observe = __webpack_require__(3770);
// EXTERNAL MODULE: ./src/runner/context.ts
var context = __webpack_require__(1953);
// EXTERNAL MODULE: ./src/runner/outputs.ts
var outputs = __webpack_require__(7424);
// EXTERNAL MODULE: ./src/runner/publish.ts
var publish = __webpack_require__(5493);
// EXTERNAL MODULE: ./src/markdown/format.ts
var format = __webpack_require__(4370);
;// CONCATENATED MODULE: ./src/steps/dry-run/summary.ts
/**
 * Planned requests → markdown for a dry run's job summary. Pure. A request body carries the
 * inputs (a task, a list of targets) and may be any size: each is clipped, requests beyond the
 * budget are counted, not shown, and the note points at the result file, which holds them all.
 */

const MAX_REQUEST = 64 * 1024;
const MAX_LINE = 2_000;
const NOTE = "> [!NOTE]\n> Cut to keep the job summary under GitHub's 1 MiB limit: the result file (output `result-file`) holds every request in full.";
function renderDryRun(command, requests, budget = format/* SUMMARY_BYTE_BUDGET */.Gh) {
    const sections = [`## Dry run: \`${command}\` — ${requests.length} request(s), none sent`];
    let used = (0,format/* byteLength */.dp)(sections[0] ?? '') + (0,format/* byteLength */.dp)(NOTE) + 256;
    let cut = false;
    let shown = 0;
    for (const request of requests) {
        const json = (0,format/* clipBytes */.Wp)(JSON.stringify({ headers: request.headers, body: request.body }, null, 2), MAX_REQUEST, '\n…(clipped)');
        const block = `**${(0,format/* inline */.mG)(request.method)}** ${(0,format/* code */.aY)((0,format/* clipCharacters */.Pu)(request.url, MAX_LINE, '…').text)} — ${(0,format/* inline */.mG)((0,format/* clipCharacters */.Pu)(request.note, MAX_LINE, '…').text)}\n\n${(0,format/* fenced */.OF)(json.text, 'json')}`;
        if (used + (0,format/* byteLength */.dp)(block) + 2 > budget)
            break;
        sections.push(block);
        used += (0,format/* byteLength */.dp)(block) + 2;
        cut ||= json.clipped;
        shown++;
    }
    if (shown < requests.length) {
        sections.push(`… and ${(0,format/* formatCount */.B4)(requests.length - shown)} more request(s).`);
        cut = true;
    }
    if (cut)
        sections.splice(1, 0, NOTE);
    return `${sections.join('\n\n')}\n`;
}

// EXTERNAL MODULE: ./src/runner/core.ts
var core = __webpack_require__(1019);
;// CONCATENATED MODULE: ./src/steps/dry-run/dry-run.ts
/**
 * `dry-run: true`: everything up to the first request — inputs checked, idempotency key and
 * session id derived — then the requests the action would send, printed with the token
 * redacted, and nothing sent. The requests come from the same builders the real clients use.
 */












function plannedRequests(settings, transport) {
    const describe = (request) => describeRequest(transport.identity, request);
    switch (settings.command) {
        case 'run': {
            const agents = new hub_agents/* AgentsClient */.Iv(transport, settings.hub.clusterId);
            const start = { agent: settings.run.agent, task: settings.run.task, sessionId: settings.run.sessionId, idempotencyKey: settings.run.idempotencyKey };
            const planned = [];
            if (agents.canReadAgents) {
                planned.push({ ...describe(agents.whoamiCall()), note: 'preflight: an empty workspaceUUID stops the step before any run is created' });
            }
            planned.push({ ...describe(agents.startRunCall(start)), note: 'start the run (answers at once with its id)' });
            if (settings.run.timeoutSeconds > 0) {
                planned.push({
                    // The loop's first hold: a run just created is Pending, so the Pending ceiling cuts it too.
                    ...describe(agents.waitRunCall('RUN_ID', (0,pacing/* firstHoldSeconds */.F_)(settings.run))),
                    note: `long-poll, repeated until the run settles or ${settings.run.timeoutSeconds} s pass`,
                });
            }
            return planned;
        }
        case 'wait':
        case 'approve': {
            const agents = new hub_agents/* AgentsClient */.Iv(transport, settings.hub.clusterId);
            const { runId, timeoutSeconds, liveSteps } = settings.wait;
            const planned = [{ ...describe(agents.getRunCall(runId)), note: 'read the run' }];
            if (settings.command === 'approve') {
                const { decision, response } = settings.approve;
                planned.push({
                    ...describe(agents.resolveApprovalCall('INBOX_ID', decision, response)),
                    note: "resolve the pending approval (INBOX_ID is the run's pending.inboxID), only when the run is at the gate and the call is the expected one",
                });
            }
            if (timeoutSeconds > 0) {
                planned.push({
                    // The loop's first hold on a run past Pending (its phase is known only once it is read).
                    ...describe(agents.waitRunCall(runId, (0,pacing/* firstHoldSeconds */.F_)({ liveSteps, timeoutSeconds }))),
                    note: `long-poll, repeated until the run settles or ${timeoutSeconds} s pass`,
                });
            }
            return planned;
        }
        case 'cancel': {
            const agents = new hub_agents/* AgentsClient */.Iv(transport, settings.hub.clusterId);
            return [{ ...describe(agents.cancelCall(settings.cancel.runId)), note: 'cancel the run' }];
        }
        case 'impact': {
            const graph = new hub_graph/* GraphClient */.oh(transport);
            const planned = settings.impact.targets.map((target) => ({
                ...describe(graph.queryCall((0,query_impact/* buildImpactQuery */.tx)(target, settings.impact.maxDepth))),
                note: `impact of ${target.kind} ${target.namespace ? `${target.namespace}/` : ''}${target.name}${settings.impact.source === 'mcp' ? ' (sent as graph__graph_impact calls to mcp-url, one per edge)' : ''}`,
            }));
            if (settings.impact.manifests.length > 0) {
                const onPullRequest = (0,context/* isPullRequestEvent */.T5)(settings.runner.eventName);
                planned.push({
                    method: onPullRequest ? 'GET' : '(none)',
                    url: onPullRequest ? '(GitHub API) /repos/{owner}/{repo}/pulls/{number}/files' : '(workspace files)',
                    headers: {},
                    note: `${onPullRequest ? "list the pull request's changed files and read" : 'read the workspace files'} matching ${settings.impact.manifests.join(', ')}; each object found adds an impact query like the ones above`,
                });
            }
            return planned;
        }
        case 'query': {
            const graph = new hub_graph/* GraphClient */.oh(transport);
            const first = { ...(0,hub_graph/* pagedSpec */.lm)(settings.query.spec), limit: (0,run_query/* pageSizeOf */.I)(settings.query) };
            return [{ ...describe(graph.queryCall(first)), note: 'first page; later pages add page.cursor from the previous answer' }];
        }
        case 'rollout': {
            const graph = new hub_graph/* GraphClient */.oh(transport);
            const queries = (0,observe/* rolloutQueries */.Wt)(settings.rollout.targets.map((target) => ({ target })));
            const also = settings.rollout.manifests.length + settings.rollout.renderedHead.length > 0 ? ' (plus the objects of the manifests, read at run time)' : '';
            return queries.map((spec) => ({
                ...describe(graph.queryCall((0,hub_graph/* pagedSpec */.lm)(spec))),
                note: `read the targets on every edge${also}, after GET /api/edges; repeated with backoff until rolled out or ${settings.rollout.timeoutSeconds} s pass`,
            }));
        }
    }
}
/** The request exactly as the transport would send it, with the token shown as ***. */
function describeRequest(identity, request) {
    const url = (0,hub_request/* requestUrl */.F)(identity, request);
    const { headers } = (0,hub_request/* prepareRequest */.n)(identity, request);
    return {
        method: request.method,
        url: url.href,
        headers: { ...headers, authorization: 'Bearer ***' },
        ...(request.body !== undefined ? { body: request.body } : {}),
    };
}
/** A dry run's requests: in the log, in a result file, and in the summary. */
function publishDryRun(settings, requests) {
    core/* info */.pq(`Dry run: ${requests.length} request(s) would be sent; nothing was sent.`);
    if (settings.command === 'run') {
        core/* info */.pq(`Idempotency key: ${settings.run.idempotencyKey ?? '(none)'}`);
        core/* info */.pq(`Session id: ${settings.run.sessionId}`);
    }
    core/* startGroup */.Oh('Requests');
    for (const request of requests)
        (0,publish/* logUntrusted */.ts)(`${request.method} ${request.url} — ${request.note}`, JSON.stringify({ headers: request.headers, body: request.body }, null, 2));
    core/* endGroup */.N4();
    const path = (0,outputs/* writeJsonFile */.An)((0,outputs/* resultDirectory */.Hc)(settings.runner.tempDir), 'dry-run.json', {
        ...outputs/* RESULT_FILES */.Se.dryRun,
        command: settings.command,
        ...(settings.command === 'run' ? { idempotencyKey: settings.run.idempotencyKey ?? null, sessionId: settings.run.sessionId } : {}),
        requests,
    });
    core/* setOutput */.uH('result-file', path);
    if (settings.command === 'impact' && settings.impact.manifests.length === 0)
        core/* setOutput */.uH('targets-count', String(settings.impact.targets.length));
    (0,publish/* writeSummary */.Sy)(renderDryRun(settings.command, requests));
}

;// CONCATENATED MODULE: ./src/steps/dry-run/index.ts
/** The dry-run step, loaded on demand by main.ts. */


/** `dry-run: true`: the requests, printed; nothing sent. */
async function dryRunStep(settings) {
    const transport = new hub_transport/* HubTransport */.Z({
        baseUrl: settings.hub.url,
        token: settings.hub.token || 'oidc-token',
        org: settings.hub.org,
        workspace: settings.hub.workspace,
        clusterId: settings.hub.clusterId,
    });
    try {
        publishDryRun(settings, plannedRequests(settings, transport));
    }
    finally {
        await transport.close();
    }
    return undefined;
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


/***/ })

};
