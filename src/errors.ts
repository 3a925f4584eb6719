import type { Reason, RuleId } from './types.js'

/**
 * An error the gate can name: which rule it belongs to and, when known, the file and line.
 * Anything thrown that is not a GateError is reported as `gate-error`; both end as the
 * verdict `error`, never a pass.
 */
export class GateError extends Error {
  readonly rule: RuleId
  readonly path?: string
  readonly line?: number

  constructor(
    message: string,
    options: { rule?: RuleId; path?: string; line?: number; cause?: unknown } = {}
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'GateError'
    this.rule = options.rule ?? 'gate-error'
    if (options.path !== undefined) this.path = options.path
    if (options.line !== undefined) this.line = options.line
  }
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}

/** The card's reason for an error: a GateError keeps its rule and place; anything else is `gate-error`. */
export function reasonFromError(error: unknown): Reason {
  if (error instanceof GateError) {
    const reason: Reason = { rule: error.rule, message: error.message, level: 'failure' }
    if (error.path !== undefined) reason.path = error.path
    if (error.line !== undefined) reason.line = error.line
    return reason
  }
  return { rule: 'gate-error', message: `internal error: ${errorMessage(error)}`, level: 'failure' }
}
