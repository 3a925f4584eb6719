// Which files vitest or jest collect, from their own configuration where it can be read
// without running it (issue 25): vitest's test.include/exclude (vitest.config.*, vite.config.*),
// jest's roots/testMatch/testRegex/testPathIgnorePatterns (package.json "jest",
// jest.config.*). A configuration computed at run time is not read: the runner's defaults
// apply, and init's comment says where the globs came from. Pure: file texts in.
import picomatch from 'picomatch'

export interface JsCollection {
  /** The configuration file the rules came from, or null for the runner's defaults. */
  source: string | null
  collects(path: string): boolean
}

const VITEST_CONFIGS = ['vitest.config', 'vite.config'].flatMap(b =>
  ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs'].map(e => `${b}.${e}`)
)
const JEST_CONFIGS = [
  'jest.config.json',
  'jest.config.js',
  'jest.config.ts',
  'jest.config.mjs',
  'jest.config.cjs'
]
const VITEST_INCLUDE = ['**/*.{test,spec}.?(c|m)[jt]s?(x)']
const VITEST_EXCLUDE = ['**/node_modules/**', '**/dist/**', '**/.{idea,git,cache,output,temp}/**']
const JEST_MATCH = ['**/__tests__/**/*.[jt]s?(x)', '**/?(*.)+(spec|test).[jt]s?(x)']

export function vitestCollection(read: (p: string) => string | null): JsCollection {
  for (const file of VITEST_CONFIGS) {
    const text = read(file)
    if (text === null) continue
    const at = text.search(/\btest\s*:\s*\{/)
    const body = at < 0 ? '' : text.slice(at)
    const include = arrayOf(body, 'include')
    const exclude = arrayOf(body, 'exclude')
    return globCollection(file, include ?? VITEST_INCLUDE, [...VITEST_EXCLUDE, ...(exclude ?? [])])
  }
  return globCollection(null, VITEST_INCLUDE, VITEST_EXCLUDE)
}

export function jestCollection(read: (p: string) => string | null): JsCollection {
  const fromPackage = packageJest(read('package.json'))
  const found =
    fromPackage ??
    JEST_CONFIGS.map(f => ({ file: f, text: read(f) })).find(c => c.text !== null) ??
    null
  const text = found?.text ?? ''
  const list = (key: string): string[] | null => arrayOf(text, key)
  const strip = (s: string): string => s.replace(/^<rootDir>\/?/, '')
  const roots =
    list('roots')
      ?.map(strip)
      .filter(r => r !== '' && r !== '.') ?? []
  const match = list('testMatch')?.map(strip) ?? null
  const regex = list('testRegex') ?? stringOf(text, 'testRegex')
  const ignore = (list('testPathIgnorePatterns') ?? ['/node_modules/']).map(p =>
    safeRegExp(p.replace(/<rootDir>\/?/g, ''))
  )
  const matchers = (match ?? (regex === null ? JEST_MATCH : [])).map(g =>
    picomatch(g, { dot: true })
  )
  const regexes = (regex ?? []).map(safeRegExp)
  return {
    source: found?.file ?? null,
    collects: path => {
      if (path.split('/').includes('node_modules')) return false
      if (roots.length > 0 && !roots.some(r => path === r || path.startsWith(`${r}/`))) return false
      if (ignore.some(r => r.test(`/${path}`))) return false
      return matchers.some(m => m(path)) || regexes.some(r => r.test(`/${path}`))
    }
  }
}

function globCollection(source: string | null, include: string[], exclude: string[]): JsCollection {
  const yes = picomatch(include, { dot: true })
  const no = picomatch(exclude, { dot: true })
  return { source, collects: path => yes(path) && !no(path) }
}

function packageJest(text: string | null): { file: string; text: string } | null {
  if (text === null) return null
  try {
    const jest = (JSON.parse(text) as { jest?: unknown }).jest
    return jest === undefined ? null : { file: 'package.json', text: JSON.stringify(jest) }
  } catch {
    return null
  }
}

/** The string literals of `key: [ ... ]` (or `"key": [...]`), or null when absent. */
function arrayOf(text: string, key: string): string[] | null {
  const m = new RegExp(`["']?\\b${key}["']?\\s*:\\s*\\[([^\\]]*)\\]`).exec(text)
  if (m === null) return null
  return [...(m[1] ?? '').matchAll(/"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|`([^`$]*)`/g)].map(x =>
    (x[1] ?? x[2] ?? x[3] ?? '').replace(/\\\\/g, '\\')
  )
}

function stringOf(text: string, key: string): string[] | null {
  const m = new RegExp(
    `["']?\\b${key}["']?\\s*:\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|'((?:[^'\\\\]|\\\\.)*)')`
  ).exec(text)
  return m === null ? null : [(m[1] ?? m[2] ?? '').replace(/\\\\/g, '\\')]
}

function safeRegExp(source: string): RegExp {
  try {
    return new RegExp(source)
  } catch {
    return /(?!)/
  }
}

/** A JS/TS file that calls no test function anywhere: data named like a test. */
export function definesNoTest(text: string): boolean {
  return !/\b(it|test|describe|suite|bench|specify|context)(\.\w+)*\s*(\(|`)/.test(text)
}
