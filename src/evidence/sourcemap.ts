// Source maps (revision 3) read just far enough for coverage: the inline `data:` map a
// transformed script carries in its last `sourceMappingURL` comment, the `mappings` string
// decoded (base64 VLQ) into segments, and each source named as an absolute path. Only what
// V8 coverage needs to go from an offset of the executed text back to a line of the head's
// file; index maps (`sections`) are refused rather than half read. Pure: no I/O.
import { fileURLToPath, pathToFileURL } from 'node:url'

/** The fields of a source map this reads; anything else is ignored. */
export interface RawSourceMap {
  version?: unknown
  sources?: unknown
  sourcesContent?: unknown
  sourceRoot?: unknown
  mappings?: unknown
  sections?: unknown
}

/** One mapped point: a column of a generated line and the source position it came from. */
export interface Segment {
  /** 0-based line and UTF-16 column of the generated (executed) text. */
  genLine: number
  genCol: number
  /** Index into the map's sources. */
  source: number
  /** 0-based line and column of the original text. */
  line: number
  col: number
}

/** A map made usable: its sources as absolute paths, its segments decoded. */
export interface SourceMap {
  /** Absolute path of each source (null when a source is not a file). */
  sources: (string | null)[]
  /** The original text of each source, where the map embeds it. */
  contents: (string | null)[]
  segments: Segment[]
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'
const B64_VALUE = new Map([...B64].map((c, i) => [c, i]))

/** Decodes one VLQ group ("AAgBC" → [0, 0, 16, 1]); throws on a character not base64. */
export function decodeVlq(group: string): number[] {
  const values: number[] = []
  let value = 0
  let shift = 0
  for (const c of group) {
    const digit = B64_VALUE.get(c)
    if (digit === undefined) throw new Error(`not a base64 VLQ character: ${JSON.stringify(c)}`)
    value += (digit & 31) * 2 ** shift
    if (digit & 32) {
      shift += 5
      if (shift > 35) throw new Error('VLQ value too large')
      continue
    }
    values.push(value % 2 === 1 ? -(value - 1) / 2 : value / 2)
    value = 0
    shift = 0
  }
  if (shift !== 0) throw new Error('VLQ group ends inside a value')
  return values
}

/** The segments of a `mappings` string; those with no source (1 field) are left out. */
export function decodeMappings(mappings: string): Segment[] {
  const segments: Segment[] = []
  const state = { source: 0, line: 0, col: 0 }
  mappings.split(';').forEach((lineText, genLine) => {
    let genCol = 0
    for (const group of lineText.split(',')) {
      if (group === '') continue
      const v = decodeVlq(group)
      genCol += v[0] ?? 0
      if (v.length < 4) continue
      state.source += v[1] ?? 0
      state.line += v[2] ?? 0
      state.col += v[3] ?? 0
      segments.push({ genLine, genCol, ...state })
    }
  })
  return segments
}

/**
 * The map of the last `//# sourceMappingURL=data:...` comment of an executed text, or null
 * when it has none (a map in a separate file is not read: the head's tree could point
 * anywhere). Throws when the comment is there but is not a readable JSON map.
 */
export function inlineMap(text: string): RawSourceMap | null {
  const re = /[#@]\s*sourceMappingURL=data:([^,\s]*),([^\s*]*)/g
  let last: RegExpExecArray | null = null
  for (let m = re.exec(text); m !== null; m = re.exec(text)) last = m
  if (last === null) return null
  const [, meta = '', payload = ''] = last
  const json = meta.split(';').includes('base64')
    ? Buffer.from(payload, 'base64').toString('utf8')
    : decodeURIComponent(payload)
  const parsed: unknown = JSON.parse(json)
  if (parsed === null || typeof parsed !== 'object') throw new Error('the inline map is not JSON')
  return parsed as RawSourceMap
}

/** A script's URL or path as a file URL, or null when it is neither (node:, eval, ...). */
export function scriptUrl(url: string): URL | null {
  if (url.startsWith('/')) return pathToFileURL(url)
  try {
    const parsed = new URL(url)
    return parsed.protocol === 'file:' ? parsed : null
  } catch {
    return null
  }
}

/** A file URL or an absolute path as a path; null for anything else. */
export function scriptPath(url: string): string | null {
  const parsed = scriptUrl(url)
  if (parsed === null) return null
  try {
    return fileURLToPath(parsed)
  } catch {
    return null
  }
}

/**
 * Reads a raw map of the script at `base` (its URL or path; sources are relative to it):
 * sources resolved to paths, segments decoded. Throws for what it cannot read.
 */
export function readMap(raw: RawSourceMap, base: string): SourceMap {
  if (raw.sections !== undefined) throw new Error('index source maps (sections) are not read')
  if (raw.version !== 3) throw new Error(`source map version ${String(raw.version)}`)
  if (!Array.isArray(raw.sources) || typeof raw.mappings !== 'string')
    throw new Error('the source map has no sources or mappings')
  const root = typeof raw.sourceRoot === 'string' && raw.sourceRoot !== '' ? raw.sourceRoot : ''
  const baseUrl = scriptUrl(base)
  const sources = raw.sources.map((s: unknown) => {
    if (typeof s !== 'string' || baseUrl === null) return null
    const joined = root === '' ? s : `${root.replace(/\/?$/, '/')}${s}`
    try {
      return scriptPath(new URL(joined, baseUrl).href)
    } catch {
      return null
    }
  })
  const given = Array.isArray(raw.sourcesContent) ? (raw.sourcesContent as unknown[]) : []
  const contents = sources.map((_, i) => {
    const c = given[i]
    return typeof c === 'string' ? c : null
  })
  return { sources, contents, segments: decodeMappings(raw.mappings) }
}
