import { describe, expect, it } from 'vitest'
import type { LedgerRow } from '../src/ledger/types.js'
import { compileClasses } from '../src/replay/classes.js'
import type { Outcome } from '../src/replay/junit.js'
import { observe, rerunFailures, rerunPlan, rerunTargets } from '../src/replay/rerun.js'
import { score, type Observation, type ScoreInput } from '../src/replay/transitions.js'
import type { Plane } from '../src/types.js'

const V = 'oracle/properties/test_v.py'
const planeOf = (file: string): Plane =>
  file.startsWith('oracle/properties/')
    ? 'voting'
    : file.startsWith('drafts/')
      ? 'drafts'
      : file.startsWith('tests/')
        ? 'in_diff'
        : 'source'

function side(entries: Record<string, Outcome | Outcome[]>): Map<string, Observation> {
  const map = new Map<string, Observation>()
  for (const [id, out] of Object.entries(entries)) {
    map.set(id, {
      id,
      file: id.split('::')[0] ?? null,
      outcomes: Array.isArray(out) ? out : [out],
      runnerFlaky: false
    })
  }
  return map
}

function row(test: string, id = 'FL-1'): LedgerRow {
  return {
    id,
    test,
    cause: 'time',
    reason: 'slow CI',
    owner: 'ada',
    first_seen: '2026-01-01',
    expires_on: '2026-12-31',
    max_runs: 3
  }
}

function run(
  partial: Partial<ScoreInput> & Pick<ScoreInput, 'base' | 'head'>
): ReturnType<typeof score> {
  return score({
    planeOf,
    classOf: compileClasses({ fixture: [], invariant: [], metamorphic: [], judge: [] }),
    live: new Map(),
    written: new Set(),
    policyPath: '.github/oracle-gate.yml',
    ...partial
  })
}

const rules = (s: ReturnType<typeof score>): string[] =>
  s.reasons.map(r => `${r.level}:${r.rule}`).sort()

describe('transitions of voting tests', () => {
  it('fail→pass is a hit, pass→pass counts, nothing fails', () => {
    const s = run({
      base: side({ [`${V}::a`]: 'failed', [`${V}::b`]: 'passed' }),
      head: side({ [`${V}::a`]: 'passed', [`${V}::b`]: 'passed' })
    })
    expect(s.transitions).toEqual({
      fail_to_pass: [`${V}::a`],
      pass_to_fail: [],
      fail_to_fail: [],
      pass_to_pass: 1,
      vanished: []
    })
    expect(s.votes).toMatchObject({ passed: 2, failed: 0 })
    expect(rules(s)).toEqual([])
  })

  it('pass→fail is a regression, fail→fail and new failures are oracle-failed, with path and line', () => {
    const head = side({ [`${V}::a`]: 'failed', [`${V}::b`]: 'error', [`${V}::c`]: 'failed' })
    const a = head.get(`${V}::a`) as Observation
    a.line = 12
    const s = run({ base: side({ [`${V}::a`]: 'passed', [`${V}::b`]: 'failed' }), head })
    expect(s.transitions.pass_to_fail).toEqual([`${V}::a`])
    expect(s.transitions.fail_to_fail).toEqual([`${V}::b`])
    expect(rules(s)).toEqual([
      'failure:oracle-failed',
      'failure:oracle-failed',
      'failure:regression'
    ])
    expect(s.reasons.find(r => r.rule === 'regression')).toMatchObject({ path: V, line: 12 })
    expect(s.votes).toMatchObject({ passed: 0, failed: 3 })
  })

  it('a skip or xfail on head after a pass is a regression; skip→skip is not executed (empty vote)', () => {
    const s = run({ base: side({ [`${V}::a`]: 'passed' }), head: side({ [`${V}::a`]: 'skipped' }) })
    expect(s.transitions.pass_to_fail).toEqual([`${V}::a`])
    expect(rules(s)).toEqual(['failure:empty-vote', 'failure:regression'])
    const quiet = run({
      base: side({ [`${V}::a`]: 'skipped', [`${V}::b`]: 'passed' }),
      head: side({ [`${V}::a`]: 'skipped', [`${V}::b`]: 'passed' })
    })
    expect(rules(quiet)).toEqual([])
  })

  it('a voting test present on base and missing on head vanished', () => {
    const s = run({
      base: side({ [`${V}::a`]: 'passed', [`${V}::b`]: 'passed' }),
      head: side({ [`${V}::b`]: 'passed' })
    })
    expect(s.transitions.vanished).toEqual([`${V}::a`])
    expect(rules(s)).toEqual(['failure:vanished-oracle'])
  })

  it('no voting test executed on head is an empty vote; no head results at all is not scored here', () => {
    expect(rules(run({ base: side({}), head: side({ 'tests/test_x.py::t': 'passed' }) }))).toEqual([
      'failure:empty-vote'
    ])
    expect(rules(run({ base: side({ [`${V}::a`]: 'passed' }), head: null }))).toEqual([])
  })
})

describe('planes, classes and the ledger', () => {
  it('drafts and in-diff tests never vote; drafts are listed with their outcome', () => {
    const s = run({
      base: side({ [`${V}::a`]: 'passed' }),
      head: side({
        [`${V}::a`]: 'passed',
        'drafts/test_d.py::d': 'failed',
        'tests/test_i.py::i': 'failed'
      })
    })
    expect(rules(s)).toEqual([])
    expect(s.votes).toMatchObject({ passed: 1, failed: 0, drafts: 1 })
    expect(s.diagnostics.drafts).toEqual({ 'drafts/test_d.py::d': 'failed' })
  })

  it('in-diff tests written by the patch that pass on both sides are non-discriminating (a notice)', () => {
    const both = {
      [`${V}::a`]: 'passed',
      'tests/test_i.py::i': 'passed',
      'tests/test_old.py::o': 'passed'
    } as const
    const s = run({ base: side(both), head: side(both), written: new Set(['tests/test_i.py']) })
    expect(s.diagnostics.non_discriminating).toEqual(['tests/test_i.py::i'])
    expect(rules(s)).toEqual(['notice:non-discriminating'])
    const discriminating = run({
      base: side({ [`${V}::a`]: 'passed', 'tests/test_i.py::i': 'failed' }),
      head: side({ [`${V}::a`]: 'passed', 'tests/test_i.py::i': 'passed' }),
      written: new Set(['tests/test_i.py'])
    })
    expect(rules(discriminating)).toEqual([])
  })

  it('a frozen test abstains: counted frozen, never passed, its failure and flakiness are not failures', () => {
    const live = new Map([[`${V}::slow`, row(`${V}::slow`)]])
    const s = run({
      base: side({ [`${V}::a`]: 'failed', [`${V}::slow`]: 'passed' }),
      head: side({ [`${V}::a`]: 'passed', [`${V}::slow`]: ['failed', 'passed'] }),
      live
    })
    expect(rules(s)).toEqual([])
    expect(s.votes).toMatchObject({ passed: 1, failed: 0, frozen: 1 })
    expect(s.flakes).toEqual([
      { test: `${V}::slow`, side: 'head', outcomes: ['failed', 'passed'], ledger_id: 'FL-1' }
    ])
    // Without the row the same flake is red.
    const unfrozen = run({
      base: side({ [`${V}::a`]: 'failed', [`${V}::slow`]: 'passed' }),
      head: side({ [`${V}::a`]: 'passed', [`${V}::slow`]: ['failed', 'passed'] })
    })
    expect(rules(unfrozen)).toEqual(['failure:flaky-oracle'])
  })

  it('a flake on the base says the oracle is a coin', () => {
    const s = run({
      base: side({ [`${V}::a`]: ['failed', 'passed'] }),
      head: side({ [`${V}::a`]: 'passed' })
    })
    expect(rules(s)).toEqual(['failure:flaky-oracle'])
    expect(s.reasons[0]?.message).toMatch(/the oracle is a coin/)
    expect(s.transitions.fail_to_pass).toEqual([])
  })

  it('judge-class tests never vote; classes bucket the votes', () => {
    const classOf = compileClasses({
      fixture: [],
      invariant: ['**/test_inv*.py::*'],
      metamorphic: [],
      judge: ['**/*::*judge*']
    })
    const s = run({
      base: side({ 'oracle/properties/test_inv.py::a': 'failed', [`${V}::judge_it`]: 'passed' }),
      head: side({ 'oracle/properties/test_inv.py::a': 'passed', [`${V}::judge_it`]: 'failed' }),
      classOf
    })
    expect(rules(s)).toEqual([])
    expect(s.votes.by_class).toEqual({
      invariant: { passed: 1, failed: 0, frozen: 0 },
      judge: { passed: 0, failed: 1, frozen: 0 }
    })
    expect(s.votes).toMatchObject({ passed: 1, failed: 0 })
  })

  it('a live row for a test the suite no longer has is ledger-stale (a warning)', () => {
    const live = new Map([[`${V}::gone`, row(`${V}::gone`, 'FL-9')]])
    const s = run({
      base: side({ [`${V}::a`]: 'passed' }),
      head: side({ [`${V}::a`]: 'passed' }),
      live,
      ledgerPath: 'oracle/flake_ledger.yml'
    })
    expect(s.reasons).toEqual([
      expect.objectContaining({
        rule: 'ledger-stale',
        level: 'warning',
        path: 'oracle/flake_ledger.yml'
      })
    ])
    const present = run({
      base: side({ [`${V}::gone`]: 'passed' }),
      head: side({ [`${V}::gone`]: 'passed' }),
      live
    })
    expect(rules(present)).toEqual(['failure:empty-vote'])
  })

  it('a failing test whose file is unknown is treated as possibly voting; a passing one counts for nothing', () => {
    const base = new Map<string, Observation>()
    const head = new Map<string, Observation>([
      ['test::x', { id: 'test::x', file: null, outcomes: ['failed'], runnerFlaky: false }]
    ])
    head.set(`${V}::a`, { id: `${V}::a`, file: V, outcomes: ['passed'], runnerFlaky: false })
    expect(rules(run({ base, head }))).toEqual(['failure:oracle-failed'])
    head.set('test::x', { id: 'test::x', file: null, outcomes: ['passed'], runnerFlaky: false })
    expect(run({ base, head }).votes).toMatchObject({ passed: 1, failed: 0 })
  })
})

describe('reruns', () => {
  it('plan: rerun_command, else the suite command with {tests}, else the whole suite', () => {
    expect(rerunPlan({ command: 'bash run-tests.sh --junitxml={junit}' })).toEqual({
      command: 'bash run-tests.sh --junitxml={junit}',
      selects: false,
      runner: null
    })
    // A known runner's plain command is rewritten to select (runners.ts).
    expect(rerunPlan({ command: 'pytest --junitxml={junit}' })).toEqual({
      command: 'pytest --junitxml={junit} {tests}',
      selects: true,
      runner: 'pytest'
    })
    expect(rerunPlan({ command: 'pytest {tests} --junitxml={junit}' }).selects).toBe(true)
    expect(rerunPlan({ command: 'x', rerun_command: 'y {tests}' })).toEqual({
      command: 'y {tests}',
      selects: true,
      runner: null
    })
  })

  it('targets only eligible tests failing in every run so far, never collection errors', () => {
    const results = side({
      [`${V}::a`]: 'failed',
      [`${V}::b`]: ['failed', 'passed'],
      [`${V}::<collection>`]: 'error',
      'drafts/x.py::d': 'failed'
    })
    expect(rerunTargets(results, o => planeOf(o.file ?? '') === 'voting')).toEqual([`${V}::a`])
  })

  it('reruns until the flake shows or reruns are spent, merging outcomes', async () => {
    const ctx = { root: '/wt', files: [V], planeOf, read: () => null }
    const results = side({ [`${V}::a`]: 'failed', [`${V}::b`]: 'failed' })
    const asked: (readonly string[] | null)[] = []
    const report = (a: Outcome, b: Outcome) => ({
      files: [],
      cases: [
        {
          classname: 'oracle.properties.test_v',
          name: 'a',
          file: V,
          suites: [],
          outcome: a,
          flaky: false
        },
        {
          classname: 'oracle.properties.test_v',
          name: 'b',
          file: V,
          suites: [],
          outcome: b,
          flaky: false
        }
      ]
    })
    const replies = [
      report('passed', 'failed'),
      report('failed', 'failed'),
      report('failed', 'failed')
    ]
    const done = await rerunFailures({
      results,
      reruns: 3,
      plan: { command: 'c {tests}', selects: true },
      eligible: () => true,
      ids: async () => ctx,
      run: async (_attempt, tests) => {
        asked.push(tests)
        return replies.shift() ?? null
      }
    })
    expect(done).toBe(3)
    expect(asked).toEqual([[`${V}::a`, `${V}::b`], [`${V}::b`], [`${V}::b`]])
    expect(results.get(`${V}::a`)?.outcomes).toEqual(['failed', 'passed', 'failed', 'failed'])
    expect(results.get(`${V}::b`)?.outcomes).toEqual(['failed', 'failed', 'failed', 'failed'])
    expect(observe(report('passed', 'passed'), ctx).size).toBe(2)
  })
})
