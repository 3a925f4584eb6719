// PLACEHOLDER (issue 4 replaces this): oracle-gate ledger add|check|list.
import type { Io } from './main.js'

export async function runLedgerCommand(_argv: string[], io: Io): Promise<number> {
  io.stderr.write('oracle-gate ledger: not available yet\n')
  return 4
}
