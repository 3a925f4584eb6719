// Python diff coverage from the head's first run (the vote itself, no extra run): the
// `cover` records gate_cover.py sent on the outcome stream, each naming a test the way its
// `case` record does (JUnit classname and name), a file and the changed lines it ran. A
// test's lines count when it maps to a voting test that passed on the head; lines run
// outside any test (imports, collection) count without a test. Anything else (a draft, a
// failing test, a record that is not well formed, a file that is not among the changed
// ones) counts for nothing. A file whose probes a patch line reached (an `instrument`
// record, instrument.ts) counts for nothing either: the product could have written them. Pure.
import type { RawCase } from '../replay/junit.js'
import type { WatchedRun } from '../replay/side.js'
import { instrumentReads, voids, type InstrumentReads } from './instrument.js'
import type { ChangedLines, LineCoverage } from './types.js'

export interface PyCoverageInput {
  /** The first run's watch records; undefined when the stream was not read. */
  watched: WatchedRun | undefined
  changed: readonly ChangedLines[]
  /** The canonical id of a streamed case (the side's mapping, replay/ids.ts). */
  idOf: (c: RawCase) => string
  /** Canonical ids of the voting tests that passed on the head. */
  passing: ReadonlySet<string>
}

/** A `cover` record, well formed; null otherwise. */
interface CoverRecord {
  path: string
  lines: number[]
  test: RawCase | null
}

/** The changed lines the passing voting tests ran, per file and per test. */
export function pyCoverage(input: PyCoverageInput): LineCoverage {
  const wanted = new Map(input.changed.map(c => [c.path, new Set(c.lines)]))
  const covered = new Map<string, Set<number>>()
  const byTest = new Map<string, Map<number, string[]>>()
  const problems = unmeasured(input.watched, input.changed)
  const reads = instrumentReads(input.watched?.events ?? [])
  const voided = input.changed.filter(c => voids(reads, c.path)).map(c => c.path)
  for (const path of voided) wanted.delete(path)
  for (const event of input.watched?.events ?? []) {
    const record = coverRecord(event)
    const lines = record ? wanted.get(record.path) : undefined
    if (!record || !lines) continue
    const id = record.test ? input.idOf(record.test) : null
    if (id !== null && !input.passing.has(id)) continue
    for (const line of record.lines) {
      if (!lines.has(line)) continue
      mapSet(covered, record.path).add(line)
      if (id !== null) addTest(byTest, record.path, line, id)
    }
  }
  return {
    covered,
    byTest,
    ...(problems.length > 0 ? { problems } : {}),
    ...(voided.length > 0 ? { voided: [voidedText(voided, reads)] } : {})
  }
}

function voidedText(paths: readonly string[], reads: InstrumentReads): string {
  return `${paths.join(', ')}: the product reached the gate's coverage probes (${reads.why.join('; ')}), so what they recorded could be its own writing: these lines count as uncovered`
}

/** Why the run cannot tell what it covered: the plan never reached it, or records were cut. */
function unmeasured(watched: WatchedRun | undefined, changed: readonly ChangedLines[]): string[] {
  if (changed.length === 0) return []
  const files = changed.map(c => c.path).join(', ')
  if (watched === undefined || watched.sessions === 0)
    return [
      `${files}: the head's runner did not load the gate's reporter with the watch plan, so no line's coverage is known`
    ]
  if (watched.dropped > 0)
    return [
      `${files}: ${watched.dropped} watch record(s) beyond the stream's cap were not read, so some lines may show uncovered`
    ]
  return []
}

function coverRecord(r: Record<string, unknown>): CoverRecord | null {
  if (r.t !== 'cover' || typeof r.path !== 'string' || !Array.isArray(r.lines)) return null
  const lines = r.lines.filter((n): n is number => Number.isInteger(n) && (n as number) > 0)
  if (typeof r.name !== 'string') return { path: r.path, lines, test: null }
  const test: RawCase = {
    classname: typeof r.classname === 'string' ? r.classname : '',
    name: r.name,
    suites: [],
    outcome: 'passed',
    flaky: false
  }
  if (typeof r.file === 'string') test.file = r.file
  if (typeof r.line === 'number') test.line = r.line
  return { path: r.path, lines, test }
}

function mapSet<K, V>(map: Map<K, Set<V>>, key: K): Set<V> {
  let set = map.get(key)
  if (!set) map.set(key, (set = new Set()))
  return set
}

function addTest(
  byTest: Map<string, Map<number, string[]>>,
  path: string,
  line: number,
  id: string
): void {
  let lines = byTest.get(path)
  if (!lines) byTest.set(path, (lines = new Map()))
  const ids = lines.get(line) ?? []
  if (!ids.includes(id)) ids.push(id)
  lines.set(line, ids)
}
