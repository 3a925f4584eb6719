// Run-time tripwires, for what no static rule can see: the head's production code runs in
// the voting process and can lie about the results. The lies leave traces the gate can
// check after the fact:
// - the stream vs the report: the gate's reporter streamed each outcome as the test ended
//   (stream.ts); a report that disagrees, a stream cut short or a foreign line on it is
//   `runner-tampered`, naming the test;
// - exit status vs report: the runner exits non-zero (or is killed) while its report holds
//   no failing voting test (`report-mismatch`); a canary written to fail and reported failed
//   is the only other explanation of a non-zero exit;
// - the canaries (canary.ts) reported otherwise than written, or gone while other tests ran
//   (`runner-tampered`);
// - fail→pass hits although the patch wrote nothing on the source plane (`unexplained-hit`).
// RunWatch records what each run showed (I/O: it arms the canaries); the judges are pure.
// On the base every tripwire is a gate error: the base's own instrument cannot be trusted,
// and nothing the patch did can have caused it.
import type { GateContext } from '../context.js'
import type { Plane, Reason, WriteSetRow } from '../types.js'
import {
  armCanary,
  failedAsWritten,
  disarmCanary,
  takeCanary,
  type CanaryPlan,
  type CanaryPlanning,
  type CanaryResult
} from './canary.js'
import type { Report } from './junit.js'
import { runSuite, type RunRequest, type Side, type SuiteRun } from './run.js'
import { detectRunner, type RunnerKind } from './runners.js'
import { crossCheck, withMessages, type StreamOutcome } from './stream.js'

/** What the outcome stream of one run showed. */
export type StreamRecord =
  | { state: 'off'; why: string }
  /** The runner never loaded the gate's reporter (nothing at all on the stream). */
  | { state: 'silent' }
  | { state: 'agrees' }
  | { state: 'tampered'; problems: string[] }

/** What one run of the suite showed, for the tripwires. */
export interface RunRecord {
  attempt: number
  exitCode: number | null
  signal: string | null
  /** Test cases in the vote (the canaries' excluded). */
  cases: number
  /** Failing or erroring cases in the vote (the canaries' excluded). */
  failing: number
  /** Passing cases in the vote (the canaries' excluded): tests did run. */
  passed: number
  /** What the vote said about each canary, when they were armed for this run. */
  canaries?: CanaryResult[]
  /** The outcome stream against the report; absent: not judged (no stream information). */
  stream?: StreamRecord
}

/** The watch plan's side of one run's stream (replay/watch.ts). */
export interface WatchRecord {
  /** The plan was fed to the run. */
  fed: boolean
  /** Sessions started, and those that started with the plan read. */
  started: number
  watched: number
  /** The non-case records, as streamed (capped), and how many were dropped. */
  events: Record<string, unknown>[]
  dropped: number
}

/** Runs the suite for one side and keeps a record of every run that left a report. */
export class RunWatch {
  readonly records: RunRecord[] = []
  /** What the watchers streamed in each run, a report or not (reach-events.ts, evidence). */
  readonly watched: WatchRecord[] = []

  constructor(
    readonly side: Side,
    private readonly canary: CanaryPlan | null
  ) {}

  /** One run; `arm` writes the canaries for its duration (the first run of a side). */
  async run(ctx: GateContext, req: RunRequest, arm = false): Promise<SuiteRun> {
    const canary = arm ? this.canary : null
    if (canary) await armCanary(req.worktree, canary)
    let run: SuiteRun
    try {
      run = await runSuite(ctx, req)
    } finally {
      if (canary) await disarmCanary(req.worktree, canary)
    }
    if (run.stream?.state === 'read') {
      const { started, watched, events, dropped } = run.stream
      this.watched.push({ fed: run.watchFed === true, started, watched, events, dropped })
    }
    if (run.report === null) return run
    // The vote takes the streamed outcomes when there are any; the file is the cross-check.
    const judged = judgeStream(run.report, run.stream, req.worktree, detectRunner(ctx.policy.suite))
    let report = judged.report
    const record: RunRecord = {
      attempt: req.attempt,
      exitCode: run.result.exitCode,
      signal: run.result.signal,
      cases: 0,
      failing: 0,
      passed: 0
    }
    if (judged.stream) record.stream = judged.stream
    if (canary) {
      const taken = takeCanary(report, canary, req.worktree)
      record.canaries = taken.results
      report = taken.report
    }
    record.cases = report.cases.length
    record.failing = report.cases.filter(
      c => c.outcome === 'failed' || c.outcome === 'error'
    ).length
    record.passed = report.cases.filter(c => c.outcome === 'passed').length
    this.records.push(record)
    return { ...run, report }
  }
}

/**
 * The report the vote uses and what the stream showed: the streamed cases when the
 * reporter spoke (cross-checked against the file), the file's otherwise.
 */
export function judgeStream(
  file: Report,
  stream: StreamOutcome | undefined,
  root: string,
  runner: RunnerKind | null
): { report: Report; stream?: StreamRecord } {
  if (stream === undefined) return { report: file }
  if (stream.state === 'off') return { report: file, stream: stream }
  if (stream.started === 0 && stream.problems.length === 0 && stream.cases.length === 0)
    return { report: file, stream: { state: 'silent' } }
  const problems = [...stream.problems]
  if (stream.ended < stream.started || stream.started === 0) {
    const last = stream.cases[stream.cases.length - 1]
    const after = last ? `, the last ${last.classname}::${last.name}` : ''
    problems.push(
      `the stream was cut short: ${stream.cases.length} test(s) streamed${after}, and the runner never reached its end`
    )
  }
  problems.push(...crossCheck(file.cases, stream.cases, root, runner))
  const judged: StreamRecord =
    problems.length > 0 ? { state: 'tampered', problems } : { state: 'agrees' }
  const cases = withMessages(stream.cases, file.cases, root, runner)
  return { report: { ...file, cases }, stream: judged }
}

/** The exit status contradicts the report: non-zero or a signal, and no failing voting case. */
export function exitMismatch(r: RunRecord): string | null {
  // A report where nothing ran (empty, or all skipped: a selection that matched nothing) is
  // judged by empty-vote and vanished-oracle; every runner has its own exit code for "no
  // tests" (pytest 5, vitest and jest 1), which is honest there.
  const canaries = r.canaries ?? []
  const ran =
    r.passed + r.failing > 0 ||
    canaries.some(c => c.outcome === 'passed' || c.outcome === 'skipped')
  if (!ran) return null
  if (r.failing > 0) return null
  // A canary is no excuse unless it is one written to fail and reported failed.
  if (canaries.some(failedAsWritten)) return null
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

const at = (side: Side, r: RunRecord): string =>
  r.attempt === 0 ? `the first run on ${side}` : `rerun ${r.attempt} on ${side}`

export function judgeTripwires(input: TripwireInput): TripwireVerdict {
  const reasons: Reason[] = []
  const baseProblems: string[] = []

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
      message: `the runner ${why} in ${at('head', r)} while its report shows no failing test of the repository (a canary is no excuse): code in the voting process changed the report or the exit (a red vote)`,
      path: input.policyPath,
      level: 'failure'
    })
  }
  for (const verdict of [judgeStreams(input), judgeCanary(input)]) {
    reasons.push(...verdict.reasons)
    baseProblems.push(...verdict.baseProblems)
  }
  return { reasons, baseProblems }
}

/** At most this many disagreements are listed in one reason. */
const SHOWN_PROBLEMS = 10

function listed(problems: readonly string[]): string {
  const more =
    problems.length > SHOWN_PROBLEMS ? `; and ${problems.length - SHOWN_PROBLEMS} more` : ''
  return problems.slice(0, SHOWN_PROBLEMS).join('; ') + more
}

/**
 * The outcome streams. The base's first run decides whether streaming is armed: a reporter
 * the base's runner never loaded (a command that clears the environment) is a notice, and
 * then so is the head's silence; once the base streamed, a silent head is tampering.
 */
function judgeStreams(input: TripwireInput): TripwireVerdict {
  const reasons: Reason[] = []
  const baseProblems: string[] = []
  const first = input.base.find(r => r.attempt === 0)?.stream
  const notice = (why: string): void => {
    reasons.push({
      rule: 'diagnostic',
      message: `outcomes not streamed: ${why}; the vote reads the runner's JUnit file alone, which code in the voting process can rewrite after the runner wrote it`,
      path: input.policyPath,
      level: 'notice'
    })
  }
  if (first?.state === 'off') notice(first.why)
  else if (first?.state === 'silent')
    notice(
      "the runner did not load the gate's reporter on the base (does the command clear the environment?)"
    )
  const armed = first?.state === 'agrees'
  for (const r of input.base)
    if (r.stream?.state === 'tampered')
      baseProblems.push(
        `the outcome stream of ${at('base', r)} disagrees with its report: ${listed(r.stream.problems)}; the instrument's runner does not report what ran`
      )
  for (const r of input.head) {
    const s = r.stream
    const problems =
      s?.state === 'tampered'
        ? s.problems
        : s?.state === 'silent' && armed
          ? ["the gate's reporter sent nothing, although it streamed on the base"]
          : []
    if (problems.length === 0) continue
    reasons.push({
      rule: 'runner-tampered',
      message: `the outcomes the gate's reporter streamed in ${at('head', r)} and the runner's report disagree: ${listed(problems)}; something in the voting process rewrote the results`,
      path: input.policyPath,
      level: 'failure'
    })
  }
  return { reasons, baseProblems }
}

const nameOf = (r: CanaryResult): string => `${r.canary.path}::${r.canary.title}`

function judgeCanary(input: TripwireInput): TripwireVerdict {
  const notice = (why: string): TripwireVerdict => ({
    reasons: [
      {
        rule: 'diagnostic',
        message: `the canaries were not armed: ${why}; report tampering by a wholesale rewrite is not checked`,
        path: input.policyPath,
        level: 'notice'
      }
    ],
    baseProblems: []
  })
  if (input.canary.plan === null) return notice(input.canary.why)
  const base = input.base.find(r => r.canaries !== undefined)?.canaries
  if (base === undefined) return { reasons: [], baseProblems: [] } // the base left no report
  const armed = base.filter(r => r.outcome !== 'absent')
  if (armed.length === 0) {
    const files = [...new Set(base.map(r => r.canary.path))].join(', ')
    return notice(`the voting command did not collect ${files} on the base`)
  }
  // Only a canary written to fail and reported otherwise is evidence: one written to pass
  // fails honestly when the code it imports is broken.
  const forged = (r: CanaryResult): boolean =>
    r.canary.expect === 'failed' && (r.outcome === 'passed' || r.outcome === 'skipped')
  const wrongOnBase = armed.filter(forged)
  if (wrongOnBase.length > 0)
    return {
      reasons: [],
      baseProblems: wrongOnBase.map(
        r =>
          `the canary ${nameOf(r)}, a test written to fail, was reported ${r.outcome} on the base: the instrument's runner does not report what ran`
      )
    }
  const head = input.head.find(r => r.canaries !== undefined)
  if (head?.canaries === undefined) return { reasons: [], baseProblems: [] }
  const messages: string[] = []
  for (const r of head.canaries) {
    if (!armed.some(b => b.canary === r.canary)) continue
    if (r.outcome === 'absent') {
      // Gone while other tests passed and none failed. A head with a real failure proves
      // nothing (a runner configured to stop at the first failure may never have reached it).
      if (head.passed > 0 && head.failing === 0)
        messages.push(
          `the canary ${nameOf(r)}, a test the gate wrote and the base's run reported, is missing from the head's report while ${head.passed} other test(s) passed: something in the voting process removed results`
        )
    } else if (forged(r))
      messages.push(
        `the canary ${nameOf(r)}, a test the gate wrote to fail, was reported ${r.outcome} on the head: something in the voting process rewrote the runner's results`
      )
  }
  return {
    reasons: messages.map(message => ({
      rule: 'runner-tampered',
      message,
      path: input.policyPath,
      level: 'failure'
    })),
    baseProblems: []
  }
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
