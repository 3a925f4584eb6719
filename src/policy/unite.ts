// How two policies combine is a property of the schema, not a list in code: every key of
// src/policy/schema.json carries an `x-unite` rule (and `stricter` an `x-unite-order`),
// and uniteBySchema walks the schema applying them. A key added to the schema without a
// rule fails a test and fails here (fail closed), so no key can silently fall back to the
// merge base's value. Pure.

import { GateError } from '../errors.js'

/** The rules a schema key may declare for uniting the merge base's and the tip's value. */
export const UNITE_RULES = [
  'union',
  'intersection',
  'stricter',
  'agree',
  'min',
  'min-by-key',
  'max',
  'or',
  'and',
  'recurse'
] as const

export type UniteRule = (typeof UNITE_RULES)[number]

/** The slice of a JSON Schema node the walk reads. */
export interface UniteNode {
  'x-unite'?: string
  'x-unite-order'?: readonly string[]
  'x-unite-nocase'?: boolean
  properties?: Record<string, UniteNode>
  [key: string]: unknown
}

export interface United {
  value: Record<string, unknown>
  /** Keys (dotted) whose values must agree and do not. */
  clashes: string[]
  /** Keys (dotted) whose united value differs from the merge base's (the tip added protection). */
  widened: string[]
}

/** Thrown when the schema or a value does not fit the rule: a gate bug (gate-error), never a pass. */
export class UniteError extends GateError {}

/** Equal as data: mappings compare whatever order the YAML wrote their keys in. */
const same = (a: unknown, b: unknown): boolean => canonical(a) === canonical(b)

function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    isRecord(v) ? Object.fromEntries(Object.entries(v).sort(([x], [y]) => (x < y ? -1 : 1))) : v
  )
}

/** Walks the schema's properties; keys absent on both sides stay absent. */
export function uniteBySchema(schema: UniteNode, base: unknown, tip: unknown, prefix = ''): United {
  const out: United = { value: {}, clashes: [], widened: [] }
  const a = asRecord(base, prefix)
  const b = asRecord(tip, prefix)
  for (const [key, node] of Object.entries(schema.properties ?? {})) {
    const path = prefix === '' ? key : `${prefix}.${key}`
    if (a[key] === undefined && b[key] === undefined) continue
    const rule = ruleOf(node, path)
    if (rule === 'recurse') {
      const inner = uniteBySchema(node, a[key], b[key], path)
      out.value[key] = inner.value
      out.clashes.push(...inner.clashes)
      out.widened.push(...inner.widened)
      continue
    }
    if (rule === 'agree') {
      if (!same(a[key], b[key])) out.clashes.push(path)
      out.value[key] = a[key]
      continue
    }
    if (a[key] === undefined || b[key] === undefined) {
      // Only `agree` keys may be optional: any other one-sided key cannot be combined.
      out.clashes.push(path)
      out.value[key] = a[key]
      continue
    }
    const value = combine(rule, node, a[key], b[key], path)
    out.value[key] = value
    if (!same(value, a[key])) out.widened.push(path)
  }
  return out
}

/** The rule a key declares; a key without one is a gate error (the schema test catches it). */
export function ruleOf(node: UniteNode, path: string): UniteRule {
  const rule = node['x-unite']
  if (!(UNITE_RULES as readonly unknown[]).includes(rule))
    throw new UniteError(`policy key ${path} declares no x-unite rule in the schema`)
  return rule as UniteRule
}

function combine(rule: UniteRule, node: UniteNode, a: unknown, b: unknown, path: string): unknown {
  switch (rule) {
    case 'union':
      return union(asArray(a, path), asArray(b, path))
    case 'intersection':
      return intersection(asArray(a, path), asArray(b, path), node['x-unite-nocase'] === true)
    case 'stricter':
      return stricter(node['x-unite-order'] ?? [], a, b, path)
    case 'min':
      return Math.min(asNumber(a, path), asNumber(b, path))
    case 'min-by-key':
      return minByKey(node, a, b, path)
    case 'max':
      return Math.max(asNumber(a, path), asNumber(b, path))
    case 'or':
      return asBoolean(a, path) || asBoolean(b, path)
    case 'and':
      return asBoolean(a, path) && asBoolean(b, path)
    default:
      throw new UniteError(`policy key ${path}: rule ${rule} is not a leaf rule`)
  }
}

/** Every entry of either, the merge base's first, each once (by value). */
export function union(a: readonly unknown[], b: readonly unknown[]): unknown[] {
  const out = [...a]
  for (const item of b) if (!out.some(x => same(x, item))) out.push(item)
  return out
}

/**
 * The merge base's entries the tip allows too. Strings compare exactly (or case-folded
 * when the key says `x-unite-nocase`). Objects pair with the tip's entries that agree on
 * every non-list field; their list fields are intersected, and an entry left with an
 * empty list is dropped: what survives is allowed by both policies.
 */
export function intersection(
  a: readonly unknown[],
  b: readonly unknown[],
  nocase = false
): unknown[] {
  const out: unknown[] = []
  for (const item of a) {
    const kept = isRecord(item) ? intersectEntry(item, b) : keepScalar(item, b, nocase)
    if (kept !== undefined) out.push(kept)
  }
  return out
}

function keepScalar(item: unknown, b: readonly unknown[], nocase: boolean): unknown {
  const fold = (x: unknown): unknown => (nocase && typeof x === 'string' ? x.toLowerCase() : x)
  return b.some(y => same(fold(y), fold(item))) ? item : undefined
}

function intersectEntry(item: Record<string, unknown>, b: readonly unknown[]): unknown {
  const scalars = (r: Record<string, unknown>): string =>
    JSON.stringify(
      Object.entries(r)
        .filter(([, v]) => !Array.isArray(v))
        .sort()
    )
  const partners = b.filter(isRecord).filter(y => scalars(y) === scalars(item))
  if (partners.length === 0) return undefined
  const entry: Record<string, unknown> = { ...item }
  for (const [key, value] of Object.entries(item)) {
    if (!Array.isArray(value)) continue
    const allowed = partners.flatMap(p => (Array.isArray(p[key]) ? (p[key] as unknown[]) : []))
    const kept = intersection(value, allowed)
    if (kept.length === 0) return undefined
    entry[key] = kept
  }
  return entry
}

/**
 * A limit written as a number (every key) or as a mapping by key with an optional
 * `default` (ledger_max_days by cause): per key, the smaller of the two. Keys are the
 * mapping form's properties in the schema; a key a mapping leaves out takes its `default`,
 * else the schema's default. Two numbers give a number.
 */
function minByKey(node: UniteNode, a: unknown, b: unknown, path: string): unknown {
  if (typeof a === 'number' && typeof b === 'number') return Math.min(a, b)
  const form = (node.oneOf as UniteNode[] | undefined)?.find(n => n.properties !== undefined)
  if (form?.properties === undefined || typeof node.default !== 'number')
    throw new UniteError(`policy key ${path}: min-by-key needs a mapping form and a default`)
  const fallback = node.default
  const at = (v: unknown, key: string): number => {
    if (typeof v === 'number') return v
    const map = asRecord(v, path)
    const own = map[key] ?? (key === 'default' ? undefined : map.default)
    return own === undefined ? fallback : asNumber(own, path)
  }
  const keys = Object.keys(form.properties)
  return Object.fromEntries(keys.map(key => [key, Math.min(at(a, key), at(b, key))]))
}

/** The later of the two in the key's order (weakest first). */
export function stricter(order: readonly string[], a: unknown, b: unknown, path: string): unknown {
  const ia = order.indexOf(a as string)
  const ib = order.indexOf(b as string)
  if (ia < 0 || ib < 0)
    throw new UniteError(
      `policy key ${path}: x-unite-order does not rank ${JSON.stringify([a, b])}`
    )
  return ib > ia ? b : a
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

function asRecord(v: unknown, path: string): Record<string, unknown> {
  if (v === undefined) return {}
  if (!isRecord(v)) throw new UniteError(`policy key ${path || '(top level)'} is not a mapping`)
  return v
}

function asArray(v: unknown, path: string): readonly unknown[] {
  if (!Array.isArray(v)) throw new UniteError(`policy key ${path} is not a list`)
  return v
}

function asNumber(v: unknown, path: string): number {
  if (typeof v !== 'number') throw new UniteError(`policy key ${path} is not a number`)
  return v
}

function asBoolean(v: unknown, path: string): boolean {
  if (typeof v !== 'boolean') throw new UniteError(`policy key ${path} is not a boolean`)
  return v
}
