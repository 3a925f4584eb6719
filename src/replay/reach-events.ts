// Run-time oracle-reach (issue 26): the `reach` records the gate's watchers streamed from
// the head's runs (src/reporters/python/gate_reach.py; the Node preloads send the same
// record) become oracle-reach reasons naming the patch's file and line, "at run time". The
// static rule reads what the patch's lines name; this reads what they did, however the
// names were built. A record naming a path or line the watch plan did not hold was not the
// watchers' (only the plan's lines are attributed), so it is ignored and counted; a run fed
// the plan whose session never read it was not watched, and the card says so. Pure.
import type { Level, Reason } from '../types.js'
import type { AllowCheck } from '../lints/reach/allow.js'
import { ADVICE, WHY, printable } from '../lints/reach/index.js'
import { REACH_CATEGORIES, type ReachCategory } from '../lints/reach/types.js'
import type { WatchRecord } from './tripwires.js'
import type { WatchPlan } from './watch.js'

/** One thing the patch's line did while the vote ran. */
export interface ReachEvent {
  category: ReachCategory
  what: string
  path: string
  line: number
  /** Found by the differential replay (differential.ts): the call's outcome differed. */
  differential?: true
}

/** Reasons reported per file before a summary reason takes over (as the static rule). */
const PER_FILE_CAP = 20
/** Longest `what` printed (it is built from head-controlled names and paths). */
const MAX_WHAT = 200

export interface RuntimeReachInput {
  /** The head's runs, in order (the first run and its reruns). */
  runs: readonly WatchRecord[]
  plan: WatchPlan
  /** `lints.oracle-reach` as a level. */
  level: Level
  allowed: AllowCheck
  /** Command-line entry points (allow.ts): process habits there are notices. */
  isEntry: (path: string) => boolean
  policyPath: string
  /** What the differential replay found (differential.ts), judged as the watchers' events. */
  differential?: readonly ReachEvent[]
}

export interface RuntimeReach {
  reasons: Reason[]
  /** Records that named no line of the plan, or were malformed: not the watchers'. */
  forged: number
  /** Reasons waived by lints.reach_allow. */
  waived: number
}

/** The reach events of one run's records; anything else (other kinds, bad shapes) skipped. */
export function reachEvents(
  events: readonly Record<string, unknown>[],
  plan: WatchPlan
): { events: ReachEvent[]; forged: number } {
  const out: ReachEvent[] = []
  let forged = 0
  for (const e of events) {
    if (e.t !== 'reach') continue
    const { category, what, path, line } = e
    const valid =
      typeof category === 'string' &&
      (REACH_CATEGORIES as readonly string[]).includes(category) &&
      category !== 'echo' &&
      typeof what === 'string' &&
      typeof path === 'string' &&
      typeof line === 'number' &&
      Number.isInteger(line) &&
      (onPlan(plan, path, line) || unlocated(category, path, line))
    if (!valid) {
      forged++
      continue
    }
    out.push({ category: category as ReachCategory, what, path, line })
  }
  return { events: out, forged }
}

/**
 * A replacement of a built-in the matchers call that the node watcher saw after the fact, made
 * with a value that has no source of its own (RegExp.prototype.test = Boolean): no line can be
 * named, and nothing the runner or a dependency does looks like it (docs/replay.md).
 */
function unlocated(category: unknown, path: unknown, line: unknown): boolean {
  return category === 'comparison' && path === '' && line === 0
}

function onPlan(plan: WatchPlan, path: string, line: number): boolean {
  if (!Object.prototype.hasOwnProperty.call(plan.lines, path)) return false
  return (plan.lines[path] ?? []).some(([first, last]) => line >= first && line <= last)
}

/** Every reason the head's watched runs give, and the notices of runs not watched. */
export function runtimeReach(input: RuntimeReachInput): RuntimeReach {
  const { level, policyPath } = input
  const seen = new Set<string>()
  const byFile = new Map<string, Reason[]>()
  const notices: Reason[] = []
  let forged = 0
  let waived = 0
  let unwatched = 0
  let dropped = 0
  const take = (e: ReachEvent): void => {
    const key = `${e.path}\0${e.line}\0${e.category}${e.differential ? '\0differential' : ''}`
    if (seen.has(key)) return
    seen.add(key)
    if (input.allowed(e.path, e.category)) {
      waived++
      return
    }
    const soft = e.category === 'process' && input.isEntry(e.path)
    const list = byFile.get(e.path) ?? []
    list.push(reasonOf(e, soft ? 'notice' : level, soft))
    byFile.set(e.path, list)
  }
  for (const run of input.runs) {
    if (run.fed && run.watched < run.started) unwatched++
    dropped += run.dropped
    const parsed = reachEvents(run.events, input.plan)
    forged += parsed.forged
    for (const e of parsed.events) take(e)
  }
  for (const e of input.differential ?? []) take(e)
  const reasons: Reason[] = []
  for (const [path, list] of byFile) {
    reasons.push(...list.slice(0, PER_FILE_CAP))
    if (list.length > PER_FILE_CAP)
      reasons.push({
        rule: 'oracle-reach',
        level,
        path,
        message: `${list.length - PER_FILE_CAP} more oracle-reach finding(s) at run time in this file`
      })
  }
  if (unwatched > 0)
    notices.push({
      rule: 'diagnostic',
      level: 'notice',
      path: policyPath,
      message: `${unwatched} run(s) of the head were not watched: the runner's session never read the watch plan the gate fed it, so what the patch's lines did at run time is not known (oracle-reach at run time did not run there)`
    })
  if (dropped > 0)
    notices.push({
      rule: 'oracle-reach',
      level,
      path: policyPath,
      message: `${dropped} event(s) the gate's watchers sent were dropped beyond the cap of one run: what the patch's lines did at run time is not fully known`
    })
  return { reasons: [...reasons, ...notices], forged, waived }
}

function reasonOf(e: ReachEvent, level: Level, soft: boolean): Reason {
  const what = printable(e.what, MAX_WHAT)
  const why = soft
    ? 'allowed in a command-line entry point; make sure the locked tests never import this file'
    : `${WHY[e.category]}; ${ADVICE}`
  // The differential replay's finding: the call, and the vote's and the plain outcome.
  const message = e.differential
    ? `${e.category}: at run time: behaves differently under the test runner — ${what}; ${why}`
    : `${e.category}: ${what} at run time — ${why}`
  if (e.path === '') return { rule: 'oracle-reach', level, message }
  return { rule: 'oracle-reach', level, path: e.path, line: e.line, message }
}

/**
 * The `plugin` records of the head's runs (gate_plugins.py; docs/instrument.md "Plugins the
 * runner registers"): a hook or fixture the runner registered whose code is in a production
 * file the patch changed is runner configuration the patch changed, `runner-tampered`
 * naming the file and the hook's line. A record naming a file the plan does not hold was
 * not the watcher's and is skipped. One reason per file: its first record whose hook or
 * fixture holds the patch's lines (`changed`), else its first record.
 */
export function pluginReasons(runs: readonly WatchRecord[], plan: WatchPlan): Reason[] {
  const byFile = new Map<string, { reason: Reason; changed: boolean }>()
  for (const run of runs)
    for (const e of run.events) {
      if (e.t !== 'plugin') continue
      const { what, path, line } = e
      if (typeof what !== 'string' || typeof path !== 'string') continue
      if (typeof line !== 'number' || !Number.isInteger(line) || line < 1) continue
      if (!Object.prototype.hasOwnProperty.call(plan.lines, path)) continue
      const held = byFile.get(path)
      if (held && (held.changed || e.changed !== true)) continue
      byFile.set(path, { reason: pluginReason(path, line, what), changed: e.changed === true })
    }
  return [...byFile.values()].map(v => v.reason)
}

function pluginReason(path: string, line: number, what: string): Reason {
  return {
    rule: 'runner-tampered',
    level: 'failure',
    path,
    line,
    message: `${printable(path, MAX_WHAT)} is runner configuration: the test runner registered ${printable(what, MAX_WHAT)} from it (line ${line}), and the patch changes this file. Change what the runner loads as a plugin in a PR of its own`
  }
}
