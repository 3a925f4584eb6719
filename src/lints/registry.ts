// Every lint in one table, keyed by its `lints.<key>` mode in the policy. The policy type
// decides which keys exist (every `lints.*` field whose value is a LintMode), so a lint
// added to the policy without an entry here, or an entry without a policy key, does not
// compile. One mode → level mapping for all of them; the shared inputs (which changed
// files are tests, the parsed facts) are built once per run and only when a lint is on.
import type { GateContext } from '../context.js'
import type { LedgerState } from '../ledger/types.js'
import type { LintMode, Policy } from '../policy/types.js'
import type { Level, Reason } from '../types.js'
import type { LintFiles } from './files.js'
import { judgeImport } from './judge-import.js'
import { literalOverlap } from './literal-overlap.js'
import { oracleReach } from './reach/index.js'
import { skipMarker } from './skip-marker/index.js'
import type { SourceFacts } from './source.js'
import { ungovernedTest } from './ungoverned-test.js'
import type { ChangedFiles } from './view.js'

/** The policy's lint keys: every field under `lints:` whose value is off, warn or error. */
export type LintKey = {
  [K in keyof Policy['lints']]-?: Policy['lints'][K] extends LintMode ? K : never
}[keyof Policy['lints']]

/** What a lint may read: the run's context and the facts the lints share. */
export interface LintInput {
  ctx: GateContext
  /** The ledger, read from the merge base (skip-marker: a live row covers a marker). */
  ledger: LedgerState
  /** The written files present at head in a parsed language, by role. */
  files: LintFiles
  /** The run's changed files: added lines, texts and trees, each read or parsed once. */
  view: ChangedFiles
  /** Facts extracted from the view's trees, shared by the contamination lints. */
  facts: SourceFacts
}

/** One lint: its reasons at `level` (the policy's mode for it, already mapped). */
export type Lint = (input: LintInput, level: Level) => Promise<Reason[]>

/** The lints, in the order they run (the order of the log, not of the card). */
export const LINTS: { readonly [K in LintKey]: Lint } = {
  'ungoverned-test': ungovernedTest,
  'skip-marker': skipMarker,
  'judge-import': judgeImport,
  'literal-overlap': literalOverlap,
  'oracle-reach': oracleReach
}

/** `warn` reports without deciding; `error` decides the verdict; `off` does not run. */
export function levelOf(mode: LintMode): Level | undefined {
  return mode === 'off' ? undefined : mode === 'warn' ? 'warning' : 'failure'
}
