import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Plane } from '../src/types.js'
import { canonicalId, type IdContext } from '../src/replay/ids.js'
import { parseText, readReport, ReportError, type RawCase } from '../src/replay/junit.js'

const FIXTURES = join(import.meta.dirname, 'fixtures', 'junit')

/** An id context over an in-memory file tree. */
function tree(
  files: Record<string, string>,
  extra: Partial<IdContext> = {},
  planeOf: (p: string) => Plane = () => 'other'
): IdContext {
  return {
    root: '/wt',
    files: Object.keys(files).sort(),
    planeOf,
    read: p => files[p] ?? null,
    ...extra
  }
}

async function ids(report: string, ctx: IdContext): Promise<Record<string, string>> {
  const { cases } = await readReport(join(FIXTURES, report))
  return Object.fromEntries(cases.map(c => [canonicalId(c, ctx).id, c.outcome]))
}

describe('pytest', () => {
  const ctx = tree({ 'pkg/tests/test_calc.py': '', 'pkg/tests/test_broken.py': '' })
  const expected = {
    'pkg/tests/test_broken.py::<collection>': 'error',
    'pkg/tests/test_calc.py::TestAdd::test_ok': 'passed',
    'pkg/tests/test_calc.py::TestAdd::test_param[1-2]': 'passed',
    'pkg/tests/test_calc.py::TestAdd::test_param[\\xfc-\\xdf]': 'passed',
    'pkg/tests/test_calc.py::TestAdd::test_param[[x]-y::z]': 'passed',
    'pkg/tests/test_calc.py::TestAdd::TestNested::test_deep': 'passed',
    'pkg/tests/test_calc.py::test_fail': 'failed',
    'pkg/tests/test_calc.py::test_error': 'error',
    'pkg/tests/test_calc.py::test_skip': 'skipped',
    'pkg/tests/test_calc.py::test_xfail': 'skipped'
  }

  it('xunit1 (file attribute) maps to pytest node ids', async () => {
    expect(await ids('pytest-xunit1.xml', ctx)).toEqual(expected)
  })

  it('xunit2 (no file attribute) finds the module by the longest existing dotted prefix', async () => {
    expect(await ids('pytest-xunit2.xml', ctx)).toEqual(expected)
  })

  it('keeps failure messages with entities decoded', async () => {
    const { cases } = await readReport(join(FIXTURES, 'pytest-xunit1.xml'))
    expect(cases.find(c => c.name === 'test_fail')?.message).toBe(
      'AssertionError: one is not two & <three>\nassert 1 == 2'
    )
  })

  it('xunit2 without the file in the worktree falls back to classname::name with no file', async () => {
    const { cases } = await readReport(join(FIXTURES, 'pytest-xunit2.xml'))
    const ok = cases.find(c => c.name === 'test_ok') as RawCase
    expect(canonicalId(ok, tree({}))).toEqual({
      id: 'pkg.tests.test_calc.TestAdd::test_ok',
      file: null
    })
  })
})

describe('JavaScript runners', () => {
  it('vitest: classname is the file, name the describe chain', async () => {
    expect(await ids('vitest.xml', tree({ 'src/math.test.ts': '' }))).toEqual({
      'src/math.test.ts::math <ops> > adds ✓ [1,2]': 'passed',
      'src/math.test.ts::math <ops> > nested > fails': 'failed',
      'src/math.test.ts::math <ops> > skipped': 'skipped',
      'src/math.test.ts::math <ops> > todo': 'skipped',
      'src/math.test.ts::top level ü': 'passed'
    })
  })

  it('jest-junit: file attribute, HTML entities, unknown entities kept as text', async () => {
    const { cases } = await readReport(join(FIXTURES, 'jest-junit.xml'))
    const ctx = tree({})
    expect(Object.fromEntries(cases.map(c => [canonicalId(c, ctx).id, c.outcome]))).toEqual({
      'src/__tests__/cart.test.js::Cart totals adds items': 'passed',
      'src/__tests__/cart.test.js::Cart totals rounds € amounts [half-even]': 'failed',
      'src/__tests__/cart.test.js::Cart totals skips empty carts': 'skipped',
      'src/__tests__/cart.test.js::Cart totals handles "quotes" & ampersands': 'passed',
      'src/__tests__/util.test.js::util › slug': 'passed'
    })
  })

  it('node:test: the describe chain is the name, the file is found by the title literal, voting files first', async () => {
    const files = {
      'test/a.test.mjs': "describe('math & <stuff>', () => {})\ntest('top level', () => {})",
      'test/b.test.mjs': "test('b one', () => {})",
      'tests/decoy.test.mjs': "test('top level', () => {}) // same title in a file of the patch"
    }
    const planeOf = (p: string): Plane => (p.startsWith('test/') ? 'voting' : 'in_diff')
    expect(await ids('node-test.xml', tree(files, {}, planeOf))).toEqual({
      'test/a.test.mjs::math & <stuff> > adds [1, 2] → 3': 'passed',
      'test/a.test.mjs::math & <stuff> > fails': 'failed',
      'test/a.test.mjs::math & <stuff> > skipped': 'skipped',
      'test/a.test.mjs::math & <stuff> > todo': 'skipped',
      'test/a.test.mjs::top level': 'passed',
      'test/b.test.mjs::b one': 'passed'
    })
  })

  it("node:test streamed by the gate's reporter: the named file decides, the chain is the name; a file outside the worktree falls back to the title", () => {
    const files = {
      'test/a.test.mjs': "test('same', () => {})",
      'test/b.test.mjs': "test('same', () => {})"
    }
    const ctx = tree(files, { runner: 'node-test' })
    const streamed = (file: string, suites: string[] = []): RawCase => ({
      classname: 'test',
      name: 'same',
      suites,
      outcome: 'passed',
      flaky: false,
      file
    })
    expect(canonicalId(streamed('test/b.test.mjs'), ctx)).toEqual({
      id: 'test/b.test.mjs::same',
      file: 'test/b.test.mjs'
    })
    expect(canonicalId(streamed('test/b.test.mjs', ['outer', 'inner']), ctx).id).toBe(
      'test/b.test.mjs::outer > inner > same'
    )
    // Relative to a subfolder the suite ran from: not a file of the worktree.
    expect(canonicalId(streamed('b.test.mjs'), ctx)).toEqual({
      id: 'test/a.test.mjs::same',
      file: 'test/a.test.mjs'
    })
  })

  it('node:test: a title found in no file has no file', async () => {
    const { cases } = await readReport(join(FIXTURES, 'node-test.xml'))
    const top = cases.find(c => c.name === 'top level') as RawCase
    expect(canonicalId(top, tree({ 'x.test.js': "test('other')" }))).toEqual({
      id: 'test::top level',
      file: null
    })
  })
})

describe('Go and JVM', () => {
  it('gotestsum / go-junit-report: package path → directory, file by the func declaration', async () => {
    const ctx = tree(
      {
        'go.mod': 'module example.com/shop\n',
        'internal/cart/cart_test.go':
          'func TestTotal(t *testing.T) {}\nfunc TestRound(t *testing.T) {}\nfunc TestSlow(t *testing.T) {}',
        'internal/cart/other_test.go': 'func TestOther(t *testing.T) {}',
        'main_test.go': 'func TestMain_Smoke(t *testing.T) {}'
      },
      { goModule: 'example.com/shop' }
    )
    expect(await ids('gotestsum.xml', ctx)).toEqual({
      'internal/cart/cart_test.go::TestTotal': 'passed',
      'internal/cart/cart_test.go::TestTotal/empty_cart': 'passed',
      'internal/cart/cart_test.go::TestRound': 'failed',
      'internal/cart/cart_test.go::TestSlow': 'skipped',
      'main_test.go::TestMain_Smoke': 'passed'
    })
  })

  it('Maven Surefire: a directory of TEST-*.xml, nested classes, flakyFailure, module of the report dir', async () => {
    const report = await readReport(join(FIXTURES, 'surefire'))
    expect(report.files.map(f => f.split('/').pop())).toEqual([
      'TEST-com.example.cart.CartTest$Nested.xml',
      'TEST-com.example.cart.CartTest.xml'
    ])
    const ctx = tree(
      {
        'api/src/test/java/com/example/cart/CartTest.java': '',
        'shop/src/test/java/com/example/cart/CartTest.java': ''
      },
      { reportDir: 'shop/target/surefire-reports' }
    )
    const mapped = report.cases.map(c => [canonicalId(c, ctx).id, c.outcome, c.flaky])
    expect(mapped).toEqual([
      ['shop/src/test/java/com/example/cart/CartTest.java::Nested::innerCase', 'failed', false],
      ['shop/src/test/java/com/example/cart/CartTest.java::addsItems', 'passed', false],
      ['shop/src/test/java/com/example/cart/CartTest.java::roundsAmount(int)[1]', 'error', false],
      ['shop/src/test/java/com/example/cart/CartTest.java::skipsEmpty', 'skipped', false],
      ['shop/src/test/java/com/example/cart/CartTest.java::sometimes', 'passed', true]
    ])
  })
})

describe('structure and errors', () => {
  it('nested suites inherit the file; error beats failure', async () => {
    expect(await ids('nested-suites.xml', tree({}))).toEqual({
      'tests/outer_test.py::test_a': 'passed',
      'tests/outer_test.py::test_b': 'error',
      'tests/outer_test.py::test_c': 'passed'
    })
  })

  it('absolute file attributes are made relative to the worktree', () => {
    const [c] = parseText(
      '<testsuite><testcase classname="t" name="n" file="/wt/a/b.test.js"/></testsuite>'
    )
    expect(canonicalId(c as RawCase, tree({})).id).toBe('a/b.test.js::n')
  })

  it('a truncated report is unreadable', async () => {
    await expect(readReport(join(FIXTURES, 'truncated.xml'))).rejects.toBeInstanceOf(ReportError)
  })

  it('a missing report, an empty directory and a non-JUnit document are errors', async () => {
    await expect(readReport(join(FIXTURES, 'nope.xml'))).rejects.toThrow(/no report/)
    await expect(readReport(join(FIXTURES, '..', '..', 'helpers'))).rejects.toThrow(/no .xml file/)
    expect(() => parseText('<html><body/></html>')).toThrow(/no <testsuites>/)
    expect(() => parseText('')).toThrow(ReportError)
  })

  it('a report with zero test cases is readable and empty', () => {
    expect(
      parseText('<testsuites name="pytest tests"><testsuite name="pytest" tests="0"/></testsuites>')
    ).toEqual([])
  })
})
