// The outcome stream: the gate's own reporter (src/reporters/, shipped in dist/reporters/)
// loaded into the runner from outside the repository, sending each test's outcome over a
// descriptor the gate holds (descriptor 3 of the suite's shell) as the test ends. The head's
// code can rewrite the JUnit file once the runner is done (an atexit hook, a thread at
// interpreter shutdown); it cannot take back what was streamed. The vote uses the streamed
// outcomes, and the file is cross-checked against them (tripwires.ts): any disagreement,
// a stream cut short or a foreign line is `runner-tampered`. Where the reporter cannot be
// added (an unknown runner, a wrapper script, reporters from the runner's configuration)
// the run falls back to the JUnit file alone and the card says so.
//
// The reporter finds the descriptor and the run's nonce in one environment variable, which
// it takes out of the environment when it loads, before any of the code under test runs.
// Pure parts (planning, parsing, comparing) and the collector; no I/O of its own.
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { shell } from '../exec/process.js'
import { OUTCOME_RANK, type Outcome, type RawCase } from './junit.js'
import { toRepoPath } from './ids.js'
import { withReporter, type RunnerKind } from './runners.js'
import { WATCH_FD } from './watch.js'

/** The variable the reporters read (and remove) at load: `<fd>:<nonce>`. */
export const STREAM_VAR = 'TEST_OUTCOME_STREAM'
/** The child's descriptor of the stream: the first after stdin, stdout and stderr. */
export const STREAM_FD = 3
/** The pytest plugin's module name (src/reporters/python/). */
const PYTEST_MODULE = 'pytest_outcomes'
/** Most watch events kept from one run; beyond, they are only counted. */
export const MAX_EVENTS = 10_000
/** Most bytes kept from one run's stream; beyond, the stream is unreadable (tampered). */
const MAX_STREAM_BYTES = 64 << 20

/** How one run is streamed: the command and additions to the environment, the shell's
 * descriptor hook, and what was streamed once the run is over (or why nothing was). */
export interface StreamPlan {
  command: string
  env: Record<string, string>
  shell: { onStream?: (chunk: Buffer) => void; feed?: Buffer }
  outcome: () => StreamOutcome
}

/** What the stream of one run said. */
export type StreamOutcome =
  | { state: 'off'; why: string }
  | {
      state: 'read'
      /** Cases in the order they were streamed. */
      cases: RawCase[]
      /** Sessions the reporter started, and those it ended. */
      started: number
      ended: number
      /** The runner's own exit status, from the last end record (pytest, vitest). */
      status?: number
      /** Why the stream cannot be trusted as a whole (foreign lines, bad records, size). */
      problems: string[]
      /**
       * What the reporter saw the watched lines do (replay/watch.ts): records other than
       * start, end and case, as sent (`t` their kind), up to MAX_EVENTS; read by their stages.
       */
      events: Record<string, unknown>[]
      /** Events sent beyond MAX_EVENTS (not kept). */
      dropped: number
      /** Sessions that started with the watch plan read, when one was fed. */
      watched: number
    }

/** Where the reporters are: beside the bundle (dist/reporters) or in the source tree. */
export function reportersDir(): string | null {
  const here = dirname(fileURLToPath(import.meta.url))
  for (const dir of [join(here, 'reporters'), join(here, '..', 'reporters')])
    if (existsSync(join(dir, 'python', `${PYTEST_MODULE}.py`))) return dir
  return null
}

/**
 * The command and environment of one run with the gate's reporter added, for a runner the
 * gate knows. `env` is the child's environment before the addition (PYTHONPATH is kept).
 * `watch`: the watch plan's bytes (watch.ts), fed at WATCH_FD to a reporter that reads it.
 */
export function planStream(
  command: string,
  runner: RunnerKind | null,
  env: Readonly<Record<string, string | undefined>>,
  dir: string | null = reportersDir(),
  watch?: Buffer
): StreamPlan {
  const off = (why: string): StreamPlan => ({
    command,
    env: {},
    shell: {},
    outcome: () => ({ state: 'off', why })
  })
  const on = (
    line: string,
    added: Record<string, string>,
    nonce: string,
    fed?: Buffer
  ): StreamPlan => {
    const collector = new StreamCollector(nonce)
    const spec = `${STREAM_FD}:${nonce}${fed ? `:${WATCH_FD}` : ''}`
    return {
      command: line,
      env: { ...added, [STREAM_VAR]: spec },
      shell: { onStream: collector.take, ...(fed ? { feed: fed } : {}) },
      outcome: () => collector.outcome()
    }
  }
  if (runner === null) return off('the suite command names no runner the gate knows')
  if (dir === null) return off("the gate's reporters are missing from its installation")
  const nonce = randomBytes(16).toString('hex')
  if (runner === 'pytest') {
    const python = join(dir, 'python')
    const plugins = [env.PYTEST_PLUGINS, PYTEST_MODULE].filter(Boolean).join(',')
    const path = [python, env.PYTHONPATH].filter(Boolean).join(':')
    const line = watch === undefined ? command : pipedStdio(command)
    return on(line, { PYTEST_PLUGINS: plugins, PYTHONPATH: path }, nonce, watch)
  }
  if (runner === 'go') return off('go test has no reporter of the gate')
  const file = runner === 'vitest' ? 'vitest.mjs' : runner === 'jest' ? 'jest.js' : 'node-test.mjs'
  const added = withReporter(command, runner, join(dir, 'node', file))
  if ('why' in added) return off(added.why)
  const watcher = join(dir, 'node', WATCHER)
  // No watcher in this installation (an old bundle): not watched, and the start says so.
  if (watch === undefined || !existsSync(watcher)) return on(added.command, {}, nonce)
  // The watcher (gate-reach.cjs) loads first into every node process of the run; it takes
  // itself out of NODE_OPTIONS there, and passes the plan on to the processes it spawns.
  const preload = `--require=${optionWord(watcher)}`
  const options = [env.NODE_OPTIONS, preload].filter(Boolean).join(' ')
  return on(added.command, { NODE_OPTIONS: options }, nonce, watch)
}

/**
 * A watched pytest run's descriptors 1 and 2 as pipes, each copied to the gate's by a cat:
 * the watcher has pytest capture at the sys level there (gate_reach.py, so that no unlinked
 * capture file on descriptor 1 tells the product it is measured), and the gate's own
 * descriptors are sockets, which /dev/stdout cannot open; a pipe is what a CI log or a shell
 * hands a program. bash only (process substitution); another shell runs the line as it is.
 */
export function pipedStdio(command: string, sh: string = shell()): string {
  return sh.endsWith('bash') ? `exec > >(exec cat) 2> >(exec cat >&2)\n${command}` : command
}

/** The node watcher's file (src/reporters/node/). */
const WATCHER = 'gate-reach.cjs'

/** A word of NODE_OPTIONS: double quotes, with backslash escapes, unless plain. */
function optionWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `"${value.replace(/["\\]/g, '\\$&')}"`
}

/** Keeps what arrives on the descriptor, up to a bound. */
export class StreamCollector {
  private readonly chunks: Buffer[] = []
  private bytes = 0
  private overflow = false

  constructor(readonly nonce: string) {}

  readonly take = (chunk: Buffer): void => {
    if (this.overflow) return
    this.bytes += chunk.length
    if (this.bytes > MAX_STREAM_BYTES) this.overflow = true
    else this.chunks.push(chunk)
  }

  outcome(): StreamOutcome {
    const read = parseStream(Buffer.concat(this.chunks).toString('utf8'), this.nonce)
    if (this.overflow) read.problems.push(`the stream ran over ${MAX_STREAM_BYTES} bytes`)
    return read
  }
}

/** The records of the outcome stream proper; any other kind is a watch event. */
const SESSION_KINDS: ReadonlySet<string> = new Set(['start', 'end', 'case'])

const OUTCOMES: ReadonlySet<string> = new Set(['passed', 'failed', 'error', 'skipped'])

/** The records of a stream; anything not written by the reporter is a problem. */
export function parseStream(
  text: string,
  nonce: string
): Extract<StreamOutcome, { state: 'read' }> {
  const out: Extract<StreamOutcome, { state: 'read' }> = {
    state: 'read',
    cases: [],
    started: 0,
    ended: 0,
    problems: [],
    events: [],
    dropped: 0,
    watched: 0
  }
  const lines = text.split('\n')
  const last = lines.pop() ?? ''
  if (last !== '') out.problems.push('the stream ends in the middle of a line')
  let foreign = 0
  let dropped = 0
  for (const line of lines) {
    const record = parseRecord(line)
    if (record === null || record.k !== nonce) {
      foreign++
      continue
    }
    // Events may come before a session starts (a conftest imports the product) or after.
    if (!SESSION_KINDS.has(String(record.t))) {
      if (out.events.length < MAX_EVENTS) out.events.push(record)
      else dropped++
      continue
    }
    if (out.ended === out.started && record.t !== 'start') {
      out.problems.push(`a ${String(record.t)} record outside a session of the runner`)
      continue
    }
    if (record.t === 'start') {
      out.started++
      if (record.watch === true) out.watched++
    } else if (record.t === 'end') {
      out.ended++
      if (typeof record.status === 'number') out.status = record.status
    } else if (record.t === 'case') {
      const c = toCase(record)
      if (c === null) out.problems.push('a case record without a name or an outcome')
      else out.cases.push(c)
    }
  }
  if (foreign > 0)
    out.problems.push(`${foreign} line(s) on the stream were not written by the gate's reporter`)
  out.dropped = dropped
  return out
}

function parseRecord(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line)
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null
  } catch {
    return null
  }
}

function toCase(r: Record<string, unknown>): RawCase | null {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
  const name = str(r.name)
  const outcome = str(r.outcome)
  if (name === undefined || outcome === undefined || !OUTCOMES.has(outcome)) return null
  const suites = Array.isArray(r.suites) ? r.suites.filter(s => typeof s === 'string') : []
  const c: RawCase = {
    classname: str(r.classname) ?? '',
    name,
    suites,
    outcome: outcome as Outcome,
    flaky: false
  }
  const file = str(r.file)
  if (file !== undefined) c.file = file
  if (typeof r.line === 'number') c.line = r.line
  return c
}

/** The outcome class the cross-check compares: failing (failed or error), skipped, passed. */
function outcomeClass(o: Outcome): string {
  return o === 'failed' || o === 'error' ? 'failed' : o
}

/**
 * A case as the card names it, from the fields the report gave: its file (or class), the
 * describe chain where that is the only place it is written (node:test), and its name.
 */
export function caseName(c: RawCase, root: string, runner: RunnerKind | null = null): string {
  const where = c.file !== undefined ? toRepoPath(c.file, root) : c.classname
  const suites = runner === 'node-test' ? c.suites.filter(s => s !== '') : []
  const chain = [
    ...suites,
    ...(c.classname !== where && c.file !== undefined && c.classname !== '' ? [c.classname] : []),
    c.name
  ]
  const shown = where === '' ? chain.join(' > ') : `${where}::${chain.join(' > ')}`
  return shown.length > 300 ? `${shown.slice(0, 300)}…` : shown
}

/**
 * The fields the report writer and the reporter both write, as one key. node:test's junit
 * names no file where the gate's reporter does: its key leaves the file out.
 */
function caseKey(root: string, runner: RunnerKind | null): (c: RawCase) => string {
  return c =>
    [
      c.file !== undefined && runner !== 'node-test' ? toRepoPath(c.file, root) : '',
      c.classname,
      ...(runner === 'node-test' ? c.suites : []),
      c.name
    ].join('\u0000')
}

/**
 * The streamed cases with the failure messages of the file (the stream carries outcomes
 * only), taken from the file's case of the same test and outcome class.
 */
export function withMessages(
  streamed: readonly RawCase[],
  junit: readonly RawCase[],
  root: string,
  runner: RunnerKind | null
): RawCase[] {
  const key = caseKey(root, runner)
  const messages = new Map<string, RawCase>()
  for (const c of junit)
    if (c.message !== undefined) messages.set(`${key(c)}\u0000${outcomeClass(c.outcome)}`, c)
  return streamed.map(s => {
    const found = messages.get(`${key(s)}\u0000${outcomeClass(s.outcome)}`)
    return found?.message !== undefined ? { ...s, message: found.message } : s
  })
}

/**
 * Where the JUnit file and the stream disagree, each naming the test: a case only one of
 * them has, or one whose outcome differs (failed and error count as one). Two records of
 * one test keep the worse outcome, as the replay does. Keys are the fields the report
 * writer and the reporter both write; node:test names no file, so its describe chain is
 * part of the key.
 */
export function crossCheck(
  junit: readonly RawCase[],
  streamed: readonly RawCase[],
  root: string,
  runner: RunnerKind | null
): string[] {
  const key = caseKey(root, runner)
  const index = (cases: readonly RawCase[]): Map<string, RawCase> => {
    const map = new Map<string, RawCase>()
    for (const c of cases) {
      const k = key(c)
      const held = map.get(k)
      if (held === undefined || OUTCOME_RANK[c.outcome] > OUTCOME_RANK[held.outcome]) map.set(k, c)
    }
    return map
  }
  const file = index(junit)
  const stream = index(streamed)
  const problems: string[] = []
  for (const [k, c] of file) {
    const s = stream.get(k)
    if (s === undefined)
      problems.push(
        `${caseName(c, root, runner)} is in the report (${c.outcome}) but was never streamed`
      )
    else if (outcomeClass(s.outcome) !== outcomeClass(c.outcome))
      problems.push(
        `${caseName(c, root, runner)} was streamed ${s.outcome} but the report says ${c.outcome}`
      )
  }
  for (const [k, s] of stream)
    if (!file.has(k))
      problems.push(
        `${caseName(s, root, runner)} was streamed ${s.outcome} but is missing from the report`
      )
  return problems
}
