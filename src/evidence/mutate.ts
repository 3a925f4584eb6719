// PLACEHOLDER (helper D builds the real file; the lead replaces this one at the merge):
// runs each mutant against the voting tests that cover its line, in the head's worktree.
// This branch runs none.
import type { GateContext } from '../context.js'
import type { Logger } from '../types.js'
import type { Mutant, MutantOutcome } from './types.js'

export interface MutateOptions {
  worktree: string
  mutants: readonly Mutant[]
  /** Canonical ids of the voting tests to run against a mutant. */
  testsFor: (m: Mutant) => string[]
  budgetSec: number
  log: Logger
}

/** PLACEHOLDER: the outcome of each mutant (none run in this branch). */
export function runMutants(ctx: GateContext, opts: MutateOptions): Promise<MutantOutcome[]> {
  void ctx
  void opts
  return Promise.resolve([])
}
