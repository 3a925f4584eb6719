// The pure scanner: which added lines introduce a suppression, and which test it silences.
import { describe, expect, it } from 'vitest'
import { familyOf as langOf, type Family as Lang } from '../src/lang.js'
import { judge } from '../src/lints/skip-marker/index.js'
import { parserFor } from '../src/lints/parsers.js'
import { suppressionsIn, timeoutsIn, type MarkerHit } from '../src/lints/skip-marker/markers.js'
import { pythonMarkers } from '../src/lints/skip-marker/python.js'
import { scriptMarkers } from '../src/lints/skip-marker/script.js'
import { maskCode } from '../src/lints/skip-marker/mask.js'
import { mayHoldMarker, scanFile } from '../src/lints/skip-marker/scan.js'
import { ledgerFromText } from '../src/ledger/index.js'

/** The markers of one line: JS/TS and Python from the syntax tree, Go and Java from masked text. */
async function markersIn(line: string, lang: Lang): Promise<MarkerHit[]> {
  if (lang !== 'js' && lang !== 'python') return suppressionsIn(maskCode(line, lang), lang)
  const tree = (await parserFor(lang === 'js' ? 'typescript' : 'python')).parse(line.trim())!
  try {
    const hits = lang === 'js' ? scriptMarkers(tree).hits : pythonMarkers(tree)
    return [...hits.values()].flat()
  } finally {
    tree.delete()
  }
}

/** Lines of `head` that are not in `base` (by content): a stand-in for the diff's added lines. */
function addedVs(base: string | null, head: string): number[] {
  const before = new Set((base ?? '').split('\n'))
  return head
    .split('\n')
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => !before.has(l))
    .map(([, n]) => n)
}

async function scan(path: string, base: string | null, head: string, added = addedVs(base, head)) {
  return (await scanFile(path, langOf(path)!, head, base, added)).map(f => ({
    line: f.line,
    label: f.label,
    id: f.unit.ids[0],
    only: f.silencesOthers
  }))
}

describe('masking', () => {
  it('blanks strings and comments but keeps offsets and lines', async () => {
    const py = 'x = "it.skip(" # @pytest.mark.skip\n"""\n@pytest.mark.skip\n"""\ny = 1\n'
    const masked = maskCode(py, 'python')
    expect(masked).toHaveLength(py.length)
    expect(masked.split('\n')).toHaveLength(py.split('\n').length)
    expect(masked).not.toMatch(/skip/)
    expect(masked).toContain('y = 1')
    const js = "const a = `x ${it.skip} y` // it.skip\nconst r = /it\\.skip(/; it.only('t')\n"
    const mjs = maskCode(js, 'js')
    expect(mjs).toContain('${it.skip}')
    expect(mjs).toContain('it.only(')
    expect(mjs).not.toMatch(/\/\/ it\.skip|it\\\.skip/)
  })
})

describe('Python markers', () => {
  const base = `import pytest


class TestCart:
    def test_total(self):
        assert 1


def test_tax():
    assert 2
`
  it('fires on each added decorator or call, naming the decorated test', async () => {
    const head = `import pytest


class TestCart:
    @pytest.mark.skip(reason="flaky")
    def test_total(self):
        assert 1


@pytest.mark.skipif(
    True, reason="x"
)
@pytest.mark.xfail
def test_tax():
    pytest.skip("later")
    assert 2
`
    expect(await scan('tests/test_cart.py', base, head)).toEqual([
      {
        line: 5,
        label: 'pytest.mark.skip',
        id: 'tests/test_cart.py::TestCart::test_total',
        only: false
      },
      { line: 10, label: 'pytest.mark.skipif', id: 'tests/test_cart.py::test_tax', only: false },
      { line: 13, label: 'pytest.mark.xfail', id: 'tests/test_cart.py::test_tax', only: false },
      { line: 15, label: 'pytest.skip(', id: 'tests/test_cart.py::test_tax', only: false }
    ])
  })

  it('knows unittest markers, module-level pytestmark and raised timeouts', async () => {
    const head = `import unittest, pytest
from hypothesis import settings
pytestmark = pytest.mark.skip

class T(unittest.TestCase):
    @unittest.skipIf(True, "x")
    def test_a(self):
        self.skipTest("no")

    @unittest.expectedFailure
    def test_b(self):
        pass

@settings(deadline=None)
@pytest.mark.timeout(60)
def test_c():
    pass
`
    const base = `import unittest, pytest
from hypothesis import settings

class T(unittest.TestCase):
    def test_a(self):
        pass

    def test_b(self):
        pass

@pytest.mark.timeout(5)
def test_c():
    pass
`
    expect(
      (await scan('t/test_u.py', base, head)).map(f => `${f.line} ${f.label} ${f.id}`)
    ).toEqual([
      '3 pytest.mark.skip t/test_u.py',
      '6 unittest.skipIf t/test_u.py::T::test_a',
      '8 skipTest( t/test_u.py::T::test_a',
      '10 unittest.expectedFailure t/test_u.py::T::test_b',
      '14 deadline= raised 200 → no limit t/test_u.py::test_c',
      '15 pytest.mark.timeout raised 5 → 60 t/test_u.py::test_c'
    ])
  })

  it('stays quiet for unchanged, removed, commented or quoted markers, and lowered timeouts', async () => {
    const withMarkers = `import pytest

@pytest.mark.skip
def test_a():
    pass

@pytest.mark.timeout(30)
def test_b():
    pass
`
    // Unchanged marker, new unrelated line.
    expect(
      await scan('test_q.py', withMarkers, withMarkers + '\ndef test_new():\n    pass\n')
    ).toEqual([])
    // Removed marker.
    expect(
      await scan('test_q.py', withMarkers, withMarkers.replace('@pytest.mark.skip\n', ''))
    ).toEqual([])
    // The same marker on the same test, reformatted (the line is "added" but not new to the test).
    expect(
      await scan(
        'test_q.py',
        withMarkers,
        withMarkers.replace('@pytest.mark.skip', '@pytest.mark.skip()')
      )
    ).toEqual([])
    // Lowered timeout, and markers inside comments and strings.
    const head =
      withMarkers.replace('timeout(30)', 'timeout(10)') +
      '\n# @pytest.mark.skip\nX = "pytest.skip("\n'
    expect(await scan('test_q.py', withMarkers, head)).toEqual([])
  })

  it('fires when an existing marker moves to another test', async () => {
    const base = '@pytest.mark.skip\ndef test_a():\n    pass\n\ndef test_b():\n    pass\n'
    const head = 'def test_a():\n    pass\n\n@pytest.mark.skip\ndef test_b():\n    pass\n'
    expect(await scan('test_m.py', base, head, [4])).toEqual([
      { line: 4, label: 'pytest.mark.skip', id: 'test_m.py::test_b', only: false }
    ])
  })
})

describe('JS/TS markers', () => {
  const base = `import { describe, it, expect } from 'vitest'

describe('cart', () => {
  it('adds items', async () => {
    expect(1).toBe(1)
  })

  it('totals', async () => {
    expect(2).toBe(2)
  })
})
`
  it('fires on skip, only, todo, fails, x- and f- prefixes, naming the test title', async () => {
    const head = `import { describe, it, expect } from 'vitest'

describe('cart', () => {
  it.skip('adds items', () => {
    expect(1).toBe(1)
  })

  it.only('totals', () => {
    expect(2).toBe(2)
  })
  xit('x one', () => {})
  test.todo('later')
  test.fails('known bug', () => {})
  fit('focused', () => {})
  it.skipIf(process.env.CI)('on ci', () => {})
})
xdescribe("other", () => {})
`
    expect(await scan('src/cart.test.ts', base, head)).toEqual([
      { line: 4, label: 'it.skip', id: 'src/cart.test.ts::cart > adds items', only: false },
      { line: 8, label: 'it.only', id: 'src/cart.test.ts::cart > totals', only: true },
      { line: 11, label: 'xit', id: 'src/cart.test.ts::cart > x one', only: false },
      { line: 12, label: 'test.todo', id: 'src/cart.test.ts::cart > later', only: false },
      { line: 13, label: 'test.fails', id: 'src/cart.test.ts::cart > known bug', only: false },
      { line: 14, label: 'fit', id: 'src/cart.test.ts::cart > focused', only: true },
      { line: 15, label: 'it.skipIf', id: 'src/cart.test.ts::cart > on ci', only: false },
      { line: 17, label: 'xdescribe', id: 'src/cart.test.ts::other', only: false }
    ])
  })

  it('offers the full title path as a second id, and maps inner skips to their test', async () => {
    const head = base.replace(
      '    expect(2).toBe(2)\n',
      '    expect(2).toBe(2)\n    if (flaky) ctx.skip()\n'
    )
    const [finding] = await scanFile('a.spec.js', 'js', head, base, addedVs(base, head))
    expect(finding!.unit.ids).toEqual(['a.spec.js::cart > totals', 'a.spec.js::totals'])
    expect(finding!.label).toBe('ctx.skip(')
  })

  it('fires on a grown jest/vitest timeout, not on an unchanged or smaller one', async () => {
    const b = "jest.setTimeout(10000)\ntest('a', () => {})\n"
    expect(await scan('x.test.js', b, "jest.setTimeout(60000)\ntest('a', () => {})\n")).toEqual([
      { line: 1, label: 'setTimeout( raised 10000 → 60000', id: 'x.test.js', only: false }
    ])
    expect(await scan('x.test.js', b, "jest.setTimeout(8000)\ntest('a', () => {})\n")).toEqual([])
    expect(await scan('x.test.ts', null, 'vi.setConfig({ testTimeout: 30_000 })\n')).toEqual([
      { line: 1, label: 'testTimeout: raised 5000 → 30000', id: 'x.test.ts', only: false }
    ])
    expect(await scan('x.test.ts', null, 'vi.setConfig({ testTimeout: 1000 })\n')).toEqual([])
  })

  it('stays quiet for comments, strings, regex .test() calls and unchanged markers', async () => {
    const head = base + "// it.skip('x')\nconst s = 'it.only('\n/it\\.skip/.test(s)\n"
    expect(await scan('a.test.ts', base, head)).toEqual([])
    const skipped = base.replace("it('totals'", "it.skip('totals'")
    expect(await scan('a.test.ts', skipped, skipped + '\n')).toEqual([])
  })
})

describe('Go markers', () => {
  it('fires on t.Skip, t.Skipf, t.SkipNow inside tests and subtests', async () => {
    const base = `package cart

import "testing"

func TestTotal(t *testing.T) {
	t.Run("with tax", func(t *testing.T) {
	})
}

func TestEmpty(t *testing.T) {
}
`
    const head = `package cart

import "testing"

func TestTotal(t *testing.T) {
	t.Skipf("flaky %d", 1)
	t.Run("with tax", func(t *testing.T) {
		t.SkipNow()
	})
}

func TestEmpty(t *testing.T) {
	// t.Skip("not this")
	t.Skip("later")
}
`
    expect(await scan('cart/cart_test.go', base, head)).toEqual([
      { line: 6, label: 't.Skipf', id: 'cart/cart_test.go::TestTotal', only: false },
      { line: 8, label: 't.SkipNow', id: 'cart/cart_test.go::TestTotal/with_tax', only: false },
      { line: 14, label: 't.Skip', id: 'cart/cart_test.go::TestEmpty', only: false }
    ])
    expect(
      await scan('cart/cart_test.go', head, head.replace('"later"', '"later, really"'))
    ).toEqual([])
  })
})

describe('Java markers', () => {
  it('fires on @Disabled/@Ignore naming the method or class, and on grown timeouts', async () => {
    const base = `package x;

class CartTest {
    @Test(timeout = 100)
    void total() {
        assertThrows(E.class, () -> {
            run();
        });
    }

    @Test
    void empty() {}
}
`
    const head = `package x;

@Disabled("all")
class CartTest {
    @Test(
        timeout = 5000)
    @Ignore
    void total() {
        assertThrows(E.class, () -> {
            run();
        });
    }

    @Test
    @DisabledOnOs(OS.WINDOWS)
    void empty() {}
}
`
    expect(
      (await scan('src/test/java/x/CartTest.java', base, head)).map(
        f => `${f.line} ${f.label} ${f.id}`
      )
    ).toEqual([
      '3 @Disabled src/test/java/x/CartTest.java::CartTest',
      '6 timeout = raised 100 → 5000 src/test/java/x/CartTest.java::total',
      '7 @Ignore src/test/java/x/CartTest.java::total',
      '15 @DisabledOnOs src/test/java/x/CartTest.java::empty'
    ])
    expect(
      await scan('src/test/java/x/CartTest.java', head, head.replace('"all"', '"all of it"'))
    ).toEqual([])
  })
})

describe('group markers: every test in the group needs a live row', () => {
  const TODAY = '2026-03-10'
  const ledgerFor = (...tests: string[]) =>
    ledgerFromText(
      `version: 1\nentries:\n${tests.map((t, i) => `  - {id: F-${i}, test: "${t}", cause: rng, reason: r, owner: o, first_seen: "2026-03-01", expires_on: "2026-03-20", max_runs: 1}\n`).join('')}`,
      'l.yml',
      TODAY,
      30
    )
  const verdicts = async (path: string, base: string | null, head: string, ...live: string[]) =>
    (await scanFile(path, langOf(path)!, head, base, addedVs(base, head))).map(
      f => judge(f, path, ledgerFor(...live), 'failure')?.message ?? 'covered'
    )

  it('Python: a class decorator or module pytestmark lists the tests it reaches', async () => {
    const base =
      'class TestA:\n    def test_one(self):\n        pass\n\n    def helper(self):\n        pass\n\n    def test_two(self):\n        pass\n\ndef test_free():\n    pass\n'
    const head = base.replace('class TestA:', '@pytest.mark.skip\nclass TestA:')
    const [finding] = await scanFile('t/test_g.py', 'python', head, base, [1])
    expect(finding!.unit).toEqual({
      ids: ['t/test_g.py::TestA'],
      kind: 'group',
      members: [['t/test_g.py::TestA::test_one'], ['t/test_g.py::TestA::test_two']]
    })
    expect((await verdicts('t/test_g.py', base, head, 't/test_g.py::TestA::test_one'))[0]).toMatch(
      /reaches every test in t\/test_g.py::TestA, and 1 of its 2 test\(s\) have no live ledger row \(t\/test_g.py::TestA::test_two\)/
    )
    expect(
      await verdicts(
        't/test_g.py',
        base,
        head,
        't/test_g.py::TestA::test_one',
        't/test_g.py::TestA::test_two'
      )
    ).toEqual(['covered'])
    // A row for the class itself is not enough: the replay freezes test ids, not classes.
    expect((await verdicts('t/test_g.py', base, head, 't/test_g.py::TestA'))[0]).toMatch(
      /2 of its 2/
    )

    const moduleHead = 'import pytest\npytestmark = pytest.mark.skip\n' + base
    const all = [
      't/test_g.py::TestA::test_one',
      't/test_g.py::TestA::test_two',
      't/test_g.py::test_free'
    ]
    expect((await verdicts('t/test_g.py', base, moduleHead, ...all.slice(0, 2)))[0]).toMatch(
      /every test in t\/test_g.py, and 1 of its 3/
    )
    expect(await verdicts('t/test_g.py', base, moduleHead, ...all)).toEqual(['covered'])
  })

  it('JS: describe.skip and a top-level timeout reach the tests inside', async () => {
    const base =
      "describe('cart', () => {\n  it('a', () => {})\n  it('b', () => {})\n})\ntest('c', () => {})\n"
    const head = base.replace("describe('cart'", "describe.skip('cart'")
    expect((await verdicts('c.test.ts', base, head, 'c.test.ts::cart > a'))[0]).toMatch(
      /1 of its 2 test\(s\) have no live ledger row \(c.test.ts::cart > b\)/
    )
    expect(await verdicts('c.test.ts', base, head, 'c.test.ts::cart > a', 'c.test.ts::b')).toEqual([
      'covered'
    ])
    const timeout = 'jest.setTimeout(60000)\n' + base
    expect(
      (await verdicts('c.test.ts', base, timeout, 'c.test.ts::cart > a', 'c.test.ts::cart > b'))[0]
    ).toMatch(/every test in c.test.ts, and 1 of its 3/)
  })

  it('Java: a class-level @Disabled reaches its @Test methods', async () => {
    const base =
      'class CartTest {\n    @Test\n    void total() {}\n\n    @ParameterizedTest\n    void each(int x) {}\n\n    void helper() {}\n}\n'
    const head = '@Disabled\n' + base
    const [finding] = await scanFile('CartTest.java', 'java', head, base, [1])
    expect(finding!.unit.members).toEqual([['CartTest.java::total'], ['CartTest.java::each']])
    expect(
      await verdicts('CartTest.java', base, head, 'CartTest.java::total', 'CartTest.java::each')
    ).toEqual(['covered'])
  })

  it('a group with no test found is never covered', async () => {
    expect(
      (
        await verdicts(
          't/test_e.py',
          null,
          'import pytest\npytestmark = pytest.mark.skip\n',
          't/test_e.py'
        )
      )[0]
    ).toMatch(/no test was found in it/)
  })
})

describe('marker table', () => {
  const samples: Array<[Lang, string]> = [
    ['python', '@pytest.mark.skip(reason="x")'],
    ['python', '@pytest.mark.skipif(sys.platform == "win32", reason="x")'],
    ['python', '@pytest.mark.xfail(strict=False)'],
    ['python', 'pytestmark = [pytest.mark.xfail]'],
    ['python', '    pytest.skip("later")'],
    ['python', '    pytest.xfail("known")'],
    ['python', 'np = pytest.importorskip("numpy")'],
    ['python', '@unittest.skip("x")'],
    ['python', '@unittest.skipUnless(HAS_NET, "x")'],
    ['python', '@skipIf(True, "x")'],
    ['python', '@unittest.expectedFailure'],
    ['python', '        self.skipTest("x")'],
    ['python', '        raise unittest.SkipTest("x")'],
    ['js', "test.skip('x', () => {})"],
    ['js', "describe.skip('x', () => {})"],
    ['js', "it.todo('x')"],
    ['js', "test.concurrent.skip('x', async () => {})"],
    ['js', "test.fails('x', () => {})"],
    ['js', "describe.only('x', () => {})"],
    ['js', "xtest('x', () => {})"],
    ['js', "fdescribe('x', () => {})"],
    ['js', '  this.skip()'],
    ['js', "test('x', { skip: 'windows' }, () => {})"],
    ['js', "test('x', { only: true }, () => {})"],
    ['go', '\tt.Skip("x")'],
    ['go', '\tb.SkipNow()'],
    ['java', '@Disabled("x")'],
    ['java', '@Ignore'],
    ['java', '@DisabledIfEnvironmentVariable(named = "CI", matches = "true")']
  ]
  for (const [lang, line] of samples) {
    it(`${lang}: ${line.trim()}`, async () => {
      expect((await markersIn(line, lang)).length).toBeGreaterThan(0)
      expect(mayHoldMarker([line])).toBe(true)
    })
  }

  const timeouts: Array<[Lang, string, number]> = [
    ['python', '@settings(max_examples=10, deadline=None)', Infinity],
    ['python', '@pytest.mark.timeout(120)', 120],
    ['python', 'r = run(cmd, timeout=30)', 30],
    ['js', 'jest.setTimeout(30000)', 30000],
    ['js', 'vi.setConfig({ testTimeout: 20_000 })', 20000],
    ['js', '  this.timeout(0)', Infinity],
    ['js', "it('x', { timeout: 9000 }, () => {})", 9000],
    ['java', '@Test(timeout = 5000)', 5000],
    ['java', '@Timeout(10)', 10]
  ]
  for (const [lang, line, value] of timeouts) {
    it(`${lang}: ${line.trim()} → ${value}`, async () => {
      expect(timeoutsIn(maskCode(line, lang), lang).map(t => t.value)).toContain(value)
      expect(mayHoldMarker([line])).toBe(true)
    })
  }

  it('finds nothing in ordinary test code', async () => {
    const lines: Array<[Lang, string]> = [
      ['python', 'def test_total(cart):'],
      ['python', '    assert skip_list == []  # a variable, not a marker'],
      ['js', "it('totals', () => expect(total()).toBe(3))"],
      ['js', "const onlyOnce = /x/.test('y')"],
      ['go', '\tif got := Total(); got != 3 {'],
      ['java', '@Test void total() {}']
    ]
    for (const [lang, line] of lines) {
      expect(await markersIn(line, lang)).toEqual([])
      expect(timeoutsIn(maskCode(line, lang), lang)).toEqual([])
    }
    expect(mayHoldMarker(['def test_total(cart):', '    assert total() == 3'])).toBe(false)
  })
})
