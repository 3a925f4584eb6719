// What a command of the CLI is given (the streams, the directory, the environment) and the
// exit codes it answers with, by name. In a module of its own so that main and the
// commands it dispatches to need not import each other.
import { EXIT_CODES } from '../verdict/verdict.js'

export interface Io {
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  cwd: string
  env: NodeJS.ProcessEnv
}

/**
 * Exit codes of everything but a judged `check` (whose code is its verdict's, EXIT_CODES),
 * on the same scale: 2 is a refusal, as a policy verdict is; 4 is "could not decide".
 */
export const EXIT = {
  ok: EXIT_CODES.merge,
  /** An invalid ledger or ledger row. */
  refused: EXIT_CODES.policy,
  /** A usage error, or the command could not run. */
  error: EXIT_CODES.error
} as const
