// Small pure helpers over tree-sitter nodes shared by the Python and JavaScript detectors:
// walking, lines, static string values, constants, and the marker predicates of the
// tables. No I/O, no state.
import { Query, type Language, type Node } from 'web-tree-sitter'
import { decodeEscapes } from '../extract.js'
import { MARKER_EXACT, MARKER_PREFIXES, REPORT_MARKERS, RUNNER_NAMES } from '../tables.js'
import type { DetectContext, Finding, ReachCategory } from './types.js'

/**
 * Every named node under `root` (root included), depth first, without recursion. With
 * `within`, a subtree is entered only when `within` holds for its root (the detectors pass
 * "touches a line the patch added", so unchanged code is not walked).
 */
export function* descendants(root: Node, within?: (node: Node) => boolean): Generator<Node> {
  const stack: Node[] = [root]
  while (stack.length > 0) {
    const node = stack.pop() as Node
    yield node
    const children = node.namedChildren
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i]
      if (child && (within === undefined || within(child))) stack.push(child)
    }
  }
}

/** One check per node type: the findings a node of that type makes, given the file's names. */
export type Detectors<N> = Readonly<
  Record<string, (node: Node, names: N, ctx: DetectContext) => Finding[]>
>

/** A Detectors table from groups of node types that share one check. */
export function byType<N>(
  ...groups: ReadonlyArray<
    [readonly string[], (node: Node, names: N, ctx: DetectContext) => Finding[]]
  >
): Detectors<N> {
  const table: Record<string, (node: Node, names: N, ctx: DetectContext) => Finding[]> = {}
  for (const [types, detect] of groups) for (const type of types) table[type] = detect
  return table
}

/**
 * A language's detection over one file: every finding of its `detectors` (detectAll), the
 * process findings under its main guard (an `if` whose bare condition `mainGuard` matches)
 * marked as the program's own (markMainOnly).
 */
export function detectFile<N>(
  root: Node,
  names: N,
  ctx: DetectContext,
  detectors: Detectors<N>,
  mainGuard: RegExp
): Finding[] {
  return markMainOnly(root, detectAll(root, names, ctx, detectors), c => mainGuard.test(c))
}

/** Every finding of `detectors` over the nodes `ctx.within` lets the walk into. */
function detectAll<N>(
  root: Node,
  names: N,
  ctx: DetectContext,
  detectors: Detectors<N>
): Finding[] {
  const out: Finding[] = []
  for (const node of descendants(root, ctx.within)) {
    const detect = Object.hasOwn(detectors, node.type) ? detectors[node.type] : undefined
    if (detect) out.push(...detect(node, names, ctx))
  }
  return out
}

/** A `within` for descendants(): the node's lines include one of `lines` (sorted). */
export function touchingLines(lines: readonly number[]): (node: Node) => boolean {
  return node => {
    const start = node.startPosition.row + 1
    const end = node.endPosition.row + 1
    let lo = 0
    let hi = lines.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((lines[mid] as number) < start) lo = mid + 1
      else hi = mid
    }
    return lo < lines.length && (lines[lo] as number) <= end
  }
}

/** Query matches of `source` over `root`, compiled once per grammar. */
export function queryNodes(root: Node, source: string): Node[] {
  const language = root.tree.language
  let perLanguage = compiled.get(source)
  if (perLanguage === undefined) {
    perLanguage = new Map()
    compiled.set(source, perLanguage)
  }
  let query = perLanguage.get(language)
  if (query === undefined) {
    query = new Query(language, source)
    perLanguage.set(language, query)
  }
  return query.captures(root).map(c => c.node)
}

// Compiled queries, like the parsers in parsers.ts: a grammar's query is the same for the
// life of the process, and compiling one per file would cost more than the walk it saves.
const compiled = new Map<string, Map<Language, Query>>()

export function lineOf(node: Node): number {
  return node.startPosition.row + 1
}

export function finding(
  category: ReachCategory,
  node: Node,
  what: string,
  extra: Partial<Finding> = {}
): Finding {
  return { category, start: lineOf(node), end: node.endPosition.row + 1, what, ...extra }
}

/** A head-controlled value, quoted and cut short so it is safe to print in a reason. */
export function quote(value: string, max = 60): string {
  const cut = value.length > max ? `${value.slice(0, max)}…` : value
  return JSON.stringify(cut)
}

/** True when `node` sits inside an ancestor of one of `types` (below `stop`, if given). */
export function hasAncestor(node: Node, types: ReadonlySet<string>): boolean {
  for (let p = node.parent; p; p = p.parent) if (types.has(p.type)) return true
  return false
}

// ------------------------------------------------------------------ string values

/** Static runs of a Python string node (f-string holes split runs); [] for other nodes. */
export function pythonStringRuns(node: Node): string[] {
  if (node.type === 'concatenated_string') {
    const runs: string[] = []
    for (const child of node.namedChildren) if (child) runs.push(...pythonStringRuns(child))
    return runs
  }
  if (node.type !== 'string') return []
  const text = node.text
  const quoteAt = text.search(/["']/)
  const prefix = text.slice(0, Math.max(quoteAt, 0)).toLowerCase()
  const raw = prefix.includes('r')
  const runs: string[] = []
  let run = ''
  for (const child of node.namedChildren) {
    if (child?.type === 'string_content') run += raw ? child.text : decodeEscapes(child.text)
    else if (child?.type === 'interpolation') {
      if (run !== '') runs.push(run)
      run = ''
    }
  }
  if (run !== '') runs.push(run)
  return runs
}

/** The whole value of a Python string without holes, else undefined. */
export function pythonStringValue(node: Node): string | undefined {
  if (node.type !== 'string' && node.type !== 'concatenated_string') return undefined
  if (node.descendantsOfType('interpolation').length > 0) return undefined
  return pythonStringRuns(node).join('')
}

/** Static runs of a JavaScript string or template literal; [] for other nodes. */
export function scriptStringRuns(node: Node): string[] {
  if (node.type === 'string') return [decodeEscapes(node.text.slice(1, -1))]
  if (node.type !== 'template_string') return []
  const runs: string[] = []
  let run = ''
  for (const child of node.namedChildren) {
    if (!child) continue
    if (child.type === 'template_substitution') {
      if (run !== '') runs.push(decodeEscapes(run))
      run = ''
    } else run += child.text
  }
  if (run !== '') runs.push(decodeEscapes(run))
  return runs
}

export { scriptStringValue } from '../resolve/script.js'

// ------------------------------------------------------------------ predicates

/** An environment-variable-like name of a runner or gate marker (`PYTEST_CURRENT_TEST`). */
export function isMarkerName(value: string): boolean {
  if (!/^_?[A-Z][A-Z0-9_]*$/.test(value)) return false
  return MARKER_EXACT.has(value) || MARKER_PREFIXES.some(p => value.startsWith(p))
}

/** A literal that names a runner's report option (`--junitxml`, `jest-junit`). */
export function reportMarker(value: string): string | undefined {
  const lower = value.toLowerCase()
  return REPORT_MARKERS.find(m => lower.includes(m))
}

/**
 * What one static run of a literal spells: a runner or gate marker (when `markers`: not
 * where the literal is an object key), a runner's report option.
 */
export function runFindings(node: Node, run: string, markers: boolean): Finding[] {
  const out: Finding[] = []
  if (markers && isMarkerName(run.trim()))
    out.push(finding('markers', node, `reads the runner or gate marker ${quote(run.trim())}`))
  const report = reportMarker(run)
  if (report !== undefined)
    out.push(finding('markers', node, `names the runner's report option ${quote(report)}`))
  return out
}

/**
 * A string built at run time from constants (`"".join(...)`, a decoder, a template of
 * constants), checked as its literal would be: markers, report options, a runner's name
 * where `readsRuntime` says the expression reads the runner's state, instrument paths.
 */
export function builtStringFindings(
  node: Node,
  value: string,
  readsRuntime: () => boolean,
  ctx: DetectContext
): Finding[] {
  const out = runFindings(node, value, true)
  if (namesRunner(value) && readsRuntime())
    out.push(
      finding(
        'markers',
        node,
        `checks whether ${quote(value.trim())} is running (a name built at run time)`
      )
    )
  out.push(...instrumentFindings(node, [value], ctx))
  return out
}

/** The first of `candidates` (a literal's runs, the path it joins into) that names the instrument. */
export function instrumentFindings(
  node: Node,
  candidates: readonly string[],
  ctx: DetectContext
): Finding[] {
  for (const candidate of candidates) {
    const named = ctx.instrumentName(candidate)
    if (named !== undefined)
      return [finding('instrument', node, `names the instrument path ${quote(named)}`)]
  }
  return []
}

/**
 * A reference to a path that reads callers, frames or the heap (`introspection`), or that
 * ends or rewires the process (`exits`; `habit`, an entry point's ordinary one).
 */
export function usesFindings(
  path: string,
  node: Node,
  introspection: readonly string[],
  exits: readonly string[],
  habit?: string
): Finding[] {
  const reads = pathMatches(path, introspection)
  if (reads !== undefined)
    return [
      finding('introspection', node, `uses ${reads}, which reads callers, frames or the heap`)
    ]
  const exit = pathMatches(path, exits)
  if (exit === undefined) return []
  const what = `uses ${exit}, which ends or rewires the runner's process`
  return [
    habit === undefined
      ? finding('process', node, what)
      : finding('process', node, what, { entryPointHabit: exit === habit })
  ]
}

/** A literal naming a runner, alone or as the last part of a path (`/usr/bin/pytest`). */
export function namesRunner(value: string): boolean {
  const lower = value.trim().toLowerCase()
  if (RUNNER_NAMES.has(lower)) return true
  const last = lower.split(/[\\/]/).pop() ?? ''
  return RUNNER_NAMES.has(last.replace(/\.(exe|js|mjs|cjs|py)$/, ''))
}

/** Module `name` is one of `modules` or a submodule/subpath of one, or has a listed prefix. */
export function moduleMatches(
  name: string,
  modules: readonly string[],
  prefixes: readonly string[],
  separator: '.' | '/'
): string | undefined {
  const exact = modules.find(m => name === m || name.startsWith(m + separator))
  return exact ?? prefixes.find(p => name.startsWith(p))
}

/** A dotted path equal to one of `patterns` or below one (`sys.modules.get` below `sys.modules`). */
export function pathMatches(path: string, patterns: readonly string[]): string | undefined {
  return patterns.find(p => path === p || path.startsWith(p + '.'))
}

/**
 * Marks process findings inside a top-level block that runs only when the file is the
 * program (the `if` whose condition `isMainGuard` recognises): a test that imports the file
 * never runs that code.
 */
function markMainOnly(
  root: Node,
  findings: Finding[],
  isMainGuard: (condition: string) => boolean
): Finding[] {
  const ranges: Array<[number, number]> = []
  for (const statement of root.namedChildren) {
    if (statement?.type !== 'if_statement') continue
    const condition = statement.childForFieldName('condition')
    const body = statement.childForFieldName('consequence')
    if (condition && body && isMainGuard(condition.text.replace(/^\((.*)\)$/s, '$1').trim()))
      ranges.push([body.startPosition.row + 1, body.endPosition.row + 1])
  }
  if (ranges.length === 0) return findings
  return findings.map(f =>
    f.category === 'process' && ranges.some(([a, b]) => f.start >= a && f.end <= b)
      ? { ...f, mainOnly: true }
      : f
  )
}
