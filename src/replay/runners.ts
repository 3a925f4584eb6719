// What the gate knows about the test runners it can name: how to tell them from the suite
// command (or `suite.runner`), how to select failing tests by canonical id for a rerun
// (the `{tests}` forms of docs/replay.md), and how to rewrite a plain suite command into a
// selecting one when it has no `{tests}`. Pure: no I/O, the command is only read.
import { basename } from 'node:path'
import type { RunnerSetting } from '../policy/types.js'

export type { RunnerSetting }
export type RunnerKind = Exclude<RunnerSetting, 'other'>

/** The runner of a suite: `suite.runner` when set, else read from the command. */
export function detectRunner(suite: {
  command: string
  runner?: RunnerSetting
}): RunnerKind | null {
  if (suite.runner !== undefined) return suite.runner === 'other' ? null : suite.runner
  const words = splitWords(suite.command)?.map(w => w.text) ?? suite.command.split(/\s+/)
  return runnerAt(words)?.kind ?? null
}

/** One shell word: its raw spelling (quotes kept) and its value. */
export interface Word {
  raw: string
  text: string
}

/**
 * Splits a simple command line into words. Returns null when the line is more than one
 * simple command (pipes, lists, redirections, substitutions, newlines): such a line cannot
 * be rewritten safely, so the gate does not try.
 */
export function splitWords(command: string): Word[] | null {
  const words: Word[] = []
  let open = false
  for (let i = 0; i < command.length;) {
    const ch = command[i] ?? ''
    if (ch === ' ' || ch === '\t') {
      open = false
      i++
      continue
    }
    const piece = wordPiece(command, i)
    if (piece === null) return null
    const last = words[words.length - 1]
    if (open && last) {
      last.raw += piece.raw
      last.text += piece.text
    } else words.push(piece)
    open = true
    i += piece.raw.length
  }
  return words
}

/** One quoted string, escaped character or plain character at `i`; null for shell syntax. */
function wordPiece(command: string, i: number): Word | null {
  const ch = command[i] ?? ''
  if (ch === "'") {
    const end = command.indexOf("'", i + 1)
    return end < 0 ? null : { raw: command.slice(i, end + 1), text: command.slice(i + 1, end) }
  }
  if (ch === '"') return doubleQuoted(command, i)
  if (ch === '\\') {
    if (i + 1 >= command.length) return null
    return { raw: command.slice(i, i + 2), text: command[i + 1] ?? '' }
  }
  if (isPlaceholder(command, i)) {
    const raw = command.slice(i, command.indexOf('}', i) + 1)
    return { raw, text: raw }
  }
  return /[|&;<>()`$\n\r*?[\]{}~#]/.test(ch) ? null : { raw: ch, text: ch }
}

/** A double-quoted string without expansions (`$`, backticks): anything else is refused. */
function doubleQuoted(command: string, i: number): Word | null {
  let text = ''
  let j = i + 1
  while (j < command.length && command[j] !== '"') {
    const c = command[j] ?? ''
    if (c === '$' || c === '`') return null
    if (c === '\\' && j + 1 < command.length) {
      text += command[j + 1] ?? ''
      j += 2
    } else {
      text += c
      j++
    }
  }
  return j >= command.length ? null : { raw: command.slice(i, j + 1), text }
}

/** `{junit}`, `{tests}`, … are the gate's own placeholders, not shell syntax. */
function isPlaceholder(command: string, at: number): boolean {
  return command[at] === '{' && /^\{\w+\}/.test(command.slice(at))
}

interface RunnerAt {
  kind: RunnerKind
  /** Index of the last word that names the runner (or its subcommand, e.g. `vitest run`). */
  index: number
}

function runnerAt(words: readonly string[]): RunnerAt | null {
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? ''
    const name = basename(w)
    if (name === 'pytest' || name === 'py.test') return { kind: 'pytest', index: i }
    if (w === '-m' && words[i + 1] === 'pytest') return { kind: 'pytest', index: i + 1 }
    if (name === 'vitest' || name === 'vitest.mjs') {
      const sub = words[i + 1]
      return { kind: 'vitest', index: sub === 'run' || sub === 'related' ? i + 1 : i }
    }
    if (name === 'jest' || name === 'jest.js') return { kind: 'jest', index: i }
    if (/^node(\.exe)?$|^node\d+$/.test(name)) {
      const test = words.indexOf('--test', i + 1)
      if (test > i) return { kind: 'node-test', index: test }
    }
    if (name === 'go' && words[i + 1] === 'test') return { kind: 'go', index: i + 1 }
  }
  return null
}

/** Options of each runner that take their value as the next word (`-k expr`). */
const VALUE_OPTIONS: Record<RunnerKind, ReadonlySet<string>> = {
  pytest: new Set(
    '-p -k -m -c -o -W -r -n --rootdir --confcutdir --basetemp --junitxml --junit-prefix --deselect --ignore --ignore-glob --log-level --tb --maxfail --durations --import-mode --dist --capture --override-ini --config-file --cov --cov-report --cov-fail-under --timeout --hypothesis-seed'.split(
      ' '
    )
  ),
  vitest: new Set(
    '-c -r -t -w --config --root --dir --reporter --outputFile --project --environment --pool --testNamePattern --exclude --shard --mode --maxWorkers --minWorkers --testTimeout --hookTimeout --retry --bail --silent --sequence.seed --coverage.provider'.split(
      ' '
    )
  ),
  jest: new Set(
    '-c -t -w --config --reporters --testNamePattern --rootDir --roots --testPathIgnorePatterns --testPathPattern --testPathPatterns --maxWorkers --selectProjects --shard --testTimeout --outputFile --testMatch --testRegex --coverageReporters --env --testEnvironment --seed'.split(
      ' '
    )
  ),
  'node-test': new Set(
    '--test-reporter --test-reporter-destination --test-name-pattern --test-skip-pattern --test-concurrency --test-timeout --import -r --require --loader --experimental-loader --conditions -C --env-file --test-shard --input-type'.split(
      ' '
    )
  ),
  go: new Set('-run -skip -timeout -count -p -parallel -tags -coverprofile -o -exec'.split(' '))
}

/** Options that already filter by name: a rewrite would fight them, so it is not done. */
const NAME_FILTERS: Record<RunnerKind, readonly string[]> = {
  pytest: [],
  vitest: ['-t', '--testNamePattern'],
  jest: ['-t', '--testNamePattern'],
  'node-test': ['--test-name-pattern'],
  go: ['-run']
}

/**
 * A plain suite command turned into a selecting one: the runner's positional arguments
 * (paths and filters) are replaced by `{tests}`, which the rerun fills with the selection
 * of `selectionArgs`. Null when the command is not a simple command of a known runner, or
 * already filters by name.
 */
export function selectingCommand(command: string, kind: RunnerKind): string | null {
  if (kind === 'go') return null // go test runs behind a report converter (a pipe)
  const words = splitWords(command)
  if (words === null) return null
  const at = runnerAt(words.map(w => w.text))
  if (at === null || at.kind !== kind) return null
  const values = VALUE_OPTIONS[kind]
  const filters = NAME_FILTERS[kind]
  const kept: string[] = words.slice(0, at.index + 1).map(w => w.raw)
  let placed = false
  const place = (): void => {
    if (!placed) kept.push('{tests}')
    placed = true
  }
  for (let i = at.index + 1; i < words.length; i++) {
    const word = words[i] ?? { raw: '', text: '' }
    const option = word.text.split('=')[0] ?? ''
    if (filters.includes(option)) return null
    if (word.text.startsWith('-')) {
      kept.push(word.raw)
      if (!word.text.includes('=') && values.has(word.text) && i + 1 < words.length) {
        kept.push(words[i + 1]?.raw ?? '')
        i++
      }
      continue
    }
    // A positional: a path or a filter of the full run. The selection takes its place.
    place()
  }
  place()
  return kept.join(' ')
}

/** The words `{tests}` becomes for a rerun of `ids` (canonical ids), per runner. */
export function selectionArgs(kind: RunnerKind | null, ids: readonly string[]): string[] {
  if (kind === null || kind === 'pytest') return [...ids]
  const parts = ids.map(splitId)
  const files = unique(parts.map(p => p.file))
  if (kind === 'go') return [`^(${unique(parts.map(p => goTop(p.name))).join('|')})$`]
  if (kind === 'vitest') {
    // vitest matches -t against the test's full name: its describe titles and its own,
    // joined by a space (the report joins them with " > ").
    return [...files, '-t', anchored(parts.map(p => p.name.split(' > ').join(' ')))]
  }
  if (kind === 'jest') {
    // jest takes its positional arguments as regular expressions over the path, and
    // matches --testNamePattern against the full name joined by spaces, like vitest.
    return [
      ...files.map(f => escapeRegExp(f)),
      '--testNamePattern',
      anchored(parts.map(p => p.name.split(' > ').join(' ')))
    ]
  }
  // node:test matches the full name in newer Node versions and the leaf title in older
  // ones; both are offered (over-selecting within these files costs nothing: only the
  // targeted ids are read back from a selecting rerun).
  const names = parts.flatMap(p => {
    const chain = p.name.split(' > ')
    return unique([chain.join(' '), chain[chain.length - 1] ?? p.name])
  })
  return [`--test-name-pattern=${anchored(names)}`, ...files]
}

function splitId(id: string): { file: string; name: string } {
  const at = id.indexOf('::')
  return at < 0 ? { file: id, name: '' } : { file: id.slice(0, at), name: id.slice(at + 2) }
}

function goTop(name: string): string {
  return escapeRegExp(name.split('/')[0] ?? name)
}

function anchored(names: readonly string[]): string {
  return `^(?:${unique(names).map(escapeRegExp).join('|')})$`
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The options that name a reporter on each JS runner's command line. */
const REPORTER_OPTIONS: Partial<Record<RunnerKind, readonly string[]>> = {
  vitest: ['--reporter', '-r'],
  jest: ['--reporters'],
  'node-test': ['--test-reporter']
}

/**
 * A command with the gate's reporter added beside the user's (stream.ts), or why it cannot
 * be. Only a simple command that already names its reporters on the command line can take
 * one more: there a reporter given on the command line replaces those of the runner's
 * configuration, so one added to a command that names none would silence the user's JUnit.
 */
export function withReporter(
  command: string,
  kind: RunnerKind,
  reporter: string
): { command: string } | { why: string } {
  const options = REPORTER_OPTIONS[kind]
  if (options === undefined) return { why: `${kind} takes no reporter from the gate` }
  const words = splitWords(command)
  if (words === null) return { why: 'the suite command is not a simple command' }
  const texts = words.map(w => w.text)
  const at = runnerAt(texts)
  if (at === null || at.kind !== kind) return { why: `the suite command does not run ${kind}` }
  const named = (option: string): number =>
    texts.filter((t, i) => i > at.index && (t === option || t.startsWith(`${option}=`))).length
  const reporters = options.reduce((n, o) => n + named(o), 0)
  if (reporters === 0)
    return {
      why: `the suite command names no ${options[0] ?? ''}: the reporters come from the runner's configuration`
    }
  const added = [`${options[0] ?? ''}=${shellWord(reporter)}`]
  if (kind === 'node-test') {
    // node pairs reporters and destinations by position: both counts must agree.
    if (named('--test-reporter-destination') !== reporters)
      return { why: 'the suite command gives --test-reporter without a destination for each' }
    added.push('--test-reporter-destination=stdout')
  }
  const raw = words.map(w => w.raw)
  // jest's --reporters takes every following plain word as one more reporter: it goes last.
  const cut = kind === 'jest' ? raw.length : at.index + 1
  return { command: [...raw.slice(0, cut), ...added, ...raw.slice(cut)].join(' ') }
}

/** A word safe for bash and sh (single quotes unless plain). */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}
