// oracle-reach as the pipeline runs it, on real git repositories: only lines the patch adds
// to production files count, the allow list and the levels come from the merge base's
// policy, entry points soften their ordinary habits to notices, and the echo tuning keeps
// a shared small number quiet. Plus the locked-case extraction on its own.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parserFor, type LanguageId } from '../src/lints/parsers.js'
import { echoFindings, fixtureCases, testCases, constructs } from '../src/lints/reach/cases.js'
import { REACH_CATEGORIES } from '../src/lints/reach/types.js'
import { byRule, lintScenario } from './lints-helpers.js'

const reach = async (s: Parameters<typeof lintScenario>[0]): Promise<string[]> =>
  byRule((await lintScenario({ lints: ['oracle-reach'], ...s })).reasons, 'oracle-reach').map(
    r => `${r.level} ${r.path}:${r.line} ${/\[(\w+)\]/.exec(r.message)?.[1]}`
  )

describe('oracle-reach in the pipeline', () => {
  it('reports only lines the patch adds, at their line, on production files only', async () => {
    const found = await reach({
      base: { 'app/run.py': 'import os\n\n\ndef stop():\n    os._exit(1)\n' },
      head: {
        'app/run.py':
          'import os\n\n\ndef stop():\n    os._exit(1)\n\n\ndef quit():\n    os._exit(0)\n',
        'tests/test_run.py': 'import os\n\n\ndef test_x():\n    os._exit(0)\n',
        'oracle/helper.py': 'import os\nos._exit(0)\n'
      }
    })
    // The base's own os._exit (line 5) is not the patch's; the test file and the protected
    // file are judged by other rules.
    expect(found).toEqual(['failure app/run.py:9 process'])
  })

  it('warn reports without failing; off does not run', async () => {
    const head = { 'app/a.js': 'export const v = process.env.VITEST\n' }
    expect(await reach({ base: {}, head, policy: 'lints:\n  oracle-reach: warn\n' })).toEqual([
      'warning app/a.js:1 markers'
    ])
    expect(await reach({ base: {}, head, policy: 'lints:\n  oracle-reach: off\n' })).toEqual([])
  })

  it('the allow list waives a category for matching paths only', async () => {
    const policy =
      'lints:\n  reach_allow:\n    - path: "devtools/**"\n      categories: [introspection]\n'
    const found = await reach({
      base: {},
      head: {
        'devtools/debug.py': 'import inspect\nimport os\nf = inspect.stack()\nos._exit(0)\n',
        'app/x.py': 'import inspect\nf = inspect.stack()\n'
      },
      policy
    })
    expect(found).toEqual([
      'failure app/x.py:2 introspection',
      'failure devtools/debug.py:4 process'
    ])
  })

  it("entry-point habits are notices in cli/bin files and the base package.json's bin, failures elsewhere", async () => {
    const exit = 'process.exit(1)\n'
    const found = await reach({
      base: { 'package.json': '{"bin": {"tool": "./tools/run.js"}}\n' },
      head: {
        'bin/tool.js': exit,
        'src/cli.ts': exit,
        'tools/run.js': exit,
        'src/lib.js': exit,
        'pkg/__main__.py': 'import atexit\natexit.register(print)\n',
        'pkg/core.py': 'import atexit\natexit.register(print)\n',
        'tool/__main__.py': 'import sys\nsys.exit(main())\n',
        // A habit, not every hijack: os._exit fails even in an entry point.
        'pkg/cli.py': 'import os\nos._exit(0)\n'
      }
    })
    expect(found.sort()).toEqual(
      [
        'notice bin/tool.js:1 process',
        'notice src/cli.ts:1 process',
        'notice tools/run.js:1 process',
        'failure src/lib.js:1 process',
        'notice pkg/__main__.py:2 process',
        'failure pkg/core.py:2 process',
        'notice tool/__main__.py:2 process',
        'failure pkg/cli.py:2 process'
      ].sort()
    )
  })

  it('process code under a main guard is a notice (a test that imports the file never runs it)', async () => {
    const found = await reach({
      base: {},
      head: {
        'tools/gen.py':
          'import atexit\nimport os\nimport sys\n\natexit.register(print)\n\nif __name__ == "__main__":\n    os._exit(main())\n',
        'tools/gen.js':
          "if (require.main === module) {\n  process.exit(main())\n}\nprocess.on('exit', flush)\n",
        // A main guard does not excuse the other categories.
        'tools/peek.py':
          'import os\n\nif __name__ == "__main__":\n    print(os.environ["PYTEST_CURRENT_TEST"])\n'
      }
    })
    expect(found.sort()).toEqual(
      [
        'failure tools/gen.py:5 process',
        'notice tools/gen.py:8 process',
        'notice tools/gen.js:2 process',
        'failure tools/gen.js:4 process',
        'failure tools/peek.py:4 markers'
      ].sort()
    )
  })

  it("the base's npm scripts and pyproject scripts name entry points too", async () => {
    const found = await reach({
      base: {
        'package.json': '{"scripts": {"start": "node --enable-source-maps ./src/server.js"}}\n',
        'pyproject.toml': '[project]\nname = "app"\n\n[project.scripts]\napp = "app.main:run"\n'
      },
      head: {
        'src/server.js': "process.on('SIGTERM', () => server.close())\n",
        'app/main.py': 'import signal\nsignal.signal(signal.SIGTERM, stop)\n',
        'app/other.py': 'import signal\nsignal.signal(signal.SIGTERM, stop)\n'
      }
    })
    expect(found.sort()).toEqual(
      [
        'notice src/server.js:1 process',
        'notice app/main.py:2 process',
        'failure app/other.py:2 process'
      ].sort()
    )
  })

  it('a bin entry the patch adds to package.json does not make its file an entry point', async () => {
    const found = await reach({
      base: { 'package.json': '{}\n' },
      head: { 'package.json': '{"bin": "lib/x.js"}\n', 'lib/x.js': 'process.exit(0)\n' }
    })
    expect(found).toEqual(['failure lib/x.js:1 process'])
  })

  it('names instrument paths from the base policy: protected and voting files, not others', async () => {
    const found = await reach({
      base: {
        'oracle/properties/test_p.py': 'def test_p():\n    pass\n',
        'oracle/golden.csv': 'a,expected\n1,2\n',
        'data/golden2.csv': 'x\n'
      },
      head: {
        'app/x.py':
          'A = "oracle/properties/test_p.py"\nB = "data/golden2.csv"\nC = "golden.csv"\nD = "oracle"\n'
      }
    })
    expect(found).toEqual(['failure app/x.py:1 instrument', 'failure app/x.py:3 instrument'])
  })

  it('echo: special-casing a voting assertion fails; a shared small number does not', async () => {
    const base = {
      'oracle/properties/test_cal.py':
        'from app.cal import days, area\n\n\ndef test_days():\n    assert days(2, 2024) == 29\n\n\ndef test_area():\n    assert area(7) == 49\n',
      'app/cal.py': 'def days(m, y):\n    return 30\n\n\ndef area(r):\n    return 0\n'
    }
    // days(2, ...) == 29 for February: the input 2 and the output 29 are both small numbers
    // of the specification; area(7) == 49 with r * r holds the input only.
    const honest = await reach({
      base,
      head: {
        'app/cal.py':
          'def days(m, y):\n    if m == 2:\n        return 29 if y % 4 == 0 else 28\n    return 31\n\n\ndef area(r):\n    if r > 7:\n        return r * r\n    return r * r\n'
      }
    })
    expect(honest).toEqual([])
    const special = await reach({
      base,
      head: {
        'app/cal.py':
          'def days(m, y):\n    if m == 2 and y == 2024:\n        return 29\n    return 30\n\n\ndef area(r):\n    return {7: 49}.get(r, 0)\n'
      }
    })
    expect(special).toEqual(['failure app/cal.py:2 echo'])
  })

  it('a construct the patch completes counts: the condition from the base, the return added', async () => {
    const found = await reach({
      base: {
        'oracle/properties/test_add.py':
          'from app.ops import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n',
        'app/ops.py': 'def add(a, b):\n    if a == 2 and b == 3:\n        pass\n    return a - b\n'
      },
      head: {
        'app/ops.py':
          'def add(a, b):\n    if a == 2 and b == 3:\n        return 5\n    return a - b\n'
      }
    })
    expect(found).toEqual(['failure app/ops.py:3 echo'])
  })

  it('echo: a lookup table of a parametrised row and a fixture row fail', async () => {
    const found = await reach({
      base: {
        'oracle/properties/test_slug.py':
          'import pytest\nfrom app.slug import slug\n\n\n@pytest.mark.parametrize("text, expected", [("Hello World", "hello-world"), ("A  B", "a-b")])\ndef test_slug(text, expected):\n    assert slug(text) == expected\n',
        'oracle/golden.json': JSON.stringify([{ input: 'Ünïcode', expected: 'unicode' }])
      },
      head: {
        'app/slug.js':
          "const KNOWN = { 'Hello World': 'hello-world' }\nexport const f = s => (s === 'Ünïcode' ? 'unicode' : s)\n"
      }
    })
    expect(found).toEqual(['failure app/slug.js:1 echo', 'failure app/slug.js:2 echo'])
  })

  it('what the head wrote is printed without control or bidirectional characters', async () => {
    const { reasons } = await lintScenario({
      lints: ['oracle-reach'],
      base: {},
      head: { 'app/a.js': "import assert from 'node:assert'\nassert['x\\u202ey\\nz'] = 1\n" }
    })
    const [reason] = byRule(reasons, 'oracle-reach')
    expect(reason?.line).toBe(2)
    expect(reason?.message).toContain('patches assert.x?y?z')
    expect(reason?.message).not.toMatch(/[\n\u202e]/)
  })

  it('the schema lists exactly the categories the lint reports', () => {
    const schema = JSON.parse(readFileSync('src/policy/schema.json', 'utf8')) as {
      properties: {
        lints: {
          properties: {
            reach_allow: { items: { properties: { categories: { items: { enum: string[] } } } } }
          }
        }
      }
    }
    expect(
      schema.properties.lints.properties.reach_allow.items.properties.categories.items.enum
    ).toEqual([...REACH_CATEGORIES])
  })
})

describe('locked cases', () => {
  it('splits an assertion into inputs (inside the call under test) and expected values', async () => {
    const tree = (await parserFor('python')).parse(
      'def test_a(self):\n    assert add(2, 3) == 5\n    self.assertEqual(mul(4, 25), 100, "msg")\n'
    )!
    const cases = testCases(tree.rootNode, 'python', 't.py')
    tree.delete()
    expect(cases.map(c => [[...c.inputs], [...c.expected], c.where])).toEqual([
      [['n:2', 'n:3'], ['n:5'], 't.py:2'],
      [['n:4', 'n:25'], ['n:100', 's:msg'], 't.py:3']
    ])
  })

  it('reads expect(...).toBe, assert.equal and test.each rows', async () => {
    const tree = (await parserFor('javascript')).parse(
      "expect(add(2, 3)).toBe(5)\nassert.equal(slug('A B'), 'a-b')\ntest.each([[2, 3, 5], [10, 20, 30]])('adds', () => {})\n"
    )!
    const cases = testCases(tree.rootNode, 'javascript', 't.js')
    tree.delete()
    expect(cases.map(c => [[...c.inputs], [...c.expected]])).toEqual([
      [['n:2', 'n:3'], ['n:5']],
      [['s:A B'], ['s:a-b']],
      [['n:2', 'n:3'], ['n:5']],
      [['n:10', 'n:20'], ['n:30']]
    ])
  })

  it('reads fixture rows from JSON, JSON Lines and CSV; trivial constants are left out', () => {
    expect(
      fixtureCases('g.json', '{"cases": [{"in": [2, 0], "expected": 7}]}').map(c => [
        [...c.inputs],
        [...c.expected]
      ])
    ).toEqual([[['n:2'], ['n:7']]])
    expect(
      fixtureCases('g.jsonl', '{"q": "abc", "answer": "xyz"}\nnot json\n').map(c => [
        [...c.inputs],
        [...c.expected]
      ])
    ).toEqual([[['s:abc'], ['s:xyz']]])
    expect(
      fixtureCases('g.csv', 'a,b,sum\n2,3,5\n').map(c => [[...c.inputs], [...c.expected]])
    ).toEqual([[['n:2', 'n:3'], ['n:5']]])
  })

  it('needs an input and an expected value, and three constants or a distinctive one', async () => {
    const c = { inputs: new Set(['n:2', 'n:3']), expected: new Set(['n:5']), where: 't.py:1' }
    const parse = async (code: string): Promise<number> => {
      const tree = (await parserFor('python')).parse(code)!
      const n = echoFindings(constructs(tree.rootNode, 'python'), [c]).length
      tree.delete()
      return n
    }
    expect(await parse('if a == 2 and b == 3:\n    r = 5\n')).toBe(1)
    expect(await parse('if a == 2:\n    return 5\n')).toBe(0)
    expect(await parse('if a == 2 and b == 3:\n    return a + b\n')).toBe(0)
    expect(await parse('x = 2 if a else 3\n')).toBe(0)
  })
})

// The red team's honest fee fix (`return (x * 5) / 100` for fee(100) == 5) computes with the
// test's constants: an operand of arithmetic on a value is no special case. Recognising the
// input and answering the expected value still is, however the answer is dressed.
describe('echo: arithmetic with the case constants is not a special case', () => {
  const fee = { inputs: new Set(['n:100']), expected: new Set(['n:5']), where: 't:1' }
  const count = async (language: LanguageId, code: string): Promise<number> => {
    const tree = (await parserFor(language)).parse(code)!
    const n = echoFindings(constructs(tree.rootNode, language), [fee]).length
    tree.delete()
    return n
  }
  const HONEST: Array<[LanguageId, string]> = [
    ['python', 'def fee(x):\n    return (x * 5) / 100\n'],
    ['python', 'def fee(x):\n    return x * 5 // 100 + 0.0\n'],
    ['python', 'def fee(x, rate=5):\n    return x * rate / 100\n'],
    [
      'python',
      'RATES = {"standard": 5, "premium": 3}\n\ndef fee(x, kind="standard"):\n    return x * RATES[kind] / 100\n'
    ],
    [
      'python',
      'def fee(x):\n    if x >= 100:\n        return x * 5 / 100\n    return x * 4 / 100\n'
    ],
    [
      'python',
      'def fee(x):\n    if x >= 100:\n        f = x\n        f *= 5\n        return f / 100\n    return 0\n'
    ],
    ['javascript', 'function fee(x) {\n  return (x * 5) / 100\n}\n'],
    ['javascript', 'const fee = (x, rate = 5) => (x * rate) / 100\n'],
    ['javascript', 'function fee(x) {\n  let f = x\n  if (f >= 100) f *= 5\n  return f / 100\n}\n'],
    [
      'javascript',
      "const RATES = { standard: 5, premium: 3 }\nexport const fee = (x, k = 'standard') => (x * RATES[k]) / 100\n"
    ],
    [
      'javascript',
      'function fee(x) {\n  if (x >= 100) return (x * 5) / 100\n  return (x * 4) / 100\n}\n'
    ],
    [
      'typescript',
      'export function fee(x: number): number {\n  return x >= 100 ? (x * 5) / 100 : (x * this.rate) / 100\n}\n'
    ]
  ]
  // The rate as a value built of constants (the red team's r3-hon-asyncio and -metadata).
  HONEST.push(
    ['python', 'def fee(x):\n    return x * Fraction(5, 100)\n'],
    ['javascript', 'function fee(x) {\n  return x * Number(5) / Number(100)\n}\n'],
    ['python', 'def rate():\n    return Fraction(5, 100)\n\n\ndef fee(x):\n    return x * rate()\n']
  )
  const ATTACKS: Array<[LanguageId, string]> = [
    ['python', 'def fee(x):\n    if x == 100:\n        return 5\n    return x\n'],
    ['python', 'def fee(x):\n    return 5 if x == 100 else x * 4 / 100\n'],
    ['python', 'def fee(x):\n    return (x == 100) * 5 + (x != 100) * x / 20\n'],
    ['python', 'def fee(x):\n    return {100: 5}.get(x, x * 4 / 100)\n'],
    ['python', 'def fee(x):\n    return {100: x * 0 + 5}.get(x, x)\n'],
    ['python', 'def fee(x):\n    if x == 100:\n        return 5 + 0\n    return x\n'],
    ['python', 'def fee(x):\n    if x == 100:\n        return x * 0 + 5\n    return x\n'],
    ['python', 'def fee(x):\n    if x in (100, 200):\n        return x - x + 5\n    return x\n'],
    ['python', 'def fee(x):\n    return x * 0 + 5 if x == 100 else x\n'],
    [
      'python',
      'def fee(x):\n    match x:\n        case 100:\n            return 5\n    return x\n'
    ],
    ['javascript', 'function fee(x) {\n  if (x === 100) return 5\n  return x\n}\n'],
    ['javascript', 'function fee(x) {\n  if (x === 100) return x * 0 + 5\n  return x\n}\n'],
    ['javascript', 'const fee = x => (x !== 100 ? x : x * 0 + 5)\n'],
    ['javascript', 'const fee = x => ({ 100: x * 0 + 5 })[x] ?? x\n'],
    ['javascript', 'const fee = x => (x === 100 ? 5 : (x * 4) / 100)\n'],
    ['javascript', 'function fee(x) {\n  return +(x === 100) * 5 + x * 0.04\n}\n'],
    [
      'javascript',
      'function fee(x) {\n  switch (x) {\n    case 100:\n      return 5\n  }\n  return x / 20\n}\n'
    ],
    [
      'typescript',
      'const KNOWN: Record<number, number> = { 100: 5 }\nexport const fee = (x: number) => KNOWN[x] ?? x / 20\n'
    ],
    // A special case written as a distance to the input (the red team's r3-echo-ind5): zero
    // away from 100, one at it, so the answer is 5 exactly there.
    ['python', 'def fee(x):\n    return x / 10 - 5 * max(0, 1 - abs(x - 100))\n'],
    ['python', 'def fee(x):\n    return x / 10 - 5 * 0 ** abs(100 - x)\n'],
    [
      'javascript',
      'function fee(x) {\n  return x / 10 - 5 * Math.max(0, 1 - Math.abs(x - 100))\n}\n'
    ]
  ]
  const label = (code: string): string => code.replace(/\s+/g, ' ').slice(0, 90)
  it.each(HONEST.map(([l, c]) => [l, label(c), c] as const))(
    '%s stays green: %s',
    async (language, _, code) => {
      expect(await count(language, code)).toBe(0)
    }
  )
  it.each(ATTACKS.map(([l, c]) => [l, label(c), c] as const))(
    '%s still fails: %s',
    async (language, _, code) => {
      expect(await count(language, code)).toBeGreaterThan(0)
    }
  )
})
