// The flake ledger (read from the merge base, judged against today). The skip-marker lint
// that reads it lives with the other lints (src/lints/skip-marker). See docs/ledger.md.
export { loadLedger, ledgerFromText } from './load.js'
export { EMPTY_LEDGER, type LedgerRow, type LedgerState, type FlakeCause } from './types.js'
