// Pure core of the skip-marker rule: the suppressions and raised timeouts a file's added
// lines introduce, each mapped to the test it silences. "Introduce" means new for that
// test: a marker the base already had on the same test (a reformatted or moved line) is
// not the patch's doing.
import { familyOf, parsedLanguageOf, type Family as Lang } from '../../lang.js'
import { GateError } from '../../errors.js'
import { parserFor } from '../parsers.js'
import { maskCode } from './mask.js'
import {
  suppressionsIn,
  timeoutsIn,
  TIMEOUT_DEFAULTS,
  type HelperExports,
  type MarkerHit,
  type TimeoutHit
} from './markers.js'
import type { Tree } from 'web-tree-sitter'
import { pythonMarkers } from './python.js'
import { pythonImports, pythonMarkedExports } from './python-exports.js'
import { scriptMarkers, type ScriptMarkers } from './script.js'
import { markedExports, relativeImports } from './script-exports.js'
import { unitFinder, type TestUnit } from './units.js'

export interface Finding {
  line: number
  /** The marker as written, e.g. `pytest.mark.skip`, or `timeout= 5 → 60`. */
  label: string
  unit: TestUnit
  silencesOthers: boolean
}

/**
 * The marked exports of the module `specifier` names, imported from the file at `from`, at
 * the head or at the merge base (the caller reads and parses it); undefined when none.
 */
export type HelperResolver = (
  side: 'head' | 'base',
  from: string,
  specifier: string
) => Promise<HelperExports | undefined>

/**
 * A cheap superset of every marker and timeout pattern, tried on the raw added lines before
 * a Python, Go or Java file is read and lexed: most changed test files add no marker at
 * all. JS/TS files are always parsed: an alias or an escaped name spells no marker word.
 */
const MAYBE =
  /skip|xfail|expectedfailure|only|todo|fails|runif|\bx(?:it|test|describe|context|specify)\b|\bf(?:it|describe|context)\b|disabled|ignore|timeout|deadline/i

export function mayHoldMarker(lines: Iterable<string>): boolean {
  for (const line of lines) if (MAYBE.test(line)) return true
  return false
}

/**
 * Parses a file's text into a tree its caller holds (the run's view, view.ts): the scan
 * neither frees it nor parses that text again.
 */
export type HeldTree = (text: string) => Promise<Tree>

/**
 * @param path head path (canonical ids use it)
 * @param headText file at head
 * @param baseText file at the merge base (its previous path when renamed), null when new
 * @param added head line numbers the diff adds
 * @param resolve JS/TS: the helpers a test imports from other modules (none when omitted)
 * @param trees the run's trees of the head and base file (parsed here and freed when omitted)
 */
export async function scanFile(
  path: string,
  lang: Lang,
  headText: string,
  baseText: string | null,
  added: Iterable<number>,
  resolve?: HelperResolver,
  trees?: { head: HeldTree; base: HeldTree }
): Promise<Finding[]> {
  const head = await analyse(path, lang, headText, helpersOn('head', path, resolve), trees?.head)
  const base =
    baseText === null
      ? undefined
      : await analyse(path, lang, baseText, helpersOn('base', path, resolve), trees?.base)
  const before = new Set<string>()
  const baseTimeouts = new Map<TimeoutHit['kind'], number>()
  if (base) {
    for (let line = 1; line <= base.lines.length; line++) {
      const masked = base.lines[line - 1]!
      const hits = base.markersAt(line)
      if (hits.length > 0) {
        const id = base.unitAt(line).ids[0]
        for (const hit of hits) before.add(`${id}\0${hit.label}`)
      }
      for (const t of timeoutsIn(masked, lang))
        baseTimeouts.set(t.kind, Math.max(baseTimeouts.get(t.kind) ?? -Infinity, t.value))
    }
  }
  const findings: Finding[] = []
  for (const line of [...added].sort((a, b) => a - b)) {
    const masked = head.lines[line - 1]
    if (masked === undefined) continue
    const hits = head.markersAt(line)
    const raised = timeoutsIn(masked, lang).filter(t => {
      // Compared with the largest value of the same kind in the base file, else the
      // framework's default; a kind with neither (a bare timeout=) is a new bound, not a raise.
      const baseline = baseTimeouts.get(t.kind) ?? TIMEOUT_DEFAULTS[t.kind]
      return baseline !== undefined && t.value > baseline
    })
    if (hits.length === 0 && raised.length === 0) continue
    const unit = head.unitAt(line)
    for (const hit of hits) {
      if (before.has(`${unit.ids[0]}\0${hit.label}`)) continue
      findings.push({ line, label: hit.label, unit, silencesOthers: hit.silencesOthers })
    }
    for (const t of raised) {
      const baseline = baseTimeouts.get(t.kind) ?? TIMEOUT_DEFAULTS[t.kind]!
      findings.push({
        line,
        label: `${t.label} raised ${show(baseline)} → ${show(t.value)}`,
        unit,
        silencesOthers: false
      })
    }
  }
  return findings
}

interface Analysed {
  /** Masked lines (timeouts are read off them). */
  lines: string[]
  markersAt: (line: number) => MarkerHit[]
  unitAt: (line: number) => TestUnit
}

type Helpers = ((specifier: string) => Promise<HelperExports | undefined>) | undefined

function helpersOn(side: 'head' | 'base', path: string, resolve?: HelperResolver): Helpers {
  return resolve && (specifier => resolve(side, path, specifier))
}

async function analyse(
  path: string,
  lang: Lang,
  text: string,
  helpers: Helpers,
  held: HeldTree | undefined
): Promise<Analysed> {
  const masked = maskCode(text, lang)
  const lines = masked.split('\n')
  const script = lang === 'js' ? await parseScript(path, text, helpers, held) : undefined
  const python = lang === 'python' ? await parsePython(path, text, helpers, held) : undefined
  const tree = script?.hits ?? python
  return {
    lines,
    markersAt: tree
      ? line => tree.get(line) ?? []
      : line => suppressionsIn(lines[line - 1] ?? '', lang),
    unitAt: unitFinder(path, text, masked, lang, script?.spans)
  }
}

/** Script markers (with test spans) of a JS/TS text. */
function parseScript(
  path: string,
  text: string,
  helpers: Helpers,
  held: HeldTree | undefined
): Promise<ScriptMarkers> {
  return readTree(path, text, helpers, held, relativeImports, (tree, exportsOf) =>
    scriptMarkers(tree, { helpers: exportsOf })
  )
}

/** Markers of a Python text. */
function parsePython(
  path: string,
  text: string,
  helpers: Helpers,
  held: HeldTree | undefined
): Promise<Map<number, MarkerHit[]>> {
  return readTree(path, text, helpers, held, pythonImports, (tree, exportsOf) =>
    pythonMarkers(tree, { helpers: exportsOf })
  )
}

/** Parses `text` (or takes the held tree), resolves the helpers it imports, reads it. */
async function readTree<T>(
  path: string,
  text: string,
  helpers: Helpers,
  held: HeldTree | undefined,
  imports: (tree: Tree) => string[],
  read: (tree: Tree, exportsOf: (module: string) => HelperExports | undefined) => T
): Promise<T> {
  const tree = held ? await held(text) : await parseTree(path, text)
  try {
    const resolved = await resolveAll(imports(tree), helpers)
    return read(tree, module => resolved.get(module))
  } finally {
    if (!held) tree.delete()
  }
}

async function resolveAll(
  specifiers: readonly string[],
  helpers: Helpers
): Promise<Map<string, HelperExports>> {
  const resolved = new Map<string, HelperExports>()
  if (helpers === undefined) return resolved
  for (const specifier of specifiers) {
    const exports = await helpers(specifier)
    if (exports) resolved.set(specifier, exports)
  }
  return resolved
}

/** The marked exports of a helper module's text (script.ts / python.ts). */
export async function helperExports(path: string, text: string): Promise<HelperExports> {
  const tree = await parseTree(path, text)
  try {
    return familyOf(path) === 'python' ? pythonMarkedExports(tree) : markedExports(tree)
  } finally {
    tree.delete()
  }
}

async function parseTree(path: string, text: string): Promise<Tree> {
  const language = parsedLanguageOf(path) ?? 'typescript'
  const tree = (await parserFor(language)).parse(text)
  if (tree === null) throw new GateError(`tree-sitter could not parse ${path}`, { path })
  return tree
}

function show(value: number): string {
  return value === Infinity ? 'no limit' : String(value)
}
