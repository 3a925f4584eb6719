// The instrument overlay: what the head worktree must get from the merge base before its
// suite runs, so the head is measured by the base's instrument even if detection missed
// something. Independent of the write set: computed from the two trees. With a production
// plane (`planes.production`) the overlay extends to everything that is not production
// code: the vote then sees the head's production code and nothing else of the head's
// (docs/instrument.md, "The production plane").
import { headVersionCounts } from '../policy/production.js'
import type { Policy } from '../policy/types.js'
import type { RunnerChange } from './tampering.js'
import type { InstrumentView } from './view.js'

export interface InstrumentOverlay {
  /**
   * Paths to check out from the merge base (files, symlinks, submodule pointers) into the
   * head worktree: instrument, fixture and runner-configuration paths whose entry differs.
   */
  restore: string[]
  /** Such paths present at head but absent at the merge base: delete them first. */
  remove: string[]
}

/** Does the vote use the head's version of a path (production code), or the merge base's? */
export type HeadCounts = (path: string) => boolean

/** The production plane's rule for this policy (every path counts without a plane). */
export function voteUsesHead(view: InstrumentView, policy: Policy): HeadCounts {
  const counts = headVersionCounts(policy, p => view.planes.isProduction(p))
  return path => counts(path) && !view.isInstrument(path) && !view.fixturePaths.has(path)
}

/**
 * Apply `remove` before `restore` (a file may replace a directory the base had). A runner
 * path the vote takes from the merge base anyway (outside production code) is left to
 * productionReset: the patch's own tests may use it (an in-diff conftest.py).
 */
export function computeOverlay(
  view: InstrumentView,
  runner: readonly RunnerChange[],
  headCounts: HeadCounts = () => true
): InstrumentOverlay {
  const runnerPaths = new Set(runner.map(c => c.path))
  const restore: string[] = []
  const remove: string[] = []
  for (const path of view.changed) {
    const relevant =
      view.isInstrument(path) ||
      view.fixturePaths.has(path) ||
      (runnerPaths.has(path) && headCounts(path))
    if (!relevant) continue
    if (view.base.has(path)) restore.push(path)
    else remove.push(path)
  }
  return { restore, remove }
}

/**
 * With a production plane: every changed path the vote takes from the merge base and no
 * earlier step (the instrument overlay, the strip of the patch's tests) already handled.
 * Applied to the head's vote worktree only, after those two, before setup.
 */
export function productionReset(
  view: InstrumentView,
  headCounts: HeadCounts,
  handled: InstrumentOverlay
): InstrumentOverlay {
  const done = new Set([...handled.restore, ...handled.remove])
  const restore: string[] = []
  const remove: string[] = []
  for (const path of view.changed) {
    if (done.has(path) || headCounts(path)) continue
    if (view.base.has(path)) restore.push(path)
    else remove.push(path)
  }
  return { restore, remove }
}

/**
 * What the head changed that the vote did not use (the card's `unmeasured`): the paths a
 * step reset to the merge base's version or removed, instrument paths excepted (changing
 * those is a failure of its own, not an unmeasured change). Sorted, once each.
 */
export function unmeasuredPaths(
  view: InstrumentView,
  resets: readonly InstrumentOverlay[]
): string[] {
  const paths = new Set<string>()
  for (const r of resets)
    for (const p of [...r.restore, ...r.remove])
      if (!view.isInstrument(p) && !view.fixturePaths.has(p)) paths.add(p)
  return [...paths].sort()
}
