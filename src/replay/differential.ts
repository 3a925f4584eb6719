// Differential replay (issue 26, docs/lints.md "Behaves differently under the runner"). The
// run-time watcher names what the patch's lines did; a signal of being under test it does
// not name still changes what the product returns. Whatever the signal, outside the runner
// it is absent: the head's vote recorded the calls the locked tests made to the patch's
// functions (src/reporters/python/gate_diff.py, `diff` records on the outcome stream), and
// here, after the vote, a plain Python process that is not a test runner
// (src/reporters/python/diff_replay.py, from the gate's installation) calls them again in
// the vote's containment, twice, in two orders, each call several times. A call whose
// replays disagree among themselves, or that the vote's own runs answered two ways (a
// first import unlike the later ones), is nondeterministic and dropped; one whose replays
// agree and differ from the vote is a finding, turned into an oracle-reach reason where
// the run-time watcher's are (reach-events.ts). A call that cannot be replayed (its module
// does not import outside the runner, its arguments do not load) is not checked and
// counted; any failure of the replay itself is a gate error, never a pass.
//
// The records come from the head's process and are hostile: every field is checked, every
// string bounded, a call naming no line of the watch plan ignored and counted.
import { randomBytes } from 'node:crypto'
import { join } from 'node:path'
import type { GateContext } from '../context.js'
import { GateError } from '../errors.js'
import { runShell, type ShellResult } from '../exec/process.js'
import type { ReachEvent } from './reach-events.js'
import { placement, sideEnv, shellQuote } from './run.js'
import { reportersDir } from './stream.js'
import type { WatchPlan } from './watch.js'

/** Calls replayed at most (the recorder's TOTAL; more records are ignored). */
export const MAX_CALLS = 400
/** Times each call is made in each replay process. */
export const ROUNDS = 3
/** Longest text kept of a record's field (pickles, encodings, paths). */
const MAX_FIELD = 256 * 1024
/** Most environment keys a record may carry. */
const MAX_KEYS = 2000

export type CallForm = 'function' | 'method' | 'static' | 'class'
const FORMS: readonly string[] = ['function', 'method', 'static', 'class']

/** One call a locked test made to the patch's function in the vote (a `diff` record). */
export interface DiffCall {
  path: string
  line: number
  mod: string
  owner: string
  name: string
  form: CallForm
  /** The outcome's canonical encoding (JSON text), as the recorder made it. */
  out: string
  /** The arguments, pickled (base64), and their encoding for the message. */
  args: string
  shown: unknown
  /** The checkout's module data the tests changed, pickled (base64; '' for none). */
  glob: string
  cwd: string
  env: { set: Record<string, string>; unset: string[] }
}

/** What every call of the session shares: the first call's environment, the interpreter. */
export interface DiffSession {
  env: Record<string, string>
  exe: string
  path: string[]
}

export interface DiffRecords {
  calls: DiffCall[]
  session: DiffSession | null
  /** Records malformed or naming no line of the plan: not the recorder's. */
  forged: number
  /** What the recorder said at the session's end: calls it counted, and those it left out. */
  vote?: { recorded: number; skipped: Record<string, number> }
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_FIELD

function isStringMap(v: unknown): v is Record<string, string> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false
  const entries = Object.entries(v)
  return entries.length <= MAX_KEYS && entries.every(([, value]) => isText(value))
}

function isTextList(v: unknown): v is string[] {
  return Array.isArray(v) && v.length <= MAX_KEYS && v.every(isText)
}

function onPlan(plan: WatchPlan, path: string, line: number): boolean {
  if (!Object.prototype.hasOwnProperty.call(plan.lines, path)) return false
  return (plan.lines[path] ?? []).some(([first, last]) => line >= first && line <= last)
}

/** One `diff` record as a call, or null when it is not one the recorder could have sent. */
function callOf(e: Record<string, unknown>, plan: WatchPlan): DiffCall | null {
  const { path, line, mod, owner, name, form, out, args, glob, cwd, env } = e
  const texts = [path, mod, owner, name, out, args, glob, cwd].every(isText)
  if (!texts || typeof line !== 'number' || !Number.isInteger(line)) return null
  if (typeof form !== 'string' || !FORMS.includes(form)) return null
  if (typeof env !== 'object' || env === null) return null
  const { set, unset } = env as Record<string, unknown>
  if (!isStringMap(set) || !isTextList(unset)) return null
  if (!onPlan(plan, path as string, line) || (name as string) === '' || (mod as string) === '')
    return null
  return {
    path: path as string,
    line,
    mod: mod as string,
    owner: owner as string,
    name: name as string,
    form: form as CallForm,
    out: out as string,
    args: args as string,
    shown: e.shown,
    glob: glob as string,
    cwd: cwd as string,
    env: { set, unset }
  }
}

/** The calls and the session of one run's watch records; anything else skipped. Pure. */
export function diffRecords(
  events: readonly Record<string, unknown>[],
  plan: WatchPlan
): DiffRecords {
  const calls: DiffCall[] = []
  let session: DiffSession | null = null
  let forged = 0
  let vote: DiffRecords['vote']
  for (const e of events) {
    if (e.t === 'diffend') {
      vote = voteCounts(e) ?? vote
      continue
    }
    if (e.t === 'diffenv') {
      const { env, exe, path } = e
      const valid = isStringMap(env) && isText(exe) && exe.startsWith('/') && isTextList(path)
      if (valid && session === null) session = { env, exe, path }
      else forged++
      continue
    }
    if (e.t !== 'diff') continue
    const call = callOf(e, plan)
    if (call === null || calls.length >= MAX_CALLS) forged++
    else calls.push(call)
  }
  return { calls, session, forged, ...(vote ? { vote } : {}) }
}

/** A `diffend` record's counts, when they are counts. */
function voteCounts(e: Record<string, unknown>): DiffRecords['vote'] | undefined {
  const { recorded, skipped } = e
  const count = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0
  if (!count(recorded) || typeof skipped !== 'object' || skipped === null) return undefined
  const entries = Object.entries(skipped).filter(([k, v]) => /^[a-z]{1,20}$/.test(k) && count(v))
  return { recorded, skipped: Object.fromEntries(entries) as Record<string, number> }
}

/** "a 2, b 1" of the counts that are not zero, or "none". */
function countText(counts: Readonly<Record<string, number>>): string {
  const text = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([why, n]) => `${n} ${why}`)
    .join(', ')
  return text || 'none'
}

/** What one replay process answered for one call. */
export type Answer = { outs: string[] } | { skip: string }

/**
 * The answers of one replay process (its stdout: JSON lines carrying the nonce), one per
 * call asked. Throws when the output is not the whole answer: the process was cut short,
 * or something else wrote there.
 */
export function parseReplay(stdout: string, nonce: string, count: number): Map<number, Answer> {
  const answers = new Map<number, Answer>()
  let end: number | null = null
  for (const line of stdout.split('\n')) {
    if (line.trim() === '') continue
    let record: Record<string, unknown>
    try {
      record = JSON.parse(line) as Record<string, unknown>
    } catch {
      throw new Error('a line of its output is not JSON')
    }
    if (record.k !== nonce) throw new Error('a line of its output is not the replay’s')
    if (typeof record.end === 'number') {
      end = record.end
      continue
    }
    const id = record.id
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= count)
      throw new Error('an answer names no call asked')
    if (isTextList(record.outs) && record.outs.length === ROUNDS)
      answers.set(id, { outs: record.outs })
    else if (typeof record.skip === 'string') answers.set(id, { skip: record.skip.slice(0, 40) })
    else throw new Error('an answer of no known shape')
  }
  if (end !== count || answers.size !== count) throw new Error('it did not answer every call')
  return answers
}

/** A call whose plain outcome, the same in every replay, is not the vote's. */
export interface Difference {
  call: DiffCall
  plain: string
}

export interface Judged {
  differ: Difference[]
  /** Calls whose replays disagreed among themselves (nondeterministic): dropped. */
  dropped: number
  /** Calls not replayed, by why (the module did not import, the arguments did not load). */
  unchecked: Record<string, number>
}

/** What identifies one call to replay: the function, its arguments and its world. */
export function callKey(call: DiffCall): string {
  const { mod, owner, name, args, glob, cwd, env } = call
  return JSON.stringify([mod, owner, name, args, glob, cwd, env])
}

/**
 * The outcomes each call had in the vote's runs (the first and its reruns): a call seen
 * with two outcomes there is nondeterministic in the vote itself. Pure.
 */
export function voteOutcomes(runs: readonly DiffCall[][]): Map<string, Set<string>> {
  const outs = new Map<string, Set<string>>()
  for (const call of runs.flat()) {
    const key = callKey(call)
    const set = outs.get(key) ?? new Set<string>()
    set.add(call.out)
    outs.set(key, set)
  }
  return outs
}

/**
 * The calls judged from the two processes' answers, and from the vote's own outcomes of
 * the same calls (`vote`, voteOutcomes): a call the vote answered two ways is dropped. Pure.
 */
export function judgeCalls(
  calls: readonly DiffCall[],
  first: ReadonlyMap<number, Answer>,
  second: ReadonlyMap<number, Answer>,
  vote: ReadonlyMap<string, ReadonlySet<string>> = new Map()
): Judged {
  const out: Judged = { differ: [], dropped: 0, unchecked: {} }
  calls.forEach((call, id) => {
    if ((vote.get(callKey(call))?.size ?? 1) > 1) {
      out.dropped++
      return
    }
    const a = first.get(id)
    const b = second.get(id)
    const skip = [a, b].find(x => x === undefined || 'skip' in x)
    if (skip !== undefined || a === undefined || b === undefined || 'skip' in a || 'skip' in b) {
      const why = skip && 'skip' in skip ? skip.skip : 'missing'
      out.unchecked[why] = (out.unchecked[why] ?? 0) + 1
      return
    }
    const outs = [...a.outs, ...b.outs]
    if (outs.some(o => o !== outs[0])) out.dropped++
    else if (outs[0] !== call.out) out.differ.push({ call, plain: outs[0] as string })
  })
  return out
}

/** The differences as run-time reach events (reach-events.ts makes the reasons). Pure. */
export function differenceEvents(differ: readonly Difference[]): ReachEvent[] {
  return differ.map(({ call, plain }) => ({
    category: 'markers',
    what: `${callText(call)} gave ${render(parse(call.out))} under the test runner, ${render(parse(plain))} in a plain process`,
    path: call.path,
    line: call.line,
    differential: true
  }))
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return null
  }
}

/** `Owner.name(args)` from the call's argument encoding. */
export function callText(call: DiffCall): string {
  const name = call.owner ? `${call.owner}.${call.name}` : call.name
  const shown = call.shown
  let args = '…'
  if (Array.isArray(shown) && shown[0] === 'tuple' && Array.isArray(shown[1])) {
    const [positional, keywords] = shown[1] as unknown[]
    const list = Array.isArray(positional) && Array.isArray(positional[1]) ? positional[1] : []
    const pairs = Array.isArray(keywords) && Array.isArray(keywords[1]) ? keywords[1] : []
    const words = [
      ...(list as unknown[]).map(v => render(v)),
      ...(pairs as unknown[]).map(p =>
        Array.isArray(p) ? `${render(p[0], 0, true)}=${render(p[1])}` : '?'
      )
    ]
    args = words.join(', ')
  }
  return `${name}(${args.length > 120 ? `${args.slice(0, 120)}…` : args})`
}

const SHORT = 160

/**
 * A short text of an encoded value (gate_diff.py's encoding), for the message: plain values
 * as Python writes them, objects as `Class(field=value)`. Any other shape reads `?`.
 */
export function render(node: unknown, depth = 0, bare = false): string {
  const text = renderNode(node, depth, bare)
  return text.length > SHORT ? `${text.slice(0, SHORT)}…` : text
}

function renderNode(node: unknown, depth: number, bare: boolean): string {
  if (!Array.isArray(node) || typeof node[0] !== 'string') return '?'
  if (depth > 4) return '…'
  const [tag, value] = node as [string, unknown, ...unknown[]]
  const many = (v: unknown): string[] =>
    Array.isArray(v) ? v.slice(0, 8).map(x => render(x, depth + 1)) : []
  switch (tag) {
    case 'none':
      return 'None'
    case 'bool':
      return value === true ? 'True' : 'False'
    case 'int':
    case 'float':
    case 'complex':
      return typeof value === 'string' ? value : '?'
    case 'str':
      return typeof value === 'string' ? (bare ? value : JSON.stringify(value)) : '?'
    case 'bytes':
    case 'bytearray':
      return `${tag}.fromhex(${JSON.stringify(String(value).slice(0, 40))})`
    case 'list':
      return `[${many(value).join(', ')}]`
    case 'tuple':
      return `(${many(value).join(', ')})`
    case 'set':
    case 'frozenset':
      return `{${many(value).join(', ')}}`
    case 'dict':
      return `{${pairs(value, depth).join(', ')}}`
    case 'type':
    case 'function':
    case 'module':
      return typeof value === 'string' ? value : '?'
    case 'raise':
      return `an exception ${typeof value === 'string' ? value : '?'}`
    case 'timeout':
      return 'no return within the replay’s time'
    case 'unencodable':
      return 'a value of no comparable form'
    case 'object':
      return objectText(node as unknown[], depth)
    default:
      return '?'
  }
}

function pairs(value: unknown, depth: number): string[] {
  if (!Array.isArray(value)) return []
  return value
    .slice(0, 8)
    .map(p => (Array.isArray(p) ? `${render(p[0], depth + 1)}: ${render(p[1], depth + 1)}` : '?'))
}

/** ["object", class, parts...]: the class's last name and its fields (a __dict__ or slots). */
function objectText(node: unknown[], depth: number): string {
  const cls = typeof node[1] === 'string' ? (node[1].split('.').pop() ?? '?') : '?'
  const fields: string[] = []
  for (const part of node.slice(2)) {
    if (!Array.isArray(part)) continue
    if (typeof part[0] === 'string') {
      fields.push(render(part, depth + 1))
      continue
    }
    for (const entry of part.slice(0, 8)) {
      if (!Array.isArray(entry)) continue
      const key = typeof entry[0] === 'string' ? entry[0] : render(entry[0], depth + 1, true)
      fields.push(`${key}=${render(entry[1], depth + 1)}`)
    }
  }
  return `${cls}(${fields.join(', ')})`
}

/** What the replay stage hands back: the events, and what it logged. */
export interface DifferentialResult {
  events: ReachEvent[]
  judged?: Judged
}

/**
 * The stage, after the head's vote, in the head's worktree at its run path: the calls the
 * vote's first run recorded (`events`), replayed twice in the vote's containment; every
 * run's records (`runs`: the first and its reruns) only tell a call the vote itself
 * answered two ways. Nothing recorded: nothing run.
 */
export async function replayDifferential(
  ctx: GateContext,
  worktree: string,
  events: readonly Record<string, unknown>[],
  runs: readonly (readonly Record<string, unknown>[])[] = []
): Promise<DifferentialResult> {
  const plan = ctx.watch
  if (!plan?.diff) return { events: [] }
  const { calls, session, forged, vote } = diffRecords(events, plan)
  const again = runs.map(run => diffRecords(run, plan).calls)
  const left = vote
    ? `; in the vote ${vote.recorded} call(s) from the tests, left out: ${countText(vote.skipped)}`
    : ''
  if (calls.length === 0) {
    ctx.log.info(
      `differential replay: no call recorded${forged ? ` (${forged} ignored)` : ''}${left}`
    )
    return { events: [] }
  }
  if (session === null)
    throw new GateError('the differential replay: calls were recorded without their session', {
      path: ctx.policy.path
    })
  const ask = (order: number[], attempt: number): Promise<Map<number, Answer>> =>
    replayOnce(ctx, worktree, { plan, calls, session, order }, attempt)
  const forward = calls.map((_, i) => i)
  // The two processes at once (each in its own containment, neither sees the other's
  // answers): the replay's cost is one plain process, not two, on a 2-core runner. Both are
  // waited for before a failure of either is raised: nothing outlives the stage.
  const both = await Promise.allSettled([ask(forward, 1), ask([...forward].reverse(), 2)])
  const [first, second] = both.map(r => {
    if (r.status === 'rejected') throw r.reason
    return r.value
  }) as [Map<number, Answer>, Map<number, Answer>]
  const judged = judgeCalls(calls, first, second, voteOutcomes([calls, ...again]))
  ctx.log.info(
    `differential replay: ${calls.length} call(s) replayed twice, ${judged.differ.length} differ from the vote, ${judged.dropped} nondeterministic (dropped), not checked: ${countText(judged.unchecked)}${forged ? `, ${forged} record(s) ignored` : ''}${left}`
  )
  return { events: differenceEvents(judged.differ), judged }
}

interface ReplayRequest {
  plan: WatchPlan
  calls: readonly DiffCall[]
  session: DiffSession
  order: number[]
}

async function replayOnce(
  ctx: GateContext,
  worktree: string,
  req: ReplayRequest,
  attempt: number
): Promise<Map<number, Answer>> {
  const dir = reportersDir()
  if (dir === null)
    throw new GateError("the differential replay: the gate's reporters are missing", {
      path: ctx.policy.path
    })
  const script = join(dir, 'python', 'diff_replay.py')
  const place = placement(ctx, worktree)
  const nonce = randomBytes(16).toString('hex')
  const input = JSON.stringify({
    nonce,
    root: place.at,
    path: req.session.path,
    env: req.session.env,
    instrument: req.plan.instrument,
    rounds: ROUNDS,
    order: req.order,
    calls: req.calls.map(({ mod, owner, name, args, glob, cwd, env }) => ({
      mod,
      owner,
      name,
      args,
      glob,
      cwd,
      env
    }))
  })
  const result = await runShell({
    command: `${shellQuote(req.session.exe)} ${shellQuote(script)}`,
    cwd: place.cwd,
    env: await sideEnv(ctx),
    timeoutSec: ctx.policy.suite.timeout,
    logFile: join(ctx.tempDir, `head-differential-${attempt}.log`),
    input,
    captureStdout: true,
    ...(place.wrap ? { wrap: place.wrap } : {})
  })
  try {
    if (result.timedOut) throw new Error(`it timed out after ${ctx.policy.suite.timeout}s`)
    if (result.failure !== undefined) throw new Error(result.failure)
    if (result.exitCode !== 0) throw new Error(`it exited ${exitText(result)}`)
    return parseReplay(result.stdout, nonce, req.calls.length)
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    throw new GateError(
      `the differential replay failed (${why}), so what the patch's functions return outside the test runner is not known:\n${result.tail}`,
      { path: ctx.policy.path }
    )
  }
}

function exitText(result: ShellResult): string {
  return result.exitCode === null ? `on signal ${result.signal ?? '?'}` : String(result.exitCode)
}
