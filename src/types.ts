// Shared vocabulary of the pipeline: policy → write set → instrument → ledger → lints →
// replay → verdict → report. Only types live here; no behaviour, no imports with effects.
import type { ShardBlock } from './shard/types.js'

/** Rule ids of the contract, plus the project's extensions (marked). */
export type RuleId =
  | 'protected-path'
  | 'oracle-digest'
  | 'fixture-digest'
  | 'runner-tampered'
  | 'ungoverned-test'
  | 'skip-marker'
  | 'literal-overlap'
  | 'judge-import'
  | 'ledger-invalid'
  | 'ledger-expired'
  | 'oracle-failed'
  | 'regression'
  | 'vanished-oracle'
  | 'flaky-oracle'
  | 'suite-timeout'
  | 'empty-vote'
  | 'insufficient-hits'
  | 'config-invalid'
  // second round (contract)
  | 'oracle-reach' // production code reaches into the runner, the gate or the instrument
  | 'report-mismatch' // the runner's exit status contradicts its report
  | 'unexplained-hit' // fail→pass hits although the patch writes nothing on the source plane
  // third round
  | 'instrument-approval' // an instrument change without an approver's review of the head sha
  | 'weak-evidence' // evidence.mode enforce: the voting tests run or pin too little of the patch
  // extensions
  | 'gate-error' // the gate itself failed (git, I/O, unreadable base report)
  | 'ledger-expiring' // warning: a row expires within 7 days
  | 'ledger-stale' // warning: a frozen test no longer exists in the suite
  | 'setup-failed' // head setup failed: a red vote
  | 'seed-regression' // a seed passing on base fails on head
  | 'non-discriminating' // notice: an in-diff test passes on base as well as head
  | 'not-measured' // notice/warning: head changes outside planes.production the vote did not use
  | 'diagnostic' // notice: anything informative that is not a rule

export type Verdict = 'merge' | 'product' | 'policy' | 'no-vote' | 'error'

/** `failure` reasons decide the verdict; `warning` and `notice` are information only. */
export type Level = 'failure' | 'warning' | 'notice'

export interface Reason {
  rule: RuleId
  message: string
  path?: string
  line?: number
  level: Level
}

export type Plane = 'protected' | 'voting' | 'drafts' | 'in_diff' | 'source' | 'other'
export type PathAction = 'continue' | 'ignore' | 'reject'
export type ChangeStatus =
  'added' | 'modified' | 'deleted' | 'renamed' | 'copied' | 'type-changed' | 'mode-changed'
export type EntryKind = 'file' | 'symlink' | 'submodule' | 'executable'

/** One path the patch writes, before classification (from git or the REST API). */
export interface Change {
  path: string
  previous_path?: string
  status: ChangeStatus
  old_kind?: EntryKind
  new_kind?: EntryKind
  /** Symlink target at head, when the new entry is a symlink and the source knows it. */
  symlink_target?: string
}

export interface WriteSetRow extends Change {
  plane: Plane
  action: PathAction
}

export interface OracleDigest {
  base_digest: string
  head_digest: string
  unchanged: boolean
}

export interface Votes {
  passed: number
  failed: number
  frozen: number
  drafts: number
  by_class: Record<string, { passed: number; failed: number; frozen: number }>
}

export interface Transitions {
  fail_to_pass: string[]
  pass_to_fail: string[]
  fail_to_fail: string[]
  pass_to_pass: number
  vanished: string[]
}

export interface SeedSummary {
  oracle_hits: number
  raw_fail_to_pass: number
  min_distance: number
  hit_ids: string[]
}

export interface FreezeDebt {
  id: string
  test: string
  owner: string
  expires_on: string
  days_overdue: number
}

export interface FlakeRow {
  test: string
  side: 'base' | 'head'
  outcomes: string[]
  ledger_id?: string
}

export interface SideRun {
  side: 'base' | 'head'
  exit_code: number | null
  timed_out: boolean
  duration_ms: number
  tests: number
  setup?: 'reused' | 'shared' | 'ran' | 'none'
  setup_reason?: string
  log_tail?: string
  /** Extension: the first lines of the output, kept when the suite wrote no report. */
  log_head?: string
  /**
   * Extension: canaries of the gate written to fail that failed as written in the first run
   * (docs/replay.md): counted by the runner's exit status, not by `tests`.
   */
  canaries_failed?: number
  /** Base only: the primed result this side was taken from instead of running (src/prime/). */
  primed_from?: string
}

export interface Scorecard {
  schema: 'oracle-gate/scorecard@1'
  version: string
  verdict: Verdict
  merge: boolean
  base: string
  head: string
  base_ref?: string
  head_ref?: string
  /** Extension (the action): the PR judged, or the PR(s) a merge queue group holds. */
  pull_requests?: number[]
  /** Extension (the action): merge_group when a queue's group was judged. */
  event?: string
  today: string
  policy_path: string
  reasons: Reason[]
  write_set: WriteSetRow[]
  oracle: OracleDigest
  votes: Votes
  transitions: Transitions
  seeds: SeedSummary
  freeze_debt: FreezeDebt[]
  flakes: FlakeRow[]
  /** Extension: per-side run facts, diagnostics and timings. */
  runs: SideRun[]
  diagnostics: {
    non_discriminating: string[]
    drafts: Record<string, string>
    /** Extension: outcome on head of each in-diff test (the patch's own tests). */
    in_diff?: Record<string, string>
    /** Extension: outcome on the merge base of those of them it could run. */
    in_diff_base?: Record<string, string>
  }
  campaign?: { seed: number; max_examples: number; wall_clock: number }
  /** What the head changed that the vote did not use (planes.production; the patch's tests). */
  unmeasured?: string[]
  /** Extension: a shard's scorecard (`check --shard I/N`), src/shard/types.ts. */
  shard?: ShardBlock
  /** How the runs of the patch's code were contained (src/exec/sandbox.ts). */
  sandbox?: { kind: 'bwrap' | 'none'; contained: boolean; why?: string; shaped?: string[] }
  /** Diff coverage and mutation of the patch by the voting tests (src/evidence/); absent when off. */
  evidence?: EvidenceCard
  timings_ms: Record<string, number>
}

/** The scorecard's `evidence` (docs/evidence.md): what the voting tests ran and pinned. */
export interface EvidenceCard {
  /** The patch's changed production lines, arid lines left out. */
  changed_lines: number
  /** Of those, the lines a passing voting test (or the import of the suite) ran on the head. */
  covered_lines: number
  uncovered: { path: string; lines: number[] }[]
  mutants: {
    path: string
    line: number
    mutation: string
    killed_by: string | null
    /** Extension: why the mutant was not run to its end (budget, timeout); never killed. */
    not_run?: string
  }[]
  budget_s: number
  /** Why the evidence was not (fully) measured. */
  skipped_reason?: string
  /** Extension: files whose coverage could not be measured, and why. */
  problems?: string[]
}

/** Where progress goes: core.group in the action, stderr in the CLI. */
export interface Logger {
  info(message: string): void
  warning(message: string): void
  group<T>(name: string, fn: () => Promise<T>): Promise<T>
}
