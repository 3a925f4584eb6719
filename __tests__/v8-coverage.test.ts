// The V8 coverage reader (src/evidence/v8.ts, sourcemap.ts, probes.ts) on real V8 block
// coverage taken in this process (node:inspector, the protocol NODE_V8_COVERAGE uses) of
// code run through `vm`: nested ranges, each line's probe, and TypeScript compiled by
// esbuild and by tsc with their real inline source maps followed back to the head's lines,
// where reading the executed offsets against the head's text would name other lines. Also
// what must measure nothing and say why: a transformed text with no map, a map of another
// version of the file, a dump not of V8's shape.
import { Session } from 'node:inspector'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import vm from 'node:vm'
import { transformSync } from 'esbuild'
import { describe, expect, it } from 'vitest'
import { lineProbes } from '../src/evidence/probes.js'
import { decodeMappings, decodeVlq, inlineMap } from '../src/evidence/sourcemap.js'
import {
  countAt,
  coveredLines,
  lineStarts,
  parseDump,
  parseSourceLines,
  type V8Dump,
  type V8Script
} from '../src/evidence/v8.js'

const require = createRequire(import.meta.url)
const ts = require('typescript') as typeof import('typescript')

/** Runs `code` as a script named `filename` in a fresh context; V8's block coverage of it. */
function covered(code: string, filename: string, use: (ctx: vm.Context) => void): V8Script {
  const session = new Session()
  session.connect()
  const post = (method: string, params?: object): unknown => {
    let out: unknown
    session.post(method, params, (error, answer) => {
      if (error) throw error
      out = answer
    })
    return out
  }
  try {
    post('Profiler.enable')
    post('Profiler.startPreciseCoverage', { callCount: true, detailed: true })
    const context = vm.createContext({ exports: {} })
    vm.runInContext(code, context, { filename })
    use(context)
    const taken = post('Profiler.takePreciseCoverage') as { result: V8Script[] }
    const script = taken.result.find(
      s => s.url === filename || s.url === pathToFileURL(filename).href
    )
    if (!script) throw new Error(`no coverage of ${filename}`)
    return script
  } finally {
    post('Profiler.stopPreciseCoverage')
    session.disconnect()
  }
}

const all = (text: string): number[] => text.split('\n').map((_, i) => i + 1)
const sorted = (s: Set<number> | undefined): number[] => [...(s ?? [])].sort((a, b) => a - b)

/** 1-based line of the one line holding `snippet`. */
function lineOf(text: string, snippet: string): number {
  const found = text.split('\n').flatMap((l, i) => (l.includes(snippet) ? [i + 1] : []))
  if (found.length !== 1) throw new Error(`${snippet}: ${found.length} lines`)
  return found[0] ?? 0
}

describe('VLQ and mappings', () => {
  it('decodes groups, signs and continuations', () => {
    expect(decodeVlq('AAAA')).toEqual([0, 0, 0, 0])
    expect(decodeVlq('AAgBC')).toEqual([0, 0, 16, 1])
    expect(decodeVlq('D')).toEqual([-1])
    expect(decodeVlq('2H')).toEqual([123])
    expect(() => decodeVlq('A!')).toThrow(/not a base64 VLQ/)
    expect(() => decodeVlq('g')).toThrow(/ends inside/)
  })

  it('accumulates lines, columns and sources across segments', () => {
    expect(decodeMappings('AAAA,EAAE;;ACAA')).toEqual([
      { genLine: 0, genCol: 0, source: 0, line: 0, col: 0 },
      { genLine: 0, genCol: 2, source: 0, line: 0, col: 2 },
      { genLine: 2, genCol: 0, source: 1, line: 0, col: 2 }
    ])
  })

  it('reads the last inline map, base64 or percent-encoded', () => {
    const map = { version: 3, sources: ['a.ts'], mappings: 'AAAA' }
    const b64 = Buffer.from(JSON.stringify(map)).toString('base64')
    const text = `x\n//# sourceMappingURL=data:application/json;base64,AAAA\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${b64}\n`
    expect(inlineMap(text)).toEqual(map)
    expect(
      inlineMap(
        `//# sourceMappingURL=data:application/json,${encodeURIComponent(JSON.stringify(map))}`
      )
    ).toEqual(map)
    expect(inlineMap('no map here')).toBeNull()
  })
})

describe('block coverage: the innermost range at the probe', () => {
  it('picks the innermost of nested ranges', () => {
    const ranges = [
      { startOffset: 0, endOffset: 100, count: 1 },
      { startOffset: 10, endOffset: 50, count: 0 },
      { startOffset: 20, endOffset: 30, count: 2 }
    ]
    expect([5, 15, 25, 49, 50, 99, 100].map(o => countAt(ranges, o))).toEqual([1, 0, 2, 0, 1, 1, 0])
  })

  it('probes skip blanks, comments, lone closers and type-only TypeScript', () => {
    const text = [
      'const a = 1 // x', // 1
      '  /* a comment', // 2
      '     still */ b()', // 3
      '}', // 4
      '  }) ;', // 5
      '  } else {', // 6
      "const s = '/* not a comment'", // 7
      'const t = `line', // 8
      '  ${a} more`', // 9
      'export interface O {', // 10
      'export type M = number', // 11
      'import type { X } from "y"', // 12
      '' // 13
    ].join('\n')
    expect(lineProbes(text)).toEqual([0, null, 14, null, null, 4, 0, 0, 2, null, null, null, null])
  })

  it('real V8 coverage of an untransformed file: the called branch ran, the other not', () => {
    const text = [
      '// fee rules', // 1
      'function fee(total) {', // 2
      '  if (total > 100) {', // 3
      '    return 0', // 4
      '  }', // 5
      '  if (total < 0) {', // 6
      "    throw new RangeError('negative')", // 7
      '  }', // 8
      '  return 5', // 9
      '}', // 10
      'function never() {', // 11
      '  return 1', // 12
      '}', // 13
      'exports.fee = fee', // 14
      ''
    ].join('\n')
    const path = '/virtual/lib/fee.js'
    const script = covered(text, path, c => {
      const f = (c.exports as { fee: (n: number) => number }).fee
      f(200)
      f(10)
    })
    const got = coveredLines([{ result: [script] }], new Map([[path, { text, lines: all(text) }]]))
    expect(got.problems.size).toBe(0)
    expect(sorted(got.covered.get(path))).toEqual([2, 3, 4, 6, 9, 14])
    expect(sorted(got.executable.get(path))).toEqual([2, 3, 4, 6, 7, 9, 11, 12, 14])
  })
})

const FEE_TS = `/** Delivery fee rules. */
export interface Order {
  total: number
  express?: boolean
}

export type Money = number

export function fee(order: Order): Money {
  const total: number = order.total
  if (total > 100) {
    return 0
  }
  if (total < 0) {
    throw new RangeError('negative total')
  }
  return order.express === true ? 9 : 5
}
`
const TS_PATH = '/virtual/lib/fee.ts'

/** TypeScript compiled by esbuild (iife) or tsc (CommonJS), each with an inline map. */
const COMPILERS = {
  esbuild: (text: string): string =>
    transformSync(text, {
      loader: 'ts',
      format: 'iife',
      globalName: 'exports',
      sourcemap: 'inline',
      sourcefile: TS_PATH
    }).code,
  tsc: (text: string): string =>
    ts.transpileModule(text, {
      fileName: TS_PATH,
      compilerOptions: {
        module: ts.ModuleKind.CommonJS,
        target: ts.ScriptTarget.ES2020,
        inlineSourceMap: true,
        inlineSources: true
      }
    }).outputText
}

/** Runs the compiled fee on two orders; the dump as the hook writes it (with the text). */
function compiledDump(code: string, url = TS_PATH): V8Dump {
  const script = covered(code, url, c => {
    const f = (c.exports as { fee: (o: { total: number }) => number }).fee
    expect(f({ total: 200 })).toBe(0)
    expect(f({ total: 10 })).toBe(5)
  })
  return { result: [script], sources: { [script.url]: [code] } }
}

describe('TypeScript through real source maps', () => {
  for (const [name, compile] of Object.entries(COMPILERS)) {
    it(`${name}: the head's lines, where the executed offsets would name others`, () => {
      const code = compile(FEE_TS)
      const dump = compiledDump(code)
      const files = new Map([[TS_PATH, { text: FEE_TS, lines: all(FEE_TS) }]])
      const got = coveredLines([dump], files)
      expect(got.problems.size).toBe(0)
      const at = (s: string): number => lineOf(FEE_TS, s)
      expect(sorted(got.covered.get(TS_PATH))).toEqual(
        [
          at('export function fee'),
          at('const total'),
          at('if (total > 100)'),
          at('return 0'),
          at('if (total < 0)'),
          at('return order.express')
        ].sort((a, b) => a - b)
      )
      // The throw is code that never ran; the interface, the type and the braces hold none.
      const executable = sorted(got.executable.get(TS_PATH))
      expect(executable).toContain(at('throw new RangeError'))
      expect(got.covered.get(TS_PATH)?.has(at('throw new RangeError'))).toBe(false)
      for (const s of ['export interface Order', 'express?: boolean', 'export type Money'])
        expect(executable).not.toContain(at(s))
      // Without the map, the throw's offset lands on another line of the head's text.
      const starts = lineStarts(code)
      const generatedLine = starts.filter(s => s <= code.indexOf('throw new RangeError')).length
      expect(generatedLine).not.toBe(at('throw new RangeError'))
    })
  }

  it("Node's source-map-cache: a compiled file's line lengths and map, no text", () => {
    const code = COMPILERS.tsc(FEE_TS).replace(/\/\/# sourceMappingURL=.*\n?$/, '')
    const map = inlineMap(COMPILERS.tsc(FEE_TS))
    const url = 'file:///virtual/dist/fee.js'
    const script = covered(code, url, c => {
      ;(c.exports as { fee: (o: { total: number }) => number }).fee({ total: 10 })
    })
    const dump: V8Dump = {
      result: [script],
      'source-map-cache': {
        [url]: {
          data: { ...map, sources: ['../lib/fee.ts'] },
          lineLengths: code.split('\n').map(l => l.length)
        }
      }
    }
    const got = coveredLines([dump], new Map([[TS_PATH, { text: FEE_TS, lines: all(FEE_TS) }]]))
    expect(got.problems.size).toBe(0)
    expect(got.covered.get(TS_PATH)?.has(lineOf(FEE_TS, 'return order.express'))).toBe(true)
    expect(got.covered.get(TS_PATH)?.has(lineOf(FEE_TS, 'return 0'))).toBe(false)
  })
})

describe('what measures nothing, and says why', () => {
  const files = new Map([[TS_PATH, { text: FEE_TS, lines: all(FEE_TS) }]])

  it('a transformed text nobody captured: no line covered, the reason named', () => {
    const dump = compiledDump(COMPILERS.esbuild(FEE_TS))
    const got = coveredLines([{ result: dump.result }], files)
    expect(got.covered.get(TS_PATH)).toBeUndefined()
    expect(got.problems.get(TS_PATH)).toMatch(/text the runtime executed is not known/)
  })

  it('a transformed text with no map', () => {
    const code = COMPILERS.tsc(FEE_TS).replace(/\/\/# sourceMappingURL=.*\n?$/, '')
    const got = coveredLines([compiledDump(code)], files)
    expect(got.covered.get(TS_PATH)).toBeUndefined()
    expect(got.problems.get(TS_PATH)).toMatch(/transformed text with no source map/)
  })

  it('a map of another version of the file', () => {
    const stale = FEE_TS.replace('return 0', 'return 0 // stale')
    const got = coveredLines([compiledDump(COMPILERS.esbuild(stale))], files)
    expect(got.covered.get(TS_PATH)).toBeUndefined()
    expect(got.problems.get(TS_PATH)).toMatch(/another version of the file/)
  })

  it('another process that did measure the file wins over one that could not', () => {
    const good = compiledDump(COMPILERS.esbuild(FEE_TS))
    const got = coveredLines([{ result: good.result }, good], files)
    expect(got.problems.size).toBe(0)
    expect(got.covered.get(TS_PATH)?.has(lineOf(FEE_TS, 'return 0'))).toBe(true)
  })

  it('dumps not of V8 shape are refused; other scripts are dropped; __proto__ stays inert', () => {
    const asked = new Set([TS_PATH])
    expect(parseDump({ result: 'x' }, asked)).toBeNull()
    expect(parseDump([], asked)).toBeNull()
    const bad = { result: [{ url: TS_PATH, functions: [{ ranges: [{ startOffset: '0' }] }] }] }
    expect(parseDump(bad, asked)).toBeNull()
    const other = { url: 'file:///elsewhere.js', functions: [] }
    const mine = {
      url: TS_PATH,
      functions: [{ ranges: [{ startOffset: 0, endOffset: 9, count: 1 }] }]
    }
    expect(parseDump({ result: [other, mine] }, asked)?.result).toEqual([mine])
    const lines = parseSourceLines(
      `${JSON.stringify({ url: '__proto__', source: 'x' })}\n{"url": 1}\nnot json\n${JSON.stringify({ url: TS_PATH, source: 'y' })}`
    )
    expect(Object.keys(lines).sort()).toEqual(['__proto__', TS_PATH].sort())
    expect(({} as Record<string, unknown>).source).toBeUndefined()
  })
})
