/**
 * The one error root. Every failure the action reports says what it was doing (`operation`)
 * and what the user can do about it (`hint`); the original error stays as `cause`. main.ts
 * prints the message of any ActionError as it is, and treats anything else as a bug.
 */
export interface ActionErrorInit {
  operation: string
  hint: string
  cause?: unknown
}

export class ActionError extends Error {
  readonly operation: string
  readonly hint: string

  constructor(message: string, init: ActionErrorInit) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = 'ActionError'
    this.operation = init.operation
    this.hint = init.hint
  }
}
