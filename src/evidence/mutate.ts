// Runs the mutants of a patch (mutants.ts) against the voting tests that cover each line,
// in the head's worktree once the head's vote is over and taken: each mutant is written
// over the head's file, only its tests run, through the replay's own run machinery
// (runSuite: the vote's containment, environment and reporter; the stream preferred, as
// the vote does), and the original bytes and times go back whatever happens. Killed means
// a named test failed; a run that gave no trustworthy report is `not_run`, never killed
// (docs/evidence.md "Mutation"). I/O; the judging of one run is the pure `judgeMutant`.
import { chmod, lstat, readFile, realpath, rename, rm, utimes, writeFile } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join } from 'node:path'
import type { GateContext } from '../context.js'
import { GateError } from '../errors.js'
import { neutralName } from '../exec/sandbox.js'
import { canonicalId, FileIndex, worktreeIdContext, type IdContext } from '../replay/ids.js'
import type { Report } from '../replay/junit.js'
import { observe, rerunArgs, rerunPlan, type RerunPlan } from '../replay/rerun.js'
import { runSuite, type RunRequest, type SuiteRun } from '../replay/run.js'
import { detectRunner } from '../replay/runners.js'
import { judgeStream } from '../replay/tripwires.js'
import { worktreeFiles } from '../replay/worktree.js'
import type { WatchPlan } from '../replay/watch.js'
import { reachVoid } from './instrument.js'
import { allowed, mutantWatch, runSession, type SessionResult } from './schemata.js'
import type { Mutant, MutantOutcome } from './types.js'

/**
 * Attempt numbers of the mutant runs: the side's reruns count from 1 up to suite.reruns
 * (at most a few), so mutant k runs as attempt MUTANT_ATTEMPTS + k and no record of a
 * mutant run can be taken for one of the vote's.
 */
export const MUTANT_ATTEMPTS = 1000

/**
 * Most tests selected by name for one mutant; beyond, the whole suite runs (the suite
 * command, as in the vote) and only the covering tests' outcomes count: a command line of
 * thousands of ids can exceed the system's limit and costs the runner more than it saves.
 */
export const MAX_SELECTED = 500

export interface MutationInput {
  /** The head's worktree at its run path: overlay applied, setup done, the vote over. */
  worktree: string
  mutants: readonly Mutant[]
  /**
   * Canonical ids of the voting tests that cover the mutant's line (all the head's passing
   * voting tests when per-test coverage is unknown). Checked in this order for the killer.
   */
  testsFor: (m: Mutant) => readonly string[]
  /** Seconds after which no further mutant is started (one already started runs out). */
  budgetSec: number
  /** The file the mutant runs log to. */
  log: string
  /** The merge base's files, for node:test titles (ids.ts literalFiles); optional. */
  baseFiles?: readonly string[]
  /**
   * The vote's fidelity check of this worktree after a run (replay/fidelity.ts: what differs
   * from the merge base's instrument; empty when nothing does). After the first run that
   * changed the instrument, that mutant and every later one are `not_run`: tests rewritten
   * by the head's code would kill (or spare) every mutant after. Without it, unchecked.
   */
  fidelity?: () => Promise<readonly unknown[]>
  /**
   * Did only the import run the mutant's line (covered, but by no test: a decorator's
   * body, a module constant)? The session switches mutants after the import, so these run
   * one by one, where the import runs the mutant.
   */
  atImport?: (m: Mutant) => boolean
}

/** Runs the mutants one after the other; every mutant gets an outcome, in input order. */
export async function runMutants(ctx: GateContext, input: MutationInput): Promise<MutantOutcome[]> {
  const plan = rerunPlan(ctx.policy.suite)
  const started = Date.now()
  const ids = idsOnce(ctx, input)
  const out: MutantOutcome[] = []
  if (input.mutants.length > 0)
    ctx.log.info(
      `mutation: ${input.mutants.length} mutant(s), ${plan.selects ? 'each against the tests that cover its line' : 'each against the whole suite (the runner cannot select tests)'}`
    )
  const session = await sessionOf(ctx, input, plan, started)
  let stopped: string | null = session.stopped
  for (const [k, m] of input.mutants.entries()) {
    const said = session.results.get(k)
    // The session ran before any one-by-one run: a later stop does not undo its answers.
    if (session.stopped === null && said !== undefined && !('perProcess' in said)) {
      out.push(await fromSession(m, session.tests.get(k) ?? [], said, ids))
      continue
    }
    if (stopped === null && (Date.now() - started) / 1000 >= input.budgetSec) stopped = 'budget'
    if (stopped !== null) {
      out.push(notRun(m, stopped))
      continue
    }
    const outcome = await runOne(ctx, input, { m, k, plan, ids })
    if (input.fidelity && (await input.fidelity()).length > 0) {
      ctx.log.warning('mutation: the instrument on disk changed during a mutant run; stopped')
      stopped = INSTRUMENT_CHANGED
      out.push(notRun(m, stopped))
      continue
    }
    out.push(outcome)
  }
  ctx.log.info(`mutation: ${summary(out)}`)
  return out
}

const INSTRUMENT_CHANGED = 'the instrument changed during a mutant run'

interface Session {
  /** What the session said, by mutant index. */
  results: Map<number, SessionResult>
  /** Set when the instrument changed during the session: no mutant counts. */
  stopped: string | null
  /** The tests each mutant of the session was asked about (testsFor, asked once). */
  tests: Map<number, readonly string[]>
}

/**
 * The Python mutants of a pytest head, all in one session (schemata.ts): what it said of
 * each, and whether the instrument changed during it (then no mutant counts). Nothing
 * when the runner is not pytest or the budget is spent.
 */
async function sessionOf(
  ctx: GateContext,
  input: MutationInput,
  plan: RerunPlan,
  started: number
): Promise<Session> {
  const none: Session = { results: new Map(), stopped: null, tests: new Map() }
  const left = input.budgetSec - (Date.now() - started) / 1000
  if (detectRunner(ctx.policy.suite) !== 'pytest' || left <= 0) return none
  const mutants: { k: number; m: Mutant; tests: readonly string[] }[] = []
  for (const [k, m] of input.mutants.entries()) {
    // Left to the one-by-one way, which says why: not Python, no test, not a worktree path.
    if (!m.path.endsWith('.py') || typeof (await fileIn(input.worktree, m.path)) !== 'string')
      continue
    const tests = input.testsFor(m)
    if (tests.length > 0 && input.atImport?.(m) !== true) mutants.push({ k, m, tests })
  }
  if (mutants.length === 0) return none
  ctx.log.info(`mutation: ${mutants.length} Python mutant(s) in one pytest session`)
  const results = await runSession(ctx, {
    worktree: input.worktree,
    mutants,
    budgetSec: left,
    plan,
    attempt: MUTANT_ATTEMPTS - 1,
    maxSelected: MAX_SELECTED,
    log: input.log
  })
  if (input.fidelity && (await input.fidelity()).length > 0) {
    ctx.log.warning('mutation: the instrument on disk changed during the mutant session; stopped')
    return { results: new Map(), stopped: INSTRUMENT_CHANGED, tests: new Map() }
  }
  const tests = new Map(mutants.map(x => [x.k, x.tests]))
  return { results, stopped: null, tests }
}

/** A mutant the session judged: its tests' cases, mapped to ids, judged as a run's. */
async function fromSession(
  m: Mutant,
  tests: readonly string[],
  said: Exclude<SessionResult, { perProcess: string }>,
  ids: () => Promise<IdContext>
): Promise<MutantOutcome> {
  if ('notRun' in said) return notRun(m, said.notRun)
  const context = await ids()
  const index = new FileIndex(context)
  const seen = new Map<string, { outcomes: string[] }>()
  for (const c of said.cases) {
    const id = canonicalId(c, context, index).id
    const held = seen.get(id) ?? { outcomes: [] }
    held.outcomes.push(c.outcome)
    seen.set(id, held)
  }
  return judgeMutant(m, tests, seen)
}

function summary(out: readonly MutantOutcome[]): string {
  const killed = out.filter(o => o.not_run === undefined && o.killed_by !== null).length
  const survived = out.filter(o => o.not_run === undefined && o.killed_by === null).length
  return `${killed} killed, ${survived} survived, ${out.length - killed - survived} not run`
}

/** The head's id context, built on first use (from the worktree's index). */
function idsOnce(ctx: GateContext, input: MutationInput): () => Promise<IdContext> {
  let ids: IdContext | null = null
  return async () =>
    (ids ??= worktreeIdContext(
      input.worktree,
      await worktreeFiles(ctx, input.worktree),
      p => ctx.planes.planeOf(p),
      ctx.policy.suite.report,
      {
        runner: detectRunner(ctx.policy.suite),
        pyRoot: ctx.instrument?.pyRoot,
        ...(input.baseFiles ? { literalFiles: input.baseFiles } : {})
      }
    ))
}

const notRun = (m: Mutant, why: string): MutantOutcome => ({ ...m, killed_by: null, not_run: why })

interface One {
  m: Mutant
  k: number
  plan: RerunPlan
  ids: () => Promise<IdContext>
}

/** One mutant: written, its tests run, the file restored (always), the run judged. */
async function runOne(ctx: GateContext, input: MutationInput, one: One): Promise<MutantOutcome> {
  const { m } = one
  const tests = [...input.testsFor(m)]
  if (tests.length === 0) return notRun(m, 'no voting test runs the line')
  const target = await mutation(input.worktree, m)
  if ('why' in target) return notRun(m, target.why)
  // Watched as the vote is (the runner's state hidden from the patch's lines), the plan's
  // lines moved where the mutant moved them; no coverage. `schemata.one`: the pytest
  // reporter only makes failures quick (gate_mutate.py).
  const shifted = shiftedPlan(mutantWatch(ctx.watch), m, target.held.text)
  const watch = shifted && { ...shifted, schemata: { one: true, mutants: [] } }
  let run: SuiteRun
  try {
    // A time of its own (seconds later than the original's, one per mutant): caches keyed
    // on the source's mtime and size (Python's bytecode) never take one text for another.
    await putFile(target.file, target.mutated, target.held, one.k + 1)
    ctx.log.info(`mutation: ${m.path}:${m.line} ${m.mutation}`)
    run = await runSuite({ ...ctx, watch }, mutantRun(ctx, input, one, tests))
  } finally {
    await putFile(target.file, target.held.bytes, target.held, 0)
  }
  // What oracle-reach reports, done there by the patch's lines: this run's answer is void.
  const events = run.stream?.state === 'read' ? run.stream.events : []
  const reached = reachVoid(events, shifted, allowed(ctx))
  if (reached !== null) return notRun(m, reached)
  const report = trusted(run, input.worktree, ctx)
  if ('why' in report) return notRun(m, report.why)
  return judgeMutant(m, tests, observe(report, await one.ids()))
}

/**
 * The plan of a one-by-one mutant run: the mutant's file is on disk with the mutant in, so
 * where a removal took lines out (a call over several lines → `pass`), the plan's lines of
 * that file after it move up with the text. Pure; exported for tests.
 */
export function shiftedPlan(plan: WatchPlan | null, m: Mutant, text: string): WatchPlan | null {
  const ranges = plan?.lines[m.path]
  if (!plan || !ranges) return plan
  const newlines = (t: string): number => t.split('\n').length - 1
  const first = newlines(text.slice(0, m.start)) + 1
  const last = first + newlines(text.slice(m.start, m.end))
  const kept = first + newlines(m.replacement)
  if (kept === last) return plan
  const at = (n: number): number =>
    n <= first ? n : n <= last ? Math.min(n, kept) : n - last + kept
  const moved = ranges.map(([a, b]): [number, number] => [at(a), at(b)])
  return { ...plan, lines: { ...plan.lines, [m.path]: moved } }
}

/** The file a mutant goes in, its original, and the mutated bytes; or why it cannot. */
async function mutation(
  worktree: string,
  m: Mutant
): Promise<{ file: string; held: Held; mutated: Buffer } | { why: string }> {
  const file = await fileIn(worktree, m.path)
  if (typeof file !== 'string') return file
  const held = await holdFile(file)
  if ('why' in held) return held
  const fits = m.start >= 0 && m.start <= m.end && m.end <= held.text.length
  if (!fits || (m.original !== undefined && held.text.slice(m.start, m.end) !== m.original))
    return { why: 'the file is not the text the mutant was made from' }
  const text = held.text.slice(0, m.start) + m.replacement + held.text.slice(m.end)
  return { file, held, mutated: Buffer.from(text, 'utf8') }
}

/** The run of one mutant: its tests selected, or the whole suite (see MAX_SELECTED). */
function mutantRun(
  ctx: GateContext,
  input: MutationInput,
  { k, plan }: One,
  tests: readonly string[]
): RunRequest {
  const selects = plan.selects && tests.length <= MAX_SELECTED
  return {
    side: 'head',
    worktree: input.worktree,
    attempt: MUTANT_ATTEMPTS + k,
    command: selects || !plan.selects ? plan.command : ctx.policy.suite.command,
    tests: selects ? tests : [],
    testArgs: selects ? rerunArgs(plan, tests) : [],
    logFile: input.log
  }
}

/** The report a mutant is judged on: the vote's reading of a run, or why there is none. */
function trusted(run: SuiteRun, worktree: string, ctx: GateContext): Report | { why: string } {
  if (run.result.timedOut) return { why: `timed out after ${ctx.policy.suite.timeout}s` }
  if (run.report === null) return { why: `no report (${run.reportError ?? 'unknown'})` }
  const judged = judgeStream(run.report, run.stream, worktree, detectRunner(ctx.policy.suite))
  if (judged.stream?.state === 'tampered')
    return { why: "the outcome stream and the runner's report disagree" }
  return judged.report
}

/**
 * A mutant's fate from one run's observations: killed by the first selected test that
 * failed or errored; survived when every selected test ran and none failed; not run when a
 * selected test's file did not load (a collection error: no test judged the mutant's
 * behaviour, and a product that checks its own bytes at import would have every mutant
 * "killed" so), when a selected test is missing or none ran (a run that skips everything
 * proves nothing either way).
 */
export function judgeMutant(
  m: Mutant,
  tests: readonly string[],
  seen: ReadonlyMap<string, { outcomes: readonly string[] }>
): MutantOutcome {
  const failing = (id: string): boolean =>
    seen.get(id)?.outcomes.some(o => o === 'failed' || o === 'error') ?? false
  const killer = tests.find(failing)
  if (killer !== undefined) return { ...m, killed_by: killer }
  const unloaded = tests
    .map(t => `${fileOf(t)}::<collection>`)
    .find(c => fileOf(c) !== '' && failing(c))
  if (unloaded !== undefined)
    return {
      ...m,
      killed_by: null,
      not_run: `the mutant stopped ${unloaded.slice(0, -'::<collection>'.length)} from loading (a collection error): no test judged it`
    }
  const missing = tests.filter(t => !seen.has(t))
  if (missing.length > 0)
    return { ...m, killed_by: null, not_run: `${missing.length} selected test(s) did not report` }
  if (!tests.some(t => seen.get(t)?.outcomes.includes('passed')))
    return { ...m, killed_by: null, not_run: 'no selected test ran' }
  return { ...m, killed_by: null }
}

function fileOf(id: string): string {
  const at = id.indexOf('::')
  return at < 0 ? '' : id.slice(0, at)
}

/**
 * The file's path on disk, when it is a path of the worktree: relative, no `..`, and its
 * folder (links resolved) inside the worktree. Setup ran the head's commands, which may
 * have replaced a folder with a link to elsewhere: nothing is written there.
 */
async function fileIn(worktree: string, path: string): Promise<string | { why: string }> {
  const parts = path.split('/')
  if (isAbsolute(path) || parts.some(p => p === '' || p === '.' || p === '..'))
    return { why: 'not a path of the worktree' }
  try {
    const root = await realpath(worktree)
    const dir = await realpath(dirname(join(worktree, path)))
    if (dir !== root && !dir.startsWith(`${root}/`))
      return { why: 'its folder leaves the worktree' }
    return join(dir, basename(path))
  } catch {
    return { why: 'missing from the worktree' }
  }
}

interface Held {
  bytes: Buffer
  text: string
  mode: number
  /** Times in milliseconds (fractions kept). */
  atime: number
  mtime: number
}

/** The file's bytes, text, mode and times, when it is a regular UTF-8 file. */
async function holdFile(file: string): Promise<Held | { why: string }> {
  const st = await lstat(file).catch(() => null)
  if (st === null) return { why: 'missing from the worktree' }
  if (!st.isFile()) return { why: 'not a regular file' }
  const bytes = await readFile(file)
  const text = bytes.toString('utf8')
  if (!Buffer.from(text, 'utf8').equals(bytes)) return { why: 'not UTF-8 text' }
  return { bytes, text, mode: st.mode & 0o7777, atime: st.atimeMs, mtime: st.mtimeMs }
}

/**
 * Puts `bytes` at `file` by a rename of a fresh file beside it: what the run may have left
 * there (a link, a hard link to another file) is replaced, never written through. The
 * original's mode, and its times moved `later` seconds on (0: exactly the original's).
 */
async function putFile(file: string, bytes: Buffer, held: Held, later: number): Promise<void> {
  // The folder was resolved before the run; a run that made a link of it since gets nothing.
  if ((await realpath(dirname(file))) !== dirname(file))
    throw new GateError(`mutation: the folder of ${file} was replaced during a run`)
  const temp = join(dirname(file), `.${neutralName()}`)
  try {
    await writeFile(temp, bytes, { flag: 'wx', mode: 0o600 })
    await chmod(temp, held.mode)
    // Seconds, as fractions: a Date would round the original's times to the millisecond.
    const mtime = (held.mtime + later * 1000) / 1000
    await utimes(temp, later === 0 ? held.atime / 1000 : mtime, mtime)
    await rename(temp, file)
  } finally {
    await rm(temp, { force: true })
  }
}
