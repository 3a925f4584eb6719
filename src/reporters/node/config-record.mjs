// The runner's resolved configuration, as the runner itself resolved it, sent to the gate
// by its vitest and jest reporters (issue 26, the "config family" on Node; docs/instrument.md
// "The configuration the runner resolved"). The merge base's config file is the head's too
// (overlay.ts), but it may import production modules (`import { aliases } from
// './src/paths'`), and those are the head's: a patch can steer the run (setup files, include
// globs, retries, snapshot updates, a mapper that swaps the runner's own package) without
// touching a protected path. So each run says what its configuration became: a digest per
// top-level key (worktree root written as `<root>`, functions by their source), the module
// aliases apart (a new alias between the product's own files is honest), and the files the
// config loaded (its import graph, relative to the root). The gate compares the head's
// record with the base's (src/replay/config-drift.ts). Pure but for the package probe.
import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { isAbsolute, join, relative } from 'node:path'

// Keys that differ between two runs of one configuration (vitest's API token, the report
// path the gate gives each side, jest's random seed of the run).
const VOLATILE = new Set(['token', 'outputFile', 'seed'])

/** Canonical JSON of a value: sorted keys, functions by source, the root as `<root>`. */
export function canonical(value, root) {
  const seen = new WeakSet()
  const text = JSON.stringify(value, function (key, v) {
    if (VOLATILE.has(key)) return undefined
    if (typeof v === 'function') return `function:${String(v)}`
    if (typeof v === 'bigint' || typeof v === 'symbol') return String(v)
    if (v instanceof RegExp) return `regexp:${String(v)}`
    if (v === null || typeof v !== 'object') return v
    if (seen.has(v)) return '[seen]'
    seen.add(v)
    if (Array.isArray(v) || v instanceof Set) return [...v]
    if (v instanceof Map) return Object.fromEntries(v)
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map(k => [k, v[k]])
    )
  })
  return (text ?? 'undefined').split(root).join('<root>')
}

const digest = text => createHash('sha256').update(text).digest('hex').slice(0, 24)

/** One digest per top-level key of each named part (`test.include`, `project.setupFiles`). */
export function keyDigests(parts, root) {
  const out = {}
  for (const [label, object] of Object.entries(parts))
    for (const key of Object.keys(object ?? {}).sort())
      if (!VOLATILE.has(key)) out[`${label}.${key}`] = digest(canonical(object[key], root))
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

/** The record itself (channel.mjs sends it as a `config` record). */
export function configRecord(runner, root, parts, aliases, deps) {
  return {
    runner,
    keys: keyDigests(parts, root),
    aliases,
    deps: [...new Set(deps)].map(d => relative(root, d)).filter(d => !d.startsWith('..'))
  }
}
