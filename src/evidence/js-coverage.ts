// PLACEHOLDER (helper E builds the real file; the lead replaces this one at the merge):
// which changed lines of JavaScript and TypeScript files the voting tests run on the head,
// through one extra head run under V8 coverage. This branch measures none.
import type { GateContext } from '../context.js'
import type { Logger } from '../types.js'
import type { ChangedLines, LineCoverage } from './types.js'

export interface JsCoverageOptions {
  worktree: string
  changed: ChangedLines[]
  log: Logger
}

/** PLACEHOLDER: an empty coverage with the reason it is empty. */
export function jsCoverage(ctx: GateContext, opts: JsCoverageOptions): Promise<LineCoverage> {
  void ctx
  void opts
  return Promise.resolve({
    covered: new Map(),
    problems: ['JavaScript and TypeScript coverage is not built in this branch']
  })
}
