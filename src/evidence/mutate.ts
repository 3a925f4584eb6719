// PLACEHOLDER (helper D builds the real file; the lead replaces this one at the merge):
// runs each mutant against the voting tests that cover its line, in the head's worktree.
// The input is D's; this branch runs no mutant.
import type { GateContext } from '../context.js'
import type { Mutant, MutantOutcome } from './types.js'

export interface MutationInput {
  /** The head's worktree at its run path: overlay applied, setup done, the vote over. */
  worktree: string
  mutants: readonly Mutant[]
  /** Canonical ids of the voting tests that cover the mutant's line. */
  testsFor: (m: Mutant) => readonly string[]
  /** Seconds after which no further mutant is started. */
  budgetSec: number
  /** The file the mutant runs log to. */
  log: string
  /** The merge base's files, for node:test titles (ids.ts literalFiles). */
  baseFiles?: readonly string[]
  /** The vote's fidelity check of this worktree after a run (empty when unchanged). */
  fidelity?: () => Promise<readonly unknown[]>
}

/** PLACEHOLDER: the outcome of each mutant (none run in this branch). */
export function runMutants(ctx: GateContext, input: MutationInput): Promise<MutantOutcome[]> {
  void ctx
  void input
  return Promise.resolve([])
}
