// What the run-time oracle-reach tests read from a card and from an attack's source: the
// reasons the watchers raised (their messages end "at run time"), and the line an attack
// marks with `# <-` as the one the gate must name.
import type { Reason, Scorecard } from '../../src/types.js'

export const atRunTime = (card: Scorecard): Reason[] =>
  card.reasons.filter(r => r.rule === 'oracle-reach' && r.message.includes('at run time'))

export function markedLine(text: string): number {
  const index = text.split('\n').findIndex(l => l.endsWith('# <-'))
  if (index < 0) throw new Error('attack without a marked line')
  return index + 1
}
