// The gate's side of the pytest plugin check (pluginReasons, src/replay/reach-events.ts):
// `plugin` records of the head's runs become one runner-tampered reason per file of the
// plan, preferring a record whose hook or fixture holds the patch's lines; records naming
// a file the plan does not hold, or malformed, are not the watcher's and give nothing;
// head-controlled text is made printable.
import { describe, expect, it } from 'vitest'
import { pluginReasons } from '../src/replay/reach-events.js'
import type { WatchRecord } from '../src/replay/tripwires.js'
import type { WatchPlan } from '../src/replay/watch.js'

const plan: WatchPlan = {
  lines: { 'app/testing.py': [[20, 24]], 'app/fee.py': [[5, 5]] },
  instrument: ['oracle'],
  reach: true,
  cover: false
}

const plugin = (path: string, line: number, what: string, changed: boolean) => ({
  t: 'plugin',
  k: 'n',
  path,
  line,
  what,
  changed
})

const run = (events: Record<string, unknown>[]): WatchRecord => ({
  fed: true,
  started: 1,
  watched: 1,
  events,
  dropped: 0
})

describe('pluginReasons', () => {
  it('names the hook holding the patch lines, once per file, as runner-tampered', () => {
    const reasons = pluginReasons(
      [
        run([
          plugin('app/testing.py', 8, 'hook pytest_report_header', false),
          plugin('app/testing.py', 22, 'hook pytest_runtest_setup', true)
        ]),
        run([plugin('app/testing.py', 30, 'fixture order', true)])
      ],
      plan
    )
    expect(reasons).toEqual([
      {
        rule: 'runner-tampered',
        level: 'failure',
        path: 'app/testing.py',
        line: 22,
        message: expect.stringContaining('registered hook pytest_runtest_setup from it (line 22)')
      }
    ])
  })

  it('falls back to the first record when no hook holds the patch lines', () => {
    const reasons = pluginReasons(
      [run([plugin('app/fee.py', 3, 'fixture rate', false), plugin('app/fee.py', 9, 'x', false)])],
      plan
    )
    expect(reasons.map(r => r.line)).toEqual([3])
  })

  it('ignores records off the plan, of other kinds or malformed', () => {
    const reasons = pluginReasons(
      [
        run([
          plugin('oracle/conftest.py', 1, 'hook pytest_runtest_setup', true),
          { ...plugin('app/testing.py', 22, 'hook', true), t: 'reach' },
          { ...plugin('app/testing.py', 22, 'hook', true), line: '22' },
          { ...plugin('app/testing.py', 22, 'hook', true), line: 0 },
          { ...plugin('app/testing.py', 22, 'hook', true), what: 7 },
          { ...plugin('app/testing.py', 22, 'hook', true), path: 'constructor' }
        ])
      ],
      plan
    )
    expect(reasons).toEqual([])
  })

  it('prints hostile names harmlessly', () => {
    const [reason] = pluginReasons(
      [run([plugin('app/fee.py', 5, 'hook \u001b[31m`x`\n| y |', true)])],
      plan
    )
    expect(reason?.message.includes('\u001b')).toBe(false)
    expect(reason?.message.includes('\n')).toBe(false)
  })
})
