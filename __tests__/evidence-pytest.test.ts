// Evidence end to end on a real pytest suite (check() from src/gate.ts, temporary git
// repository). The base's fee() is wrong and its locked test fails. Heads:
// - `fix`: the fix; every changed line runs under the passing voting test (covered, merge);
// - `branch`: the same fix plus an added branch for large amounts that no voting test runs,
//   wrong on purpose. The naive run is green, so only evidence can tell: under `report` it
//   merges with the uncovered lines named (the head's line numbers, a notice each), under
//   `enforce` below evidence.min_coverage it is `product` with weak-evidence naming them;
// - the same `branch` head against a base with evidence off: no cover, no evidence.
// - `fix` against a base whose locked test checks only the type (a weak oracle): under
//   enforce the surviving mutant is named and below min_kill_ratio is weak-evidence;
// - the cap (max_mutants) and the budget (budget_s 1 against a test that takes longer).
// The card is rendered with cmark-gfm and looked at.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { renderMarkdown } from '../src/report/markdown.js'
import type { Scorecard } from '../src/types.js'
import { renderGfm } from './helpers/gfm.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { naiveRun } from './helpers/runners.js'

const python = pythonWithPytest()
const command = `${python} -m pytest oracle -q -p no:cacheprovider --junitxml={junit}`

const policy = (evidence: string, suite = ''): string => `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/**]
suite:
  command: ${command}
  timeout: 120
  reruns: 0
${suite}${evidence}`

const BASE: Record<string, string> = {
  '.gitignore': '__pycache__/\n.naive-junit.xml\n',
  // No evidence key: the default mode, report.
  '.github/oracle-gate.yml': policy(''),
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'shop/__init__.py': '',
  'shop/fee.py': `"""Fees."""


def fee(amount):
    return amount * 2 // 100
`,
  'oracle/test_fee.py': `from shop.fee import fee


def test_fee():
    assert fee(100) == 3
    assert fee(1000) == 30
`
}

const FIX = `"""Fees."""

RATE = 3


def fee(amount):
    # Three percent, rounded down.
    return amount * RATE // 100
`

// Lines 9-10: a branch no voting test runs (amounts over 10 000 pay nothing).
const BRANCH = `"""Fees."""

RATE = 3


def fee(amount):
    # Three percent, rounded down.
    cents = amount * RATE
    if amount > 10_000:
        return 0
    return cents // 100
`

const WEAK_TEST = `from shop.fee import fee


def test_fee_type():
    assert isinstance(fee(100), int)
`

// The cap: one mutant of the fix's two. The budget: a slow locked test (at least 1.5 s, a
// least duration, not a bound) and 1 s of budget: the first mutant runs, the second not.
const CAPS: Record<string, string> = {
  cap: 'evidence:\n  max_mutants: 1\n',
  budget: 'evidence:\n  budget_s: 1\n'
}
const SLOW_TEST = `import time

from shop.fee import fee


def test_fee():
    start = time.monotonic()
    while time.monotonic() - start < 1.5:
        pass
    assert fee(100) == 3
    assert fee(1000) == 30
`

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-evidence-py-')
  repo.write(BASE).commit('base: fee is wrong')
  repo.branch('fix', 'main').write({ 'shop/fee.py': FIX }).commit('fix')
  repo.branch('branch', 'main').write({ 'shop/fee.py': BRANCH }).commit('fix and a branch')
  repo
    .branch('main-enforce', 'main')
    .write({
      '.github/oracle-gate.yml': policy('evidence:\n  mode: enforce\n  min_coverage: 0.9\n')
    })
    .commit('enforce')
  repo.branch('branch-enforce', 'main-enforce').write({ 'shop/fee.py': BRANCH }).commit('b')
  repo.branch('fix-enforce', 'main-enforce').write({ 'shop/fee.py': FIX }).commit('f')
  repo
    .branch('main-off', 'main')
    .write({ '.github/oracle-gate.yml': policy('evidence:\n  mode: off\n') })
    .commit('off')
  repo.branch('branch-off', 'main-off').write({ 'shop/fee.py': BRANCH }).commit('b')
  // A weak oracle: the locked test checks only that fee() gives an int.
  repo
    .branch('main-weak', 'main')
    .write({
      '.github/oracle-gate.yml': policy('evidence:\n  mode: enforce\n'),
      'oracle/test_fee.py': WEAK_TEST
    })
    .commit('weak oracle')
  repo.branch('fix-weak', 'main-weak').write({ 'shop/fee.py': FIX }).commit('f')
  for (const [name, evidence] of Object.entries(CAPS)) {
    repo
      .branch(`main-${name}`, 'main')
      .write({
        '.github/oracle-gate.yml': policy(evidence),
        ...(name === 'budget' ? { 'oracle/test_fee.py': SLOW_TEST } : {})
      })
      .commit(name)
    repo.branch(`fix-${name}`, `main-${name}`).write({ 'shop/fee.py': FIX }).commit('f')
  }
  // A runner the gate does not load its reporter into: coverage cannot be known.
  for (const mode of ['report', 'enforce']) {
    const evidence = `evidence:\n  mode: ${mode}\n`
    repo
      .branch(`main-other-${mode}`, 'main')
      .write({ '.github/oracle-gate.yml': policy(evidence, '  runner: other\n') })
      .commit(`runner other, ${mode}`)
    repo.branch(`fix-other-${mode}`, `main-other-${mode}`).write({ 'shop/fee.py': FIX }).commit('f')
  }
  repo.checkout('main')
})
afterAll(() => repo.cleanup())

let lastLog: string[] = []
function judge(head: string, base: string): Promise<Scorecard> {
  const log = memoryLogger()
  lastLog = log.lines
  return check({ repoDir: repo.dir, base, head, today: '2026-12-01', log })
}

const weak = (card: Scorecard, level: string): string[] =>
  card.reasons.filter(r => r.rule === 'weak-evidence' && r.level === level).map(r => r.message)

describe('evidence on a real pytest suite', () => {
  it('the base is wrong, and the head with the untested branch is green on a naive run', () => {
    expect(naiveRun(repo, command).status).toBe(1)
    repo.checkout('branch')
    expect(naiveRun(repo, command).status).toBe(0)
    repo.checkout('main')
  })

  it('a fix whose changed lines all run under the voting test: every line covered, merge', async () => {
    const card = await judge('fix', 'main')
    expect(card.verdict).toBe('merge')
    // Lines 3 (RATE, at import) and 8; the comment (7) and blank lines are arid.
    expect(card.evidence).toMatchObject({ changed_lines: 2, covered_lines: 2, uncovered: [] })
    expect(lastLog).toContain(
      'watch plan: 1 production file(s) of the patch, for run-time reach and coverage'
    )
    expect(weak(card, 'notice')).toEqual([])
    // Both mutants die under the locked test: RATE's (at import, a process of its own) and
    // the return's (in the one pytest session).
    expect(card.evidence?.mutants).toEqual([
      {
        path: 'shop/fee.py',
        line: 3,
        mutation: '`3` → `4`',
        killed_by: 'oracle/test_fee.py::test_fee'
      },
      {
        path: 'shop/fee.py',
        line: 8,
        mutation: '`*` → `/`',
        killed_by: 'oracle/test_fee.py::test_fee'
      }
    ])
    // RATE's runs at import only: one by one (the session switches after the import).
    expect(lastLog).toContain('mutation: 1 Python mutant(s) in one pytest session')
  })

  it('a weak oracle (the type only): the survivor is named, below min_kill_ratio under enforce', async () => {
    const card = await judge('fix-weak', 'main-weak')
    expect(card.verdict).toBe('product')
    expect(card.evidence).toMatchObject({ changed_lines: 2, covered_lines: 2 })
    expect(card.evidence?.mutants.map(m => [m.line, m.killed_by])).toEqual([
      [3, null],
      // `/` makes a float: even the type check catches it.
      [8, 'oracle/test_fee.py::test_fee_type']
    ])
    const [message] = weak(card, 'failure')
    expect(message).toMatch(/kill 1 of 2 mutants of the patch \(50 %/)
    expect(message).toMatch(/survivors: shop\/fee\.py:3 `3` → `4`$/)
    expect(weak(card, 'notice')).toContain(
      'mutant `3` → `4` survived: no voting test failed against it'
    )
  })

  it('max_mutants caps the mutants made', async () => {
    const card = await judge('fix-cap', 'main-cap')
    expect(card.verdict).toBe('merge')
    expect(card.evidence?.mutants).toHaveLength(1)
    expect(card.evidence?.mutants[0]?.killed_by).toBe('oracle/test_fee.py::test_fee')
  })

  it('budget_s: once spent no further mutant starts; the rest are not run, never killed', async () => {
    const card = await judge('fix-budget', 'main-budget')
    expect(card.verdict).toBe('merge')
    // The session's mutant (line 8) ran its 1.5 s test; RATE's (at import, one by one
    // after the session) found the budget spent.
    expect(card.evidence?.mutants.map(m => [m.line, m.killed_by, m.not_run])).toEqual([
      [3, null, 'budget'],
      [8, 'oracle/test_fee.py::test_fee', undefined]
    ])
  })

  it('report: the added branch no voting test runs is named with the head’s lines, and merges', async () => {
    const card = await judge('branch', 'main')
    expect(card.verdict).toBe('merge')
    expect(card.evidence).toMatchObject({
      changed_lines: 5,
      covered_lines: 4,
      uncovered: [{ path: 'shop/fee.py', lines: [10] }],
      budget_s: 120
    })
    // (Mutants, once merged, add notices of their own for survivors.)
    const notice = card.reasons.find(
      r => r.rule === 'weak-evidence' && /no passing/.test(r.message)
    )
    expect(notice).toMatchObject({ level: 'notice', path: 'shop/fee.py', line: 10 })
    expect(notice?.message).toBe('changed line 10 runs under no passing voting test')
    expect(weak(card, 'failure')).toEqual([])
  })

  it('enforce: below min_coverage is product with weak-evidence naming the lines', async () => {
    const card = await judge('branch-enforce', 'main-enforce')
    expect(card.verdict).toBe('product')
    const [message] = weak(card, 'failure')
    expect(message).toMatch(/run 4 of the patch's 5 changed lines \(80 %/)
    expect(message).toMatch(/not run: shop\/fee\.py line 10$/)
    const failure = card.reasons.find(r => r.rule === 'weak-evidence' && r.level === 'failure')
    expect(failure).toMatchObject({ path: 'shop/fee.py', line: 10 })
  })

  it('enforce: the honest fix, every line covered, merges', async () => {
    const card = await judge('fix-enforce', 'main-enforce')
    expect(card.verdict).toBe('merge')
    expect(weak(card, 'failure')).toEqual([])
  })

  it('off: no evidence in the scorecard and no weak-evidence reason', async () => {
    const card = await judge('branch-off', 'main-off')
    expect(card.verdict).toBe('merge')
    expect(card.evidence).toBeUndefined()
    // The plan the head's reporter got asks for no coverage (gate_cover.py then traces
    // nothing and sends no cover record: evidence-cover.test.ts).
    expect(lastLog).toContain('watch plan: 1 production file(s) of the patch, for run-time reach')
    expect(card.reasons.filter(r => r.rule === 'weak-evidence')).toEqual([])
    // No extra run: no mutant session, no mutant (the branch test above shows the lines).
    expect(lastLog.filter(l => l.startsWith('mutation:'))).toEqual([])
  })

  it('enforce: coverage that cannot be measured (no reporter in the runner) is an error, never a pass', async () => {
    const card = await judge('fix-other-enforce', 'main-other-enforce')
    expect(card.verdict).toBe('error')
    const failure = card.reasons.find(r => r.level === 'failure')
    expect(failure?.message).toMatch(
      /evidence stage failed: coverage could not be measured: shop\/fee\.py: the head's runner did not load/
    )
  })

  it('report: the same run merges, the problem named in the scorecard and a notice', async () => {
    const card = await judge('fix-other-report', 'main-other-report')
    expect(card.verdict).toBe('merge')
    expect(card.evidence?.problems?.[0]).toMatch(/shop\/fee\.py: the head's runner did not load/)
    expect(card.evidence).toMatchObject({ changed_lines: 2, covered_lines: 0 })
    const notice = card.reasons.find(
      r => r.rule === 'diagnostic' && r.message.startsWith('evidence:')
    )
    expect(notice?.message).toMatch(/the head's runner did not load the gate's reporter/)
  })

  it('the card shows the evidence at a glance, rendered by cmark-gfm', async () => {
    const card = await judge('branch-enforce', 'main-enforce')
    const html = renderGfm(renderMarkdown(card))
    expect(html).toMatch(/Evidence/)
    expect(html).toContain('4 of 5 changed lines run under the locked tests')
    expect(html).toContain('shop/fee.py')
  })
})
