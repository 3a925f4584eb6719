// pytest's own configuration, read the way pytest finds it: the first of pytest.ini,
// .pytest.ini, pyproject.toml ([tool.pytest.ini_options]), tox.ini ([pytest]) and setup.cfg
// ([tool:pytest]) that holds a pytest section is the one file that counts. init takes the
// collection rules from it (testpaths, python_files, python_classes, python_functions), and
// the append-only check reads the merge base's copy, so a test is what pytest collects
// there. Pure: file texts in, settings out; a file it cannot read counts as absent.
import type { PytestAnswer } from './ask-runner.js'

export interface PytestConfig {
  /** The file the settings came from, or null for pytest's defaults. */
  file: string | null
  testpaths: string[]
  pythonFiles: string[]
  pythonClasses: string[]
  pythonFunctions: string[]
  /** pytest's own `pythonpath` is set. */
  pythonpath: boolean
  /** Paths and globs pytest's options ignore (--ignore, --ignore-glob), when pytest said. */
  ignore?: string[]
}

/** The files pytest looks at in a rootdir, in its order of precedence. */
export const PYTEST_CONFIG_FILES = [
  'pytest.ini',
  '.pytest.ini',
  'pyproject.toml',
  'tox.ini',
  'setup.cfg'
] as const

export const PYTEST_DEFAULTS: PytestConfig = {
  file: null,
  testpaths: [],
  pythonFiles: ['test_*.py', '*_test.py'],
  pythonClasses: ['Test'],
  pythonFunctions: ['test'],
  pythonpath: false
}

/** The settings of the first configuration file that has a pytest section. */
export function readPytestConfig(read: (path: string) => string | null): PytestConfig {
  for (const file of PYTEST_CONFIG_FILES) {
    const text = read(file)
    if (text === null) continue
    const section = sectionOf(file, text)
    if (section === null) continue
    const list = (key: string, fallback: string[]): string[] => {
      const value = section.get(key)
      return value === undefined || value.length === 0 ? fallback : value
    }
    return {
      file,
      testpaths: list('testpaths', []),
      pythonFiles: list('python_files', PYTEST_DEFAULTS.pythonFiles),
      pythonClasses: list('python_classes', PYTEST_DEFAULTS.pythonClasses),
      pythonFunctions: list('python_functions', PYTEST_DEFAULTS.pythonFunctions),
      pythonpath: section.has('pythonpath')
    }
  }
  return PYTEST_DEFAULTS
}

function sectionOf(file: string, text: string): Map<string, string[]> | null {
  if (file === 'pyproject.toml') return tomlSection(text, 'tool.pytest.ini_options')
  const name = file === 'setup.cfg' ? 'tool:pytest' : 'pytest'
  const section = iniSection(text, name)
  // pytest.ini counts even when its [pytest] section is missing or empty.
  if (section === null && (file === 'pytest.ini' || file === '.pytest.ini')) return new Map()
  return section
}

/** `key = a b` with indented continuation lines, in one `[name]` section. */
function iniSection(text: string, name: string): Map<string, string[]> | null {
  let inside = false
  let found = false
  let key: string | null = null
  const values = new Map<string, string[]>()
  for (const raw of text.split(/\r?\n/)) {
    const header = /^\[([^\]]+)\]\s*$/.exec(raw)
    if (header) {
      inside = header[1]?.trim() === name
      found ||= inside
      key = null
      continue
    }
    if (!inside || /^\s*[#;]/.test(raw) || raw.trim() === '') continue
    const pair = /^([A-Za-z_][\w-]*)\s*[=:]\s*(.*)$/.exec(raw)
    if (pair?.[1] !== undefined) {
      key = pair[1]
      values.set(key, words(pair[2] ?? ''))
    } else if (key !== null && /^\s/.test(raw)) {
      values.get(key)?.push(...words(raw))
    }
  }
  return found ? values : null
}

function words(s: string): string[] {
  return s
    .replace(/\s[#;].*$/, '')
    .split(/[\s,]+/)
    .filter(w => w !== '')
}

/** A `[table]`'s keys whose values are a string or an array of strings. */
function tomlSection(text: string, name: string): Map<string, string[]> | null {
  let inside = false
  let found = false
  const values = new Map<string, string[]>()
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i] ?? ''
    const header = /^\s*\[\s*([^\]]+?)\s*\]\s*(#.*)?$/.exec(raw)
    if (header) {
      inside = header[1] === name
      found ||= inside
      continue
    }
    if (!inside) continue
    const pair = /^\s*([A-Za-z_][\w-]*)\s*=\s*(.*)$/.exec(raw)
    if (pair?.[1] === undefined) continue
    let value = pair[2] ?? ''
    // A multi-line array: read on to its closing bracket.
    while (value.trimStart().startsWith('[') && !closed(value) && i + 1 < lines.length)
      value += `\n${lines[++i] ?? ''}`
    values.set(pair[1], tomlStrings(value))
  }
  return found ? values : null
}

function closed(value: string): boolean {
  return /\]\s*(#.*)?$/.test(value.replace(/"[^"]*"|'[^']*'/g, '""'))
}

function tomlStrings(value: string): string[] {
  const strings = [...value.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g)].map(m => m[1] ?? m[2] ?? '')
  // A single string value holds space-separated words (pytest splits ini-style values).
  return value.trimStart().startsWith('[') ? strings : strings.flatMap(words)
}

/** The answer pytest itself gave (ask-runner.ts) in the shape of a configuration read. */
export function configFromAnswer(answer: Omit<PytestAnswer, 'python' | 'rootdir'>): PytestConfig {
  return {
    file: answer.inifile,
    testpaths: answer.testpaths,
    pythonFiles: answer.pythonFiles.length > 0 ? answer.pythonFiles : PYTEST_DEFAULTS.pythonFiles,
    pythonClasses:
      answer.pythonClasses.length > 0 ? answer.pythonClasses : PYTEST_DEFAULTS.pythonClasses,
    pythonFunctions:
      answer.pythonFunctions.length > 0 ? answer.pythonFunctions : PYTEST_DEFAULTS.pythonFunctions,
    pythonpath: answer.pythonpath,
    ignore: answer.ignore
  }
}

/**
 * The pytest options of a command line that change how pytest finds its configuration
 * (-c/--config-file, --rootdir, -o/--override-ini), for asking pytest as the CI runs it.
 * Pure; words after the first `pytest` (or `py.test`) word only.
 */
export function pytestConfigArgs(command: string | null | undefined): string[] {
  const words = (command ?? '').split(/\s+/).filter(w => w !== '')
  const at = words.findIndex(w => /(^|\/)(pytest|py\.test)$/.test(w))
  if (at < 0) return []
  const out: string[] = []
  const takes = new Set(['-c', '--config-file', '--rootdir', '-o', '--override-ini'])
  for (let i = at + 1; i < words.length; i++) {
    const w = words[i] ?? ''
    if (/^[;&|]/.test(w)) break
    const name = w.split('=')[0] ?? ''
    if (takes.has(w) && i + 1 < words.length) out.push(w, words[++i] ?? '')
    else if (w.includes('=') && takes.has(name)) out.push(w)
  }
  return out
}

/** pytest's rule for python_classes/python_functions: a glob if it has one, else a prefix. */
export function namePatterns(patterns: readonly string[]): (name: string) => boolean {
  const tests = patterns.map(p =>
    /[*?[]/.test(p) ? globRegExp(p) : new RegExp(`^${p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)
  )
  return name => tests.some(t => t.test(name))
}

/** fnmatch: `*`, `?` and `[...]` over a whole name. */
export function globRegExp(glob: string): RegExp {
  let out = ''
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i] ?? ''
    if (c === '*') out += '.*'
    else if (c === '?') out += '.'
    else if (c === '[') {
      const end = glob.indexOf(']', i + 1)
      if (end < 0) out += '\\['
      else {
        const body = glob
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')
        out += `[${body}]`
        i = end
      }
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  }
  return new RegExp(`^${out}$`)
}
