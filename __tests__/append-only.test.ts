// Test-level locking: what a patch may add to a voting file (new tests, imports) and what
// it may not (an edited assertion, a changed helper or constant, a deleted or redefined
// test), on real parse trees of Python, JavaScript and TypeScript.
import { describe, expect, it } from 'vitest'
import { checkAppendOnly } from '../src/writeset/append-only.js'
import { parserFor, type LanguageId } from '../src/lints/parsers.js'

async function check(language: LanguageId, base: string, head: string) {
  const parser = await parserFor(language)
  const tree = (text: string) => {
    const t = parser.parse(text)
    if (!t) throw new Error('no parse')
    return t
  }
  return checkAppendOnly(
    language,
    { text: base, tree: tree(base) },
    { text: head, tree: tree(head) }
  )
}

const PY_BASE = `import pytest
from shop.fees import fee

RATE = 3


def helper(x):
    return x * RATE


def test_fee_small():
    assert fee(10) == 13


class TestFees:
    def test_zero(self):
        assert fee(0) == 0
`

describe('Python voting files', () => {
  it('accepts a new test function, a new method in an existing class, a new class and an import', async () => {
    const head = PY_BASE.replace('import pytest\n', 'import pytest\nimport math\n')
      .replace(
        '        assert fee(0) == 0\n',
        '        assert fee(0) == 0\n\n    def test_one(self):\n        assert fee(1) == 4\n'
      )
      .concat(
        '\n\ndef test_fee_large():\n    """A docstring\n\n    with a blank line."""\n    assert fee(1000) == 1003\n',
        '\n\nclass TestRounding:\n    def test_half(self):\n        assert fee(0.5) == 3.5\n'
      )
    const result = await check('python', PY_BASE, head)
    expect(result).toEqual({
      ok: true,
      added: [
        { name: 'test_one', line: 20 },
        { name: 'test_fee_large', line: 24 },
        { name: 'TestRounding', line: 31 }
      ]
    })
  })

  it('rejects an edited assertion and names the test', async () => {
    const result = await check('python', PY_BASE, PY_BASE.replace('== 13', '== 10'))
    expect(result).toMatchObject({
      ok: false,
      what: 'test "test_fee_small" was changed or removed',
      line: 12
    })
  })

  it('rejects a changed module constant or helper, naming the statement', async () => {
    const constant = await check('python', PY_BASE, PY_BASE.replace('RATE = 3', 'RATE = 0'))
    expect(constant).toMatchObject({
      ok: false,
      what: 'a statement outside the tests changed (base line 4)'
    })
    const helper = await check('python', PY_BASE, PY_BASE.replace('x * RATE', 'x'))
    expect(helper).toMatchObject({ ok: false, line: 8 })
  })

  it('rejects a deleted test and a test redefined under a locked name', async () => {
    const deleted = await check(
      'python',
      PY_BASE,
      PY_BASE.replace(/def test_fee_small[^]*?13\n/, '')
    )
    expect(deleted).toMatchObject({
      ok: false,
      what: 'test "test_fee_small" was changed or removed'
    })
    const redefined = await check(
      'python',
      PY_BASE,
      `${PY_BASE}\n\ndef test_fee_small():\n    pass\n`
    )
    expect(redefined).toMatchObject({
      ok: false,
      what: 'test "test_fee_small" is defined twice (it would replace the locked one)'
    })
  })

  it('rejects a blank line removed or added inside a string of the base', async () => {
    const base = 'EXPECTED = """a\n\nb"""\n\n\ndef test_x():\n    assert EXPECTED\n'
    expect(await check('python', base, base.replace('a\n\nb', 'a\nb'))).toMatchObject({ ok: false })
    expect(await check('python', base, base.replace('a\n\nb', 'a\n\n\nb'))).toMatchObject({
      ok: false
    })
  })

  it('rejects a test squeezed onto a line of other code', async () => {
    const head = PY_BASE.replace('RATE = 3', 'RATE = 3; exec("RATE = 0")')
    expect(await check('python', PY_BASE, head)).toMatchObject({ ok: false })
  })
})

const JS_BASE = `import { describe, it, expect } from 'vitest'
import { fee } from '../src/fee'

const RATE = 3

describe('fee', () => {
  it('adds the rate', () => {
    expect(fee(10)).toBe(10 + RATE)
  })
})

test('zero', () => expect(fee(0)).toBe(0))
`

describe('JavaScript and TypeScript voting files', () => {
  for (const language of ['javascript', 'typescript'] as const) {
    it(`${language}: accepts a new it inside an existing describe, a new describe and an import`, async () => {
      const head = JS_BASE.replace(
        "import { fee } from '../src/fee'\n",
        "import { fee } from '../src/fee'\nimport { round } from '../src/round'\n"
      )
        .replace(
          '    expect(fee(10)).toBe(10 + RATE)\n  })\n',
          "    expect(fee(10)).toBe(10 + RATE)\n  })\n\n  it('handles one', () => {\n    expect(fee(1)).toBe(4)\n  })\n"
        )
        .concat(
          "\ndescribe('round', () => {\n  test.each([[1, 1]])('%i', (a, b) => expect(round(a)).toBe(b))\n})\n"
        )
      const result = await check(language, JS_BASE, head)
      expect(result).toEqual({
        ok: true,
        added: [
          { name: "'handles one'", line: 12 },
          { name: "'round'", line: 19 }
        ]
      })
    })
  }

  it('rejects an edited expectation inside a describe, naming the test', async () => {
    const result = await check('typescript', JS_BASE, JS_BASE.replace('10 + RATE', '10'))
    expect(result).toMatchObject({
      ok: false,
      what: 'test "\'adds the rate\'" was changed or removed',
      line: 8
    })
  })

  it('rejects a changed constant, a removed test and a duplicate title', async () => {
    expect(
      await check('javascript', JS_BASE, JS_BASE.replace('RATE = 3', 'RATE = 0'))
    ).toMatchObject({
      ok: false,
      what: 'a statement outside the tests changed (base line 4)'
    })
    expect(
      await check(
        'javascript',
        JS_BASE,
        JS_BASE.replace("test('zero', () => expect(fee(0)).toBe(0))\n", '')
      )
    ).toMatchObject({
      ok: false,
      what: 'test "\'zero\'" was changed or removed'
    })
    expect(await check('javascript', JS_BASE, `${JS_BASE}test('zero', () => {})\n`)).toMatchObject({
      ok: false
    })
  })
})

async function checkStyled(
  language: LanguageId,
  base: string,
  head: string,
  style: { pythonClasses: string[]; pythonFunctions: string[] }
) {
  const parser = await parserFor(language)
  const tree = (text: string) => {
    const t = parser.parse(text)
    if (!t) throw new Error('no parse')
    return t
  }
  return checkAppendOnly(
    language,
    { text: base, tree: tree(base) },
    { text: head, tree: tree(head) },
    style
  )
}

// cachetools' shape: unittest classes named XxxTest, collected by pytest whatever their name.
const UNITTEST_BASE = `import unittest

from cachetools import Cache


class CacheMixin:
    def cache(self, n):
        return Cache(n)


class AutospecTest(unittest.TestCase, CacheMixin):
    def test_size(self):
        self.assertEqual(self.cache(2).maxsize, 2)


class DerivedTest(AutospecTest):
    def test_derived(self):
        self.assertTrue(True)
`

describe('tests in the project own style (issue 25)', () => {
  it('a method appended to a unittest.TestCase subclass named XxxTest is a new test', async () => {
    const head = UNITTEST_BASE.replace(
      '        self.assertEqual(self.cache(2).maxsize, 2)\n',
      '        self.assertEqual(self.cache(2).maxsize, 2)\n\n    def test_zero(self):\n        self.assertEqual(self.cache(0).maxsize, 0)\n'
    ).replace(
      '        self.assertTrue(True)\n',
      '        self.assertTrue(True)\n\n    def test_more(self):\n        self.assertTrue(1)\n'
    )
    expect(await check('python', UNITTEST_BASE, head)).toEqual({
      ok: true,
      added: [
        { name: 'test_zero', line: 15 },
        { name: 'test_more', line: 23 }
      ]
    })
  })

  it('a weakened assertion in such a class names the test; an added setUp or helper method is refused', async () => {
    const weakened = await check(
      'python',
      UNITTEST_BASE,
      UNITTEST_BASE.replace('maxsize, 2)', 'maxsize, self.cache(2).maxsize)')
    )
    expect(weakened).toMatchObject({ ok: false, what: 'test "test_size" was changed or removed' })
    const setUp = await check(
      'python',
      UNITTEST_BASE,
      UNITTEST_BASE.replace(
        '    def test_size(self):',
        '    def setUp(self):\n        Cache.maxsize = 0\n\n    def test_size(self):'
      )
    )
    expect(setUp).toMatchObject({ ok: false })
    // The mixin is no test class: a method added there is not a test.
    const mixin = await check(
      'python',
      UNITTEST_BASE,
      UNITTEST_BASE.replace(
        '        return Cache(n)\n',
        '        return Cache(n)\n\n    def test_mixin(self):\n        pass\n'
      )
    )
    expect(mixin).toMatchObject({ ok: false, what: /statement outside the tests/ })
  })

  it("pytest's python_classes and python_functions from the base decide what a test is", async () => {
    const base = 'class DatesSuite:\n    def check_parse(self):\n        assert 1\n'
    const head = `${base}\n    def check_more(self):\n        assert 2\n`
    const style = { pythonClasses: ['*Suite'], pythonFunctions: ['check_*'] }
    expect(await checkStyled('python', base, head, style)).toEqual({
      ok: true,
      added: [{ name: 'check_more', line: 5 }]
    })
    // With pytest's defaults neither the class nor the method is collected: refused.
    expect(await check('python', base, head)).toMatchObject({ ok: false })
    expect(
      await checkStyled('python', base, base.replace('assert 1', 'assert 0 or 1'), style)
    ).toMatchObject({ ok: false, what: 'test "check_parse" was changed or removed' })
  })

  // nanoid's shape: tests inside `if (type === 'node') {…}` and a loop.
  const NANOID_BASE = `import { test } from 'node:test'
import { equal } from 'node:assert'
import { nanoid } from '../index.js'

for (const type of ['node', 'browser']) {
  if (type === 'node') {
    test('has no collisions', () => {
      equal(new Set([nanoid(), nanoid()]).size, 2)
    })
  }
}
`
  it('a test added inside an if block inside a loop is a new test; an edit there names the test', async () => {
    const head = NANOID_BASE.replace(
      '    })\n  }\n',
      "    })\n\n    test('has the right length', () => {\n      equal(nanoid().length, 21)\n    })\n  }\n"
    )
    expect(await check('javascript', NANOID_BASE, head)).toEqual({
      ok: true,
      added: [{ name: "'has the right length'", line: 11 }]
    })
    const weakened = await check(
      'javascript',
      NANOID_BASE,
      NANOID_BASE.replace('size, 2', 'size, new Set([nanoid(), nanoid()]).size')
    )
    expect(weakened).toMatchObject({
      ok: false,
      what: 'test "\'has no collisions\'" was changed or removed'
    })
    // The condition around the tests is no test: changing it is refused as such.
    const condition = await check(
      'javascript',
      NANOID_BASE,
      NANOID_BASE.replace("type === 'node'", "type === 'none'")
    )
    expect(condition).toMatchObject({ ok: false, what: /statement outside the tests/ })
  })
})
