// One shard's slice of the replay: the voting test files it owns (split.ts over the merge
// base's files), the first run restricted to them through the runner's own selection form
// (the `{tests}` forms of targeted reruns, runners.ts) where the runner is known, and the
// filter that keeps only observations of owned files. Shard 1 also runs the seeds command
// and the patch's own tests, so each is measured once. Pure.
import type { CanaryPlan } from '../replay/canary.js'
import { rerunPlan } from '../replay/rerun.js'
import { escapeRegExp, type RunnerKind } from '../replay/runners.js'
import type { Observation } from '../replay/transitions.js'
import type { Policy } from '../policy/types.js'
import type { Plane } from '../types.js'
import { languageOf } from '../lang.js'
import { splitFiles, votingTestFiles, type ShardSpec } from './split.js'

export interface ShardSlice extends ShardSpec {
  /** Every voting test file of the split (all shards'). */
  all: readonly string[]
  /** This shard's files. */
  files: readonly string[]
  /** Shard 1: runs the seeds command and the patch's own tests. */
  lead: boolean
  /** Keeps an observation unless its file is another shard's. */
  keep: (o: Observation) => boolean
  /** The first run's command and `{tests}` words, or null: the whole suite runs, filtered. */
  first: (canary: CanaryPlan | null) => { command: string; testArgs: string[] } | null
}

export function planSlice(
  spec: ShardSpec,
  baseFiles: Iterable<string>,
  planes: { planeOf(path: string): Plane; isTestLike(path: string): boolean },
  suite: Policy['suite']
): ShardSlice {
  const all = votingTestFiles(
    baseFiles,
    p => planes.planeOf(p),
    p => planes.isTestLike(p)
  )
  const files = splitFiles(all, spec.total)[spec.index - 1] ?? []
  // A selection runs only the split's files: sound only when no voting source file outside
  // them could hold tests (a pytest python_files the patterns do not know, say). Otherwise
  // every shard runs the whole suite and keeps what it owns (plus what no shard owns).
  const splitSet = new Set(all)
  const selectable = [...baseFiles].every(
    p => planes.planeOf(p) !== 'voting' || !holdsCode(p) || splitSet.has(p) || isSupport(p)
  )
  const owned = new Set(files)
  const keep = (o: Observation): boolean =>
    o.file === null || !splitSet.has(o.file) || owned.has(o.file)
  return {
    ...spec,
    all,
    files,
    lead: spec.index === 1,
    keep,
    first: canary => (selectable ? firstRun(suite, files, canary) : null)
  }
}

/** A source file a runner could collect tests from (any language the gate reads). */
const holdsCode = (path: string): boolean => languageOf(path) !== undefined

/** Files a runner loads as support, never as a test module of their own. */
const isSupport = (path: string): boolean => /(^|\/)(conftest|__init__)\.py$/.test(path)

/**
 * The suite command selecting `files` (plus the canary's file, so the tripwire stays armed):
 * the command itself when it has `{tests}`, else the rerun rewrite of a known runner. Only
 * runners whose selection of files the gate knows: pytest (paths), vitest and node:test
 * (file arguments), jest (path patterns). A shard owning no file runs the whole suite
 * rather than an empty selection (which most runners read as "everything" anyway).
 */
function firstRun(
  suite: Policy['suite'],
  files: readonly string[],
  canary: CanaryPlan | null
): { command: string; testArgs: string[] } | null {
  if (files.length === 0) return null
  // The suite command's own selection (rerun_command is for reruns, not for this run).
  const plan = rerunPlan({
    command: suite.command,
    ...(suite.runner !== undefined ? { runner: suite.runner } : {})
  })
  const runner = plan.runner ?? null
  if (!plan.selects || !selectsFiles(runner)) return null
  const canaryFiles = canary ? [...new Set(canary.canaries.map(c => c.path))] : []
  const selected = [...files, ...canaryFiles]
  return { command: plan.command, testArgs: fileArgs(runner, selected) }
}

function selectsFiles(runner: RunnerKind | null): runner is RunnerKind {
  return runner === 'pytest' || runner === 'vitest' || runner === 'jest' || runner === 'node-test'
}

function fileArgs(runner: RunnerKind, files: readonly string[]): string[] {
  // jest reads its positional arguments as regular expressions over the path.
  return runner === 'jest' ? files.map(f => escapeRegExp(f)) : [...files]
}
