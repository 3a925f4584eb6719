// The lints stage: every lint the policy turns on, from the one table in registry.ts. The
// contamination lints (literal-overlap, judge-import) read source through tree-sitter
// parsers that are loaded only when a rule is on and a file in that language needs reading.
import type { GateContext } from '../context.js'
import type { LedgerState } from '../ledger/types.js'
import type { Reason } from '../types.js'
import { lintFiles } from './files.js'
import { LINTS, levelOf, type LintInput, type LintKey } from './registry.js'
import { SourceFacts } from './source.js'

/**
 * Runs the lints that are on (all of them, or those in `only`), in table order.
 * @param ledger the ledger as loaded from the merge base
 */
export async function runLints(
  ctx: GateContext,
  ledger: LedgerState,
  only?: readonly LintKey[]
): Promise<Reason[]> {
  const keys = (Object.keys(LINTS) as LintKey[]).filter(k => only === undefined || only.includes(k))
  const input: LintInput = {
    ctx,
    ledger,
    files: lintFiles(ctx.planes, ctx.writeSet),
    facts: new SourceFacts(ctx.git)
  }
  const reasons: Reason[] = []
  const took: string[] = []
  for (const key of keys) {
    const level = levelOf(ctx.policy.lints[key])
    if (level === undefined) continue
    const started = Date.now()
    reasons.push(...(await LINTS[key](input, level)))
    took.push(`${key} ${Date.now() - started} ms`)
  }
  if (took.length > 0) logSummary(input, took)
  return reasons
}

function logSummary({ ctx, files, facts }: LintInput, took: readonly string[]): void {
  ctx.log.info(
    `lints: ${files.tests.length} test and ${files.production.length} production file(s) written; ` +
      `${facts.parsed} parsed, ${facts.filtered} passed over by the literal prefilter; ${took.join(', ')}`
  )
  if (facts.skipped.length > 0) {
    ctx.log.info(
      `not parsed (over 1 MiB or binary): ${facts.skipped.slice(0, 5).join(', ')}${facts.skipped.length > 5 ? ', ...' : ''}`
    )
  }
}
