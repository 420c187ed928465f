export const id = 180;
export const ids = [180];
export const modules = {

/***/ 8180:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  rolloutStep: () => (/* binding */ rolloutStep)
});

// EXTERNAL MODULE: ./src/hub/graph.ts
var hub_graph = __webpack_require__(4835);
// EXTERNAL MODULE: ./src/runner/core.ts
var core = __webpack_require__(1019);
// EXTERNAL MODULE: ./src/steps/impact/pull-request-session.ts
var pull_request_session = __webpack_require__(3554);
// EXTERNAL MODULE: ./src/steps/rollout/observe.ts + 3 modules
var observe = __webpack_require__(3770);
// EXTERNAL MODULE: external "node:timers/promises"
var promises_ = __webpack_require__(8500);
;// CONCATENATED MODULE: ./src/steps/rollout/verdict.ts
function requiredEdges(quorum, watched) {
    if (quorum.kind === 'all')
        return watched;
    if (quorum.kind === 'edges')
        return quorum.count;
    return Math.ceil((quorum.percent * watched) / 100);
}
function quorumText(quorum) {
    if (quorum.kind === 'all')
        return 'every edge';
    if (quorum.kind === 'edges')
        return `at least ${quorum.count} edge(s)`;
    return `at least ${quorum.percent}% of the edges`;
}
function decide(edges, quorum, complete, named) {
    const failed = edges.filter((e) => e.state === 'failed').map((e) => e.edge);
    if (failed.length > 0)
        return { state: 'failed', message: `A target failed to roll out on ${list(failed)}.`, tolerated: [] };
    const current = edges.filter((e) => e.state === 'current').map((e) => e.edge);
    const offline = edges.filter((e) => e.state === 'not-reporting').map((e) => e.edge);
    const moving = edges.filter((e) => e.state === 'in-progress').map((e) => e.edge);
    const need = requiredEdges(quorum, edges.length);
    const waiting = (why) => ({ state: 'timeout', message: why, tolerated: [] });
    if (edges.length === 0)
        return waiting(named ? 'No edge was named.' : 'The workspace has no engaged edge: nothing can be confirmed rolled out.');
    if (!complete)
        return waiting("The hub's row cap cut the last result, so it cannot show every target current.");
    if (moving.length > 0)
        return waiting(`Still rolling out on ${list(moving)}.`);
    if (current.length >= need && current.length > 0) {
        const tolerated = quorum.kind === 'all' ? [] : offline;
        const also = tolerated.length > 0 ? `; tolerated by \`require\` (${quorumText(quorum)}): ${list(tolerated)} not reporting` : '';
        return { state: 'current', message: `Every target is current on ${current.length} of ${edges.length} edge(s)${also}.`, tolerated };
    }
    return waiting(`${list(offline)} not reporting; ${current.length} of ${edges.length} edge(s) current, ${quorumText(quorum)} required (\`require\`).`);
}
function list(edges) {
    const shown = edges.slice(0, 10).join(', ');
    return edges.length > 10 ? `${shown} and ${edges.length - 10} more` : shown;
}

;// CONCATENATED MODULE: ./src/steps/rollout/poll.ts
/**
 * The wait: read the fleet, update each edge × target cell, log what changed, decide; else
 * sleep, backing off from a few seconds to half a minute, until `timeout-seconds` is spent.
 * The graph has no watch (hub-behaviour.md §7), so polling is the only way; the clock and the
 * sleep are injected, so tests and the benchmark run it on fake time.
 */



const FIRST_POLL_MS = 2_000;
const MAX_POLL_MS = 30_000;
const BACKOFF = 1.5;
/** Change lines logged per poll; the rest are counted (the result file keeps every one). */
const MAX_LOG_LINES_PER_POLL = 40;
/** Observations kept for the result file. */
const MAX_OBSERVATIONS = 50_000;
const systemClock = {
    now: () => Date.now(),
    sleep: async (ms, signal) => {
        await (0,promises_.setTimeout)(ms, undefined, { signal });
    },
};
async function pollRollout(options) {
    const { clock, signal } = options;
    const startedAt = clock.now();
    const deadline = startedAt + options.budgetMs;
    const tracks = new Map();
    const outcome = {
        state: 'timeout',
        message: '',
        tolerated: [],
        edges: [],
        complete: false,
        polls: 0,
        requests: 0,
        startedAt,
        endedAt: startedAt,
        warnings: [],
        observations: [],
        observationsDropped: 0,
    };
    let pause = FIRST_POLL_MS;
    for (;;) {
        const snapshot = await options.read(signal);
        const now = clock.now();
        outcome.polls++;
        outcome.requests += snapshot.requests;
        outcome.complete = snapshot.complete;
        for (const warning of snapshot.warnings)
            if (!outcome.warnings.includes(warning))
                outcome.warnings.push(warning);
        const changes = update(tracks, snapshot, options, now);
        record(outcome, changes, options.log);
        outcome.edges = [...tracks.values()];
        const decision = decide(outcome.edges, options.quorum, snapshot.complete, options.named !== undefined);
        outcome.endedAt = now;
        if (decision.state !== 'timeout')
            return { ...outcome, ...decision };
        const remaining = deadline - now;
        if (remaining <= 0)
            return { ...outcome, ...decision };
        await clock.sleep(Math.min(pause, remaining), signal);
        pause = Math.min(MAX_POLL_MS, pause * BACKOFF);
    }
}
/** Applies one snapshot to every watched edge; returns what changed. */
function update(tracks, snapshot, options, now) {
    const watched = options.named ?? defaultEdges(tracks, snapshot, options.targets);
    const changes = [];
    for (const edge of watched) {
        let track = tracks.get(edge);
        if (!track)
            tracks.set(edge, (track = { edge, cells: [], state: 'not-reporting', changedAt: undefined, engagedOnce: false }));
        track.engagedOnce ||= snapshot.engaged.includes(edge);
        const before = track.state;
        track.cells = options.targets.map((target, i) => {
            if (target.target.edge !== undefined && target.target.edge !== edge)
                return undefined;
            const previous = track.cells[i];
            const cell = carryOver((0,observe/* observeCell */.dP)(target, edge, snapshot, now), previous, now);
            if (!previous || previous.state !== cell.state || previous.reason !== cell.reason) {
                changes.push({ at: now, edge, target: target.label, state: cell.state, reason: cell.reason });
                track.changedAt = now;
            }
            return cell;
        });
        track.state = edgeState(track.cells);
        if (track.state !== before || track.changedAt === undefined) {
            track.changedAt = now;
            changes.push({ at: now, edge, state: track.state, reason: edgeReason(track) });
        }
    }
    return changes;
}
/**
 * Every engaged edge, every edge seen before in this step (a vanished one is reported, not
 * dropped), and every edge a target names; an edge no target applies to is not watched.
 */
function defaultEdges(tracks, snapshot, targets) {
    const pinned = targets.map((t) => t.target.edge);
    const everywhere = pinned.includes(undefined);
    const candidates = new Set([...tracks.keys(), ...snapshot.engaged, ...pinned.filter((edge) => edge !== undefined)]);
    return [...candidates].filter((edge) => everywhere || pinned.includes(edge)).sort();
}
/** A cell that stops reporting keeps the time it stopped and what it last said (a vanished edge, §7). */
function carryOver(cell, previous, now) {
    if (cell.state !== 'not-reporting' || !previous)
        return cell;
    if (previous.state === 'not-reporting')
        return previous.last ? { ...previous, reason: goneReason(previous.since ?? now, previous.last, cell) } : cell;
    return { state: 'not-reporting', reason: goneReason(now, previous, cell), since: now, last: { state: previous.state, reason: previous.reason } };
}
function goneReason(since, last, now) {
    return `not reporting since ${clockTime(since)} (${now.reason}; last ${STATE_WORDS[last.state]}: ${last.reason})`;
}
const STATE_WORDS = { current: 'current', 'in-progress': 'in progress', failed: 'failed', 'not-reporting': 'not reporting' };
/** "12:03:10 UTC": the runner's log and the summary are read across time zones. */
function clockTime(ms) {
    return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}
/** An edge is as bad as its worst target, but a reporting edge in progress is not "not reporting". */
function edgeState(cells) {
    const states = new Set(cells.filter((c) => c !== undefined).map((c) => c.state));
    if (states.has('failed'))
        return 'failed';
    if (states.has('in-progress'))
        return 'in-progress';
    if (states.has('not-reporting'))
        return 'not-reporting';
    return states.size > 0 ? 'current' : 'not-reporting';
}
function edgeReason(track) {
    const cells = track.cells.filter((c) => c !== undefined);
    const counted = cells.filter((c) => c.state === track.state).length;
    const worst = [...cells].sort((a, b) => (0,observe/* worse */.JJ)(a.state, b.state))[0];
    if (cells.length === 0)
        return 'no target for this edge';
    if (track.state === 'current')
        return `${cells.length} of ${cells.length} target(s) current`;
    return `${counted} of ${cells.length} target(s) ${STATE_WORDS[track.state]}${worst ? `; e.g. ${worst.reason}` : ''}`;
}
function record(outcome, changes, log) {
    let logged = 0;
    for (const change of changes) {
        if (outcome.observations.length < MAX_OBSERVATIONS)
            outcome.observations.push(change);
        else
            outcome.observationsDropped++;
        if (logged++ < MAX_LOG_LINES_PER_POLL)
            log(changeLine(change));
    }
    if (logged > MAX_LOG_LINES_PER_POLL)
        log(`… and ${logged - MAX_LOG_LINES_PER_POLL} more change(s) at this poll (all in the result file).`);
}
function changeLine(change) {
    const subject = change.target ? `${change.edge} · ${change.target}` : `Edge ${change.edge}`;
    return `${subject}: ${STATE_WORDS[change.state]} — ${change.reason}`;
}

// EXTERNAL MODULE: ./src/runner/outputs.ts
var outputs = __webpack_require__(7424);
// EXTERNAL MODULE: ./src/runner/publish.ts
var publish = __webpack_require__(5493);
// EXTERNAL MODULE: ./src/markdown/format.ts
var format = __webpack_require__(4370);
;// CONCATENATED MODULE: ./src/steps/rollout/summary.ts
/**
 * The job summary: the verdict, one row per edge (its state and when it was last seen to
 * change), and the matrix of targets × edges, worst first, each cell its state and reason.
 * Edge names and reasons come from the hub: every cell goes through `inline`. Pure.
 */




/** Wider tables do not fit GitHub's page; the rest of the edges are in the result file. */
const MAX_EDGE_COLUMNS = 12;
const MAX_NAME = 60;
const MAX_REASON = 90;
const ICON = { failed: '❌', 'not-reporting': '⚪', 'in-progress': '⏳', current: '✅' };
const HEADLINE = { current: '✅ Rolled out', failed: '❌ Rollout failed', timeout: '⏱️ Rollout not complete in time' };
/** Hub text for a table cell: the one clip, then escaped as inline markdown. */
const inlineClip = (text, max) => (0,format/* inline */.mG)((0,format/* clip */.$Q)(text, max));
function renderRolloutSummary(outcome, targets, context) {
    const budget = context.budget ?? format/* SUMMARY_BYTE_BUDGET */.Gh;
    const edges = [...outcome.edges].sort((a, b) => observe/* STATE_RANK */.di[a.state] - observe/* STATE_RANK */.di[b.state] || a.edge.localeCompare(b.edge));
    const counts = countCells(outcome.edges);
    const head = [
        `## ${HEADLINE[outcome.state]}`,
        (0,format/* inline */.mG)(outcome.message),
        `${targets.length} target(s) on ${edges.length} edge(s), ${quorumText(context.quorum)} required · ${counts.current} current · ${counts['in-progress']} in progress · ${counts.failed} failed · ${counts['not-reporting']} not reporting · ${outcome.polls} poll(s) over ${Math.round((outcome.endedAt - outcome.startedAt) / 1000)} s.`,
    ];
    if (!outcome.complete)
        head.push("> [!WARNING]\n> The hub's 10,000-row cap cut the last result: it is incomplete, so it was never counted as current.");
    if (outcome.tolerated.length > 0)
        head.push(`> [!NOTE]\n> Tolerated by \`require\`: ${outcome.tolerated.map((e) => inlineClip(e, MAX_NAME)).join(', ')} (not reporting).`);
    const edgeTable = (0,format/* table */.tp)([
        { header: 'Edge', cell: (t) => inlineClip(t.edge, MAX_NAME) },
        { header: 'State', cell: (t) => `${ICON[t.state]} ${STATE_WORDS[t.state]}${outcome.tolerated.includes(t.edge) ? ' (tolerated)' : ''}` },
        { header: 'Last change seen', cell: (t) => (t.changedAt === undefined ? '—' : clockTime(t.changedAt)) },
    ], edges);
    const columns = edges.slice(0, MAX_EDGE_COLUMNS);
    const order = targets.map((target, i) => ({ target, i, worst: worstOf(outcome.edges, i) })).sort((a, b) => a.worst - b.worst || a.i - b.i);
    const header = (0,format/* table */.tp)([{ header: 'Target', cell: () => '' }, ...columns.map((t) => ({ header: inlineClip(t.edge, MAX_NAME), cell: () => '' }))], []);
    const footer = [
        edges.length > columns.length ? `${edges.length - columns.length} more edge(s) are not shown as columns (worst first).` : '',
        `Every observation is in the result file ${(0,format/* inline */.mG)(context.resultFile)} (output \`result-file\`). "Not reporting" is never counted as rolled out: the graph drops a disconnected edge's objects and keeps no per-object freshness.`,
    ].filter(Boolean);
    const fixed = [...head, '### Edges', edgeTable, '### Targets × edges', header, ...footer].join('\n\n');
    let room = budget - (0,format/* byteLength */.dp)(fixed) - 200;
    const rows = [];
    for (const { target, i } of order) {
        const row = `| ${inlineClip(target.label, MAX_NAME * 2)} | ${columns.map((t) => cellText(t.cells[i])).join(' | ')} |`;
        room -= (0,format/* byteLength */.dp)(row) + 1;
        if (room < 0)
            break;
        rows.push(row);
    }
    const cut = order.length - rows.length;
    const matrix = [header, ...rows].join('\n') + (cut > 0 ? `\n\n${cut} more target(s) did not fit GitHub's summary limit.` : '');
    return [...head, '### Edges', edgeTable, '### Targets × edges', matrix, ...footer].join('\n\n') + '\n';
}
function cellText(cell) {
    if (!cell)
        return '—';
    return `${ICON[cell.state]} ${inlineClip(cell.reason, MAX_REASON)}`.replace(/(?<!\\)\|/g, '\\|');
}
function worstOf(edges, i) {
    return Math.min(3, ...edges.map((t) => (t.cells[i] ? observe/* STATE_RANK */.di[t.cells[i].state] : 3)));
}
function countCells(edges) {
    const counts = { current: 0, 'in-progress': 0, failed: 0, 'not-reporting': 0 };
    for (const track of edges)
        for (const cell of track.cells)
            if (cell)
                counts[cell.state]++;
    return counts;
}

;// CONCATENATED MODULE: ./src/steps/rollout/publish.ts
/** The rollout step's outputs, result file, job summary and annotations. */




/** GitHub shows 10 error annotations per step; the failed verdict is one of them. */
const MAX_ERROR_ANNOTATIONS = 9;
function publishRollout(outcome, collected, context) {
    for (const skipped of collected.skippedFiles)
        core/* info */.pq(`Skipped ${skipped.path}: ${skipped.reason}`);
    for (const warning of [...collected.warnings, ...outcome.warnings])
        core/* warning */.$e(warning);
    const path = (0,outputs/* writeJsonFile */.An)((0,outputs/* resultDirectory */.Hc)(context.runner.tempDir), 'rollout-result.json', resultFile(outcome, collected, context.quorum));
    const wholeIn = `the result file ${path} (output \`result-file\`)`;
    for (const [name, value] of Object.entries(rolloutOutputs(outcome, collected, path)))
        core/* setOutput */.uH(name, value, { wholeIn });
    (0,publish/* writeSummary */.Sy)(renderRolloutSummary(outcome, collected.targets, { quorum: context.quorum, resultFile: path }));
    annotateFailures(outcome, collected);
}
function rolloutOutputs(outcome, collected, resultFile) {
    const counts = countCells(outcome.edges);
    return {
        'rollout-state': outcome.state,
        'current-count': String(counts.current),
        'in-progress-count': String(counts['in-progress']),
        'failed-count': String(counts.failed),
        'not-reporting-count': String(counts['not-reporting']),
        lagging: JSON.stringify(lagging(outcome, collected)),
        'result-file': resultFile,
    };
}
/** A name an agent may read as data: Kubernetes' name charset, nothing that can form a sentence. */
const SAFE_NAME = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,251}[A-Za-z0-9])?$/;
/**
 * Ids and states only, no reasons: this output is meant for a triage agent's task, and text
 * from the graph handed to an agent is instructions (README, Security). A name outside the
 * charset (an edge name is the hub's text) is withheld; reasons are in the result file.
 */
function lagging(outcome, collected) {
    const safe = (name) => (name === undefined || name === '' ? (name ?? null) : SAFE_NAME.test(name) ? name : null);
    const rows = [];
    for (const track of outcome.edges) {
        track.cells.forEach((cell, i) => {
            const target = collected.targets[i]?.target;
            if (!cell || !target || cell.state === 'current')
                return;
            rows.push({
                edge: safe(track.edge),
                group: safe(target.group),
                kind: safe(target.kind),
                namespace: safe(target.namespace),
                name: safe(target.name),
                state: cell.state,
            });
        });
    }
    return rows;
}
function resultFile(outcome, collected, quorum) {
    const iso = (ms) => (ms === undefined ? null : new Date(ms).toISOString());
    return {
        ...outputs/* RESULT_FILES */.Se.rollout,
        state: outcome.state,
        message: outcome.message,
        require: quorum,
        tolerated: outcome.tolerated,
        complete: outcome.complete,
        polls: outcome.polls,
        requests: outcome.requests,
        startedAt: iso(outcome.startedAt),
        endedAt: iso(outcome.endedAt),
        counts: countCells(outcome.edges),
        targets: collected.targets.map(({ target, label, place }) => ({
            label,
            ...target,
            origin: undefined,
            file: place?.file ?? null,
            line: place?.line ?? null,
        })),
        edges: outcome.edges.map((track) => ({
            edge: track.edge,
            state: track.state,
            lastChangeAt: iso(track.changedAt),
            cells: track.cells.map((cell, i) => cell ? { target: collected.targets[i]?.label, state: cell.state, reason: cell.reason, notReportingSince: iso(cell.since) } : null),
        })),
        observations: outcome.observations.map((o) => ({ ...o, at: iso(o.at) })),
        observationsDropped: outcome.observationsDropped,
        warnings: [...collected.warnings, ...outcome.warnings],
    };
}
/** On the manifest line of each failed target: on which edges, and why. */
function annotateFailures(outcome, collected) {
    const failures = collected.targets
        .map((target, i) => ({ target, edges: outcome.edges.filter((t) => t.cells[i]?.state === 'failed').map((t) => `${t.edge}: ${t.cells[i]?.reason ?? ''}`) }))
        .filter((f) => f.edges.length > 0 && f.target.place);
    for (const { target, edges } of failures.slice(0, MAX_ERROR_ANNOTATIONS)) {
        const place = target.place;
        core/* error */.z3(`Failed to roll out on ${edges.length} edge(s): ${edges.slice(0, 5).join('; ')}${edges.length > 5 ? '; …' : ''}`, {
            file: place.file,
            startLine: place.line,
            title: `hub-action rollout: ${target.label}`,
        });
    }
    if (failures.length > MAX_ERROR_ANNOTATIONS)
        core/* info */.pq(`${failures.length - MAX_ERROR_ANNOTATIONS} more failed target(s) are not annotated (GitHub's limit per step): see the job summary.`);
}

// EXTERNAL MODULE: ./src/steps/impact/manifests.ts
var manifests = __webpack_require__(2636);
// EXTERNAL MODULE: ./src/steps/impact/model.ts
var model = __webpack_require__(2547);
// EXTERNAL MODULE: ./src/model/target.ts
var model_target = __webpack_require__(5936);
// EXTERNAL MODULE: ./src/steps/impact/read-workspace-file.ts
var read_workspace_file = __webpack_require__(8023);
// EXTERNAL MODULE: ./src/steps/impact/rendered.ts
var rendered = __webpack_require__(9813);
// EXTERNAL MODULE: ./src/steps/impact/targets.ts
var impact_targets = __webpack_require__(264);
;// CONCATENATED MODULE: ./src/steps/rollout/targets.ts
/**
 * The rollout's targets and what each should look like: collected as `impact` collects them
 * (the same function, so the same inputs, caps and scope), then each manifest object read back
 * whole from its file, since the manifest is the expected state (images, generation).
 */






async function collectRolloutTargets(settings, context) {
    const collected = await (0,impact_targets/* collectTargets */.r)({
        given: settings.targets,
        globs: settings.manifests,
        renderedHead: settings.renderedHead,
        defaultNamespace: settings.defaultNamespace,
        workspace: context.workspace,
        pullRequest: context.pullRequest,
        signal: context.signal,
        log: context.log,
    });
    const warnings = [...collected.warnings];
    const root = await (0,read_workspace_file/* workspaceRoot */.oS)(context.workspace).catch(() => undefined);
    const values = new Map();
    const targets = [];
    for (const target of collected.targets) {
        // A removed object is not rolled out: it is gone, which absence cannot prove (§7).
        if ((0,model_target/* isRemovedTarget */.A)(target)) {
            warnings.push(`${(0,model_target/* targetLabel */.Op)(target)} is removed by this change: a rollout gate cannot confirm a deletion, so it is not a target.`);
            continue;
        }
        const origin = target.origin;
        const place = origin.kind === 'input' ? undefined : { file: origin.path, line: origin.line ?? 1 };
        const value = place && root
            ? (await objectsOf(root, place.file, { rendered: origin.kind === 'rendered', defaultNamespace: settings.defaultNamespace }, values, context.signal)).get((0,model/* objectKey */.T)(target))
            : undefined;
        targets.push({ key: identityKey(target), label: (0,model_target/* targetLabel */.Op)(target), target, expected: value ?? identityObject(target), place });
    }
    return { targets, skippedFiles: collected.skippedFiles, warnings, files: collected.files, nothing: collected.nothing };
}
/** The group, kind, namespace and name of an object, without its edge. */
function identityKey(object) {
    return (0,model/* objectKey */.T)({ group: object.group, kind: object.kind, namespace: object.namespace, name: object.name });
}
/** A target named in `targets`: only its generation is compared, and its health. */
function identityObject(target) {
    return {
        apiVersion: target.group ? `${target.group}/v1` : 'v1',
        kind: target.kind,
        metadata: { name: target.name, ...(target.namespace ? { namespace: target.namespace } : {}) },
    };
}
/** Each file is read and parsed once, however many targets it declares. */
async function objectsOf(root, path, how, cache, signal) {
    const cached = cache.get(path);
    if (cached)
        return cached;
    const byKey = new Map();
    cache.set(path, byKey);
    const read = await (0,read_workspace_file/* readWorkspaceFile */.sL)(root, path, how.rendered ? rendered/* MAX_RENDERED_FILE_BYTES */.YG : read_workspace_file/* MAX_MANIFEST_BYTES */.ZJ);
    if ('skipped' in read)
        return byKey;
    const parsed = await (0,manifests/* objectsFromManifest */.ud)(path, read.text, { signal, defaultNamespace: how.defaultNamespace });
    for (const object of parsed.objects)
        if (!byKey.has((0,model/* objectKey */.T)(object.target)))
            byKey.set((0,model/* objectKey */.T)(object.target), object.value);
    return byKey;
}

;// CONCATENATED MODULE: ./src/steps/rollout/index.ts
/**
 * The rollout gate, loaded on demand by main.ts: the targets and their expected state (as
 * impact collects them), then the fleet polled until every target is current on every watched
 * edge (or the quorum), one fails, or `timeout-seconds` runs out; then the report.
 */








async function rolloutStep(settings, transport, signal, clock = systemClock) {
    const { rollout, runner } = settings;
    const pullRequest = await (0,pull_request_session/* openPullRequest */.H)({ ...rollout, comment: 'off', commentKey: 'rollout' }, runner);
    const collected = await collectRolloutTargets(rollout, {
        // Off a runner (npm run local), the manifests are read from where the action was started.
        workspace: runner.workspace ?? process.cwd(),
        pullRequest: pullRequest?.files,
        signal,
        log: core/* info */.pq,
    });
    const graph = new hub_graph/* GraphClient */.oh(transport);
    const queries = (0,observe/* rolloutQueries */.Wt)(collected.targets);
    const where = rollout.edges ? `edge(s) ${rollout.edges.join(', ')}` : 'every engaged edge';
    core/* info */.pq(`Waiting up to ${rollout.timeoutSeconds} s for ${collected.targets.length} target(s) on ${where} (${quorumText(rollout.require)} required), ${queries.length} query(ies) a poll.`);
    const outcome = collected.targets.length === 0
        ? undefined
        : await pollRollout({
            targets: collected.targets,
            named: rollout.edges,
            quorum: rollout.require,
            budgetMs: rollout.timeoutSeconds * 1000,
            read: (s) => (0,observe/* readSnapshot */.RA)(graph, queries, s),
            clock,
            signal,
            log: core/* info */.pq,
        });
    if (!outcome) {
        // nothing is published on this path: the warnings that say what matched nothing go out here
        for (const warning of collected.warnings)
            core/* warning */.$e(warning);
        const searched = collected.nothing ? ` (${collected.nothing.searched})` : '';
        return {
            status: 'fail',
            message: `No rollout target was found${searched}: a rollout gate that checks nothing cannot pass. Check \`targets\`, \`manifests\` and \`rendered-head\`.`,
        };
    }
    publishRollout(outcome, collected, { quorum: rollout.require, runner });
    return verdictOf(outcome, rollout.onTimeout, rollout.timeoutSeconds);
}
function verdictOf(outcome, onTimeout, timeoutSeconds) {
    if (outcome.state === 'current')
        return { status: 'pass', message: `Rolled out: ${outcome.message}` };
    if (outcome.state === 'failed')
        return { status: 'fail', message: `Rollout failed: ${outcome.message} See the job summary for each edge and reason.` };
    return {
        status: onTimeout === 'warn' ? 'warn' : 'fail',
        message: `Rollout not complete after ${timeoutSeconds} s (timeout-seconds): ${outcome.message} Raise \`timeout-seconds\`, or set \`require\` to tolerate offline edges.`,
    };
}


/***/ })

};
