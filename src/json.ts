// Shapes of plain data read from JSON or YAML: one object guard and one canonical text per
// value, shared by every module that checks a parsed document or digests one.

/** A plain object (not null, not an array): the shape every parsed document starts from. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * JSON with object keys sorted at every level (by code unit, whatever the locale), no
 * whitespace, undefined members left out: one text per value, for digests and distances.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => byCodeUnit(a, b))
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
}

/** Locale-independent order of strings (UTF-16 code units), for paths, ids and keys. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** A commit id as messages show it: its first 12 characters (`?` when unknown). */
export function shortSha(sha: string): string {
  return sha ? sha.slice(0, 12) : '?'
}
