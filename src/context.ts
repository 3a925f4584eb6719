import type { Containment } from './exec/sandbox.js'
import type { Git } from './git/git.js'
import type { InstrumentView } from './instrument/view.js'
import type { Policy } from './policy/types.js'
import type { Logger } from './types.js'
import type { WatchPlan } from './replay/watch.js'
import type { ClassifiedRow } from './writeset/index.js'
import { TreeCache } from './writeset/index.js'
import { compilePlanes, type PlaneMatcher } from './writeset/planes.js'

/**
 * Facts of one run that several stages need, computed once: the policy's planes compiled
 * once, each revision's tree listed at most once. Built by the pipeline right after the
 * policy is read, before the write set.
 */
export interface RunFacts {
  /** The policy's planes, compiled once per run. */
  planes: PlaneMatcher
  /** `git ls-tree -r` of each revision, listed on first use and shared by every stage. */
  trees: TreeCache
}

export function runFacts(git: Git, policy: Policy): RunFacts {
  return { planes: compilePlanes(policy), trees: new TreeCache(git) }
}

/** What every stage after policy loading may read. Built once by the pipeline. */
export interface GateContext extends RunFacts {
  /** Root of the repository checkout the gate runs in. */
  repoDir: string
  git: Git
  /** The policy, read from the merge base. */
  policy: Policy
  /** Merge base of base and head: every trust-relevant file is read at this commit. */
  mergeBase: string
  /** The head commit being judged. */
  head: string
  /** YYYY-MM-DD, UTC. */
  today: string
  log: Logger
  /** Write set (merge base → head), each row with the classification that placed it. */
  writeSet: readonly ClassifiedRow[]
  /** Environment for children (suite, setup, seeds): credentials already removed. */
  childEnv: NodeJS.ProcessEnv
  /** Private temp directory of this run, removed when the run ends. */
  tempDir: string
  /**
   * The instrument stage's view of both trees (its one predicate of what the instrument
   * is), set by the pipeline once that stage has run and read by every stage after it: the
   * lints (oracle-reach's instrument paths) and the replay's overlay.
   */
  instrument?: InstrumentView
  /** How the replay's runs are contained, set by the replay once it has probed (sandbox.ts). */
  containment?: Containment
  /**
   * What the gate's reporter watches in the head's runs (replay/watch.ts), set by the
   * replay before anything runs; null or absent: nothing is watched.
   */
  watch?: WatchPlan | null
}
