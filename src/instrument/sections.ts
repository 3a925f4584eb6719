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

/**
 * `tool . "pytest" .ini_options` → `tool.pytest.ini_options`: quotes dropped, and the
 * escapes of a basic (double-quoted) key decoded, so `[tool."\u0070ytest"]` is
 * `tool.pytest` as it is to pytest's TOML parser.
 */
export function normaliseKey(key: string): string {
  return key
    .split('.')
    .map(part => {
      const p = part.trim()
      if (p.startsWith('"')) return decodeBasicEscapes(p.replace(/^"|"$/g, ''))
      return p.replace(/^'|'$/g, '')
    })
    .join('.')
}

const TOML_ESCAPES: Record<string, string> = {
  b: '\b',
  t: '\t',
  n: '\n',
  f: '\f',
  r: '\r',
  e: '\x1b',
  '"': '"',
  '\\': '\\'
}

/** TOML basic-string escapes: \uXXXX, \UXXXXXXXX, \xHH (TOML 1.1) and the short ones. */
function decodeBasicEscapes(text: string): string {
  return text.replace(
    /\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|.)/g,
    (whole, esc: string) => {
      if (esc.length > 1) {
        const code = Number.parseInt(esc.slice(1), 16)
        return code <= 0x10ffff ? String.fromCodePoint(code) : whole
      }
      return TOML_ESCAPES[esc] ?? whole
    }
  )
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

/**
 * package.json keys that steer the test run (top level): runner configuration, the babel
 * configuration jest's transform reads, and `imports`/`exports`, whose conditions decide
 * which file a test's import loads.
 */
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
  'jasmine',
  'babel',
  'imports',
  'exports'
]

/** Scripts npm runs by itself on install (the suite's setup): they run code before the vote. */
const LIFECYCLE_SCRIPTS =
  /^(preinstall|install|postinstall|preprepare|prepare|postprepare|prepublish|prepack|postpack|dependencies)$/

/**
 * The test-related fields of a package.json as canonical JSON: scripts named test,
 * test:*, pretest*, posttest*, the install lifecycle scripts and the keys above. Unparsable JSON yields its whole
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
      if (/^(pre|post)?test($|[:_-])/.test(name) || LIFECYCLE_SCRIPTS.test(name))
        picked[`scripts.${name}`] = value
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

/**
 * JSON with comments and trailing commas (tsconfig.json, .babelrc) → a value, or
 * undefined when it does not parse even then.
 */
export function parseJsonc(text: string): unknown {
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text[i] ?? ''
    if (c === '"') {
      const end = stringEnd(text, i)
      out += text.slice(i, end)
      i = end
    } else if (text.startsWith('//', i)) {
      while (i < text.length && text[i] !== '\n') i++
    } else if (text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2)
      i = end < 0 ? text.length : end + 2
    } else {
      out += c
      i++
    }
  }
  try {
    return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'))
  } catch {
    return undefined
  }
}

function stringEnd(text: string, start: number): number {
  let i = start + 1
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
  return i + 1
}

/**
 * compilerOptions that change which file an import loads (module resolution), plus
 * `extends` and `references`, which pull in another configuration. `target`, `strict`,
 * `lib` and the rest do not choose files: quiet.
 */
const TSCONFIG_RESOLUTION_OPTIONS = [
  'paths',
  'baseUrl',
  'rootDirs',
  'customConditions',
  'moduleSuffixes',
  'moduleResolution',
  'typeRoots',
  'allowJs',
  'jsxImportSource',
  'resolvePackageJsonExports',
  'resolvePackageJsonImports'
]

/** The resolution part of a tsconfig*.json / jsconfig*.json, as canonical JSON. */
export function tsconfigResolution(text: string | null): string | null {
  if (text === null) return null
  const parsed = parseJsonc(text)
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return `unparsable:${text}`
  const config = parsed as Record<string, unknown>
  const picked: Record<string, unknown> = {}
  for (const key of ['extends', 'references']) if (key in config) picked[key] = config[key]
  const options = config.compilerOptions
  if (options && typeof options === 'object') {
    for (const key of TSCONFIG_RESOLUTION_OPTIONS) {
      if (key in options)
        picked[`compilerOptions.${key}`] = (options as Record<string, unknown>)[key]
    }
  }
  return canonicalJson(picked)
}

/**
 * .npmrc settings that run code or choose what runs when npm starts the suite or its
 * setup (`npm test`, `npm ci`): NODE_OPTIONS for every script, the shell scripts run in,
 * scripts npm loads itself, where npm reads more configuration. `engine-strict`,
 * `registry`, `save-exact` and the like are quiet.
 */
const NPMRC_CODE_KEYS = new Set([
  'node-options',
  'script-shell',
  'shell',
  'onload-script',
  'init-module',
  'ignore-scripts',
  'node-gyp',
  'git',
  'userconfig',
  'globalconfig',
  'prefix',
  'scripts-prepend-node-path',
  'npm-path',
  'node'
])

/** The code-running settings of an .npmrc (keys case-folded, `_` read as `-`). */
export function npmrcCodeSettings(text: string | null): string | null {
  if (text === null) return null
  const kept: string[] = []
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue
    const eq = line.indexOf('=')
    const key = (eq < 0 ? line : line.slice(0, eq)).trim().toLowerCase().replace(/_/g, '-')
    // A scoped or URL-prefixed key (`//host/:_authToken`, `@scope:registry`) sets no code.
    const bare = key.replace(/^.*:/, '')
    if (NPMRC_CODE_KEYS.has(bare) || key.startsWith('$') || bare.includes('${'))
      kept.push(`${bare}=${eq < 0 ? '' : line.slice(eq + 1).trim()}`)
  }
  return kept.join('\n')
}

/**
 * Attributes that change the bytes a checkout writes (eol, text, crlf, encodings, filter
 * drivers, ident) or how git compares them (diff, merge drivers, binary).
 */
const BYTE_ATTRIBUTES =
  /^[-!]?(text|eol|crlf|working-tree-encoding|encoding|filter|ident|diff|merge|binary)(=|$)/

/**
 * The lines of a .gitattributes file (in `dir`, "" = root) that set a byte-changing
 * attribute on a path `watched` holds (instrument, fixture and runner files of the merge
 * base), and every macro definition (`[attr]name ...`, which may expand to one).
 */
export function gitattributesFor(
  dir: string,
  watched: (pattern: RegExp) => boolean
): (text: string | null) => string | null {
  return text => {
    if (text === null) return null
    const kept: string[] = []
    for (const raw of text.split(/\r?\n/)) {
      const line = raw.trim()
      if (line === '' || line.startsWith('#')) continue
      const [pattern = '', ...attrs] = line.split(/\s+/)
      if (pattern.startsWith('[attr]')) {
        kept.push(line)
        continue
      }
      if (!attrs.some(a => BYTE_ATTRIBUTES.test(a))) continue
      if (watched(attributePattern(dir, pattern))) kept.push(line)
    }
    return kept.join('\n')
  }
}

/** A .gitattributes pattern as a regular expression over repository paths (gitignore rules). */
export function attributePattern(dir: string, pattern: string): RegExp {
  const anchored = pattern.includes('/') && !pattern.endsWith('/')
  const body = pattern.replace(/^\//, '').replace(/\/$/, '')
  let source = ''
  for (let i = 0; i < body.length; i++) {
    const c = body[i] ?? ''
    if (body.startsWith('**/', i)) {
      source += '(?:.*/)?'
      i += 2
    } else if (body.startsWith('/**', i) && i + 3 === body.length) {
      source += '/.*'
      i += 2
    } else if (c === '[' && body.indexOf(']', i + 2) > 0) {
      const end = body.indexOf(']', i + 2)
      const inner = body
        .slice(i + 1, end)
        .replace(/^!/, '^')
        .replace(/\\/g, '\\\\')
      source += `[${inner}]`
      i = end
    } else if (c === '*') source += '[^/]*'
    else if (c === '?') source += '[^/]'
    else if (c === '\\' && i + 1 < body.length) source += escapeRe(body[++i] ?? '')
    else source += escapeRe(c)
  }
  const prefix = dir === '' ? '' : `${escapeRe(dir)}/`
  const where = anchored ? prefix : `${prefix}(?:.*/)?`
  return new RegExp(`^${where}${source}(?:/.*)?$`, 'is')
}

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
}
