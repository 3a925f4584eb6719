// What the lints need to know about one source file, read off its tree-sitter syntax tree:
// the string literals that are values (not docstrings, not module paths) and the modules
// it imports. Pure: a tree in, plain data out; no I/O.
//
// A query per language picks the interesting nodes inside the wasm engine; walking every
// node from JavaScript costs more than the parse itself.
import { Query, type Node, type QueryMatch, type Tree } from 'web-tree-sitter'
import type { LanguageId } from './parsers.js'

export interface Literal {
  /** Decoded text; for f-strings and template literals one static run between holes. */
  value: string
  line: number
}

export interface ModuleRef {
  /** Module as written: `google.generativeai`, `@anthropic-ai/sdk`. */
  module: string
  /** For Python `from m import a, b`: the imported names (a submodule may be among them). */
  names?: string[]
  ecosystem: 'python' | 'npm'
  line: number
}

export interface FileFacts {
  literals: Literal[]
  imports: ModuleRef[]
  /**
   * JS/TS regular expression literals, as the text they match when it is literal (`/bad
   * input\./` is `bad input.`): a test that checks a message with `toThrow(/…/)` repeats it
   * as surely as one that quotes it. literal-overlap counts them on the test side.
   */
  patterns: Literal[]
}

/** Python calls whose first string argument names a module. */
const PY_IMPORT_CALLS = new Set([
  '__import__',
  'importlib.import_module',
  'import_module',
  'pytest.importorskip'
])
/** JS calls whose first string argument is a module path (not a value worth comparing). */
const JS_MODULE_CALLS = new Set([
  'require.resolve',
  'jest.mock',
  'jest.doMock',
  'jest.unmock',
  'jest.requireActual',
  'jest.requireMock',
  'vi.mock',
  'vi.doMock',
  'vi.unmock',
  'vi.importActual',
  'vi.importMock'
])

const PYTHON_QUERY = `
(string) @string
(concatenated_string) @concat
(expression_statement (string) @bare)
(expression_statement (concatenated_string) @bare)
(import_statement) @import
(import_from_statement) @import_from
(call function: (_) @callee arguments: (argument_list . (string) @call_arg))
`

const SCRIPT_QUERY = `
(string) @string
(template_string) @template
(expression_statement (string) @bare)
(import_statement) @import
(export_statement source: (string) @export_source)
(call_expression function: (_) @callee arguments: (arguments . [(string) (template_string)] @call_arg))
(regex pattern: (regex_pattern) @regex)
`

/** TypeScript only: `declare module 'name'` names a module, it is not a value. */
const TYPESCRIPT_QUERY = `${SCRIPT_QUERY}
(ambient_declaration (module name: (string) @bare))
`

const queries = new Map<LanguageId, Query>()

function queryFor(tree: Tree, language: LanguageId): Query {
  let query = queries.get(language)
  if (query === undefined) {
    const source =
      language === 'python'
        ? PYTHON_QUERY
        : language === 'javascript'
          ? SCRIPT_QUERY
          : TYPESCRIPT_QUERY
    query = new Query(tree.language, source)
    queries.set(language, query)
  }
  return query
}

export function extractFacts(tree: Tree, language: LanguageId): FileFacts {
  const matches = queryFor(tree, language).matches(tree.rootNode)
  return language === 'python' ? pythonFacts(matches) : scriptFacts(matches)
}

// ---------------------------------------------------------------- Python

/** One capture per match, except the call pattern, which captures the callee and argument. */
interface Hit {
  name: string
  node: Node
  arg?: Node
}

function hits(matches: QueryMatch[]): Hit[] {
  return matches.flatMap(m => {
    const [first, second] = m.captures
    if (!first) return []
    return second
      ? [{ name: first.name, node: first.node, arg: second.node }]
      : [{ name: first.name, node: first.node }]
  })
}

function pythonFacts(matches: QueryMatch[]): FileFacts {
  const captures = hits(matches)
  const facts: FileFacts = { literals: [], imports: [], patterns: [] }
  // Strings that are not values: bare string statements (docstrings, strings used as
  // comments), parts of a concatenation (taken as a whole), module names in import calls.
  const skip = new Set<number>()
  const bare = new Set<number>()
  for (const { name, node, arg } of captures) {
    if (name === 'bare') bare.add(node.id)
    else if (name === 'concat') {
      for (const child of node.namedChildren) if (child) skip.add(child.id)
    } else if (name === 'callee' && arg && PY_IMPORT_CALLS.has(node.text)) {
      skip.add(arg.id)
      const parts = pythonStringParts([arg])
      if (parts.length === 1 && parts[0])
        facts.imports.push({ module: parts[0].value, ecosystem: 'python', line: line(node) })
    } else if (name === 'import') {
      for (const n of node.childrenForFieldName('name')) {
        const dotted = n?.type === 'aliased_import' ? n.childForFieldName('name') : n
        if (dotted)
          facts.imports.push({ module: dotted.text, ecosystem: 'python', line: line(node) })
      }
    } else if (name === 'import_from') {
      const module = node.childForFieldName('module_name')
      // Relative imports name the project's own modules.
      if (module && module.type === 'dotted_name') {
        const names = node
          .childrenForFieldName('name')
          .map(n => (n?.type === 'aliased_import' ? n.childForFieldName('name') : n)?.text)
          .filter((n): n is string => n !== undefined)
        facts.imports.push({ module: module.text, names, ecosystem: 'python', line: line(node) })
      }
    }
  }
  for (const { name, node } of captures) {
    if (bare.has(node.id) || skip.has(node.id)) continue
    if (name === 'string') facts.literals.push(...pythonStringParts([node]))
    else if (name === 'concat')
      facts.literals.push(
        ...pythonStringParts(node.namedChildren.filter(c => c?.type === 'string') as Node[])
      )
  }
  return facts
}

/**
 * Static runs of adjacent Python strings: `"a" "b"` is one value `ab`, an interpolation in
 * an f-string ends a run. Escapes are decoded unless the string is raw.
 */
function pythonStringParts(strings: Node[]): Literal[] {
  const parts: Literal[] = []
  let value = ''
  let startLine = 0
  const flush = (): void => {
    if (value !== '') parts.push({ value, line: startLine })
    value = ''
  }
  for (const s of strings) {
    const text = s.text
    const quoteAt = firstQuote(text)
    const prefix = text.slice(0, quoteAt).toLowerCase()
    const raw = prefix.includes('r')
    const formatted = prefix.includes('f') || prefix.includes('t')
    if (!formatted) {
      // Fast path: the token's own text, without asking the tree for its children.
      const quote = text.startsWith(text.charAt(quoteAt).repeat(3), quoteAt) ? 3 : 1
      const body = text.slice(quoteAt + quote, text.length - quote)
      if (value === '') startLine = line(s)
      value += raw ? body : decodeEscapes(body)
      continue
    }
    for (const child of s.namedChildren) {
      if (!child) continue
      if (child.type === 'string_content') {
        if (value === '') startLine = line(child)
        const content = unbrace(child.text)
        value += raw ? content : decodeEscapes(content)
      } else if (child.type === 'interpolation') {
        flush()
      }
    }
  }
  flush()
  return parts
}

function firstQuote(text: string): number {
  for (let i = 0; i < text.length; i++) if (text[i] === '"' || text[i] === "'") return i
  return 0
}

/** `{{` and `}}` in an f-string's static text stand for single braces. */
function unbrace(text: string): string {
  return text.includes('{{') || text.includes('}}')
    ? text.split('{{').join('{').split('}}').join('}')
    : text
}

// ---------------------------------------------------------------- JavaScript / TypeScript

function scriptFacts(matches: QueryMatch[]): FileFacts {
  const captures = hits(matches)
  const facts: FileFacts = { literals: [], imports: [], patterns: [] }
  const skip = new Set<number>()
  const npm = (module: string, at: Node): void =>
    void facts.imports.push({ module, ecosystem: 'npm', line: line(at) })
  for (const { name, node, arg } of captures) {
    if (name === 'bare') skip.add(node.id)
    else if (name === 'import') {
      const source = node.childForFieldName('source') ?? requireClauseSource(node)
      if (source) {
        skip.add(source.id)
        npm(scriptStringValue(source), node)
      }
    } else if (name === 'export_source') {
      skip.add(node.id)
      npm(scriptStringValue(node), node)
    } else if (name === 'callee' && arg) {
      if (arg.type === 'template_string' && !isStaticTemplate(arg)) continue
      const callee = node.type === 'import' ? 'import' : node.text
      if (callee === 'import' || callee === 'require') {
        npm(scriptStringValue(arg), node)
        skip.add(arg.id)
      } else if (JS_MODULE_CALLS.has(callee)) skip.add(arg.id)
    }
  }
  for (const { name, node } of captures) {
    if (skip.has(node.id)) continue
    if (name === 'string') {
      const value = scriptStringValue(node)
      if (value !== '') facts.literals.push({ value, line: line(node) })
    } else if (name === 'template') {
      facts.literals.push(...templateLiterals(node))
    } else if (name === 'regex') {
      facts.patterns.push(...regexRuns(node))
    }
  }
  return facts
}

/**
 * The literal runs of a regular expression: text between metacharacters, with escaped
 * punctuation (`\.`, `\(`) taken as itself. A class, a group's syntax or an escape such as
 * `\d` ends a run; quantifiers take the character before them out of it.
 */
export function regexRuns(node: Node): Literal[] {
  const source = node.text
  const runs: Literal[] = []
  let value = ''
  const flush = (): void => {
    if (value !== '') runs.push({ value, line: line(node) })
    value = ''
  }
  for (let i = 0; i < source.length; i++) {
    const c = source[i] as string
    if (c === '\\') {
      const next = source[i + 1] ?? ''
      i++
      if (/[^A-Za-z0-9]/.test(next)) value += next
      else flush()
    } else if ('*+?{'.includes(c)) {
      // `ab*`: the b is optional, so the run is `a`.
      value = value.slice(0, -1)
      flush()
      if (c === '{') while (i < source.length && source[i] !== '}') i++
    } else if ('^$.|()['.includes(c)) {
      flush()
      if (c === '[') {
        while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1
      } else if (c === '(' && source[i + 1] === '?') {
        // (?:…), (?=…), (?<name>…): the group's syntax is not text.
        i++
        if (source[i + 1] === '<' && /[A-Za-z]/.test(source[i + 2] ?? '')) {
          while (i < source.length && source[i] !== '>') i++
        } else i++
      }
    } else value += c
  }
  flush()
  return runs
}

function templateLiterals(node: Node): Literal[] {
  const text = node.text
  if (!text.includes('${')) {
    const value = decodeEscapes(text.slice(1, -1))
    return value === '' ? [] : [{ value, line: line(node) }]
  }
  const parts: Literal[] = []
  let partLine = line(node)
  let value = ''
  for (const child of node.namedChildren) {
    if (!child) continue
    if (child.type === 'template_substitution') {
      if (value !== '') parts.push({ value: decodeEscapes(value), line: partLine })
      value = ''
    } else {
      if (value === '') partLine = line(child)
      value += child.text
    }
  }
  if (value !== '') parts.push({ value: decodeEscapes(value), line: partLine })
  return parts
}

function requireClauseSource(importStatement: Node): Node | null {
  for (const child of importStatement.namedChildren) {
    if (child?.type === 'import_require_clause') return child.childForFieldName('source')
  }
  return null
}

function isStaticTemplate(node: Node): boolean {
  return !node.text.includes('${')
}

/** A JS/TS string (or static template) value: the text between the quotes, decoded. */
function scriptStringValue(node: Node): string {
  return decodeEscapes(node.text.slice(1, -1))
}

// ---------------------------------------------------------------- shared

function line(node: Node): number {
  return node.startPosition.row + 1
}

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  v: '\v',
  '0': '\0',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '`': '`',
  $: '$',
  '\n': ''
}

/**
 * Decodes the common backslash escapes shared by Python and JavaScript (\n, \t, \xHH,
 * \uHHHH, \u{…}, line continuations). Anything else is kept as written: the value is only
 * compared with other literals, so an undecoded rare escape costs a missed match at worst.
 */
export function decodeEscapes(raw: string): string {
  if (!raw.includes('\\')) return raw
  let out = ''
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string
    if (c !== '\\' || i + 1 >= raw.length) {
      out += c
      continue
    }
    const next = raw[i + 1] as string
    if (next in SIMPLE_ESCAPES) {
      out += SIMPLE_ESCAPES[next]
      i++
      continue
    }
    const hex = next === 'x' ? 2 : next === 'u' ? 4 : next === 'U' ? 8 : 0
    if (next === 'u' && raw[i + 2] === '{') {
      const close = raw.indexOf('}', i + 3)
      const code = close > 0 ? Number.parseInt(raw.slice(i + 3, close), 16) : Number.NaN
      if (Number.isInteger(code) && code <= 0x10ffff) {
        out += String.fromCodePoint(code)
        i = close
        continue
      }
    } else if (hex > 0) {
      const digits = raw.slice(i + 2, i + 2 + hex)
      const code =
        digits.length === hex && /^[0-9a-fA-F]+$/.test(digits)
          ? Number.parseInt(digits, 16)
          : Number.NaN
      if (Number.isInteger(code) && code <= 0x10ffff) {
        out += String.fromCodePoint(code)
        i += 1 + hex
        continue
      }
    }
    out += c
  }
  return out
}
