// Judging valid rows against today: expired rows are debt (a failure, even when the test
// passes now, because the ledger is a loan and not a skip list), rows about to expire are
// warnings so that owners hear before the gate blocks, the rest are live and abstain.
import type { FreezeDebt, Reason } from '../types.js'
import { daysBetween } from './dates.js'
import type { LedgerRow } from './types.js'

/** Rows expiring within this many days (today included) produce a warning. */
export const EXPIRING_WITHIN_DAYS = 7

export interface Judged {
  live: Map<string, LedgerRow>
  freeze_debt: FreezeDebt[]
  reasons: Reason[]
}

export function judgeRows(
  rows: readonly LedgerRow[],
  lines: ReadonlyMap<string, number>,
  file: string,
  today: string
): Judged {
  const live = new Map<string, LedgerRow>()
  const freeze_debt: FreezeDebt[] = []
  const reasons: Reason[] = []
  for (const row of rows) {
    const left = daysBetween(today, row.expires_on)
    const line = lines.get(row.id)
    const at = line === undefined ? { path: file } : { path: file, line }
    if (left < 0) {
      const overdue = -left
      freeze_debt.push({
        id: row.id,
        test: row.test,
        owner: row.owner,
        expires_on: row.expires_on,
        days_overdue: overdue
      })
      reasons.push({
        rule: 'ledger-expired',
        level: 'failure',
        message: `${file}${line === undefined ? '' : `:${line}`}: row "${row.id}" (${row.test}, owner ${row.owner}) expired on ${row.expires_on}, ${overdue} day(s) ago: fix the flake and delete the row, or renew it in a reviewed PR`,
        ...at
      })
      continue
    }
    live.set(row.test, row)
    if (left <= EXPIRING_WITHIN_DAYS) {
      reasons.push({
        rule: 'ledger-expiring',
        level: 'warning',
        message: `row "${row.id}" (${row.test}, owner ${row.owner}) expires ${left === 0 ? 'today' : `in ${left} day(s)`} (${row.expires_on})`,
        ...at
      })
    }
  }
  return { live, freeze_debt, reasons }
}
