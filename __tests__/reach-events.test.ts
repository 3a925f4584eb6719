// The gate's side of run-time oracle-reach (src/replay/reach-events.ts): reach records of
// the head's runs become reasons on the plan's lines only (anything else is counted as
// forged and ignored), once per line and category, at the policy's level, waived by
// lints.reach_allow, softened for process habits in entry points, with hostile text made
// printable; a run fed the plan that never read it gives a notice.
import { describe, expect, it } from 'vitest'
import { allowList } from '../src/lints/reach/allow.js'
import { reachEvents, runtimeReach, type RuntimeReachInput } from '../src/replay/reach-events.js'
import type { WatchRecord } from '../src/replay/tripwires.js'
import type { WatchPlan } from '../src/replay/watch.js'

const plan: WatchPlan = {
  lines: { 'calc/ops.py': [[3, 5]], 'calc/cli.py': [[1, 9]] },
  instrument: ['oracle'],
  reach: true,
  cover: false
}

const reach = (
  path: string,
  line: number,
  category = 'markers',
  what = 'environment read'
): Record<string, unknown> => ({
  t: 'reach',
  k: 'n',
  category,
  what,
  path,
  line
})

const run = (events: Record<string, unknown>[], over: Partial<WatchRecord> = {}): WatchRecord => ({
  fed: true,
  started: 1,
  watched: 1,
  events,
  dropped: 0,
  ...over
})

function judge(
  runs: WatchRecord[],
  over: Partial<RuntimeReachInput> = {}
): ReturnType<typeof runtimeReach> {
  return runtimeReach({
    runs,
    plan,
    level: 'failure',
    allowed: allowList([], false),
    isEntry: p => p === 'calc/cli.py',
    policyPath: '.github/oracle-gate.yml',
    ...over
  })
}

describe('reach records', () => {
  it('a built-in put in place of a matcher-facing member names no line: a reason without a file', () => {
    const what = 'RegExp.prototype.test replaced by a value with no source line'
    const parsed = reachEvents(
      [
        reach('', 0, 'comparison', what),
        reach('', 0, 'markers', 'environment read'),
        reach('', 1, 'comparison', what),
        reach('calc/other.py', 0, 'comparison', what)
      ],
      plan
    )
    expect(parsed.events).toEqual([{ category: 'comparison', what, path: '', line: 0 }])
    expect(parsed.forged).toBe(3)
    const { reasons } = judge([run([reach('', 0, 'comparison', what)])])
    expect(reasons).toHaveLength(1)
    expect(reasons[0]).not.toHaveProperty('path')
    expect(reasons[0]).not.toHaveProperty('line')
    expect(reasons[0]?.message).toContain(`comparison: ${what} at run time`)
  })

  it('keep only well-formed records on the plan’s lines; the rest are counted as forged', () => {
    const parsed = reachEvents(
      [
        reach('calc/ops.py', 4),
        reach('calc/ops.py', 6),
        reach('calc/other.py', 4),
        reach('calc/ops.py', 4, 'echo'),
        reach('calc/ops.py', 4, 'nonsense'),
        { ...reach('calc/ops.py', 4), line: '4' },
        reach('__proto__', 1),
        { t: 'cover', path: 'calc/ops.py', line: 4 }
      ],
      plan
    )
    expect(parsed.events).toEqual([
      { category: 'markers', what: 'environment read', path: 'calc/ops.py', line: 4 }
    ])
    expect(parsed.forged).toBe(6)
  })
})

describe('run-time reasons', () => {
  it('one reason per line and category across runs, at the policy level, saying "at run time"', () => {
    const out = judge([
      run([reach('calc/ops.py', 4), reach('calc/ops.py', 4, 'markers', 'other read')]),
      run([reach('calc/ops.py', 4), reach('calc/ops.py', 5, 'introspection', 'stack read')])
    ])
    expect(out.reasons.map(r => [r.rule, r.path, r.line, r.level])).toEqual([
      ['oracle-reach', 'calc/ops.py', 4, 'failure'],
      ['oracle-reach', 'calc/ops.py', 5, 'failure']
    ])
    expect(out.reasons[0]!.message).toMatch(
      /^markers: environment read at run time — production code must not behave differently/
    )
    expect(judge([run([reach('calc/ops.py', 4)])], { level: 'warning' }).reasons[0]!.level).toBe(
      'warning'
    )
  })

  it('lints.reach_allow waives a path and category; process in an entry point is a notice', () => {
    const allowed = allowList([{ path: 'calc/ops.py', categories: ['markers'] }], false)
    const out = judge(
      [
        run([
          reach('calc/ops.py', 4),
          reach('calc/ops.py', 4, 'process', 'a child process'),
          reach('calc/cli.py', 2, 'process', 'an exit hook registered'),
          reach('calc/cli.py', 3, 'instrument', 'open of the instrument')
        ])
      ],
      { allowed }
    )
    expect(out.waived).toBe(1)
    expect(out.reasons.map(r => [r.path, r.line, r.level])).toEqual([
      ['calc/ops.py', 4, 'failure'],
      ['calc/cli.py', 2, 'notice'],
      ['calc/cli.py', 3, 'failure']
    ])
  })

  it('hostile text from the head is printable and cut short', () => {
    const what = `open of oracle/\u202e\u001b[31mfake\n## merge${'x'.repeat(500)}`
    const [reason] = judge([run([reach('calc/ops.py', 3, 'instrument', what)])]).reasons
    // eslint-disable-next-line no-control-regex
    expect(reason!.message).not.toMatch(/[\u0000-\u001f\u202e]/)
    expect(reason!.message.length).toBeLessThan(1000)
  })

  it('a run fed the plan that never read it is named as not watched; dropped events are not a pass', () => {
    const out = judge([run([], { watched: 0 }), run([], { fed: false, watched: 0 })])
    expect(out.reasons).toHaveLength(1)
    expect(out.reasons[0]).toMatchObject({ rule: 'diagnostic', level: 'notice' })
    expect(out.reasons[0]!.message).toContain('1 run(s) of the head were not watched')
    const dropped = judge([run([], { dropped: 3 })])
    expect(dropped.reasons).toMatchObject([{ rule: 'oracle-reach', level: 'failure' }])
  })

  it('more than the per-file cap of lines is summarised', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      reach('calc/cli.py', 1 + (i % 9), 'instrument', `w${i}`)
    )
    const wide: WatchPlan = { ...plan, lines: { 'big.py': [[1, 100]] } }
    const events = Array.from({ length: 25 }, (_, i) => reach('big.py', i + 1))
    const out = judge([run([...many, ...events])], { plan: wide })
    expect(out.reasons.filter(r => r.path === 'big.py')).toHaveLength(21)
    expect(out.reasons[20]!.message).toBe('5 more oracle-reach finding(s) at run time in this file')
    expect(out.forged).toBe(30)
  })
})
