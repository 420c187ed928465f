export const id = 476;
export const ids = [476];
export const modules = {

/***/ 6476:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  GitHubError: () => (/* reexport */ GitHubError),
  MAX_LISTED_PR_FILES: () => (/* reexport */ MAX_LISTED_PR_FILES),
  createGitHubClient: () => (/* reexport */ createGitHubClient),
  listChangedFiles: () => (/* reexport */ listChangedFiles),
  readBoundedFileAtRef: () => (/* reexport */ readBoundedFileAtRef),
  readPullRequestEvent: () => (/* reexport */ readPullRequestEvent),
  upsertStickyComment: () => (/* reexport */ upsertStickyComment)
});

// EXTERNAL MODULE: ./node_modules/@actions/github/lib/github.js + 21 modules
var github = __webpack_require__(1758);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-retry/dist-bundle/index.js
var dist_bundle = __webpack_require__(9735);
// EXTERNAL MODULE: ./node_modules/@octokit/plugin-throttling/dist-bundle/index.js
var plugin_throttling_dist_bundle = __webpack_require__(6856);
// EXTERNAL MODULE: ./node_modules/bottleneck/light.js
var light = __webpack_require__(3251);
var light_default = /*#__PURE__*/__webpack_require__.n(light);
// EXTERNAL MODULE: ./src/hub/http.ts
var http = __webpack_require__(4563);
// EXTERNAL MODULE: ./src/hub/retry.ts
var retry = __webpack_require__(4529);
// EXTERNAL MODULE: ./src/hub/clock.ts
var clock = __webpack_require__(5581);
// EXTERNAL MODULE: ./src/runner/core.ts
var core = __webpack_require__(1019);
// EXTERNAL MODULE: ./src/errors.ts
var errors = __webpack_require__(3916);
// EXTERNAL MODULE: ./src/redact.ts
var redact = __webpack_require__(6670);
;// CONCATENATED MODULE: ./src/github/errors.ts
/**
 * Errors raised by the GitHub client. Like HubError, each says what the action was doing
 * (`operation`), what GitHub answered (`status`, `githubMessage`) and a `hint` the user can act
 * on; the original error stays as `cause`. GitHub's words are redacted (src/redact.ts) as they
 * are received, since GitHub may echo request details back; src/errors.ts renders the message.
 */


class GitHubError extends errors/* ActionError */.l {
    constructor(init) {
        super({ ...init, kind: 'github' });
        this.name = 'GitHubError';
    }
    get githubMessage() {
        return this.data.githubMessage;
    }
    get requestId() {
        return this.data.requestId;
    }
    /** The same failure with some of its data changed: the caller's operation, "list the files of pull request #7". */
    with(change) {
        const { kind: _kind, ...data } = this.data;
        return new GitHubError({ ...data, ...change });
    }
}
/** Re-label a GitHubError with the caller's operation; anything else passes through unchanged. */
function describeFailure(error, operation) {
    return error instanceof GitHubError ? error.with({ operation }) : error;
}
function isOctokitRequestError(error) {
    return error instanceof Error && error.name === 'HttpError' && typeof error.status === 'number';
}
/** Map whatever octokit threw to a GitHubError. Already-mapped errors pass through. */
function toGitHubError(error, context) {
    if (error instanceof GitHubError)
        return error;
    // the cause is kept for debugging; make it as safe to print as the message
    if (error instanceof Error) {
        error.message = (0,redact/* redact */.E$)(error.message);
        if (typeof error.stack === 'string')
            error.stack = (0,redact/* redact */.E$)(error.stack);
    }
    if (isOctokitRequestError(error) && error.response !== undefined) {
        const { status, headers, data } = error.response;
        const githubMessage = (0,redact/* redact */.E$)(messageFrom(data) ?? error.message);
        return new GitHubError({
            operation: context.operation,
            status,
            githubMessage,
            requestId: headerValue(headers['x-github-request-id']),
            hint: hintFor(status, headers, githubMessage),
            cause: error,
        });
    }
    // octokit reports "no answer" as a RequestError with status 500 and no response
    const reason = networkReason(error);
    return new GitHubError({
        operation: context.operation,
        githubMessage: (0,redact/* redact */.E$)(reason),
        hint: `GitHub did not answer at ${context.apiUrl}: check the runner's network and proxy settings (HTTPS_PROXY, NO_PROXY) and GITHUB_API_URL.`,
        cause: error,
    });
}
function messageFrom(data) {
    if (typeof data === 'object' && data !== null && 'message' in data) {
        const message = data.message;
        if (typeof message !== 'string')
            return undefined;
        const errors = data.errors;
        // 422s put the useful part in errors[].message ("body is too long …")
        const details = Array.isArray(errors)
            ? errors
                .map((e) => typeof e === 'object' && e !== null && typeof e.message === 'string' ? e.message : undefined)
                .filter((m) => m !== undefined)
            : [];
        return details.length > 0 ? `${message}: ${details.join('; ')}` : message;
    }
    return typeof data === 'string' && data.trim() !== '' ? data.trim().slice(0, 200) : undefined;
}
function headerValue(value) {
    return value === undefined ? undefined : String(value);
}
function hintFor(status, headers, message) {
    if (/secondary rate limit/i.test(message) || ((status === 403 || status === 429) && headers['retry-after'] !== undefined)) {
        const after = headerValue(headers['retry-after']);
        return `GitHub's secondary rate limit stopped this call (too many requests in a short time${after ? `; it asked to wait ${after} s, longer than the action waits` : ''}): re-run the job in a few minutes, or run fewer jobs that write to GitHub at once.`;
    }
    const rateLimited = status === 429 || (status === 403 && (headerValue(headers['x-ratelimit-remaining']) === '0' || /rate limit/i.test(message)));
    if (rateLimited) {
        const reset = Number(headerValue(headers['x-ratelimit-reset']));
        const when = Number.isFinite(reset) && reset > 0 ? ` (it resets at ${new Date(reset * 1000).toISOString()})` : '';
        return `The GitHub API rate limit for this token is exhausted${when}; re-run the job later.`;
    }
    switch (status) {
        case 401:
            return 'GitHub refused the token: it is missing, expired or revoked.';
        case 403:
            return 'The token lacks a permission: give the job `permissions: { contents: read, pull-requests: write }`. Pull requests from forks get a read-only token.';
        case 404:
            return 'The repository, pull request or file does not exist or is not visible to this token (it needs `contents: read` and `pull-requests: read`).';
        case 422:
            return 'GitHub refused the content of the request.';
        default:
            return status >= 500 ? 'GitHub is having trouble; re-run the job later.' : '';
    }
}
function networkReason(error) {
    if (!(error instanceof Error))
        return String(error);
    const cause = error.cause;
    if (cause instanceof Error) {
        const code = cause.code;
        return typeof code === 'string' && !cause.message.includes(code) ? `${code}: ${cause.message}` : cause.message;
    }
    return error.message;
}

;// CONCATENATED MODULE: ./src/github/fetch.ts

const MAX_REDIRECTS = 5;
const REDIRECT_STATUS = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUS = new Set([101, 204, 205, 304]);
function createUndiciFetch(options) {
    return async (input, init = {}) => {
        if (typeof input !== 'string' && !(input instanceof URL))
            throw new TypeError('Request objects are not supported');
        const timeout = AbortSignal.timeout(options.timeoutMs);
        const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
        let url = new URL(input);
        let method = (init.method ?? 'GET').toUpperCase();
        let body = bodyOf(init.body);
        let headers = headersOf(init.headers);
        for (let redirects = 0;; redirects++) {
            const response = await (0,http/* send */.tN)(options.dispatcher, url, { method, headers, body, signal });
            const location = response.headers['location'];
            const follow = REDIRECT_STATUS.has(response.statusCode) && typeof location === 'string' && init.redirect !== 'manual';
            if (!follow) {
                const bytes = NULL_BODY_STATUS.has(response.statusCode) || method === 'HEAD' ? null : await response.body.bytes();
                if (bytes === null)
                    await response.body.dump();
                const result = new Response(bytes, { status: response.statusCode, headers: responseHeaders(response.headers) });
                // Response.url is read-only on a constructed Response; octokit reports it in errors
                Object.defineProperty(result, 'url', { value: url.toString() });
                return result;
            }
            await response.body.dump();
            if (init.redirect === 'error' || redirects >= MAX_REDIRECTS)
                throw new TypeError(`Too many redirects from ${url.origin}`);
            const next = new URL(location, url);
            // fetch semantics: 303, and 301/302 after a POST, turn into a body-less GET
            if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method === 'POST')) {
                method = 'GET';
                body = undefined;
                headers = withoutHeaders(headers, ['content-type', 'content-length']);
            }
            // never carry the token to another origin (GitHub's own redirects stay on the API origin)
            if (next.origin !== url.origin)
                headers = withoutHeaders(headers, ['authorization']);
            url = next;
        }
    };
}
function bodyOf(body) {
    if (body === null || body === undefined)
        return undefined;
    if (typeof body === 'string' || body instanceof Uint8Array)
        return body;
    if (body instanceof ArrayBuffer)
        return new Uint8Array(body);
    // octokit only sends JSON strings for the endpoints this action calls
    throw new TypeError('Unsupported request body type');
}
function headersOf(headers) {
    const out = {};
    new Headers(headers).forEach((value, name) => {
        out[name] = value;
    });
    return out;
}
function withoutHeaders(headers, names) {
    return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}
function responseHeaders(raw) {
    const headers = new Headers();
    for (const [name, value] of Object.entries(raw)) {
        if (value === undefined)
            continue;
        for (const item of Array.isArray(value) ? value : [value])
            headers.append(name, item);
    }
    return headers;
}

;// CONCATENATED MODULE: ./src/github/client.ts
/**
 * The GitHub REST and GraphQL client: @actions/github's Octokit with octokit's retry and
 * throttling plugins, so GitHub's primary and secondary rate limits and its `retry-after` are
 * honoured on every call, and errors mapped to GitHubError. Loaded only on pull-request events.
 *
 * Waits are bounded: GitHub may ask for an hour (a primary limit resets hourly); a step must not
 * hang that long, so any wait above MAX_RATE_LIMIT_WAIT_SECONDS is not made and the call fails with a hint.
 */



// the build octokit's plugins load (no Redis clustering), so the bundle holds one copy








const DEFAULT_GITHUB_API_URL = 'https://api.github.com';
const DEFAULT_RETRIES = 2;
const DEFAULT_RETRY_DELAY_MS = 1_000;
const DEFAULT_TIMEOUT_MS = 30_000;
/** GitHub: "make requests for a single user or client ID serially [and] wait at least one second between each" write. */
const DEFAULT_WRITE_SPACING_MS = 1_000;
/** The longest wait GitHub may ask of us (retry-after, rate-limit reset) before we give up instead. @internal */
const MAX_RATE_LIMIT_WAIT_SECONDS = 60;
/** Rate-limit waits per call: a limit that is still there after two waits will not lift soon. */
const RATE_LIMIT_RETRIES = 2;
/** The statuses the retry plugin never retries (its default, named here so pacing skips them too). */
const DO_NOT_RETRY = [400, 401, 403, 404, 410, 422, 451];
/** A GraphQL answer (200) the retry plugin retries as if it were a 500. */
const GRAPHQL_TRANSIENT = /Something went wrong while executing your query/;
function createGitHubClient(options) {
    const apiUrl = (options.apiUrl?.trim() || DEFAULT_GITHUB_API_URL).replace(/\/+$/, '');
    const retries = options.retries ?? DEFAULT_RETRIES;
    const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;
    const log = options.log ?? core/* info */.pq;
    const writeSpacingMs = options.writeSpacingMs ?? DEFAULT_WRITE_SPACING_MS;
    const onLimit = (kind) => (retryAfter, request, _octokit, retryCount) => {
        const route = `${request.method ?? ''} ${request.url ?? ''}`;
        if (retryAfter > MAX_RATE_LIMIT_WAIT_SECONDS || retryCount >= RATE_LIMIT_RETRIES) {
            log(`GitHub: ${kind} on ${route}; not waiting ${retryAfter} s (at most ${MAX_RATE_LIMIT_WAIT_SECONDS} s, ${RATE_LIMIT_RETRIES} times).`);
            return false;
        }
        log(`GitHub: ${kind} on ${route}; waiting ${retryAfter} s as GitHub asks.`);
        return true;
    };
    // The retry plugin waits 1, 4, 9 s whatever GitHub says; honour retry-after instead, add
    // jitter (the waits of hub and MCP calls: retryWait), and never send a POST twice after a 5xx
    // or no answer (it may have created a comment). Which answers are retried stays the plugin's:
    // this hook, inside the plugin's, makes the wait itself and tells the plugin (through the
    // request's `retries`) whether to send again; the plugin's own wait is zero.
    const waits = { baseDelayMs: retryDelayMs, maxDelayMs: MAX_RATE_LIMIT_WAIT_SECONDS * 1000, maxRetryAfterMs: MAX_RATE_LIMIT_WAIT_SECONDS * 1000 };
    const pace = async (status, retryAfter, method, url, request) => {
        const attempt = Number(request.retryCount ?? 0);
        const writeMayHaveHappened = method === 'POST' && status >= 500 && !/\/graphql$/.test(url);
        const delayMs = writeMayHaveHappened || attempt >= retries
            ? undefined
            : (0,retry/* retryWait */.y_)(retryAfter === undefined ? undefined : String(retryAfter), attempt + 1, waits, Date.now());
        request.retries = delayMs === undefined ? 0 : retries;
        if (delayMs === undefined)
            return;
        log(`GitHub: ${method} ${url} answered ${status}; retrying in ${delayMs} ms.`);
        await (0,clock/* abortableSleep */.M)(delayMs);
    };
    const pacing = (octokit) => {
        octokit.hook.wrap('request', async (request, requestOptions) => {
            const method = String(requestOptions.method).toUpperCase();
            let response;
            try {
                response = await request(requestOptions);
            }
            catch (error) {
                // What the plugin checks too: a RequestError with its request, which it may retry.
                const failed = error;
                if (failed?.request?.request && typeof failed.status === 'number' && failed.status >= 400 && !DO_NOT_RETRY.includes(failed.status))
                    await pace(failed.status, failed.response?.headers['retry-after'], method, failed.request.url, requestOptions.request);
                throw error;
            }
            const errors = response.data?.errors;
            if (typeof errors?.[0]?.message === 'string' && GRAPHQL_TRANSIENT.test(errors[0].message))
                await pace(500, undefined, method, String(requestOptions.url), requestOptions.request);
            return response;
        });
    };
    const octokit = (0,github/* getOctokit */.Q)(options.token, {
        baseUrl: apiUrl,
        userAgent: options.userAgent,
        request: {
            fetch: createUndiciFetch({
                dispatcher: options.dispatcher ?? (0,http/* defaultDispatcher */.bA)(),
                timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
            }),
        },
        // `pacing` waits; the plugin sends again at once
        retry: { retries, retryAfterBaseValue: 0, doNotRetry: DO_NOT_RETRY },
        throttle: {
            write: new (light_default()).Group({ maxConcurrent: 1, minTime: writeSpacingMs }),
            notifications: new (light_default()).Group({ maxConcurrent: 1, minTime: writeSpacingMs * 3 }),
            onRateLimit: onLimit('rate limit'),
            onSecondaryRateLimit: onLimit('secondary rate limit'),
        },
        log: { debug: () => { }, info: () => { }, warn: log, error: log },
    }, 
    // before the retry plugin: its hooks wrap this one, so this one sees each failure first
    pacing, dist_bundle/* retry */.L, plugin_throttling_dist_bundle/* throttling */.A);
    (0,redact/* registerSecret */.cl)(options.token);
    octokit.hook.wrap('request', async (request, requestOptions) => {
        let response;
        try {
            response = await request(requestOptions);
        }
        catch (error) {
            const route = `${String(requestOptions.method).toUpperCase()} ${String(requestOptions.url)}`;
            throw toGitHubError(error, { operation: `call ${route}`, apiUrl });
        }
        // Every string GitHub sends (comment bodies, file contents, names) is redacted as it is received.
        response.data = (0,redact/* redactValue */.FI)(response.data);
        return response;
    });
    return octokit;
}

// EXTERNAL MODULE: external "node:fs"
var external_node_fs_ = __webpack_require__(3024);
;// CONCATENATED MODULE: ./src/github/pull-request.ts
/**
 * The pull request a workflow runs for: which one (from the runner's event file), which files
 * it changes, and a file's text at a commit.
 */



/** GitHub's "list pull request files" stops here; a list this long may be incomplete. */
const MAX_LISTED_PR_FILES = 3000;
const COMMIT_SHA = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
/**
 * The pull request of a `pull_request` or `pull_request_target` run (any event whose payload
 * carries `pull_request` with its base and head), or undefined when there is none: another
 * event, or no event file (not on a runner). `repository` is GITHUB_REPOSITORY, "owner/repo";
 * the payload's repository is the fallback.
 */
function readPullRequestEvent(eventPath, repository) {
    if (!eventPath || !(0,external_node_fs_.existsSync)(eventPath))
        return undefined;
    let payload;
    try {
        payload = JSON.parse((0,external_node_fs_.readFileSync)(eventPath, 'utf8'));
    }
    catch (error) {
        throw new GitHubError({
            operation: `read the workflow event file ${eventPath}`,
            hint: 'GITHUB_EVENT_PATH should name the JSON file the runner writes for the event.',
            cause: error,
        });
    }
    const pull = field(payload, 'pull_request');
    const number = field(pull, 'number');
    const baseSha = field(field(pull, 'base'), 'sha');
    const headSha = field(field(pull, 'head'), 'sha');
    if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1)
        return undefined;
    if (typeof baseSha !== 'string' || !COMMIT_SHA.test(baseSha))
        return undefined;
    if (typeof headSha !== 'string' || !COMMIT_SHA.test(headSha))
        return undefined;
    const repo = splitRepository(repository) ?? repositoryOfPayload(payload);
    if (!repo)
        return undefined;
    return { ...repo, number, baseSha, headSha };
}
/** Every file the pull request changes, following all pages (GitHub caps the list at 3000). */
async function listChangedFiles(octokit, pr) {
    try {
        const files = await octokit.paginate('GET /repos/{owner}/{repo}/pulls/{pull_number}/files', {
            owner: pr.owner,
            repo: pr.repo,
            pull_number: pr.number,
            per_page: 100,
        });
        return files.map((file) => ({
            path: file.filename,
            status: file.status,
            ...(file.previous_filename !== undefined ? { previousPath: file.previous_filename } : {}),
        }));
    }
    catch (error) {
        throw describeFailure(error, `list the files of pull request ${pr.owner}/${pr.repo}#${pr.number}`);
    }
}
/** A file's text at a commit or branch; undefined when the file does not exist there (or is a directory). @internal */
async function readFileAtRef(octokit, repository, path, ref) {
    const encodedPath = encodePath(path);
    const operation = `read ${path} at ${ref} in ${repository.owner}/${repository.repo}`;
    try {
        const response = await octokit.request(`GET /repos/{owner}/{repo}/contents/${encodedPath}`, {
            owner: repository.owner,
            repo: repository.repo,
            ref,
            mediaType: { format: 'raw' },
        });
        return fileText(response.data);
    }
    catch (error) {
        if (isMissingFile(error))
            return undefined;
        throw describeFailure(error, operation);
    }
}
/** A missing file is an answer; a missing commit is not (treating it as "no file" would report every manifest as added). */
function isMissingFile(error) {
    return error instanceof GitHubError && error.status === 404 && !/no commit found/i.test(error.githubMessage ?? '');
}
function encodePath(path) {
    return path
        .split('/')
        .filter((segment) => segment !== '')
        .map(encodeURIComponent)
        .join('/');
}
/**
 * A file's text at a commit or branch if it is at most `maxBytes` long; `{ tooLarge }` with its
 * size otherwise; undefined when it does not exist there. The size is asked first (the object
 * form names it, and holds the content itself up to 1 MB), so a large file is never downloaded.
 */
async function readBoundedFileAtRef(octokit, repository, path, ref, maxBytes) {
    let data;
    try {
        // the object form answers for files up to 100 MB (the default JSON form refuses above 1 MB)
        const response = await octokit.request(`GET /repos/{owner}/{repo}/contents/${encodePath(path)}`, {
            owner: repository.owner,
            repo: repository.repo,
            ref,
            mediaType: { format: 'object' },
        });
        data = response.data;
    }
    catch (error) {
        if (isMissingFile(error))
            return undefined;
        throw describeFailure(error, `read ${path} at ${ref} in ${repository.owner}/${repository.repo}`);
    }
    if (field(data, 'type') !== 'file')
        return undefined; // a directory listing, a symlink or a submodule
    const size = field(data, 'size');
    if (typeof size === 'number' && size > maxBytes)
        return { tooLarge: size };
    // GitHub leaves `content` empty above 1 MB (encoding "none"): then the raw form, now known to be small
    const text = field(data, 'encoding') === 'base64' && typeof field(data, 'content') === 'string' ? fileText(data) : await readFileAtRef(octokit, repository, path, ref);
    if (text === undefined)
        return undefined;
    // the size GitHub announced is a claim; the bytes received are the fact
    const bytes = Buffer.byteLength(text, 'utf8');
    return bytes > maxBytes ? { tooLarge: bytes } : { text };
}
/**
 * The raw media type answers with text; some proxies and GHES versions answer JSON or bytes.
 * The pull request wrote the file, and could plant a secret in it: redacted once decoded.
 */
function fileText(data) {
    const text = decodedFile(data);
    return text === undefined ? undefined : (0,redact/* redact */.E$)(text);
}
function decodedFile(data) {
    if (typeof data === 'string')
        return data;
    if (data instanceof ArrayBuffer)
        return new TextDecoder().decode(data);
    if (Array.isArray(data))
        return undefined; // a directory listing
    const content = field(data, 'content');
    const encoding = field(data, 'encoding');
    if (field(data, 'type') === 'file' && typeof content === 'string') {
        return encoding === 'base64' ? Buffer.from(content, 'base64').toString('utf8') : content;
    }
    return undefined;
}
function field(value, name) {
    return typeof value === 'object' && value !== null ? value[name] : undefined;
}
function splitRepository(repository) {
    const match = /^([^/\s]+)\/([^/\s]+)$/.exec(repository?.trim() ?? '');
    return match?.[1] !== undefined && match[2] !== undefined ? { owner: match[1], repo: match[2] } : undefined;
}
function repositoryOfPayload(payload) {
    const repository = field(payload, 'repository');
    const owner = field(field(repository, 'owner'), 'login');
    const repo = field(repository, 'name');
    return typeof owner === 'string' && typeof repo === 'string' ? { owner, repo } : undefined;
}

// EXTERNAL MODULE: ./src/markdown/format.ts
var format = __webpack_require__(4370);
;// CONCATENATED MODULE: ./src/github/sticky-comment.ts
/**
 * One report comment per pull request and comment key, edited in place on each run.
 *
 * The comment is found by a hidden marker on its first line and by its author: a marker in a
 * comment by anyone else (a human quoting ours) is never touched. The marker also records the
 * run that wrote the comment, so a slow or re-run job for an older commit does not overwrite
 * the report of a newer one (run ids grow with time; attempts grow within a run).
 */


/** GitHub's limit for an issue comment body, in characters (code points). @internal */
const MAX_COMMENT_CHARS = 65536;
/** Who posts with the workflow's GITHUB_TOKEN. */
const ACTIONS_BOT_LOGIN = 'github-actions[bot]';
/** How every marker begins; its fields follow. @internal */
const IMPACT_MARKER_PREFIX = '<!-- hub-action:impact';
const MARKER_PATTERN = new RegExp(`^${IMPACT_MARKER_PREFIX} v(\\d+) key=(\\S+) run=(\\S+) attempt=(\\S+) sha=(\\S+) -->$`);
const TRIMMED_NOTE = '_… trimmed: the report is longer than a GitHub comment can hold._';
const UNKNOWN = 'unknown';
/** Marker values keep to [A-Za-z0-9._-] so a value cannot end the HTML comment or add a field. */
function sanitizeMarkerValue(value, fallback = UNKNOWN) {
    const clean = String(value ?? '')
        .trim()
        .replace(/[^A-Za-z0-9._-]+/g, '_');
    return clean === '' ? fallback : clean;
}
/** @internal */
function commentMarker(fields) {
    const key = sanitizeMarkerValue(fields.key, 'default');
    const run = sanitizeMarkerValue(fields.runId);
    const attempt = sanitizeMarkerValue(fields.runAttempt);
    const sha = sanitizeMarkerValue(fields.sha);
    return `${IMPACT_MARKER_PREFIX} v1 key=${key} run=${run} attempt=${attempt} sha=${sha} -->`;
}
/** The marker on the body's first line, or undefined when that line is not one of ours. @internal */
function parseMarker(body) {
    if (!body)
        return undefined;
    const newline = body.indexOf('\n');
    const firstLine = (newline === -1 ? body : body.slice(0, newline)).trim();
    const match = MARKER_PATTERN.exec(firstLine);
    if (!match)
        return undefined;
    const [, version, key, runId, runAttempt, sha] = match;
    if (version === undefined || key === undefined || runId === undefined || runAttempt === undefined || sha === undefined) {
        return undefined;
    }
    return { version: Number(version), key, runId, runAttempt, sha };
}
/**
 * Marker, newline, content; cut at a line boundary with a note when the whole would exceed
 * MAX_COMMENT_CHARS code points. Never splits a surrogate pair, and closes a code fence left open.
 * @internal
 */
function composeCommentBody(marker, content) {
    const whole = `${marker}\n${content}`;
    if ((0,format/* codePointLength */.O7)(whole) <= MAX_COMMENT_CHARS)
        return whole;
    const fenceCloser = '```\n';
    const budget = MAX_COMMENT_CHARS - (0,format/* codePointLength */.O7)(`${marker}\n\n${TRIMMED_NOTE}`) - fenceCloser.length;
    let kept = cutAtLineBoundary(content, Math.max(0, budget));
    if (hasOpenFence(kept))
        kept += `\n${fenceCloser.trimEnd()}`;
    return `${marker}\n${kept}\n${TRIMMED_NOTE}`;
}
/**
 * Create or update our comment for `key` on the pull request. A 403 on the write (a fork's
 * read-only token, missing `pull-requests: write`) is an answer, `forbidden`, not an error:
 * the report is still in the log and summary, and the step keeps its verdict.
 */
async function upsertStickyComment(octokit, options) {
    const { owner, repo, number } = options;
    const where = `${owner}/${repo}#${number}`;
    const marker = commentMarker(options);
    const body = composeCommentBody(marker, options.body);
    if (options.mode === 'new')
        return createComment(octokit, options, body, where);
    const key = sanitizeMarkerValue(options.key, 'default');
    const author = options.author ?? (await commentAuthor(octokit));
    let comments;
    try {
        comments = await octokit.paginate('GET /repos/{owner}/{repo}/issues/{issue_number}/comments', {
            owner,
            repo,
            issue_number: number,
            per_page: 100,
        });
    }
    catch (error) {
        throw describeFailure(error, `list the comments of ${where}`);
    }
    const ours = comments.filter((comment) => sameLogin(comment.user?.login, author) && parseMarker(comment.body)?.key === key);
    const existing = newest(ours);
    if (!existing)
        return createComment(octokit, options, body, where);
    const result = { url: existing.html_url, id: Number(existing.id) };
    if (contentOf(existing.body) === contentOf(body))
        return { action: 'unchanged', ...result };
    const stored = parseMarker(existing.body);
    if (stored && isNewerRun(stored, parseMarker(marker)))
        return { action: 'skipped-newer', ...result };
    try {
        const response = await octokit.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', {
            owner,
            repo,
            comment_id: Number(existing.id),
            body,
        });
        return { action: 'updated', url: response.data.html_url, id: Number(response.data.id) };
    }
    catch (error) {
        if (error instanceof GitHubError && error.status === 403)
            return { action: 'forbidden' };
        // deleted between the listing and the edit: post it afresh
        if (error instanceof GitHubError && error.status === 404)
            return createComment(octokit, options, body, where);
        throw describeFailure(error, `update comment ${existing.id} on ${where}`);
    }
}
async function createComment(octokit, options, body, where) {
    try {
        const response = await octokit.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', {
            owner: options.owner,
            repo: options.repo,
            issue_number: options.number,
            body,
        });
        return { action: 'created', url: response.data.html_url, id: Number(response.data.id) };
    }
    catch (error) {
        if (error instanceof GitHubError && error.status === 403)
            return { action: 'forbidden' };
        throw describeFailure(error, `comment on ${where}`);
    }
}
const authors = new WeakMap();
/**
 * The login our comments carry, from GraphQL `viewer`: it answers for every kind of token, a
 * GitHub App installation token included (its comments are by `<app>[bot]`). GET /user is the
 * fallback where GraphQL is unavailable; it refuses installation tokens (403), and the one
 * installation token without GraphQL we can name is the Actions one, github-actions[bot].
 */
function commentAuthor(octokit) {
    let author = authors.get(octokit);
    if (!author) {
        author = octokit.graphql('query { viewer { login } }').then((data) => {
            const login = data.viewer?.login;
            if (typeof login !== 'string' || login === '')
                throw new Error('GitHub GraphQL answered `viewer` without a login');
            return login;
        }, () => userLogin(octokit));
        authors.set(octokit, author);
        author.catch(() => authors.delete(octokit));
    }
    return author;
}
function userLogin(octokit) {
    return octokit.request('GET /user').then((response) => response.data.login, (error) => {
        if (error instanceof GitHubError && error.status === 403)
            return ACTIONS_BOT_LOGIN;
        throw describeFailure(error, 'find which account the GitHub token belongs to');
    });
}
function sameLogin(a, b) {
    return a !== undefined && a.toLowerCase() === b.toLowerCase();
}
function newest(comments) {
    let best;
    for (const comment of comments) {
        if (!best || comment.created_at > best.created_at || (comment.created_at === best.created_at && comment.id > best.id)) {
            best = comment;
        }
    }
    return best;
}
/** The body without its marker line; line endings and trailing space do not count as changes. */
function contentOf(body) {
    const text = (body ?? '').replace(/\r\n/g, '\n');
    const newline = text.indexOf('\n');
    return (newline === -1 ? '' : text.slice(newline + 1)).trimEnd();
}
/** Only comparable numbers order runs; a marker without them never blocks an update. */
function isNewerRun(stored, ours) {
    if (!ours)
        return false;
    const run = compareDecimal(stored.runId, ours.runId);
    if (run !== 0)
        return run === 1;
    return compareDecimal(stored.runAttempt, ours.runAttempt) === 1;
}
/** -1, 0 or 1 for two decimal strings; 0 when either is not a number. */
function compareDecimal(a, b) {
    if (!/^\d+$/.test(a) || !/^\d+$/.test(b))
        return 0;
    const x = BigInt(a);
    const y = BigInt(b);
    return x > y ? 1 : x < y ? -1 : 0;
}
/** At most `max` code points of `text`, ending before the last newline that fits when there is one. */
function cutAtLineBoundary(text, max) {
    let count = 0;
    let index = 0;
    let lastNewline = -1;
    for (const char of text) {
        if (count === max)
            break;
        if (char === '\n')
            lastNewline = index;
        index += char.length;
        count++;
    }
    if (index === text.length)
        return text;
    return lastNewline >= 0 ? text.slice(0, lastNewline) : text.slice(0, index);
}
function hasOpenFence(markdown) {
    let open = false;
    for (const line of markdown.split('\n'))
        if (/^ {0,3}(```|~~~)/.test(line))
            open = !open;
    return open;
}

;// CONCATENATED MODULE: ./src/github/index.ts
/** The GitHub side of the impact command, loaded lazily (`await import('./github/index.js')`). */






/***/ })

};
