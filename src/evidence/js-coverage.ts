// PLACEHOLDER (helper E builds the real file; the lead replaces this one at the merge):
// which changed lines of JavaScript and TypeScript files the voting tests run on the head,
// through one extra head run under V8 coverage. The input is E's; this branch measures none.
import type { GateContext } from '../context.js'
import type { ChangedLines, LineCoverage } from './types.js'

export interface JsCoverageInput {
  /** The head's worktree, where its vote ran, still in place. */
  worktree: string
  /** The patch's changed production lines; the files that are not JavaScript are ignored. */
  changed: readonly ChangedLines[]
  /** The log file of the coverage run. */
  log: string
}

/** PLACEHOLDER: an empty coverage with the reason it is empty. */
export function jsCoverage(ctx: GateContext, input: JsCoverageInput): Promise<LineCoverage> {
  void ctx
  return Promise.resolve({
    covered: new Map(),
    problems: input.changed.map(c => `${c.path}: not built in this branch (JS/TS coverage)`)
  })
}
