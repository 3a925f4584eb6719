// What a command of the CLI is given (the streams, the directory, the environment) and the
// exit codes it answers with, by name. In a module of its own so that main and the
// commands it dispatches to need not import each other.
import { statSync } from 'node:fs'
import { parseArgs, type ParseArgsConfig } from 'node:util'
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

type OptionTable = NonNullable<ParseArgsConfig['options']>

/** The flags of a command, typed by its option table. */
export type Flags<O extends OptionTable> = ReturnType<
  typeof parseArgs<{ args: string[]; strict: true; options: O }>
>['values']

/**
 * A command's flags (strict: an unknown flag or a missing value is an error), or the
 * parser's message for the command to report its own way (usage text, an error card).
 */
export function parseFlags<const O extends OptionTable>(
  argv: string[],
  options: O
): { values: Flags<O> } | { error: string } {
  try {
    return { values: parseArgs({ args: argv, strict: true, options }).values }
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) }
  }
}

/** Why `dir` (an absolute --repo) cannot be a checkout: missing, or not a folder; else null. */
export function folderProblem(dir: string): string | null {
  try {
    return statSync(dir).isDirectory() ? null : `${dir} is not a folder`
  } catch {
    return `no such folder: ${dir}`
  }
}
