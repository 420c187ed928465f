export const id = 756;
export const ids = [756];
export const modules = {

/***/ 5756:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  McpGraphClient: () => (/* binding */ McpGraphClient)
});

// UNUSED EXPORTS: ANSWER_LIMITS, CALL_BUDGET_MS, IMPACT_TOOL, MCP_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS

// EXTERNAL MODULE: ./node_modules/zod/v4/classic/schemas.js + 15 modules
var schemas = __webpack_require__(9691);
// EXTERNAL MODULE: ./src/version.ts
var version = __webpack_require__(311);
// EXTERNAL MODULE: ./src/hub/errors.ts
var errors = __webpack_require__(4668);
// EXTERNAL MODULE: ./src/hub/failures.ts
var failures = __webpack_require__(6352);
// EXTERNAL MODULE: ./src/hub/http.ts
var http = __webpack_require__(4563);
// EXTERNAL MODULE: ./src/hub/retry.ts
var retry = __webpack_require__(4529);
;// CONCATENATED MODULE: ./src/hub/sse.ts
/**
 * Reading MCP answers off the wire: server-sent events incrementally, under the same byte cap
 * as any other body (http.ts), so an endless stream from an untrusted server cannot grow memory.
 */

/** Stop reading a body. undici reports destroying an unread body as an error event, which nobody needs. */
function discard(body) {
    body.on('error', () => { });
    body.destroy();
}
/**
 * The data of each SSE message event, read as chunks arrive, until `found` accepts one (the
 * stream is then closed: a server may hold it open) or the stream ends. More than
 * `limits.maxBytes` in all throws BodyCapError, whatever the server keeps sending.
 */
async function findInEventStream(body, limits, found) {
    const reader = new SseReader();
    let bytes = 0;
    try {
        for await (const chunk of body) {
            bytes += chunk.length;
            if (bytes > limits.maxBytes)
                throw new http/* BodyCapError */.Rv(limits, 'bytes');
            for (const data of reader.push(chunk)) {
                const match = found(data);
                if (match !== undefined)
                    return match;
            }
        }
        for (const data of reader.end()) {
            const match = found(data);
            if (match !== undefined)
                return match;
        }
        return undefined;
    }
    finally {
        discard(body);
    }
}
/**
 * Incremental text/event-stream parser (WHATWG HTML §9.2.6), yielding the data of
 * `message` events. Bytes are decoded in stream mode so a split UTF-8 sequence survives.
 * Events with empty data are skipped: MCP servers of protocol 2025-11-25 send one first to
 * prime resumption (an event id and nothing else), and it is no message.
 */
class SseReader {
    decoder = new TextDecoder();
    buffer = '';
    data = [];
    event = '';
    push(chunk) {
        this.buffer += this.decoder.decode(chunk, { stream: true });
        return this.drain(false);
    }
    end() {
        this.buffer += this.decoder.decode();
        return this.drain(true);
    }
    drain(final) {
        const out = [];
        for (;;) {
            const match = /\r\n|\r|\n/.exec(this.buffer);
            // A lone \r at the end may be the first half of \r\n: wait for the next chunk.
            if (!match || (!final && match[0] === '\r' && match.index === this.buffer.length - 1))
                break;
            const line = this.buffer.slice(0, match.index);
            this.buffer = this.buffer.slice(match.index + match[0].length);
            this.line(line, out);
        }
        // The stream ended mid-event: per the spec an unterminated event is dropped, but a
        // complete `data:` line without its blank line is still worth reading.
        if (final) {
            if (this.buffer)
                this.line(this.buffer, out);
            this.buffer = '';
            this.line('', out);
        }
        return out;
    }
    line(line, out) {
        if (line === '') {
            const data = this.data.join('\n');
            if (data.trim() !== '' && (this.event === '' || this.event === 'message'))
                out.push(data);
            this.data = [];
            this.event = '';
            return;
        }
        if (line.startsWith(':'))
            return;
        const colon = line.indexOf(':');
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? '' : line.slice(colon + 1);
        if (value.startsWith(' '))
            value = value.slice(1);
        if (field === 'data')
            this.data.push(value);
        else if (field === 'event')
            this.event = value;
    }
}

// EXTERNAL MODULE: ./src/hub/transport.ts
var transport = __webpack_require__(2382);
;// CONCATENATED MODULE: ./src/hub/mcp.ts









/** Sent before any handshake, and asked for in `initialize`. */
const MCP_PROTOCOL_VERSION = '2025-06-18';
/** What a server may answer in `initialize` (§4); the client reads all of them the same way. */
const SUPPORTED_PROTOCOL_VERSIONS = ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'];
const IMPACT_TOOL = 'graph__graph_impact';
/**
 * One call's budget. Before forwarding, the aggregate may spend 8 s on instructions and 8 s on
 * discovery; the forwarded call times out after 15 s today and 90 s after a pending hub change
 * (§4, §5). 110 s covers the longer one with room for the handshake.
 */
const CALL_BUDGET_MS = 110_000;
/** Tool calls are read-only, so a lost connection or a gateway error may be tried again. */
const MAX_ATTEMPTS = 3;
const RETRYABLE_STATUS = new Set([502, 503, 504]);
const RETRY_POLICY = { maxAttempts: MAX_ATTEMPTS, baseDelayMs: 300, maxDelayMs: 2_000, maxRetryAfterMs: 10_000 };
/** A provider that failed discovery for one request has no tools; the next request usually has them. */
const UNKNOWN_TOOL_RETRY_MS = 500;
/** The hub caps tool output at 256 KiB (§5); an answer far bigger than that is not the tool's. */
const ANSWER_LIMITS = Object.freeze({ name: 'an MCP answer', maxBytes: 4 * 1024 * 1024 });
/** Refusals end up clipped in a message: the first 64 KiB say all there is. */
const REFUSAL_LIMITS = Object.freeze({ name: 'an MCP refusal', maxBytes: 64 * 1024 });
/** Ending a session is a courtesy: it must not hold the step up. */
const CLOSE_TIMEOUT_MS = 5_000;
/** JSON-RPC "request timed out", as MCP servers use it. */
const RPC_TIMEOUT_CODE = -32001;
/** `Mcp-Session-Id` is visible ASCII (MCP specification, Streamable HTTP). */
const SESSION_ID_RE = /^[\x21-\x7e]{1,1024}$/;
// ---------------------------------------------------------------------------
// Wire schemas
const RpcId = schemas/* union */.KCZ([schemas/* string */.YjP(), schemas/* number */.aig(), schemas/* null */.chJ()]);
const RpcResponse = schemas/* looseObject */._H3({
    jsonrpc: schemas/* literal */.euz('2.0'),
    id: RpcId,
    result: schemas/* unknown */.L5J().optional(),
    error: schemas/* looseObject */._H3({ code: schemas/* number */.aig(), message: schemas/* string */.YjP(), data: schemas/* unknown */.L5J().optional() }).optional(),
});
const InitializeResult = schemas/* looseObject */._H3({ protocolVersion: schemas/* string */.YjP() });
const CallToolResult = schemas/* looseObject */._H3({
    content: schemas/* array */.YOg(schemas/* looseObject */._H3({ type: schemas/* string */.YjP(), text: schemas/* string */.YjP().optional() })).default([]),
    structuredContent: schemas/* unknown */.L5J().optional(),
    isError: schemas/* boolean */.zMY().optional(),
});
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
class McpGraphClient {
    url;
    token;
    org;
    workspace;
    dispatcher;
    ownsDispatcher;
    timeoutMs;
    log;
    nextId = 1;
    /** The handshake under way or done; undefined while the server has not asked for one. */
    session;
    /** The handshake is tried at most once per 400 without a session: a server that refuses it keeps refusing. */
    handshakeRefused;
    constructor(options) {
        this.url = options.url;
        this.token = options.token;
        this.org = options.org;
        this.workspace = options.workspace;
        this.ownsDispatcher = options.dispatcher === undefined;
        this.dispatcher = options.dispatcher ?? (0,http/* defaultDispatcher */.bA)();
        this.timeoutMs = options.timeoutMs ?? CALL_BUDGET_MS;
        this.log = options.log ?? (() => { });
    }
    /** Upstream, downstream and associated objects of one object, from the hub's impact tool. */
    async impact(input, signal) {
        // Only the keys the tool accepts: it rejects extra ones, and undefined is not "absent" in JSON.
        const args = { kind: input.kind, name: input.name, group: input.group };
        if (input.namespace !== undefined)
            args.namespace = input.namespace;
        if (input.edge !== undefined)
            args.edge = input.edge;
        args.maxDepth = input.maxDepth;
        const where = `${input.namespace ? `${input.namespace}/` : ''}${input.name}`;
        const operation = `get the impact of ${input.group ? `${input.kind}.${input.group}` : input.kind} ${where}${input.edge ? ` on edge ${input.edge}` : ''} from the MCP tool ${IMPACT_TOOL}`;
        const structured = await this.callTool(IMPACT_TOOL, args, operation, signal);
        const parsed = ImpactOutput.safeParse(structured);
        if (!parsed.success)
            throw this.unexpected(operation, 'tool output', parsed.error);
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
    /** End the session, if the server gave one (a failure here changes nothing), and release the connections. */
    async close() {
        const session = await this.session?.catch(() => undefined);
        this.session = undefined;
        if (session?.id) {
            try {
                const response = await (0,http/* send */.tN)(this.dispatcher, this.url, {
                    method: 'DELETE',
                    headers: this.headers(session),
                    signal: AbortSignal.timeout(CLOSE_TIMEOUT_MS),
                    headersTimeout: 0,
                    bodyTimeout: 0,
                });
                discard(response.body);
                // 405: the server does not let clients end sessions, which the specification allows.
                if (response.statusCode >= 400 && response.statusCode !== 405 && response.statusCode !== 404) {
                    this.log(`MCP: ending the session answered ${response.statusCode}; the server will expire it.`);
                }
            }
            catch {
                this.log('MCP: the session could not be ended; the server will expire it.');
            }
        }
        if (this.ownsDispatcher)
            await this.dispatcher.close();
    }
    /** `tools/call` with the lifecycle and retries; returns the tool's structured output. */
    async callTool(name, args, operation, signal) {
        const deadline = AbortSignal.timeout(this.timeoutMs);
        const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
        const started = Date.now();
        let renewed = false;
        let retriedUnknownTool = false;
        for (let attempt = 1;;) {
            let failure;
            let retryAfter;
            try {
                const session = await this.session?.catch(() => undefined);
                const request = { method: 'tools/call', id: this.nextId++, params: { name, arguments: args } };
                const answer = await this.exchange(request, operation, combined, session);
                if (answer.kind === 'response') {
                    const error = answer.response.error;
                    if (error && isUnknownTool(error) && !retriedUnknownTool) {
                        retriedUnknownTool = true;
                        this.log(`MCP: the endpoint does not list ${name} for this request (its provider may have failed discovery); trying once more.`);
                        await (0,transport/* abortableSleep */.Mf)(UNKNOWN_TOOL_RETRY_MS, combined);
                        continue;
                    }
                    return this.toolOutput(answer.response, name, operation);
                }
                if (answer.kind === 'accepted')
                    throw this.malformed(operation, 202, 'an acknowledgement without an answer to the call');
                if (answer.status === 400 && !session && !this.handshakeRefused) {
                    // Not the hub's stateless endpoint: a server that follows the specification's lifecycle.
                    await this.startSession(operation, combined, answer);
                    continue;
                }
                if (answer.status === 404 && session?.id && !renewed) {
                    // The session ended on the server (restart, expiry): the specification says start a new one.
                    renewed = true;
                    this.log('MCP: the server no longer knows our session (404); starting a new one.');
                    await this.startSession(operation, combined, answer, session);
                    continue;
                }
                failure = this.refusal(answer, operation, session);
                if (!RETRYABLE_STATUS.has(answer.status))
                    throw failure;
                retryAfter = answer.retryAfter;
            }
            catch (error) {
                if (signal?.aborted)
                    throw signal.reason ?? error;
                if (error instanceof errors/* HubError */.Ik)
                    throw this.redactError(error);
                if (deadline.aborted)
                    throw this.timeoutFailure(operation, error);
                failure = this.connectionFailure(error, operation);
                if (transport/* PERMANENT_CONNECTION_CODES */.hD.has((0,http/* errorCode */.CA)(error) ?? ''))
                    throw failure;
            }
            if (attempt >= MAX_ATTEMPTS)
                throw failure;
            let delayMs = (0,retry/* backoffDelay */.EY)(attempt, RETRY_POLICY, Math.random);
            const asked = retryAfter === undefined ? undefined : (0,retry/* parseRetryAfter */.mu)(retryAfter, Date.now());
            if (asked !== undefined)
                delayMs = Math.max(asked, 0);
            // A wait the call's budget cannot cover only delays the same failure.
            if (delayMs > RETRY_POLICY.maxRetryAfterMs || Date.now() - started + delayMs >= this.timeoutMs)
                throw failure;
            this.log(this.redact(`MCP: ${name} ${failure.status ? `answered ${failure.status}` : 'lost its connection'}; retry ${attempt}/${MAX_ATTEMPTS - 1} in ${(delayMs / 1000).toFixed(1)} s`));
            attempt++;
            await (0,transport/* abortableSleep */.Mf)(delayMs, combined);
            if (signal?.aborted)
                throw signal.reason;
            if (deadline.aborted)
                throw this.timeoutFailure(operation, deadline.reason);
        }
    }
    /**
     * Start a session (or replace `stale`), shared by every call in flight. A handshake the
     * server refuses is reported together with the 400 that asked for it.
     */
    async startSession(operation, signal, cause, stale) {
        const seen = this.session;
        const current = seen ? await seen.catch(() => undefined) : undefined;
        // Another call already started a session, or replaced the stale one: use that.
        if (current && current !== stale)
            return;
        if (this.session === seen && !this.handshakeRefused) {
            this.session = this.handshake(operation, signal).catch((error) => {
                if (error instanceof errors/* HubError */.Ik)
                    this.handshakeRefused = error;
                throw error;
            });
        }
        try {
            if (this.handshakeRefused)
                throw this.handshakeRefused;
            await this.session;
        }
        catch (error) {
            if (!(error instanceof errors/* HubError */.Ik))
                throw error;
            const first = this.refusal(cause, operation, stale);
            throw new errors/* HubProtocolError */.mT({
                operation,
                status: first.status,
                hubMessage: first.hubMessage,
                hint: `The server asked for an MCP session and the initialize handshake failed too (${error.message}). Check that \`mcp-url\` is the MCP server URL the hub publishes (…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp).`,
                cause: error,
            });
        }
    }
    /** `initialize` then `notifications/initialized` (MCP specification, lifecycle). */
    async handshake(operation, signal) {
        const what = `${operation} (MCP initialize)`;
        const init = await this.exchange({
            method: 'initialize',
            id: this.nextId++,
            params: { protocolVersion: MCP_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'hub-action', version: version/* VERSION */.x } },
        }, what, signal, undefined);
        if (init.kind === 'refused')
            throw this.refusal(init, what, undefined);
        if (init.kind === 'accepted')
            throw this.malformed(what, 202, 'an acknowledgement without an answer to initialize');
        if (init.response.error)
            throw this.rpcFailure(init.response.error, 'initialize', what);
        const parsed = InitializeResult.safeParse(init.response.result);
        if (!parsed.success)
            throw this.unexpected(what, 'initialize result', parsed.error);
        const protocolVersion = parsed.data.protocolVersion;
        if (!SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion)) {
            throw new errors/* HubProtocolError */.mT({
                operation: what,
                hubMessage: clip(`protocol version ${this.redact(protocolVersion)}`, 100),
                hint: `The MCP server at \`mcp-url\` speaks a protocol version this action does not (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}): use the MCP server URL the hub publishes, or update the action.`,
            });
        }
        const id = init.sessionId;
        if (id !== undefined && !SESSION_ID_RE.test(id))
            throw this.malformed(what, 200, 'an Mcp-Session-Id header with characters the specification does not allow');
        const session = { id, protocolVersion };
        const ready = await this.exchange({ method: 'notifications/initialized' }, what, signal, session);
        if (ready.kind === 'refused')
            throw this.refusal(ready, what, session);
        this.log(`MCP: the server asked for a session; using ${id ? 'one' : 'none (it keeps no state)'} with protocol ${protocolVersion}.`);
        return session;
    }
    headers(session) {
        const headers = {
            authorization: `Bearer ${this.token}`,
            'x-hub-org': this.org,
            'x-hub-workspace': this.workspace,
            // Streamable HTTP: the server answers 400 unless both are acceptable.
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': session?.protocolVersion ?? MCP_PROTOCOL_VERSION,
            'user-agent': `hub-action/${version/* VERSION */.x}`,
        };
        if (session?.id)
            headers['mcp-session-id'] = session.id;
        return headers;
    }
    /** One POST. A request resolves with its JSON-RPC response; a notification with `accepted`; or the refused HTTP answer. */
    async exchange(message, operation, signal, session) {
        const response = await (0,http/* send */.tN)(this.dispatcher, this.url, {
            method: 'POST',
            headers: { ...this.headers(session), 'content-type': 'application/json' },
            body: JSON.stringify({ jsonrpc: '2.0', ...message }),
            signal,
            // The AbortSignal is the ceiling; undici's own timers must not cut it shorter.
            headersTimeout: 0,
            bodyTimeout: 0,
        });
        const status = response.statusCode;
        const contentType = (0,http/* headerValue */.Z)(response.headers['content-type']);
        if (status < 200 || status >= 300) {
            const body = await (0,http/* readCapped */.EF)(response.body, REFUSAL_LIMITS, { truncate: true });
            return { kind: 'refused', status, contentType, body, retryAfter: (0,http/* headerValue */.Z)(response.headers['retry-after']) || undefined };
        }
        if (message.id === undefined) {
            discard(response.body);
            return { kind: 'accepted' };
        }
        const sessionId = (0,http/* headerValue */.Z)(response.headers['mcp-session-id']).trim() || undefined;
        const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
        const id = message.id;
        try {
            if (type === 'text/event-stream') {
                // Read events as they come and stop at our answer: a server may hold the stream open.
                const found = await findInEventStream(response.body, ANSWER_LIMITS, (data) => this.match(data, id, operation, status));
                if (found)
                    return { kind: 'response', response: found, sessionId };
                throw this.malformed(operation, status, 'an event stream that ended without an answer to the call');
            }
            if (type === 'application/json' || type.endsWith('+json')) {
                const found = this.match(await (0,http/* readCapped */.EF)(response.body, ANSWER_LIMITS), id, operation, status);
                if (found)
                    return { kind: 'response', response: found, sessionId };
                throw this.malformed(operation, status, 'JSON without an answer to the call');
            }
        }
        catch (error) {
            if (error instanceof http/* BodyCapError */.Rv)
                throw this.tooLarge(operation, status, error.limits.maxBytes);
            throw error;
        }
        discard(response.body);
        const html = type.includes('html');
        throw new errors/* HubProtocolError */.mT({
            operation,
            status,
            hubMessage: html ? 'an HTML page instead of an MCP answer' : `a ${clip(contentType, 100) || 'body without Content-Type'} instead of an MCP answer`,
            hint: html
                ? '`mcp-url` seems to point at the portal, not the MCP endpoint: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).'
                : "Something other than the hub's MCP endpoint answered: check `mcp-url` and any proxy in between.",
        });
    }
    /** The JSON-RPC response with our id in one JSON text (a message or a batch), if any. */
    match(text, id, operation, status) {
        let json;
        try {
            json = JSON.parse(text);
        }
        catch (cause) {
            throw this.malformed(operation, status, 'a message that is not valid JSON', cause);
        }
        let orphanError;
        for (const message of Array.isArray(json) ? json : [json]) {
            // Notifications and requests from the server (progress, logging) are not our answer.
            if (!message || typeof message !== 'object' || !('id' in message) || 'method' in message)
                continue;
            const parsed = RpcResponse.safeParse(message);
            if (!parsed.success)
                throw this.unexpected(operation, 'JSON-RPC response', parsed.error, status);
            const response = parsed.data;
            if (response.id === id)
                return response;
            // A server that could not read our id answers with a null one.
            if (response.id === null && response.error)
                orphanError = response;
        }
        return orphanError;
    }
    toolOutput(response, tool, operation) {
        if (response.error)
            throw this.rpcFailure(response.error, tool, operation);
        const parsed = CallToolResult.safeParse(response.result);
        if (!parsed.success)
            throw this.unexpected(operation, 'tools/call result', parsed.error);
        const result = parsed.data;
        const text = result.content.find((part) => part.type === 'text')?.text;
        if (result.isError) {
            throw new errors/* HubRequestError */.r7({
                operation,
                hubMessage: this.said(text?.trim() || 'the tool failed without saying why'),
                hint: 'The graph impact tool refused the request: check the object named in its message (`targets`, `manifests`, `namespace`) and `max-depth` (1 to 20).',
            });
        }
        if (result.structuredContent !== undefined)
            return result.structuredContent;
        // Servers on protocol 2024-11-05 only send the JSON as text.
        if (text === undefined)
            throw this.malformed(operation, 200, 'a tool result without structuredContent or text');
        try {
            return JSON.parse(text);
        }
        catch (cause) {
            throw this.malformed(operation, 200, 'a tool result whose text is not JSON', cause);
        }
    }
    /**
     * A JSON-RPC error, read by its code and its text: the aggregate wraps what the provider said
     * (bad arguments included) with code 0 and `provider "graph" tool "graph_impact": …` (§4).
     */
    rpcFailure(error, tool, operation) {
        const base = { operation, reason: `JSON-RPC ${error.code}`, hubMessage: this.said(error.message) };
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
    /** An HTTP refusal in the house wording, with hints that fit MCP (`mcp-url`, never `cluster-id`). */
    refusal(answer, operation, session) {
        const context = { operation, subject: 'the MCP endpoint', org: this.org, workspace: this.workspace };
        // JSON-RPC error bodies (what MCP servers send with 400 and 404) carry their text under error.message.
        const body = rpcErrorText(answer) ?? answer.body;
        // Redact before the body becomes hubMessage: a proxy may echo request headers.
        const failure = (0,failures/* hubFailure */.u)({ ...answer, contentType: body === answer.body ? answer.contentType : 'text/plain', body: this.redact(body) }, context);
        const endpoint = `${this.url.host}${this.url.pathname}`;
        if (answer.status === 401) {
            return rehint(failure, `The MCP endpoint at ${this.url.host} refused the token: the hub's aggregate takes any non-empty bearer, so the token was empty or a gateway in front of it refused it. Check \`token\` and \`mcp-url\` (\`cluster-id\` does nothing for the MCP source).`, errors/* HubAuthError */.qU);
        }
        if (answer.status === 403) {
            return rehint(failure, `The MCP endpoint at ${this.url.host} refused this token: use a token of a user or service account with access to workspace ${this.workspace}, and check that \`mcp-url\` belongs to that workspace.`, errors/* HubAuthError */.qU);
        }
        if (answer.status === 400) {
            const tried = session ? ', also after the MCP initialize handshake' : this.handshakeRefused ? ', and refused the MCP initialize handshake too' : '';
            return rehint(failure, session?.id
                ? 'The MCP server refused the call within its session: check that `mcp-url` is the MCP server URL the hub publishes, and report this with the server version.'
                : `The MCP endpoint refused the call as sent${tried}: check that \`mcp-url\` is the MCP server URL the hub publishes (…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp). \`cluster-id\`, \`org\` and \`workspace\` do not change what the MCP endpoint accepts.`, errors/* HubRequestError */.r7);
        }
        if (failure instanceof errors/* HubNotFoundError */.DK) {
            return rehint(failure, session?.id
                ? `The MCP server at ${endpoint} lost our session again right after a new one was started: check that \`mcp-url\` points at one server (not a pool without shared sessions), and try again.`
                : `No MCP endpoint at ${endpoint}: set \`mcp-url\` to the MCP server URL the hub publishes in its status (…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp), and check that \`org\` and \`workspace\` name that workspace.`);
        }
        if (failure instanceof errors/* HubProtocolError */.mT) {
            return rehint(failure, "`mcp-url` seems to point at the portal rather than the hub's MCP endpoint: use the MCP server URL the hub publishes (…/services/mcpserver/…/mcp).");
        }
        return failure;
    }
    connectionFailure(error, operation) {
        const code = (0,http/* errorCode */.CA)(error);
        const host = this.url.host;
        let hint;
        if (code && code.includes('CERT')) {
            hint = `TLS verification of ${host} failed (${code}): for a hub with a private CA, point NODE_EXTRA_CA_CERTS at the CA bundle in the step's env.`;
        }
        else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
            hint = `The host ${host} could not be resolved: check \`mcp-url\`, and HTTPS_PROXY/NO_PROXY on self-hosted runners.`;
        }
        else {
            hint = `The connection to ${host} failed${code ? ` (${code})` : ''}: check \`mcp-url\`, the network and any proxy (HTTPS_PROXY/NO_PROXY).`;
        }
        return this.redactError(new errors/* HubConnectionError */.IY({ operation, hint, cause: error }));
    }
    timeoutFailure(operation, cause) {
        return new errors/* HubConnectionError */.IY({
            operation,
            hint: `No answer from ${this.url.host} within ${Math.round(this.timeoutMs / 1000)} s, the budget of one MCP call: check that the hub is up and reachable from the runner, and that \`mcp-url\` is right.`,
            cause,
        });
    }
    tooLarge(operation, status, capBytes) {
        return new errors/* HubProtocolError */.mT({
            operation,
            status,
            hubMessage: `an answer larger than ${(0,http/* formatBytes */.z3)(capBytes)}, the most this action reads from one MCP answer (the hub's tool output is at most 256 KiB)`,
            hint: "Reading stopped at the cap. Something other than the hub's MCP tool answered, or the server streamed without end: check `mcp-url` and any proxy in between.",
        });
    }
    malformed(operation, status, what, cause) {
        return new errors/* HubProtocolError */.mT({
            operation,
            status,
            hubMessage: what,
            hint: "The answer was cut or garbled on the way, or `mcp-url` is not the hub's MCP endpoint: try again, and check `mcp-url` and any proxy in between.",
            cause,
        });
    }
    unexpected(operation, what, error, status) {
        const issues = error.issues
            .slice(0, 3)
            .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
            .join('; ');
        return new errors/* HubProtocolError */.mT({
            operation,
            status,
            hubMessage: this.said(`an unexpected ${what} (${issues})`),
            hint: 'The MCP endpoint speaks a different version of the tool than this action expects: check `mcp-url`, and report this with the hub version.',
            cause: error,
        });
    }
    /** Server text for a message: redacted first, then clipped, so a clip never splits a token into view. */
    said(text) {
        return clip(this.redact(text));
    }
    /** Replace the token, and its JSON- and URL-encoded forms, wherever they might appear in text bound for a log or a message. */
    redact(text) {
        let out = text;
        if (this.token) {
            const forms = new Set([this.token, JSON.stringify(this.token).slice(1, -1), encodeURIComponent(this.token)]);
            // Longest first, so a form that contains another is replaced whole.
            for (const form of [...forms].sort((a, b) => b.length - a.length))
                out = out.split(form).join('***');
        }
        return out.replace(/(Bearer\s+)[^\s"']+/gi, '$1***');
    }
    redactError(error) {
        const redacted = this.redact(error.message);
        if (redacted !== error.message)
            error.message = redacted;
        return error;
    }
}
function isUnknownTool(error) {
    return (error.code === -32602 || error.code === 0) && error.message.toLowerCase().includes('unknown tool');
}
/** The text of a JSON-RPC error body (`{"jsonrpc":"2.0","error":{…},"id":null}`), as MCP servers refuse at the HTTP level. */
function rpcErrorText(answer) {
    if (!answer.contentType.toLowerCase().includes('json'))
        return undefined;
    try {
        const parsed = JSON.parse(answer.body);
        return typeof parsed.error?.message === 'string' ? parsed.error.message : undefined;
    }
    catch {
        return undefined;
    }
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
/** The same fields with another hint (HubError's message is built once), as `Kind` or the same class. */
function rehint(error, hint, Kind) {
    const As = Kind ?? error.constructor;
    return new As({
        operation: error.operation,
        status: error.status,
        reason: error.reason,
        hubMessage: error.hubMessage,
        hint,
        cause: error.cause,
    });
}
function clip(text, max = 500) {
    return text.length > max ? `${text.slice(0, max)}…` : text;
}


/***/ })

};
