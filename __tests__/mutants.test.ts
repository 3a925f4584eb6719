// The mutants of a patch (src/evidence/mutants.ts) on Python, JavaScript and TypeScript
// snippets parsed with the shipped grammars: each operator in its priority, one mutant per
// line, nothing inside strings or comments, the arid table honoured (and its near misses
// still mutated), the per-file limit and the cap shared fairly over files.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LanguageId } from '../src/lints/parsers.js'
import { judgeMutant } from '../src/evidence/mutate.js'
import { ARID, mutantsFor, selectMutants } from '../src/evidence/mutants.js'
import type { Mutant } from '../src/evidence/types.js'

/** Every line of `text` asked about. */
function allLines(text: string): Set<number> {
  return new Set(text.split('\n').map((_, i) => i + 1))
}

/** The mutant applied: the mutated line, for reading the expectations. */
function applied(text: string, m: Mutant): string {
  const out = text.slice(0, m.start) + m.replacement + text.slice(m.end)
  return out.split('\n')[m.line - 1] ?? ''
}

async function mutated(
  language: LanguageId,
  text: string,
  lines: Set<number> = allLines(text),
  limit = 100
): Promise<Record<number, string>> {
  const out: Record<number, string> = {}
  for (const m of await mutantsFor('f', language, text, lines, limit)) {
    expect(text.slice(m.start, m.end)).toBe(m.original)
    expect(out[m.line]).toBeUndefined()
    out[m.line] = applied(text, m)
  }
  return out
}

describe('operators, in priority', () => {
  it('python: comparison, arithmetic, boundary, negation, constant, removal', async () => {
    const text = [
      'def f(a, b):',
      '    if a < b + 1:',
      '        a = a * 2',
      '    c = a - 3',
      '    d = not a',
      '    e = True',
      "    g = 'open'",
      '    h = 0.5',
      '    save(a)',
      '    return a',
      '    a += b',
      '    return a == b'
    ].join('\n')
    expect(await mutated('python', text)).toEqual({
      2: '    if a <= b + 1:',
      3: '        a = a / 2',
      4: '    c = a + 3',
      5: '    d = a',
      6: '    e = False',
      7: "    g = ''",
      8: '    h = 1.5',
      9: '    pass',
      10: '    return None',
      11: '    a -= b',
      12: '    return a != b'
    })
  })

  it('javascript: the same operators in their JS forms', async () => {
    const text = [
      'function f(a, b) {',
      '  if (a >= b) return 1',
      '  const c = a / b',
      '  const d = !a',
      '  const e = false',
      '  const g = ""',
      '  save(a)',
      '  await flush()',
      '  return a',
      '  return a !== b',
      '  return n + 7',
      '}'
    ].join('\n')
    expect(await mutated('javascript', text)).toEqual({
      2: '  if (a > b) return 1',
      3: '  const c = a * b',
      4: '  const d = a',
      5: '  const e = true',
      6: '  const g = "_"',
      7: '  ;',
      8: '  ;',
      9: '  return undefined',
      10: '  return a === b',
      11: '  return n - 7'
    })
  })

  it('typescript and tsx: annotations and generics are left alone, the code is mutated', async () => {
    const text = [
      'export function f(a: number, b: Array<number>): a is 1 {',
      '  const x: 1 | 2 = 1',
      '  return a > b.length',
      '}'
    ].join('\n')
    expect(await mutated('typescript', text)).toEqual({
      2: '  const x: 1 | 2 = 2',
      3: '  return a >= b.length'
    })
    const tsx = 'export const C = (p: { n: number }) => <div>{p.n > 2 ? "big" : "small"}</div>\n'
    expect(await mutated('tsx', tsx)).toEqual({
      1: 'export const C = (p: { n: number }) => <div>{p.n >= 2 ? "big" : "small"}</div>'
    })
  })

  it('boundary takes integers only; hex, floats and bigints are not off by one', async () => {
    const text = ['x = 0x10', 'y = 1e5', 'z = 41'].join('\n')
    expect(await mutated('python', text)).toEqual({ 3: 'z = 42' })
    expect(await mutated('javascript', 'const a = 10n\nconst b = 0\n')).toEqual({
      2: 'const b = 1'
    })
  })
})

describe('strings and comments are never code', () => {
  it('python: operators inside strings and comments are untouched', async () => {
    const text = ["msg = 'a < b'  # a < b", '# return a == b', 'x = "1 + 2"'].join('\n')
    const got = await mutated('python', text)
    // Only the string constants change, and whole: the `<` in them is never a comparison.
    expect(got).toEqual({ 1: "msg = ''  # a < b", 3: 'x = ""' })
  })

  it('javascript: operators inside template text, comments and regexes are untouched', async () => {
    const text = ['const s = `a < b`', '// a >= b', 'const r = /a<b/', '/* x == y */ f(x)'].join(
      '\n'
    )
    expect(await mutated('javascript', text)).toEqual({ 4: '/* x == y */ ;' })
  })
})

describe('arid lines', () => {
  it('python: logging, print, time, randomness, env, flags, imports, docstrings, formatting', async () => {
    const text = [
      '"""Module doc with a < b."""',
      'import os',
      'from x import y',
      'def f(a):',
      '    "Doc of f."',
      '    print(a + 1)',
      '    logging.info("n=%d", a > 2)',
      '    self.log.debug(a - 1)',
      '    if time.time() > a:',
      '        pass',
      '    r = random.random() * 2',
      "    if os.environ.get('X') == '1':",
      '        pass',
      "    d = os.environ['HOME'] + a",
      "    if flags.is_enabled('new') and a > 1:",
      '        pass',
      '    s = f"{a + 1}"',
      "    t = 'n=%d' % (a + 1)",
      "    u = '{}'.format(a * 2)",
      "    v = 'x' + str(a - 1)",
      "    raise ValueError('bad')",
      '    return a'
    ].join('\n')
    expect(await mutated('python', text)).toEqual({ 22: '    return None' })
  })

  it('javascript: console, Date, Math.random, process.env, require, imports, directives', async () => {
    const text = [
      "'use strict'",
      "import { a } from './a.js'",
      "export { b } from './b.js'",
      "const fs = require('node:fs')",
      'console.log(a + 1)',
      'const t = Date.now() - 5',
      'const d = new Date(2020, 1, 1)',
      'const r = Math.random() * 2',
      "const e = process.env.MODE === 'x'",
      'const m = `n=${a + 1}`',
      "const s = 'n=' + (a + 1)",
      'logger.warn(a > 1)',
      "throw new Error('no')",
      'export const k = a > 1'
    ].join('\n')
    expect(await mutated('javascript', text)).toEqual({ 14: 'export const k = a >= 1' })
  })

  it('typescript: type-only lines get none', async () => {
    const text = [
      'type T = 1 | 2',
      'interface I { a: 3 }',
      'declare const z: 4',
      'export const v: T = 1'
    ].join('\n')
    expect(await mutated('typescript', text)).toEqual({ 4: 'export const v: T = 2' })
  })

  it('near misses stay mutated: math.log, a variable named log, a body under an arid header', async () => {
    const text = [
      'def f(a):',
      '    x = math.log(a) + 1',
      '    log = a > 1',
      '    if time.time() > a:',
      '        a = a * 2',
      '    catalog.update(a)',
      '    return a'
    ].join('\n')
    expect(await mutated('python', text)).toEqual({
      2: '    x = math.log(a) - 1',
      3: '    log = a >= 1',
      5: '        a = a / 2',
      6: '    pass',
      7: '    return None'
    })
  })
})

describe('which lines, and how many', () => {
  it('only the lines asked about, one mutant each, the first operator of the priority', async () => {
    const text = 'def f(a):\n    x = a + 1 < 3 and not True\n    return a * 2\n'
    const ms = await mutantsFor('lib/f.py', 'python', text, new Set([2]), 10)
    expect(ms).toHaveLength(1)
    expect(ms[0]).toMatchObject({ path: 'lib/f.py', line: 2, mutation: '`<` → `<=`' })
  })

  it('a changed line with nothing to mutate, or not parsed, gets none', async () => {
    expect(await mutated('python', 'def f(a):\n    pass\n')).toEqual({})
    expect(await mutantsFor('f.py', 'python', 'x = 1\n', new Set(), 10)).toEqual([])
  })

  it('a limit per file spreads over the file, first line included', async () => {
    const text = Array.from({ length: 10 }, (_, i) => `x${i} = a > ${i}`).join('\n')
    const ms = await mutantsFor('f.py', 'python', text, allLines(text), 3)
    expect(ms.map(m => m.line)).toEqual([1, 4, 7])
  })

  it('the same head yields the same mutants', async () => {
    const text = 'def f(a, b):\n    return a < b or a + b > 3\n'
    const one = await mutantsFor('f.py', 'python', text, allLines(text), 5)
    const two = await mutantsFor('f.py', 'python', text, allLines(text), 5)
    expect(two).toEqual(one)
  })

  it('the description of head-written code is one line, without backticks, bounded', async () => {
    const text = 'function f() {\n  return `x${1}` + "y".repeat(100) + g(\n    1)\n}\n'
    const [m] = await mutantsFor('f.js', 'javascript', text, new Set([2]), 5)
    expect(m?.mutation).toMatch(/^`return [^`\n]{1,40}` → `return undefined`$/)
    const bidi = "function g() {\n  return h('\u202eevil\u200b')\n}\n"
    const [b] = await mutantsFor('g.js', 'javascript', bidi, new Set([2]), 5)
    expect(b?.mutation).toBe("`' evil '` → `''`")
  })
})

describe('selectMutants: the cap over files', () => {
  const file = (path: string, n: number): Mutant[] =>
    Array.from({ length: n }, (_, i) => ({
      path,
      line: i + 1,
      mutation: 'm',
      start: 0,
      end: 0,
      replacement: ''
    }))
  const count = (ms: Mutant[]): Record<string, number> => {
    const out: Record<string, number> = {}
    for (const m of ms) out[m.path] = (out[m.path] ?? 0) + 1
    return out
  }

  it('shares the cap equally; a small file gives its unused share to the others', () => {
    const picked = selectMutants([file('a', 10), file('b', 1), file('c', 10)], 9)
    expect(count(picked)).toEqual({ a: 4, b: 1, c: 4 })
  })

  it('never more than the cap, nor than there are; sorted by path and line', () => {
    expect(selectMutants([file('b', 2), file('a', 2)], 100).map(m => `${m.path}${m.line}`)).toEqual(
      ['a1', 'a2', 'b1', 'b2']
    )
    expect(selectMutants([file('a', 5)], 0)).toEqual([])
    expect(selectMutants([file('a', 5), file('b', 5)], 3)).toHaveLength(3)
  })

  it('spreads a file share over its lines', () => {
    expect(selectMutants([file('a', 9)], 3).map(m => m.line)).toEqual([1, 4, 7])
  })
})

describe('the arid table is documented', () => {
  it('docs/evidence.md "Mutation" names every reason of ARID', () => {
    const text = readFileSync(join(import.meta.dirname, '../docs/evidence.md'), 'utf8')
    const section = text.slice(text.indexOf('## Mutation'))
    const whys = new Set([
      ...Object.values(ARID.statements),
      ...ARID.callees.map(c => c.why),
      ...ARID.reads.map(r => r.why),
      'docstring',
      'directive',
      'string formatting'
    ])
    for (const why of whys) expect(section).toContain(`| \`${why}\` |`)
  })
})

describe('judgeMutant: what one run says of a mutant', () => {
  const m: Mutant = { path: 'f.py', line: 2, mutation: 'm', start: 0, end: 1, replacement: '' }
  const seen = (entries: Record<string, string[]>): Map<string, { outcomes: string[] }> =>
    new Map(Object.entries(entries).map(([id, outcomes]) => [id, { outcomes }]))

  it('killed by the first selected test, in the order given, that failed or errored', () => {
    const run = seen({ 't.py::a': ['passed'], 't.py::b': ['error'], 't.py::c': ['failed'] })
    expect(judgeMutant(m, ['t.py::a', 't.py::c', 't.py::b'], run).killed_by).toBe('t.py::c')
  })

  it("not run (never killed) when a selected test's file did not load", () => {
    const run = seen({ 't.py::<collection>': ['error'] })
    expect(judgeMutant(m, ['t.py::a'], run)).toMatchObject({
      killed_by: null,
      not_run: expect.stringMatching(/stopped t\.py from loading/)
    })
  })

  it('a failure of a test not selected kills nothing', () => {
    const run = seen({ 't.py::a': ['passed'], 't.py::other': ['failed'] })
    expect(judgeMutant(m, ['t.py::a'], run)).toEqual({ ...m, killed_by: null })
  })

  it('survives only when every selected test ran and none failed', () => {
    const run = seen({ 't.py::a': ['passed'], 't.py::b': ['skipped'] })
    expect(judgeMutant(m, ['t.py::a', 't.py::b'], run)).toEqual({ ...m, killed_by: null })
  })

  it('a selected test missing from the report, or none that ran, is not run', () => {
    expect(judgeMutant(m, ['t.py::a', 't.py::b'], seen({ 't.py::a': ['passed'] }))).toEqual({
      ...m,
      killed_by: null,
      not_run: '1 selected test(s) did not report'
    })
    expect(judgeMutant(m, ['t.py::a'], seen({ 't.py::a': ['skipped'] })).not_run).toBe(
      'no selected test ran'
    )
  })
})
