// Runs the suite command once in a worktree: placeholders filled in, the credential-free
// child environment (no ORACLE_GATE_* unless suite.expose_env: they tell the product it is
// measured), the sandbox when runs are contained (src/exec/sandbox.ts), the per-side
// timeout, one log per side, and the report read back (or the reason it could not be).
import { mkdir, readFile, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { GateContext } from '../context.js'
import { runShell, type ShellResult } from '../exec/process.js'
import { bwrapArgv, neutralName, planLayout } from '../exec/sandbox.js'
import { JEST_JUNIT_ENV } from './ids.js'
import { readReport, type Report } from './junit.js'
import { detectRunner } from './runners.js'
import { planStream, reportersDir, type StreamOutcome } from './stream.js'
import { encodeWatch, handedEnv } from './watch.js'

export type Side = 'base' | 'head'

export interface SuiteRun {
  result: ShellResult
  report: Report | null
  /** Why the report could not be read, when it could not. */
  reportError?: string
  /** What the gate's reporter streamed (stream.ts), or why nothing was streamed. */
  stream?: StreamOutcome
  /** The watch plan was fed to this run (the runner's reporter reads one). */
  watchFed?: boolean
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
  /** More folders the run may write (placement's `writable`): a coverage run's output. */
  writable?: readonly string[]
  /** More environment for this run only, set last (the coverage run's; never a vote's). */
  env?: Readonly<Record<string, string>>
  /** Called once the run's child is spawned (process.ts ShellRun.onSpawn). */
  onSpawn?: () => void
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

/**
 * Where one run happens: the cwd and argv prefix of its shell (the sandbox's, when runs are
 * contained), and how a path of the gate's appears to the run (`inside`: the worktree at
 * the one run path, a writable folder at its place under the private /tmp).
 */
export interface Placement {
  cwd: string
  wrap?: string[]
  /** The worktree as the run sees it. */
  at: string
  inside: (path: string) => string
}

/** The placement of a run in `worktree` (setup: network, the checkout and caches too). */
export function placement(
  ctx: GateContext,
  worktree: string,
  opts: { writable?: readonly string[]; setup?: boolean } = {}
): Placement {
  const c = ctx.containment
  const plain: Placement = { cwd: worktree, at: worktree, inside: p => p }
  if (!c || c.bin === null) return plain
  const writable = (opts.writable ?? []).map(from => ({ from, to: join('/tmp', basename(from)) }))
  const layout = planLayout({
    env: ctx.childEnv,
    worktree,
    at: c.at,
    hidden: [ctx.tempDir],
    readOnly: [...c.readOnly, ...(opts.setup ? [ctx.repoDir] : [])],
    writable,
    instrument: c.instrument,
    network: opts.setup === true || c.network,
    caches: opts.setup === true
  })
  const inside = (path: string): string => {
    if (path === worktree || path.startsWith(`${worktree}/`))
      return c.at + path.slice(worktree.length)
    for (const w of writable)
      if (path === w.from || path.startsWith(`${w.from}/`)) return w.to + path.slice(w.from.length)
    return path
  }
  return { cwd: worktree, wrap: bwrapArgv(c.bin, layout, c.shape), at: c.at, inside }
}

/**
 * Where the gate reads the report of one run: the configured path in the worktree, or a
 * file named like a developer's in a fresh folder of its own (no side, no gate in the name).
 */
export async function reportPath(ctx: GateContext, worktree: string): Promise<string> {
  const configured = ctx.policy.suite.report
  if (configured !== undefined) return join(worktree, configured)
  const dir = join(ctx.tempDir, neutralName())
  await mkdir(dir, { recursive: true })
  return join(dir, 'junit.xml')
}

/**
 * The environment of every child of one side: credentials already gone from childEnv, no
 * ORACLE_GATE_* unless suite.expose_env (`exposed` are those variables), a temp folder of
 * its own unless the sandbox gives the run a private /tmp.
 */
export async function sideEnv(
  ctx: GateContext,
  exposed: Record<string, string> = {},
  extra: Record<string, string> = {}
): Promise<NodeJS.ProcessEnv> {
  const contained = ctx.containment?.bin != null
  const tmp = contained ? null : join(ctx.tempDir, neutralName())
  if (tmp !== null) await mkdir(tmp, { recursive: true })
  const env: NodeJS.ProcessEnv = {
    ...ctx.childEnv,
    // No implicit cwd / script dir on sys.path (docs/replay.md, suite.python_safe_path).
    ...(ctx.policy.suite.python_safe_path ? { PYTHONSAFEPATH: '1' } : {}),
    ...ctx.policy.suite.env,
    ...(ctx.policy.suite.expose_env ? { ...campaignVars(ctx), ...exposed } : {}),
    ...extra
  }
  if (tmp !== null) env.TMPDIR = tmp
  else if (env.TMPDIR !== undefined) env.TMPDIR = '/tmp'
  return env
}

function campaignVars(ctx: GateContext): Record<string, string> {
  const { seed, max_examples, wall_clock } = ctx.policy.campaign
  return {
    ORACLE_GATE_SEED: String(seed),
    ORACLE_GATE_MAX_EXAMPLES: String(max_examples),
    ORACLE_GATE_WALL_CLOCK: String(wall_clock)
  }
}

/**
 * The command line, with `$ORACLE_GATE_*` in it still meaning what it meant when the
 * variables were exported: without suite.expose_env they are set as shell variables of
 * this command only (never exported), and only when the command names them.
 */
export function withGateVars(
  command: string,
  vars: Readonly<Record<string, string>>,
  exposed: boolean
): string {
  if (exposed || !/ORACLE_GATE_\w/.test(command)) return command
  const named = Object.entries(vars).filter(([name]) => command.includes(name))
  if (named.length === 0) return command
  return `${named.map(([name, value]) => `${name}=${shellQuote(value)}`).join(' ')}\n${command}`
}

/** Absolute `file` attributes written inside the sandbox, as paths of the worktree on disk. */
function outsidePaths(report: Report, place: Placement, worktree: string): Report {
  if (place.at === worktree) return report
  const prefix = `${place.at}/`
  for (const c of report.cases)
    if (c.file?.startsWith(prefix)) c.file = `${worktree}/${c.file.slice(prefix.length)}`
  return report
}

export async function runSuite(ctx: GateContext, req: RunRequest): Promise<SuiteRun> {
  const junit = await reportPath(ctx, req.worktree)
  // A report left in the tree (committed by the patch, or by an earlier run) must not count.
  await rm(junit, { recursive: true, force: true })
  const configured = ctx.policy.suite.report !== undefined
  const writable = [...(configured ? [] : [dirname(junit)]), ...(req.writable ?? [])]
  const place = placement(ctx, req.worktree, { writable })
  const { seed, max_examples } = ctx.policy.campaign
  const tests = req.tests ?? []
  const seen = place.inside(junit)
  const vars = {
    ...campaignVars(ctx),
    ORACLE_GATE_JUNIT: seen,
    ORACLE_GATE_TESTS: tests.join('\n')
  }
  const command = withGateVars(
    substitute(req.command, {
      junit: seen,
      seed: String(seed),
      max_examples: String(max_examples),
      tests: req.testArgs ?? tests
    }),
    vars,
    ctx.policy.suite.expose_env
  )
  const jest = detectRunner(ctx.policy.suite) === 'jest' ? JEST_JUNIT_ENV : {}
  const env = await sideEnv(
    ctx,
    { ORACLE_GATE_JUNIT: seen, ORACLE_GATE_TESTS: vars.ORACLE_GATE_TESTS },
    jest
  )
  const handed = handedEnv({ ...env, ...req.env }, jest)
  const watch =
    req.side === 'head' && ctx.watch ? encodeWatch(ctx.watch, place.at, handed) : undefined
  const stream = planStream(command, detectRunner(ctx.policy.suite), env, reportersDir(), watch)
  const result = await runShell({
    command: stream.command,
    cwd: place.cwd,
    env: { ...env, ...stream.env, ...req.env },
    timeoutSec: ctx.policy.suite.timeout,
    logFile: req.logFile,
    ...(req.onSpawn ? { onSpawn: req.onSpawn } : {}),
    ...(place.wrap ? { wrap: place.wrap } : {}),
    ...stream.shell
  })
  const watchFed = stream.shell.feed !== undefined
  return {
    ...(await readRun(ctx, req, { junit, place }, result)),
    stream: stream.outcome(),
    watchFed
  }
}

async function readRun(
  ctx: GateContext,
  req: RunRequest,
  { junit, place }: { junit: string; place: Placement },
  result: ShellResult
): Promise<SuiteRun> {
  const configured = ctx.policy.suite.report !== undefined
  if (result.timedOut)
    return { result, report: null, reportError: `timed out after ${ctx.policy.suite.timeout}s` }
  try {
    // The run's folder: the worktree for a configured report, else the gate's temp dir.
    const root = configured ? req.worktree : ctx.tempDir
    const report = await readReport(junit, { root })
    return { result, report: outsidePaths(report, place, req.worktree) }
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
