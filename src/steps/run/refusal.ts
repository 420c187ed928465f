import { ActionError } from '../../errors.js'
import { clip } from '../../markdown/format.js'

/** A lifecycle command that declined to act on what the hub showed (nothing was sent to change it). */
export class StepRefusal extends ActionError {
  constructor(message: string, operation = 'resolve the approval') {
    super(message, { operation, hint: 'see the message' })
    this.name = 'StepRefusal'
  }
}

/** Hub text inside one of our messages: quoted, on one line, and short. */
export function quoteHubText(text: string | undefined, max = 200): string {
  return JSON.stringify(clip((text ?? '').replace(/\s+/g, ' '), max))
}
