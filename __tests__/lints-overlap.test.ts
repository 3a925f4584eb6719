import { describe, expect, it } from 'vitest'
import { byRule, lintScenario } from './lints-helpers.js'

const MESSAGE = 'quantity must be a positive integer'

/** One language's way of writing the same scenario files. */
interface Lang {
  name: string
  prod: string
  test: string
  /** Production module raising an error with `literal`, plus `extra` lines. */
  code(literal: string, extra?: string): string
  /** Test file asserting on `literal`. */
  spec(literal: string): string
  /** Production module whose docstring (or doc comment / bare string) is `text`. */
  documented(text: string): string
}

const python: Lang = {
  name: 'Python',
  prod: 'src/shop/cart.py',
  test: 'tests/test_cart.py',
  code: (literal, extra = '') =>
    `def add(qty):\n    if qty <= 0:\n        raise ValueError("${literal}")\n    return qty\n${extra}`,
  spec: literal =>
    `import pytest\nfrom shop.cart import add\n\n\ndef test_rejects_negative():\n    with pytest.raises(ValueError) as e:\n        add(-1)\n    assert str(e.value) == "${literal}"\n`,
  documented: text => `def total(items):\n    """${text}"""\n    return sum(items)\n`
}

const javascript: Lang = {
  name: 'JavaScript',
  prod: 'src/cart.js',
  test: 'tests/cart.test.js',
  code: (literal, extra = '') =>
    `export function add(qty) {\n  if (qty <= 0) {\n    throw new Error('${literal}')\n  }\n  return qty\n}\n${extra}`,
  spec: literal =>
    `const { add } = require('../src/cart.js')\n\ntest('rejects negative', () => {\n  expect(() => add(-1)).toThrow("${literal}")\n})\n`,
  documented: text =>
    `/** ${text} */\nexport function total(items) {\n  'use strict'\n  return items.length\n}\n'${text}'\n`
}

const typescript: Lang = {
  name: 'TypeScript',
  prod: 'src/cart.ts',
  test: 'src/cart.test.ts',
  code: (literal, extra = '') =>
    `export function add(qty: number): number {\n  if (qty <= 0) throw new Error(\`${literal}\`)\n  return qty\n}\n${extra}`,
  spec: literal =>
    `import { describe, expect, it } from 'vitest'\nimport { add } from './cart'\n\ndescribe('add', () => {\n  it('rejects', () => {\n    expect(() => add(-1)).toThrow('${literal}')\n  })\n})\n`,
  documented: text =>
    `/** ${text} */\nexport const total = (items: number[]): number => items.length\n`
}

const tsx: Lang = {
  name: 'TSX',
  prod: 'src/Cart.tsx',
  test: 'src/Cart.test.tsx',
  code: (literal, extra = '') =>
    `export function Cart({ qty }: { qty: number }) {\n  return <p className="cart" title="${literal}">{qty}</p>\n}\n${extra}`,
  spec: literal =>
    `import { render } from '@testing-library/react'\nimport { Cart } from './Cart'\n\nit('shows the title', () => {\n  const { container } = render(<Cart qty={1} />)\n  expect(container.innerHTML).toContain("${literal}")\n})\n`,
  documented: text => `/** ${text} */\nexport const Total = () => <span>total</span>\n`
}

describe.each([python, javascript, typescript, tsx])('literal-overlap in $name', lang => {
  it('fires when a test repeats a literal the patch adds to production code', async () => {
    const { reasons } = await lintScenario({
      base: { [lang.prod]: lang.code('placeholder message') },
      head: { [lang.prod]: lang.code(MESSAGE), [lang.test]: lang.spec(MESSAGE) }
    })
    const found = byRule(reasons, 'literal-overlap')
    expect(found).toHaveLength(1)
    const reason = found[0]
    expect(reason).toMatchObject({ level: 'failure', path: lang.test })
    const testLine =
      lang
        .spec(MESSAGE)
        .split('\n')
        .findIndex(l => l.includes(MESSAGE)) + 1
    const prodLine =
      lang
        .code(MESSAGE)
        .split('\n')
        .findIndex(l => l.includes(MESSAGE)) + 1
    expect(reason?.line).toBe(testLine)
    expect(reason?.message).toContain(JSON.stringify(MESSAGE))
    expect(reason?.message).toContain(`${lang.prod}:${prodLine}`)
  })

  it('stays quiet when the literal was already in the base version of the production file', async () => {
    const { reasons } = await lintScenario({
      base: { [lang.prod]: lang.code(MESSAGE) },
      head: {
        [lang.prod]: lang.code(
          MESSAGE,
          '\n// touched\n'.replace('//', lang === python ? '#' : '//')
        ),
        [lang.test]: lang.spec(MESSAGE)
      }
    })
    expect(byRule(reasons, 'literal-overlap')).toEqual([])
  })

  it('stays quiet for literals shorter than the minimum and for allow-listed ones', async () => {
    const short = 'bad q'
    const shortRun = await lintScenario({
      base: { [lang.prod]: lang.code('placeholder message') },
      head: { [lang.prod]: lang.code(short), [lang.test]: lang.spec(short) }
    })
    expect(byRule(shortRun.reasons, 'literal-overlap')).toEqual([])

    const allowed = await lintScenario({
      base: { [lang.prod]: lang.code('placeholder message') },
      head: { [lang.prod]: lang.code(MESSAGE), [lang.test]: lang.spec(MESSAGE) },
      policy: `lints:\n  literal_allow: ["${MESSAGE}"]\n`
    })
    expect(byRule(allowed.reasons, 'literal-overlap')).toEqual([])

    // The same short literal fires once the minimum is lowered: the length is what kept it quiet.
    const lowered = await lintScenario({
      base: { [lang.prod]: lang.code('placeholder message') },
      head: { [lang.prod]: lang.code(short), [lang.test]: lang.spec(short) },
      policy: 'lints:\n  literal_min_length: 4\n'
    })
    expect(byRule(lowered.reasons, 'literal-overlap')).toHaveLength(1)
  })

  it('stays quiet when the shared text is a docstring or doc comment in production code', async () => {
    const doc = 'Sum of the line items, in cents'
    const { reasons } = await lintScenario({
      base: { [lang.prod]: lang.code('placeholder message') },
      head: { [lang.prod]: lang.documented(doc), [lang.test]: lang.spec(doc) }
    })
    expect(byRule(reasons, 'literal-overlap')).toEqual([])
  })
})

describe('literal-overlap details', () => {
  it('uses the static parts of f-strings and template literals, on both sides', async () => {
    const py = await lintScenario({
      base: { 'src/greet.py': 'def greet(name):\n    return name\n' },
      head: {
        'src/greet.py': 'def greet(name):\n    return f"Hello, {name}! Welcome back to the shop"\n',
        'tests/test_greet.py':
          'from greet import greet\n\n\ndef test_greet():\n    assert greet("Ann") == "Hello, Ann! Welcome back to the shop"\n'
      }
    })
    const [reason] = byRule(py.reasons, 'literal-overlap')
    expect(reason?.message).toContain('"! Welcome back to the shop"')
    expect(reason?.message).toContain('src/greet.py:2')

    const ts = await lintScenario({
      base: { 'src/greet.ts': 'export const greet = (n: string) => n\n' },
      head: {
        'src/greet.ts': 'export const greet = (n: string) => `Dear ${n}, your order has shipped`\n',
        'src/greet.test.ts':
          "import { greet } from './greet'\nconst name = 'Bo'\nexpect(greet(name)).toBe(`Dear ${name}, your order has shipped`)\n"
      }
    })
    const [tsReason] = byRule(ts.reasons, 'literal-overlap')
    expect(tsReason).toMatchObject({ path: 'src/greet.test.ts', line: 3 })
    expect(tsReason?.message).toContain('", your order has shipped"')
  })

  it('ignores module paths shared by production and test imports', async () => {
    const { reasons } = await lintScenario({
      base: { 'src/app.ts': 'export const x = 1\n' },
      head: {
        'src/app.ts':
          "import { fmt } from './formatting-helpers'\nexport { util } from './formatting-helpers'\nconst m = require('./formatting-helpers')\nexport const x = fmt(m)\n",
        'src/app.test.ts':
          "import { fmt } from './formatting-helpers'\nvi.mock('./formatting-helpers')\nconst l = await import('./formatting-helpers')\n"
      }
    })
    expect(byRule(reasons, 'literal-overlap')).toEqual([])
  })

  it('stays quiet when the literal existed in another base file (moved code, or taken from a spec)', async () => {
    const { reasons } = await lintScenario({
      base: { 'src/legacy.py': `ERRORS = {"qty": "${MESSAGE}"}\n`, 'src/cart.py': 'X = 1\n' },
      head: { 'src/cart.py': python.code(MESSAGE), 'tests/test_cart.py': python.spec(MESSAGE) }
    })
    expect(byRule(reasons, 'literal-overlap')).toEqual([])
  })

  it('stays quiet when the literal moved out of a production file the patch deletes', async () => {
    const { reasons } = await lintScenario({
      base: { 'src/old_cart.py': python.code(MESSAGE), 'src/cart.py': 'X = 1\n' },
      head: { 'src/cart.py': python.code(MESSAGE), 'tests/test_cart.py': python.spec(MESSAGE) },
      remove: ['src/old_cart.py']
    })
    expect(byRule(reasons, 'literal-overlap')).toEqual([])
  })

  it('still fires when the base only had the literal in a test file', async () => {
    const { reasons } = await lintScenario({
      base: { 'tests/test_old.py': `OLD = "${MESSAGE}"\n`, 'src/cart.py': 'X = 1\n' },
      head: { 'src/cart.py': python.code(MESSAGE), 'tests/test_cart.py': python.spec(MESSAGE) }
    })
    expect(byRule(reasons, 'literal-overlap')).toHaveLength(1)
  })

  it('stays quiet when the test already held the literal at the base (test first, code later)', async () => {
    const { reasons } = await lintScenario({
      base: { 'src/cart.py': 'X = 1\n', 'tests/test_cart.py': python.spec(MESSAGE) },
      head: {
        'src/cart.py': python.code(MESSAGE),
        'tests/test_cart.py': python.spec(MESSAGE) + '\n\ndef test_more():\n    assert True\n'
      }
    })
    expect(byRule(reasons, 'literal-overlap')).toEqual([])
  })

  it('counts literals on any test plane, and caps the list with a count', async () => {
    const literals = Array.from({ length: 7 }, (_, i) => `distinct message number ${i}`)
    const { reasons } = await lintScenario({
      base: { 'src/msgs.py': 'X = 1\n' },
      head: {
        'src/msgs.py': literals.map((l, i) => `M${i} = "${l}"\n`).join(''),
        'drafts/test_msgs.py': literals
          .map((l, i) => `def test_${i}():\n    assert M${i} == "${l}"\n`)
          .join('')
      }
    })
    const [reason] = byRule(reasons, 'literal-overlap')
    expect(reason?.path).toBe('drafts/test_msgs.py')
    expect(reason?.message).toContain('repeats 7 string literal(s)')
    expect(reason?.message).toContain('and 2 more')
  })

  it('follows the mode: off reports nothing, warn reports a warning', async () => {
    const scenario = {
      base: { [python.prod]: python.code('placeholder message') },
      head: { [python.prod]: python.code(MESSAGE), [python.test]: python.spec(MESSAGE) }
    }
    const off = await lintScenario({ ...scenario, policy: "lints:\n  literal-overlap: 'off'\n" })
    expect(byRule(off.reasons, 'literal-overlap')).toEqual([])
    const warn = await lintScenario({ ...scenario, policy: 'lints:\n  literal-overlap: warn\n' })
    expect(byRule(warn.reasons, 'literal-overlap').map(r => r.level)).toEqual(['warning'])
  })
})
