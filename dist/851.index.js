export const id = 851;
export const ids = [851];
export const modules = {

/***/ 3851:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  McpGraphClient: () => (/* binding */ McpGraphClient)
});

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 15 modules
var schemas = __webpack_require__(9691);
// EXTERNAL MODULE: ./src/redact.ts
var redact = __webpack_require__(6670);
// EXTERNAL MODULE: ./src/hub/errors.ts
var errors = __webpack_require__(4668);
// EXTERNAL MODULE: ./src/hub/http.ts
var http = __webpack_require__(4563);
// EXTERNAL MODULE: ./src/errors.ts
var src_errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/markdown/format.ts
var format = __webpack_require__(4370);
;// CONCATENATED MODULE: ./src/hub/mcp/json-rpc.ts
/**
 * JSON-RPC 2.0 as MCP carries it: the response shape, finding our answer among the messages a
 * server sends (notifications, requests, batches), and the error codes we read.
 */


const RpcId = schemas/* union */.KCZ([schemas/* string */.YjP(), schemas/* number */.aig(), schemas/* null */.chJ()]);
const RpcResponse = schemas/* looseObject */._H3({
    jsonrpc: schemas/* literal */.euz('2.0'),
    id: RpcId,
    result: schemas/* unknown */.L5J().optional(),
    error: schemas/* looseObject */._H3({ code: schemas/* number */.aig(), message: schemas/* string */.YjP(), data: schemas/* unknown */.L5J().optional() }).optional(),
});
/** JSON-RPC "request timed out", as MCP servers use it. */
const RPC_TIMEOUT_CODE = -32001;
/** The JSON-RPC response with our id in one JSON text (a message or a batch), if any. */
function findResponse(text, id) {
    let json;
    try {
        // Every string the server sends is redacted as it is received, before anything escapes or clips it.
        json = (0,redact/* redactValue */.FI)(JSON.parse(text));
    }
    catch (cause) {
        return { kind: 'not-json', cause };
    }
    let orphanError;
    for (const message of Array.isArray(json) ? json : [json]) {
        // Notifications and requests from the server (progress, logging) are not our answer.
        if (!message || typeof message !== 'object' || !('id' in message) || 'method' in message)
            continue;
        const parsed = RpcResponse.safeParse(message);
        if (!parsed.success)
            return { kind: 'bad-shape', error: parsed.error };
        const response = parsed.data;
        if (response.id === id)
            return { kind: 'found', response };
        // A server that could not read our id answers with a null one.
        if (response.id === null && response.error)
            orphanError = response;
    }
    return { kind: 'found', response: orphanError };
}
/** The aggregate's "unknown tool": a provider that failed discovery for this request has no tools. */
function isUnknownTool(error) {
    return (error.code === -32602 || error.code === 0) && error.message.toLowerCase().includes('unknown tool');
}
/** The text of a JSON-RPC error body (`{"jsonrpc":"2.0","error":{…},"id":null}`), as MCP servers refuse at the HTTP level. */
function rpcErrorText(answer) {
    if (!answer.contentType.toLowerCase().includes('json'))
        return undefined;
    try {
        const parsed = JSON.parse(answer.body);
        return typeof parsed.error?.message === 'string' ? (0,redact/* redact */.E$)(parsed.error.message) : undefined;
    }
    catch {
        return undefined;
    }
}

;// CONCATENATED MODULE: ./src/hub/mcp/failures.ts






/** The hub caps tool output at 256 KiB (§5); an answer far bigger than that is not the tool's. */
const ANSWER_LIMITS = Object.freeze({
    name: 'an MCP answer',
    maxBytes: 4 * 1024 * 1024,
    hint: "Reading stopped at the cap. Something other than the hub's MCP tool answered, or the server streamed without end: check `mcp-url` and any proxy in between.",
});
const PUBLISHED_URL = '…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp';
/** An HTTP refusal in the house wording, with hints that fit MCP. */
function refusal(answer, operation, where) {
    const context = { operation, subject: 'the MCP endpoint', org: where.org, workspace: where.workspace };
    // JSON-RPC error bodies (what MCP servers send with 400 and 404) carry their text under error.message.
    // The transport redacted the body already (a proxy may echo request headers), before any clip.
    const body = rpcErrorText(answer) ?? answer.body;
    const failure = (0,errors/* hubFailure */.uv)({ ...answer, contentType: body === answer.body ? answer.contentType : 'text/plain', body }, context);
    const { host, pathname } = where.url;
    const session = where.session;
    if (answer.status === 401) {
        return failure.with({
            hint: `The MCP endpoint at ${host} refused the token: the hub's aggregate takes any non-empty bearer, so the token was empty or a gateway in front of it refused it. Check \`token\` and \`mcp-url\` (\`cluster-id\` does nothing for the MCP source).`,
        }, errors/* HubAuthError */.qU);
    }
    if (answer.status === 403) {
        return failure.with({
            hint: `The MCP endpoint at ${host} refused this token: use a token of a user or service account with access to workspace ${where.workspace}, and check that \`mcp-url\` belongs to that workspace.`,
        }, errors/* HubAuthError */.qU);
    }
    if (answer.status === 400) {
        const tried = session ? ', also after the MCP initialize handshake' : where.handshakeRefused ? ', and refused the MCP initialize handshake too' : '';
        return failure.with({
            hint: session?.id
                ? 'The MCP server refused the call within its session: check that `mcp-url` is the MCP server URL the hub publishes, and report this with the server version.'
                : `The MCP endpoint refused the call as sent${tried}: check that \`mcp-url\` is the MCP server URL the hub publishes (${PUBLISHED_URL}). \`cluster-id\`, \`org\` and \`workspace\` do not change what the MCP endpoint accepts.`,
        }, errors/* HubRequestError */.r7);
    }
    if (failure instanceof errors/* HubNotFoundError */.DK) {
        return failure.with({
            hint: session?.id
                ? `The MCP server at ${host}${pathname} lost our session again right after a new one was started: check that \`mcp-url\` points at one server (not a pool without shared sessions), and try again.`
                : `No MCP endpoint at ${host}${pathname}: set \`mcp-url\` to the MCP server URL the hub publishes in its status (${PUBLISHED_URL}), and check that \`org\` and \`workspace\` name that workspace.`,
        });
    }
    if (failure instanceof errors/* HubProtocolError */.mT) {
        return failure.with({
            hint: "`mcp-url` seems to point at the portal rather than the hub's MCP endpoint: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).",
        });
    }
    return failure;
}
/** The server asked for a session with `first` (a 400), and the handshake failed with `error`. */
function handshakeFailed(operation, first, error) {
    return new errors/* HubProtocolError */.mT({
        operation,
        status: first.status,
        hubMessage: first.hubMessage,
        hint: `The server asked for an MCP session and the initialize handshake failed too (${(0,src_errors/* renderError */.v)(error)}). Check that \`mcp-url\` is the MCP server URL the hub publishes (${PUBLISHED_URL}).`,
        cause: error,
    });
}
/**
 * A JSON-RPC error, read by its code and its text: the aggregate wraps what the provider said
 * (bad arguments included) with code 0 and `provider "graph" tool "graph_impact": …` (§4).
 */
function rpcFailure(error, tool, operation) {
    const base = { operation, reason: `JSON-RPC ${error.code}`, hubMessage: said(error.message) };
    const message = error.message.toLowerCase();
    if (isUnknownTool(error)) {
        return new errors/* HubRequestError */.r7({
            ...base,
            hint: `The graph provider is not available on this MCP endpoint (it has no tool ${tool}, also when asked again): check that \`mcp-url\` is the MCP server URL of this workspace and that the graph provider is enabled there; a provider that failed discovery has no tools until it recovers.`,
        });
    }
    if (error.code === RPC_TIMEOUT_CODE || /timed? ?out|deadline/.test(message)) {
        return new errors/* HubServerError */.ZV({
            ...base,
            hint: "The graph provider did not answer within the hub's limit for forwarded MCP calls (15 s on today's hubs): try again; a lower `max-depth` makes the query cheaper.",
        });
    }
    if (error.code === -32601) {
        return new errors/* HubProtocolError */.mT({
            ...base,
            hint: 'The server at `mcp-url` does not offer MCP tools: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).',
        });
    }
    if (error.code === -32700 || error.code === -32600) {
        return new errors/* HubProtocolError */.mT({
            ...base,
            hint: "The MCP endpoint could not read the request: check that `mcp-url` is the hub's MCP endpoint, and report this with the hub version.",
        });
    }
    if (error.code === -32602 || (error.code === 0 && /invalid (input|param|argument)|unknown field|required|must be|validat/.test(message))) {
        return new errors/* HubRequestError */.r7({
            ...base,
            hint: 'The graph provider refused the tool arguments: check the target named in its message (`targets`, `manifests`, `namespace`) and `max-depth` (1 to 20); if they look right, the tool on this hub takes other arguments than this action sends: report it with the hub version.',
        });
    }
    if (error.code === 0) {
        return new errors/* HubServerError */.ZV({
            ...base,
            hint: 'The provider behind the MCP endpoint failed while handling the call (its message is above): try again; if it persists, report it to the hub administrators with the time of the failure.',
        });
    }
    return new errors/* HubServerError */.ZV({
        ...base,
        hint: 'The MCP endpoint failed while handling the call: try again; if it persists, report it to the hub administrators with the time of the failure.',
    });
}
/** The tool ran and said it failed (`isError`). */
function toolRefused(operation, text) {
    return new errors/* HubRequestError */.r7({
        operation,
        hubMessage: said(text?.trim() || 'the tool failed without saying why'),
        hint: 'The graph impact tool refused the request: check the object named in its message (`targets`, `manifests`, `namespace`) and `max-depth` (1 to 20).',
    });
}
/** One MCP call's budget ran out: a deadline, like any hub call's (the caller decides what it means). */
function deadlineFailure(operation, url, timeoutMs, cause) {
    return new errors/* HubDeadlineError */.og({
        operation,
        hint: `No answer from ${url.host} within ${Math.round(timeoutMs / 1000)} s, the budget of one MCP call: check that the hub is up and reachable from the runner, and that \`mcp-url\` is right.`,
        cause,
    });
}
/** The cap in MCP's words: what one MCP answer may be, and what the tool's output is at most. */
function tooLarge(error, cap) {
    return new errors/* HubProtocolError */.mT({
        operation: error.operation,
        status: error.status,
        hubMessage: `an answer larger than ${(0,format/* formatBytes */.z3)(cap.limits.maxBytes)}, the most this action reads from one MCP answer (the hub's tool output is at most 256 KiB)`,
        hint: ANSWER_LIMITS.hint,
        cause: cap,
    });
}
/** A 2xx answer that is neither an event stream nor JSON. */
function notMcp(operation, status, contentType) {
    const html = contentType.toLowerCase().includes('html');
    return new errors/* HubProtocolError */.mT({
        operation,
        status,
        hubMessage: html ? 'an HTML page instead of an MCP answer' : `a ${said(contentType, 100) || 'body without Content-Type'} instead of an MCP answer`,
        hint: html
            ? '`mcp-url` seems to point at the portal, not the MCP endpoint: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).'
            : "Something other than the hub's MCP endpoint answered: check `mcp-url` and any proxy in between.",
    });
}
function unsupportedProtocol(operation, version, supported) {
    return new errors/* HubProtocolError */.mT({
        operation,
        hubMessage: said(`protocol version ${version}`, 100),
        hint: `The MCP server at \`mcp-url\` speaks a protocol version this action does not (it speaks ${supported.join(', ')}): use the MCP server URL the hub publishes, or update the action.`,
    });
}
function malformed(operation, status, what, cause) {
    return new errors/* HubProtocolError */.mT({
        operation,
        status,
        hubMessage: what,
        hint: "The answer was cut or garbled on the way, or `mcp-url` is not the hub's MCP endpoint: try again, and check `mcp-url` and any proxy in between.",
        cause,
    });
}
function unexpected(operation, what, error, status) {
    const issues = error.issues
        .slice(0, 3)
        .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
        .join('; ');
    return new errors/* HubProtocolError */.mT({
        operation,
        status,
        hubMessage: said(`an unexpected ${what} (${issues})`),
        hint: 'The MCP endpoint speaks a different version of the tool than this action expects: check `mcp-url`, and report this with the hub version.',
        cause: error,
    });
}
/** The transport aborts an attempt at its ceiling: undici reports that as the signal's TimeoutError or an abort. */
function cutByTimeout(error) {
    const code = (0,http/* errorCode */.CA)(error);
    return ((error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) ||
        code === 'UND_ERR_HEADERS_TIMEOUT' ||
        code === 'UND_ERR_ABORTED');
}
/** Server text for a message: redacted (again: parsing may have decoded an escaped secret), then clipped. */
function said(text, max = 500) {
    return (0,errors/* clipText */.gL)((0,redact/* redact */.E$)(text), max);
}

;// CONCATENATED MODULE: ./src/hub/mcp/impact.ts
/**
 * The hub's graph impact tool (`graph__graph_impact`, hub-behaviour.md §4–§5): the arguments it
 * accepts, the words that name a call in messages, and its structured output read into ours.
 */


const IMPACT_TOOL = 'graph__graph_impact';
const Ref = schemas/* looseObject */._H3({
    edge: schemas/* string */.YjP().optional(),
    group: schemas/* string */.YjP().optional(),
    kind: schemas/* string */.YjP(),
    namespace: schemas/* string */.YjP().optional(),
    name: schemas/* string */.YjP(),
    relation: schemas/* string */.YjP(),
});
// Empty lists arrive as null; a server that omits them means the same.
const RefList = schemas/* array */.YOg(Ref).nullish();
const ImpactOutput = schemas/* looseObject */._H3({
    object: Ref.omit({ relation: true }),
    found: schemas/* boolean */.zMY(),
    impactedBy: RefList,
    impacts: RefList,
    associated: RefList,
    summary: schemas/* string */.YjP(),
});
/** Only the keys the tool accepts: it rejects extra ones, and undefined is not "absent" in JSON. */
function impactArguments(input) {
    const args = { kind: input.kind, name: input.name, group: input.group };
    if (input.namespace !== undefined)
        args.namespace = input.namespace;
    if (input.edge !== undefined)
        args.edge = input.edge;
    args.maxDepth = input.maxDepth;
    return args;
}
/** The call in a message's words: `get the impact of Deployment.apps shop/checkout from the MCP tool …`. */
function impactOperation(input) {
    const where = `${input.namespace ? `${input.namespace}/` : ''}${input.name}`;
    return `get the impact of ${input.group ? `${input.kind}.${input.group}` : input.kind} ${where}${input.edge ? ` on edge ${input.edge}` : ''} from the MCP tool ${IMPACT_TOOL}`;
}
/** The tool's structured output as ours; a shape we do not know is a protocol error. */
function readImpact(structured, operation) {
    const parsed = ImpactOutput.safeParse(structured);
    if (!parsed.success)
        throw unexpected(operation, 'tool output', parsed.error);
    const out = parsed.data;
    const { relation: _relation, ...object } = related({ ...out.object, relation: '' });
    return {
        found: out.found,
        object,
        upstream: (out.impactedBy ?? []).map(related),
        downstream: (out.impacts ?? []).map(related),
        associated: (out.associated ?? []).map(related),
        summary: out.summary,
    };
}
/** Normalise a tool reference: missing group is the core group "", absent keys stay absent. */
function related(ref) {
    const out = { group: ref.group ?? '', kind: ref.kind, name: ref.name, relation: ref.relation };
    if (ref.edge !== undefined)
        out.edge = ref.edge;
    if (ref.namespace !== undefined)
        out.namespace = ref.namespace;
    return out;
}

// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
;// CONCATENATED MODULE: ./src/hub/mcp/session.ts
/**
 * The MCP lifecycle, done only when a server asks for it. The hub's endpoint is stateless, so
 * a call goes out first without `initialize`; a server that wants a session answers that with
 * 400, and then the specification's handshake (`initialize`, `notifications/initialized`) runs
 * once, shared by every call in flight. Its `Mcp-Session-Id` and negotiated
 * `MCP-Protocol-Version` go with every later request.
 */




/** Sent before any handshake, and asked for in `initialize`. */
const MCP_PROTOCOL_VERSION = '2025-06-18';
/** What a server may answer in `initialize` (§4); the client reads all of them the same way. */
const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
/** `Mcp-Session-Id` is visible ASCII (MCP specification, Streamable HTTP). */
const SESSION_ID_RE = /^[\x21-\x7e]{1,1024}$/;
const InitializeResult = schemas/* looseObject */._H3({ protocolVersion: schemas/* string */.YjP() });
/** MCP's own headers; the transport adds the token, org, workspace and user agent. */
function mcpHeaders(session) {
    const headers = {
        // Streamable HTTP: the server answers 400 unless both are acceptable.
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': session?.protocolVersion ?? MCP_PROTOCOL_VERSION,
    };
    if (session?.id)
        headers['mcp-session-id'] = session.id;
    return headers;
}
class McpSession {
    deps;
    /** The handshake under way or done; undefined while the server has not asked for one. */
    session;
    /** The handshake is tried at most once per 400 without a session: a server that refuses it keeps refusing. */
    refused;
    constructor(deps) {
        this.deps = deps;
    }
    /** The session in use, if a handshake succeeded. */
    async current() {
        return this.session?.catch(() => undefined);
    }
    get handshakeRefused() {
        return this.refused !== undefined;
    }
    /** The session to end, forgotten here: later calls go without one. */
    async take() {
        const session = await this.current();
        this.session = undefined;
        return session;
    }
    /**
     * Start a session (or replace `stale`), shared by every call in flight. A handshake the
     * server refuses is reported together with the 400 that asked for it (`cause`).
     */
    async start(operation, budget, cause, stale) {
        const seen = this.session;
        const current = seen ? await seen.catch(() => undefined) : undefined;
        // Another call already started a session, or replaced the stale one: use that.
        if (current && current !== stale)
            return;
        if (this.session === seen && !this.refused) {
            this.session = this.handshake(operation, budget).catch((error) => {
                if (error instanceof errors/* HubError */.Ik)
                    this.refused = error;
                throw error;
            });
        }
        try {
            if (this.refused)
                throw this.refused;
            await this.session;
        }
        catch (error) {
            if (!(error instanceof errors/* HubError */.Ik))
                throw error;
            throw handshakeFailed(operation, this.deps.refusal(cause, operation, stale), error);
        }
    }
    /** `initialize` then `notifications/initialized` (MCP specification, lifecycle). */
    async handshake(operation, budget) {
        const { exchange, refusal } = this.deps;
        const what = `${operation} (MCP initialize)`;
        const init = await exchange({
            method: 'initialize',
            id: this.deps.nextId(),
            params: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'hub-action', version: version/* VERSION */.x } },
        }, what, budget, undefined);
        if (init.kind === 'refused')
            throw refusal(init, what, undefined);
        if (init.kind === 'accepted')
            throw malformed(what, 202, 'an acknowledgement without an answer to initialize');
        if (init.response.error)
            throw rpcFailure(init.response.error, 'initialize', what);
        const parsed = InitializeResult.safeParse(init.response.result);
        if (!parsed.success)
            throw unexpected(what, 'initialize result', parsed.error);
        const protocolVersion = parsed.data.protocolVersion;
        if (!SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion))
            throw unsupportedProtocol(what, protocolVersion, SUPPORTED_PROTOCOL_VERSIONS);
        const id = init.sessionId;
        if (id !== undefined && !SESSION_ID_RE.test(id))
            throw malformed(what, 200, 'an Mcp-Session-Id header with characters the specification does not allow');
        const session = { id, protocolVersion };
        const ready = await exchange({ method: 'notifications/initialized' }, what, budget, session);
        if (ready.kind === 'refused')
            throw refusal(ready, what, session);
        this.deps.log(`MCP: the server asked for a session; using ${id ? 'one' : 'none (it keeps no state)'} with protocol ${protocolVersion}.`);
        return session;
    }
}

;// CONCATENATED MODULE: ./src/hub/mcp/client.ts
/**
 * A small MCP client for the hub's aggregate endpoint (hub-behaviour.md §4) and any MCP
 * server that follows the specification, enough to call `graph__graph_impact`. It rides on the
 * hub's transport (token renewal, retries, caps, redaction) and keeps only MCP here: the
 * lifecycle (session.ts), JSON-RPC (json-rpc.ts), what failures mean (failures.ts) and the
 * tool itself (impact.ts). Answers may come as SSE or as plain JSON.
 *
 * Why not @modelcontextprotocol/sdk's client: measured here, it adds ~430 KB to dist/ (mostly
 * ajv) and ~120 ms of start-up for one request shape; it always does the full handshake, where
 * the hub's stateless endpoint needs none; and it has no response caps and no deadline shared by
 * the retries of one call. (Its transport does take a `fetch` option, so the proxy-aware
 * dispatcher is not the reason.) The e2e tests run this client against a server built from the SDK.
 */








/**
 * One call's budget. Before forwarding, the aggregate may spend 8 s on instructions and 8 s on
 * discovery; the forwarded call times out after 15 s today and 90 s after a pending hub change
 * (§4, §5). 110 s covers the longer one with room for the handshake.
 */
const CALL_BUDGET_MS = 110_000;
/**
 * Tool calls are read-only, so a lost connection, a gateway error or a 429 may be tried again
 * (decideRetry, as for hub calls); fewer and shorter waits than hub calls: a step asks many.
 */
const MCP_RETRY_POLICY = Object.freeze({ maxAttempts: 3, baseDelayMs: 300, maxDelayMs: 2_000, maxRetryAfterMs: 10_000 });
/** A provider that failed discovery for one request has no tools; the next request usually has them. */
const UNKNOWN_TOOL_RETRY_MS = 500;
/** Ending a session is a courtesy: it must not hold the step up. */
const CLOSE_TIMEOUT_MS = 5_000;
const CallToolResult = schemas/* looseObject */._H3({
    content: schemas/* array */.YOg(schemas/* looseObject */._H3({ type: schemas/* string */.YjP(), text: schemas/* string */.YjP().optional() })).default([]),
    structuredContent: schemas/* unknown */.L5J().optional(),
    isError: schemas/* boolean */.zMY().optional(),
});
class McpGraphClient {
    url;
    transport;
    timeoutMs;
    log;
    session;
    nextId = 1;
    closing;
    constructor(options) {
        this.url = options.url;
        this.transport = options.transport;
        this.timeoutMs = options.timeoutMs ?? CALL_BUDGET_MS;
        this.log = options.log ?? (() => { });
        this.session = new McpSession({
            exchange: (message, operation, budget, session) => this.exchange(message, operation, budget, session),
            refusal: (answer, operation, session) => this.refusal(answer, operation, session),
            nextId: () => this.nextId++,
            log: this.log,
        });
        // The session ends before the transport's connections close, whoever closes first.
        this.transport.onClose(() => this.close());
    }
    /** Upstream, downstream and associated objects of one object, from the hub's impact tool. */
    async impact(input, signal) {
        const operation = impactOperation(input);
        return readImpact(await this.callTool(IMPACT_TOOL, impactArguments(input), operation, signal), operation);
    }
    /** End the session, if the server gave one (a failure here changes nothing). The transport's owner closes the connections. */
    close() {
        this.closing ??= this.endSession();
        return this.closing;
    }
    async endSession() {
        const session = await this.session.take();
        if (!session?.id)
            return;
        try {
            await this.transport.stream({
                method: 'DELETE',
                url: this.url,
                headers: mcpHeaders(session),
                operation: 'end the MCP session',
                timeoutMs: CLOSE_TIMEOUT_MS,
                repeatable: false,
                limits: ANSWER_LIMITS,
                // 405: the server does not let clients end sessions, which the specification allows.
                returnStatus: [404, 405],
                policy: { ...MCP_RETRY_POLICY, maxAttempts: 1 },
                urlInput: 'mcp-url',
            });
        }
        catch (error) {
            this.log(error instanceof errors/* HubError */.Ik && error.status !== undefined
                ? `MCP: ending the session answered ${error.status}; the server will expire it.`
                : 'MCP: the session could not be ended; the server will expire it.');
        }
    }
    /** `tools/call` with the lifecycle; the transport retries; returns the tool's structured output. */
    async callTool(name, args, operation, signal) {
        const budget = { deadline: this.transport.clock() + this.timeoutMs, signal, label: `MCP: ${name}` };
        let renewed = false;
        let retriedUnknownTool = false;
        try {
            for (;;) {
                const session = await this.session.current();
                const request = { method: 'tools/call', id: this.nextId++, params: { name, arguments: args } };
                const answer = await this.exchange(request, operation, budget, session);
                if (answer.kind === 'response') {
                    const error = answer.response.error;
                    if (error && isUnknownTool(error) && !retriedUnknownTool) {
                        retriedUnknownTool = true;
                        this.log(`MCP: the endpoint does not list ${name} for this request (its provider may have failed discovery); trying once more.`);
                        await this.transport.pause(UNKNOWN_TOOL_RETRY_MS, signal);
                        if (signal?.aborted)
                            throw signal.reason;
                        continue;
                    }
                    return toolOutput(answer.response, name, operation);
                }
                if (answer.kind === 'accepted')
                    throw malformed(operation, 202, 'an acknowledgement without an answer to the call');
                if (answer.status === 400 && !session && !this.session.handshakeRefused) {
                    // Not the hub's stateless endpoint: a server that follows the specification's lifecycle.
                    await this.session.start(operation, budget, answer);
                    continue;
                }
                if (answer.status === 404 && session?.id && !renewed) {
                    // The session ended on the server (restart, expiry): the specification says start a new one.
                    renewed = true;
                    this.log('MCP: the server no longer knows our session (404); starting a new one.');
                    await this.session.start(operation, budget, answer, session);
                    continue;
                }
                throw this.refusal(answer, operation, session);
            }
        }
        catch (error) {
            if (!(error instanceof errors/* HubDeadlineError */.og))
                throw error;
            // A failure whose retry the budget cannot cover (a refusal, a refused connection) is that
            // failure; an attempt cut by the budget, or none left to make, is the budget.
            const last = error.cause;
            if (last instanceof errors/* HubError */.Ik && !cutByTimeout(last.cause))
                throw last;
            throw deadlineFailure(operation, this.url, this.timeoutMs, last ?? error);
        }
    }
    /**
     * One POST through the transport (retries, token renewal, caps, redaction). A request
     * resolves with its JSON-RPC response; a notification with `accepted`; a 400 or 404 (the
     * lifecycle's statuses) with the refused answer.
     */
    async exchange(message, operation, budget, session) {
        const id = message.id;
        const answer = await this.transport
            .stream({
            method: 'POST',
            url: this.url,
            headers: mcpHeaders(session),
            body: { jsonrpc: '2.0', ...message },
            operation,
            timeoutMs: this.timeoutMs,
            deadline: budget.deadline,
            signal: budget.signal,
            repeatable: true,
            limits: ANSWER_LIMITS,
            pick: id === undefined ? undefined : (text, status) => pickResponse(text, id, operation, status),
            returnStatus: [400, 404],
            refusal: (said) => this.refusal(said, operation, session),
            policy: MCP_RETRY_POLICY,
            label: budget.label,
            urlInput: 'mcp-url',
        })
            .catch((error) => {
            throw error instanceof errors/* HubProtocolError */.mT && error.cause instanceof http/* BodyCapError */.Rv ? tooLarge(error, error.cause) : error;
        });
        if (answer.kind === 'refused' || answer.kind === 'accepted')
            return answer;
        if (answer.kind === 'message') {
            if (answer.message)
                return { kind: 'response', response: answer.message, sessionId: (0,http/* headerValue */.Z)(answer.headers['mcp-session-id']).trim() || undefined };
            throw malformed(operation, answer.status, answer.format === 'sse' ? 'an event stream that ended without an answer to the call' : 'JSON without an answer to the call');
        }
        throw notMcp(operation, answer.status, answer.contentType);
    }
    refusal(answer, operation, session) {
        const { org, workspace } = this.transport.identity;
        return refusal(answer, operation, { url: this.url, org, workspace, session, handshakeRefused: this.session.handshakeRefused });
    }
}
/** Our JSON-RPC response in one message of the answer, if it is there; a message no server may send is a protocol error. */
function pickResponse(text, id, operation, status) {
    const found = findResponse(text, id);
    if (found.kind === 'not-json')
        throw malformed(operation, status, 'a message that is not valid JSON', found.cause);
    if (found.kind === 'bad-shape')
        throw unexpected(operation, 'JSON-RPC response', found.error, status);
    return found.response;
}
/** The tool's structured output, or its JSON text on servers of protocol 2024-11-05. */
function toolOutput(response, tool, operation) {
    if (response.error)
        throw rpcFailure(response.error, tool, operation);
    const parsed = CallToolResult.safeParse(response.result);
    if (!parsed.success)
        throw unexpected(operation, 'tools/call result', parsed.error);
    const result = parsed.data;
    const text = result.content.find((part) => part.type === 'text')?.text;
    if (result.isError)
        throw toolRefused(operation, text);
    if (result.structuredContent !== undefined)
        return result.structuredContent;
    if (text === undefined)
        throw malformed(operation, 200, 'a tool result without structuredContent or text');
    try {
        // The text was redacted as a string; parsing may decode escapes that spelled a secret.
        return (0,redact/* redactValue */.FI)(JSON.parse(text));
    }
    catch (cause) {
        throw malformed(operation, 200, 'a tool result whose text is not JSON', cause);
    }
}


/***/ })

};
