import type { FreezeDebt, Reason } from '../types.js'

export type FlakeCause = 'order' | 'time' | 'net' | 'rng' | 'shared' | 'env'

export interface LedgerRow {
  id: string
  /** Canonical test id: path/to/test_file.py::name */
  test: string
  cause: FlakeCause
  reason: string
  owner: string
  first_seen: string
  expires_on: string
  max_runs: number
  ticket?: string
  counterexample?: unknown
}

/** The ledger as read from the merge base and judged against `today`. */
export interface LedgerState {
  path?: string
  rows: readonly LedgerRow[]
  /** Rows whose expires_on >= today, by canonical test id: these tests abstain. */
  live: ReadonlyMap<string, LedgerRow>
  /** Line of each valid row in the ledger file, by row id (for annotations, e.g. stale rows). */
  lines?: ReadonlyMap<string, number>
  reasons: Reason[]
  freeze_debt: FreezeDebt[]
}

export const EMPTY_LEDGER: LedgerState = { rows: [], live: new Map(), reasons: [], freeze_debt: [] }
