// Which asked lines of the head's JavaScript and TypeScript files ran, from the coverage V8
// writes (NODE_V8_COVERAGE: one JSON file per process and worker). Block coverage: a line
// ran when the innermost range around its probe (probes.ts: its first character of code)
// has a count above zero; V8 nests ranges, blocks inside functions inside the script.
// Offsets are offsets of the text V8 executed, which is the file itself only when nothing
// transformed it. Which text that was is decided by its length (the script's own range
// ends where its text ends): the texts the gate's hook captured (js-coverage.ts), the
// file, or the line lengths Node keeps with a source map. A transformed text is followed
// back to the head's lines through its source map (inline, or Node's source-map-cache);
// a text that cannot be named, or a map of another version of the file, measures nothing
// and says why. Pure: the dumps and texts come in, lines go out.
import { lineProbes } from './probes.js'
import { inlineMap, readMap, scriptPath, scriptUrl, type RawSourceMap } from './sourcemap.js'

export interface V8Range {
  startOffset: number
  endOffset: number
  count: number
}

export interface V8Script {
  url: string
  functions: { ranges: V8Range[] }[]
}

/** Node's record of a source map it saw (NODE_V8_COVERAGE's `source-map-cache`). */
export interface CachedMap {
  lineLengths?: number[]
  data?: RawSourceMap | null
  /** The `sourceMappingURL` the script named. */
  url?: string | null
}

/**
 * One coverage file: V8's (NODE_V8_COVERAGE) or the gate's hook's (coverage-hook.cjs), with
 * the executed texts the hook kept in the same process (`sources`: V8 writes none).
 */
export interface V8Dump {
  result: V8Script[]
  'source-map-cache'?: Record<string, CachedMap>
  /** Script URL → the texts the runtime executed under that URL, in this process. */
  sources?: Record<string, string[]>
}

/** A file asked about: its text (the head's) and the 1-based lines asked. */
export interface AskedFile {
  text: string
  lines: readonly number[]
}

export interface V8Lines {
  /** path → the asked lines that ran. */
  covered: Map<string, Set<number>>
  /** path → the asked lines that hold code (a probe, and generated code where mapped). */
  executable: Map<string, Set<number>>
  /** path → why the file could not be measured (only for files no script measured). */
  problems: Map<string, string>
}

/** What measuring the scripts has found so far. */
interface Tally extends V8Lines {
  measured: Set<string>
  /** path → the problems found, kept in case no other script measures the file. */
  pending: Map<string, string>
}

/** The asked lines that ran, over every script of every dump; keyed like `files`. */
export function coveredLines(
  dumps: readonly V8Dump[],
  files: ReadonlyMap<string, AskedFile>
): V8Lines {
  const tally: Tally = {
    covered: new Map(),
    executable: new Map(),
    problems: new Map(),
    measured: new Set(),
    pending: new Map()
  }
  const shared = sharedSources(dumps)
  for (const dump of dumps)
    for (const script of dump.result) measureScript(script, dump, { shared, files }, tally)
  for (const [path, file] of files) {
    if (tally.measured.has(path)) continue
    // Never loaded (or never readable): every line with a probe counts, none ran.
    const probes = lineProbes(file.text)
    tally.executable.set(path, new Set(file.lines.filter(l => probes[l - 1] != null)))
    const why = tally.pending.get(path)
    if (why !== undefined) tally.problems.set(path, why)
  }
  return { covered: tally.covered, executable: tally.executable, problems: tally.problems }
}

/** url → every executed text captured under it, in any process. */
function sharedSources(dumps: readonly V8Dump[]): Map<string, string[]> {
  const all = new Map<string, string[]>()
  for (const dump of dumps)
    for (const [url, texts] of Object.entries(dump.sources ?? {}))
      all.set(url, [...(all.get(url) ?? []), ...texts])
  return all
}

interface Inputs {
  shared: ReadonlyMap<string, readonly string[]>
  files: ReadonlyMap<string, AskedFile>
}

/** The executed text of a script as line starts, and the text itself when known. */
interface Executed {
  text: string | null
  starts: number[]
}

function measureScript(script: V8Script, dump: V8Dump, inputs: Inputs, tally: Tally): void {
  const path = scriptPath(script.url)
  const cached = dump['source-map-cache']?.[script.url]
  const asked = path !== null && inputs.files.has(path)
  if (!asked && !cached?.data) return
  const fail = (why: string): void => {
    if (path !== null && asked && !tally.pending.has(path)) tally.pending.set(path, why)
  }
  const executed = executedText(script, dump, inputs, path, cached)
  if (executed === null)
    return fail('the text the runtime executed is not known (transformed, and not captured)')
  const ranges = script.functions.flatMap(f => f.ranges)
  let raw: RawSourceMap | null | undefined
  try {
    raw = (executed.text !== null ? inlineMap(executed.text) : null) ?? cached?.data
  } catch (error) {
    return fail(`its source map is unreadable: ${message(error)}`)
  }
  if (raw) {
    const base = mapBase(script.url, cached)
    try {
      mapped(readMap(raw, base), { ranges, starts: executed.starts }, inputs.files, tally)
    } catch (error) {
      fail(`its source map is unreadable: ${message(error)}`)
    }
    return
  }
  if (!asked || path === null) return
  const file = inputs.files.get(path)
  if (file === undefined || executed.text !== file.text)
    return fail('the runtime executed a transformed text with no source map')
  direct(path, file, { ranges, starts: executed.starts }, tally)
}

/** Sources of a map are relative to the map's own URL (a file's), else to the script. */
function mapBase(url: string, cached: CachedMap | undefined): string {
  const named = cached?.url
  if (typeof named !== 'string' || named.startsWith('data:')) return url
  const base = scriptUrl(url)
  try {
    return base === null ? url : new URL(named, base).href
  } catch {
    return url
  }
}

/**
 * The text V8 executed for a script: a captured text of this process, then of any, then
 * the file itself, whichever is as long as the script's own range; else Node's line
 * lengths of a mapped script. Null when nothing fits.
 */
function executedText(
  script: V8Script,
  dump: V8Dump,
  inputs: Inputs,
  path: string | null,
  cached: CachedMap | undefined
): Executed | null {
  const length = scriptLength(script)
  if (length === null) return null
  const file = path === null ? undefined : inputs.files.get(path)
  const candidates = [
    ...(dump.sources?.[script.url] ?? []),
    ...(inputs.shared.get(script.url) ?? []),
    ...(file ? [file.text] : [])
  ]
  const text = candidates.find(t => t.length === length)
  if (text !== undefined) return { text, starts: lineStarts(text) }
  const lengths = cached?.lineLengths
  if (cached?.data && Array.isArray(lengths)) {
    const total = lengths.reduce((a, b) => a + b, 0) + lengths.length - 1
    if (total === length) return { text: null, starts: startsOfLengths(lengths) }
  }
  return null
}

/** The length of a script's text: the end of its top-level range (which starts at 0). */
function scriptLength(script: V8Script): number | null {
  let end: number | null = null
  for (const r of script.functions[0]?.ranges ?? [])
    if (r.startOffset === 0 && (end === null || r.endOffset > end)) end = r.endOffset
  return end
}

/** Offsets where each line of an executed text starts (JavaScript's line terminators). */
export function lineStarts(text: string): number[] {
  const starts = [0]
  const re = /\r\n|\n|\r|\u2028|\u2029/g
  for (let m = re.exec(text); m !== null; m = re.exec(text)) starts.push(m.index + m[0].length)
  return starts
}

function startsOfLengths(lengths: readonly number[]): number[] {
  const starts = [0]
  for (const l of lengths.slice(0, -1)) starts.push((starts[starts.length - 1] ?? 0) + l + 1)
  return starts
}

/** The count of the innermost range around an offset (the later one of equal spans). */
export function countAt(ranges: readonly V8Range[], offset: number): number {
  let best: V8Range | null = null
  for (const r of ranges) {
    if (offset < r.startOffset || offset >= r.endOffset) continue
    if (best === null || r.endOffset - r.startOffset <= best.endOffset - best.startOffset) best = r
  }
  return best?.count ?? 0
}

interface Run {
  ranges: readonly V8Range[]
  starts: readonly number[]
}

function add(map: Map<string, Set<number>>, path: string, line: number): void {
  const set = map.get(path) ?? new Set<number>()
  set.add(line)
  map.set(path, set)
}

/** An untransformed file: each asked line's probe is an offset of the executed text. */
function direct(path: string, file: AskedFile, run: Run, tally: Tally): void {
  tally.measured.add(path)
  const probes = lineProbes(file.text)
  for (const line of file.lines) {
    const col = probes[line - 1]
    const start = run.starts[line - 1]
    if (col == null || start === undefined) continue
    add(tally.executable, path, line)
    if (countAt(run.ranges, start + col) > 0) add(tally.covered, path, line)
  }
  tally.executable.set(path, tally.executable.get(path) ?? new Set())
}

/** A transformed text: each asked line through the segments its map gives it. */
function mapped(
  map: ReturnType<typeof readMap>,
  run: Run,
  files: ReadonlyMap<string, AskedFile>,
  tally: Tally
): void {
  map.sources.forEach((source, index) => {
    const file = source === null ? undefined : files.get(source)
    if (source === null || file === undefined) return
    const content = map.contents[index]
    // A map of another version of the file says nothing about the head's lines.
    if (content != null && content !== file.text) {
      if (!tally.pending.has(source))
        tally.pending.set(source, 'its source map is of another version of the file')
      return
    }
    tally.measured.add(source)
    tally.executable.set(source, tally.executable.get(source) ?? new Set())
    mapSource(source, file, index, map, run, tally)
  })
}

function mapSource(
  path: string,
  file: AskedFile,
  index: number,
  map: ReturnType<typeof readMap>,
  run: Run,
  tally: Tally
): void {
  const asked = new Set(file.lines)
  const byLine = new Map<number, { col: number; offset: number }[]>()
  for (const s of map.segments) {
    if (s.source !== index || !asked.has(s.line + 1)) continue
    const start = run.starts[s.genLine]
    if (start === undefined) continue
    const list = byLine.get(s.line + 1) ?? []
    list.push({ col: s.col, offset: start + s.genCol })
    byLine.set(s.line + 1, list)
  }
  const probes = lineProbes(file.text)
  for (const [line, points] of byLine) {
    const probe = probes[line - 1]
    if (probe == null) continue
    add(tally.executable, path, line)
    const chosen = probeColumn(
      points.map(p => p.col),
      probe
    )
    const ran = points.some(p => p.col === chosen && countAt(run.ranges, p.offset) > 0)
    if (ran) add(tally.covered, path, line)
  }
}

/**
 * The column of a line's segments that stands for the line: the first at or after its
 * probe (the code the line starts with), else the last before it.
 */
export function probeColumn(cols: readonly number[], probe: number): number {
  const after = cols.filter(c => c >= probe)
  return after.length > 0 ? Math.min(...after) : Math.max(...cols)
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null

function isRange(v: unknown): v is V8Range {
  return (
    isObject(v) &&
    Number.isInteger(v.startOffset) &&
    Number.isInteger(v.endOffset) &&
    typeof v.count === 'number'
  )
}

function asScript(v: unknown): V8Script | null {
  if (!isObject(v) || typeof v.url !== 'string' || !Array.isArray(v.functions)) return null
  const functions: { ranges: V8Range[] }[] = []
  for (const f of v.functions as unknown[]) {
    if (!isObject(f) || !Array.isArray(f.ranges)) return null
    const ranges = f.ranges as unknown[]
    if (!ranges.every(isRange)) return null
    functions.push({ ranges })
  }
  return { url: v.url, functions }
}

/**
 * A coverage file as parsed JSON, checked (the product writes where V8 does, so the file
 * is read as hostile) and cut down to what can matter: the scripts of asked paths and those
 * with a source map, and those maps. Null when it is not V8's shape.
 */
export function parseDump(json: unknown, asked: ReadonlySet<string>): V8Dump | null {
  if (!isObject(json) || !Array.isArray(json.result)) return null
  const cache = isObject(json['source-map-cache']) ? json['source-map-cache'] : {}
  const result: V8Script[] = []
  const kept = Object.create(null) as Record<string, CachedMap>
  for (const raw of json.result as unknown[]) {
    const url = isObject(raw) ? raw.url : undefined
    if (typeof url !== 'string') return null
    const entry = cache[url]
    const map = isObject(entry) && isObject(entry.data) ? entry : null
    const path = scriptPath(url)
    if (map === null && (path === null || !asked.has(path))) continue
    const script = asScript(raw)
    if (script === null) return null
    result.push(script)
    if (map !== null) kept[url] = cachedMap(map)
  }
  return { result, 'source-map-cache': kept }
}

function cachedMap(entry: Record<string, unknown>): CachedMap {
  const lengths = entry.lineLengths
  return {
    data: entry.data as RawSourceMap,
    ...(typeof entry.url === 'string' ? { url: entry.url } : {}),
    ...(Array.isArray(lengths) && lengths.every(n => Number.isInteger(n))
      ? { lineLengths: lengths as number[] }
      : {})
  }
}

/**
 * The hook's executed texts of one process (JSON lines of {url, source}), by script URL;
 * lines not of that shape are left out (a run cut short leaves a half line).
 */
export function parseSourceLines(text: string | null): Record<string, string[]> {
  const by = Object.create(null) as Record<string, string[]>
  for (const line of (text ?? '').split('\n')) {
    let entry: unknown
    try {
      entry = JSON.parse(line)
    } catch {
      continue
    }
    if (isObject(entry) && typeof entry.url === 'string' && typeof entry.source === 'string')
      (by[entry.url] ??= []).push(entry.source)
  }
  return by
}
