export const id = 132;
export const ids = [132];
export const modules = {

/***/ 5132:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  approveStep: () => (/* binding */ approveStep),
  cancelStep: () => (/* binding */ cancelStep),
  waitStep: () => (/* binding */ waitStep)
});

// EXTERNAL MODULE: ./src/steps/run/verdict.ts
var run_verdict = __webpack_require__(3948);
// EXTERNAL MODULE: ./src/hub/agents.ts
var agents = __webpack_require__(5901);
// EXTERNAL MODULE: ./src/hub/clock.ts
var clock = __webpack_require__(5581);
// EXTERNAL MODULE: ./src/runner/publish.ts
var publish = __webpack_require__(5493);
// EXTERNAL MODULE: ./src/steps/run/publish.ts
var run_publish = __webpack_require__(5710);
// EXTERNAL MODULE: ./src/markdown/json-text.ts
var json_text = __webpack_require__(551);
// EXTERNAL MODULE: ./src/markdown/format.ts
var format = __webpack_require__(4370);
// EXTERNAL MODULE: ./src/runner/core.ts
var core = __webpack_require__(1019);
// EXTERNAL MODULE: ./src/hub/phases.ts
var phases = __webpack_require__(8247);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
;// CONCATENATED MODULE: ./src/steps/run/refusal.ts


/** A lifecycle command that declined to act on what the hub showed (nothing was sent to change it). */
class StepRefusal extends errors/* ActionError */.l {
    constructor(statement, operation = 'resolve the approval') {
        super({ kind: 'statement', operation, hint: 'see the message', statement });
        this.name = 'StepRefusal';
    }
}
/** Hub text inside one of our messages: quoted, on one line, and short. */
function quoteHubText(text, max = 200) {
    return JSON.stringify((0,format/* clip */.$Q)((text ?? '').replace(/\s+/g, ' '), max));
}

;// CONCATENATED MODULE: ./src/steps/run/approve.ts


/** The approval to resolve, or a StepRefusal saying why this run's gate is not the expected one. */
function approvalToResolve(detail, settings) {
    const run = `Run ${settings.runId}${detail.agent ? ` of agent ${quoteHubText(detail.agent)}` : ''}`;
    const phase = (0,phases/* canonicalPhase */.GK)(detail.phase);
    const inboxId = detail.pending?.inboxID;
    if (phase !== 'PendingApproval' || !inboxId) {
        const why = (0,phases/* isTerminal */.Hd)(phase)
            ? 'It has ended, so there is nothing to approve.'
            : phase === 'PendingApproval'
                ? 'The hub did not say which approval it waits for (no pending.inboxID); resolve it in the hub.'
                : 'It may reach the gate later: stop at it first with `on-approval: succeed` (in `run` or `wait`), then approve.';
        throw new StepRefusal(`${run} is not waiting for approval (phase ${quoteHubText(phase, 40)}): nothing was resolved. ${why}`);
    }
    const tool = detail.pending?.tool ?? '';
    if (settings.approvalId && inboxId !== settings.approvalId) {
        throw new StepRefusal(`${run} is waiting for approval ${quoteHubText(inboxId)}, not ${quoteHubText(settings.approvalId)} (\`approval-id\`): the pending call is not the one shown to the reviewer, so nothing was resolved. Re-run the workflow so a reviewer sees the current request.`);
    }
    if (settings.expectTool && tool !== settings.expectTool) {
        throw new StepRefusal(`${run} is waiting for approval to call ${quoteHubText(tool)}, not ${quoteHubText(settings.expectTool)} (\`expect-tool\`): nothing was resolved. Review the call in the hub, or change \`expect-tool\` if the workflow expects this tool.`);
    }
    return { inboxId, tool, args: detail.pending?.args };
}
const SETTLE_PAUSES_MS = [250, 500, 1_000, 2_000];
/**
 * The run just after its approval was resolved. The hub resumes the run on its own time, so a
 * read at once may still show the gate just resolved: read again, briefly and a bounded number of
 * times, so `on-approval` then applies to the next gate, not to the one already resolved.
 */
async function readAfterResolve(client, runId, resolved, signal, sleep) {
    let detail = await client.getRun(runId, signal);
    for (const pause of SETTLE_PAUSES_MS) {
        if ((0,phases/* canonicalPhase */.GK)(detail.phase) !== 'PendingApproval' || detail.pending?.inboxID !== resolved)
            break;
        await sleep(pause, signal);
        if (signal.aborted)
            throw signal.reason;
        detail = await client.getRun(runId, signal);
    }
    return detail;
}

// EXTERNAL MODULE: ./src/steps/run/followed-run.ts
var followed_run = __webpack_require__(9817);
// EXTERNAL MODULE: ./src/steps/run/loop.ts
var loop = __webpack_require__(7363);
;// CONCATENATED MODULE: ./src/steps/run/attach.ts



/** RunSettings for a run this step did not start: no task, key or session of ours. */
function attachedRunSettings(wait, detail) {
    return {
        // Hub text in every message of the step: one short line.
        agent: (detail.agent ?? 'unknown').replace(/\s+/g, ' ').slice(0, 200),
        task: '',
        idempotencyKey: undefined,
        idempotencyKeySource: 'none',
        sessionId: detail.sessionID ?? '',
        timeoutSeconds: wait.timeoutSeconds,
        onTimeout: wait.onTimeout,
        onApproval: wait.onApproval,
        pendingTimeoutSeconds: wait.pendingTimeoutSeconds,
        onCancel: wait.onCancel,
        liveSteps: wait.liveSteps,
    };
}
/**
 * The wait loop on run `runId`, read just before (`detail`). A run id the hub did not know has
 * already ended the step at that read (404): an id given by the user is never re-created.
 */
function attachToRun(settings, runId, detail, client, deps, signal) {
    const started = (deps.now ?? Date.now)();
    // Never `reused`: that would say an idempotency key matched, and none was sent.
    deps.events.created({ runId, phase: detail.phase, run: detail });
    const run = { followed: followed_run/* FollowedRun */.c.given(client, runId), detail, phase: (0,phases/* canonicalPhase */.GK)(detail.phase), idempotencyKey: undefined, started };
    return (0,loop/* waitForRun */.C)(run, settings, { ...deps, client }, signal);
}

;// CONCATENATED MODULE: ./src/steps/run/lifecycle-steps.ts
/**
 * The later commands of a run's life, as steps: `wait` attaches to a run, `cancel` cancels it,
 * `approve` resolves its approval and then (unless `timeout-seconds` is 0) waits like `wait`.
 * Each reads the hub through the agents client and publishes through the same publisher as `run`.
 */











/** Characters of the approved call's arguments written to the log. */
const ARGS_LOG_CHARS = 64 * 1024;
async function waitStep(settings, transport, signal) {
    const client = new agents/* AgentsClient */.Iv(transport, settings.hub.clusterId);
    const detail = await client.getRun(settings.wait.runId, signal);
    return followRun(settings, settings.wait, detail, client, signal);
}
async function cancelStep(settings, transport, signal) {
    const { runId } = settings.cancel;
    core/* setOutput */.uH('run-id', runId);
    const answer = await new agents/* AgentsClient */.Iv(transport, settings.hub.clusterId).requestCancel(runId, { signal });
    const result = answer === 'already-settled' ? 'already-ended' : answer;
    core/* setOutput */.uH('cancel-result', result);
    const verdict = answer === 'cancelling'
        ? { status: 'pass', message: `Run ${runId} is being cancelled on the hub; it ends Aborted.` }
        : answer === 'already-settled'
            ? { status: 'pass', message: `Run ${runId} had already ended: there was nothing to cancel.` }
            : {
                status: 'warn',
                message: `The hub accepted the cancel of run ${runId} but says it is not cancelling it (cancelling: false): it may be executing on another replica and may still finish. Check the run on the hub.`,
            };
    (0,publish/* writeSummary */.Sy)(`## Cancel run ${(0,format/* code */.aY)(runId)}: ${result}\n\n${(0,format/* inline */.mG)(verdict.message)}\n`);
    return verdict;
}
async function approveStep(settings, transport, signal) {
    const { approve, wait } = settings;
    const client = new agents/* AgentsClient */.Iv(transport, settings.hub.clusterId);
    core/* setOutput */.uH('run-id', approve.runId);
    const pending = approvalToResolve(await client.getRun(approve.runId, signal), approve);
    core/* info */.pq(`Resolving approval ${pending.inboxId} of run ${approve.runId} (tool ${quoteHubText(pending.tool)}) with decision ${approve.decision}.`);
    if (pending.args !== undefined)
        (0,publish/* logUntrusted */.ts)('Arguments of the call:', (0,json_text/* jsonTextForDisplay */.D)(pending.args, ARGS_LOG_CHARS));
    await client.resolveApproval(pending.inboxId, approve.decision, approve.response, signal);
    const resolved = `Approval ${pending.inboxId} of run ${approve.runId} was resolved (${approve.decision})`;
    if (wait.timeoutSeconds === 0) {
        return { status: 'pass', message: `${resolved}; not waiting for the run because timeout-seconds is 0.` };
    }
    core/* info */.pq(`${resolved}; waiting for the run.`);
    const detail = await readAfterResolve(client, approve.runId, pending.inboxId, signal, clock/* abortableSleep */.M);
    return followRun(settings, wait, detail, client, signal);
}
/** The wait loop on the run just read, then its verdict and outputs, as `run` publishes them. */
async function followRun(settings, wait, detail, client, signal) {
    const runSettings = attachedRunSettings(wait, detail);
    const events = (0,run_publish/* runEventsToLog */.I)(runSettings, { attached: true });
    let result;
    try {
        result = await attachToRun(runSettings, wait.runId, detail, client, { events }, signal);
    }
    finally {
        events.finish();
    }
    const verdict = (0,run_verdict/* runVerdict */.Z)(result, runSettings);
    await (0,run_publish/* publishRun */.Z)(result, verdict, settings.runner);
    return verdict;
}


/***/ })

};
