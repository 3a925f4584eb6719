import { describe, expect, it } from 'vitest'
import { renderMarkdown, title } from '../src/report/markdown.js'
import type { Reason, Scorecard } from '../src/types.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'

function card(reasons: Reason[], patch: Partial<Scorecard> = {}): Scorecard {
  return finalize(
    {
      ...emptyScorecard({
        version: '0.0.0',
        today: '2026-11-30',
        policyPath: '.github/oracle-gate.yml'
      }),
      ...patch
    },
    reasons
  )
}

describe('markdown scorecard', () => {
  it('shows the verdict, its meaning and every reason with its place', () => {
    const md = renderMarkdown(
      card([
        {
          rule: 'protected-path',
          message: 'oracle/a.py was modified',
          path: 'oracle/a.py',
          line: 3,
          level: 'failure'
        },
        {
          rule: 'ledger-expiring',
          message: 'row F1 expires in 2 days',
          path: 'oracle/flake_ledger.yml',
          level: 'warning'
        }
      ])
    )
    expect(md).toContain('oracle-gate: `policy`')
    expect(md).toContain('the suite result does not count')
    expect(md).toContain('| ✖ | `protected-path` | `oracle/a.py:3` | oracle/a.py was modified |')
    expect(md).toContain('| ⚠ | `ledger-expiring` |')
  })

  it('escapes table cells so a message cannot break the table', () => {
    const md = renderMarkdown(
      card([{ rule: 'regression', message: 'a | b\nc', path: 'x|y.py', level: 'failure' }])
    )
    expect(md).toContain('`x\\|y.py`')
    expect(md).toContain('a \\| b c')
  })

  it('renders transitions, votes and runs when the suite ran', () => {
    // A failing verdict: only then is a failed side's log shown (see "the card at a glance").
    const md = renderMarkdown(
      card([{ rule: 'oracle-failed', message: 'x fails on head', level: 'failure' }], {
        runs: [
          {
            side: 'base',
            exit_code: 1,
            timed_out: false,
            duration_ms: 1200,
            tests: 4,
            log_tail: 'boom ``` end'
          }
        ],
        transitions: {
          fail_to_pass: ['t.py::test_fix'],
          pass_to_fail: [],
          fail_to_fail: [],
          pass_to_pass: 3,
          vanished: []
        },
        votes: {
          passed: 4,
          failed: 0,
          frozen: 1,
          drafts: 2,
          by_class: { invariant: { passed: 3, failed: 0, frozen: 1 } }
        }
      })
    )
    expect(md).toContain('| 1 | 0 | 0 | 3 | 0 |')
    expect(md).toContain('**hits** (1): `t.py::test_fix`')
    expect(md).toContain('| invariant | 3 | 0 | 1 |')
    // The tail is kept verbatim inside a fence longer than its longest backtick run.
    expect(md).toContain('````\nboom ``` end\n````')
    expect(
      title(
        card([], {
          transitions: {
            fail_to_pass: ['a'],
            pass_to_fail: [],
            fail_to_fail: [],
            pass_to_pass: 0,
            vanished: []
          }
        })
      )
    ).toMatch(/^merge: 1 hit\(s\), 0 regression\(s\)/)
  })

  it('stays within a character limit and says where the full card is', () => {
    const reasons: Reason[] = Array.from({ length: 1000 }, (_, i) => ({
      rule: 'protected-path',
      message: `oracle/file_${i}.py was modified by the patch, which may not write the instrument`,
      path: `oracle/file_${i}.py`,
      level: 'failure'
    }))
    const full = renderMarkdown(card(reasons), { maxRows: 2000 })
    expect(full.length).toBeGreaterThan(65_535)
    const cut = renderMarkdown(card(reasons), {
      maxRows: 2000,
      maxChars: 65_535,
      fullCardHint: 'the artifact'
    })
    expect(cut.length).toBeLessThanOrEqual(65_535)
    expect(cut).toContain('the full scorecard is the artifact')
    expect(cut).toContain('oracle-gate: `policy`')
  })

  it('caps long tables with a count', () => {
    const reasons: Reason[] = Array.from({ length: 60 }, (_, i) => ({
      rule: 'ungoverned-test',
      message: `m${i}`,
      level: 'failure'
    }))
    const md = renderMarkdown(card(reasons), { maxRows: 50 })
    expect(md).toContain('_… and 10 more_')
    expect(md).not.toContain('| m55 |')
  })
})

describe('the tests the patch added to voting files (issue 25)', () => {
  const runs: Scorecard['runs'] = []
  it('are listed with their outcome on both sides; a merge without a fail→pass hit says so in the headline', () => {
    const base = card([])
    const md = renderMarkdown({
      ...base,
      verdict: 'merge',
      merge: true,
      runs,
      write_set: [
        { path: 'tests/test_dates.py', status: 'modified', plane: 'voting', action: 'continue' },
        { path: 'tests/test_new.py', status: 'added', plane: 'voting', action: 'continue' }
      ],
      diagnostics: {
        non_discriminating: ['tests/test_dates.py::test_zone'],
        drafts: {},
        in_diff: {
          'tests/test_dates.py::test_zone': 'passed',
          'tests/test_dates.py::test_leap': 'passed',
          'tests/test_new.py::test_x': 'failed'
        },
        in_diff_base: {
          'tests/test_dates.py::test_zone': 'passed',
          'tests/test_dates.py::test_leap': 'failed'
        }
      }
    } as Scorecard)
    expect(md).toContain('### Tests the patch added to the voting files (3)')
    expect(md).toMatch(
      /\| `tests\/test_dates\.py::test_leap` \| failed \| passed \| fails without the patch, passes with it \|/
    )
    expect(md).toMatch(
      /\| `tests\/test_dates\.py::test_zone` \| passed \| passed \| passes on the base too/
    )
    expect(md).toMatch(/\| `tests\/test_new\.py::test_x` \| absent \(new file\) \| failed \|/)
    expect(md).toMatch(
      /no voting test went from fail to pass .*nothing measured shows the patch fixes anything, and 1 of the patch's tests already passes on the base/
    )
    expect(md).not.toContain('nothing else to do')
  })

  it('a merge with a hit keeps the plain headline, and a card without appended tests has no such section', () => {
    const md = renderMarkdown({
      ...card([]),
      verdict: 'merge',
      merge: true,
      transitions: {
        fail_to_pass: ['tests/test_a.py::t'],
        pass_to_fail: [],
        fail_to_fail: [],
        pass_to_pass: 3,
        vanished: []
      }
    } as Scorecard)
    expect(md).toContain('nothing else to do')
    expect(md).not.toContain('Tests the patch added')
  })
})
