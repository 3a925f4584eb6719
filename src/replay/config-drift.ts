// runner-tampered by what the runner's configuration became (issue 26, the config family on
// Node; docs/instrument.md "The configuration the runner resolved"). Both sides run the
// merge base's vitest/jest config file, but a config that imports a production module
// (`import { testDefaults } from './src/settings'`) is steered by the head's version of it.
// The gate's reporters send what the runner resolved (src/reporters/node/config-record.mjs):
// a digest per option, the module aliases, the files the config loaded. Compared here, the
// head's first run against the base's: an option that differs, or an alias the head adds or
// changes that points a package (the runner's own, an assertion library) elsewhere, is
// runner configuration the patch changed. Honest changes stay green: a new alias between the
// product's own files, a version string or a constant the config reads but resolves to the
// same options. Pure.
import type { Reason } from '../types.js'
import type { WatchRecord } from './tripwires.js'

interface Alias {
  find: string
  to: string
  package: boolean
}

interface ConfigRecord {
  runner: string
  keys: Record<string, string>
  aliases: Alias[]
  deps: string[]
}

/** Longest list of option names printed in one reason. */
const MAX_KEYS = 8

/**
 * The first `config` record of a side's runs; `unsaid` when it says it could not be built
 * (`error`) or is malformed; null when there is none (no gate reporter on the command, or a
 * run that ended before its reporter sent one: its stream is then cut, stream.ts).
 */
export function configOf(runs: readonly WatchRecord[]): ConfigRecord | 'unsaid' | null {
  for (const run of runs) for (const e of run.events) if (e.t === 'config') return parseRecord(e)
  return null
}

function parseRecord(e: Record<string, unknown>): ConfigRecord | 'unsaid' {
  const { runner, keys, aliases, deps } = e
  if (e.error !== undefined) return 'unsaid'
  if (typeof runner !== 'string' || typeof keys !== 'object' || keys === null) return 'unsaid'
  if (!Array.isArray(aliases) || !Array.isArray(deps)) return 'unsaid'
  const strings = Object.entries(keys).filter(([, v]) => typeof v === 'string')
  return {
    runner,
    keys: Object.fromEntries(strings) as Record<string, string>,
    aliases: aliases.filter(isAlias),
    deps: deps.filter((d): d is string => typeof d === 'string')
  }
}

function isAlias(a: unknown): a is Alias {
  if (typeof a !== 'object' || a === null) return false
  const { find, to } = a as Record<string, unknown>
  return typeof find === 'string' && typeof to === 'string'
}

/** The options whose resolved value differs (present on one side only counts). */
export function changedKeys(base: ConfigRecord, head: ConfigRecord): string[] {
  const names = new Set([...Object.keys(base.keys), ...Object.keys(head.keys)])
  return [...names].filter(k => base.keys[k] !== head.keys[k]).sort()
}

/** The head's aliases the base lacks (by what they match and where they point) for a package. */
export function packageAliases(base: ConfigRecord, head: ConfigRecord): Alias[] {
  const had = new Set(base.aliases.map(a => `${a.find}\0${a.to}`))
  return head.aliases.filter(a => a.package && !had.has(`${a.find}\0${a.to}`))
}

export interface DriftInput {
  base: readonly WatchRecord[]
  head: readonly WatchRecord[]
  /** Files the patch changed (repository-relative) → the patch's first line there, if known. */
  changed: ReadonlyMap<string, number>
  /** Where a reason goes when no changed file is in the config's import graph. */
  fallback: string
}

/**
 * The reasons: none when either side sent no record, the base's could not be built, or
 * nothing drifted; one when the head's could not be built; else one per changed
 * file of the head's config graph (the first such file when there are several is as good as
 * any: each is runner configuration), or one at `fallback` when the graph holds none.
 */
export function configDrift(input: DriftInput): Reason[] {
  const base = configOf(input.base)
  const head = configOf(input.head)
  if (base === null || base === 'unsaid' || head === null) return []
  if (head === 'unsaid' || base.runner !== head.runner) return [unsaid(input, base.runner)]
  const keys = changedKeys(base, head)
  const aliases = packageAliases(base, head)
  if (keys.length === 0 && aliases.length === 0) return []
  const what = describe(head.runner, keys, aliases)
  const files = head.deps.filter(d => input.changed.has(d))
  if (files.length === 0) {
    const at = head.deps.find(d => !input.changed.has(d)) ?? input.fallback
    const message = `the merge base's ${head.runner} configuration resolved otherwise on the head: ${what}`
    return [{ rule: 'runner-tampered', level: 'failure', path: at, message }]
  }
  return files.map(path => ({
    rule: 'runner-tampered',
    level: 'failure',
    path,
    line: input.changed.get(path) ?? 1,
    message: `${path} is runner configuration: the ${head.runner} config file loads it, and with the patch's version ${what}. Change what the test runner's configuration reads in a PR of its own`
  }))
}

/** The base's run said what it resolved and the head's, with the same reporter, could not. */
function unsaid(input: DriftInput, runner: string): Reason {
  return {
    rule: 'runner-tampered',
    level: 'failure',
    path: input.fallback,
    message: `the head's ${runner} run could not report the configuration it resolved (the merge base's did): its options cannot be compared with the merge base's`
  }
}

function describe(runner: string, keys: readonly string[], aliases: readonly Alias[]): string {
  const parts: string[] = []
  if (keys.length > 0) {
    const shown = keys.slice(0, MAX_KEYS).join(', ')
    const more = keys.length > MAX_KEYS ? ` and ${keys.length - MAX_KEYS} more` : ''
    parts.push(`${runner} resolved other options than on the merge base (${shown}${more})`)
  }
  for (const a of aliases.slice(0, MAX_KEYS))
    parts.push(`an alias points the package ${JSON.stringify(a.find)} to ${JSON.stringify(a.to)}`)
  return parts.join('; ')
}
