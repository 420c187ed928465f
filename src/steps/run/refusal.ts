import { ActionError } from '../../errors.js'

/** A lifecycle command that declined to act on what the hub showed (nothing was sent to change it). */
export class StepRefusal extends ActionError {
  constructor(message: string, operation = 'resolve the approval') {
    super(message, { operation, hint: 'see the message' })
    this.name = 'StepRefusal'
  }
}

/** Hub text inside one of our messages: quoted, on one line, and short. */
export function quoteHubText(text: string | undefined, max = 200): string {
  const line = (text ?? '').replace(/\s+/g, ' ')
  return JSON.stringify(line.length > max ? `${line.slice(0, max)}…` : line)
}
