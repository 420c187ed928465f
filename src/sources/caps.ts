/**
 * What bounds the targets a pull request can declare: a cap on targets per step and on documents
 * per file, each checked while reading (before the first hub request). The limit on hub requests
 * in flight is impact's own (commands/impact/query-impact.ts).
 */
import { ActionError } from '../errors.js'

/** A cap on what the inputs declared was passed; the step fails before any hub request. */
export class CapError extends ActionError {
  constructor(statement: string, input: string) {
    super({
      kind: 'statement',
      statement,
      operation: 'collect the targets',
      hint: `raise \`${input}\`, or narrow what is read`,
    })
    this.name = 'CapError'
  }
}

/** `counted` is what was seen when reading stopped: the whole count, or a lower bound. */
export function tooManyTargets(max: number, counted: number, complete: boolean, inputs: readonly string[]): CapError {
  const declared = complete ? counted.toLocaleString('en-US') : `more than ${max.toLocaleString('en-US')}`
  return new CapError(
    `Too many targets: ${inputs.map((input) => `\`${input}\``).join(', ')} declare ${declared} distinct objects, over \`max-targets\` (${max.toLocaleString('en-US')}); nothing was sent to the hub. Raise \`max-targets\` if every one should be reported, or narrow the globs (a pull request you do not trust chooses them: set \`allowed-namespaces\` and \`allowed-kinds\` too).`,
    'max-targets',
  )
}

export function tooManyDocuments(path: string, max: number): CapError {
  return new CapError(
    `Too many documents in one file: ${path} holds more than ${max.toLocaleString('en-US')} YAML documents (a List's items each count as one), over \`max-documents\` (${max.toLocaleString('en-US')}); reading stopped there and nothing was sent to the hub. Raise \`max-documents\`, or split the file.`,
    'max-documents',
  )
}
