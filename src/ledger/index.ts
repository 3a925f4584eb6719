// The flake ledger (read from the merge base, judged against today) and the skip-marker
// rule that needs it. See docs/ledger.md.
export { loadLedger, ledgerFromText } from './load.js'
export { checkSkipMarkers } from './skip.js'
export { EMPTY_LEDGER, type LedgerRow, type LedgerState, type FlakeCause } from './types.js'
