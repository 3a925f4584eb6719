// The scorecard as Markdown, rendered from data: used for the job summary, the check run's
// summary, the PR comment and the CLI's --markdown. It reads top-down: the verdict and the
// one thing to do next (glance.ts), the reasons, the tests the patch wrote, then the
// figures, the logs of the sides that failed (collapsed) and the write set. Sections are
// dropped from the end (with a pointer to the full JSON card) rather than cut mid-table when
// the text must fit a limit. Every head-derived string goes through sanitize.ts.
import { shortSha } from '../json.js'
import type { Reason, Scorecard, SideRun, Verdict } from '../types.js'
import { evidenceGlance, failedSides, nextStep } from './glance.js'
import { mdCellCode, mdCode, mdFence, mdQuoted, mdText } from './sanitize.js'

const ICON: Record<Verdict, string> = {
  merge: '✅',
  product: '❌',
  policy: '⛔',
  'no-vote': '⚪',
  error: '💥'
}

/** A reason's message in the table; the JSON card has it whole. */
const MESSAGE_MAX = 600
const DETAIL_MAX = 600

const MEANING: Record<Verdict, string> = {
  merge: 'mergeable: the locked oracle agrees',
  product: 'the product fails the oracle',
  policy: 'the instrument or its governance was violated; the suite result does not count',
  'no-vote': 'no oracle vote: nothing measured the patch',
  error: 'the gate could not decide; this is never a pass'
}

export interface MarkdownOptions {
  /** Hard limit in characters (the Checks API allows 65,535). */
  maxChars?: number
  /** Rows per table before it is cut with a count. */
  maxRows?: number
  /** Where the full card can be found, named when something had to be left out. */
  fullCardHint?: string
}

export function title(card: Scorecard): string {
  const t = card.transitions
  const figures = [
    `${t.fail_to_pass.length} hit(s)`,
    `${t.pass_to_fail.length} regression(s)`,
    `${card.votes.passed}/${card.votes.passed + card.votes.failed} voting passed`,
    `${card.votes.frozen} frozen`
  ]
  if (card.seeds.raw_fail_to_pass > 0 || card.seeds.oracle_hits > 0)
    figures.push(`${card.seeds.oracle_hits} seed hit(s)`)
  return `${card.verdict}: ${figures.join(', ')}`
}

export function renderMarkdown(card: Scorecard, options: MarkdownOptions = {}): string {
  const maxRows = options.maxRows ?? 50
  const sections = [
    header(card),
    reasonsSection(card.reasons, maxRows),
    evidenceSection(card, maxRows),
    patchTestsSection(card, maxRows),
    addedTestsSection(card, maxRows),
    transitionsSection(card, maxRows),
    votesSection(card),
    seedsSection(card),
    debtSection(card, maxRows),
    runsSection(card),
    unmeasuredSection(card, maxRows),
    writeSetSection(card, maxRows),
    footerSection(card)
  ].filter((s): s is string => s !== '')
  return fit(sections, options)
}

/** The card's top: headline and reasons (the PR comment carries this, and a link). */
export function renderTop(card: Scorecard, options: MarkdownOptions = {}): string {
  return fit([header(card), reasonsSection(card.reasons, options.maxRows ?? 20)], options)
}

/** Joins whole sections while they fit; the rest is replaced by a pointer to the full card. */
function fit(sections: readonly string[], options: MarkdownOptions): string {
  const limit = options.maxChars ?? Infinity
  const hint = `\n\n_…cut to fit; the full scorecard is ${options.fullCardHint ?? 'in the JSON card'}._\n`
  let out = ''
  for (const section of sections) {
    const next = out === '' ? section : `${out}\n\n${section}`
    if (next.length + hint.length > limit) return truncate(out, limit - hint.length) + hint
    out = next
  }
  return out + '\n'
}

function truncate(text: string, limit: number): string {
  if (text.length <= limit) return text
  const cut = text.slice(0, Math.max(0, limit))
  const lastLine = cut.lastIndexOf('\n')
  return lastLine > 0 ? cut.slice(0, lastLine) : cut
}

function header(card: Scorecard): string {
  const lines = [`## ${ICON[card.verdict]} oracle-gate: \`${card.verdict}\``, '', stepLine(card)]
  const detail = nextStep(card).detail
  // A quote repeating the one reason the table opens with would only add noise.
  const alone = card.reasons.length === 1 && card.reasons[0]?.message === detail
  if (detail && !alone) lines.push('', `> ${mdText(clip(detail, DETAIL_MAX), { cell: false })}`)
  const meaning = ['policy', 'error', 'no-vote'].includes(card.verdict) ? MEANING[card.verdict] : ''
  const figures = card.runs.length > 0 ? title(card).replace(/^[^:]+: /, '') : ''
  const summary = [meaning, figures].filter(Boolean).join('; ')
  lines.push(
    ...(summary ? ['', `${summary}.`] : []),
    '',
    `${subject(card)}base ${mdCode(shortSha(card.base))} · head ${mdCode(shortSha(card.head))} · today ${mdText(card.today, { cell: false })} · policy ${mdCode(card.policy_path)} · oracle ${card.oracle.unchanged ? 'unchanged' : card.oracle.base_digest ? '**changed**' : 'not measured'}`
  )
  return lines.join('\n')
}

/** "**Undo the edit to** `x`: why. Hint." or "**Fix the product**: why: `x`, `y` and 3 more." */
function stepLine(card: Scorecard): string {
  const step = nextStep(card)
  const names = step.subjects.length
    ? `${step.subjects.map(x => mdCode(x)).join(', ')}${step.more > 0 ? ` and ${step.more} more` : ''}`
    : ''
  const hint = step.hint ? ` ${step.hint}` : ''
  if (step.inline || !names)
    return `**${step.lead}**${names ? ` ${names}` : ''}: ${step.why}.${hint}`
  return `**${step.lead}**: ${step.why}: ${names}.${hint}`
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`
}

function reasonsSection(reasons: readonly Reason[], maxRows: number): string {
  if (reasons.length === 0) return '### Reasons\n\nNone: every condition holds.'
  const rows = reasons.slice(0, maxRows).map(r => {
    const where = r.path ? mdCellCode(`${r.path}${r.line ? `:${r.line}` : ''}`) : ''
    return `| ${r.level === 'failure' ? '✖' : r.level === 'warning' ? '⚠' : 'ℹ'} | ${mdCellCode(r.rule)} | ${where} | ${mdQuoted(clip(r.message, MESSAGE_MAX))} |`
  })
  return [
    `### Reasons (${reasons.length})`,
    '',
    '| | rule | where | message |',
    '|---|---|---|---|',
    ...rows,
    more(reasons.length, maxRows)
  ]
    .filter(Boolean)
    .join('\n')
}

function transitionsSection(card: Scorecard, maxRows: number): string {
  const t = card.transitions
  if (card.runs.length === 0) return ''
  const list = (name: string, ids: readonly string[]): string =>
    ids.length === 0
      ? ''
      : `**${name}** (${ids.length}): ${ids
          .slice(0, maxRows)
          .map(id => mdCode(id))
          .join(', ')}${ids.length > maxRows ? `, … ${ids.length - maxRows} more` : ''}`
  return [
    '### Transitions (voting tests, base → head)',
    '',
    '| fail→pass (hits) | pass→fail | fail→fail | pass→pass | vanished |',
    '|---|---|---|---|---|',
    `| ${t.fail_to_pass.length} | ${t.pass_to_fail.length} | ${t.fail_to_fail.length} | ${t.pass_to_pass} | ${t.vanished.length} |`,
    '',
    list('hits', t.fail_to_pass),
    list('regressions', t.pass_to_fail),
    list('still failing', t.fail_to_fail),
    list('vanished', t.vanished)
  ]
    .filter((line, i, all) => line !== '' || (i > 0 && all[i - 1] !== ''))
    .join('\n')
    .trimEnd()
}

function votesSection(card: Scorecard): string {
  const v = card.votes
  if (card.runs.length === 0) return ''
  const lines = [
    '### Votes',
    '',
    '| class | passed | failed | frozen |',
    '|---|---|---|---|',
    `| all voting | ${v.passed} | ${v.failed} | ${v.frozen} |`
  ]
  for (const [name, c] of Object.entries(v.by_class))
    lines.push(`| ${mdText(name)} | ${c.passed} | ${c.failed} | ${c.frozen} |`)
  lines.push('', `drafts run as diagnostics: ${v.drafts}`)
  if (card.flakes.length > 0) {
    lines.push(
      '',
      '**Flaky outcomes**',
      '',
      '| test | side | outcomes | ledger |',
      '|---|---|---|---|'
    )
    for (const f of card.flakes)
      lines.push(
        `| ${mdCellCode(f.test)} | ${f.side} | ${f.outcomes.map(o => mdText(o)).join(' → ')} | ${f.ledger_id ? mdText(f.ledger_id) : '—'} |`
      )
  }
  return lines.join('\n')
}

function seedsSection(card: Scorecard): string {
  const s = card.seeds
  if (s.raw_fail_to_pass === 0 && s.oracle_hits === 0 && s.hit_ids.length === 0) return ''
  return [
    '### Seeds',
    '',
    `oracle hits **${s.oracle_hits}** of ${s.raw_fail_to_pass} raw fail→pass (min distance ${s.min_distance})`,
    s.hit_ids.length ? `kept: ${s.hit_ids.map(id => mdCode(id)).join(', ')}` : ''
  ]
    .filter(Boolean)
    .join('\n')
}

function debtSection(card: Scorecard, maxRows: number): string {
  if (card.freeze_debt.length === 0) return ''
  const rows = card.freeze_debt
    .slice(0, maxRows)
    .map(
      d =>
        `| ${mdText(d.id)} | ${mdCellCode(d.test)} | ${mdText(d.owner)} | ${mdText(d.expires_on)} | ${d.days_overdue} |`
    )
  return [
    '### Freeze debt',
    '',
    '| row | test | owner | expired on | days overdue |',
    '|---|---|---|---|---|',
    ...rows,
    more(card.freeze_debt.length, maxRows)
  ]
    .filter(Boolean)
    .join('\n')
}

function runsSection(card: Scorecard): string {
  if (card.runs.length === 0) return ''
  const rows = card.runs.map(
    r =>
      `| ${r.side} | ${r.timed_out ? 'timed out' : (r.exit_code ?? 'killed')} | ${r.tests} | ${(r.duration_ms / 1000).toFixed(1)} s | ${r.setup ?? '—'}${r.setup_reason ? ` (${mdText(r.setup_reason)})` : ''} |`
  )
  // Only the sides that failed: a passing side's log is noise on the card.
  const tails = failedSides(card).map(logDetails)
  return [
    '### Runs',
    '',
    '| side | exit | tests | time | setup |',
    '|---|---|---|---|---|',
    ...rows,
    ...canaryNote(card.runs),
    ...(tails.length ? ['', ...tails] : [])
  ].join('\n')
}

/** Why a side whose tests all passed can show exit 1: the gate's canaries written to fail. */
function canaryNote(runs: readonly SideRun[]): string[] {
  const counted = runs.filter(r => (r.canaries_failed ?? 0) > 0)
  if (counted.length === 0) return []
  const each = counted.map(r => `${r.side} ${r.canaries_failed ?? 0}`).join(', ')
  return [
    '',
    `The exit statuses count the gate's canaries, tests written to fail that failed as written (${each}); the tests column does not (docs/replay.md, "Tripwires at run time").`
  ]
}

/** A failed side's output, collapsed: its first lines too when it wrote no report. */
function logDetails(r: SideRun): string {
  const status = r.timed_out ? 'timed out' : r.exit_code === null ? 'killed' : `exit ${r.exit_code}`
  const parts = [`<details><summary>${r.side} output (${status})</summary>`, '']
  if (r.log_head) parts.push('first lines:', '', mdFence(r.log_head), '', 'last lines:', '')
  parts.push(r.log_tail ? mdFence(r.log_tail) : '_no output_', '</details>')
  return parts.join('\n')
}

/**
 * The tests the patch added or changed (the in-diff plane, and drafts), with their outcome
 * on head: what the patch claims to prove, apart from the locked oracle's vote.
 */
function patchTestsSection(card: Scorecard, maxRows: number): string {
  const written = card.write_set.filter(
    w => (w.plane === 'in_diff' || w.plane === 'drafts') && w.status !== 'deleted'
  )
  if (written.length === 0) return ''
  const files = new Set(written.map(w => w.path))
  const outcomes = { ...(card.diagnostics.in_diff ?? {}) }
  for (const [id, outcome] of Object.entries(card.diagnostics.drafts))
    if (files.has(fileOf(id))) outcomes[id] = `${outcome} (draft)`
  const weak = new Set(card.diagnostics.non_discriminating)
  const rows = Object.entries(outcomes)
    .filter(([id]) => files.has(fileOf(id)))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(
      ([id, outcome]) =>
        `| ${mdCellCode(id)} | ${mdText(outcome)} | ${weak.has(id) ? 'passes on the base too: it does not tell the patch apart' : ''} |`
    )
  const ran = new Set(Object.keys(outcomes).map(fileOf))
  const silent = written.filter(w => !ran.has(w.path)).map(w => w.path)
  const why = card.runs.length === 0 ? 'not run (the suite did not run)' : 'no test reported'
  const lines = [
    `### Tests the patch wrote (${written.length} file${written.length === 1 ? '' : 's'})`,
    ''
  ]
  if (rows.length > 0)
    lines.push(
      '| test | on head | note |',
      '|---|---|---|',
      ...rows.slice(0, maxRows),
      more(rows.length, maxRows)
    )
  if (silent.length > 0)
    lines.push(
      ...(rows.length > 0 ? [''] : []),
      `${why}: ${silent
        .slice(0, maxRows)
        .map(p => mdCode(p))
        .join(', ')}${silent.length > maxRows ? `, … ${silent.length - maxRows} more` : ''}`
    )
  lines.push('', '_These never vote: only the locked oracle decides._')
  return lines.filter((l, i, all) => l !== '' || all[i - 1] !== '').join('\n')
}

/**
 * The tests the patch added to the voting files (voting_edits: append), with their outcome
 * on the merge base (the head's file run there) and on the head: a test written for a fix
 * should fail on the base and pass on the head. They never vote.
 */
function addedTestsSection(card: Scorecard, maxRows: number): string {
  const voting = new Map(
    card.write_set
      .filter(w => w.plane === 'voting' && (w.status === 'added' || w.status === 'modified'))
      .map(w => [w.path, w.status] as const)
  )
  if (voting.size === 0) return ''
  const head = card.diagnostics.in_diff ?? {}
  const base = card.diagnostics.in_diff_base ?? {}
  const ids = Object.keys(head)
    .filter(id => voting.has(fileOf(id)))
    .sort()
  if (ids.length === 0) return ''
  const onBase = (id: string): string =>
    base[id] ?? (voting.get(fileOf(id)) === 'added' ? 'absent (new file)' : 'not run')
  const rows = ids.map(id => {
    const b = onBase(id)
    const note =
      b === 'passed' && head[id] === 'passed'
        ? 'passes on the base too: it does not tell the patch apart'
        : b === 'failed' && head[id] === 'passed'
          ? 'fails without the patch, passes with it'
          : ''
    return `| ${mdCellCode(id)} | ${mdText(b)} | ${mdText(head[id] ?? 'missing')} | ${note} |`
  })
  return [
    `### Tests the patch added to the voting files (${ids.length})`,
    '',
    '| test | on base | on head | note |',
    '|---|---|---|---|',
    ...rows.slice(0, maxRows),
    more(rows.length, maxRows),
    '',
    "_They never vote: the vote runs the merge base's version of each file._"
  ]
    .filter((l, i, all) => l !== '' || all[i - 1] !== '')
    .join('\n')
}

/** `tests/test_x.py::TestA::test_b` → `tests/test_x.py`. */
function fileOf(id: string): string {
  const at = id.indexOf('::')
  return at < 0 ? id : id.slice(0, at)
}

/** What the voting tests ran and pinned of the patch (docs/evidence.md). */
function evidenceSection(card: Scorecard, maxRows: number): string {
  const glance = evidenceGlance(card)
  const e = card.evidence
  if (!glance || !e) return ''
  const s = glance.survivor
  const survivor = s
    ? `; survivor ${mdCode(`${s.path}:${s.line}`)} ${mdQuoted(s.mutation, { cell: false })}${glance.moreSurvivors > 0 ? ` and ${glance.moreSurvivors} more` : ''}`
    : ''
  const lines = ['### Evidence', '', `${glance.figures}${survivor}.`]
  if (e.skipped_reason)
    lines.push('', `_Not measured: ${mdText(e.skipped_reason, { cell: false })}_`)
  if (e.uncovered.length > 0) {
    lines.push('', 'Changed lines no passing voting test runs:', '')
    for (const u of e.uncovered.slice(0, maxRows))
      lines.push(
        `- ${mdCode(u.path)} line${u.lines.length === 1 ? '' : 's'} ${lineRanges(u.lines)}`
      )
    lines.push(more(e.uncovered.length, maxRows))
  }
  const survivors = e.mutants.filter(m => m.killed_by === null && m.not_run === undefined)
  // One survivor is named in the line above already; a list of one would repeat it.
  if (survivors.length > 1) {
    lines.push('', 'Mutants no voting test noticed:', '')
    for (const m of survivors.slice(0, maxRows))
      lines.push(`- ${mdCode(`${m.path}:${m.line}`)} ${mdQuoted(m.mutation, { cell: false })}`)
    lines.push(more(survivors.length, maxRows))
  }
  for (const p of e.problems ?? []) lines.push('', `_${mdText(p, { cell: false })}_`)
  return lines
    .filter((l, i, all) => l !== '' || all[i - 1] !== '')
    .join('\n')
    .trimEnd()
}

/** "3–5, 9": line numbers as ranges (numbers only: nothing of the head's text). */
function lineRanges(lines: readonly number[]): string {
  const ranges: [number, number][] = []
  for (const n of [...new Set(lines)].sort((a, b) => a - b)) {
    const last = ranges[ranges.length - 1]
    if (last && n === last[1] + 1) last[1] = n
    else ranges.push([n, n])
  }
  return ranges.map(([a, b]) => (a === b ? `${a}` : `${a}–${b}`)).join(', ')
}

/** What the head changed that the vote did not use (planes.production): paths, escaped. */
function unmeasuredSection(card: Scorecard, maxRows: number): string {
  const paths = card.unmeasured ?? []
  if (paths.length === 0) return ''
  return [
    `### Not measured (${paths.length})`,
    '',
    "_The head changed these, but the vote used the merge base's version (or none): they cannot have made a voting test pass._",
    '',
    ...paths.slice(0, maxRows).map(p => `- ${mdCode(p)}`),
    more(paths.length, maxRows)
  ]
    .filter((l, i, all) => l !== '' || all[i - 1] !== '')
    .join('\n')
}

function writeSetSection(card: Scorecard, maxRows: number): string {
  if (card.write_set.length === 0) return ''
  const rows = card.write_set
    .slice(0, maxRows)
    .map(
      w =>
        `| ${mdCellCode(w.previous_path ? `${w.previous_path} → ${w.path}` : w.path)} | ${w.status} | ${w.plane} | ${w.action} |`
    )
  return [
    `### Write set (${card.write_set.length})`,
    '',
    '| path | status | plane | action |',
    '|---|---|---|---|',
    ...rows,
    more(card.write_set.length, maxRows)
  ]
    .filter(Boolean)
    .join('\n')
}

function footerSection(card: Scorecard): string {
  const entries = Object.entries(card.timings_ms)
  const campaign = card.campaign
    ? `campaign: seed ${card.campaign.seed}, max_examples ${card.campaign.max_examples}, wall_clock ${card.campaign.wall_clock}s · `
    : ''
  const timings = entries.length
    ? `timings: ${entries.map(([k, v]) => `${mdText(k, { cell: false })} ${(v / 1000).toFixed(2)} s`).join(' · ')} · `
    : ''
  return `<sub>${campaign}${timings}oracle-gate ${mdText(card.version, { cell: false })}</sub>`
}

function more(total: number, shown: number): string {
  return total > shown ? `\n_… and ${total - shown} more_` : ''
}

/** "PR #3 · " or "merge queue group for #3, #4 · ": what was judged, when the action knows. */
function subject(card: Scorecard): string {
  const prs = (card.pull_requests ?? []).map(n => `#${n}`).join(', ')
  if (card.event === 'merge_group') return `merge queue group for ${prs || 'unnamed PRs'} · `
  return prs ? `PR ${prs} · ` : ''
}
