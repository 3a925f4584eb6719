// The scorecard as Markdown, rendered from data: used for the job summary, the check run's
// summary and the CLI's --markdown. Sections are dropped from the end (with a pointer to
// the full JSON card) rather than cut mid-table when the text must fit a limit.
import { shortSha } from '../json.js'
import type { Reason, Scorecard, Verdict } from '../types.js'
import { mdCellCode, mdCode, mdFence, mdText } from './sanitize.js'

const ICON: Record<Verdict, string> = {
  merge: '✅',
  product: '❌',
  policy: '⛔',
  'no-vote': '⚪',
  error: '💥'
}

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
    transitionsSection(card, maxRows),
    votesSection(card),
    seedsSection(card),
    debtSection(card, maxRows),
    runsSection(card),
    writeSetSection(card, maxRows),
    timingsSection(card)
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
  const lines = [
    `## ${ICON[card.verdict]} oracle-gate: \`${card.verdict}\``,
    '',
    `**${MEANING[card.verdict]}.** ${title(card).replace(/^[^:]+: /, '')}.`,
    '',
    `${subject(card)}base ${mdCode(shortSha(card.base))} · head ${mdCode(shortSha(card.head))} · today ${mdText(card.today, { cell: false })} · policy ${mdCode(card.policy_path)} · oracle ${card.oracle.unchanged ? 'unchanged' : card.oracle.base_digest ? '**changed**' : 'not measured'}`
  ]
  if (card.campaign)
    lines.push(
      '',
      `campaign: seed ${card.campaign.seed}, max_examples ${card.campaign.max_examples}, wall_clock ${card.campaign.wall_clock}s`
    )
  return lines.join('\n')
}

function reasonsSection(reasons: readonly Reason[], maxRows: number): string {
  if (reasons.length === 0) return '### Reasons\n\nNone: every condition holds.'
  const rows = reasons.slice(0, maxRows).map(r => {
    const where = r.path ? mdCellCode(`${r.path}${r.line ? `:${r.line}` : ''}`) : ''
    return `| ${r.level === 'failure' ? '✖' : r.level === 'warning' ? '⚠' : 'ℹ'} | ${mdCellCode(r.rule)} | ${where} | ${mdText(r.message)} |`
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
    list('vanished', t.vanished),
    list('non-discriminating in-diff tests', card.diagnostics.non_discriminating)
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
  const tails = card.runs
    .filter(r => r.log_tail)
    .map(
      r =>
        `<details><summary>${r.side} output (tail)</summary>\n\n${mdFence(r.log_tail ?? '')}\n</details>`
    )
  return [
    '### Runs',
    '',
    '| side | exit | tests | time | setup |',
    '|---|---|---|---|---|',
    ...rows,
    ...(tails.length ? ['', ...tails] : [])
  ].join('\n')
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

function timingsSection(card: Scorecard): string {
  const entries = Object.entries(card.timings_ms)
  if (entries.length === 0) return ''
  return `<sub>timings: ${entries.map(([k, v]) => `${k} ${(v / 1000).toFixed(2)} s`).join(' · ')} · oracle-gate ${card.version}</sub>`
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
