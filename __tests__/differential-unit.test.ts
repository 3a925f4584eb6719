// The differential replay's pure parts (src/replay/differential.ts): the recorder's records
// read as hostile input, the replay's answers read strictly (anything short of the whole
// answer throws, so the stage fails closed), calls judged (differ, dropped as
// nondeterministic, not checked), and a difference turned into the oracle-reach reason the
// run-time watcher's events become (reach-events.ts), waived by lints.reach_allow alike.
import { describe, expect, it } from 'vitest'
import {
  MAX_CALLS,
  ROUNDS,
  callText,
  diffRecords,
  differenceEvents,
  judgeCalls,
  parseReplay,
  render,
  voteOutcomes,
  type Answer,
  type DiffCall
} from '../src/replay/differential.js'
import { runtimeReach } from '../src/replay/reach-events.js'
import type { WatchPlan } from '../src/replay/watch.js'

const plan: WatchPlan = {
  lines: { 'app/fee.py': [[4, 6]] },
  instrument: ['oracle'],
  reach: true,
  cover: false,
  diff: true
}

const fraction = (n: number): string =>
  JSON.stringify([
    'object',
    'fractions.Fraction',
    [
      ['_numerator', ['int', String(n)]],
      ['_denominator', ['int', '1']]
    ]
  ])

const record = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  t: 'diff',
  path: 'app/fee.py',
  line: 5,
  mod: 'app.fee',
  owner: '',
  name: 'fee',
  form: 'function',
  out: fraction(5),
  args: 'gASV',
  shown: [
    'tuple',
    [
      ['list', [['int', '100']]],
      ['dict', []]
    ]
  ],
  glob: '',
  cwd: '/home/u/project',
  env: { set: {}, unset: [] },
  ...over
})

const session = { t: 'diffenv', env: { HOME: '/root' }, exe: '/usr/bin/python3', path: ['/p'] }

describe('diffRecords: the recorder’s records, read as hostile input', () => {
  it('keeps a well-formed call and the session, and the vote’s counts', () => {
    const found = diffRecords(
      [
        session,
        record(),
        { t: 'diffend', recorded: 3, skipped: { world: 1, doubles: 1, 'bad key': 9 } }
      ],
      plan
    )
    expect(found.forged).toBe(0)
    expect(found.calls).toHaveLength(1)
    expect(found.calls[0]).toMatchObject({ mod: 'app.fee', name: 'fee', line: 5 })
    expect(found.session).toEqual({ env: { HOME: '/root' }, exe: '/usr/bin/python3', path: ['/p'] })
    expect(found.vote).toEqual({ recorded: 3, skipped: { world: 1, doubles: 1 } })
  })

  it('ignores and counts records that name no line of the plan or have a bad shape', () => {
    const bad = [
      record({ line: 9 }),
      record({ path: 'app/other.py' }),
      record({ line: 5.5 }),
      record({ form: 'property' }),
      record({ env: { set: { A: 1 }, unset: [] } }),
      record({ env: { set: {}, unset: 'A' } }),
      record({ name: '' }),
      record({ out: 'x'.repeat(300 * 1024) }),
      record({ cwd: 7 }),
      { ...session, exe: 'python3' },
      session,
      session
    ]
    const found = diffRecords(bad, plan)
    expect(found.calls).toEqual([])
    // Ten bad records and the second session (the first relative exe is one of the ten).
    expect(found.forged).toBe(11)
    expect(found.session?.exe).toBe('/usr/bin/python3')
  })

  it('keeps at most MAX_CALLS calls', () => {
    const many = Array.from({ length: MAX_CALLS + 5 }, () => record())
    const found = diffRecords(many, plan)
    expect(found.calls).toHaveLength(MAX_CALLS)
    expect(found.forged).toBe(5)
  })
})

describe('parseReplay: the whole answer or an error', () => {
  const outs = Array.from({ length: ROUNDS }, () => fraction(10))
  const good = [
    JSON.stringify({ k: 'n', id: 1, outs }),
    JSON.stringify({ k: 'n', id: 0, skip: 'import' }),
    JSON.stringify({ k: 'n', end: 2 })
  ]

  it('reads every call’s answer', () => {
    const answers = parseReplay(good.join('\n'), 'n', 2)
    expect(answers.get(1)).toEqual({ outs })
    expect(answers.get(0)).toEqual({ skip: 'import' })
  })

  it.each([
    ['a line of another nonce', [...good.slice(0, 2), JSON.stringify({ k: 'x', end: 2 })]],
    ['no end', good.slice(0, 2)],
    ['a call unanswered', [good[0], JSON.stringify({ k: 'n', end: 2 })]],
    ['an id out of range', [JSON.stringify({ k: 'n', id: 5, outs }), ...good]],
    ['a line that is not JSON', ['fee of 100', ...good]],
    ['too few rounds', [JSON.stringify({ k: 'n', id: 1, outs: outs.slice(1) }), ...good.slice(1)]]
  ])('throws on %s', (_, lines) => {
    expect(() => parseReplay(lines.join('\n'), 'n', 2)).toThrow()
  })
})

describe('judgeCalls: differ, dropped, not checked', () => {
  const calls = diffRecords(
    [record(), record(), record(), record({ out: fraction(10) })],
    plan
  ).calls
  const same = (n: number): Answer => ({ outs: Array.from({ length: ROUNDS }, () => fraction(n)) })

  it('reports a call both processes answer alike and unlike the vote; drops the rest', () => {
    const first = new Map<number, Answer>([
      [0, same(10)],
      [1, same(10)],
      [2, { skip: 'import' }],
      [3, same(10)]
    ])
    const second = new Map<number, Answer>([
      [0, same(10)],
      [1, same(11)],
      [2, same(10)],
      [3, same(10)]
    ])
    const judged = judgeCalls(calls, first, second)
    expect(judged.differ.map(d => d.plain)).toEqual([fraction(10)])
    expect(judged.dropped).toBe(1)
    expect(judged.unchecked).toEqual({ import: 1 })
  })

  it('drops a call the vote’s own runs answered two ways (a first import unlike the later)', () => {
    const rerun = diffRecords([record({ out: fraction(3) })], plan).calls
    const one = calls.slice(0, 1)
    const vote = voteOutcomes([one, rerun])
    const judged = judgeCalls(one, new Map([[0, same(10)]]), new Map([[0, same(10)]]), vote)
    expect(judged).toEqual({ differ: [], dropped: 1, unchecked: {} })
    // The same call with other arguments is another call.
    const other = diffRecords([record({ args: 'gASW', out: fraction(3) })], plan).calls
    const apart = judgeCalls(
      one,
      new Map([[0, same(10)]]),
      new Map([[0, same(10)]]),
      voteOutcomes([one, other])
    )
    expect(apart.differ).toHaveLength(1)
  })

  it('drops a call whose rounds in one process disagree', () => {
    const mixed: Answer = { outs: [fraction(10), fraction(10), fraction(12)] }
    const judged = judgeCalls(calls.slice(0, 1), new Map([[0, mixed]]), new Map([[0, same(10)]]))
    expect(judged).toEqual({ differ: [], dropped: 1, unchecked: {} })
  })
})

describe('the finding', () => {
  const call = diffRecords([record()], plan).calls[0] as DiffCall

  it('renders the call and both outcomes without the product’s repr', () => {
    expect(callText(call)).toBe('fee(100)')
    expect(render(JSON.parse(fraction(5)))).toBe('Fraction(_numerator=5, _denominator=1)')
    expect(render(['str', 'a\nb'])).toBe('"a\\nb"')
    expect(render({ evil: true })).toBe('?')
    expect(render(['weird', 1])).toBe('?')
    expect(
      render(['list', Array.from({ length: 400 }, () => ['int', '123456789'])]).length
    ).toBeLessThanOrEqual(161)
  })

  it('becomes an oracle-reach reason at the call’s line, waived by reach_allow like any', () => {
    const events = differenceEvents([{ call, plain: fraction(10) }])
    const input = {
      runs: [],
      plan,
      level: 'failure' as const,
      isEntry: () => false,
      policyPath: '.github/oracle-gate.yml',
      differential: events
    }
    const found = runtimeReach({ ...input, allowed: () => false })
    expect(found.reasons).toEqual([
      {
        rule: 'oracle-reach',
        level: 'failure',
        path: 'app/fee.py',
        line: 5,
        message: expect.stringMatching(
          /^markers: at run time: behaves differently under the test runner — fee\(100\) gave Fraction\(_numerator=5, _denominator=1\) under the test runner, Fraction\(_numerator=10, _denominator=1\) in a plain process; production code must not behave differently/
        )
      }
    ])
    const waived = runtimeReach({ ...input, allowed: (_, c) => c === 'markers' })
    expect(waived.reasons).toEqual([])
    expect(waived.waived).toBe(1)
  })
})
