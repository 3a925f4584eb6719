// What the instrument checks and the overlay share: both trees (one ls-tree each), the
// plane matcher, the runner table compiled for the base's voting tests, the base's fixture
// manifest, and the paths whose tree entry differs between merge base and head. Everything
// here comes from git objects, not from the write set, so a write set that missed a path
// (an API list, say) cannot hide an instrument change from these checks.
import type { Git, TreeEntry } from '../git/git.js'
import type { Policy } from '../policy/types.js'
import { linkedInstrument, type TreeCache } from '../writeset/index.js'
import type { PlaneMatcher } from '../writeset/planes.js'
import { readBlobs } from '../git/blobs.js'
import { readManifest, type FixtureEntry } from './fixtures.js'
import { isInstrumentPlane } from './rules.js'
import {
  collectedRoots,
  loadingConfigFiles,
  moduleIndex,
  pytestPathsOption,
  pythonPathOf,
  setupFilesOf
} from './loading.js'
import { readPytestConfig, type PytestConfig } from '../policy/pytest-config.js'
import { pytestRootdir, rootdirInputs } from '../replay/pyroot.js'
import { compileRunnerMatcher, type RunnerInputs, type RunnerMatcher } from './runner.js'

export interface InstrumentView {
  base: Map<string, TreeEntry>
  head: Map<string, TreeEntry>
  planes: PlaneMatcher
  runner: RunnerMatcher
  fixtures: FixtureEntry[] | null
  fixturePaths: Set<string>
  /** Paths present on either side whose (mode, object id) differs, sorted. */
  changed: string[]
  /** Protected or voting, or reached by an instrument symlink of the merge base. */
  isInstrument(path: string): boolean
  /** An instrument file or a fixture of the base's manifest: what the oracle reads. */
  isOracle(path: string): boolean
  linkedInstrument?: (path: string) => string | undefined
  /** pytest's rootdir in the merge base (replay/pyroot.ts), when not the root. */
  pyRoot?: string
  /** python_files and python_functions of the base's pytest configuration at its rootdir. */
  pytestNames?: { files: string[]; functions: string[] }
}

/** What the view is built from: the run's commits and its shared facts (planes, trees). */
export interface ViewContext {
  git: Git
  policy: Policy
  mergeBase: string
  head: string
  planes: PlaneMatcher
  trees: TreeCache
}

/** Built once per run by the instrument stage, which returns it for the replay's overlay. */
export async function instrumentView(ctx: ViewContext): Promise<InstrumentView> {
  const [base, head, fixtures] = await Promise.all([
    ctx.trees.get(ctx.mergeBase),
    ctx.trees.get(ctx.head),
    readManifest(ctx.git, ctx.mergeBase, ctx.policy.fixtures)
  ])
  const { planes } = ctx
  const voting = [...base.values()]
    .filter(e => planes.planeOf(e.path) === 'voting')
    .map(e => e.path)
  const changed: string[] = []
  for (const [path, b] of base) {
    const h = head.get(path)
    if (h === undefined || h.mode !== b.mode || h.sha !== b.sha) changed.push(path)
  }
  for (const path of head.keys()) if (!base.has(path)) changed.push(path)
  changed.sort()
  const fixturePaths = new Set((fixtures ?? []).map(f => f.path))
  const linked = await linkedInstrument(ctx.git, planes, base)
  const isInstrument = (path: string): boolean =>
    isInstrumentPlane(planes.planeOf(path)) || linked?.(path) !== undefined
  const isOracle = (path: string): boolean => isInstrument(path) || fixturePaths.has(path)
  const runner = compileRunnerMatcher(
    ctx.policy,
    voting,
    await runnerInputs(ctx, base, voting, isOracle)
  )
  const view: InstrumentView = {
    base,
    head,
    planes,
    runner,
    fixtures,
    fixturePaths,
    changed,
    isInstrument,
    isOracle
  }
  if (linked !== undefined) view.linkedInstrument = linked
  const pytest = await basePytest(ctx, base)
  if (pytest !== null) {
    if (pytest.root !== '') view.pyRoot = pytest.root
    view.pytestNames = {
      files: pytest.config.pythonFiles,
      functions: pytest.config.pythonFunctions
    }
  }
  return view
}

/**
 * pytest's rootdir for the base's suite command and the configuration there, from the
 * base's files; null when the command runs no pytest.
 */
async function basePytest(
  ctx: ViewContext,
  base: ReadonlyMap<string, TreeEntry>
): Promise<{ root: string; config: PytestConfig } | null> {
  const command = ctx.policy.suite.command
  if (!/(^|[\s/])(pytest|py\.test)(\s|$)/.test(command)) return null
  const files = [...base.keys()]
  const inputs = rootdirInputs(files)
  const blobs = await readBlobs(
    ctx.git,
    inputs.map(p => base.get(p)?.sha ?? '')
  )
  const text = (path: string): string | null => {
    const sha = inputs.includes(path) ? base.get(path)?.sha : undefined
    return sha === undefined ? null : (blobs.get(sha)?.toString('utf8') ?? null)
  }
  const root = pytestRootdir(command, files, text)
  const config = readPytestConfig(p => text(root === '' ? p : `${root}/${p}`))
  return { root, config }
}

/**
 * What the merge base adds to the runner table: the directories its suite command
 * collects, the setup files its jest/vitest configuration names, its sys.path (pythonpath
 * of its pytest configuration) and modules, and a test for .gitattributes patterns over
 * its instrument, fixture and runner files. Read from the merge base only (one cat-file).
 */
async function runnerInputs(
  ctx: ViewContext,
  base: ReadonlyMap<string, TreeEntry>,
  voting: readonly string[],
  watchedPath: (path: string) => boolean
): Promise<RunnerInputs> {
  const files = [...base.keys()]
  const fileSet = new Set(files)
  const ancestors = new Set([''])
  for (const v of voting) {
    const parts = v.split('/')
    for (let i = 1; i < parts.length; i++) ancestors.add(parts.slice(0, i).join('/'))
  }
  const configs = loadingConfigFiles(files, ancestors)
  const blobs = await readBlobs(
    ctx.git,
    configs.map(c => base.get(c)?.sha).filter((s): s is string => s !== undefined)
  )
  const setupFiles = new Map<string, string>()
  const pythonPath: string[] = []
  const testpaths: string[] = []
  for (const config of configs) {
    const text = blobs.get(base.get(config)?.sha ?? '')?.toString('utf8')
    if (text === undefined) continue
    for (const f of setupFilesOf(config, text, fileSet)) setupFiles.set(f, config)
    pythonPath.push(...pythonPathOf(config, text))
    testpaths.push(...pytestPathsOption(config, text, 'testpaths'))
  }
  const commands = [ctx.policy.suite.command, ctx.policy.suite.rerun_command ?? '']
  const collected = collectedRoots(commands, files, testpaths)
  const basic = compileRunnerMatcher(ctx.policy, voting, { collected, setupFiles })
  const watched = files.filter(f => watchedPath(f) || basic.entryFor(f) !== null)
  return {
    collected,
    setupFiles,
    modules: moduleIndex(files, pythonPath, collected),
    watched: pattern => watched.some(f => pattern.test(f))
  }
}
