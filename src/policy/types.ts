// The typed, defaulted, frozen settings the rest of the gate reads. Field names mirror the
// YAML keys so a message can name the key a user wrote.

import type { LedgerMaxDays } from '../ledger/limits.js'

export type LintMode = 'off' | 'warn' | 'error'

/** The categories of oracle-reach (src/lints/reach/types.ts holds the same list). */
export type ReachCategory =
  'framework' | 'markers' | 'introspection' | 'process' | 'instrument' | 'comparison' | 'echo'

/** One entry of lints.reach_allow: files (a glob) that may do what the categories name. */
export interface ReachAllow {
  path: string
  categories: readonly ReachCategory[]
}

/** `suite.runner`: the runners the gate knows; `other` means unknown (docs/replay.md). */
export type RunnerSetting = 'pytest' | 'vitest' | 'jest' | 'node-test' | 'go' | 'other'

export interface SuiteSettings {
  command: string
  timeout: number
  reruns: number
  rerun_command?: string
  /** The runner, when the command does not say (pytest, vitest, jest, node-test, go, other). */
  runner?: RunnerSetting
  report?: string
  parallel: boolean
  /** Suite processes that may run at once: ≥ 2 overlaps the base's reruns with the head. */
  jobs: number
  /** Network inside the sandbox (docs/replay.md, Containment). */
  network: boolean
  /** ORACLE_GATE_* variables in the suite's and seeds' children (off: no fingerprints). */
  expose_env: boolean
  /** PYTHONSAFEPATH=1 for every child (docs/replay.md). */
  python_safe_path: boolean
  setup?: string
  setup_timeout: number
  /** Setup once per dependency fingerprint (src/replay/share.ts). */
  share_setup: boolean
  reuse: readonly string[]
  reuse_key?: readonly string[]
  env: Readonly<Record<string, string>>
}

export interface SeedSettings {
  corpus: string
  command: string
  min_hits: number
  min_distance: number
  distance: 'simhash' | 'sha256'
  timeout: number
}

export type EvidenceMode = 'off' | 'report' | 'enforce'

/** The policy's `evidence` block (src/policy/schema.json holds the defaults). */
export interface EvidenceSettings {
  mode: EvidenceMode
  /** Least share (0..1) of changed lines the voting tests must run, under enforce. */
  min_coverage: number
  /** Least share (0..1) of run mutants the voting tests must kill, under enforce. */
  min_kill_ratio: number
  /** Most mutants; absent: 7 × the changed production files. */
  max_mutants?: number
  /** Seconds the mutation runs may take in all. */
  budget_s: number
}

export interface Policy {
  version: 1
  /** Path of the policy file inside the repository (always protected). */
  path: string
  protected: readonly string[]
  /** Logins and org/team slugs whose approval of the head sha lets an instrument change merge. */
  instrument_approvers: readonly string[]
  /** Containment of the runs (src/exec/sandbox.ts). */
  sandbox: 'auto' | 'required' | 'off'
  /** Diff coverage and bounded mutation of the patch (src/evidence/, docs/evidence.md). */
  evidence: EvidenceSettings
  case_insensitive: boolean
  voting_edits: 'none' | 'append'
  planes: {
    voting: readonly string[]
    drafts: readonly string[]
    in_diff: readonly string[]
    /** The production code: the only head paths the vote uses (docs/instrument.md). */
    production?: readonly string[]
  }
  /** Whose manifests and lockfiles setup and the vote use; see dependencySource(). */
  dependencies?: 'base' | 'head'
  test_patterns: readonly string[]
  runner_config: readonly string[]
  suite: SuiteSettings
  ledger?: string
  /** A number for every cause, or a map by cause (src/ledger/limits.ts). */
  ledger_max_days: LedgerMaxDays
  fixtures?: string
  seeds?: SeedSettings
  campaign: { seed: number; max_examples: number; wall_clock: number }
  classes: {
    fixture: readonly string[]
    invariant: readonly string[]
    metamorphic: readonly string[]
    judge: readonly string[]
  }
  lints: {
    'literal-overlap': LintMode
    'judge-import': LintMode
    'skip-marker': LintMode
    'ungoverned-test': LintMode
    'oracle-reach': LintMode
    reach_allow: readonly ReachAllow[]
    reach_differential: boolean
    literal_min_length: number
    literal_allow: readonly string[]
    judge_modules: readonly string[]
    judge_modules_replace: boolean
  }
}
