// JavaScript and TypeScript coverage from the head's vote itself: the `jscov` records the
// gate's watcher sent on the outcome stream (src/reporters/node/vote-cover.cjs), per node
// process one JSON payload {result, sources} cut into chunks, put back together here into
// the V8 dumps v8.ts reads. The records come from the head's processes and are read as
// hostile: a payload whose chunks do not add up, or that is not V8's shape, measures
// nothing and is named; a pool worker that announced a planned file (`jscov-start`) and
// sent no payload was killed before its take, and is counted. Pure.
import type { WatchedRun } from '../replay/side.js'
import { parseDump, type V8Dump } from './v8.js'

/** One process's dump, with the worktree's files it compiled (null: not said). */
export type VoteDump = V8Dump & { loaded: string[] | null }

/** What the vote's records say. */
export interface VoteDumps {
  dumps: VoteDump[]
  problems: string[]
  /** Did any process of the vote measure a planned file (else: fall back to an extra run)? */
  measured: boolean
}

/** Most characters of one process's payload put back together (a suite's stay far below). */
const MAX_PAYLOAD = 64 << 20

interface Parts {
  n: number
  chunks: Map<number, string>
}

/** The dumps of the vote's processes, from the first run's watch records. */
export function voteDumps(watched: WatchedRun, asked: ReadonlySet<string>): VoteDumps {
  const parts = new Map<string, Parts>()
  const started = new Set<string>()
  let bad = 0
  for (const e of watched.events) {
    if (e.t === 'jscov-start' && typeof e.p === 'string') started.add(e.p)
    if (e.t !== 'jscov') continue
    if (!addChunk(parts, e)) bad++
  }
  const out: VoteDumps = { dumps: [], problems: [], measured: false }
  let unreadable = 0
  for (const [p, { n, chunks }] of parts) {
    started.delete(p)
    const dump = chunks.size === n ? payloadDump(joined(chunks, n), asked) : null
    if (dump === null) unreadable++
    else {
      out.dumps.push(dump)
      out.measured ||= dump.result.length > 0
    }
  }
  if (bad + unreadable > 0)
    out.problems.push(
      `${bad + unreadable} coverage record(s) of the vote were incomplete or not V8's shape`
    )
  if (started.size > 0)
    out.problems.push(
      `${started.size} Node process(es) of the vote that compiled changed code ended before sending their coverage (killed?): the lines only they ran are missing`
    )
  if (watched.dropped > 0)
    out.problems.push(
      `${watched.dropped} watch record(s) beyond the stream's cap were not read, so some lines may show uncovered`
    )
  return out
}

/** Adds one well-formed chunk; false for a record that is not one. */
function addChunk(parts: Map<string, Parts>, e: Record<string, unknown>): boolean {
  const { p, i, n, d } = e
  if (typeof p !== 'string' || typeof d !== 'string') return false
  if (!Number.isInteger(n) || !Number.isInteger(i)) return false
  const total = n as number
  const index = i as number
  if (total < 1 || index < 0 || index >= total) return false
  const found = parts.get(p) ?? { n: total, chunks: new Map<number, string>() }
  if (found.n !== total || found.chunks.has(index)) return false
  found.chunks.set(index, d)
  parts.set(p, found)
  return true
}

function joined(chunks: ReadonlyMap<number, string>, n: number): string | null {
  let text = ''
  for (let i = 0; i < n; i++) {
    text += chunks.get(i) ?? ''
    if (text.length > MAX_PAYLOAD) return null
  }
  return text
}

/** One payload as a V8 dump with its kept texts; null when it is not that shape. */
function payloadDump(text: string | null, asked: ReadonlySet<string>): VoteDump | null {
  let json: unknown
  try {
    json = text === null ? undefined : JSON.parse(text)
  } catch {
    return null
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return null
  const dump = parseDump({ result: (json as { result?: unknown }).result }, asked)
  if (dump === null) return null
  const { sources, loaded } = json as { sources?: unknown; loaded?: unknown }
  return { ...dump, sources: keptTexts(sources), loaded: paths(loaded) }
}

function paths(raw: unknown): string[] | null {
  return Array.isArray(raw) ? raw.filter((p): p is string => typeof p === 'string') : null
}

/** url → texts, only entries of that shape. */
function keptTexts(raw: unknown): Record<string, string[]> {
  const by = Object.create(null) as Record<string, string[]>
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return by
  for (const [url, texts] of Object.entries(raw as Record<string, unknown>))
    if (Array.isArray(texts)) by[url] = texts.filter((t): t is string => typeof t === 'string')
  return by
}

/** A canonical id's file (`oracle/fee.test.ts::free over 100` → the path), or null. */
function fileOf(id: string): string | null {
  const at = id.indexOf('::')
  return at <= 0 ? null : id.slice(0, at)
}

/**
 * Per asked path and line, the passing voting tests that may have run it: those of the test
 * files compiled by the processes that ran the line. A line a process ran that compiled no
 * passing test's file (a subprocess of a test, a process that did not say) is left out: its
 * tests are unknown, and a mutant of it runs them all. Tests whose file no process compiled
 * go with every line. `measure` reads one process's dumps (v8.ts coveredLines).
 */
export function testsByLine(
  dumps: readonly VoteDump[],
  passing: ReadonlySet<string>,
  measure: (dumps: readonly V8Dump[]) => Map<string, Set<number>>
): Map<string, Map<number, string[]>> {
  const compiled = new Set(dumps.flatMap(d => d.loaded ?? []))
  const byFile = new Map<string, string[]>()
  const everywhere: string[] = []
  for (const id of [...passing].sort()) {
    const file = fileOf(id)
    if (file === null || !compiled.has(file)) everywhere.push(id)
    else byFile.set(file, [...(byFile.get(file) ?? []), id])
  }
  const tests = new Map<string, Set<string>>()
  const unknown = new Set<string>()
  dumps.forEach((dump, i) => {
    const ids = (dump.loaded ?? []).flatMap(f => byFile.get(f) ?? [])
    // The other processes' kept texts stay: a text may be kept by another process.
    const own = dumps.map((d, j) => (j === i ? d : { ...d, result: [] }))
    for (const [path, lines] of measure(own))
      for (const line of lines) {
        const key = `${line}:${path}`
        if (ids.length === 0) unknown.add(key)
        else for (const id of ids) (tests.get(key) ?? tests.set(key, new Set()).get(key))?.add(id)
      }
  })
  const out = new Map<string, Map<number, string[]>>()
  for (const [key, ids] of tests) {
    if (unknown.has(key)) continue
    const at = key.indexOf(':')
    const path = key.slice(at + 1)
    const lines = out.get(path) ?? out.set(path, new Map()).get(path)
    lines?.set(Number(key.slice(0, at)), [...new Set([...ids, ...everywhere])].sort())
  }
  return out
}
