// The pure parts of the runner knowledge and the tripwires: which runner a command runs,
// how a plain command becomes a selecting one, the {tests} forms per runner, where the
// canary goes, and how run records turn into reasons. End-to-end cases with real runners are
// in tripwires.test.ts and reruns-targeted.test.ts.
import { describe, expect, it } from 'vitest'
import {
  asWritten,
  canaryContent,
  planCanary,
  siblingImports,
  takeCanary,
  type Canary,
  type CanaryResult
} from '../src/replay/canary.js'
import { canonicalId, type IdContext } from '../src/replay/ids.js'
import type { RawCase } from '../src/replay/junit.js'
import { detectRunner, selectingCommand, selectionArgs, splitWords } from '../src/replay/runners.js'
import {
  exitMismatch,
  judgeTripwires,
  unexplainedHit,
  type RunRecord
} from '../src/replay/tripwires.js'
import { score, type Observation, type ScoreInput } from '../src/replay/transitions.js'
import type { Plane, WriteSetRow } from '../src/types.js'
import { SUITE_COMMANDS } from './helpers/runners.js'

const votingUnder =
  (dir: string) =>
  (p: string): Plane =>
    p.startsWith(`${dir}/`) ? 'voting' : 'source'

describe('detectRunner', () => {
  it('reads the runner from the command, or takes suite.runner', () => {
    expect(detectRunner({ command: SUITE_COMMANDS.pytest('python3', 'oracle') })).toBe('pytest')
    expect(detectRunner({ command: 'pytest -q --junitxml={junit}' })).toBe('pytest')
    expect(detectRunner({ command: SUITE_COMMANDS.vitest('oracle') })).toBe('vitest')
    expect(detectRunner({ command: 'npx vitest run --reporter=junit' })).toBe('vitest')
    expect(detectRunner({ command: SUITE_COMMANDS.jest('oracle') })).toBe('jest')
    expect(detectRunner({ command: SUITE_COMMANDS.nodeTest('oracle/') })).toBe('node-test')
    expect(detectRunner({ command: 'go test -v ./... 2>&1 | go-junit-report > {junit}' })).toBe(
      'go'
    )
    expect(detectRunner({ command: 'bash oracle/run.sh {junit}' })).toBeNull()
    expect(detectRunner({ command: 'node --reporters=jest-junit x.js' })).toBeNull()
    expect(detectRunner({ command: 'bash oracle/run.sh', runner: 'jest' })).toBe('jest')
    expect(detectRunner({ command: 'pytest', runner: 'other' })).toBeNull()
  })

  it('splits simple commands only: lists, pipes, substitutions and globs are not rewritten', () => {
    expect(splitWords(`A='x y' pytest "a b" c\\ d {junit}`)?.map(w => w.text)).toEqual([
      'A=x y',
      'pytest',
      'a b',
      'c d',
      '{junit}'
    ])
    for (const line of [
      'a && b',
      'a | b',
      'a; b',
      'a $(b)',
      'a `b`',
      'a > f',
      'pytest t/*.py',
      'a\nb'
    ])
      expect(splitWords(line)).toBeNull()
  })
})

describe('selectingCommand', () => {
  it('puts {tests} where the positional paths were, keeping options and their values', () => {
    expect(selectingCommand(SUITE_COMMANDS.vitest('oracle/props'), 'vitest')).toBe(
      'node node_modules/vitest/vitest.mjs run {tests} --reporter=junit --outputFile.junit={junit}'
    )
    expect(selectingCommand(SUITE_COMMANDS.jest('oracle/props web'), 'jest')).toBe(
      'JEST_JUNIT_OUTPUT_FILE={junit} JEST_JUNIT_ADD_FILE_ATTRIBUTE=true node node_modules/jest/bin/jest.js {tests} --ci --reporters=jest-junit'
    )
    expect(
      selectingCommand(
        'python3 -m pytest -p no:cacheprovider oracle -k "not slow" --junitxml={junit}',
        'pytest'
      )
    ).toBe('python3 -m pytest -p no:cacheprovider {tests} -k "not slow" --junitxml={junit}')
    expect(selectingCommand('node --test --test-reporter junit oracle/', 'node-test')).toBe(
      'node --test --test-reporter junit {tests}'
    )
    // No positional: the selection is appended.
    expect(selectingCommand('pytest --junitxml={junit}', 'pytest')).toBe(
      'pytest --junitxml={junit} {tests}'
    )
  })

  it('refuses what it cannot rewrite safely', () => {
    expect(selectingCommand('cd web && npx vitest run', 'vitest')).toBeNull()
    expect(selectingCommand('npx vitest run -t fast', 'vitest')).toBeNull()
    expect(selectingCommand('npx jest --testNamePattern=fast', 'jest')).toBeNull()
    expect(selectingCommand('go test ./...', 'go')).toBeNull()
    expect(selectingCommand('bash run.sh', 'pytest')).toBeNull()
  })
})

describe('selectionArgs: the {tests} forms', () => {
  const ids = ['web/a.test.ts::cart > adds [1+1]', 'web/a.test.ts::total', 'web/b.test.ts::x.y']

  it('pytest and unknown runners: the canonical ids (pytest node ids)', () => {
    expect(selectionArgs('pytest', ['t/test_a.py::TestC::test_x[1-2]'])).toEqual([
      't/test_a.py::TestC::test_x[1-2]'
    ])
    expect(selectionArgs(null, ids)).toEqual(ids)
  })

  it('vitest: the files, then -t with the full names (describe and title joined by a space), escaped and anchored', () => {
    expect(selectionArgs('vitest', ids)).toEqual([
      'web/a.test.ts',
      'web/b.test.ts',
      '-t',
      '^(?:cart adds \\[1\\+1\\]|total|x\\.y)$'
    ])
    const pattern = new RegExp(selectionArgs('vitest', ids)[3] ?? '')
    expect(['cart adds [1+1]', 'total', 'x.y'].every(n => pattern.test(n))).toBe(true)
    expect(['cart adds [11]', 'totals', 'xzy', 'cart total'].some(n => pattern.test(n))).toBe(false)
  })

  it('jest: path patterns and --testNamePattern; node:test: the full name or the leaf title; go: -run', () => {
    expect(selectionArgs('jest', ['web/a.test.js::cart > adds'])).toEqual([
      'web/a\\.test\\.js',
      '--testNamePattern',
      '^(?:cart adds)$'
    ])
    expect(selectionArgs('node-test', ['t/a.test.mjs::cart > adds'])).toEqual([
      '--test-name-pattern=^(?:cart adds|adds)$',
      't/a.test.mjs'
    ])
    expect(selectionArgs('go', ['pkg/x_test.go::TestX/sub', 'pkg/x_test.go::TestY'])).toEqual([
      '^(TestX|TestY)$'
    ])
  })
})

describe('the canary plan', () => {
  /** A deterministic choice: always the first, for exact names in the assertions. */
  const first = (): number => 0

  it('goes beside voting test files, named like them, two written to fail and one to pass', () => {
    const files = ['oracle/b/test_z.py', 'oracle/a/check_test.py', 'src/test_not_voting.py']
    const py = planCanary('pytest', files, votingUnder('oracle'), '', first).plan
    expect(py?.canaries.map(c => [c.path, c.title, c.expect])).toEqual([
      ['oracle/a/check_input_test.py', 'test_handles_empty_input', 'failed'],
      ['oracle/a/check_input_test.py', 'test_handles_large_values', 'passed'],
      ['oracle/b/test_z_input.py', 'test_handles_repeated_keys', 'failed']
    ])
    const vi = planCanary('vitest', ['web/x.spec.cts', 'README.md'], votingUnder('web'), '', first)
    expect(vi.plan?.canaries.map(c => c.path)).toEqual([
      'web/x-input.spec.mts',
      'web/x-input.spec.mts',
      'web/x-input.spec.mts'
    ])
    const jest = planCanary('jest', ['web/__tests__/cart.ts'], votingUnder('web'), '', first)
    expect(jest.plan?.canaries[0]?.path).toBe('web/__tests__/cart-input.ts')
    const node = planCanary('node-test', ['web/cart_x.test.mjs'], votingUnder('web'), '', first)
    expect(node.plan?.canaries[0]?.path).toBe('web/cart_x_input.test.mjs')
  })

  it('carries no token: random plans use plain words only, never a name the base has', () => {
    const files = ['oracle/test_calc.py', 'oracle/test_calc_input.py', 'oracle/test_io.py']
    for (let i = 0; i < 50; i++) {
      const plan = planCanary('pytest', files, votingUnder('oracle')).plan
      for (const c of plan?.canaries ?? []) {
        expect(c.path).toMatch(/^oracle\/test_(calc|io)[a-z_]*_[a-z]+\.py$/)
        expect(files).not.toContain(c.path)
        expect(c.title).toMatch(/^test_[a-z_]+$/)
        expect(`${c.path} ${c.title}`).not.toMatch(/canary|og_|[0-9a-f]{6}/)
      }
      expect(new Set(plan?.canaries.map(c => c.title)).size).toBe(3)
    }
  })

  it("repeats the sibling file's imports and fails through the framework's assertions", () => {
    const sibling =
      'import os\nfrom app import calc\nfrom app.util import (\n  x,\n)\n\ndef test_a():\n    pass\n'
    expect(siblingImports('pytest', sibling)).toEqual(['import os', 'from app import calc'])
    const canary = {
      path: 'o/test_a_x.py',
      title: 'test_keeps_zero',
      beside: 'o/test_a.py',
      a: 3,
      b: 4
    }
    const fail = canaryContent(
      'pytest',
      [{ ...canary, expect: 'failed' }],
      ['from app import calc']
    )
    expect(fail).toBe(
      'from app import calc\n\n\ndef test_keeps_zero():\n    left, right = 3, 4\n    assert left + right == 8\n'
    )
    const pass = canaryContent('pytest', [{ ...canary, expect: 'passed' }], [])
    expect(pass).toContain('assert left + right == 7')
    const js =
      "import { describe, expect, test } from 'vitest'\nimport { absval } from '../../lib/calc.mjs'\n"
    expect(siblingImports('vitest', js)).toEqual(["import { absval } from '../../lib/calc.mjs'"])
    expect(
      canaryContent('vitest', [{ ...canary, title: 'keeps zero', expect: 'failed' }], [])
    ).toBe(
      'import { expect, test } from \'vitest\'\n\ntest("keeps zero", () => {\n  const [left, right] = [3, 4]\n  expect(left + right).toBe(8)\n})\n'
    )
  })

  it('is not armed without a known runner or a voting test file that fits', () => {
    expect(planCanary(null, ['oracle/test_a.py'], votingUnder('oracle'))).toMatchObject({
      plan: null,
      why: expect.stringMatching(/no runner the gate knows/)
    })
    expect(planCanary('pytest', ['oracle/helpers.py'], votingUnder('oracle')).plan).toBeNull()
    expect(planCanary('go', ['oracle/x_test.go'], votingUnder('oracle')).plan).toBeNull()
    // A command that stops at its first failure would stop at a canary.
    for (const command of [
      'pytest -x oracle',
      'pytest -qx oracle',
      'pytest --maxfail=2',
      'npx jest --bail',
      'npx vitest run --bail=1'
    ])
      expect(
        planCanary('pytest', ['oracle/test_a.py'], votingUnder('oracle'), command)
      ).toMatchObject({
        plan: null,
        why: expect.stringMatching(/stops at the first failure/)
      })
    expect(
      planCanary(
        'pytest',
        ['oracle/test_a.py'],
        votingUnder('oracle'),
        'pytest -p xdist -k x oracle'
      ).plan
    ).not.toBeNull()
  })

  it('their cases are taken out of the report, each with what the report said about it', () => {
    const plan = {
      runner: 'pytest' as const,
      canaries: [
        {
          path: 'oracle/test_x_zero.py',
          title: 'test_keeps_zero',
          expect: 'failed' as const,
          beside: 'oracle/test_x.py',
          a: 1,
          b: 2
        },
        {
          path: 'oracle/test_x_zero.py',
          title: 'test_keeps_order',
          expect: 'passed' as const,
          beside: 'oracle/test_x.py',
          a: 1,
          b: 2
        }
      ]
    }
    const c = (classname: string, name: string, outcome: RawCase['outcome']): RawCase => ({
      classname,
      name,
      suites: [],
      outcome,
      flaky: false
    })
    const real = c('oracle.test_x', 'test_keeps_zero', 'passed') // same name, other file
    const report = {
      files: [],
      cases: [
        real,
        c('oracle.test_x_zero', 'test_keeps_zero', 'failed'),
        c('oracle.test_x_zero', 'test_keeps_order', 'passed')
      ]
    }
    const taken = takeCanary(report, plan, '/wt')
    expect(taken.report.cases).toEqual([real])
    expect(taken.results.map(r => [r.canary.title, r.outcome, asWritten(r)])).toEqual([
      ['test_keeps_zero', 'failed', true],
      ['test_keeps_order', 'passed', true]
    ])
    // A collection error of the canary file stands for each of its canaries.
    const broken = takeCanary(
      { files: [], cases: [c('', 'oracle.test_x_zero', 'error')] },
      plan,
      '/wt'
    )
    expect(broken.results.map(r => [r.outcome, asWritten(r)])).toEqual([
      ['error', true],
      ['error', false]
    ])
    expect(
      takeCanary({ files: [], cases: [real] }, plan, '/wt').results.map(r => r.outcome)
    ).toEqual(['absent', 'absent'])
  })
})

describe('tripwire judges', () => {
  const rec = (r: Partial<RunRecord>): RunRecord => ({
    attempt: 0,
    exitCode: 0,
    signal: null,
    cases: 3,
    failing: 0,
    passed: 3,
    ...r
  })
  const failing: Canary = {
    path: 'o/test_k_zero.py',
    title: 'test_keeps_zero',
    expect: 'failed',
    beside: 'o/test_k.py',
    a: 1,
    b: 2
  }
  const passing: Canary = { ...failing, title: 'test_keeps_order', expect: 'passed' }
  const results = (
    f: CanaryResult['outcome'],
    p: CanaryResult['outcome'] = 'passed'
  ): CanaryResult[] => [
    { canary: failing, outcome: f },
    { canary: passing, outcome: p }
  ]

  it('exit status vs report, with the runners\' "no tests" codes', () => {
    expect(exitMismatch(rec({ exitCode: 1, failing: 1 }))).toBeNull()
    expect(exitMismatch(rec({ exitCode: 0 }))).toBeNull()
    expect(exitMismatch(rec({ exitCode: 1 }))).toBe('exited with status 1')
    expect(exitMismatch(rec({ exitCode: null, signal: 'SIGKILL' }))).toBe('was killed by SIGKILL')
    // pytest exits 5 (vitest and jest 1) when it collected nothing: honest with an empty report.
    expect(exitMismatch(rec({ exitCode: 5, cases: 0, passed: 0 }))).toBeNull()
    expect(exitMismatch(rec({ exitCode: 1, cases: 0, passed: 0 }))).toBeNull()
    // A selection that matched nothing: every case skipped, vitest exits 1.
    expect(exitMismatch(rec({ exitCode: 1, cases: 4, passed: 0 }))).toBeNull()
    // ...not with tests in the report, nor when the only cases left are passing canaries.
    expect(exitMismatch(rec({ exitCode: 5 }))).toBe('exited with status 5')
    expect(
      exitMismatch(rec({ exitCode: 1, cases: 0, passed: 0, canaries: results('passed') }))
    ).toBe('exited with status 1')
    // A canary written to fail and reported failed explains a non-zero exit; one written to
    // pass, or one written to fail and reported otherwise, does not.
    expect(exitMismatch(rec({ exitCode: 1, canaries: results('failed') }))).toBeNull()
    expect(exitMismatch(rec({ exitCode: 1, canaries: results('passed', 'failed') }))).toBe(
      'exited with status 1'
    )
  })

  it('on the base a tripwire is a gate error (the instrument is untrustworthy), on the head a reason', () => {
    const canary = { plan: null, why: 'no runner' } as const
    const verdict = judgeTripwires({
      base: [rec({ exitCode: 2 })],
      head: [rec({ exitCode: 2, attempt: 1 })],
      canary,
      policyPath: 'p.yml'
    })
    expect(verdict.baseProblems).toEqual([
      expect.stringMatching(/exited with status 2 in the first run on base/)
    ])
    expect(verdict.reasons.map(r => [r.rule, r.level])).toEqual([
      ['report-mismatch', 'failure'],
      ['diagnostic', 'notice']
    ])
    expect(verdict.reasons[0]?.message).toMatch(/in rerun 1 on head/)
  })

  it('the canaries: armed only when the base reported them as written; tampering only on the head', () => {
    const plan = { runner: 'pytest' as const, canaries: [failing, passing] }
    const judge = (base: Partial<RunRecord>, head: Partial<RunRecord>) =>
      judgeTripwires({
        base: [rec({ failing: 1, ...base })],
        head: [rec({ failing: 1, ...head })],
        canary: { plan },
        policyPath: 'p'
      })
    expect(
      judge({ canaries: results('absent', 'absent') }, { canaries: results('passed') }).reasons
    ).toEqual([
      expect.objectContaining({
        level: 'notice',
        message: expect.stringMatching(/did not collect o\/test_k_zero\.py on the base/)
      })
    ])
    expect(judge({ canaries: results('passed') }, {}).baseProblems).toHaveLength(1)
    expect(judge({ canaries: results('skipped') }, {}).baseProblems).toHaveLength(1)
    expect(judge({ canaries: results('failed') }, { canaries: results('failed') }).reasons).toEqual(
      []
    )
    expect(
      judge({ canaries: results('failed') }, { canaries: results('skipped') }).reasons.map(
        r => r.rule
      )
    ).toEqual(['runner-tampered'])
    // A canary written to pass that fails (the code it imports is broken) is no evidence.
    expect(
      judge({ canaries: results('failed', 'error') }, { canaries: results('failed', 'error') })
    ).toEqual({ reasons: [], baseProblems: [] })
    expect(
      judge(
        { canaries: results('failed') },
        { canaries: results('absent', 'absent'), failing: 0 }
      ).reasons.map(r => r.rule)
    ).toEqual(['runner-tampered', 'runner-tampered'])
    // Gone while nothing else passed (a collection error), or beside a real failure (a
    // runner that stops early): no evidence of tampering.
    expect(
      judge(
        { canaries: results('failed') },
        { canaries: results('absent', 'absent'), passed: 0, failing: 0 }
      ).reasons
    ).toEqual([])
    expect(
      judge({ canaries: results('failed') }, { canaries: results('absent', 'absent'), failing: 1 })
        .reasons
    ).toEqual([])
  })

  it('unexplained hits: a source write (a rename out of source included) explains them', () => {
    const row = (path: string, plane: Plane, previous?: string): WriteSetRow => ({
      path,
      status: previous ? 'renamed' : 'modified',
      plane,
      action: 'continue',
      ...(previous ? { previous_path: previous } : {})
    })
    const planeOf = (p: string): Plane => (p.startsWith('tests/') ? 'in_diff' : 'source')
    expect(unexplainedHit([row('tests/t.py', 'in_diff')], ['o::a'], planeOf, 'p')?.rule).toBe(
      'unexplained-hit'
    )
    expect(unexplainedHit([row('tests/t.py', 'in_diff')], [], planeOf, 'p')).toBeNull()
    expect(unexplainedHit([row('app/x.py', 'source')], ['o::a'], planeOf, 'p')).toBeNull()
    expect(
      unexplainedHit([row('tests/x.py', 'in_diff', 'app/x.py')], ['o::a'], planeOf, 'p')
    ).toBeNull()
  })
})

describe('scoring: what is no longer silent', () => {
  const obs = (
    id: string,
    outcomes: Observation['outcomes'],
    extra: Partial<Observation> = {}
  ): Observation => ({
    id,
    file: id.split('::')[0] ?? null,
    outcomes,
    runnerFlaky: false,
    ...extra
  })
  const input = (
    base: Observation[],
    head: Observation[],
    extra: Partial<ScoreInput> = {}
  ): ScoreInput => ({
    base: new Map(base.map(o => [o.id, o])),
    head: new Map(head.map(o => [o.id, o])),
    planeOf: p =>
      p.startsWith('oracle/') ? 'voting' : p.startsWith('tests/') ? 'in_diff' : 'source',
    classOf: () => null,
    live: new Map(),
    policyPath: 'p.yml',
    written: new Set(['tests/t.test.js']),
    ...extra
  })

  it('a test the patch wrote that fails on head is a warning naming it', () => {
    const scored = score(
      input(
        [obs('oracle/a.test.js::a', ['failed'])],
        [
          obs('oracle/a.test.js::a', ['passed']),
          obs('tests/t.test.js::mine', ['failed'], { message: 'boom' })
        ]
      )
    )
    expect(scored.reasons).toEqual([
      expect.objectContaining({
        rule: 'diagnostic',
        level: 'warning',
        path: 'tests/t.test.js',
        message: expect.stringMatching(
          /^tests\/t\.test\.js::mine, a test the patch wrote, fails on head: boom/
        )
      })
    ])
  })

  it('a provisional mapping (a title found only in a file the head wrote) never hides a failure', () => {
    const v = obs('oracle/a.test.js::a', ['passed'])
    const failing = obs('tests/t.test.js::computed title', ['failed'], { provisional: true })
    const scored = score(input([v], [v, failing]))
    expect(scored.reasons.map(r => [r.rule, r.level])).toEqual([['oracle-failed', 'failure']])
    const passing = obs('tests/t.test.js::computed title', ['passed'], { provisional: true })
    expect(score(input([v], [v, passing])).reasons).toEqual([])
  })

  it('incidental outcomes on the base are a warning and leave the vote alone', () => {
    const u = obs('oracle/a.test.js::u', ['passed'], { incidental: ['failed'] })
    const scored = score(
      input([u], [obs('oracle/a.test.js::u', ['passed'])], { today: '2026-06-01' })
    )
    expect(scored.transitions.pass_to_pass).toBe(1)
    expect(scored.reasons).toEqual([
      expect.objectContaining({
        rule: 'flaky-oracle',
        level: 'warning',
        message: expect.stringContaining('first_seen: "2026-06-01"')
      })
    ])
    // The same incidental outcome as the first run is no flake at all.
    const same = obs('oracle/a.test.js::u', ['passed'], { incidental: ['passed'] })
    expect(score(input([same], [obs('oracle/a.test.js::u', ['passed'])])).reasons).toEqual([])
  })
})

describe('canonicalId', () => {
  it('one form for JS/TS tests: path::Describe > Inner > title', () => {
    expect(canonicalId('web/cart.test.ts', ['cart', 'totals', 'adds tax'])).toBe(
      'web/cart.test.ts::cart > totals > adds tax'
    )
    expect(canonicalId('web/cart.test.ts', ['top'])).toBe('web/cart.test.ts::top')
  })

  it("jest reports written with the gate's templates take the same form", () => {
    const ctx: IdContext = {
      root: '/wt',
      files: ['web/a.test.js'],
      planeOf: () => 'voting',
      read: () => null,
      runner: 'jest'
    }
    const c = (classname: string, name: string): RawCase => ({
      classname,
      name,
      file: 'web/a.test.js',
      suites: [],
      outcome: 'passed',
      flaky: false
    })
    expect(canonicalId(c('cart > totals', 'adds tax'), ctx).id).toBe(
      'web/a.test.js::cart > totals > adds tax'
    )
    expect(canonicalId(c('', 'top'), ctx).id).toBe('web/a.test.js::top')
  })

  it("node:test titles map to the merge base's test files; one found only in a head-written file is provisional", () => {
    const files: Record<string, string> = {
      'oracle/a.test.mjs': "test('known', () => {})",
      'lib/trap.mjs': "const t = 'computed 3'",
      'tests/new.test.mjs': "test('computed 3', () => {})"
    }
    const ctx: IdContext = {
      root: '/wt',
      files: Object.keys(files).sort(),
      planeOf: p =>
        p.startsWith('oracle/') ? 'voting' : p.startsWith('tests/') ? 'in_diff' : 'source',
      read: p => files[p] ?? null,
      literalFiles: ['oracle/a.test.mjs', 'lib/trap.mjs']
    }
    const c = (name: string): RawCase => ({
      classname: 'test',
      name,
      suites: [],
      outcome: 'failed',
      flaky: false
    })
    expect(canonicalId(c('known'), ctx)).toEqual({
      id: 'oracle/a.test.mjs::known',
      file: 'oracle/a.test.mjs'
    })
    // Never production code (lib/trap.mjs spells it); the head-written test file only provisionally.
    expect(canonicalId(c('computed 3'), ctx)).toEqual({
      id: 'tests/new.test.mjs::computed 3',
      file: 'tests/new.test.mjs',
      provisional: true
    })
  })
})
