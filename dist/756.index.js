export const id = 756;
export const ids = [756];
export const modules = {

/***/ 5756:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {


// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  McpGraphClient: () => (/* binding */ McpGraphClient)
});

// UNUSED EXPORTS: IMPACT_TOOL, MCP_PROTOCOL_VERSION

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
/** Server-sent events, read incrementally: the MCP endpoint answers JSON-RPC as an SSE stream. */
/**
 * Incremental text/event-stream parser (WHATWG HTML §9.2.6), yielding the data of
 * `message` events. Bytes are decoded in stream mode so a split UTF-8 sequence survives.
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
            if (this.data.length > 0 && (this.event === '' || this.event === 'message'))
                out.push(this.data.join('\n'));
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








const MCP_PROTOCOL_VERSION = '2025-06-18';
const IMPACT_TOOL = 'graph__graph_impact';
const DEFAULT_TIMEOUT_MS = 30_000;
/** Tool calls are read-only, so a lost connection or a gateway error may be tried again. */
const MAX_ATTEMPTS = 3;
const RETRYABLE_STATUS = new Set([502, 503, 504]);
const RETRY_POLICY = { maxAttempts: MAX_ATTEMPTS, baseDelayMs: 300, maxDelayMs: 2_000, maxRetryAfterMs: 10_000 };
/** The hub caps tool output at 256 KiB (§5); an answer far bigger than that is not the tool's. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** JSON-RPC "request timed out", as MCP servers use it. */
const RPC_TIMEOUT_CODE = -32001;
// ---------------------------------------------------------------------------
// Wire schemas
const RpcId = schemas/* union */.KCZ([schemas/* string */.YjP(), schemas/* number */.aig(), schemas/* null */.chJ()]);
const RpcResponse = schemas/* looseObject */._H3({
    jsonrpc: schemas/* literal */.euz('2.0'),
    id: RpcId,
    result: schemas/* unknown */.L5J().optional(),
    error: schemas/* looseObject */._H3({ code: schemas/* number */.aig(), message: schemas/* string */.YjP(), data: schemas/* unknown */.L5J().optional() }).optional(),
});
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
    constructor(options) {
        this.url = options.url;
        this.token = options.token;
        this.org = options.org;
        this.workspace = options.workspace;
        this.ownsDispatcher = options.dispatcher === undefined;
        this.dispatcher = options.dispatcher ?? (0,http/* defaultDispatcher */.bA)();
        this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
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
    async close() {
        if (this.ownsDispatcher)
            await this.dispatcher.close();
    }
    /** `tools/call` with retries; returns the tool's structured output. */
    async callTool(name, args, operation, signal) {
        const deadline = AbortSignal.timeout(this.timeoutMs);
        const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
        const started = Date.now();
        // No `initialize` first: the endpoint is stateless and accepts calls without it (§4),
        // which saves a round trip per call.
        const id = this.nextId++;
        const request = { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
        for (let attempt = 1;; attempt++) {
            let failure;
            let retryAfter;
            try {
                const answer = await this.post(request, operation, combined);
                if (answer.kind === 'response')
                    return this.toolOutput(answer.response, name, operation);
                failure = this.refusal(answer, operation);
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
            await (0,transport/* abortableSleep */.Mf)(delayMs, combined);
            if (signal?.aborted)
                throw signal.reason;
            if (deadline.aborted)
                throw this.timeoutFailure(operation, deadline.reason);
        }
    }
    /** One POST. Resolves with the JSON-RPC response to `request`, or the refused HTTP answer. */
    async post(request, operation, signal) {
        const response = await (0,http/* send */.tN)(this.dispatcher, this.url, {
            method: 'POST',
            headers: {
                authorization: `Bearer ${this.token}`,
                'x-hub-org': this.org,
                'x-hub-workspace': this.workspace,
                // Streamable HTTP: the server answers 400 unless both are acceptable.
                accept: 'application/json, text/event-stream',
                'content-type': 'application/json',
                'mcp-protocol-version': MCP_PROTOCOL_VERSION,
                'user-agent': `hub-action/${version/* VERSION */.x}`,
            },
            body: JSON.stringify(request),
            signal,
            // The AbortSignal is the ceiling; undici's own timers must not cut it shorter.
            headersTimeout: 0,
            bodyTimeout: 0,
        });
        const status = response.statusCode;
        const contentType = (0,http/* headerValue */.Z)(response.headers['content-type']);
        if (status < 200 || status >= 300) {
            // Refusals end up clipped in a message: the first 64 KiB say all there is.
            const { text: body } = await readText(response.body, 64 * 1024);
            return { kind: 'refused', status, contentType, body, retryAfter: (0,http/* headerValue */.Z)(response.headers['retry-after']) || undefined };
        }
        const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
        if (type === 'text/event-stream') {
            // Read frames as they come and stop at our answer: a server may hold the stream open.
            const reader = new SseReader();
            let bytes = 0;
            for await (const chunk of response.body) {
                bytes += chunk.length;
                if (bytes > MAX_BODY_BYTES)
                    throw this.malformed(operation, status, `an event stream larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
                for (const data of reader.push(chunk)) {
                    const found = this.match(data, request.id, operation, status);
                    if (found) {
                        response.body.destroy();
                        return { kind: 'response', response: found };
                    }
                }
            }
            for (const data of reader.end()) {
                const found = this.match(data, request.id, operation, status);
                if (found)
                    return { kind: 'response', response: found };
            }
            throw this.malformed(operation, status, 'an event stream that ended without an answer to the call');
        }
        const { text: body, truncated } = await readText(response.body, MAX_BODY_BYTES);
        if (type === 'application/json' || type.endsWith('+json')) {
            if (truncated)
                throw this.malformed(operation, status, `a JSON answer larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
            const found = this.match(body, request.id, operation, status);
            if (found)
                return { kind: 'response', response: found };
            throw this.malformed(operation, status, 'JSON without an answer to the call');
        }
        const html = type.includes('html');
        throw new errors/* HubProtocolError */.mT({
            operation,
            status,
            hubMessage: html ? 'an HTML page instead of an MCP answer' : `a ${contentType || 'body without Content-Type'} instead of an MCP answer`,
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
                hubMessage: clip(this.redact(text?.trim() || 'the tool failed without saying why')),
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
    rpcFailure(error, tool, operation) {
        const base = { operation, reason: `JSON-RPC ${error.code}`, hubMessage: clip(this.redact(error.message)) };
        const message = error.message.toLowerCase();
        if (error.code === -32602 && message.includes('unknown tool')) {
            return new errors/* HubRequestError */.r7({
                ...base,
                hint: `The graph provider is not available on this MCP endpoint (it has no tool ${tool}): check that \`mcp-url\` is the MCP server URL of this workspace and that the graph provider is enabled there; a provider that failed discovery has no tools until it recovers.`,
            });
        }
        if (error.code === RPC_TIMEOUT_CODE || /timed? ?out|deadline/.test(message)) {
            return new errors/* HubServerError */.ZV({
                ...base,
                hint: "The graph provider did not answer within the hub's 15 s limit for forwarded MCP calls: try again; a lower `max-depth` makes the query cheaper.",
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
        if (error.code === -32602) {
            return new errors/* HubRequestError */.r7({ ...base, hint: 'The MCP endpoint refused the tool arguments: check the inputs named in its message.' });
        }
        return new errors/* HubServerError */.ZV({
            ...base,
            hint: 'The MCP endpoint failed while handling the call: try again; if it persists, report it to the hub administrators with the time of the failure.',
        });
    }
    /** An HTTP refusal in the house wording, with hints that name `mcp-url` where it is the likely cause. */
    refusal(answer, operation) {
        const context = { operation, subject: 'the MCP endpoint', org: this.org, workspace: this.workspace };
        // Redact before the body becomes hubMessage: a proxy may echo request headers.
        const failure = (0,failures/* hubFailure */.u)({ ...answer, body: this.redact(answer.body) }, context);
        if (failure instanceof errors/* HubNotFoundError */.DK) {
            return rehint(failure, `No MCP endpoint at ${this.url.host}${this.url.pathname}: set \`mcp-url\` to the MCP server URL the hub publishes in its status (…/services/mcpserver/{workspace path}/apis/hub.sh/v1alpha1/mcpservers/default/mcp), and check that \`org\` and \`workspace\` name that workspace.`);
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
            hint: `No answer from ${this.url.host} within ${Math.round(this.timeoutMs / 1000)} s: check that the hub is up and reachable from the runner, and that \`mcp-url\` is right.`,
            cause,
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
            hubMessage: `an unexpected ${what} (${issues})`,
            hint: 'The MCP endpoint speaks a different version of the tool than this action expects: check `mcp-url`, and report this with the hub version.',
            cause: error,
        });
    }
    /** Replace the token wherever it might appear in text bound for a log or a message. */
    redact(text) {
        const out = this.token ? text.split(this.token).join('***') : text;
        return out.replace(/(Bearer\s+)[^\s"']+/gi, '$1***');
    }
    redactError(error) {
        const redacted = this.redact(error.message);
        if (redacted !== error.message)
            error.message = redacted;
        return error;
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
/** The same error class and fields with another hint (HubError's message is built once). */
function rehint(error, hint) {
    const Kind = error.constructor;
    return new Kind({
        operation: error.operation,
        status: error.status,
        reason: error.reason,
        hubMessage: error.hubMessage,
        hint,
        cause: error.cause,
    });
}
async function readText(body, limit) {
    const chunks = [];
    let bytes = 0;
    for await (const chunk of body) {
        bytes += chunk.length;
        if (bytes > limit) {
            chunks.push(chunk.subarray(0, chunk.length - (bytes - limit)));
            body.destroy();
            return { text: Buffer.concat(chunks).toString('utf8'), truncated: true };
        }
        chunks.push(chunk);
    }
    return { text: Buffer.concat(chunks).toString('utf8'), truncated: false };
}
function clip(text, max = 500) {
    return text.length > max ? `${text.slice(0, max)}…` : text;
}


/***/ })

};
