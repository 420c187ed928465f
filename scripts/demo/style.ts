/**
 * Terminal styles for the demo's renderers. The renderers take a Style so that they stay pure
 * and testable: tests use PLAIN, the demo uses ANSI colours only on a terminal that wants them.
 */
export interface Style {
  bold(text: string): string
  dim(text: string): string
  italic(text: string): string
  code(text: string): string
  heading(text: string): string
  warning(text: string): string
  error(text: string): string
  notice(text: string): string
  good(text: string): string
}

const same = (text: string): string => text
export const PLAIN: Style = {
  bold: same,
  dim: same,
  italic: same,
  code: same,
  heading: same,
  warning: same,
  error: same,
  notice: same,
  good: same,
}

const sgr =
  (open: number, close: number) =>
  (text: string): string =>
    text === '' ? text : `\u001b[${open}m${text}\u001b[${close}m`
const ANSI: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  italic: sgr(3, 23),
  code: sgr(36, 39),
  heading: (text) => sgr(1, 22)(sgr(34, 39)(text)),
  warning: sgr(33, 39),
  error: sgr(31, 39),
  notice: sgr(34, 39),
  good: sgr(32, 39),
}

/** Colours when stdout is a terminal and NO_COLOR is unset (https://no-color.org), else plain text. */
export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Style {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return PLAIN
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return ANSI
  return stream.isTTY ? ANSI : PLAIN
}

/** Columns a string takes in a terminal: ANSI escapes take none, emoji and wide (CJK) characters two. */
export function visibleWidth(text: string): number {
  let width = 0
  for (const char of text.replace(/\u001b\[[0-9;]*m/g, ''))
    width += WIDE.test(char) ? 2 : /\p{Mark}|\u200d|\ufe0f/u.test(char) ? 0 : 1
  return width
}

const WIDE =
  /\p{Emoji_Presentation}|[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u
