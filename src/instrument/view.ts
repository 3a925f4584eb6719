// What the instrument checks and the overlay share: both trees (one ls-tree each), the
// plane matcher, the runner table compiled for the base's voting tests, the base's fixture
// manifest, and the paths whose tree entry differs between merge base and head. Everything
// here comes from git objects, not from the write set, so a write set that missed a path
// (an API list, say) cannot hide an instrument change from these checks.
import type { Git, TreeEntry } from '../git/git.js'
import type { Policy } from '../policy/types.js'
import { linkedInstrument, type TreeCache } from '../writeset/index.js'
import type { PlaneMatcher } from '../writeset/planes.js'
import { readManifest, type FixtureEntry } from './fixtures.js'
import { compileRunnerMatcher, type RunnerMatcher } from './runner.js'

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
  linkedInstrument?: (path: string) => string | undefined
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
  const runner = compileRunnerMatcher(ctx.policy, voting)
  const changed: string[] = []
  for (const [path, b] of base) {
    const h = head.get(path)
    if (h === undefined || h.mode !== b.mode || h.sha !== b.sha) changed.push(path)
  }
  for (const path of head.keys()) if (!base.has(path)) changed.push(path)
  changed.sort()
  const fixturePaths = new Set((fixtures ?? []).map(f => f.path))
  const linked = await linkedInstrument(ctx.git, planes, base)
  const isInstrument = (path: string): boolean => {
    const plane = planes.planeOf(path)
    return plane === 'protected' || plane === 'voting' || linked?.(path) !== undefined
  }
  const view: InstrumentView = {
    base,
    head,
    planes,
    runner,
    fixtures,
    fixturePaths,
    changed,
    isInstrument
  }
  if (linked !== undefined) view.linkedInstrument = linked
  return view
}
