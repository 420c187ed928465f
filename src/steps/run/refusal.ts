import { ActionError, type StatementErrorData } from '../../errors.js'
import { clip } from '../../markdown/format.js'

/** A lifecycle command that declined to act on what the hub showed (nothing was sent to change it). */
export class StepRefusal extends ActionError<StatementErrorData> {
  constructor(statement: string, operation = 'resolve the approval') {
    super({ kind: 'statement', operation, hint: 'see the message', statement })
    this.name = 'StepRefusal'
  }
}

/** Hub text inside one of our messages: quoted, on one line, and short. */
export function quoteHubText(text: string | undefined, max = 200): string {
  return JSON.stringify(clip((text ?? '').replace(/\s+/g, ' '), max))
}
