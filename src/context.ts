import type { Git } from './git/git.js'
import type { Policy } from './policy/types.js'
import type { Logger, WriteSetRow } from './types.js'

/** What every stage after policy loading may read. Built once by the pipeline. */
export interface GateContext {
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
  /** Classified write set (merge base → head). */
  writeSet: readonly WriteSetRow[]
  /** Environment for children (suite, setup, seeds): credentials already removed. */
  childEnv: NodeJS.ProcessEnv
  /** Private temp directory of this run, removed when the run ends. */
  tempDir: string
}
