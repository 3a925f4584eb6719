// The runner's resolved configuration, as the runner itself resolved it, sent to the gate
// by its vitest and jest reporters (issue 26, the "config family" on Node; docs/instrument.md
// "The configuration the runner resolved"). The merge base's config file is the head's too
// (overlay.ts), but it may import production modules (`import { aliases } from
// './src/paths'`), and those are the head's: a patch can steer the run (setup files, include
// globs, retries, snapshot updates, a mapper that swaps the runner's own package) without
// touching a protected path. So each run says what its configuration became: a digest per
// top-level key (the worktree root, temp and home folders written as `<root>`, `<tmp>`, `<home>`; functions by their source), the module
// aliases apart (a new alias between the product's own files is honest), and the files the
// config loaded (its import graph, relative to the root). The gate compares the head's
// record with the base's (src/replay/config-drift.ts). Pure but for the package probe.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { isAbsolute, join, relative } from 'node:path'
import { types } from 'node:util'

// The exact places a runner draws anew on each run of one configuration (vitest's API
// token and sequence seed, the report path the gate gives each side, jest's seed), by part
// and path. Only these are left out: a plugin's option named `seed` is digested.
const DRAWN = {
  vitest: [
    ['test', 'api', 'token'],
    ['test', 'sequence', 'seed'],
    ['test', 'outputFile']
  ],
  jest: [
    ['global', 'seed'],
    ['global', 'outputFile']
  ]
}

/** The runner's drawn paths as a tree: `{ test: { api: { token: true } } }`. */
export function drawnTree(runner) {
  const tree = {}
  for (const path of DRAWN[runner] ?? []) {
    let at = tree
    path.slice(0, -1).forEach(k => (at = at[k] ??= {}))
    at[path.at(-1)] = true
  }
  return tree
}

/** The text of a value to digest (see walk); the root written as `<root>`. */
export function canonical(value, root) {
  const budget = { left: MAX_NODES }
  return placed(JSON.stringify(walk(value, new Set(), 0, budget, null)), root)
}

/**
 * A text with the run's own places written by their role: the worktree root, and the temp
 * and home folders the gate gives each run (an uncontained run gets a TMPDIR of its own, and
 * jest's default cacheDirectory lies in it). Longest first, so a root inside the temp
 * folder is written as the root.
 */
function placed(text, root) {
  const places = [
    [root, '<root>'],
    [tmpdir(), '<tmp>'],
    [homedir(), '<home>']
  ]
    .filter(([at]) => typeof at === 'string' && at.length > 1)
    .sort((a, b) => b[0].length - a[0].length)
  let out = text
  for (const [at, name] of places) out = out.split(at).join(name)
  return out
}

// Deepest level walked, and most values walked for one option (shared objects are walked
// each time they are met); beyond, a value is only marked.
const MAX_DEPTH = 24
const MAX_NODES = 100_000

/**
 * A plain copy of a value built by reading own properties (never `toJSON`, never a getter:
 * an accessor is taken by its source), so a value the config imports cannot choose what is
 * digested for it. Keys sorted; a proxy is named as one (its traps could answer anything).
 */
function walk(v, path, depth, budget, skip) {
  if (typeof v === 'function') return `function:${Function.prototype.toString.call(v)}`
  if (typeof v === 'bigint' || typeof v === 'symbol') return `${typeof v}:${String(v)}`
  if (v === undefined) return 'undefined'
  if (v === null || typeof v !== 'object') return v
  if (types.isProxy(v)) return 'proxy'
  if (types.isRegExp(v)) return `regexp:${RegExp.prototype.toString.call(v)}`
  if (path.has(v) || depth > MAX_DEPTH) return '[seen]'
  if (--budget.left < 0) return '[big]'
  path.add(v)
  const entries = types.isMap(v)
    ? [...Map.prototype.entries.call(v)].map(([k, x]) => [String(k), x])
    : types.isSet(v)
      ? [...Set.prototype.values.call(v)].map((x, i) => [String(i), x])
      : Object.keys(v).map(k => [k, Object.getOwnPropertyDescriptor(v, k)])
  const out = {}
  for (const [key, d] of entries) {
    const below = skip && Object.hasOwn(skip, key) ? skip[key] : null
    if (below === true) continue
    const own = d && typeof d === 'object' && !types.isMap(v) && !types.isSet(v)
    const x = own ? ('value' in d ? d.value : (d.get ?? d.set)) : d
    out[key] = walk(x, path, depth + 1, budget, below)
  }
  path.delete(v)
  if (Array.isArray(v) || types.isSet(v)) return Object.values(out)
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map(k => [k, out[k]])
  )
}

const digest = text => createHash('sha256').update(text).digest('hex').slice(0, 24)

/** One digest per top-level key of each named part (`test.include`, `project0.setupFiles`). */
export function keyDigests(parts, root, runner) {
  const out = {}
  const drawn = drawnTree(runner)
  for (const [label, object] of Object.entries(parts)) {
    const skip = Object.hasOwn(drawn, label) ? drawn[label] : null
    const plain = walk(object ?? {}, new Set(), 0, { left: MAX_NODES }, skip)
    if (plain === null || typeof plain !== 'object') continue
    for (const [key, value] of Object.entries(plain))
      out[`${label}.${key}`] = digest(placed(JSON.stringify(value), root))
  }
  return out
}

/** True when a specifier names a package installed for the run (vitest, chai, ...). */
function isPackage(find, root) {
  const name = String(find)
    .replace(/^\^|\$$|\\/g, '')
    .replace(/^(@[^/]+\/[^/]+|[^/@.][^/]*).*$/, '$1')
  if (name === '' || name.startsWith('.') || name.startsWith('/')) return false
  return existsSync(join(root, 'node_modules', name, 'package.json'))
}

/** An alias as the gate judges it: what it matches, where it points, whether a package. */
export function aliasOf(find, replacement, root) {
  const target = String(replacement)
  const inside = isAbsolute(target) ? relative(root, target) : target
  return {
    find: find instanceof RegExp ? `regexp:${String(find)}` : String(find),
    to: canonical(inside, root).replace(/^"|"$/g, ''),
    package: isPackage(find instanceof RegExp ? find.source : find, root)
  }
}

/**
 * The record itself (channel.mjs sends it as a `config` record), or one saying why it could
 * not be built (the gate then treats the run as one that did not say: config-drift.ts).
 */
export function configRecord(runner, root, read) {
  try {
    const { parts, aliases, deps } = read()
    return build(runner, root, parts, aliases, deps)
  } catch (error) {
    return { runner, error: String(error?.message ?? error).slice(0, 200) }
  }
}

function build(runner, root, parts, aliases, deps) {
  return {
    runner,
    keys: keyDigests(parts, root, runner),
    aliases,
    deps: [...new Set(deps)].map(d => relative(root, d)).filter(d => !d.startsWith('..'))
  }
}
