export const id = 770;
export const ids = [770];
export const modules = {

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


/***/ }),

/***/ 3770:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  di: () => (/* binding */ STATE_RANK),
  dP: () => (/* binding */ observeCell),
  RA: () => (/* binding */ readSnapshot),
  Wt: () => (/* binding */ rolloutQueries),
  JJ: () => (/* binding */ worse)
});

// EXTERNAL MODULE: ./src/hub/graph.ts
var hub_graph = __webpack_require__(4835);
// EXTERNAL MODULE: ./src/steps/rollout/live-object.ts
var live_object = __webpack_require__(7251);
;// CONCATENATED MODULE: ./src/steps/rollout/kstatus-kinds.ts
/**
 * kstatus's rule for each built-in kind it knows (its core.go), one entry per kind. A rule runs
 * only after the generic rules passed, so the controller has seen the latest generation.
 */

/** The controller's sentinel for "no progress deadline": it then sets no Progressing condition. */
const NO_DEADLINE = 2 ** 31 - 1;
/** kstatus gives a pod this long after creation to be scheduled before calling it unschedulable. @internal */
const SCHEDULE_WINDOW_MS = 15_000;
const spec = (live, ...path) => (0,live_object.at)(live.object, 'spec', ...path);
const kstatus_kinds_status = (live, ...path) => (0,live_object.at)(live.object, 'status', ...path);
/** "ready 2/3" when fewer than wanted, else undefined. */
function kstatus_kinds_short(label, have, want) {
    return want > have ? `${label} ${have}/${want}` : undefined;
}
const deployment = (live) => {
    let progressing = (0,live_object/* int */.Wh)(spec(live, 'progressDeadlineSeconds'), NO_DEADLINE) === NO_DEADLINE;
    for (const c of live.conditions) {
        if (c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded')
            return (0,live_object/* failed */.gz)('deadline exceeded');
        if (c.type === 'Progressing' && c.status === 'True' && c.reason === 'NewReplicaSetAvailable')
            progressing = true;
    }
    const want = (0,live_object/* int */.Wh)(spec(live, 'replicas'), 1);
    const replicas = (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'replicas'), 0);
    const updated = (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'updatedReplicas'), 0);
    const behind = kstatus_kinds_short('replicas', replicas, want) ??
        kstatus_kinds_short('updated', updated, want) ??
        (replicas > want ? `old replicas terminating: ${replicas - want}` : undefined) ??
        kstatus_kinds_short('available', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'availableReplicas'), 0), updated) ??
        kstatus_kinds_short('ready', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'readyReplicas'), 0), want);
    if (behind)
        return (0,live_object/* inProgress */.Vw)(behind);
    if (!progressing)
        return (0,live_object/* inProgress */.Vw)('new ReplicaSet not available yet');
    if (!(0,live_object/* condition */.uH)(live, 'Available', 'True'))
        return (0,live_object/* inProgress */.Vw)('Available? no');
    return (0,live_object/* current */.ss)(`available ${replicas}/${want}`);
};
const statefulSet = (live) => {
    if ((0,live_object/* str */.gx)(spec(live, 'updateStrategy', 'type')) === 'OnDelete')
        return (0,live_object/* current */.ss)('OnDelete: pods update when deleted');
    const want = (0,live_object/* int */.Wh)(spec(live, 'replicas'), 1);
    const replicas = (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'replicas'), 0);
    const updated = (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'updatedReplicas'), 0);
    const partition = (0,live_object/* int */.Wh)(spec(live, 'updateStrategy', 'rollingUpdate', 'partition'), -1);
    const behind = kstatus_kinds_short('replicas', replicas, want) ??
        kstatus_kinds_short('ready', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'readyReplicas'), 0), want) ??
        (replicas > want ? `extra replicas terminating: ${replicas - want}` : undefined);
    if (behind)
        return (0,live_object/* inProgress */.Vw)(behind);
    // Pods below the partition keep the old revision on purpose: only those above it must update.
    if (partition !== -1) {
        const below = kstatus_kinds_short('updated', updated, want - partition);
        return below ? (0,live_object/* inProgress */.Vw)(`${below} (partition ${partition})`) : (0,live_object/* current */.ss)(`updated ${updated} above partition ${partition}`);
    }
    const lessCurrent = kstatus_kinds_short('current', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'currentReplicas'), 0), want);
    if (lessCurrent)
        return (0,live_object/* inProgress */.Vw)(lessCurrent);
    const currentRevision = (0,live_object/* str */.gx)(kstatus_kinds_status(live, 'currentRevision'));
    const updateRevision = (0,live_object/* str */.gx)(kstatus_kinds_status(live, 'updateRevision'));
    if (currentRevision !== updateRevision)
        return (0,live_object/* inProgress */.Vw)(`revision ${(0,live_object/* shortText */.os)(currentRevision) || '?'}, updating to ${(0,live_object/* shortText */.os)(updateRevision) || '?'}`);
    return (0,live_object/* current */.ss)(`ready ${replicas}/${want}`);
};
const daemonSet = (live) => {
    // Lenient elsewhere, but a DaemonSet the controller has acted on always has both fields.
    if (live.generation === undefined)
        return (0,live_object/* inProgress */.Vw)('no generation yet');
    if (live.observed === undefined)
        return (0,live_object/* inProgress */.Vw)('generation not observed yet');
    const desired = (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'desiredNumberScheduled'), -1);
    if (desired === -1)
        return (0,live_object/* inProgress */.Vw)('desired count not reported yet');
    const behind = kstatus_kinds_short('scheduled', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'currentNumberScheduled'), 0), desired) ??
        kstatus_kinds_short('updated', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'updatedNumberScheduled'), 0), desired) ??
        kstatus_kinds_short('available', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'numberAvailable'), 0), desired) ??
        kstatus_kinds_short('ready', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'numberReady'), 0), desired);
    return behind ? (0,live_object/* inProgress */.Vw)(behind) : (0,live_object/* current */.ss)(`ready ${desired}/${desired}`);
};
const replicaSet = (live) => {
    const failure = (0,live_object/* condition */.uH)(live, 'ReplicaFailure', 'True');
    if (failure)
        return (0,live_object/* inProgress */.Vw)((0,live_object/* conditionText */.D3)('replica failure', failure));
    const want = (0,live_object/* int */.Wh)(spec(live, 'replicas'), 1);
    const replicas = (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'replicas'), 0);
    const behind = kstatus_kinds_short('labelled', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'fullyLabeledReplicas'), 0), want) ??
        kstatus_kinds_short('available', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'availableReplicas'), 0), want) ??
        kstatus_kinds_short('ready', (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'readyReplicas'), 0), want) ??
        (replicas > want ? `extra replicas terminating: ${replicas - want}` : undefined);
    return behind ? (0,live_object/* inProgress */.Vw)(behind) : (0,live_object/* current */.ss)(`available ${want}/${want}`);
};
/** A job is current once it runs (kstatus's choice: the apply took), or when it completed. */
const job = (live) => {
    const completions = (0,live_object/* int */.Wh)(spec(live, 'completions'), (0,live_object/* int */.Wh)(spec(live, 'parallelism'), 1));
    const succeeded = (0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'succeeded'), 0);
    for (const c of live.conditions) {
        if (c.status !== 'True')
            continue;
        if (c.type === 'Complete')
            return (0,live_object/* current */.ss)(`complete ${succeeded}/${completions}`);
        if (c.type === 'Failed')
            return (0,live_object/* failed */.gz)((0,live_object/* conditionText */.D3)('job failed', c));
        if (c.type === 'Suspended' && spec(live, 'suspend') === true)
            return (0,live_object/* current */.ss)('suspended');
    }
    if (!(0,live_object/* str */.gx)(kstatus_kinds_status(live, 'startTime')))
        return (0,live_object/* inProgress */.Vw)('not started');
    return (0,live_object/* current */.ss)(`running: ${succeeded} succeeded, ${(0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'active'), 0)} active, ${(0,live_object/* int */.Wh)(kstatus_kinds_status(live, 'failed'), 0)} failed`);
};
const persistentVolumeClaim = (live) => {
    const phase = (0,live_object/* str */.gx)(kstatus_kinds_status(live, 'phase'));
    return phase === 'Bound' ? (0,live_object/* current */.ss)('Bound') : (0,live_object/* inProgress */.Vw)(`Bound? no: ${(0,live_object/* shortText */.os)(phase) || 'no phase'}`);
};
/**
 * kstatus only checks that a LoadBalancer has a cluster IP, which it has from creation; a gate
 * wants the address the cloud assigns, so this looks for an ingress entry with an IP or hostname.
 */
const service = (live) => {
    if ((0,live_object/* str */.gx)(spec(live, 'type')) !== 'LoadBalancer')
        return (0,live_object/* current */.ss)('exists');
    const ingress = (0,live_object/* list */.p_)(kstatus_kinds_status(live, 'loadBalancer', 'ingress'), 'status.loadBalancer.ingress');
    if (!ingress.ok)
        return { status: 'unknown', reason: ingress.problem };
    const addressed = ingress.value.some((entry) => (0,live_object/* str */.gx)((0,live_object.at)(entry, 'ip')) || (0,live_object/* str */.gx)((0,live_object.at)(entry, 'hostname')));
    return addressed ? (0,live_object/* current */.ss)('load-balancer address assigned') : (0,live_object/* inProgress */.Vw)('no load-balancer address');
};
/** Names of containers (and init containers, whose crash loop keeps the pod Pending) in CrashLoopBackOff. */
function crashLooping(live) {
    const names = [];
    for (const field of ['initContainerStatuses', 'containerStatuses']) {
        const statuses = (0,live_object/* list */.p_)(kstatus_kinds_status(live, field), `status.${field}`);
        if (!statuses.ok)
            return statuses;
        for (const entry of statuses.value) {
            if ((0,live_object/* str */.gx)((0,live_object.at)(entry, 'state', 'waiting', 'reason')) === 'CrashLoopBackOff')
                names.push((0,live_object/* shortText */.os)((0,live_object/* str */.gx)((0,live_object.at)(entry, 'name'))) || '?');
        }
    }
    return { names };
}
const pod = (live) => {
    const phase = (0,live_object/* str */.gx)(kstatus_kinds_status(live, 'phase'));
    if (phase === 'Succeeded')
        return (0,live_object/* current */.ss)('succeeded');
    // kstatus: a pod that ran to failure has reached its end state, so it is not in progress.
    if (phase === 'Failed')
        return (0,live_object/* current */.ss)('completed, not successfully');
    if (phase !== 'Running' && phase !== 'Pending')
        return phase ? { status: 'unknown', reason: `phase ${(0,live_object/* shortText */.os)(phase)}` } : (0,live_object/* inProgress */.Vw)('phase not reported yet');
    if (phase === 'Running' && (0,live_object/* condition */.uH)(live, 'Ready', 'True'))
        return (0,live_object/* current */.ss)('Ready');
    const looping = crashLooping(live);
    if ('problem' in looping)
        return { status: 'unknown', reason: looping.problem };
    const [first, ...more] = looping.names;
    if (first !== undefined)
        return (0,live_object/* failed */.gz)(`CrashLoopBackOff (${more.length ? `containers ${[first, ...more].join(', ')}` : `container ${first}`})`);
    if (phase === 'Running')
        return (0,live_object/* inProgress */.Vw)('running, Ready? no');
    const unschedulable = (0,live_object/* condition */.uH)(live, 'PodScheduled', 'False');
    if (unschedulable?.reason !== 'Unschedulable')
        return (0,live_object/* inProgress */.Vw)('Pending');
    const created = Date.parse((0,live_object/* str */.gx)((0,live_object.at)(live.object, 'metadata', 'creationTimestamp')));
    if (live.now - created < SCHEDULE_WINDOW_MS)
        return (0,live_object/* inProgress */.Vw)('not scheduled yet');
    return (0,live_object/* failed */.gz)(unschedulable.message ? `unschedulable: ${(0,live_object/* shortText */.os)(unschedulable.message)}` : 'unschedulable');
};
const customResourceDefinition = (live) => {
    for (const c of live.conditions) {
        if (c.type === 'NamesAccepted' && c.status === 'False')
            return (0,live_object/* failed */.gz)((0,live_object/* conditionText */.D3)('names not accepted', c));
        if (c.type === 'Established' && c.status === 'False' && c.reason !== 'Installing')
            return (0,live_object/* failed */.gz)((0,live_object/* conditionText */.D3)('not established', c));
        if (c.type === 'Established' && c.status === 'True')
            return (0,live_object/* current */.ss)('Established');
    }
    return (0,live_object/* inProgress */.Vw)('installing');
};
const alwaysReady = () => (0,live_object/* current */.ss)('exists');
/** Keyed as kstatus keys them: "group/Kind", the core group by Kind alone. */
const KIND_RULES = new Map([
    ['apps/Deployment', deployment],
    ['extensions/Deployment', deployment],
    ['apps/StatefulSet', statefulSet],
    ['apps/DaemonSet', daemonSet],
    ['extensions/DaemonSet', daemonSet],
    ['apps/ReplicaSet', replicaSet],
    ['extensions/ReplicaSet', replicaSet],
    ['batch/Job', job],
    ['batch/CronJob', alwaysReady],
    ['PersistentVolumeClaim', persistentVolumeClaim],
    ['Service', service],
    ['Pod', pod],
    ['ConfigMap', alwaysReady],
    ['Secret', alwaysReady],
    // The disruption controller sets no condition when it fails; observing the generation is all there is.
    ['policy/PodDisruptionBudget', alwaysReady],
    ['apiextensions.k8s.io/CustomResourceDefinition', customResourceDefinition],
]);

;// CONCATENATED MODULE: ./src/steps/rollout/kstatus.ts
/**
 * Is a live object healthy? The rules kstatus publishes (sigs.k8s.io/cli-utils pkg/kstatus, the
 * status Flux and kpt wait on), in its order: generic rules first, then one rule per kind, then the
 * Ready condition, else current. Pure: the object in, a status and a short reason out.
 */


/** Checked on every kind before its own rule, in kstatus's order (checkGenericProperties). @internal */
const GENERIC_RULES = [
    ['deletion timestamp', (live) => ((0,live_object/* str */.gx)((0,live_object.at)(live.object, 'metadata', 'deletionTimestamp')) ? { status: 'terminating', reason: 'being deleted' } : undefined)],
    [
        'observed generation',
        ({ generation, observed }) => generation !== undefined && observed !== undefined && generation !== observed ? (0,live_object/* inProgress */.Vw)(`generation ${generation} observed ${observed}`) : undefined,
    ],
    [
        'Reconciling',
        (live) => {
            const c = (0,live_object/* condition */.uH)(live, 'Reconciling', 'True');
            return c && (0,live_object/* inProgress */.Vw)((0,live_object/* conditionText */.D3)('Reconciling', c));
        },
    ],
    [
        'Stalled',
        (live) => {
            const c = (0,live_object/* condition */.uH)(live, 'Stalled', 'True');
            return c && (0,live_object/* failed */.gz)((0,live_object/* conditionText */.D3)('Stalled', c));
        },
    ],
];
/**
 * A kind with no rule of its own: its Ready condition when it has one (widely used, though not a
 * Kubernetes convention), else current once it exists at the expected generation.
 */
const readyCondition = (live) => {
    const c = (0,live_object/* condition */.uH)(live, 'Ready');
    if (c?.status === 'True')
        return (0,live_object/* current */.ss)('Ready');
    if (c?.status === 'False')
        return (0,live_object/* inProgress */.Vw)((0,live_object/* conditionText */.D3)('Ready? no', c));
    if (c?.status === 'Unknown')
        return (0,live_object/* inProgress */.Vw)((0,live_object/* conditionText */.D3)('Ready? unknown', c));
    return (0,live_object/* current */.ss)('exists');
};
/** Never throws: garbage gets 'unknown' with what was wrong. `now` only ages unschedulable pods. */
function computeHealth(live, now) {
    const read = readLive(live, now);
    if ('status' in read)
        return read;
    for (const [, rule] of GENERIC_RULES) {
        const result = rule(read);
        if (result)
            return result;
    }
    return (KIND_RULES.get((0,live_object/* kindKey */._V)(read.group, read.kind)) ?? readyCondition)(read);
}
function readLive(live, now) {
    if (!(0,live_object/* isRecord */.u4)(live))
        return { status: 'unknown', reason: 'not an object' };
    const kind = (0,live_object/* str */.gx)(live.kind);
    if (!kind)
        return { status: 'unknown', reason: 'no kind' };
    const conditions = (0,live_object/* conditionsOf */.yb)(live);
    if (!conditions.ok)
        return { status: 'unknown', reason: conditions.problem };
    const generations = (0,live_object/* generationsOf */.xi)(live);
    if (!generations.ok)
        return { status: 'unknown', reason: generations.problem };
    return { kind, group: (0,live_object/* groupOf */.F8)(live.apiVersion), object: live, conditions: conditions.value, ...generations.value, now };
}

;// CONCATENATED MODULE: ./src/steps/rollout/revision.ts
/**
 * Is the live object the one the manifest asks for, and is it rolled out? Only what the API server
 * keeps as written is compared (generation, container images); it defaults and normalises the rest.
 */


/** Where each workload keeps its pod spec; a kind not listed has no images to compare. */
const POD_SPEC_PATHS = new Map([
    ['apps/Deployment', ['spec', 'template', 'spec']],
    ['apps/StatefulSet', ['spec', 'template', 'spec']],
    ['apps/DaemonSet', ['spec', 'template', 'spec']],
    ['apps/ReplicaSet', ['spec', 'template', 'spec']],
    ['batch/Job', ['spec', 'template', 'spec']],
    ['batch/CronJob', ['spec', 'jobTemplate', 'spec', 'template', 'spec']],
    ['Pod', ['spec']],
]);
/** The graph's default sync list (hub-behaviour.md §7) by group; each kind with its resource and short names. */
const SYNCED_BY_DEFAULT = new Map([
    ['', ['pod', 'pods', 'po', 'service', 'services', 'svc', 'configmap', 'configmaps', 'cm', 'persistentvolumeclaim', 'persistentvolumeclaims', 'pvc']],
    ['apps', ['deployment', 'deployments', 'deploy', 'replicaset', 'replicasets', 'rs', 'statefulset', 'statefulsets', 'sts', 'daemonset', 'daemonsets', 'ds']],
    ['batch', ['job', 'jobs']],
    ['networking.k8s.io', ['ingress', 'ingresses', 'ing']],
    ['autoscaling', ['horizontalpodautoscaler', 'horizontalpodautoscalers', 'hpa']],
    ['rbac.authorization.k8s.io', ['role', 'roles', 'rolebinding', 'rolebindings', 'clusterrole', 'clusterroles', 'clusterrolebinding', 'clusterrolebindings']],
    ['apiextensions.k8s.io', ['customresourcedefinition', 'customresourcedefinitions', 'crd', 'crds']],
]);
/**
 * Whether the graph syncs this group/kind without the operator widening its list: built-in kinds
 * only. Custom resources (HelmRelease, Argo CD Application), secrets and events are not.
 * @internal
 */
function syncedByDefault(group, kind) {
    return SYNCED_BY_DEFAULT.get(group)?.includes(kind.toLowerCase()) ?? false;
}
/**
 * The live object is at the manifest's revision when its controller has observed its generation
 * and every container and init container of the manifest's pod template runs the same image.
 * Containers the live object has beyond the manifest's (injected sidecars) are not compared.
 * @internal
 */
function atExpectedRevision(expected, live) {
    const generations = (0,live_object/* generationsOf */.xi)(live);
    if (!generations.ok)
        return { atRevision: false, reason: generations.problem };
    const { generation, observed } = generations.value;
    if (generation !== undefined && observed !== undefined && generation !== observed) {
        return { atRevision: false, reason: `generation ${generation} observed ${observed}` };
    }
    const path = POD_SPEC_PATHS.get((0,live_object/* kindKey */._V)((0,live_object/* groupOf */.F8)((0,live_object.at)(expected, 'apiVersion')), (0,live_object/* str */.gx)((0,live_object.at)(expected, 'kind'))));
    if (!path)
        return { atRevision: true, reason: 'generation observed' };
    let compared = 0;
    for (const [field, label] of [
        ['initContainers', 'init container'],
        ['containers', 'container'],
    ]) {
        const want = (0,live_object/* list */.p_)((0,live_object.at)(expected, ...path, field), `expected ${field}`);
        const have = (0,live_object/* list */.p_)((0,live_object.at)(live, ...path, field), `live ${field}`);
        if (!want.ok)
            return { atRevision: false, reason: want.problem };
        if (!have.ok)
            return { atRevision: false, reason: have.problem };
        const liveImages = new Map();
        for (const container of have.value)
            liveImages.set((0,live_object/* str */.gx)((0,live_object.at)(container, 'name')), (0,live_object/* str */.gx)((0,live_object.at)(container, 'image')));
        for (const container of want.value) {
            const name = (0,live_object/* str */.gx)((0,live_object.at)(container, 'name'));
            const image = (0,live_object/* str */.gx)((0,live_object.at)(container, 'image'));
            if (!name || !image)
                continue;
            const liveImage = liveImages.get(name);
            if (liveImage === undefined)
                return { atRevision: false, reason: `no ${label} ${(0,live_object/* shortText */.os)(name)} yet` };
            if (liveImage !== image)
                return { atRevision: false, reason: `image still ${(0,live_object/* shortText */.os)(liveImage) || '(none)'} (${label} ${(0,live_object/* shortText */.os)(name)})` };
            compared++;
        }
    }
    return { atRevision: true, reason: compared === 1 ? 'image matches' : `${compared} images match` };
}
/**
 * One target's state: the manifest's object against the live one from the graph (undefined when
 * the graph has none). Absence proves nothing (not synced yet, edge gone), so a synced kind that
 * is absent is in progress; a kind outside the default sync list is 'unknown', since it may never
 * appear. A live object at old images is in progress however healthy: its health is the old one's.
 */
function rolloutState(expected, live, now) {
    const kind = (0,live_object/* str */.gx)((0,live_object.at)(expected, 'kind'));
    if (!(0,live_object/* isRecord */.u4)(expected) || !kind)
        return { state: 'unknown', reason: 'expected object has no kind' };
    const group = (0,live_object/* groupOf */.F8)(expected.apiVersion);
    if (live === undefined || live === null) {
        return syncedByDefault(group, kind)
            ? { state: 'in-progress', reason: 'not in the graph yet' }
            : { state: 'unknown', reason: `not synced by the graph (${(0,live_object/* shortText */.os)((0,live_object/* kindKey */._V)(group, kind))})` };
    }
    const health = computeHealth(live, now);
    if (health.status === 'terminating' || health.status === 'unknown')
        return { state: health.status, reason: health.reason };
    const revision = atExpectedRevision(expected, live);
    if (!revision.atRevision)
        return { state: 'in-progress', reason: revision.reason };
    if (health.status === 'current')
        return { state: 'rolled-out', reason: health.reason };
    return { state: health.status, reason: health.reason };
}

;// CONCATENATED MODULE: ./src/steps/rollout/observe.ts
/**
 * One look at the fleet: the engaged edges, then every target on every edge in as few queries
 * as the hub's caps allow (filters OR-ed, paged by edge), each row read as one edge × target
 * cell. Absence is never success (hub-behaviour.md §7): a target missing from an edge is "not
 * reporting", and a result the row cap cut is marked incomplete.
 */



/** Filters per query: entries are OR-ed, so one query reads many targets on every edge. */
const FILTERS_PER_QUERY = 200;
/** Rows per page: a projected workload is ~1.5 KiB, so a page stays far below the 16 MiB read cap. */
const PAGE_SIZE = 5_000;
/** A bound on rows per query: 200 targets on 1,000 edges. */
const MAX_ROWS = 200_000;
const IMAGES = { containers: { name: true, image: true }, initContainers: { name: true, image: true } };
/** The status fields the kstatus rules read: conditions without their timestamps, counts, revisions. */
const STATUS = {
    observedGeneration: true,
    conditions: { type: true, status: true, reason: true, message: true },
    ...Object.fromEntries([
        'replicas',
        'updatedReplicas',
        'readyReplicas',
        'availableReplicas',
        'currentReplicas',
        'fullyLabeledReplicas',
        'currentRevision',
        'updateRevision',
        'desiredNumberScheduled',
        'currentNumberScheduled',
        'updatedNumberScheduled',
        'numberAvailable',
        'numberReady',
        'phase',
        'active',
        'succeeded',
        'failed',
        'startTime',
        'loadBalancer',
    ].map((field) => [field, true])),
    containerStatuses: { name: true, state: true },
    initContainerStatuses: { name: true, state: true },
};
/** What the kstatus rules and the revision check read, and nothing else (no env, no volumes). */
const ROLLOUT_PROJECTION = {
    cluster: true,
    object: {
        apiVersion: true,
        kind: true,
        metadata: { name: true, namespace: true, generation: true, creationTimestamp: true, deletionTimestamp: true },
        spec: {
            replicas: true,
            progressDeadlineSeconds: true,
            updateStrategy: true,
            completions: true,
            parallelism: true,
            suspend: true,
            type: true,
            ...IMAGES,
            template: { spec: IMAGES },
            jobTemplate: { spec: { template: { spec: IMAGES } } },
        },
        status: STATUS,
    },
};
const rowKey = (group, kind, name) => `${group}\u0000${kind}\u0000${name}`;
/** The queries that read every target: one filter per distinct identity, FILTERS_PER_QUERY a query. */
function rolloutQueries(targets) {
    const filters = new Map();
    for (const { target } of targets) {
        const filter = {
            groupKind: { apiGroup: target.group, kind: target.kind },
            ...(target.namespace ? { namespace: target.namespace } : {}),
            name: target.name,
        };
        filters.set(JSON.stringify(filter), filter);
    }
    const all = [...filters.values()];
    const queries = [];
    for (let i = 0; i < all.length; i += FILTERS_PER_QUERY) {
        queries.push({ filter: { objects: all.slice(i, i + FILTERS_PER_QUERY) }, objects: ROLLOUT_PROJECTION });
    }
    return queries;
}
async function readSnapshot(graph, queries, signal) {
    const engaged = await graph.edges(signal);
    const snapshot = { engaged, live: new Map(), complete: true, warnings: [], requests: 1 };
    for (const spec of queries) {
        const paged = await graph.forEachPage(spec, { pageSize: PAGE_SIZE, maxObjects: MAX_ROWS, signal, operation: 'read the rollout targets' }, (rows) => {
            for (const row of rows) {
                const edge = (0,hub_graph/* edgeOf */.BQ)(row.cluster);
                const object = row.object;
                if (!edge || !object)
                    continue;
                const key = rowKey((0,live_object/* groupOf */.F8)(object.apiVersion), (0,live_object/* str */.gx)(object.kind), (0,live_object/* str */.gx)((0,live_object.at)(object, 'metadata', 'name')));
                let byKey = snapshot.live.get(edge);
                if (!byKey)
                    snapshot.live.set(edge, (byKey = new Map()));
                byKey.set(key, [...(byKey.get(key) ?? []), object]);
            }
        });
        snapshot.requests += paged.pages;
        if (paged.stoppedBy !== 'last-page')
            snapshot.complete = false;
        for (const warning of paged.warnings)
            if (!snapshot.warnings.includes(warning))
                snapshot.warnings.push(warning);
    }
    return snapshot;
}
/** Worst first: failed, not reporting, in progress, current. */
const STATE_RANK = { failed: 0, 'not-reporting': 1, 'in-progress': 2, current: 3 };
function worse(a, b) {
    return STATE_RANK[a] - STATE_RANK[b];
}
/** One target on one engaged edge, as this snapshot shows it. `now` ages unschedulable pods. */
function observeCell(target, edge, snapshot, now) {
    if (!snapshot.engaged.includes(edge))
        return { state: 'not-reporting', reason: 'edge not engaged' };
    const { group, kind, name, namespace } = target.target;
    const rows = (snapshot.live.get(edge)?.get(rowKey(group, kind, name)) ?? []).filter((object) => !namespace || (0,live_object/* str */.gx)((0,live_object.at)(object, 'metadata', 'namespace')) === namespace);
    if (rows.length === 0) {
        const absent = rolloutState(target.expected, undefined, now);
        // "not in the graph yet" for a synced kind; "not synced by the graph (…)" for a custom resource.
        const reason = absent.state === 'unknown' ? absent.reason : snapshot.complete ? 'not in the graph' : 'not in the graph (result cut by the row cap)';
        return { state: 'not-reporting', reason };
    }
    let worst;
    for (const object of rows) {
        const verdict = rolloutState(target.expected, object, now);
        const cell = verdict.state === 'rolled-out'
            ? { state: 'current', reason: verdict.reason }
            : verdict.state === 'failed'
                ? { state: 'failed', reason: verdict.reason }
                : { state: 'in-progress', reason: verdict.state === 'unknown' ? `unreadable: ${verdict.reason}` : verdict.reason };
        if (!worst || worse(cell.state, worst.state) < 0)
            worst = cell;
    }
    return worst;
}


/***/ })

};
