import { ActionError, type StatementErrorData } from '../../errors.js'

/** A lifecycle command that declined to act on what the hub showed (nothing was sent to change it). */
export class StepRefusal extends ActionError<StatementErrorData> {
  constructor(statement: string, operation = 'resolve the approval') {
    super({ kind: 'statement', operation, hint: 'see the message', statement })
    this.name = 'StepRefusal'
  }
}

/** Hub text inside one of our messages: quoted, on one line, and short. */
export function quoteHubText(text: string | undefined, max = 200): string {
  const line = (text ?? '').replace(/\s+/g, ' ')
  return JSON.stringify(line.length > max ? `${line.slice(0, max)}…` : line)
}
