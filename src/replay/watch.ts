// The watch plan: what the gate's reporter, loaded into the head's runner, is asked to watch
// while the vote runs (issues 26 and 27): the patch's added and changed lines of production
// code (a run-time event is the patch's when its stack holds a frame on one of them, and
// evidence counts which of them the voting tests ran), and the instrument's paths (what the
// product may not open). Built once per run from the merge base's and the head's objects,
// before any of the head's code runs; handed to each run of the head through a pipe at the
// runner's descriptor 4 that the reporter reads to its end and closes when it loads, so no
// file, variable or argument of the run holds it and nothing is left for the product to
// read (process.ts `feed`). The base is never watched: it holds none of the patch's lines.
import type { GateContext } from '../context.js'
import { addedLines } from '../git/hunks.js'
import { lintFiles } from '../lints/files.js'
import { allowList } from '../lints/reach/allow.js'
import { detectRunner } from './runners.js'

/** The child's descriptor of the plan (after the stream at 3). */
export const WATCH_FD = 4

export interface WatchPlan {
  /** path (repository-relative, head) → the patch's lines as sorted [first, last] ranges. */
  lines: Record<string, [number, number][]>
  /** The instrument's folders and files (repository-relative) that the product may not open. */
  instrument: string[]
  /** Report what the patch's lines do at run time (oracle-reach). */
  reach: boolean
  /** Record which of the patch's lines each voting test runs (evidence). */
  cover: boolean
  /**
   * Record the calls the locked tests make to the patch's functions, for the differential
   * replay (differential.ts; pytest only). Absent: not recorded.
   */
  diff?: boolean
  /**
   * Files of `lines` the merge base's lints.reach_allow waives for `markers`: the watcher
   * shows them the runner's state as it is (a pytest plugin the repository ships needs it)
   * instead of hiding it from them as from the rest of the patch.
   */
  open?: string[]
}

/**
 * The plan of this run, or null when there is nothing to watch. `instrument`: the
 * instrument's folders and files as the containment lists them (contain.ts).
 */
export async function watchPlan(
  ctx: GateContext,
  instrument: readonly string[]
): Promise<WatchPlan | null> {
  const reach = ctx.policy.lints['oracle-reach'] !== 'off'
  const cover = ctx.policy.evidence.mode !== 'off'
  if (!reach && !cover) return null
  const production = lintFiles(ctx.planes, ctx.writeSet).production.map(r => r.path)
  if (production.length === 0) return null
  const added = await addedLines(ctx.git, ctx.mergeBase, ctx.head, production)
  const lines: Record<string, [number, number][]> = {}
  for (const [path, byLine] of added.lines) {
    const ranges = toRanges([...byLine.keys()])
    if (ranges.length > 0) lines[path] = ranges
  }
  if (Object.keys(lines).length === 0) return null
  const what = [reach ? 'run-time reach' : '', cover ? 'coverage' : '']
    .filter(Boolean)
    .join(' and ')
  ctx.log.info(
    `watch plan: ${Object.keys(lines).length} production file(s) of the patch, for ${what}`
  )
  const allowed = allowList(ctx.policy.lints.reach_allow, ctx.policy.case_insensitive)
  const open = Object.keys(lines).filter(path => allowed(path, 'markers'))
  const diff =
    reach && ctx.policy.lints.reach_differential && detectRunner(ctx.policy.suite) === 'pytest'
  return {
    lines,
    instrument: [...instrument],
    reach,
    cover,
    ...(diff ? { diff } : {}),
    ...(open.length ? { open } : {})
  }
}

/** Sorted [first, last] ranges of a set of line numbers. Pure; exported for tests. */
export function toRanges(lines: readonly number[]): [number, number][] {
  const sorted = [...new Set(lines)].sort((a, b) => a - b)
  const out: [number, number][] = []
  for (const n of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && n === last[1] + 1) last[1] = n
    else out.push([n, n])
  }
  return out
}

/**
 * The bytes fed to one run: the plan, with the worktree's path as the run sees it (inside
 * the sandbox, the one run path), so the reporter can tell the checkout's files by path.
 * `env`: the environment the gate hands the run's top process as production would have it
 * (handedEnv's digests); the node watcher holds every other key of a worker's environment
 * to be the runner's (docs/lints.md "Node runners").
 */
export function encodeWatch(
  plan: WatchPlan,
  root: string,
  env?: Readonly<Record<string, string>>
): Buffer {
  const handed = env === undefined ? {} : { env }
  return Buffer.from(`${JSON.stringify({ v: 1, root, ...plan, ...handed })}\n`, 'utf8')
}

/**
 * Name → digest of each key of the environment handed to a run, minus the gate's own
 * (`ORACLE_GATE_*`, the stream's variable) and the runner settings the gate adds (`gateOwn`,
 * jest-junit's): what the product would see run alone. A digest, not the value: the plan
 * needs only to tell a key the runner changed from one it was handed. Pure.
 */
export function handedEnv(
  env: Readonly<Record<string, string | undefined>>,
  gateOwn: Readonly<Record<string, string>> = {}
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || name in gateOwn || name.startsWith('ORACLE_GATE_')) continue
    if (name === 'TEST_OUTCOME_STREAM') continue
    out[name] = envDigest(value)
  }
  return out
}

/**
 * The digest of one value, cyrb53 in hex; the node watcher computes the same
 * (runner-state.cjs `digest`, without node:crypto, which would cost every watched process a
 * dozen modules). It tells a value the runner changed from the handed one: the plan is the
 * gate's, so nobody chooses a collision. Pure.
 */
export function envDigest(value: string): string {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16)
}
