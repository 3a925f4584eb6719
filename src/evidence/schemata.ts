// Every mutant of a pytest head in one session of the runner (docs/evidence.md "How they
// run"): the mutants go to the gate's pytest reporter in the watch plan (`schemata`), which
// compiles the changed files with each mutated statement behind a switch, and runs each
// mutant's covering tests with its switch on (src/reporters/python/gate_mutate.py). The
// file on disk is never written. What comes back, per mutant, is a `mutant` record on the
// outcome stream: the cases its tests gave, or why it must run in a process of its own
// (its statement runs at import), or why it was not run (the budget). The session is
// watched as the vote is (the vote's plan: the runner's state hidden from the patch's
// lines); a patch line that did what oracle-reach reports there voids every answer, one
// that reached the gate's switches (an `instrument` record) those of its file's mutants. This module builds
// the plan and reads the records; mutate.ts judges them and runs the rest one by one.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { GateContext } from '../context.js'
import type { RawCase } from '../replay/junit.js'
import { rerunArgs, type RerunPlan } from '../replay/rerun.js'
import { runSuite, type SuiteRun } from '../replay/run.js'
import { allowList, type AllowCheck } from '../lints/reach/allow.js'
import type { WatchPlan } from '../replay/watch.js'
import { instrumentReads, reachVoid, voids } from './instrument.js'
import type { Mutant } from './types.js'

/** What the session said of one mutant. */
export type SessionResult = { cases: RawCase[] } | { perProcess: string } | { notRun: string }

export interface SessionInput {
  worktree: string
  /** The mutants, by their index k in the run. */
  mutants: readonly { k: number; m: Mutant; tests: readonly string[] }[]
  budgetSec: number
  plan: RerunPlan
  attempt: number
  maxSelected: number
  log: string
}

/** One mutant as the plugin reads it: code point offsets of the head's file text. */
interface PlanMutant {
  k: number
  path: string
  start: number
  end: number
  replacement: string
  original: string
  tests: readonly string[]
}

/**
 * Runs the session; per mutant what it said. Mutants left out of the map get no answer
 * from the session (it died, or never read the plan): the caller runs them one by one.
 * Watched as the vote is: the vote's plan (the patch's lines, the instrument, reach; no
 * coverage), so the runner's state is hidden from the patch's lines as in the vote; where
 * they did what oracle-reach reports, every answer is void (not run).
 */
export async function runSession(
  ctx: GateContext,
  input: SessionInput
): Promise<Map<number, SessionResult>> {
  const planned = await planMutants(input)
  if (planned.length === 0) return new Map()
  const run = await runSuite(
    { ...ctx, watch: schemataPlan(ctx.watch, planned, input.budgetSec) },
    {
      side: 'head',
      worktree: input.worktree,
      attempt: input.attempt,
      ...selection(ctx, input)
    }
  )
  const results = readSession(run, planned, ctx.policy.suite.timeout)
  const why = reachVoid(
    run.stream?.state === 'read' ? run.stream.events : [],
    ctx.watch,
    allowed(ctx)
  )
  if (why !== null) for (const p of planned) results.set(p.k, { notRun: why })
  return results
}

/** lints.reach_allow, as oracle-reach at run time reads it. */
export const allowed = (ctx: GateContext): AllowCheck =>
  allowList(ctx.policy.lints.reach_allow, ctx.policy.case_insensitive)

/**
 * The plan of a mutant run: the vote's without coverage and without the differential
 * recording (or none when the vote had none). Both serve the vote alone: a mutant's answer
 * reads only the outcomes and the run-time reach events, and the recorder's wrappers cost
 * about a seventh of a head run on the demo (BENCHMARKS.md 2026-12-03, second section).
 */
export function mutantWatch(vote: WatchPlan | null | undefined): WatchPlan | null {
  return vote ? { ...vote, cover: false, diff: false } : null
}

/** The command and selection: the union of the mutants' tests, or the whole suite. */
function selection(
  ctx: GateContext,
  input: SessionInput
): { command: string; tests: string[]; testArgs: string[]; logFile: string } {
  const union = [...new Set(input.mutants.flatMap(x => x.tests))].sort()
  const selects = input.plan.selects && union.length <= input.maxSelected
  return {
    command: selects ? input.plan.command : ctx.policy.suite.command,
    tests: selects ? union : [],
    testArgs: selects ? rerunArgs(input.plan, union) : [],
    logFile: input.log
  }
}

function schemataPlan(
  vote: WatchPlan | null | undefined,
  mutants: readonly PlanMutant[],
  budgetSec: number
): WatchPlan {
  const base = mutantWatch(vote) ?? { lines: {}, instrument: [], reach: false, cover: false }
  const plan: WatchPlan & { schemata: unknown } = {
    ...base,
    schemata: { budget_s: budgetSec, mutants }
  }
  return plan
}

/**
 * The mutants whose file still holds the text they were made from, with offsets in code
 * points (Python's string indices; the mutant's are UTF-16). Others are left to the
 * one-by-one way, which refuses them with its reason.
 */
async function planMutants(input: SessionInput): Promise<PlanMutant[]> {
  const texts = new Map<string, string | null>()
  const out: PlanMutant[] = []
  for (const { k, m, tests } of input.mutants) {
    if (!texts.has(m.path))
      texts.set(m.path, await readFile(join(input.worktree, m.path), 'utf8').catch(() => null))
    const text = texts.get(m.path)
    if (text === null || text === undefined || m.original === undefined) continue
    if (text.slice(m.start, m.end) !== m.original) continue
    const start = [...text.slice(0, m.start)].length
    const end = start + [...m.original].length
    out.push({
      k,
      path: m.path,
      start,
      end,
      replacement: m.replacement,
      original: m.original,
      tests
    })
  }
  return out
}

/**
 * The `mutant` records of a session. A session that timed out was running the first
 * mutant without a record: that one timed out, the rest are the caller's to run.
 */
export function readSession(
  run: SuiteRun,
  planned: readonly { k: number; path: string }[],
  timeoutSec: number
): Map<number, SessionResult> {
  const out = new Map<number, SessionResult>()
  const stream = run.stream
  if (stream?.state !== 'read' || stream.watched === 0 || stream.problems.length > 0) return out
  const asked = new Set(planned.map(p => p.k))
  const reads = instrumentReads(stream.events)
  for (const p of planned)
    if (voids(reads, p.path))
      out.set(p.k, {
        notRun: `the product reached the gate's mutant switches (${reads.why.join('; ')})`
      })
  for (const event of stream.events) {
    // `index`: the mutant's k (the channel's own `k` is the run's nonce).
    const k = event.index
    if (event.t !== 'mutant' || typeof k !== 'number' || !asked.has(k)) continue
    if (voids(reads, planned.find(p => p.k === k)?.path ?? '')) continue
    if (out.has(k)) {
      // Two answers for one mutant: the records cannot be trusted; all go one by one.
      return new Map()
    }
    const result = sessionResult(event)
    if (result !== null) out.set(k, result)
  }
  if (run.result.timedOut) {
    const hung = planned.find(p => !out.has(p.k))
    if (hung) out.set(hung.k, { notRun: `timed out after ${timeoutSec}s` })
  }
  return out
}

function sessionResult(event: Record<string, unknown>): SessionResult | null {
  if (typeof event.per_process === 'string') return { perProcess: event.per_process }
  if (typeof event.not_run === 'string') return { notRun: event.not_run }
  if (!Array.isArray(event.cases)) return null
  const cases: RawCase[] = []
  for (const c of event.cases as unknown[]) {
    const raw = caseOf(c)
    if (raw === null) return null
    cases.push(raw)
  }
  return { cases }
}

const OUTCOMES = new Set(['passed', 'failed', 'error', 'skipped'])

function caseOf(value: unknown): RawCase | null {
  if (typeof value !== 'object' || value === null) return null
  const r = value as Record<string, unknown>
  if (typeof r.name !== 'string' || typeof r.outcome !== 'string' || !OUTCOMES.has(r.outcome))
    return null
  const c: RawCase = {
    classname: typeof r.classname === 'string' ? r.classname : '',
    name: r.name,
    suites: [],
    outcome: r.outcome as RawCase['outcome'],
    flaky: false
  }
  if (typeof r.file === 'string') c.file = r.file
  if (typeof r.line === 'number') c.line = r.line
  return c
}
