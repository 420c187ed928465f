/**
 * The job summary's section for `output-schema`: the verdict object the agent gave, or the
 * schema error and the offending block. The block is agent text: shown in a fence it cannot
 * close, invisible characters made visible, clipped (markdown/format.ts).
 */
import type { StructuredAnswer } from './seen.js'
import { clipBytes, fenced, inline } from '../../markdown/format.js'
import { sentence } from './verdict.js'

/** Bytes of the verdict object or the offending block shown; the result file holds the answer whole. */
const BLOCK_BYTES = 16 * 1024

/** The section, or '' when no schema check was made. */
export function structuredSection(answer: StructuredAnswer | undefined, onCut: () => void): string {
  if (!answer) return ''
  const clip = (text: string): string => {
    const clipped = clipBytes(text, BLOCK_BYTES, '\n…(clipped)')
    if (clipped.clipped) onCut()
    return clipped.text
  }
  const retried = answer.followUpOf ? ` (after one follow-up in the session of run ${inline(answer.followUpOf)})` : ''
  if (answer.value !== undefined) {
    const pretty = JSON.stringify(JSON.parse(answer.value), null, 2)
    return `### Structured output\n\nThe answer matches \`output-schema\`${retried}:\n\n${fenced(clip(pretty), 'json')}`
  }
  const second =
    answer.secondError && answer.secondError !== answer.error
      ? `\n\nThe follow-up's answer: ${inline(sentence(answer.secondError))}`
      : ''
  const block = answer.block === undefined ? '' : `\n\nThe offending block:\n\n${fenced(clip(answer.block), 'json')}`
  return `### Structured output\n\nThe answer does not match \`output-schema\`${retried}: ${inline(sentence(answer.error ?? 'unknown error'))}${second}${block}`
}
