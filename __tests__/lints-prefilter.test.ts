// The literal-overlap prefilter may only skip production files that cannot contribute:
// whenever the parser finds, in a file, an eligible literal contained in a candidate test
// literal (and not in the file's own base text), the prefilter must have let the file
// through. Checked on hand-written traps, on random (often broken) sources, and end to end.
import { describe, expect, it } from 'vitest'
import { extractFacts } from '../src/lints/extract.js'
import { eligible, valuesFoundIn } from '../src/lints/overlap.js'
import { parserFor, type LanguageId } from '../src/lints/parsers.js'
import { candidateIndex, mayHoldOverlap } from '../src/lints/prefilter.js'
import { byRule, lintScenario } from './lints-helpers.js'

const NONE = new Set<string>()

async function literalsOf(language: LanguageId, text: string): Promise<string[]> {
  const tree = (await parserFor(language)).parse(text)
  if (!tree) throw new Error('no tree')
  try {
    return extractFacts(tree, language).literals.map(l => l.value)
  } finally {
    tree.delete()
  }
}

/** What the rule needs: an eligible literal inside a candidate, not in the base text. */
function contributes(
  literals: string[],
  candidates: string[],
  min: number,
  base: string | undefined
): string | undefined {
  return literals.find(
    p =>
      eligible(p, min, NONE) &&
      candidates.some(t => t.includes(p)) &&
      (base === undefined || !base.includes(p))
  )
}

async function check(
  language: LanguageId,
  text: string,
  candidates: string[],
  min: number,
  base?: string
): Promise<{ parsed: string | undefined; passes: boolean }> {
  const parsed = contributes(await literalsOf(language, text), candidates, min, base)
  const passes = mayHoldOverlap(text, language === 'python', candidateIndex(candidates, min), base)
  return { parsed, passes }
}

describe('literal prefilter: traps', () => {
  const cases: Array<[LanguageId, string, string]> = [
    ['python', 'x = "invalid input"\n', 'invalid input'],
    ['python', 'x = "bad input"\n', 'Error: bad input given'],
    ['python', 'x = "in" "valid input"\n', 'invalid input'],
    ['python', 'x = ("in"  # split\n     "valid" f"{y}" "input")\n', 'invalid'],
    ['python', 'x = "in""valid input"\n', 'invalid input'],
    ['python', 'x = "in"f"valid input"\n', 'invalid input'],
    ['python', 'x = "in" """valid input"""\n', 'invalid input'],
    ['python', 'x = "inval\\x69d input"\n', 'invalid input'],
    ['python', 'x = "inval\\\nid input"\n', 'invalid input'],
    ['python', 'x = f"{a}{{invalid}}{b}"\n', '{invalid}'],
    ['python', 'x = f"{a} invalid input {b}"\n', ' invalid input '],
    ['python', 'x = r"\\d+ invalid"\n', '\\d+ invalid'],
    ['python', "x = '''invalid input'''\n", 'invalid input'],
    ['python', 'x = "snow ☃ man"\n', 'a snow ☃ man'],
    ['javascript', "const x = 'invalid input'\n", 'invalid input'],
    ['javascript', 'const x = "it\'s invalid"\n', "it's invalid"],
    ['javascript', 'const x = `${a} invalid input ${b}`\n', ' invalid input '],
    ['javascript', 'const x = `cost $5 each`\n', 'cost $5 each'],
    ['javascript', "const x = 'inval\\u0069d input'\n", 'invalid input'],
    ['javascript', "const x = 'inval\\u{69}d input'\n", 'invalid input'],
    ['javascript', "const x = 'emoji 😀 here'\n", 'emoji 😀 here'],
    ['typescript', "type T = 'invalid input' | 'other'\n", 'invalid input'],
    ['tsx', 'const x = <a title="invalid input">hi</a>\n', 'invalid input']
  ]
  it.each(cases)('%s: %j lets the file through', async (language, text, candidate) => {
    const { parsed, passes } = await check(language, text, [candidate], 6)
    expect(parsed).toBeDefined()
    expect(passes).toBe(true)
  })

  it('passes over files whose literals no candidate contains', async () => {
    const py = 'def f(x):\n    """message 3 1 v0"""\n    return {"key": "message 3 1 v1"}\n'
    const candidates = ['message 35 1 v1', 'added message 9 1 v1']
    expect(await check('python', py, candidates, 6)).toEqual({ parsed: undefined, passes: false })
    const ts =
      "export function f(x: number) {\n  throw new Error(`bad ${x} in f1`)\n  return 'message 3 1 v1'\n}\n"
    expect(await check('typescript', ts, candidates, 6)).toEqual({
      parsed: undefined,
      passes: false
    })
    // The same file with a literal a candidate holds goes through.
    const copied = ts.replace('message 3 1 v1', 'message 9 1 v1')
    expect((await check('typescript', copied, candidates, 6)).passes).toBe(true)
  })

  it("passes over a literal the file's own base text already holds, and only that", async () => {
    const text = "const a = ' in f10'\n"
    expect(await check('javascript', text, ['bad in f10'], 6, "x(' in f10')")).toEqual({
      parsed: undefined,
      passes: false
    })
    expect((await check('javascript', text, ['bad in f10'], 6, "x(' in f11')")).passes).toBe(true)
  })
})

/** A small deterministic generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SEED = 20260101
const FILES = 3000

const WORDS = ['ab', 'abc', 'bcd', 'cde', 'xyz', ' ', ' in f1', 'é', '😀', '$', '#', '//', ',']
const ESCAPES = ['\\n', '\\t', '\\x41', '\\u0041', '\\\\', '\\\n']
const NOISE = ['\n', ' ', '#', '//', '"', "'", '`', '{', '}', '\\', '$', '(', ')', 'ab', ';']
const LANGUAGES: LanguageId[] = ['python', 'javascript', 'typescript', 'tsx']

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)] as T
}

/** A string body: words, the other quote, escapes and (f-strings) braces and holes. */
function body(rnd: () => number, escapes: boolean, quote: string, braces: boolean): string {
  const out: string[] = []
  for (let i = 0, n = Math.floor(rnd() * 6); i < n; i++) {
    const r = rnd()
    if (escapes && r < 0.15) out.push(pick(rnd, ESCAPES))
    else if (braces && r < 0.25) out.push(pick(rnd, ['{{', '}}', '{y}', '{y!r:>4}']))
    else if (r < 0.3) out.push(quote === '"' ? "'" : '"')
    else out.push(pick(rnd, WORDS))
  }
  return out.join('')
}

function pythonString(rnd: () => number): string {
  const prefix = pick(rnd, ['', '', 'f', 'r', 'b', 'rb', 'fr', 'u'])
  const quote = pick(rnd, ['"', "'", '"""', "'''"])
  const raw = prefix.includes('r')
  let text = body(rnd, !raw, quote.charAt(0), prefix.includes('f'))
  if (prefix.includes('b')) text = [...text].map(c => (c.charCodeAt(0) > 0x7f ? 'x' : c)).join('')
  if (raw) while (text.endsWith('\\')) text = text.slice(0, -1)
  if (quote.length === 1) text = text.split('\n').join(' ')
  return `${prefix}${quote}${text}${quote}`
}

function scriptString(rnd: () => number): string {
  const quote = pick(rnd, ['"', "'", '`'])
  const text = body(rnd, true, quote, false).split(quote).join('')
  if (quote !== '`') return `${quote}${text.split('\n').join('')}${quote}`
  const tail = rnd() < 0.5 ? '${y}' + body(rnd, true, '`', false).split('`').join('') : ''
  return `\`${text}${tail}\``
}

/** Mostly well-formed statements with strings, sometimes damaged by a random insertion. */
function randomText(rnd: () => number, language: LanguageId): string {
  const lines: string[] = []
  for (let i = 0, n = 1 + Math.floor(rnd() * 5); i < n; i++) {
    if (language === 'python') {
      const parts = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pythonString(rnd))
      const sep = pick(rnd, [' ', '', '\n    ', '  # c\n    ', ' \\\n    '])
      lines.push(`x${i} = (${parts.join(sep)})`)
    } else if (language === 'tsx' && rnd() < 0.3) {
      const q = pick(rnd, ['"', "'"])
      lines.push(`const x${i} = <a t=${q}${pick(rnd, WORDS)}abc${q}>t</a>`)
    } else {
      lines.push(
        `const x${i} = f(${scriptString(rnd)}, ${scriptString(rnd)}) // ${pick(rnd, WORDS)}`
      )
    }
  }
  let text = lines.join('\n') + '\n'
  if (rnd() < 0.3) {
    const at = Math.floor(rnd() * text.length)
    text = text.slice(0, at) + pick(rnd, NOISE) + text.slice(at)
  }
  return text
}

describe('literal prefilter: random sources', () => {
  // The guarantee covers files the parser reads without a syntax error: inside an error,
  // tree-sitter's recovery can start or join string content anywhere (after an ERROR node
  // in an f-string, for instance), which no raw-text test can follow. Such a file does not
  // run, so it is not the code a test checks.
  it('never passes over a well-formed file that holds a contributing literal (3,000 random files)', async () => {
    const rnd = random(SEED)
    let contributing = 0
    let passedOver = 0
    let broken = 0
    for (let i = 0; i < FILES; i++) {
      const language = pick(rnd, LANGUAGES)
      const text = randomText(rnd, language)
      const min = 1 + Math.floor(rnd() * 6)
      const tree = (await parserFor(language)).parse(text)
      if (!tree) throw new Error('no tree')
      const hasError = tree.rootNode.hasError
      const literals = extractFacts(tree, language).literals.map(l => l.value)
      tree.delete()
      if (hasError) {
        broken++
        continue
      }
      // Candidates: some of the file's own literals, cut or wrapped, and random words.
      const candidates: string[] = []
      for (const l of literals) {
        if (rnd() < 0.5) continue
        const from = Math.floor(rnd() * Math.min(3, l.length))
        const cut = rnd() < 0.3 ? l.slice(from) : l
        candidates.push(rnd() < 0.5 ? `${pick(rnd, WORDS)}${cut}${pick(rnd, WORDS)}` : cut)
      }
      candidates.push(pick(rnd, WORDS) + pick(rnd, WORDS))
      const base = rnd() < 0.3 ? randomText(rnd, language) : undefined
      const parsed = contributes(literals, candidates, min, base)
      const passes = mayHoldOverlap(
        text,
        language === 'python',
        candidateIndex(candidates, min),
        base
      )
      if (parsed !== undefined) {
        contributing++
        if (!passes)
          throw new Error(
            `passed over: ${JSON.stringify({ language, text, candidates, min, base })}`
          )
      } else if (!passes) passedOver++
    }
    // The generator reaches every side, or the check above proves little.
    expect({ contributing, passedOver, broken }).toEqual({
      contributing: expect.toSatisfy((n: number) => n > FILES / 6),
      passedOver: expect.toSatisfy((n: number) => n > FILES / 20),
      broken: expect.toSatisfy((n: number) => n < FILES / 2)
    })
  })
})

describe('literal prefilter: end to end', () => {
  it('parses only the production files that may matter and reports the same findings', async () => {
    const base: Record<string, string> = {}
    const head: Record<string, string> = {}
    for (let i = 0; i < 30; i++) {
      base[`src/m${i}.py`] = `def f():\n    return "value ${i} old"\n`
      head[`src/m${i}.py`] = `def f():\n    return "value ${i} new"\n`
    }
    // Spelled with an escape and split by adjacent-string concatenation: still found.
    head['src/m7.py'] = 'def f():\n    return "value 7 n" "ew"\n'
    head['src/m8.py'] = 'def f():\n    return "value 8 n\\x65w"\n'
    head['tests/test_m.py'] = [
      'def test_m():',
      '    assert f() == "value 3 new"',
      '    assert g() == "value 7 new"',
      '    assert h() == "value 8 new"',
      ''
    ].join('\n')
    const { reasons, log } = await lintScenario({ base, head })
    const found = byRule(reasons, 'literal-overlap')
    expect(found).toHaveLength(1)
    expect(found[0]?.path).toBe('tests/test_m.py')
    for (const v of ['value 3 new', 'value 7 new', 'value 8 new'])
      expect(found[0]?.message).toContain(JSON.stringify(v))
    expect(found[0]?.message).not.toContain('value 4 new')
    // Parsed: the test and the 3 production files that hold its literals. Passed over: the
    // 27 others, and the 3 base versions, which spell nothing close to the new values.
    expect(log.join('\n')).toMatch(/4 parsed, 30 passed over by the literal prefilter/)
  })
})

describe('valuesFoundIn', () => {
  it('finds exactly the values some text contains, few or many, with common prefixes', () => {
    const rnd = random(7)
    const alphabet = ['a', 'b', 'É', '😀', ' ', 'x']
    const word = (n: number): string =>
      Array.from({ length: n }, () => pick(rnd, alphabet)).join('')
    for (let round = 0; round < 40; round++) {
      const texts = Array.from({ length: 5 }, () => word(Math.floor(rnd() * 300)))
      const count = round % 2 === 0 ? 10 : 200
      const values = Array.from({ length: count }, () => {
        const text = pick(rnd, texts)
        const from = Math.floor(rnd() * text.length)
        return rnd() < 0.5
          ? text.slice(from, from + 2 + Math.floor(rnd() * 12))
          : `ab${word(2 + Math.floor(rnd() * 8))}`
      })
      const expected = new Set(values.filter(v => texts.some(t => t.includes(v))))
      expect(valuesFoundIn(values, texts, 4)).toEqual(expected)
    }
  })
})
