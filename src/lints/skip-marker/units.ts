// Which test a line belongs to, and its canonical id (`path::name`), per language. Works on
// masked code (mask.ts), so brackets and keywords inside strings and comments do not count;
// for JS/TS on the test calls the syntax tree shows (script.ts), aliases included.
// The ids follow the replay's mapping of report names (src/replay/ids.ts), because a ledger
// row only freezes a test when its id is the one the report gives:
//   Python  decorated or enclosing `def`, with its classes: path::Class::test_x
//   JS/TS   it()/test() titles with their describe() titles: path::A > B > title
//           (vitest, node:test); the bare title path::title is accepted too
//   Go      enclosing func, with t.Run subtests: path::TestX/sub
//   Java    annotated or enclosing method: path::method
// A marker on a group (a class, a describe(), module-level pytestmark, a top-level
// jest.setTimeout) silences every test in it: the unit lists them as members.
import type { Family as Lang } from '../../lang.js'
import type { TestSpan } from './script.js'
import { canonicalId } from '../../replay/ids.js'
import { PY_TEST_FUNCTION } from '../tables.js'

export interface TestUnit {
  /** Canonical ids naming this unit; the first is the one messages suggest. */
  ids: string[]
  kind: 'test' | 'group' | 'file'
  /** For groups and files: the tests inside, each by its candidate ids. */
  members?: string[][]
}

/** Precomputed per file, then asked for any number of lines. */
export type UnitFinder = (line: number) => TestUnit

/** @param spans for JS/TS: the test calls of the file's syntax tree */
export function unitFinder(
  path: string,
  text: string,
  masked: string,
  lang: Lang,
  spans: readonly TestSpan[] = []
): UnitFinder {
  switch (lang) {
    case 'python':
      return pythonUnits(path, masked)
    case 'js':
      return jsUnits(path, spans)
    case 'go':
      return goUnits(path, text, masked)
    case 'java':
      return javaUnits(path, masked)
  }
}

const fileUnit = (path: string, members: string[][]): TestUnit => ({
  ids: [path],
  kind: 'file',
  members
})

// ---------------------------------------------------------------- Python (indentation)

function pythonUnits(path: string, masked: string): UnitFinder {
  const lines = masked.split('\n')
  // A logical line starts outside brackets and not after a backslash continuation.
  const start: boolean[] = []
  let depth = 0
  let continued = false
  for (const line of lines) {
    start.push(depth === 0 && !continued)
    for (const c of line) {
      if (c === '(' || c === '[' || c === '{') depth++
      else if ((c === ')' || c === ']' || c === '}') && depth > 0) depth--
    }
    continued = /\\\s*$/.test(line)
  }
  const indent = (i: number): number =>
    /^[ \t]*/.exec(lines[i]!)![0].replace(/\t/g, '        ').length
  const blank = (i: number): boolean => lines[i]!.trim() === ''
  const header = (i: number): { type: 'class' | 'def'; name: string } | undefined => {
    const m = /^\s*(?:async\s+)?(def|class)\s+([A-Za-z_]\w*)/.exec(lines[i]!)
    return m ? { type: m[1] as 'class' | 'def', name: m[2]! } : undefined
  }
  const logicalStart = (i: number): number => {
    let j = Math.min(i, lines.length - 1)
    while (j > 0 && (!start[j] || blank(j))) j--
    return j
  }
  /** def/class headers strictly enclosing line t, outermost first. */
  const enclosing = (t: number): Array<{ type: 'class' | 'def'; name: string }> => {
    const chain: Array<{ type: 'class' | 'def'; name: string }> = []
    let threshold = indent(t)
    for (let j = t - 1; j >= 0 && threshold > 0; j--) {
      if (!start[j] || blank(j) || indent(j) >= threshold) continue
      const h = header(j)
      if (h) chain.unshift(h)
      threshold = indent(j)
    }
    return chain
  }
  const unitAt = (line: number): TestUnit => {
    let target = logicalStart(line - 1)
    if (lines[target]!.trim().startsWith('@')) {
      // A decorator: the unit is the def or class it decorates (after any other decorators).
      const level = indent(target)
      for (let j = target + 1; j < lines.length; j++) {
        if (!start[j] || blank(j)) continue
        if (indent(j) !== level) break
        if (header(j)) {
          target = j
          break
        }
        if (!lines[j]!.trim().startsWith('@')) break
      }
    }
    const own = header(target)
    const chain = [...enclosing(target), ...(own ? [own] : [])]
    const firstDef = chain.findIndex(h => h.type === 'def')
    const names = (firstDef === -1 ? chain : chain.slice(0, firstDef + 1)).map(h => h.name)
    if (names.length === 0) return { ids: [path], kind: 'file' }
    return { ids: [`${path}::${names.join('::')}`], kind: firstDef === -1 ? 'group' : 'test' }
  }
  // pytest collects functions named test* (at module level or in classes).
  let tests: string[] | undefined
  const allTests = (): string[] =>
    (tests ??= lines.flatMap((_, i) => {
      const h = start[i] ? header(i) : undefined
      if (h?.type !== 'def' || !PY_TEST_FUNCTION.test(h.name)) return []
      const unit = unitAt(i + 1)
      return unit.kind === 'test' && unit.ids[0]!.endsWith(`::${h.name}`) ? [unit.ids[0]!] : []
    }))
  return line => {
    const unit = unitAt(line)
    if (unit.kind === 'test') return unit
    const prefix = unit.kind === 'file' ? `${path}::` : `${unit.ids[0]}::`
    return {
      ...unit,
      members: allTests()
        .filter(id => id.startsWith(prefix))
        .map(id => [id])
    }
  }
}

// ---------------------------------------------------------------- JS / TS (test calls)

/** Units from the test calls of the syntax tree (script.ts), with describe() titles. */
function jsUnits(path: string, spans: readonly TestSpan[]): UnitFinder {
  // Spans come in source order, so enclosing spans precede the spans they contain.
  const idsOf = (span: TestSpan): string[] => {
    const chain = spans
      .filter(s => s.from <= span.from && span.to <= s.to && s !== span && s.group)
      .map(s => s.title)
    const full = canonicalId(path, [...chain, span.title])
    return chain.length === 0 ? [full] : [full, `${path}::${span.title}`]
  }
  const membersOf = (group?: TestSpan): string[][] =>
    spans
      .filter(
        s =>
          !s.group &&
          (group === undefined || (group.from <= s.from && s.to <= group.to && s !== group))
      )
      .map(idsOf)
  return line => {
    const around = spans.filter(s => s.from <= line && line <= s.to)
    const inner = around[around.length - 1]
    if (inner === undefined) return fileUnit(path, membersOf())
    if (!inner.group) return { ids: idsOf(inner), kind: 'test' }
    return { ids: idsOf(inner), kind: 'group', members: membersOf(inner) }
  }
}

/** The string literal starting at (or after spaces from) `from`, unescaped; else undefined. */
function stringArgument(text: string, from: number): string | undefined {
  const k = skipSpace(text, from)
  const quote = text[k]
  if (quote !== '"' && quote !== "'" && quote !== '`') return undefined
  let out = ''
  for (let j = k + 1; j < text.length; j++) {
    const c = text[j]!
    if (c === '\\') {
      out += text[j + 1] ?? ''
      j++
      continue
    }
    if (c === quote) return out
    if (c === '\n' && quote !== '`') return undefined
    out += c
  }
  return undefined
}

// ---------------------------------------------------------------- Go (funcs, t.Run)

function goUnits(path: string, text: string, masked: string): UnitFinder {
  const lineOf = lineIndex(text)
  const funcs: Array<{ name: string; from: number; to: number }> = []
  const FUNC = /^func\s+(?:\([^)]*\)\s*)?([A-Za-z_]\w*)\s*\(/gm
  for (let m = FUNC.exec(masked); m !== null; m = FUNC.exec(masked)) {
    const body = masked.indexOf('{', m.index)
    if (body === -1) continue
    funcs.push({ name: m[1]!, from: lineOf(m.index), to: lineOf(matching(masked, body)) })
  }
  const runs: TestSpan[] = []
  const RUN = /\.\s*Run\s*\(/g
  for (let m = RUN.exec(masked); m !== null; m = RUN.exec(masked)) {
    const open = m.index + m[0].length - 1
    const title = stringArgument(text, open + 1)
    if (title === undefined) continue
    runs.push({ title, group: false, from: lineOf(m.index), to: lineOf(matching(masked, open)) })
  }
  return line => {
    const fn = funcs.find(f => f.from <= line && line <= f.to)
    if (fn === undefined)
      return fileUnit(
        path,
        funcs.filter(f => /^(?:Test|Fuzz)/.test(f.name)).map(f => [`${path}::${f.name}`])
      )
    // `go test` names subtests Parent/sub with spaces turned into underscores.
    const subs = runs
      .filter(r => fn.from <= r.from && r.from <= line && line <= r.to)
      .map(r => r.title.replace(/\s/g, '_'))
    return { ids: [`${path}::${[fn.name, ...subs].join('/')}`], kind: 'test' }
  }
}

// ---------------------------------------------------------------- Java / Kotlin

function javaUnits(path: string, masked: string): UnitFinder {
  const lines = masked.split('\n')
  const offsets = lineOffsets(masked)
  // Paren depth at each line start: a line inside @Test(\n timeout = ...) belongs to the annotation.
  const depthAt: number[] = []
  let depth = 0
  for (const line of lines) {
    depthAt.push(depth)
    for (const c of line) {
      if (c === '(') depth++
      else if (c === ')' && depth > 0) depth--
    }
  }
  const declaration = (from: number): TestUnit | undefined => {
    // Skip annotations (with balanced arguments), then read the declaration head.
    let k = from
    for (;;) {
      k = skipSpace(masked, k)
      if (masked[k] !== '@') break
      k = skipSpace(masked, k + 1)
      while (/[\w$.]/.test(masked[k] ?? '')) k++
      const after = skipSpace(masked, k)
      if (masked[after] === '(') k = matching(masked, after) + 1
    }
    const head = masked.slice(k, nextOf(masked, k, /[{;=]/))
    const type = /\b(?:class|interface|enum|record|object)\s+([A-Za-z_$][\w$]*)/.exec(head)
    if (type) return { ids: [`${path}::${type[1]}`], kind: 'group' }
    // A method declaration ends in its parameter list (and a throws clause or a Kotlin return
    // type); a call such as assertThrows(..., () -> { or a control statement does not.
    const method =
      /(?:^|[\s>\]])([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*(?:throws\s+[\w$.,\s]+|:\s*[\w$.<>?,\s]+)?$/.exec(
        head.trim()
      )
    if (!method || JAVA_KEYWORDS.has(method[1]!)) return undefined
    return { ids: [`${path}::${method[1]}`], kind: 'test' }
  }
  const enclosingMethod = (offset: number): TestUnit | undefined => {
    // Walk outwards through the braces around `offset`, innermost first.
    let level = 0
    for (let k = offset - 1; k >= 0; k--) {
      const c = masked[k]
      if (c === '}') level++
      else if (c === '{') {
        if (level > 0) {
          level--
          continue
        }
        const headStart =
          Math.max(
            masked.lastIndexOf(';', k),
            masked.lastIndexOf('}', k),
            masked.lastIndexOf('{', k - 1)
          ) + 1
        const unit = declaration(headStart)
        if (unit) return unit
      }
    }
    return undefined
  }
  // JUnit runs methods carrying one of these annotations.
  let tests: string[][] | undefined
  const allTests = (): string[][] => {
    if (tests === undefined) {
      tests = []
      const TEST = /@\s*(?:Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/g
      for (let m = TEST.exec(masked); m !== null; m = TEST.exec(masked)) {
        const unit = declaration(m.index)
        if (unit?.kind === 'test' && !tests.some(t => t[0] === unit.ids[0])) tests.push(unit.ids)
      }
    }
    return tests
  }
  return line => {
    let i = line - 1
    while (i > 0 && depthAt[i]! > 0) i--
    const start = offsets[i] ?? 0
    const unit = lines[i]!.trim().startsWith('@')
      ? declaration(start)
      : enclosingMethod(start + lines[i]!.length)
    if (unit === undefined) return fileUnit(path, allTests())
    // A class-level annotation covers the file's tests (nested classes are not told apart).
    return unit.kind === 'test' ? unit : { ...unit, members: allTests() }
  }
}

const JAVA_KEYWORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'synchronized',
  'try',
  'return',
  'new',
  'when',
  'super',
  'this'
])

// ---------------------------------------------------------------- helpers

/** Index of the bracket closing the one at `open` (masked text); the end when unbalanced. */
function matching(masked: string, open: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' }
  const stack: string[] = []
  for (let k = open; k < masked.length; k++) {
    const c = masked[k]!
    if (c in pairs) stack.push(pairs[c]!)
    else if (c === ')' || c === ']' || c === '}') {
      stack.pop()
      if (stack.length === 0) return k
    }
  }
  return masked.length - 1
}

function skipSpace(text: string, from: number): number {
  let k = from
  while (k < text.length && /\s/.test(text[k]!)) k++
  return k
}

function nextOf(text: string, from: number, re: RegExp): number {
  for (let k = from; k < text.length; k++) if (re.test(text[k]!)) return k
  return text.length
}

function lineOffsets(text: string): number[] {
  const offsets = [0]
  for (let k = 0; k < text.length; k++) if (text[k] === '\n') offsets.push(k + 1)
  return offsets
}

/** Offset → 1-based line number, by binary search over line starts. */
function lineIndex(text: string): (offset: number) => number {
  const offsets = lineOffsets(text)
  return offset => {
    let lo = 0
    let hi = offsets.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (offsets[mid]! <= offset) lo = mid
      else hi = mid - 1
    }
    return lo + 1
  }
}
