// The parts of shared configuration files that steer a test runner. pyproject.toml,
// setup.cfg, package.json and go.mod also carry dependencies and build settings a patch
// may legitimately change; only the runner's part is instrument. Each extractor returns a
// canonical text of that part (null when the file is absent), so "changed" is a plain
// comparison of the base's extract with the head's. No full TOML parser: the extractor
// only has to find statements, and it errs towards reporting a change.
import { canonicalJson } from '../json.js'

/** Lines of INI sections whose name satisfies `wanted` (comments and blank lines dropped). */
export function iniSections(
  text: string | null,
  wanted: (section: string) => boolean
): string | null {
  if (text === null) return null
  const kept: string[] = []
  let inside = false
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    const header = /^\[([^\]]*)\]/.exec(line)
    if (header) {
      inside = wanted((header[1] ?? '').trim())
      if (inside) kept.push(`[${(header[1] ?? '').trim()}]`)
      continue
    }
    if (!inside || line === '' || line.startsWith('#') || line.startsWith(';')) continue
    // Continuation lines keep a marker so "a =\n  b" and "a = b" stay different.
    kept.push(/^\s/.test(raw) ? `  ${line}` : line)
  }
  return kept.join('\n')
}

/**
 * Statements of a TOML document whose full key starts with `prefix` (e.g. "tool.pytest"):
 * the contents of [prefix...] tables, and dotted keys such as `tool.pytest.ini_options.x`
 * at the top level or `pytest.ini_options = {...}` under [tool].
 */
export function tomlSections(text: string | null, prefix: string): string | null {
  if (text === null) return null
  const kept: string[] = []
  let table = ''
  for (const statement of tomlStatements(text)) {
    const header = /^\[\[?\s*([^\]]+?)\s*\]\]?$/.exec(statement)
    if (header) {
      table = normaliseKey(header[1] ?? '')
      if (startsWithKey(table, prefix)) kept.push(`[${table}]`)
      continue
    }
    const eq = keyEnd(statement)
    const key = normaliseKey(eq < 0 ? statement : statement.slice(0, eq))
    const full = table === '' ? key : `${table}.${key}`
    // A key that is a prefix of the wanted one (`tool = {pytest = ...}`) may hold it too.
    if (startsWithKey(full, prefix) || startsWithKey(prefix, full))
      kept.push(`${table}|${statement}`)
  }
  return kept.join('\n')
}

function startsWithKey(key: string, prefix: string): boolean {
  return key === prefix || key.startsWith(`${prefix}.`)
}

/** `tool . "pytest" .ini_options` → `tool.pytest.ini_options` (quotes dropped). */
function normaliseKey(key: string): string {
  return key
    .split('.')
    .map(part => part.trim().replace(/^["']|["']$/g, ''))
    .join('.')
}

/** Index of the `=` that ends a key, outside quotes; -1 when none. */
function keyEnd(statement: string): number {
  let quote = ''
  for (let i = 0; i < statement.length; i++) {
    const c = statement[i]
    if (quote) {
      if (c === quote) quote = ''
    } else if (c === '"' || c === "'") quote = c
    else if (c === '=') return i
  }
  return -1
}

/**
 * Splits TOML into logical statements: a header, or a key with its whole value (arrays and
 * inline tables spanning lines, multi-line strings). Comments and blank lines are dropped;
 * whitespace at line ends is trimmed.
 */
export function tomlStatements(text: string): string[] {
  const statements: string[] = []
  let current = ''
  let depth = 0
  let quote = '' // '"', "'", '"""' or "'''"
  let i = 0
  const flush = (): void => {
    const s = current.trim()
    if (s !== '') statements.push(s)
    current = ''
  }
  while (i < text.length) {
    const c = text[i] ?? ''
    if (quote) {
      if (quote.length === 1 && c === '\\' && quote === '"') {
        current += text.slice(i, i + 2)
        i += 2
        continue
      }
      if (quote.length === 3 && c === '\\' && quote === '"""') {
        current += text.slice(i, i + 2)
        i += 2
        continue
      }
      if (text.startsWith(quote, i)) {
        current += quote
        i += quote.length
        quote = ''
        continue
      }
      if (quote.length === 1 && c === '\n') quote = '' // unterminated: recover at line end
      current += c
      i++
      continue
    }
    if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      quote = text.slice(i, i + 3)
      current += quote
      i += 3
      continue
    }
    if (c === '"' || c === "'") {
      quote = c
      current += c
      i++
      continue
    }
    if (c === '#') {
      while (i < text.length && text[i] !== '\n') i++
      continue
    }
    if (c === '[' || c === '{') depth++
    if (c === ']' || c === '}') depth = Math.max(0, depth - 1)
    if (c === '\n' || c === '\r') {
      if (depth === 0) flush()
      else current = current.trimEnd() + ' '
      i++
      continue
    }
    current += c
    i++
  }
  flush()
  return statements
}

/** package.json keys that configure test runners (top level), and test scripts. */
const PACKAGE_TEST_KEYS = [
  'jest',
  'mocha',
  'vitest',
  'ava',
  'tap',
  'c8',
  'nyc',
  'jest-junit',
  'playwright',
  'jasmine'
]

/**
 * The test-related fields of a package.json as canonical JSON: scripts named test,
 * test:*, pretest*, posttest* and the runner keys above. Unparsable JSON yields its whole
 * text, so any edit to a broken file counts as a change.
 */
export function packageTestFields(text: string | null): string | null {
  if (text === null) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return `unparsable:${text}`
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return `not-an-object:${text}`
  const pkg = parsed as Record<string, unknown>
  const picked: Record<string, unknown> = {}
  const scripts = pkg.scripts
  if (scripts && typeof scripts === 'object') {
    for (const [name, value] of Object.entries(scripts as Record<string, unknown>)) {
      if (/^(pre|post)?test($|[:_-])/.test(name)) picked[`scripts.${name}`] = value
    }
  }
  for (const key of PACKAGE_TEST_KEYS) if (key in pkg) picked[key] = pkg[key]
  return canonicalJson(picked)
}

/**
 * go.mod directives that change how `go test` behaves without touching a test file: the
 * `go` and `toolchain` versions (language semantics, loop variables, vet checks run by
 * go test) and `godebug` settings. `require`/`replace` are dependencies: quiet.
 */
export function goModTestDirectives(text: string | null): string | null {
  if (text === null) return null
  const kept: string[] = []
  let block = ''
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\/\/.*$/, '').trim()
    if (line === '') continue
    if (block) {
      if (line === ')') block = ''
      else if (block === 'godebug') kept.push(`godebug ${line}`)
      continue
    }
    const open = /^(\w+)\s*\($/.exec(line)
    if (open) {
      block = open[1] ?? ''
      continue
    }
    if (/^(go|toolchain|godebug)\s/.test(line)) kept.push(line.replace(/\s+/g, ' '))
  }
  return kept.join('\n')
}
