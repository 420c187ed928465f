/**
 * marked's lexer, driven pass by pass with guards against input that would make it slow or
 * overflow the stack: bounded container nesting and inline runs parsed only while their
 * emphasis matching stays cheap. untrusted.ts renders what it returns.
 */
import { Lexer, type Token } from 'marked'

/**
 * marked's emphasis matching is quadratic in the delimiters of one inline run (60 s for 200k
 * characters of "*a"): a run with more delimiters than a reader would write, or longer than
 * this, is shown as plain text instead of being parsed.
 */
const MAX_INLINE_DELIMITERS = 400
/** Characters parsed at most; no summary could show more. */
export const MAX_SOURCE_CHARS = 200_000
/**
 * The parser's cost grows with container nesting (seconds for a few hundred levels, a stack
 * overflow beyond): a line's leading run of container markers and indentation is cut to this.
 */
const MAX_LINE_PREFIX = 48
const MAX_INLINE_CHARS = 20_000

/** Blocks, then each inline run that is safe to parse (what `Lexer.lex` does, with the guard). */
export function lexBlocks(source: string): Token[] | undefined {
  try {
    const lexer = new Lexer({ gfm: true, breaks: false })
    const blocks = lexer.blockTokens(source, lexer.tokens)
    for (const run of lexer.inlineQueue) {
      lexer.state.inRawBlock = false
      if (run.src.length <= MAX_INLINE_CHARS && countDelimiters(run.src) <= MAX_INLINE_DELIMITERS)
        lexer.inlineTokens(run.src, run.tokens)
      else run.tokens.push({ type: 'text', raw: run.src, text: run.src, escaped: false })
    }
    lexer.inlineQueue = []
    return blocks
  } catch {
    // Nesting deep enough to exhaust the stack, say.
    return undefined
  }
}

export function boundNesting(source: string): string {
  return source.replace(/^[ \t>*+\-.)\d]{49,}/gm, (prefix) => prefix.slice(0, MAX_LINE_PREFIX))
}

function countDelimiters(text: string): number {
  let count = 0
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i)
    if (ch === 42 || ch === 95 || ch === 126 || ch === 91 || ch === 96) count++ // * _ ~ [ `
  }
  return count
}
