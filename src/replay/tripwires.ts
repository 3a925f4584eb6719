// Run-time tripwires, for what no static rule can see: the head's production code runs in
// the voting process and can lie about the results. Three lies leave traces the gate can
// check after the fact:
// - exit status vs report: the runner exits non-zero (or is killed) while its report holds
//   no failing test (`report-mismatch`);
// - the canary (canary.ts) reported passed, or gone while other tests ran (`runner-tampered`);
// - fail→pass hits although the patch wrote nothing on the source plane (`unexplained-hit`).
// RunWatch records what each run showed (I/O: it arms the canary); the judges are pure.
// On the base every tripwire is a gate error: the base's own instrument cannot be trusted,
// and nothing the patch did can have caused it.
import type { GateContext } from '../context.js'
import type { Plane, Reason, WriteSetRow } from '../types.js'
import {
  armCanary,
  disarmCanary,
  takeCanary,
  type CanaryOutcome,
  type CanaryPlan,
  type CanaryPlanning
} from './canary.js'
import { runSuite, type RunRequest, type Side, type SuiteRun } from './run.js'

/** What one run of the suite showed, for the tripwires. */
export interface RunRecord {
  attempt: number
  exitCode: number | null
  signal: string | null
  /** Test cases in the report (the canary's excluded). */
  cases: number
  /** Failing or erroring cases in the report (the canary's included). */
  failing: number
  /** Passing cases in the report (the canary's excluded): tests did run. */
  passed: number
  /** What the report said about the canary, when it was armed for this run. */
  canary?: CanaryOutcome
}

/** Runs the suite for one side and keeps a record of every run that left a report. */
export class RunWatch {
  readonly records: RunRecord[] = []

  constructor(
    readonly side: Side,
    private readonly canary: CanaryPlan | null
  ) {}

  /** One run; `arm` writes the canary for its duration (the first run of a side). */
  async run(ctx: GateContext, req: RunRequest, arm = false): Promise<SuiteRun> {
    const canary = arm ? this.canary : null
    if (canary) await armCanary(req.worktree, canary)
    let run: SuiteRun
    try {
      run = await runSuite(ctx, req)
    } finally {
      if (canary) await disarmCanary(req.worktree, canary)
    }
    if (run.report === null) return run
    const failing = run.report.cases.filter(c => c.outcome === 'failed' || c.outcome === 'error')
    const record: RunRecord = {
      attempt: req.attempt,
      exitCode: run.result.exitCode,
      signal: run.result.signal,
      cases: run.report.cases.length,
      failing: failing.length,
      passed: run.report.cases.filter(c => c.outcome === 'passed').length
    }
    if (canary) {
      const taken = takeCanary(run.report, canary.token)
      record.canary = taken.outcome
      record.cases = taken.report.cases.length
      record.passed = taken.report.cases.filter(c => c.outcome === 'passed').length
      run = { ...run, report: taken.report }
    }
    this.records.push(record)
    return run
  }
}

/** The exit status contradicts the report: non-zero or a signal, and no failing case. */
export function exitMismatch(r: RunRecord): string | null {
  // A report where nothing ran (empty, or all skipped: a selection that matched nothing) is
  // judged by empty-vote and vanished-oracle; every runner has its own exit code for "no
  // tests" (pytest 5, vitest and jest 1), which is honest there.
  const ran = r.passed + r.failing > 0 || r.canary === 'passed' || r.canary === 'skipped'
  if (!ran) return null
  if (r.failing > 0) return null
  if (r.signal !== null) return `was killed by ${r.signal}`
  if (r.exitCode !== null && r.exitCode !== 0) return `exited with status ${r.exitCode}`
  return null
}

export interface TripwireInput {
  base: readonly RunRecord[]
  head: readonly RunRecord[]
  canary: CanaryPlanning
  policyPath: string
}

export interface TripwireVerdict {
  reasons: Reason[]
  /** Tripwires on the base: the instrument itself is untrustworthy (a gate error). */
  baseProblems: string[]
}

export function judgeTripwires(input: TripwireInput): TripwireVerdict {
  const reasons: Reason[] = []
  const baseProblems: string[] = []
  const at = (side: Side, r: RunRecord): string =>
    r.attempt === 0 ? `the first run on ${side}` : `rerun ${r.attempt} on ${side}`

  for (const r of input.base) {
    const why = exitMismatch(r)
    if (why)
      baseProblems.push(
        `the runner ${why} in ${at('base', r)} while its report shows no failing test: the instrument's runner contradicts its own report on the merge base, so nothing it reports can be trusted`
      )
  }
  for (const r of input.head) {
    const why = exitMismatch(r)
    if (!why) continue
    reasons.push({
      rule: 'report-mismatch',
      message: `the runner ${why} in ${at('head', r)} while its report shows no failing test: code in the voting process changed the report or the exit (a red vote)`,
      path: input.policyPath,
      level: 'failure'
    })
  }
  const canary = judgeCanary(input)
  reasons.push(...canary.reasons)
  baseProblems.push(...canary.baseProblems)
  return { reasons, baseProblems }
}

function judgeCanary(input: TripwireInput): TripwireVerdict {
  const notice = (why: string): TripwireVerdict => ({
    reasons: [
      {
        rule: 'diagnostic',
        message: `the canary was not armed: ${why}; report tampering by a wholesale rewrite is not checked`,
        path: input.policyPath,
        level: 'notice'
      }
    ],
    baseProblems: []
  })
  if (input.canary.plan === null) return notice(input.canary.why)
  const plan = input.canary.plan
  const name = `${plan.path}::${plan.token}`
  const base = input.base.find(r => r.canary !== undefined)
  if (base === undefined) return { reasons: [], baseProblems: [] } // the base left no report
  if (base.canary === 'absent')
    return notice(`the voting command did not collect ${plan.path} on the base`)
  if (base.canary === 'passed' || base.canary === 'skipped')
    return {
      reasons: [],
      baseProblems: [
        `the canary ${name}, a test written to fail, was reported ${base.canary} on the base: the instrument's runner does not report what ran`
      ]
    }
  const head = input.head.find(r => r.canary !== undefined)
  if (head === undefined) return { reasons: [], baseProblems: [] }
  const tampered = (message: string): TripwireVerdict => ({
    reasons: [{ rule: 'runner-tampered', message, path: input.policyPath, level: 'failure' }],
    baseProblems: []
  })
  if (head.canary === 'passed' || head.canary === 'skipped')
    return tampered(
      `the canary ${name}, a test the gate wrote to fail, was reported ${head.canary} on the head: something in the voting process rewrote the runner's results`
    )
  // Gone while other tests passed and none failed. A head with a real failure proves
  // nothing (a runner configured to stop at the first failure may never have reached it).
  if (head.canary === 'absent' && head.passed > 0 && head.failing === 0)
    return tampered(
      `the canary ${name}, a test the gate wrote to fail and the base's run reported, is missing from the head's report while ${head.passed} other test(s) passed: something in the voting process removed results`
    )
  return { reasons: [], baseProblems: [] }
}

/**
 * Fail→pass hits with no production change: either the oracle is a coin or something other
 * than production code (a dependency, configuration, the environment) moved it.
 */
export function unexplainedHit(
  writeSet: readonly WriteSetRow[],
  hits: readonly string[],
  planeOf: (path: string) => Plane,
  policyPath: string
): Reason | null {
  if (hits.length === 0) return null
  const source = writeSet.some(
    r =>
      r.plane === 'source' ||
      (r.previous_path !== undefined && planeOf(r.previous_path) === 'source')
  )
  if (source) return null
  const shown = hits.slice(0, 10).join(', ')
  const more = hits.length > 10 ? ` and ${hits.length - 10} more` : ''
  return {
    rule: 'unexplained-hit',
    message: `${hits.length} voting test(s) went from fail to pass (${shown}${more}) although the patch writes nothing on the source plane: either the oracle is a coin or something other than production code moved it`,
    path: policyPath,
    level: 'failure'
  }
}
