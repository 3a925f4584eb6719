// The instrument overlay: what the head worktree must get from the merge base before its
// suite runs, so the head is measured by the base's instrument even if detection missed
// something. Independent of the write set: computed from the two trees.
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

/** Apply `remove` before `restore` (a file may replace a directory the base had). */
export function computeOverlay(
  view: InstrumentView,
  runner: readonly RunnerChange[]
): InstrumentOverlay {
  const runnerPaths = new Set(runner.map(c => c.path))
  const restore: string[] = []
  const remove: string[] = []
  for (const path of view.changed) {
    const relevant = view.isInstrument(path) || view.fixturePaths.has(path) || runnerPaths.has(path)
    if (!relevant) continue
    if (view.base.has(path)) restore.push(path)
    else remove.push(path)
  }
  return { restore, remove }
}
