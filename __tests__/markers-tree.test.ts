// skip-marker on the JS/TS syntax tree: each way of spelling a suppression that a line
// pattern misses fires, and the honest code that merely looks alike (a variable named skip,
// an options object of another library, a helper that does not skip) stays quiet.
import { afterAll, describe, expect, it } from 'vitest'
import { runFacts, type GateContext } from '../src/context.js'
import { Git } from '../src/git/git.js'
import { AddedLinesReader, MAX_DIFF_HEADER_BYTES, parseUnifiedDiff } from '../src/git/hunks.js'
import { EMPTY_LEDGER } from '../src/ledger/index.js'
import { runLints } from '../src/lints/index.js'
import { helperExports, scanFile, type HelperResolver } from '../src/lints/skip-marker/scan.js'
import { parsePolicy } from '../src/policy/load.js'
import { buildWriteSet } from '../src/writeset/index.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

/** Lines of `head` that are not in `base` (by content): a stand-in for the diff's added lines. */
function addedVs(base: string | null, head: string): number[] {
  const before = new Set((base ?? '').split('\n'))
  return head
    .split('\n')
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => !before.has(l))
    .map(([, n]) => n)
}

async function scan(
  head: string,
  base: string | null = null,
  resolve?: HelperResolver,
  path = 'web/cart.test.ts'
): Promise<string[]> {
  const findings = await scanFile(path, 'js', head, base, addedVs(base, head), resolve)
  return findings.map(
    f => `${f.line} ${f.label} ${f.unit.ids[0]}${f.silencesOthers ? ' (silences others)' : ''}`
  )
}

const T = 'web/cart.test.ts'

describe('skip-marker on the syntax tree: firing', () => {
  it('follows aliases of the test functions, whatever the new name', async () => {
    expect(await scan("const t = test\nt.skip('adds', () => {})\n")).toEqual([
      `2 test.skip ${T}::adds`
    ])
    expect(await scan("const pending = it.skip\npending('adds', () => {})\n")).toEqual([
      `1 it.skip ${T}`,
      `2 it.skip ${T}::adds`
    ])
  })

  it('follows named, renamed, namespace, default and required imports of the frameworks', async () => {
    expect(
      await scan("import { test as check } from 'vitest'\ncheck.only('adds', () => {})\n")
    ).toEqual([`2 test.only ${T}::adds (silences others)`])
    expect(await scan("import * as v from 'vitest'\nv.it.skip('adds', () => {})\n")).toEqual([
      `2 it.skip ${T}::adds`
    ])
    expect(await scan("import nt from 'node:test'\nnt.todo('adds')\n")).toEqual([
      `2 test.todo ${T}::adds`
    ])
    expect(
      await scan("const { describe: group } = require('node:test')\ngroup.skip('cart', () => {})\n")
    ).toEqual([`2 describe.skip ${T}::cart`])
  })

  it('reads computed members, folded strings and escaped identifiers', async () => {
    expect(await scan("test['skip']('adds', () => {})\n")).toEqual([`1 test.skip ${T}::adds`])
    expect(await scan("describe[`only`]('cart', () => {})\n")).toEqual([
      `1 describe.only ${T}::cart (silences others)`
    ])
    expect(await scan("const k = 'sk' + 'ip'\nit[k]('adds', () => {})\n")).toEqual([
      `2 it.skip ${T}::adds`
    ])
    expect(await scan("test.\\u0073kip('adds', () => {})\n")).toEqual([`1 test.skip ${T}::adds`])
    expect(await scan("\\u{69}t.only('adds', () => {})\n")).toEqual([
      `1 it.only ${T}::adds (silences others)`
    ])
  })

  it('finds the test context however it is named or destructured', async () => {
    expect(await scan("test('adds', ({ skip }) => {\n  skip()\n})\n")).toEqual([
      `2 context.skip( ${T}::adds`
    ])
    expect(await scan("test('adds', (tc) => {\n  tc.skip()\n})\n")).toEqual([
      `2 tc.skip( ${T}::adds`
    ])
    expect(await scan("beforeEach(({ skip }) => skip())\ntest('adds', () => {})\n")).toEqual([
      `1 context.skip( ${T}`
    ])
    expect(await scan("test('all', (t) => {\n  t.runOnly(true)\n})\n")).toEqual([
      `2 t.runOnly( ${T}::all (silences others)`
    ])
  })

  it('knows test.failing and node:test options with any expression', async () => {
    expect(await scan("test.failing('adds', () => {})\n")).toEqual([`1 test.failing ${T}::adds`])
    expect(await scan("test('adds', { skip: process.platform === 'linux' }, () => {})\n")).toEqual([
      `1 { skip: ... } ${T}::adds`
    ])
    expect(await scan("const opts = { only: true }\ntest('adds', opts, () => {})\n")).toEqual([
      `1 { only: ... } ${T} (silences others)`
    ])
    expect(
      await scan("test('x', async (t) => {\n  await t.test('sub', { todo: why }, () => {})\n})\n")
    ).toEqual([`2 { todo: ... } ${T}::sub`])
  })

  it('finds a skipping helper exported from a production module where the test uses it', async () => {
    const helpers = [
      'export const pending = it.skip',
      'export function onCi(name, fn) {',
      '  return (process.env.CI ? test.skip : test)(name, fn)',
      '}',
      'export const add = (a, b) => a + b',
      ''
    ].join('\n')
    const exports = await helperExports('src/testing.ts', helpers)
    expect([...exports.keys()].sort()).toEqual(['onCi', 'pending'])
    const resolve: HelperResolver = (_side, from, specifier) =>
      Promise.resolve(from === T && specifier === '../src/testing' ? exports : undefined)
    const test = [
      "import { pending, onCi, add } from '../src/testing'",
      "pending('adds', () => {})",
      "onCi('totals', () => {})",
      "test('sums', () => expect(add(1, 2)).toBe(3))",
      ''
    ].join('\n')
    expect(await scan(test, null, resolve)).toEqual([
      `2 it.skip (pending from ../src/testing) ${T}::adds`,
      `3 test.skip (onCi from ../src/testing) ${T}::totals`
    ])
    const namespaced = "import * as h from '../src/testing'\nh.pending('adds', () => {})\n"
    expect(await scan(namespaced, null, resolve)).toEqual([
      `2 it.skip (pending from ../src/testing) ${T}::adds`
    ])
  })

  it('fires on a new test under a skipping alias the base already had', async () => {
    const base = "const later = test.skip\nlater('adds', () => {})\n"
    expect(await scan(`${base}later('totals', () => {})\n`, base)).toEqual([
      `3 test.skip ${T}::totals`
    ])
  })
})

describe('skip-marker on the syntax tree: honest near-misses stay quiet', () => {
  it('a variable, a parameter or a property named skip', async () => {
    const honest = [
      "test('paginates', () => {",
      '  const skip = 2',
      '  expect(page([1, 2, 3], { skip }).items).toEqual([3])',
      '  expect(list.slice(skip)).toEqual([3])',
      '})',
      "test('reads', ({ expect }) => {",
      '  const reader = tokens()',
      '  reader.skip()',
      '  expect(reader.next()).toBe(1)',
      '})',
      'function drop(skip: number) { return skip + 1 }',
      ''
    ].join('\n')
    expect(await scan(honest)).toEqual([])
  })

  it('another library, a falsy option, a timeout, titles and strings that mention markers', async () => {
    const honest = [
      "import * as v from 'valibot'",
      "import { only } from 'lodash-es'",
      'v.skip(1)',
      'only([1])',
      'paginate({ skip: 10, only: true })',
      "test('adds', { skip: false, todo: undefined, timeout: 1000 }, () => {})",
      "test.each([1, 2])('skips blank line %s', () => {})",
      "test.concurrent('it.only is a string here', () => { expect('test.skip').toBeTruthy() })",
      "describe.\\u0065ach([1])('cart %s', () => {})",
      '// it.skip in a comment',
      'const re = /it\\.skip/',
      ''
    ].join('\n')
    expect(await scan(honest)).toEqual([])
  })

  it('a helper module that does not skip, and a local function shadowing a test global', async () => {
    const exports = await helperExports(
      'src/testing.ts',
      'export function cases(name, fn) {\n  return test(name, fn)\n}\n'
    )
    expect(exports.size).toBe(0)
    const resolve: HelperResolver = () => Promise.resolve(exports)
    const test = [
      "import { cases } from '../src/testing'",
      "cases('adds', () => {})",
      'function check(test) {',
      '  return test.skip',
      '}',
      ''
    ].join('\n')
    expect(await scan(test, null, resolve)).toEqual([])
  })
})

describe('skip-marker reads every added line of the diff', () => {
  const repos: TestRepo[] = []
  afterAll(() => {
    for (const r of repos) r.cleanup()
  })

  /** skip-marker alone over a real repository: base commit, then `head` files on top. */
  async function lint(
    head: Record<string, string | Buffer>,
    configure?: (repo: TestRepo) => void
  ): Promise<string[]> {
    const repo = new TestRepo()
    repos.push(repo)
    repo.write({ 'web/cart.test.ts': "it('adds', () => {})\n", 'web/cart spec.test.ts': '\n' })
    const base = repo.commit('base')
    repo.write(head)
    const tip = repo.commit('head')
    configure?.(repo)
    const git = new Git(repo.dir, process.env)
    const policy = parsePolicy(policyYaml(), '.github/oracle-gate.yml')
    const facts = runFacts(git, policy)
    const ctx: GateContext = {
      ...facts,
      repoDir: repo.dir,
      git,
      policy,
      mergeBase: base,
      head: tip,
      today: '2026-06-01',
      log: memoryLogger(),
      writeSet: await buildWriteSet(git, base, tip, policy, null, facts),
      childEnv: {},
      tempDir: repo.dir
    }
    const reasons = await runLints(ctx, EMPTY_LEDGER, ['skip-marker'])
    return reasons.map(r => `${r.path}:${r.line}`)
  }

  it('a NUL byte or a -diff attribute does not turn the file into "Binary files differ"', async () => {
    const marked = "it('adds', () => {})\nconst nul = '\0'\nit.skip('totals', () => {})\n"
    expect(await lint({ 'web/cart.test.ts': marked })).toEqual(['web/cart.test.ts:3'])
    expect(
      await lint({
        '.gitattributes': '*.ts -diff\n',
        'web/cart.test.ts': "it('adds', () => {})\nit.skip('totals', () => {})\n"
      })
    ).toEqual(['web/cart.test.ts:2'])
  })

  it('a textconv filter in the configuration cannot rewrite the added lines', async () => {
    const found = await lint(
      {
        '.gitattributes': '*.ts diff=hide\n',
        'web/cart.test.ts': "it('adds', () => {})\nit.skip('totals', () => {})\n"
      },
      repo => repo.git('config', 'diff.hide.textconv', 'sed -e s/skip/each/')
    )
    expect(found).toEqual(['web/cart.test.ts:2'])
  })

  it('a file name with a space, and an added line that reads "++ x", keep their lines', async () => {
    expect(await lint({ 'web/cart spec.test.ts': "\nit.only('totals', () => {})\n" })).toEqual([
      'web/cart spec.test.ts:2'
    ])
    const sneaky = "let x = 0\n++ x\nit.skip('adds', () => {})\n"
    expect(await lint({ 'web/cart.test.ts': sneaky })).toEqual(['web/cart.test.ts:3'])
  })

  it('honest edits of the same files stay quiet', async () => {
    expect(
      await lint({
        '.gitattributes': '*.ts -diff\n',
        'web/cart spec.test.ts': "\nit('totals', () => {})\n",
        'web/cart.test.ts': "let x = 0\n++ x\nit('adds', () => expect(x).toBe(1))\n"
      })
    ).toEqual([])
  })
})

describe('parseUnifiedDiff', () => {
  it('drops the tab git writes after a name with a space, and counts hunk lines', () => {
    const diff = [
      'diff --git a/a b.ts b/a b.ts',
      '--- a/a b.ts\t',
      '+++ b/a b.ts\t',
      '@@ -1,0 +2,2 @@',
      '++++ b/evil.ts',
      '+it.skip()',
      ''
    ].join('\n')
    const added = parseUnifiedDiff(diff)
    expect([...added.keys()]).toEqual(['a b.ts'])
    expect([...added.get('a b.ts')!]).toEqual([
      [2, '+++ b/evil.ts'],
      [3, 'it.skip()']
    ])
  })
})

describe('AddedLinesReader (the -U0 diff as a stream)', () => {
  const diff = [
    'diff --git a/x.py b/x.py',
    '--- a/x.py',
    '+++ b/x.py',
    '@@ -1,2 +1,3 @@',
    '-old line one',
    '-old line two',
    '+first = "é€😀"',
    '+second',
    '+third, a longer line than the others',
    'diff --git a/"q\\303\\251.py" b/"q\\303\\251.py"',
    '+++ "b/q\\303\\251.py"',
    '@@ -0,0 +1 @@',
    '+only'
  ].join('\n')
  const read = (pieces: Buffer[], limit = (_: string) => Infinity) => {
    const reader = new AddedLinesReader(limit)
    for (const piece of pieces) reader.push(piece)
    reader.end()
    return reader.result()
  }
  const whole = read([Buffer.from(diff)])

  it('reads the same lines whatever the pieces (split characters, headers, the last line)', () => {
    expect([...whole.lines.get('x.py')!]).toEqual([
      [1, 'first = "é€😀"'],
      [2, 'second'],
      [3, 'third, a longer line than the others']
    ])
    expect([...whole.lines.get('qé.py')!]).toEqual([[1, 'only']])
    expect(whole.unread.size).toBe(0)
    const bytes = Buffer.from(diff)
    const byByte = [...bytes].map(b => Buffer.from([b]))
    expect(read(byByte)).toEqual(whole)
    for (const size of [2, 3, 5, 7, 64])
      expect(
        read(
          Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) =>
            bytes.subarray(i * size, (i + 1) * size)
          )
        )
      ).toEqual(whole)
  })

  it("keeps a file's added text up to its limit (each line with its newline), counts the rest", () => {
    // 'first = "é€😀"' is 19 bytes, with its newline 20; 'second' 7.
    const cut = read([Buffer.from(diff)], p => (p === 'x.py' ? 27 : Infinity))
    expect([...cut.lines.get('x.py')!]).toEqual([
      [1, 'first = "é€😀"'],
      [2, 'second']
    ])
    expect(cut.unread).toEqual(new Map([['x.py', 37]]))
    expect(cut.lines.get('qé.py')).toEqual(whole.lines.get('qé.py'))
    // A line that does not fit is unread, and so is every line after it (no gaps).
    const first = read([Buffer.from(diff)], () => 19)
    expect([...first.lines.get('x.py')!]).toEqual([])
    expect(first.unread.get('x.py')).toBe(20 + 7 + 37)
    expect([...first.lines.get('qé.py')!]).toEqual([[1, 'only']])
    // The cut is the same when the diff comes in single bytes.
    expect(
      read(
        [...Buffer.from(diff)].map(b => Buffer.from([b])),
        p => (p === 'x.py' ? 27 : Infinity)
      )
    ).toEqual(cut)
  })

  it('refuses a line outside a hunk longer than it reads (not a diff), at any piece size', () => {
    const long = Buffer.alloc(MAX_DIFF_HEADER_BYTES + 1, 0x61)
    expect(() => read([long])).toThrow(/more than 1 MiB outside a hunk \(MAX_DIFF_HEADER_BYTES\)/)
    const pieces = [long.subarray(0, 1000), long.subarray(1000)]
    expect(() => read(pieces)).toThrow(/MAX_DIFF_HEADER_BYTES/)
    // The near miss: a removed line of any length inside a hunk is only counted.
    const hunk = Buffer.concat([
      Buffer.from('+++ b/y.py\n@@ -1 +1 @@\n-'),
      long,
      Buffer.from('\n+kept\n')
    ])
    expect([...read([hunk]).lines.get('y.py')!]).toEqual([[1, 'kept']])
  })
})

async function scanPy(
  head: string,
  base: string | null = null,
  resolve?: HelperResolver,
  path = 'tests/test_cart.py'
): Promise<string[]> {
  const findings = await scanFile(path, 'python', head, base, addedVs(base, head), resolve)
  return findings.map(f => `${f.line} ${f.label} ${f.unit.ids[0]}`)
}

const P = 'tests/test_cart.py'

describe('skip-marker on the Python syntax tree: firing', () => {
  it('follows module aliases, from-imports and renamed names', async () => {
    expect(await scanPy('import pytest as pt\n\n@pt.mark.skip\ndef test_a():\n    pass\n')).toEqual(
      [`3 pytest.mark.skip ${P}::test_a`]
    )
    expect(
      await scanPy(
        'from pytest import mark as m\n\n@m.xfail(strict=False)\ndef test_a():\n    pass\n'
      )
    ).toEqual([`3 pytest.mark.xfail ${P}::test_a`])
    expect(
      await scanPy('from pytest import skip as later\n\ndef test_a():\n    later("x")\n')
    ).toEqual([`4 pytest.skip( ${P}::test_a`])
    expect(
      await scanPy(
        'import unittest as ut\n\nclass T(ut.TestCase):\n    @ut.skip("r")\n    def test_a(self):\n        pass\n'
      )
    ).toEqual([`4 unittest.skip ${P}::T::test_a`])
  })

  it('follows assigned aliases, getattr with folded strings, and NFKC-folded names', async () => {
    expect(
      await scanPy('import pytest\nlater = pytest.mark.skip\n\n\n@later\ndef test_a():\n    pass\n')
    ).toEqual([`2 pytest.mark.skip ${P}`, `5 pytest.mark.skip ${P}::test_a`])
    expect(
      await scanPy('import pytest\n\n@getattr(pytest.mark, "sk" + "ip")\ndef test_a():\n    pass\n')
    ).toEqual([`3 pytest.mark.skip ${P}::test_a`])
    expect(await scanPy('import pytest\n\ndef test_a():\n    pytest.ｓｋｉｐ("x")\n')).toEqual([
      `4 pytest.skip( ${P}::test_a`
    ])
  })

  it('fires where a new test uses a skipping helper the base already defined', async () => {
    const base = 'import pytest\n\ndef flaky(f):\n    return pytest.mark.skip(f)\n'
    const head = `${base}\n\n@flaky\ndef test_new():\n    assert total() == 3\n`
    expect(await scanPy(head, base)).toEqual([`7 pytest.mark.skip ${P}::test_new`])
  })

  it('finds a skipping helper imported from a production module', async () => {
    const exports = await helperExports(
      'app/testing.py',
      'import pytest\n\npending = pytest.mark.skip\n\ndef add(a, b):\n    return a + b\n'
    )
    expect([...exports.keys()]).toEqual(['pending'])
    const resolve: HelperResolver = (_side, _from, module) =>
      Promise.resolve(module === 'app.testing' ? exports : undefined)
    const test =
      'from app.testing import pending, add\n\n@pending\ndef test_a():\n    assert add(1, 2) == 3\n'
    expect(await scanPy(test, null, resolve)).toEqual([
      `3 pytest.mark.skip (pending from app.testing) ${P}::test_a`
    ])
  })
})

describe('skip-marker on the Python syntax tree: honest near-misses stay quiet', () => {
  it('variables, parameters, keywords and members named skip; other marks and libraries', async () => {
    const honest = [
      'import pytest',
      'from mylib import skip',
      '',
      '@pytest.mark.parametrize("n", [1, 2])',
      'def test_page(n, skip_blank=True):',
      '    skip = 2',
      '    assert page(items, skip=skip)[skip:] == [3]',
      '    parser.skip()',
      '    assert skip(1) == 0',
      '    """pytest.mark.skip in a docstring"""',
      '    mark = "x"',
      '    assert mark.skip is None  # a string here, not pytest.mark',
      ''
    ].join('\n')
    expect(await scanPy(honest)).toEqual([])
  })
})
