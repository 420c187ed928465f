export const id = 193;
export const ids = [193];
export const modules = {

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

/***/ 1193:
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

// EXTERNAL MODULE: ./src/steps/impact/bounds.ts
var bounds = __webpack_require__(249);
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
    const limit = (0,bounds/* requestLimiter */.oG)();
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
    if (report.nothing) {
        const { searched, quiet } = report.nothing;
        // A gate that checked nothing must not pass: a mistyped glob would otherwise gate every change green.
        if (failOnDownstream !== undefined && !quiet)
            return {
                status: 'fail',
                message: `Impact: nothing was checked: ${searched}. fail-on-downstream (${failOnDownstream}) cannot pass on no target: fix the globs (relative to the workspace), or write the files in an earlier step.`,
            };
        return { status: 'pass', message: `Impact: nothing was checked: ${searched}.` };
    }
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
// EXTERNAL MODULE: ./src/model/target.ts
var model_target = __webpack_require__(5936);
// EXTERNAL MODULE: ./src/steps/impact/read-workspace-file.ts
var read_workspace_file = __webpack_require__(8023);
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
        annotations.push({ ...place, title: `hub-action impact: ${(0,model_target/* targetLabel */.Op)(target)}`, message: messageFor(target, impacts), downstream });
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
/** The title names the object; the message says how it changed and its counts, upstream first as everywhere else. */
function messageFor(target, impacts) {
    const change = changeText(target);
    const changed = `${change.charAt(0).toUpperCase()}${change.slice(1)}`;
    if (impacts.length === 0)
        return `${changed}: not found on any edge, so its impact is unknown (a new object, a stale edge, or no visibility).`;
    const perEdge = impacts.map((impact) => `${impact.upstream.length} upstream, ${impact.downstream.length} downstream on ${impact.edge}${impact.incomplete ? ' (incomplete)' : ''}`);
    const removed = (0,model_target/* isRemovedTarget */.A)(target) ? ' Removing it affects every downstream object.' : '';
    return `${changed}: ${perEdge.join('; ')}.${removed} See the job summary for the objects.`;
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
        const read = await (0,read_workspace_file/* readWorkspaceFile */.sL)(root, candidate, MAX_DECLARING_FILE_BYTES);
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

// EXTERNAL MODULE: ./src/steps/impact/targets.ts
var targets = __webpack_require__(264);
// EXTERNAL MODULE: ./src/runner/outputs.ts
var outputs = __webpack_require__(7424);
// EXTERNAL MODULE: ./src/runner/publish.ts
var publish = __webpack_require__(5493);
// EXTERNAL MODULE: external "node:buffer"
var external_node_buffer_ = __webpack_require__(4573);
// EXTERNAL MODULE: ./src/markdown/format.ts
var format = __webpack_require__(4370);
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
    const longestFirst = doc.impacts
        .map((_, index) => index)
        .sort((a, b) => (doc.impacts[b]?.shown.downstream.chars ?? 0) - (doc.impacts[a]?.shown.downstream.chars ?? 0));
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
    const cutIsSmaller = (parts) => parts !== undefined &&
        parts.shown.downstreamShort.chars <= parts.shown.downstream.chars &&
        parts.shown.downstreamShort.bytes <= parts.shown.downstream.bytes;
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
    const tables = plan.mermaid ? parts.folded() : parts.shown;
    if (plan.upstream)
        blocks.push(tables.upstream);
    if (plan.downstream[index] === 'full')
        blocks.push(tables.downstream);
    else if (plan.downstream[index] === 'short')
        blocks.push(tables.downstreamShort);
    if (plan.associated)
        blocks.push(tables.associated);
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
/**
 * Gap between the objects stacked on one side, and the space around a label in its box (Mermaid's
 * defaults are 50 and 15): six objects a side then take half the height, so a graph and what
 * follows it fit a screen.
 */
const NODE_SPACING_PX = 12;
const LABEL_PADDING_PX = 10;
/** Characters of `namespace/name` that fit in LABEL_WRAP_PX at Mermaid's 16 px sans-serif. */
const ONE_LINE_NAME = 40;
/** Said above every graph: which side is which, and what a dotted line means (one line in a comment). @internal */
const GRAPH_LEGEND = '_Left: what it depends on (upstream). Right: what depends on it (downstream). Dotted line: an associated object._';
/**
 * Said after the legend when the graph draws a dotted arrow. The hub answers `descendants+` as a
 * flat list (hub-behaviour.md §3, §4: no owner, no path), so a Deployment's Pods come beside its
 * ReplicaSet: the arrow must not claim the target owns them directly. @internal
 */
const OWNED_LEGEND = '_Dotted arrow: owned by the target, directly or through objects in between (the hub gives no owner path)._';
/** The legend, then the graph: the block the report shows for one target and edge. */
function renderGraph(impact, options = {}) {
    const cap = nodeCap(options.maxNodesPerDirection);
    const legend = impact.downstream.slice(0, cap).some(ownedOnly) ? `${GRAPH_LEGEND}\n${OWNED_LEGEND}` : GRAPH_LEGEND;
    return `${legend}\n\n${renderMermaid(impact, options)}`;
}
/**
 * Downstream only through ownership, which the hub follows to any depth (`descendants+`): owned
 * directly or through others. Any other relation (selected-by, referenced-by, namespaced) is one hop.
 */
function ownedOnly(object) {
    return object.relations.length > 0 && object.relations.every((relation) => relation === 'descendants');
}
/** @internal */
function renderMermaid(impact, options = {}) {
    const cap = nodeCap(options.maxNodesPerDirection);
    const nodes = [`  n0["${label(objectLines(impact.target))}"]`];
    const links = [];
    const collapsed = [];
    let next = 1;
    const add = (direction, objects) => {
        const shown = objects.slice(0, cap);
        for (const object of shown) {
            const id = `n${next++}`;
            const lines = objectLines(object);
            if (object.edge && object.edge !== impact.edge)
                lines.push(`on ${object.edge}`);
            nodes.push(`  ${id}["${label(lines)}"]`);
            links.push(direction === 'downstream' && ownedOnly(object) ? `  n0 -.-> ${id}` : mermaid_link(direction, id));
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
    const frontMatter = [
        '---',
        'config:',
        '  flowchart:',
        `    wrappingWidth: ${LABEL_WRAP_PX}`,
        `    nodeSpacing: ${NODE_SPACING_PX}`,
        `    padding: ${LABEL_PADDING_PX}`,
        '---',
    ];
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
 * `Kind namespace/name` on one line when it fits the wrapping width: a graph as tall as one line
 * per object (a comment's graph of six upstream objects is then a third shorter). Else the kind on
 * a line of its own, then the name.
 */
function objectLines(object) {
    const [first = '', ...rest] = nameLines(object);
    const joined = `${object.kind} ${first}`;
    return rest.length === 0 && Array.from(joined).length <= ONE_LINE_NAME ? [joined] : [object.kind, first, ...rest];
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
    const parts = [`${logSafe((0,model_target/* targetLabel */.Op)(impact.target))} on ${logSafe(impact.edge)} — ${countsText(impact)}`];
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
                : report.nothing
                    ? `No targets: ${(0,format/* inline */.mG)((0,format/* clip */.$Q)(report.nothing.searched, MAX_WARNING, ' …'))}.`
                    : 'No targets: nothing was named in `targets` and no manifest declared an object.'
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
    let line = `**${(0,format/* inline */.mG)((0,model_target/* targetLabel */.Op)(impact.target))}** on ${(0,format/* inline */.mG)(impact.edge)} — ${countsText(impact)}`;
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
        shown: tablePieces(impact, false),
        // Only a report that fits whole draws graphs, so only a small one builds these.
        folded: once(() => tablePieces(impact, true)),
    };
}
function tablePieces(impact, folded) {
    return {
        upstream: piece(directionBlock('upstream', impact, { folded })),
        downstream: piece(directionBlock('downstream', impact, { folded })),
        downstreamShort: piece(directionBlock('downstream', impact, { folded, limit: SHORT_TABLE_ROWS })),
        associated: piece(directionBlock('associated', impact, { folded })),
    };
}
const DIRECTION_TITLE = {
    upstream: 'Upstream — what it depends on',
    downstream: 'Downstream — what depends on it',
    associated: 'Associated — declared links',
};
/** Rows a cut downstream table keeps: enough to show reviewers what kind of objects are hit. */
const SHORT_TABLE_ROWS = 25;
/**
 * One direction's table under its title. `folded`: under a graph, which already names these
 * objects, the table (which adds their relations) is folded behind its title.
 */
function directionBlock(direction, impact, options) {
    const objects = impact[direction];
    if (objects.length === 0)
        return `**${DIRECTION_TITLE[direction]}:** none found.`;
    const title = `${DIRECTION_TITLE[direction]} (${(0,format/* formatCount */.B4)(objects.length)})`;
    const { limit } = options;
    let body = relatedTable(objects, impact.edge);
    if (limit !== undefined && objects.length > limit) {
        const rest = objects.length - limit;
        body = `${relatedTable(objects.slice(0, limit), impact.edge)}\n\n… and ${(0,format/* formatCount */.B4)(rest)} more ${direction} ${rest === 1 ? 'object' : 'objects'}: the job summary and the result file list them all.`;
    }
    return options.folded ? (0,format/* details */.zH)(title, body) : `**${title}**\n\n${body}`;
}
/**
 * One table per target and edge: no Edge column, which would repeat that edge on every row.
 * An object on another edge (an associated object can be) says so after its name.
 */
function relatedTable(objects, edge) {
    const columns = [
        { header: 'Kind', cell: (object) => repeated((0,model_target/* kindLabel */.tf)(object.kind, object.group)) },
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
    return `${(0,format/* inline */.mG)((0,model_target/* targetLabel */.Op)(target))}${target.edge ? ` (edge ${(0,format/* inline */.mG)(target.edge)})` : ''}`;
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
    return (0,model_target/* isRemovedTarget */.A)(target);
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
        core/* info */.pq(`${(0,model_target/* targetLabel */.Op)(target)}: not found on any edge (new object, stale edge, or no visibility).`);
    for (const skipped of report.skippedFiles)
        core/* info */.pq(`Skipped ${skipped.path}: ${skipped.reason}`);
    for (const { target, reason } of report.skippedTargets)
        core/* info */.pq(`Skipped ${(0,model_target/* targetLabel */.Op)(target)}: ${reason}.`);
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

// EXTERNAL MODULE: ./src/steps/impact/pull-request-session.ts
var pull_request_session = __webpack_require__(3554);
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
    const pullRequest = await (0,pull_request_session/* openPullRequest */.H)(impact, runner);
    // Off a runner (npm run local), the manifests are read from where the action was started.
    const workspace = runner.workspace ?? process.cwd();
    // Every target is collected, and the caps checked, before the first hub request.
    const collected = await (0,targets/* collectTargets */.r)({
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
    if (collected.nothing)
        report.nothing = collected.nothing;
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
    const root = await (0,read_workspace_file/* workspaceRoot */.oS)(workspace).catch(() => undefined);
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
