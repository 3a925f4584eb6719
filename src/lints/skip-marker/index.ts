// The skip-marker lint: a patch may not silence a test in the test file; a flake is frozen
// in the ledger (read from the base), where it has an owner and an expiry. Only lines the
// diff adds count, so a marker the base already had is not held against the patch.
import { familyOf, parsedLanguageOf } from '../../lang.js'
import type { LedgerRow, LedgerState } from '../../ledger/types.js'
import type { Level, Reason } from '../../types.js'
import { isTestFile } from '../files.js'
import type { LintInput } from '../registry.js'
import { helperResolver } from './helpers.js'
import { mayHoldMarker, scanFile, type Finding } from './scan.js'

export async function skipMarker(
  { ctx, ledger, view }: LintInput,
  level: Level
): Promise<Reason[]> {
  const targets = ctx.writeSet.filter(
    row =>
      row.status !== 'deleted' &&
      familyOf(row.path) !== undefined &&
      isTestFile(ctx.planes, row.path)
  )
  if (targets.length === 0) return []
  const added = await view.added()
  const scanned = targets.filter(row => {
    const lines = added.get(row.path)
    // JS/TS and Python are always parsed: an alias, an escaped or folded name, a helper
    // imported from elsewhere spells no marker word on the added line.
    const family = familyOf(row.path)
    const parsed = family === 'js' || family === 'python'
    return lines !== undefined && (parsed || mayHoldMarker(lines.values()))
  })
  // Two batch reads (one per revision), not two git processes per file.
  const heads = await view.textsAt(
    ctx.head,
    scanned.map(r => r.path)
  )
  const bases = await view.textsAt(
    ctx.mergeBase,
    scanned.map(r => r.previous_path ?? r.path)
  )
  const resolve = helperResolver(ctx)
  const reasons: Reason[] = []
  for (const row of scanned) {
    const head = heads.get(row.path)
    const lang = familyOf(row.path)
    if (head === undefined || lang === undefined) continue
    const base = bases.get(row.previous_path ?? row.path) ?? null
    const lines = added.get(row.path)?.keys() ?? []
    const language = parsedLanguageOf(row.path) ?? 'typescript'
    const basePath = row.previous_path ?? row.path
    const trees = {
      head: (t: string) => view.tree(ctx.head, row.path, t, language),
      base: (t: string) => view.tree(ctx.mergeBase, basePath, t, language)
    }
    for (const finding of await scanFile(row.path, lang, head, base, lines, resolve, trees)) {
      const reason = judge(finding, row.path, ledger, level)
      if (reason) reasons.push(reason)
    }
  }
  return reasons
}

/** Pure: the reason a finding gives against this ledger; undefined when live rows cover it. */
export function judge(
  finding: Finding,
  path: string,
  ledger: LedgerState,
  level: Level
): Reason | undefined {
  const { unit } = finding
  const id = unit.ids[0]!
  const where = { path, line: finding.line }
  if (finding.silencesOthers) {
    return {
      rule: 'skip-marker',
      level,
      message: `${path}:${finding.line}: ${finding.label} on ${id} silences every other test; no ledger row can cover it: remove it`,
      ...where
    }
  }
  const isLive = (ids: readonly string[]): boolean =>
    ids.some(candidate => ledger.live.has(candidate))
  if (unit.kind === 'test') {
    if (isLive(unit.ids)) return undefined
    const expired = ledger.rows.find((row: LedgerRow) => unit.ids.includes(row.test))
    const why = expired
      ? `its ledger row "${expired.id}" expired on ${expired.expires_on}`
      : 'no live ledger row covers it'
    return {
      rule: 'skip-marker',
      level,
      message: `${path}:${finding.line}: adds ${finding.label} to ${id} and ${why}; fix the test, or freeze the flake in the ledger (test: ${id}) in a reviewed PR of its own`,
      ...where
    }
  }
  // A group marker silences every test in the group: each needs its own live row, since
  // the replay freezes tests one id at a time.
  const members = unit.members ?? []
  const uncovered = members.filter(ids => !isLive(ids)).map(ids => ids[0]!)
  if (members.length > 0 && uncovered.length === 0) return undefined
  const scope = unit.kind === 'file' ? `every test in ${path}` : `every test in ${id}`
  const gap =
    members.length === 0
      ? 'no test was found in it to freeze'
      : `${uncovered.length} of its ${members.length} test(s) have no live ledger row (${uncovered.slice(0, 3).join(', ')}${uncovered.length > 3 ? ', …' : ''})`
  return {
    rule: 'skip-marker',
    level,
    message: `${path}:${finding.line}: adds ${finding.label}, which reaches ${scope}, and ${gap}; fix the tests, or freeze each flaky one in the ledger in a reviewed PR of its own`,
    ...where
  }
}
