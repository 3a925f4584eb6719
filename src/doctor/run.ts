// The I/O half of `oracle-gate doctor`: reads the policy at the ref, makes one temporary git
// worktree there, prepares it as the replay does, runs the locked suite several times with
// the replay's own runSuite/observe (so the ids and environment are the gate's), probes
// where the checkout's Python packages import from, scans the voting files for shadowed
// tests, and hands everything to the pure diagnose().
import { mkdtemp, open, readFile, realpath, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { runFacts, type GateContext } from '../context.js'
import { childEnv } from '../exec/env.js'
import { runShell } from '../exec/process.js'
import { Git } from '../git/git.js'
import { isInstrumentPlane } from '../instrument/rules.js'
import { compileRunnerMatcher } from '../instrument/runner.js'
import { ledgerFromText } from '../ledger/load.js'
import { languageOf } from '../lints/parsers.js'
import { parsePolicy } from '../policy/load.js'
import { isTestFile } from '../policy/inspect.js'
import { observe } from '../replay/rerun.js'
import { runSuite, sideEnv } from '../replay/run.js'
import { detectRunner } from '../replay/runners.js'
import { prepareWorktree, cleanupWorktree } from '../replay/setup.js'
import { worktreeIdContext } from '../replay/ids.js'
import { pytestRootdir, rootdirInputs } from '../replay/pyroot.js'
import { shellQuote } from '../replay/run.js'
import { worktreeFiles } from '../replay/worktree.js'
import type { Logger } from '../types.js'
import { compileGlobs } from '../writeset/planes.js'
import { logCollectionErrors } from './collection.js'
import { diagnose, type DoctorReport, type DoctorRun, type ImportProbe } from './findings.js'
import { unmeasuredImports } from './production.js'
import { shadowedTests, type Shadowed } from './shadow.js'
import { fixtureFiles, fixtureStrengthNote } from '../policy/fixture-strength.js'

export interface DoctorOptions {
  repoDir: string
  ref: string
  policyPath: string
  runs: number
  today: string
  owner: string
  log: Logger
  env: NodeJS.ProcessEnv
}

export async function doctor(options: DoctorOptions): Promise<DoctorReport> {
  const git = new Git(options.repoDir, options.env)
  const sha = await git.resolveCommit(options.ref)
  const text = await git.showText(sha, options.policyPath)
  if (text === null) throw new Error(`no policy at ${options.policyPath} in ${options.ref}`)
  const policy = parsePolicy(text, options.policyPath)
  const tempDir = await mkdtemp(join(tmpdir(), 'tmp.'))
  const ctx: GateContext = {
    ...runFacts(git, policy),
    repoDir: options.repoDir,
    git,
    policy,
    mergeBase: sha,
    head: sha,
    today: options.today,
    log: options.log,
    writeSet: [],
    childEnv: childEnv(options.env, {}, []),
    tempDir
  }
  const worktree = join(tempDir, basename(options.repoDir) || 'project')
  let links: string[] = []
  try {
    await git.addWorktree(worktree, sha)
    const setup = await prepareWorktree(ctx, 'base', worktree, join(tempDir, 'setup.log'))
    links = setup.links ?? []
    if (!setup.ok) throw new Error(`setup failed: ${setup.reason}\n${setup.tail ?? ''}`)
    const files = await worktreeFiles(ctx, worktree)
    const pyRoot = await checkoutPyRoot(ctx, worktree, files)
    const runs: DoctorRun[] = []
    for (let attempt = 0; attempt < options.runs; attempt++) {
      options.log.info(`doctor: run ${attempt + 1} of ${options.runs}`)
      runs.push(await oneRun(ctx, worktree, files, attempt, pyRoot))
    }
    return diagnose({
      ref: options.ref,
      runs,
      files,
      planeOf: p => ctx.planes.planeOf(p),
      votingGlobs: policy.planes.voting,
      globMatches: new Map(
        policy.planes.voting.map(g => [g, files.some(compileGlobs([g], false))] as const)
      ),
      testFiles: files.filter(f => isTestFile(f, f.endsWith('.py') ? 'pytest' : 'js')),
      shadowed: await scanShadowed(
        worktree,
        files.filter(f => ctx.planes.planeOf(f) === 'voting')
      ),
      imports: await probeImports(ctx, worktree, files),
      ...(await productionImports(ctx, worktree, files)),
      runnerConfig: runnerConfig(ctx, files),
      ledgered: await ledgered(ctx, sha),
      today: options.today,
      owner: options.owner,
      runner: detectRunner(policy.suite),
      ...(pyRoot !== '' ? { pyRoot } : {}),
      fixtureStrength: await fixtureStrength(ctx, worktree, files)
    })
  } finally {
    await cleanupWorktree(links).catch(() => undefined)
    await git.removeWorktree(worktree).catch(() => undefined)
    await git.pruneWorktrees().catch(() => undefined)
    await rm(tempDir, { recursive: true, force: true }).catch(() => undefined)
    await git.close()
  }
}

/** pytest's rootdir for the policy's command, from the checkout's configuration files. */
async function checkoutPyRoot(
  ctx: GateContext,
  worktree: string,
  files: readonly string[]
): Promise<string> {
  const texts = new Map<string, string>()
  for (const path of rootdirInputs(files)) {
    const text = await readFile(join(worktree, path), 'utf8').catch(() => null)
    if (text !== null) texts.set(path, text)
  }
  return pytestRootdir(ctx.policy.suite.command, files, p => texts.get(p) ?? null)
}

async function oneRun(
  ctx: GateContext,
  worktree: string,
  files: readonly string[],
  attempt: number,
  pyRoot: string
): Promise<DoctorRun> {
  const started = Date.now()
  const logFile = join(ctx.tempDir, `run-${attempt}.log`)
  const r = await runSuite(ctx, {
    side: 'base',
    worktree,
    attempt,
    command: ctx.policy.suite.command,
    logFile
  })
  const seconds = (Date.now() - started) / 1000
  const duplicates = new Set<string>()
  const collectionErrors = logCollectionErrors(
    await logText(logFile),
    await realpath(worktree).catch(() => worktree)
  )
  if (r.report === null)
    return {
      observations: new Map(),
      seconds,
      exitCode: r.result.exitCode,
      reportError: `${r.reportError ?? 'no report'}${r.result.tail ? `\n${r.result.tail}` : ''}`,
      duplicates,
      collectionErrors
    }
  const ids = worktreeIdContext(
    worktree,
    files,
    p => ctx.planes.planeOf(p),
    ctx.policy.suite.report,
    { runner: detectRunner(ctx.policy.suite), pyRoot }
  )
  return {
    observations: observe(r.report, ids, duplicates),
    seconds,
    exitCode: r.result.exitCode,
    duplicates,
    collectionErrors
  }
}

/** The run's output, its last 4 MiB at most (collection errors are named near the end). */
async function logText(file: string): Promise<string> {
  const limit = 4 << 20
  const handle = await open(file, 'r').catch(() => null)
  if (handle === null) return ''
  try {
    const { size } = await handle.stat()
    const length = Math.min(size, limit)
    const buffer = Buffer.alloc(length)
    await handle.read(buffer, 0, length, size - length)
    return buffer.toString('utf8')
  } finally {
    await handle.close()
  }
}

/** Doctor's word on fixture tests without generated inputs or seeds with distance. */
async function fixtureStrength(
  ctx: GateContext,
  worktree: string,
  files: readonly string[]
): Promise<string | null> {
  const voting = files.filter(f => ctx.planes.planeOf(f) === 'voting')
  const fixtures = fixtureFiles(files, voting)
  if (fixtures.length === 0) return null
  let generators: string | null = null
  for (const file of voting.filter(f => languageOf(f) !== undefined).slice(0, 500)) {
    const text = await readFile(join(worktree, file), 'utf8').catch(() => '')
    const found = PROPERTY_IMPORT.exec(text.slice(0, 1_000_000))
    if (found) {
      generators = found[1] ?? found[2] ?? 'property tests'
      break
    }
  }
  return fixtureStrengthNote(fixtures, generators, ctx.policy.seeds)
}

/** An import of a property library in a test file (Python or JavaScript). */
const PROPERTY_IMPORT =
  /^\s*(?:from|import)\s+(hypothesis)\b|(?:from\s+|require\(\s*)['"](fast-check|@fast-check\/[\w-]+)['"]/m

async function scanShadowed(worktree: string, files: readonly string[]): Promise<Shadowed[]> {
  const out: Shadowed[] = []
  for (const file of files) {
    if (languageOf(file) === undefined) continue
    const text = await readFile(join(worktree, file), 'utf8').catch(() => null)
    if (text === null || text.length > 1_000_000) continue
    out.push(...(await shadowedTests(file, text)))
  }
  return out
}

/** Top-level packages of a src/ layout, or of the root when there is no src/. */
export function checkoutPackages(files: readonly string[]): string[] {
  const src = new Set<string>()
  const root = new Set<string>()
  for (const f of files) {
    const s = /^src\/([A-Za-z_]\w*)\/__init__\.py$/.exec(f)
    if (s?.[1] !== undefined) src.add(s[1])
    const r = /^([A-Za-z_]\w*)\/__init__\.py$/.exec(f)
    if (r?.[1] !== undefined && !['tests', 'test', 'testing', 'docs'].includes(r[1])) root.add(r[1])
  }
  return [...(src.size > 0 ? src : root)].sort().slice(0, 20)
}

/** The interpreter the suite command runs pytest with (python3 when it does not say). */
export function suitePython(command: string): string {
  return /(?:^|\s)(\S*python[\d.]*)\s+-m\s+pytest\b/.exec(command)?.[1] ?? 'python3'
}

const PROBE = `import importlib, json, sys
out = {}
for name in sys.argv[1:]:
    try:
        out[name] = getattr(importlib.import_module(name), '__file__', None) or ''
    except Exception:
        out[name] = None
print(json.dumps(out))`

/** Where each package of the checkout imports from, in the suite's own environment. */
async function probeImports(
  ctx: GateContext,
  worktree: string,
  files: readonly string[]
): Promise<ImportProbe[]> {
  const packages = checkoutPackages(files)
  if (packages.length === 0 || detectRunner(ctx.policy.suite) !== 'pytest') return []
  const root = await realpath(worktree)
  let found: Record<string, string | null>
  try {
    // Through the one process wrapper: its own process group (a timeout kills the tree)
    // and the suite's scrubbed environment.
    const result = await runShell({
      command: [suitePython(ctx.policy.suite.command), '-c', PROBE, ...packages]
        .map(shellQuote)
        .join(' '),
      cwd: worktree,
      env: await sideEnv(ctx),
      timeoutSec: 60,
      logFile: join(ctx.tempDir, 'import-probe.log'),
      captureStdout: true
    })
    if (result.exitCode !== 0)
      throw new Error(`exit ${result.exitCode ?? result.signal ?? '?'}: ${result.tail}`)
    found = JSON.parse(result.stdout) as Record<string, string | null>
  } catch (error) {
    ctx.log.warning(`doctor: the import probe failed: ${String(error)}`)
    return []
  }
  const out: ImportProbe[] = []
  for (const module of packages) {
    const file = found[module] ?? null
    const real = file === null || file === '' ? null : await realpath(file).catch(() => file)
    out.push({ module, file: real, inside: real !== null && real.startsWith(`${root}/`) })
  }
  return out
}

/** With planes.production: the voting tests' imports outside production and instrument. */
async function productionImports(
  ctx: GateContext,
  worktree: string,
  files: readonly string[]
): Promise<{ unmeasuredImports?: string[] }> {
  if (!ctx.planes.hasProduction) return {}
  const voting = new Map<string, string>()
  for (const f of files.filter(f => ctx.planes.planeOf(f) === 'voting' && languageOf(f))) {
    const text = await readFile(join(worktree, f), 'utf8').catch(() => null)
    if (text !== null && text.length <= 1_000_000) voting.set(f, text)
  }
  const measured = (p: string): boolean =>
    ctx.planes.isProduction(p) || isInstrumentPlane(ctx.planes.planeOf(p))
  const pythonRoots = ['', 'src', ...(ctx.policy.suite.env.PYTHONPATH ?? '').split(':')]
  return {
    unmeasuredImports: unmeasuredImports({ voting, files, pythonRoots, measured })
  }
}

function runnerConfig(ctx: GateContext, files: readonly string[]): string[] {
  const voting = files.filter(f => ctx.planes.planeOf(f) === 'voting')
  const matcher = compileRunnerMatcher(ctx.policy, voting)
  return files.filter(f => matcher.entryFor(f) !== null)
}

async function ledgered(ctx: GateContext, sha: string): Promise<Set<string>> {
  const path = ctx.policy.ledger
  if (path === undefined) return new Set()
  const text = await ctx.git.showText(sha, path)
  if (text === null) return new Set()
  try {
    return new Set(ledgerFromText(text, path, ctx.today, ctx.policy.ledger_max_days).live.keys())
  } catch {
    return new Set()
  }
}
