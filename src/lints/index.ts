// Contamination lints: `literal-overlap` (tests that photocopy the patch's strings) and
// `judge-import` (tests that ask an LLM). Both read source through tree-sitter parsers that
// are loaded only when a rule is on and a file in that language needs reading.
import type { GateContext } from '../context.js'
import type { LintMode } from '../policy/types.js'
import type { Level, Reason } from '../types.js'
import { lintFiles } from './files.js'
import { judgeImport } from './judge-import.js'
import { literalOverlap } from './literal-overlap.js'
import { runOracleReach } from './reach/index.js'
import { SourceFacts } from './source.js'

/** `warn` reports without deciding; `error` decides the verdict; `off` does not run. */
export function levelOf(mode: LintMode): Level | undefined {
  return mode === 'off' ? undefined : mode === 'warn' ? 'warning' : 'failure'
}

export async function runLints(ctx: GateContext): Promise<Reason[]> {
  return [...(await contamination(ctx)), ...(await runOracleReach(ctx))]
}

async function contamination(ctx: GateContext): Promise<Reason[]> {
  const overlapLevel = levelOf(ctx.policy.lints['literal-overlap'])
  const judgeLevel = levelOf(ctx.policy.lints['judge-import'])
  if (overlapLevel === undefined && judgeLevel === undefined) return []

  const files = lintFiles(ctx.policy, ctx.writeSet)
  const facts = new SourceFacts(ctx.git)
  const started = Date.now()
  const reasons: Reason[] = []
  if (judgeLevel !== undefined) reasons.push(...(await judgeImport(ctx, files, facts, judgeLevel)))
  const judged = Date.now()
  if (overlapLevel !== undefined)
    reasons.push(...(await literalOverlap(ctx, files, facts, overlapLevel)))

  ctx.log.info(
    `contamination lints: ${files.tests.length} test and ${files.production.length} production file(s) written; ` +
      `${facts.parsed} parsed, ${facts.filtered} passed over by the literal prefilter; judge-import ${judged - started} ms, literal-overlap ${Date.now() - judged} ms`
  )
  if (facts.skipped.length > 0) {
    ctx.log.info(
      `not parsed (over 1 MiB or binary): ${facts.skipped.slice(0, 5).join(', ')}${facts.skipped.length > 5 ? ', ...' : ''}`
    )
  }
  return reasons
}
