// The `instrument` records of a watched Python run (src/reporters/python/probe_guard.py):
// one of the patch's lines obtained a code object holding the gate's coverage probes or
// mutant switches, a frame outside the patch's files (whose locals lead to them), or walked
// the heap. What those instruments measured is then the product's to write: the files'
// coverage does not count (their lines are uncovered) and their mutants are not run
// (docs/evidence.md "What the product can reach"). A record is the product's to forge too,
// but forging one only takes evidence away. Pure.
import { printable } from '../lints/reach/index.js'
import type { AllowCheck } from '../lints/reach/allow.js'
import { reachEvents } from '../replay/reach-events.js'
import type { WatchPlan } from '../replay/watch.js'

/** What the records of one run void: the files (repository paths) or every file. */
export interface InstrumentReads {
  /** Every instrumented file is void (a frame or the heap was reached). */
  all: boolean
  files: Set<string>
  /** One line per record, for the card: "app/fee.py:6 read the code object of fee …". */
  why: string[]
}

/** Most records described (each is printed from head-controlled names). */
const MAX_WHY = 5
const MAX_TEXT = 160

export function instrumentReads(events: readonly Record<string, unknown>[]): InstrumentReads {
  const out: InstrumentReads = { all: false, files: new Set(), why: [] }
  for (const e of events) {
    if (e.t !== 'instrument' || !Array.isArray(e.files)) continue
    for (const f of e.files as unknown[]) {
      if (f === '*') out.all = true
      else if (typeof f === 'string') out.files.add(f)
    }
    if (out.why.length < MAX_WHY) out.why.push(describe(e))
  }
  return out
}

/** Does this read void `path`'s instrument? */
export function voids(reads: InstrumentReads, path: string): boolean {
  return reads.all || reads.files.has(path)
}

export const isEmpty = (reads: InstrumentReads): boolean => !reads.all && reads.files.size === 0

/**
 * Why a mutant run's answers are void, or null: one of the patch's lines did there what
 * oracle-reach at run time reports (the run is watched with the vote's plan), other than a
 * comparison (a lying comparison can only hide a failure: fewer kills, never a forged one)
 * and than what lints.reach_allow waives. Not findings of their own: a mutant's paths are
 * not quite the patch's, and the vote's are what oracle-reach judges.
 */
export function reachVoid(
  events: readonly Record<string, unknown>[],
  plan: WatchPlan | null | undefined,
  allowed: AllowCheck
): string | null {
  if (!plan) return null
  const found = reachEvents(events, plan).events.filter(
    e => e.category !== 'comparison' && !allowed(e.path, e.category)
  )
  const first = found[0]
  if (first === undefined) return null
  const what = printable(`${first.path}:${first.line}: ${first.category}: ${first.what}`, MAX_TEXT)
  return `the patch's lines reached the runner's state during the mutant run (${what.replace(/`/g, "'")})`
}

function describe(e: Record<string, unknown>): string {
  const at = typeof e.path === 'string' && typeof e.line === 'number' ? `${e.path}:${e.line}` : '?'
  const what = typeof e.what === 'string' ? e.what : 'the instrument reached'
  // Backticks too: the card puts these lines in code spans.
  return printable(`${at}: ${what}`, MAX_TEXT).replace(/`/g, "'")
}
