export const id = 651;
export const ids = [651];
export const modules = {

/***/ 1651:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  renderRunSummary: () => (/* binding */ renderRunSummary),
  warmUp: () => (/* binding */ warmUp)
});

// EXTERNAL MODULE: ./src/hub/schemas.ts
var schemas = __webpack_require__(7539);
// EXTERNAL MODULE: ./src/markdown/format.ts
var format = __webpack_require__(4370);
// EXTERNAL MODULE: ./src/markdown/json-text.ts
var json_text = __webpack_require__(551);
// EXTERNAL MODULE: external "node:buffer"
var external_node_buffer_ = __webpack_require__(4573);
// EXTERNAL MODULE: ./node_modules/marked/lib/marked.esm.js
var marked_esm = __webpack_require__(8022);
;// CONCATENATED MODULE: ./src/markdown/guarded-lexer.ts
/**
 * marked's lexer, driven pass by pass with guards against input that would make it slow or
 * overflow the stack: bounded container nesting and inline runs parsed only while their
 * emphasis matching stays cheap. untrusted.ts renders what it returns.
 */

/**
 * marked's emphasis matching is quadratic in the delimiters of one inline run (60 s for 200k
 * characters of "*a"): a run with more delimiters than a reader would write, or longer than
 * this, is shown as plain text instead of being parsed.
 */
const MAX_INLINE_DELIMITERS = 400;
/** Characters parsed at most; no summary could show more. */
const MAX_SOURCE_CHARS = 200_000;
/**
 * The parser's cost grows with container nesting (seconds for a few hundred levels, a stack
 * overflow beyond): a line's leading run of container markers and indentation is cut to this.
 */
const MAX_LINE_PREFIX = 48;
const MAX_INLINE_CHARS = 20_000;
/** Blocks, then each inline run that is safe to parse (what `Lexer.lex` does, with the guard). */
function lexBlocks(source) {
    try {
        const lexer = new marked_esm/* Lexer */.JG({ gfm: true, breaks: false });
        const blocks = lexer.blockTokens(source, lexer.tokens);
        for (const run of lexer.inlineQueue) {
            lexer.state.inRawBlock = false;
            if (run.src.length <= MAX_INLINE_CHARS && countDelimiters(run.src) <= MAX_INLINE_DELIMITERS)
                lexer.inlineTokens(run.src, run.tokens);
            else
                run.tokens.push({ type: 'text', raw: run.src, text: run.src, escaped: false });
        }
        lexer.inlineQueue = [];
        return blocks;
    }
    catch {
        // Nesting deep enough to exhaust the stack, say.
        return undefined;
    }
}
function boundNesting(source) {
    return source.replace(/^[ \t>*+\-.)\d]{49,}/gm, (prefix) => prefix.slice(0, MAX_LINE_PREFIX));
}
function countDelimiters(text) {
    let count = 0;
    for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        if (ch === 42 || ch === 95 || ch === 126 || ch === 91 || ch === 96)
            count++; // * _ ~ [ `
    }
    return count;
}

;// CONCATENATED MODULE: ./src/markdown/untrusted.ts
/**
 * Untrusted markdown (an agent's answer) made safe to embed in the action's own document, by
 * structure: marked's GFM lexer parses it into a tree, and the tree is written back out as
 * markdown this module builds itself. Nothing of the source is copied through except text,
 * which is escaped, and code, which is fenced with a fence longer than any run inside it.
 *
 * So whatever the parser thinks of odd input, the output is well-formed on its own terms:
 * - containers (lists, block quotes) are re-emitted with their own markers and indentation,
 *   and every code block is closed inside its container, so nothing the agent writes can
 *   close our containers or leave a fence open to swallow the sections after it;
 * - raw HTML (blocks, tags, comments) becomes visible text;
 * - headings are ATX headings ranked below ours (setext headings included);
 * - links keep only http(s) and mailto destinations; images become plain links (no pixel is
 *   fetched when the summary is viewed); link reference definitions are resolved, not copied;
 * - every `@` in text gets a zero-width space after it, so no mention notifies anyone.
 *
 * This module and guarded-lexer.ts are the only ones that load marked; they are imported on demand
 * where a summary is rendered. They drive marked's lexer passes by hand and read its token shapes, which are not
 * semver-stable: marked is pinned to a minor version, and test/unit/marked-contract.test.ts
 * fails when an upgrade changes what is relied on here.
 */



/** Deeper nesting is flattened into text: no reader needs it, and it bounds recursion. */
const MAX_DEPTH = 8;
const CLIPPED = '…(clipped)';
function untrustedMarkdown(text, options = {}) {
    const context = { headingFloor: Math.min(6, Math.max(1, (options.headingsBelow ?? 0) + 1)), depth: 0 };
    const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
    const source = boundNesting((0,format/* clipCharacters */.Pu)(text, MAX_SOURCE_CHARS, '')
        .text.replace(/\r\n?/g, '\n')
        .replace(/\u0000/g, '\ufffd'));
    const blocks = lexBlocks(source);
    if (!blocks) {
        // The parser gave up (pathological input): show the whole text as code, clipped to fit.
        return fitCode(source, maxBytes);
    }
    const out = [];
    let used = 0;
    for (let index = 0; index < blocks.length; index++) {
        const block = blocks[index];
        const lines = renderBlock(block, context);
        if (!lines)
            continue;
        const rendered = lines.join('\n');
        const cost = external_node_buffer_.Buffer.byteLength(rendered, 'utf8') + 2;
        if (used + cost <= maxBytes) {
            out.push(rendered);
            used += cost;
            continue;
        }
        // The first block that does not fit is shown in part, as code, when there is room for it.
        const room = maxBytes - used - 2;
        if (room > 200)
            out.push(fitCode(block.raw, room).markdown);
        return { markdown: out.join('\n\n'), clipped: true };
    }
    return { markdown: out.join('\n\n'), clipped: false };
}
/** Text as a code block clipped to `maxBytes` (the fence included). */
function fitCode(text, maxBytes) {
    let body = text;
    let clipped = false;
    const overhead = 64;
    if (external_node_buffer_.Buffer.byteLength(body, 'utf8') + overhead > maxBytes) {
        body = (0,format/* clipBytes */.Wp)(body, Math.max(0, maxBytes - overhead - CLIPPED.length - 1), '').text + `\n${CLIPPED}`;
        clipped = true;
    }
    return { markdown: (0,format/* fenced */.OF)(body), clipped };
}
// ---------------------------------------------------------------------------------------
// Blocks: each renders to lines; containers prefix the lines of their children.
function renderBlock(token, context) {
    if (context.depth > MAX_DEPTH)
        return codeBlock(token.raw.replace(/\n+$/, ''));
    switch (token.type) {
        case 'space':
        case 'def':
            // Definitions were resolved into the links that use them.
            return undefined;
        case 'heading': {
            const heading = token;
            const level = Math.min(6, Math.max(heading.depth, context.headingFloor));
            const text = oneLine(renderInline(heading.tokens, context));
            return [`${'#'.repeat(level)} ${text}`.trimEnd()];
        }
        case 'paragraph':
            return paragraphLines(renderInline(token.tokens, context));
        case 'text': {
            // Block-level text (a tight list item's content).
            const text = token;
            return paragraphLines(text.tokens ? renderInline(text.tokens, context) : escapeText(text.text));
        }
        case 'code': {
            const block = token;
            return codeBlock(block.text, block.lang ?? '');
        }
        case 'html':
            // Raw HTML the agent wrote: shown as the text it is, line by line.
            return paragraphLines(escapeText(token.text)
                .replace(/\n+$/, '')
                .replace(/\n/g, '\\\n'));
        case 'hr':
            // Underscores: "- ___" and "* ___" stay a list item holding a rule, never a bare rule.
            return ['___'];
        case 'blockquote': {
            const inner = renderBlocks(token.tokens, nested(context));
            return inner.map((line) => (line === '' ? '>' : `> ${line}`));
        }
        case 'list':
            return renderList(token, context);
        case 'table':
            return renderTable(token, context);
        default:
            return paragraphLines(escapeText(token.raw));
    }
}
function nested(context) {
    return { ...context, depth: context.depth + 1 };
}
/** Blocks one after another, a blank line between them (in a tight list item, not before a nested list or code). */
function renderBlocks(tokens, context, tight = false) {
    const out = [];
    for (const token of tokens) {
        const lines = renderBlock(token, context);
        if (!lines)
            continue;
        if (out.length > 0 && !(tight && interruptsParagraph(token)))
            out.push('');
        out.push(...lines);
    }
    return out;
}
/** Blocks that may follow a paragraph line directly without joining it. */
function interruptsParagraph(token) {
    if (token.type === 'code')
        return true;
    if (token.type !== 'list')
        return false;
    const list = token;
    return !list.ordered || Number(list.start) === 1 || list.start === '';
}
function paragraphLines(markdown) {
    // Each line starts with text: never with spaces (four would make it code), a list marker,
    // a rule or a setext underline ("+", "*", "_", "#" and ">" are escaped already).
    const lines = markdown.split('\n').map((line) => line
        .replace(/^[ \t]+/, '')
        .replace(/^[-=]/, '\\$&')
        .replace(/^(\d{1,9})([.)])/, '$1\\$2'));
    while (lines.length > 0 && lines[lines.length - 1]?.trim() === '')
        lines.pop();
    return lines.length > 0 ? lines : undefined;
}
function renderList(list, context) {
    const marker = context.listMarker === '-' ? '*' : '-';
    const start = Number.isSafeInteger(Number(list.start)) ? Math.min(999_999_999, Math.max(0, Number(list.start))) : 1;
    const inner = { ...nested(context), listMarker: marker };
    const out = [];
    list.items.forEach((item, index) => {
        const bullet = list.ordered ? `${start + index}.` : marker;
        const checkbox = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
        const body = renderBlocks(item.tokens.filter((token) => token.type !== 'checkbox'), inner, !list.loose);
        const indent = ' '.repeat(bullet.length + 1);
        if (index > 0 && list.loose)
            out.push('');
        const [first = '', ...rest] = body.length > 0 ? body : [''];
        out.push(`${bullet} ${checkbox}${first}`.trimEnd());
        for (const line of rest)
            out.push(line === '' ? '' : indent + line);
    });
    return out;
}
function renderTable(table, context) {
    const inCell = { ...context, inTable: true };
    const cell = (tokens) => oneLine(renderInline(tokens, inCell)) || ' ';
    const row = (cells) => `| ${cells.map((c) => cell(c.tokens)).join(' | ')} |`;
    const rule = `| ${table.align.map((align) => (align === 'right' ? '---:' : align === 'center' ? ':---:' : align === 'left' ? ':---' : '---')).join(' | ')} |`;
    return [row(table.header), rule, ...table.rows.map(row)];
}
/** `fenced` as lines, for a container to prefix. */
function codeBlock(text, language) {
    return (0,format/* fenced */.OF)(text, language).split('\n');
}
// ---------------------------------------------------------------------------------------
// Inline content: one string, "\n" for line breaks inside a paragraph.
function renderInline(tokens, context) {
    if (!tokens)
        return '';
    return tokens.map((token) => inlineToken(token, context)).join('');
}
function inlineToken(token, context) {
    switch (token.type) {
        case 'text': {
            const text = token;
            return text.tokens ? renderInline(text.tokens, context) : escapeText(text.text);
        }
        case 'escape':
            return escapeText(token.text);
        case 'strong':
            return wrap('**', renderInline(token.tokens, context));
        case 'em':
            return wrap('_', renderInline(token.tokens, context));
        case 'del':
            return wrap('~~', renderInline(token.tokens, context));
        case 'codespan':
            return codeSpan(token.text, context);
        case 'br':
            return '\\\n';
        case 'link': {
            const link = token;
            return linkTo(link.href, renderInline(link.tokens, context) || escapeText(link.href));
        }
        case 'image': {
            const image = token;
            return linkTo(image.href, `image: ${escapeText(image.text || image.href)}`);
        }
        case 'checkbox':
            return '';
        case 'html':
            // A tag or comment the agent wrote: shown as the text it is.
            return escapeText(token.text);
        default:
            return escapeText(token.raw);
    }
}
/** Emphasis around content; empty content renders as nothing rather than as stray markers. */
function wrap(marker, content) {
    return content.trim() === '' ? content : `${marker}${content}${marker}`;
}
function codeSpan(text, context) {
    // GFM splits table cells on any unescaped pipe, even inside a code span.
    return context.inTable ? (0,format/* code */.aY)(text).replace(/\|/g, '\\|') : (0,format/* code */.aY)(text);
}
/** A link only to an absolute http(s) or mailto address; otherwise just its text. */
function linkTo(href, text) {
    const url = safeUrl(href);
    if (!url)
        return text;
    return `[${text.replace(/\n/g, ' ')}](<${url}>)`;
}
function safeUrl(href) {
    let url;
    try {
        url = new URL(decodeEntities(href).trim());
    }
    catch {
        return undefined;
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== 'mailto:')
        return undefined;
    // Inside <…> a destination ends at ">" and honours backslash escapes; neither may survive.
    return url.href.replace(/[<>\\\s]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
// ---------------------------------------------------------------------------------------
// Text
/**
 * Literal text: every character that can start or end inline markup escaped (the same set as
 * `inline` in format.ts), `&`, `<` and `>` as entities (no entity or tag of the agent's
 * survives), and a zero-width space after every `@`. What could open a block at the start of a
 * line is escaped per line, in `paragraphLines`.
 */
function escapeText(text) {
    return decodeEntities(text)
        .replace(/[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ' ')
        .replace(/[\\`*_{}[\]()#+!~|&<>@]/g, (ch) => ESCAPED[ch] ?? `\\${ch}`);
}
const ESCAPED = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '@': `@${format/* ZERO_WIDTH_SPACE */.pe}` };
function oneLine(markdown) {
    return markdown.replace(/\\\n/g, ' ').replace(/\n/g, ' ').trim();
}
/**
 * marked leaves some entities in text as written; decode the ones a reader means (numeric,
 * and the basic named ones) so they show as characters, not as "&amp;amp;". Others stay literal.
 */
function decodeEntities(text) {
    if (!text.includes('&'))
        return text;
    return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|amp|lt|gt|quot|apos|nbsp);/gi, (entity, name) => {
        const lower = name.toLowerCase();
        const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : lower.startsWith('#') ? Number(lower.slice(1)) : undefined;
        if (code !== undefined)
            return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
        return NAMED[lower] ?? entity;
    });
}
const NAMED = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

;// CONCATENATED MODULE: ./src/steps/run/summary.ts




/** Characters of the agent's answer handed to the parser; more could never fit the budget. */
const OUTPUT_SOURCE_CHARS = 200_000;
const LIMITS = {
    name: 200,
    verdict: 2_000,
    message: 64 * 1024,
    approvalArgs: 64 * 1024,
    sourcesList: 32 * 1024,
    source: 2_000,
    stepsTable: 128 * 1024,
    stepTool: 200,
    stepError: 500,
    stepJson: 200,
    stepCalls: 32 * 1024,
    children: 50,
};
const ICON = { pass: '✅', warn: '⚠️', fail: '❌' };
/** A few lines of what agents write: headings, emphasis, code, links, lists, a table, a quote. */
const WARM_UP_SAMPLE = '## A\n\nSome *text* with `code`, **bold** and a [link](https://example.com).\n\n- one\n- two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n> quoted\n\n```\ncode\n```\n';
/**
 * Render a small answer once and throw it away: V8 compiles each of marked's expressions on its
 * first use, and publish.ts calls this while the hub holds a wait, so that work is not done
 * between the run settling and the step ending.
 */
function warmUp() {
    untrustedMarkdown(WARM_UP_SAMPLE);
}
function renderRunSummary(result, verdict, options = {}) {
    const budget = options.budget ?? format/* SUMMARY_BYTE_BUDGET */.Gh;
    const detail = result.detail;
    let cut = false;
    const clip = (text, max) => {
        const clipped = (0,format/* clipCharacters */.Pu)(text, max, ' …(clipped)');
        cut ||= clipped.clipped;
        return clipped.text;
    };
    const head = [];
    head.push(`## ${ICON[verdict.status]} Agent run: ${(0,format/* inline */.mG)(clip(result.agent, LIMITS.name))} — ${(0,format/* inline */.mG)(clip(result.phase, LIMITS.name))}`);
    // A verdict line that only repeats the heading is left out; the hub's message is shown once, in
    // its own section when there is one, so not in this line.
    const showsHubMessage = Boolean(detail?.message) && result.outcome !== 'succeeded';
    if (!verdictRepeatsHeading(result)) {
        head.push((0,format/* inline */.mG)(clip(showsHubMessage ? withoutHubMessage(verdict.message, detail?.message ?? '') : verdict.message, LIMITS.verdict)));
    }
    if (result.reused) {
        head.push('> [!NOTE]\n> The hub returned an existing run for this idempotency key (a re-run on the same commit attaches to the first run instead of starting another).');
    }
    const duration = detail?.durationMS ?? spanMs(detail?.startedAt, detail?.finishedAt);
    const facts = [
        ['Run', (0,format/* code */.aY)(clip(result.runId, LIMITS.name))],
        ['Phase', `**${(0,format/* inline */.mG)(clip(result.phase, LIMITS.name))}**${result.settled ? '' : ' (not settled)'}`],
        ['Duration', (0,format/* formatDuration */.a3)(duration)],
        ['Waited', (0,format/* formatDuration */.a3)(result.waitedMs)],
    ];
    if (detail) {
        facts.push(['Tokens in / out', `${(0,format/* formatCount */.B4)(detail.inputTokens)} / ${(0,format/* formatCount */.B4)(detail.outputTokens)}`]);
        facts.push(['Cost', (0,format/* formatUsd */.UK)(detail.usdMicros)]);
    }
    head.push((0,format/* table */.tp)(facts.map(([header], index) => ({ header, cell: (row) => row[index] ?? '' })), [facts.map((fact) => fact[1])]));
    if (result.idempotencyKey) {
        head.push(`Idempotency key ${(0,format/* code */.aY)(clip(result.idempotencyKey, LIMITS.name))}, session ${(0,format/* code */.aY)(clip(result.sessionId, LIMITS.name))}.`);
    }
    const body = [];
    if (detail?.message && showsHubMessage) {
        body.push(`### Message from the hub\n\n${(0,format/* fenced */.OF)(clipBytesNoting(detail.message, LIMITS.message))}`);
    }
    if (detail?.pending && result.phase === 'PendingApproval') {
        const args = detail.pending.args === undefined
            ? ''
            : `\n\n${(0,format/* fenced */.OF)(clipBytesNoting((0,json_text/* jsonTextForDisplay */.D)(detail.pending.args, LIMITS.approvalArgs), LIMITS.approvalArgs), 'json')}`;
        const id = detail.pending.inboxID ? ` (approval ${(0,format/* code */.aY)(clip(detail.pending.inboxID, LIMITS.name))})` : '';
        body.push(`### Waiting for approval\n\nTool ${(0,format/* code */.aY)(clip(detail.pending.tool ?? 'unknown', LIMITS.name))} needs a human's approval${id}: on the hub, or with \`command: approve\` and this step's \`approval-id\` output.${args}`);
    }
    const tail = [];
    // Sources once: those the agent's answer already names are not listed again.
    const sources = (detail?.sources ?? []).filter((source) => !detail?.output?.includes(source));
    if (sources.length > 0)
        tail.push(sourcesSection(sources, clip, () => (cut = true)));
    const children = detail ? childrenSection(detail, clip) : '';
    if (children)
        tail.push(children);
    if (detail && detail.steps.length > 0)
        tail.push(stepsSection(detail.steps, clip, () => (cut = true)));
    function clipBytesNoting(text, max) {
        const clipped = (0,format/* clipBytes */.Wp)(text, max, '\n…(clipped)');
        cut ||= clipped.clipped;
        return clipped.text;
    }
    // The agent's answer gets what the other sections leave, less room for the note.
    let output;
    if (detail?.output) {
        const note = trimmedNote(options.resultFile);
        const others = [...head, ...body, ...tail, note].reduce((sum, section) => sum + (0,format/* byteLength */.dp)(section) + 2, 0);
        const source = (0,format/* clipCharacters */.Pu)(detail.output, OUTPUT_SOURCE_CHARS, '\n\n…(clipped)');
        const room = Math.max(0, budget - others - (0,format/* byteLength */.dp)('### Output\n\n') - 1);
        const answer = untrustedMarkdown(source.text, { headingsBelow: 3, maxBytes: room });
        cut ||= source.clipped || answer.clipped;
        output = `### Output\n\n${answer.markdown || '_(too long for the job summary: see the result file)_'}`;
    }
    const sections = [...head, ...(cut ? [trimmedNote(options.resultFile)] : []), ...body, ...(output ? [output] : []), ...tail];
    return `${sections.join('\n\n')}\n`;
}
/**
 * "Run … of agent … succeeded." says only what the heading, the table and "Message from the hub"
 * show; the other verdicts (timed out, waiting for approval, no message …) say more.
 */
function verdictRepeatsHeading(result) {
    if (result.outcome === 'succeeded')
        return true;
    return (result.outcome === 'failed' || result.outcome === 'aborted') && Boolean(result.detail?.message);
}
function trimmedNote(resultFile) {
    const where = resultFile ? `the result file ${(0,format/* code */.aY)(resultFile)} (output \`result-file\`)` : 'the result file (output `result-file`)';
    return `> [!NOTE]\n> Parts of this run were cut to keep the job summary under GitHub's 1 MiB limit: ${where} holds all of it.`;
}
/** The sources list, whole items only, up to its byte cap; a last item counts those left out. */
function sourcesSection(sources, clip, noteCut) {
    const shown = [];
    let size = 0;
    for (const source of sources) {
        const item = `- ${linkOrText(clip(source, LIMITS.source))}`;
        if (size + (0,format/* byteLength */.dp)(item) + 1 > LIMITS.sourcesList)
            break;
        shown.push(item);
        size += (0,format/* byteLength */.dp)(item) + 1;
    }
    if (shown.length < sources.length) {
        noteCut();
        shown.push(`- … and ${(0,format/* formatCount */.B4)(sources.length - shown.length)} more: the result file lists them all.`);
    }
    return `### Sources\n\n${shown.join('\n')}`;
}
/** The steps table, whole rows only, up to its byte cap; a last line counts the rows left out. */
function stepsSection(steps, clip, noteCut) {
    const rows = [];
    let size = 0;
    for (const [index, step] of steps.entries()) {
        const cells = { tool: clip(step.tool, LIMITS.stepTool), outcome: clip(step.outcome, LIMITS.name), error: step.error && clip(step.error, LIMITS.stepError) };
        const row = { step: { ...step, ...cells }, number: index + 1 };
        const rowSize = (0,format/* byteLength */.dp)(stepsTable([row])) - STEPS_HEADER_BYTES;
        if (size + rowSize > LIMITS.stepsTable)
            break;
        rows.push(row);
        size += rowSize;
    }
    let body = stepsTable(rows);
    const left = steps.length - rows.length;
    if (left > 0) {
        noteCut();
        body += `\n\n… and ${(0,format/* formatCount */.B4)(left)} more ${left === 1 ? 'step' : 'steps'}: the result file lists them all.`;
    }
    const calls = stepCalls(rows, noteCut);
    if (calls)
        body += `\n\n${calls}`;
    return (0,format/* details */.zH)(`Steps (${steps.length})`, body);
}
/**
 * Each shown step's arguments and result, parsed from the JSON text the hub sends (§1) and shown
 * as compact JSON, each clipped, the list within its own byte cap.
 */
function stepCalls(rows, noteCut) {
    const lines = [];
    let size = 0;
    for (const { step, number } of rows) {
        const parts = [];
        if (step.args !== undefined)
            parts.push(`arguments ${(0,format/* code */.aY)((0,json_text/* jsonTextForDisplay */.D)(step.args, LIMITS.stepJson, 'compact'))}`);
        if (step.result !== undefined)
            parts.push(`result ${(0,format/* code */.aY)((0,json_text/* jsonTextForDisplay */.D)(step.result, LIMITS.stepJson, 'compact'))}`);
        if (parts.length === 0)
            continue;
        const line = `- ${number}: ${parts.join(' → ')}`;
        if (size + (0,format/* byteLength */.dp)(line) + 1 > LIMITS.stepCalls) {
            noteCut();
            lines.push('- … the result file holds the rest.');
            break;
        }
        lines.push(line);
        size += (0,format/* byteLength */.dp)(line) + 1;
    }
    return lines.length > 0 ? `Calls:\n\n${lines.join('\n')}` : '';
}
function stepsTable(rows) {
    return (0,format/* table */.tp)([
        { header: '#', cell: (row) => String(row.number), align: 'right' },
        { header: 'Tool', cell: (row) => (0,format/* code */.aY)(row.step.tool) },
        { header: 'Outcome', cell: (row) => (0,format/* inline */.mG)(row.step.outcome) + (row.step.error ? ` — ${(0,format/* inline */.mG)(row.step.error)}` : '') },
        { header: 'Duration', cell: (row) => (0,format/* formatDuration */.a3)(row.step.durationMS), align: 'right' },
    ], rows);
}
const STEPS_HEADER_BYTES = (0,format/* byteLength */.dp)(stepsTable([]));
function linkOrText(source) {
    try {
        const url = new URL(source);
        if (url.protocol === 'https:' || url.protocol === 'http:')
            return `<${url.href.replace(/[<>\\\s]/g, encodeURIComponent)}>`;
    }
    catch {
        // not a URL
    }
    return (0,format/* inline */.mG)(source);
}
function spanMs(from, to) {
    if (!from || !to)
        return undefined;
    const span = Date.parse(to) - Date.parse(from);
    return Number.isFinite(span) ? span : undefined;
}
/** The verdict line without the hub's message, which has a section of its own. */
function withoutHubMessage(message, hubMessage) {
    const at = message.indexOf(`: ${hubMessage}`);
    return at < 0 ? message : `${message.slice(0, at)} (the hub's message is below).${message.slice(at + 2 + hubMessage.length)}`;
}
/** Runs this one delegated to or spawned, with their phase; the hub lists at most 50. */
function childrenSection(detail, clip) {
    const children = detail.children.flatMap((child) => {
        const parsed = schemas/* ChildRunSchema */.d2.safeParse(child);
        return parsed.success ? [parsed.data] : [];
    });
    if (children.length === 0)
        return '';
    const shown = children.slice(0, LIMITS.children);
    const rows = (0,format/* table */.tp)([
        { header: 'Run', cell: (child) => (0,format/* code */.aY)(clip(child.id ?? 'unknown', LIMITS.name)) },
        { header: 'Agent', cell: (child) => (0,format/* inline */.mG)(clip(child.agent ?? 'unknown', LIMITS.name)) },
        { header: 'Phase', cell: (child) => (0,format/* inline */.mG)(clip(child.phase ?? 'unknown', LIMITS.name)) },
        { header: 'Kind', cell: (child) => (0,format/* inline */.mG)(clip(child.class ?? child.trigger ?? '', LIMITS.name)) },
    ], shown);
    const more = children.length > shown.length
        ? `

… and ${(0,format/* formatCount */.B4)(children.length - shown.length)} more: the result file lists them all.`
        : '';
    return `### Children runs (${(0,format/* formatCount */.B4)(children.length)})

${rows}${more}`;
}


/***/ })

};
