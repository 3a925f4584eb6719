// The ungoverned-test lint: a file that looks like a test (policy.test_patterns) but is on
// no plane is neither voting, nor a draft, nor an in-diff test, so nothing says whether its
// result counts. The write-set classifier already decided this for each row (its
// `ungoverned-test` table row); the lint only turns that decision into a reason.
import type { Level, Reason } from '../types.js'
import type { LintInput } from './registry.js'

export function ungovernedTest({ ctx }: LintInput, level: Level): Promise<Reason[]> {
  return Promise.resolve(
    ctx.writeSet
      .filter(row => row.classification.rule === 'ungoverned-test')
      .map(row => ({
        rule: 'ungoverned-test',
        level,
        path: row.path,
        message: row.classification.message
      }))
  )
}
