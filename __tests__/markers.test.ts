// skip-marker end to end over a real git repository: added lines from the diff, test files
// of the write set, coverage by live ledger rows, lint modes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runFacts, type GateContext } from '../src/context.js'
import { Git } from '../src/git/git.js'
import { ledgerFromText, type LedgerState } from '../src/ledger/index.js'
import { runLints } from '../src/lints/index.js'
import { parsePolicy } from '../src/policy/load.js'
import type { ChangeStatus } from '../src/types.js'
import { classifyChange } from '../src/writeset/classify.js'
import type { ClassifiedRow } from '../src/writeset/index.js'
import { compilePlanes } from '../src/writeset/planes.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

const TODAY = '2026-03-10'

const BASE_FILES = {
  'tests/test_cart.py':
    'import pytest\n\n\ndef test_total():\n    assert 1\n\n\n@pytest.mark.skip\ndef test_legacy():\n    assert 0\n',
  'web/cart.test.ts':
    "import { it, expect } from 'vitest'\n\nit('adds', () => {\n  expect(1).toBe(1)\n})\n",
  'cart/cart_test.go': 'package cart\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n}\n',
  'src/test/java/CartTest.java': 'class CartTest {\n    @Test\n    void total() {}\n}\n',
  'src/app.py': 'def run():\n    return 1\n',
  'drafts/check.py': 'def check():\n    return 1\n'
}

const HEAD_FILES = {
  'tests/test_cart.py':
    'import pytest\n\n\n@pytest.mark.xfail\ndef test_total():\n    assert 1\n\n\ndef test_legacy():\n    assert 0\n',
  'web/cart.test.ts':
    "import { it, expect } from 'vitest'\n\nit.skip('adds', () => {\n  expect(1).toBe(1)\n})\n",
  'cart/cart_test.go':
    'package cart\n\nimport "testing"\n\nfunc TestTotal(t *testing.T) {\n\tt.Skip("flaky")\n}\n',
  'src/test/java/CartTest.java':
    'class CartTest {\n    @Test\n    @Disabled\n    void total() {}\n}\n',
  // Not a test file: a production helper may call pytest.skip without being a suppression.
  'src/app.py': 'import pytest\ndef run():\n    pytest.skip("x")\n    return 1\n',
  // On the drafts plane though not test-like by name: still a test file.
  'drafts/check.py': 'import pytest\n@pytest.mark.skip\ndef check():\n    return 1\n'
}

const EXPECTED = [
  'cart/cart_test.go:6 TestTotal',
  'drafts/check.py:2 check',
  'src/test/java/CartTest.java:3 total',
  'tests/test_cart.py:4 test_total',
  'web/cart.test.ts:3 adds'
]

function ledgerYaml(rows: Array<{ id: string; test: string; expires_on: string }>): string {
  return `version: 1\nentries:\n${rows
    .map(
      r =>
        `  - {id: ${r.id}, test: "${r.test}", cause: order, reason: r, owner: alice, first_seen: "2026-03-01", expires_on: "${r.expires_on}", max_runs: 2}\n`
    )
    .join('')}`
}

/** The skip-marker lint alone, through the lints' registry (its mode decides its level). */
const skipMarkers = (ctx: GateContext, ledger: LedgerState) =>
  runLints(ctx, ledger, ['skip-marker'])

describe('skip-marker lint', () => {
  const repo = new TestRepo()
  let base = ''
  let head = ''
  let writeSet: ClassifiedRow[] = []

  beforeAll(() => {
    repo.write(BASE_FILES)
    base = repo.commit('base')
    repo.write(HEAD_FILES)
    head = repo.commit('head adds markers and removes one')
  })
  afterAll(() => repo.cleanup())

  function ctx(extra = ''): GateContext {
    const policy = parsePolicy(policyYaml(extra), '.github/oracle-gate.yml')
    const planes = compilePlanes(policy)
    const statuses: Record<string, ChangeStatus> = { A: 'added', M: 'modified', D: 'deleted' }
    writeSet = repo
      .git('diff', '--name-status', base, head)
      .trim()
      .split('\n')
      .map(line => {
        const [status, path] = line.split('\t') as [string, string]
        const change = { path, status: statuses[status[0]!] ?? 'modified' }
        return {
          ...change,
          plane: planes.planeOf(path),
          action: 'continue',
          classification: classifyChange(change, { planes, ungovernedTest: 'off' })
        }
      })
    return {
      ...runFacts(new Git(repo.dir, process.env), policy),
      repoDir: repo.dir,
      git: new Git(repo.dir, process.env),
      policy,
      mergeBase: base,
      head,
      today: TODAY,
      log: memoryLogger(),
      writeSet,
      childEnv: {},
      tempDir: repo.dir
    }
  }

  const ledger = (rows: Array<{ id: string; test: string; expires_on: string }>): LedgerState =>
    ledgerFromText(ledgerYaml(rows), 'oracle/flake_ledger.yml', TODAY, 30)

  const summary = (reasons: Awaited<ReturnType<typeof skipMarkers>>): string[] =>
    reasons
      .map(r => `${r.path}:${r.line} ${/ to \S+::(.+?) and /.exec(r.message)?.[1] ?? r.message}`)
      .sort()

  it('fires once per added marker in each language, on test files of any plane, with path and line', async () => {
    const reasons = await skipMarkers(ctx(), ledger([]))
    expect(summary(reasons)).toEqual(EXPECTED)
    for (const r of reasons) {
      expect(r).toMatchObject({ rule: 'skip-marker', level: 'failure' })
      expect(r.message).toMatch(/no live ledger row covers it/)
    }
    // The removed @pytest.mark.skip on test_legacy and the production file are not reported.
    expect(reasons.some(r => r.message.includes('test_legacy') || r.path === 'src/app.py')).toBe(
      false
    )
  })

  it('is quiet for a test a live row covers, and fires again when that row has expired', async () => {
    const covered = ledger([
      { id: 'F-1', test: 'tests/test_cart.py::test_total', expires_on: TODAY },
      { id: 'F-2', test: 'web/cart.test.ts::adds', expires_on: '2026-03-20' },
      { id: 'F-3', test: 'cart/cart_test.go::TestTotal', expires_on: '2026-03-09' }
    ])
    expect(covered.live.size).toBe(2)
    const reasons = await skipMarkers(ctx(), covered)
    expect(summary(reasons)).toEqual([
      'cart/cart_test.go:6 TestTotal',
      'drafts/check.py:2 check',
      'src/test/java/CartTest.java:3 total'
    ])
    const go = reasons.find(r => r.path === 'cart/cart_test.go')!
    expect(go.message).toContain('its ledger row "F-3" expired on 2026-03-09')
  })

  it('honours lints.skip-marker: off and warn', async () => {
    expect(await skipMarkers(ctx('lints:\n  skip-marker: off\n'), ledger([]))).toEqual([])
    const warned = await skipMarkers(ctx('lints:\n  skip-marker: warn\n'), ledger([]))
    expect(summary(warned)).toEqual(EXPECTED)
    expect(new Set(warned.map(r => r.level))).toEqual(new Set(['warning']))
  })

  it('stays quiet, in every language, when the markers are unchanged or removed', async () => {
    // From the head (markers present) to a commit that only appends ordinary lines.
    repo.checkout(head)
    repo.write({
      'tests/test_cart.py':
        HEAD_FILES['tests/test_cart.py'] + '\n\ndef test_more():\n    assert 3\n',
      'web/cart.test.ts': HEAD_FILES['web/cart.test.ts'] + "\nit('more', () => {})\n",
      'cart/cart_test.go': HEAD_FILES['cart/cart_test.go'] + '\nfunc TestMore(t *testing.T) {\n}\n',
      'src/test/java/CartTest.java': HEAD_FILES['src/test/java/CartTest.java'].replace(
        '}\n',
        '    @Test\n    void more() {}\n}\n'
      ),
      'drafts/check.py': HEAD_FILES['drafts/check.py'] + '\ndef check_more():\n    return 2\n'
    })
    const unchanged = repo.commit('more tests, markers untouched')
    expect(await skipMarkers({ ...ctx(), mergeBase: head, head: unchanged }, ledger([]))).toEqual(
      []
    )
    // Back to the base files, minus the base's own marker (restoring it would add it): every
    // marker removed.
    repo.write({
      ...BASE_FILES,
      'tests/test_cart.py': BASE_FILES['tests/test_cart.py'].replace('@pytest.mark.skip\n', '')
    })
    const removed = repo.commit('markers removed')
    expect(
      await skipMarkers({ ...ctx(), mergeBase: unchanged, head: removed }, ledger([]))
    ).toEqual([])
    repo.checkout(head)
  })

  it('never lets a row cover .only, which silences the other tests', async () => {
    repo.checkout(head)
    repo.write({
      'web/cart.test.ts':
        "import { it, expect } from 'vitest'\n\nit.only('adds', () => {\n  expect(1).toBe(1)\n})\n"
    })
    const only = repo.commit('focus')
    const c = { ...ctx(), head: only }
    const reasons = await skipMarkers(
      c,
      ledger([{ id: 'F-2', test: 'web/cart.test.ts::adds', expires_on: '2026-03-20' }])
    )
    const web = reasons.filter(r => r.path === 'web/cart.test.ts')
    expect(web).toHaveLength(1)
    expect(web[0]!.message).toMatch(
      /it\.only on web\/cart\.test\.ts::adds silences every other test/
    )
  })
})
