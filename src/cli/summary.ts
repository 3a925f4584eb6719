import type { Scorecard } from '../types.js'
import { title } from '../report/markdown.js'
import { logText } from '../report/sanitize.js'

/** A few lines for a terminal: the verdict, the figures, and every reason with its place. */
export function humanSummary(card: Scorecard): string {
  const lines = [`oracle-gate: ${title(card)}`]
  for (const r of card.reasons) {
    const where = r.path ? ` ${r.path}${r.line ? `:${r.line}` : ''}` : ''
    lines.push(
      `  ${r.level === 'failure' ? 'x' : r.level === 'warning' ? '!' : '-'} [${r.rule}]${logText(where)} ${logText(r.message)}`
    )
  }
  if (card.transitions.fail_to_pass.length > 0)
    lines.push(`  hits: ${logText(card.transitions.fail_to_pass.join(', '))}`)
  return lines.join('\n') + '\n'
}
