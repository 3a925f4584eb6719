// PLACEHOLDER (issue 4 replaces this): the flake ledger and suppression markers.
import type { GateContext } from '../context.js'
import type { Reason } from '../types.js'
import { EMPTY_LEDGER, type LedgerState } from './types.js'

export async function loadLedger(_ctx: GateContext): Promise<LedgerState> {
  return EMPTY_LEDGER
}

export async function checkSkipMarkers(_ctx: GateContext, _ledger: LedgerState): Promise<Reason[]> {
  return []
}
