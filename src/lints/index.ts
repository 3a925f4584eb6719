// The lints stage: every lint the policy turns on, from the one table in registry.ts. All of
// them read the changed files through one per-run view (view.ts: one diff, each text read
// once, each tree parsed once, freed when the stage ends) and resolve names through one
// resolver per language (resolve/); tree-sitter grammars load only when a file needs one.
import type { GateContext } from '../context.js'
import type { LedgerState } from '../ledger/types.js'
import type { Reason } from '../types.js'
import { assertLintableSizes } from './blobs.js'
import { isTestFile, lintFiles } from './files.js'
import { LINTS, levelOf, type LintInput, type LintKey } from './registry.js'
import { SourceFacts } from './source.js'
import { ChangedFiles } from './view.js'

/**
 * Runs the lints that are on (all of them, or those in `only`), in table order.
 * @param ledger the ledger as loaded from the merge base
 */
export async function runLints(
  ctx: GateContext,
  ledger: LedgerState,
  only?: readonly LintKey[]
): Promise<Reason[]> {
  const keys = (Object.keys(LINTS) as LintKey[]).filter(
    k => (only === undefined || only.includes(k)) && levelOf(ctx.policy.lints[k]) !== undefined
  )
  // Before any lint reads a byte, whichever lints are on (the stages after read test files
  // too): a test file too large to read is an error naming the limit.
  await assertLintableSizes(ctx.git, ctx.head, ctx.writeSet, path => isTestFile(ctx.planes, path))
  if (keys.length === 0) return []
  const view = new ChangedFiles(ctx.git, ctx.mergeBase, ctx.head, ctx.writeSet)
  const input: LintInput = {
    ctx,
    ledger,
    files: lintFiles(ctx.planes, ctx.writeSet),
    view,
    facts: new SourceFacts(view)
  }
  try {
    const reasons: Reason[] = []
    const took: string[] = []
    for (const key of keys) {
      const started = Date.now()
      reasons.push(...(await LINTS[key](input, levelOf(ctx.policy.lints[key]) ?? 'warning')))
      took.push(`${key} ${Date.now() - started} ms`)
    }
    logSummary(input, took)
    return reasons
  } finally {
    view.dispose()
  }
}

function logSummary({ ctx, files, facts, view }: LintInput, took: readonly string[]): void {
  ctx.log.info(
    `lints: ${files.tests.length} test and ${files.production.length} production file(s) written; ` +
      `${view.parsed} parsed, ${facts.filtered} passed over by the literal prefilter; ${took.join(', ')}`
  )
  if (facts.skipped.length > 0) {
    ctx.log.info(
      `not parsed (over 1 MiB or binary): ${facts.skipped.slice(0, 5).join(', ')}${facts.skipped.length > 5 ? ', ...' : ''}`
    )
  }
}
