// The lines the evidence is about: the patch's added and changed lines of production files
// at the head (the watch plan's lines, replay/watch.ts: the one computation of them), minus
// the arid lines that cannot run, so that no test could ever be asked to run them. The arid
// table (docs/evidence.md "Changed lines") is by language:
// - every language: blank lines; declaration files (`.pyi`, `.d.ts`) whole;
// - Python: comments, lines inside a triple-quoted string, a docstring's lines (a string
//   that starts a statement), `import` / `from … import` lines (and their continuation in
//   parentheses), `else:` / `finally:` (no line event of their own) and lines of closing brackets only;
// - JavaScript and TypeScript: `//` and `/* … */` comments, import statements and
//   re-exports (`export … from`), type-only declarations (`type`, `interface`, `declare`,
//   with their bodies) and lines of closing brackets only.
// Pure: the files' text comes from the caller.
import type { ChangedLines } from './types.js'

export type Language = 'python' | 'js' | 'other'

/** The language of a path, by its extension. */
export function languageOf(path: string): Language {
  if (/\.pyi?$/.test(path)) return 'python'
  if (/\.(?:[cm]?[jt]sx?)$/.test(path)) return 'js'
  return 'other'
}

/** The 1-based lines of a file's text that cannot run (the table above). */
export function aridLines(path: string, text: string): Set<number> {
  const lines = text.split(/\r?\n/)
  // Declaration files (`.pyi`, `.d.ts`) never run at all.
  if (DECLARATIONS.test(path)) return new Set(lines.map((_, i) => i + 1))
  const language = languageOf(path)
  const arid =
    language === 'python'
      ? pythonArid(lines)
      : language === 'js'
        ? jsArid(lines)
        : new Set<number>()
  lines.forEach((line, i) => {
    if (line.trim() === '') arid.add(i + 1)
  })
  return arid
}

/**
 * The changed lines of each file, arid lines left out. `ranges`: the watch plan's lines
 * (path → [first, last] ranges); `text`: the head's text of a path, or null (then the
 * file's lines are kept as they are: nothing is left out that cannot be read).
 */
export function changedLines(
  ranges: Readonly<Record<string, readonly (readonly [number, number])[]>>,
  text: (path: string) => string | null
): ChangedLines[] {
  const out: ChangedLines[] = []
  for (const path of Object.keys(ranges).sort()) {
    const body = text(path)
    const arid = body === null ? new Set<number>() : aridLines(path, body)
    const lines: number[] = []
    for (const [first, last] of ranges[path] ?? [])
      for (let n = first; n <= last; n++) if (!arid.has(n)) lines.push(n)
    const unique = [...new Set(lines)].sort((a, b) => a - b)
    if (unique.length > 0) out.push({ path, lines: unique })
  }
  return out
}

const DECLARATIONS = /\.(?:pyi|d\.[cm]?ts)$/
const CLOSING = /^[\s)\]},;]*$/
const PY_BARE = /^\s*(?:else|finally)\s*:\s*(?:#.*)?$/
const PY_IMPORT = /^\s*(?:import\s|from\s+\S+\s+import\b)/
const PY_STRING_START = /^\s*[rRbBuUfF]{0,2}("""|''')/

function pythonArid(lines: readonly string[]): Set<number> {
  const arid = new Set<number>()
  let quote: string | null = null
  let importOpen = false
  lines.forEach((line, i) => {
    const n = i + 1
    if (quote !== null) {
      // Inside a triple-quoted string: nothing on this line runs on its own.
      arid.add(n)
      if (closesQuote(line, quote, 0)) quote = null
      return
    }
    if (importOpen) {
      arid.add(n)
      if (line.includes(')')) importOpen = false
      return
    }
    const trimmed = line.trim()
    if (trimmed.startsWith('#') || PY_BARE.test(line) || (CLOSING.test(line) && trimmed !== ''))
      arid.add(n)
    if (PY_IMPORT.test(line)) {
      arid.add(n)
      if (line.includes('(') && !line.includes(')')) importOpen = true
      return
    }
    const docstring = PY_STRING_START.exec(line)
    if (docstring) {
      const q = docstring[1] ?? '"""'
      const after = line.indexOf(q) + q.length
      if (!closesQuote(line, q, after)) quote = q
      // A string that starts a statement is a docstring (or an expression statement that
      // does nothing) unless more follows it on its closing line.
      if (quote !== null || /("""|''')\s*(?:#.*)?$/.test(line.slice(after))) arid.add(n)
      return
    }
    const opened = openedQuote(line)
    if (opened !== null) quote = opened
  })
  return arid
}

/** Does `line` hold the closing `quote` at or after `from`? */
function closesQuote(line: string, quote: string, from: number): boolean {
  return line.indexOf(quote, from) !== -1
}

/** The triple quote a line leaves open (an odd count of one kind), if any. */
function openedQuote(line: string): string | null {
  const code = line.replace(/#.*$/, '')
  for (const q of ['"""', "'''"]) {
    const count = code.split(q).length - 1
    if (count % 2 === 1) return q
  }
  return null
}

const JS_IMPORT =
  /^\s*(?:import[\s{*'"]|import\s+type\b|export\s+(?:type\s+)?(?:\*|\{[^}]*\}?)\s*(?:from\b|$))/
const JS_TYPE =
  /^\s*(?:export\s+)?(?:declare\s+|(?:type|interface)\s+[A-Za-z_$][\w$]*\b(?:<[^>]*>)?\s*(?:=|\{|extends\b|$))/

function jsArid(lines: readonly string[]): Set<number> {
  const arid = new Set<number>()
  let comment = false
  let open: 'import' | 'type' | null = null
  let depth = 0
  lines.forEach((line, i) => {
    const n = i + 1
    const trimmed = line.trim()
    if (comment) {
      arid.add(n)
      if (trimmed.includes('*/')) comment = false
      return
    }
    if (open === 'import') {
      arid.add(n)
      if (/\bfrom\s*['"]|['"]\s*;?\s*$/.test(line)) open = null
      return
    }
    if (open === 'type') {
      arid.add(n)
      depth += braces(line)
      if (depth <= 0) open = null
      return
    }
    if (trimmed.startsWith('//') || (CLOSING.test(line) && trimmed !== '')) arid.add(n)
    if (trimmed.startsWith('/*')) {
      arid.add(n)
      if (!trimmed.includes('*/')) comment = true
      return
    }
    if (JS_IMPORT.test(line)) {
      arid.add(n)
      if (!/\bfrom\s*['"]|^\s*import\s*['"]/.test(line)) open = 'import'
      return
    }
    if (JS_TYPE.test(line)) {
      arid.add(n)
      depth = braces(line)
      if (depth > 0) open = 'type'
    }
  })
  return arid
}

function braces(line: string): number {
  let d = 0
  for (const ch of line.replace(/\/\/.*$/, '')) d += ch === '{' ? 1 : ch === '}' ? -1 : 0
  return d
}
