// The card at a glance (issue 17): the headline names the one thing to do next, logs appear
// only for the sides that failed (collapsed, with the first lines when no report was
// written), and the tests the patch wrote have a section of their own. Rendered with
// GitHub's flavour of CommonMark (cmark-gfm) where the structure matters.
import { describe, expect, it } from 'vitest'
import { nextStep } from '../src/report/glance.js'
import { renderMarkdown, renderTop } from '../src/report/markdown.js'
import type { Reason, Scorecard, SideRun } from '../src/types.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'
import { foreignTags, renderGfm } from './helpers/gfm.js'

function card(reasons: Reason[], patch: Partial<Scorecard> = {}): Scorecard {
  return finalize(
    {
      ...emptyScorecard({
        version: '0.0.0',
        today: '2026-11-30',
        policyPath: '.github/oracle-gate.yml'
      }),
      base: 'a'.repeat(40),
      head: 'b'.repeat(40),
      ...patch
    },
    reasons
  )
}
const run = (side: 'base' | 'head', exit: number, extra: Partial<SideRun> = {}): SideRun => ({
  side,
  exit_code: exit,
  timed_out: false,
  duration_ms: 1000,
  tests: 3,
  log_tail: `${side} tail line`,
  ...extra
})
const headline = (md: string): string => md.split('\n')[2] ?? ''

describe('the headline names the next step', () => {
  it('product: fix the product, naming the failing voting tests', () => {
    const c = card([{ rule: 'regression', message: 'r', level: 'failure', path: 'o/t.py' }], {
      runs: [run('base', 0), run('head', 1)],
      transitions: {
        fail_to_pass: [],
        pass_to_fail: ['o/t.py::a', 'o/t.py::b', 'o/t.py::c', 'o/t.py::d'],
        fail_to_fail: [],
        pass_to_pass: 1,
        vanished: []
      }
    })
    expect(headline(renderMarkdown(c))).toBe(
      "**Fix the product**: the base's oracle fails on head (4 regressions): `o/t.py::a`, `o/t.py::b`, `o/t.py::c` and 1 more."
    )
  })

  it('a flaky base test: freeze or fix it, not this patch\'s fault (and no "the product fails the oracle")', () => {
    const c = card([{ rule: 'flaky-oracle', message: 'coin', level: 'failure', path: 'o/t.py' }], {
      runs: [run('base', 1), run('head', 0)],
      flakes: [{ test: 'o/t.py::clock', side: 'base', outcomes: ['failed', 'passed'] }]
    })
    const md = renderMarkdown(c)
    expect(c.verdict).toBe('product')
    expect(headline(md)).toMatch(
      /^\*\*Freeze or fix the flaky base test\*\* `o\/t\.py::clock`: the oracle is unstable on the base, not this patch's fault\./
    )
    expect(md).not.toContain('the product fails the oracle')
  })

  it('policy: undo the edit to the instrument paths; with approvers, who can approve', () => {
    const approval: Reason = {
      rule: 'instrument-approval',
      level: 'failure',
      message: 'no approving review; an approving review by @alice makes it mergeable'
    }
    const c = card([
      { rule: 'protected-path', level: 'failure', path: 'oracle/x.py', message: 'protected' },
      { rule: 'oracle-digest', level: 'failure', path: 'oracle/x.py', message: 'digest' },
      approval
    ])
    const md = renderMarkdown(c)
    expect(headline(md)).toMatch(
      /^\*\*Undo the edit to\*\* `oracle\/x\.py`: the patch may not change/
    )
    // The approvers are named right under the headline; the mention is a code span, not a ping.
    expect(md.split('\n')[4]).toBe(
      '> no approving review; an approving review by `@alice` makes it mergeable'
    )
    expect(md).toContain('the suite result does not count')
    expect(md).not.toContain('0/0 voting passed')
  })

  it('error and no-vote say what to do; merge says nothing is left', () => {
    expect(
      nextStep(card([{ rule: 'config-invalid', level: 'failure', message: 'bad', path: 'p.yml' }]))
    ).toMatchObject({ lead: 'Fix the gate configuration', subjects: ['p.yml'] })
    expect(
      nextStep(
        card([{ rule: 'empty-vote', level: 'failure', message: 'none' }], {
          runs: [run('head', 5)]
        })
      ).lead
    ).toBe('Make the oracle vote')
    expect(nextStep(card([])).lead).toBe('Mergeable')
  })
})

describe('logs only for the sides that failed', () => {
  it('a merge shows no log, even when the base failed (the bug it fixes)', () => {
    const md = renderMarkdown(card([], { runs: [run('base', 1), run('head', 0)] }))
    expect(md).not.toContain('<details>')
    expect(md).not.toContain('tail line')
  })

  it('a product shows the failed head only, collapsed, with first and last lines when no report was written', () => {
    const c = card([{ rule: 'oracle-failed', level: 'failure', message: 'no report' }], {
      runs: [
        run('base', 0),
        run('head', 2, { log_head: 'collecting ...\nImportError: boom', tests: 0 })
      ]
    })
    const md = renderMarkdown(c)
    expect(md).not.toContain('base tail line')
    const html = renderGfm(md)
    expect(foreignTags(html)).toEqual([])
    const details = html.match(/<details>[\s\S]*?<\/details>/g) ?? []
    expect(details).toHaveLength(1)
    expect(details[0]).toContain('<summary>head output (exit 2)</summary>')
    expect(details[0]).toMatch(
      /first lines:[\s\S]*ImportError: boom[\s\S]*last lines:[\s\S]*head tail line/
    )
  })
})

describe('the tests the patch wrote', () => {
  it('lists each in-diff test with its head outcome, flags non-discriminating ones, and files with no test', () => {
    const c = card([], {
      runs: [run('base', 0), run('head', 0)],
      write_set: [
        { path: 'app/x.py', status: 'modified', plane: 'source', action: 'continue' },
        { path: 'tests/test_x.py', status: 'added', plane: 'in_diff', action: 'continue' },
        { path: 'tests/test_empty.py', status: 'added', plane: 'in_diff', action: 'continue' }
      ],
      diagnostics: {
        non_discriminating: ['tests/test_x.py::old'],
        drafts: {},
        in_diff: { 'tests/test_x.py::new': 'passed', 'tests/test_x.py::old': 'passed' }
      }
    })
    const md = renderMarkdown(c)
    expect(md).toContain('### Tests the patch wrote (2 files)')
    expect(md).toContain('| `tests/test_x.py::new` | passed |  |')
    expect(md).toContain(
      '| `tests/test_x.py::old` | passed | passes on the base too: it does not tell the patch apart |'
    )
    expect(md).toContain('no test reported: `tests/test_empty.py`')
    // Its own section, before the figures.
    expect(md.indexOf('### Tests the patch wrote')).toBeLessThan(md.indexOf('### Transitions'))
  })

  it('the PR comment carries the top only: headline and reasons', () => {
    const top = renderTop(
      card([{ rule: 'regression', level: 'failure', message: 'r' }], { runs: [run('head', 1)] })
    )
    expect(top).toContain('**Fix the product**')
    expect(top).toContain('### Reasons (1)')
    expect(top).not.toContain('### Runs')
  })
})
