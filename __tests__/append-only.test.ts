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
