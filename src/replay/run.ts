// Runs the suite command once in a worktree: placeholders and ORACLE_GATE_* variables
// filled in, the credential-free child environment, the per-side timeout, one log per side,
// and the report read back (or the reason it could not be).
import { mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { GateContext } from '../context.js'
import { runShell, type ShellResult } from '../exec/process.js'
import { JEST_JUNIT_ENV } from './ids.js'
import { readReport, type Report } from './junit.js'
import { detectRunner } from './runners.js'
import { planStream, type StreamOutcome } from './stream.js'

export type Side = 'base' | 'head'

export interface SuiteRun {
  result: ShellResult
  report: Report | null
  /** Why the report could not be read, when it could not. */
  reportError?: string
  /** What the gate's reporter streamed (stream.ts), or why nothing was streamed. */
  stream?: StreamOutcome
}

export interface RunRequest {
  side: Side
  worktree: string
  /** 0 for the first run, 1.. for reruns (each gets its own report file). */
  attempt: number
  /** Command line (the suite command, or the rerun command). */
  command: string
  /** Canonical ids selected for a rerun (ORACLE_GATE_TESTS); empty for a full run. */
  tests?: readonly string[]
  /** The words {tests} becomes (the runner's selection form); default: `tests` as they are. */
  testArgs?: readonly string[]
  logFile: string
}

/** POSIX single-quote quoting: safe for any byte string under bash and sh. */
export function shellQuote(value: string): string {
  if (/^[\w@%+=:,./-]+$/.test(value)) return value
  return `'${value.replace(/'/g, `'\\''`)}'`
}

/** Replaces {name} placeholders with shell-quoted values; unknown braces are left alone. */
export function substitute(
  command: string,
  values: Readonly<Record<string, string | readonly string[]>>
): string {
  return command.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name]
    if (value === undefined) return whole
    return typeof value === 'string' ? shellQuote(value) : value.map(shellQuote).join(' ')
  })
}

/** Where the gate reads the report of one run. */
export function reportPath(
  ctx: GateContext,
  req: Pick<RunRequest, 'side' | 'worktree' | 'attempt'>
): string {
  const configured = ctx.policy.suite.report
  if (configured !== undefined) return join(req.worktree, configured)
  return join(ctx.tempDir, `${req.side}-junit-${req.attempt}.xml`)
}

/** The environment of every child of one side: credentials already gone from childEnv. */
export async function sideEnv(
  ctx: GateContext,
  side: Side,
  extra: Record<string, string> = {}
): Promise<NodeJS.ProcessEnv> {
  const { seed, max_examples, wall_clock } = ctx.policy.campaign
  // Each side gets its own temp dir, so base and head running in parallel do not share one.
  const tmp = join(ctx.tempDir, `${side}-tmp`)
  await mkdir(tmp, { recursive: true })
  return {
    ...ctx.childEnv,
    // No implicit cwd / script dir on sys.path (docs/replay.md, suite.python_safe_path).
    ...(ctx.policy.suite.python_safe_path ? { PYTHONSAFEPATH: '1' } : {}),
    ...ctx.policy.suite.env,
    TMPDIR: tmp,
    ORACLE_GATE_SEED: String(seed),
    ORACLE_GATE_MAX_EXAMPLES: String(max_examples),
    ORACLE_GATE_WALL_CLOCK: String(wall_clock),
    ...extra
  }
}

export async function runSuite(ctx: GateContext, req: RunRequest): Promise<SuiteRun> {
  const junit = reportPath(ctx, req)
  // A report left in the tree (committed by the patch, or by an earlier run) must not count.
  await rm(junit, { recursive: true, force: true })
  const { seed, max_examples } = ctx.policy.campaign
  const tests = req.tests ?? []
  const command = substitute(req.command, {
    junit,
    seed: String(seed),
    max_examples: String(max_examples),
    tests: req.testArgs ?? tests
  })
  const env = await sideEnv(ctx, req.side, {
    ...(detectRunner(ctx.policy.suite) === 'jest' ? JEST_JUNIT_ENV : {}),
    ORACLE_GATE_JUNIT: junit,
    ORACLE_GATE_TESTS: tests.join('\n')
  })
  const stream = planStream(command, detectRunner(ctx.policy.suite), env)
  const result = await runShell({
    command: stream.command,
    cwd: req.worktree,
    env: { ...env, ...stream.env },
    timeoutSec: ctx.policy.suite.timeout,
    logFile: req.logFile,
    ...stream.shell
  })
  return { ...(await readRun(ctx, req, junit, result)), stream: stream.outcome() }
}

async function readRun(
  ctx: GateContext,
  req: RunRequest,
  junit: string,
  result: ShellResult
): Promise<SuiteRun> {
  if (result.timedOut)
    return { result, report: null, reportError: `timed out after ${ctx.policy.suite.timeout}s` }
  try {
    // The run's folder: the worktree for a configured report, else the gate's temp dir.
    const root = ctx.policy.suite.report !== undefined ? req.worktree : ctx.tempDir
    return { result, report: await readReport(junit, { root }) }
  } catch (error) {
    return {
      result,
      report: null,
      reportError: error instanceof Error ? error.message : String(error)
    }
  }
}

/**
 * The first lines of a log, for a run that left no report: the cause (a missing module, a
 * bad option) is usually printed first, and the tail only shows the runner giving up.
 */
export async function logHead(path: string, lines = 15, bytes = 4000): Promise<string> {
  const text = await readFile(path, 'utf8').catch(() => '')
  return text.slice(0, bytes).split('\n').slice(0, lines).join('\n').trimEnd()
}
