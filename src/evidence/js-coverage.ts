// Which of the patch's changed JavaScript and TypeScript lines the voting tests run on the
// head. First from the head's vote itself: when the watch plan asked for coverage, the
// gate's watcher in each node process of the vote measured it in-process and sent it on
// the gate's channel (js-vote.ts; nothing in the run's environment says so). Where the vote
// measured no changed file (a runner whose processes the watcher does not reach: worker
// threads, a runtime that is not Node, a command that drops NODE_OPTIONS), ONE extra run
// of the suite command in the head's worktree (through runSuite, so the sandbox, the
// scrubbed environment and the timeout are the vote's), with V8 coverage on
// (NODE_V8_COVERAGE) and the gate's coverage hook preloaded (coverage-hook.cjs: the texts
// a runner executed after transforming them, a dump before SIGTERM). That run is never the
// vote: a variable that says "you are measured" must not reach the run whose result
// decides the merge. Then v8.ts reads the dumps. What could not be measured comes back as
// problems, never as covered lines.
import { constants, existsSync } from 'node:fs'
import { mkdir, open, readdir, realpath, writeFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { GateContext } from '../context.js'
import { neutralName } from '../exec/sandbox.js'
import { placement, runSuite, type Placement } from '../replay/run.js'
import { reportersDir } from '../replay/stream.js'
import type { WatchedRun } from '../replay/side.js'
import { testsByLine, voteDumps } from './js-vote.js'
import type { ChangedLines, LineCoverage } from './types.js'
import { coveredLines, parseDump, parseSourceLines, type AskedFile, type V8Dump } from './v8.js'

/** The files V8 runs (or a runner transforms for it). */
const JS_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/

/** A coverage file bigger than this is not read (a suite's dumps stay far below it). */
const MAX_DUMP_BYTES = 256 * 1024 * 1024
/** At most this many coverage files are read (one per process and worker). */
const MAX_DUMPS = 2000

export interface JsCoverageInput {
  /** The head's worktree, where its vote ran (the path given to runSuite), still in place. */
  worktree: string
  /** The patch's changed production lines; the files that are not JavaScript are ignored. */
  changed: readonly ChangedLines[]
  /** The log file of the coverage run. */
  log: string
  /** The watch records of the head's first run (its vote), when its stream was read. */
  watched?: WatchedRun | undefined
  /** Canonical ids of the voting tests that passed on the head (per-line tests, `byTest`). */
  passing?: ReadonlySet<string>
}

/** True for a path whose coverage this measures. */
export function isJsPath(path: string): boolean {
  return JS_FILE.test(path)
}

/**
 * What a coverage run adds to a run of the suite, for a caller that runs it (one extra run
 * can measure Python and JavaScript at once: merge the `writable` and `env` of each).
 */
export interface JsCoveragePlan {
  /** Folders the run must be able to write (RunRequest.writable). */
  writable: string[]
  /** Environment added to the run (RunRequest.env): NODE_V8_COVERAGE, NODE_OPTIONS. */
  env: Record<string, string>
  /** After the run: the asked lines it ran. */
  read: (run: { timedOut: boolean }) => Promise<LineCoverage>
}

/** The changed JavaScript and TypeScript lines the head's suite runs (one extra run). */
export async function jsCoverage(ctx: GateContext, input: JsCoverageInput): Promise<LineCoverage> {
  const vote = await voteCoverage(ctx, input)
  if (vote !== null) return vote
  const plan = await planJsCoverage(ctx, input)
  if (plan === null) return { covered: new Map(), executable: new Map() }
  // The extra run's processes measure through the hook only: a second take in the same
  // process (the watcher's, asked by the plan) would reset the counts the hook reads.
  const watch = ctx.watch ? { ...ctx.watch, cover: false } : ctx.watch
  const run = await runSuite(
    { ...ctx, watch },
    {
      side: 'head',
      worktree: input.worktree,
      attempt: 3000,
      command: ctx.policy.suite.command,
      logFile: input.log,
      writable: plan.writable,
      env: plan.env
    }
  )
  return plan.read({ timedOut: run.result.timedOut })
}

/**
 * The changed lines as the head's vote measured them; null when it measured no changed
 * file (the plan did not ask, the stream was not read, or no process of the vote compiled
 * one), and the extra run has to.
 */
async function voteCoverage(
  ctx: GateContext,
  input: JsCoverageInput
): Promise<LineCoverage | null> {
  if (ctx.watch?.cover !== true || input.watched === undefined) return null
  const asked = input.changed.filter(c => isJsPath(c.path) && c.lines.length > 0)
  if (asked.length === 0) return null
  const place = placement(ctx, input.worktree)
  const { files, problems } = await askedFiles(ctx, asked, await runPath(place, input.worktree))
  const found = voteDumps(input.watched, new Set(files.keys()))
  if (!found.measured) return null
  ctx.log.info(`evidence: JavaScript coverage measured in the head's vote (no extra run)`)
  const all = [...problems, ...found.problems]
  const coverage = relativeTo(coveredLines(found.dumps, files), files, all)
  if (input.passing === undefined) return coverage
  const byLine = testsByLine(found.dumps, input.passing, d => coveredLines(d, files).covered)
  const byTest = new Map<string, Map<number, string[]>>()
  for (const [abs, lines] of byLine) {
    const file = files.get(abs)
    if (file !== undefined) byTest.set(file.path, lines)
  }
  return { ...coverage, byTest }
}

/**
 * The folders, environment and reader of a coverage run in `worktree` (the path given to
 * runSuite); null when no changed file is JavaScript or TypeScript (nothing to run).
 */
export async function planJsCoverage(
  ctx: GateContext,
  input: Omit<JsCoverageInput, 'log'>
): Promise<JsCoveragePlan | null> {
  const asked = input.changed.filter(c => isJsPath(c.path) && c.lines.length > 0)
  if (asked.length === 0) return null
  const dir = join(ctx.tempDir, neutralName())
  const dumps = join(dir, neutralName())
  await mkdir(dumps, { recursive: true })
  await mkdir(join(dir, 'own'))
  const place = placement(ctx, input.worktree, { writable: [dir] })
  const { files, problems } = await askedFiles(ctx, asked, await runPath(place, input.worktree))
  await writeFile(join(dir, 'targets.json'), JSON.stringify([...files.keys()]))
  const env = coverageEnv(ctx, place.inside(dumps), problems)
  const read = async (run: { timedOut: boolean }): Promise<LineCoverage> => {
    const found = await readDumps(dumps, join(dir, 'own'), new Set(files.keys()))
    const all = [...problems, ...found.problems]
    if (run.timedOut) all.push(`the coverage run timed out after ${ctx.policy.suite.timeout}s`)
    if (found.dumps.length === 0)
      all.push(
        'the coverage run wrote no V8 coverage (does the suite command set NODE_V8_COVERAGE?)'
      )
    return relativeTo(coveredLines(found.dumps, files), files, all)
  }
  return { writable: [dir], env, read }
}

/** The worktree as the run's processes name it (real path: Node resolves links). */
async function runPath(place: Placement, worktree: string): Promise<string> {
  return place.at === worktree ? realpath(worktree) : place.at
}

interface Asked {
  /** The run's absolute path → the head's text and the asked lines. */
  files: Map<string, AskedFile & { path: string }>
  problems: string[]
}

/** The head's text of each asked file, from the head commit (the run could rewrite it). */
async function askedFiles(
  ctx: GateContext,
  asked: readonly ChangedLines[],
  at: string
): Promise<Asked> {
  const files = new Map<string, AskedFile & { path: string }>()
  const problems: string[] = []
  for (const c of asked) {
    const text = await ctx.git.showText(ctx.head, c.path)
    if (text === null) problems.push(`${c.path}: not a file of the head`)
    else files.set(join(at, c.path), { path: c.path, text, lines: c.lines })
  }
  return { files, problems }
}

/** NODE_V8_COVERAGE, and the hook added to the NODE_OPTIONS the run would have had. */
function coverageEnv(ctx: GateContext, dumps: string, problems: string[]): Record<string, string> {
  const dir = reportersDir()
  const hook = dir === null ? null : join(dir, 'node', 'coverage-hook.cjs')
  if (hook === null || !existsSync(hook)) {
    problems.push("the gate's coverage hook is missing: transformed files cannot be mapped")
    return { NODE_V8_COVERAGE: dumps }
  }
  const before = ctx.policy.suite.env.NODE_OPTIONS ?? ctx.childEnv.NODE_OPTIONS ?? ''
  const quoted = `"${hook.replace(/[\\"]/g, c => `\\${c}`)}"`
  const options = [before, `--require ${quoted}`].filter(s => s !== '').join(' ')
  return { NODE_V8_COVERAGE: dumps, NODE_OPTIONS: options }
}

/** A regular file's text, never following a link, at most `max` bytes; null otherwise. */
async function readRegular(path: string, max: number): Promise<string | null> {
  let handle
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
  } catch {
    return null
  }
  try {
    const stat = await handle.stat()
    if (!stat.isFile() || stat.size > max) return null
    return await handle.readFile('utf8')
  } finally {
    await handle.close()
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** The process and thread a file of the coverage run is of, or null for another name. */
function processOf(name: string): string | null {
  const m =
    /^coverage-(\d+)-\d+-(\d+)\.json$/.exec(name) ??
    /^own-(\d+)-(\d+)-end\.json$/.exec(name) ??
    /^(?:started|sources)-(\d+)-(\d+)(?:\.jsonl)?$/.exec(name)
  return m ? `${m[1]}-${m[2]}` : null
}

/** The coverage files of one process or thread, by kind. */
interface ProcessFiles {
  /** The hook's take (`…-end.json`). */
  own: string[]
  ended: boolean
  v8: string[]
  sources?: string
  started: boolean
}

/** The names in a folder the run could write; none when the run removed or replaced it. */
async function listing(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [])
}

async function listRun(v8Dir: string, ownDir: string): Promise<Map<string, ProcessFiles>> {
  const by = new Map<string, ProcessFiles>()
  const entry = (name: string): ProcessFiles | null => {
    const key = processOf(name)
    if (key === null) return null
    const found = by.get(key) ?? { own: [], ended: false, v8: [], started: false }
    by.set(key, found)
    return found
  }
  for (const name of (await listing(v8Dir)).sort()) entry(name)?.v8.push(join(v8Dir, name))
  for (const name of (await listing(ownDir)).sort()) {
    const files = entry(name)
    if (files === null) continue
    if (name.startsWith('own-')) {
      files.own.push(join(ownDir, name))
      files.ended ||= name.endsWith('-end.json')
    } else if (name.startsWith('sources-')) files.sources = join(ownDir, name)
    else files.started = true
  }
  return by
}

/**
 * The dumps of the run: per process and thread the hook's take, else V8's dump (a worker
 * thread, terminated, runs no exit handler; a process that dropped NODE_OPTIONS), with the
 * texts the hook kept there. V8's dump of a process the hook wrote for comes after the
 * hook took (and so reset) the counts, and adds nothing.
 */
async function readDumps(
  v8Dir: string,
  ownDir: string,
  asked: ReadonlySet<string>
): Promise<{ dumps: V8Dump[]; problems: string[] }> {
  const run = await listRun(v8Dir, ownDir)
  const problems: string[] = []
  const started = [...run.values()].filter(f => f.started)
  const lost = started.filter(f => !f.ended && f.v8.length === 0)
  if (lost.length > 0)
    problems.push(
      `${lost.length} of ${started.length} Node processes of the coverage run that may have run changed code ended before writing their coverage (killed?): the lines only they ran are missing`
    )
  const dumps: V8Dump[] = []
  let read = 0
  for (const files of run.values()) {
    const sources = parseSourceLines(
      files.sources ? await readRegular(files.sources, MAX_DUMP_BYTES) : null
    )
    for (const path of files.own.length > 0 ? files.own : files.v8) {
      if (++read > MAX_DUMPS) break
      const dump = parseDump(parseJson(await readRegular(path, MAX_DUMP_BYTES)), asked)
      if (dump === null)
        problems.push(
          `a coverage file was not V8's (unreadable, too big or of another shape): ${basename(path)}`
        )
      else dumps.push({ ...dump, sources })
    }
  }
  if (read > MAX_DUMPS) problems.push(`only the first ${MAX_DUMPS} coverage files were read`)
  return { dumps, problems }
}

/** v8.ts's answer keyed by the run's paths, as repository paths. */
function relativeTo(
  lines: ReturnType<typeof coveredLines>,
  files: ReadonlyMap<string, AskedFile & { path: string }>,
  problems: string[]
): LineCoverage {
  const covered = new Map<string, Set<number>>()
  const executable = new Map<string, Set<number>>()
  for (const [abs, file] of files) {
    covered.set(file.path, lines.covered.get(abs) ?? new Set())
    executable.set(file.path, lines.executable.get(abs) ?? new Set())
    const why = lines.problems.get(abs)
    if (why !== undefined) problems.push(`${file.path}: ${why}`)
  }
  return { covered, executable, ...(problems.length > 0 ? { problems } : {}) }
}
