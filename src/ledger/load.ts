// The ledger stage of the pipeline: read the ledger the policy names at the merge base
// (never the head: a patch may not grant itself a freeze), validate it and judge it
// against today.
import type { GateContext } from '../context.js'
import { shortSha } from '../json.js'
import type { Reason } from '../types.js'
import { normalisePath } from '../writeset/planes.js'
import { judgeRows } from './expiry.js'
import { formatProblem, parseLedger } from './parse.js'
import { EMPTY_LEDGER, type LedgerState } from './types.js'
import type { LedgerMaxDays } from './limits.js'

export async function loadLedger(ctx: GateContext): Promise<LedgerState> {
  if (ctx.policy.ledger === undefined)
    return { ...EMPTY_LEDGER, live: new Map(), reasons: [], freeze_debt: [] }
  const file = normalisePath(ctx.policy.ledger)
  const text = await ctx.git.showText(ctx.mergeBase, file)
  if (text === null) {
    const reason: Reason = {
      rule: 'ledger-invalid',
      level: 'failure',
      path: file,
      message: `ledger ${file} (named by the policy) does not exist at the merge base ${shortSha(ctx.mergeBase)}; add it (oracle-gate ledger add, or {version: 1, entries: []}) in a PR of its own, or remove "ledger:" from the policy`
    }
    return {
      path: file,
      rows: [],
      live: new Map(),
      lines: new Map(),
      reasons: [reason],
      freeze_debt: []
    }
  }
  return ledgerFromText(text, file, ctx.today, ctx.policy.ledger_max_days)
}

/** Pure core of loadLedger: text of the ledger at the base → state judged against today. */
export function ledgerFromText(
  text: string,
  file: string,
  today: string,
  maxDays: LedgerMaxDays
): LedgerState {
  const parsed = parseLedger(text, file, { today, maxDays })
  const invalid: Reason[] = parsed.problems.map(p => ({
    rule: 'ledger-invalid',
    level: 'failure',
    path: file,
    line: p.line,
    message: formatProblem(p)
  }))
  const judged = judgeRows(parsed.rows, parsed.lines, file, today)
  return {
    path: file,
    rows: parsed.rows,
    live: judged.live,
    lines: parsed.lines,
    reasons: [...invalid, ...judged.reasons],
    freeze_debt: judged.freeze_debt
  }
}
