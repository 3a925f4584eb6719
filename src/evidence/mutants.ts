// The mutants of a patch: at most one small change per covered changed line, found in the
// syntax tree (tree-sitter, the lints' grammars) so an operator inside a string or a comment
// is never one. Each line gets the first operator that applies in a fixed priority (the
// leftmost candidate of that operator), so the same head always yields the same mutants.
// Lines whose behaviour tests should not pin (logging, clocks, flags, imports, types, ...)
// are arid and get none: one table below, printed in docs/evidence.md "Mutation". Pure,
// apart from the parser's lazy load (mutantsFor); mutantsInTree and selectMutants are pure.
import type { Node, Tree } from 'web-tree-sitter'
import { parserFor, type LanguageId } from '../lints/parsers.js'
import type { Mutant } from './types.js'

/** The operators, in priority order: a line gets the first one that applies. */
export const OPERATORS = [
  'comparison',
  'arithmetic',
  'boundary',
  'negation',
  'constant',
  'removal'
] as const
export type Operator = (typeof OPERATORS)[number]

/** Comparison swaps (both directions). */
const COMPARISON: Readonly<Record<string, string>> = {
  '<': '<=',
  '<=': '<',
  '>': '>=',
  '>=': '>',
  '==': '!=',
  '!=': '==',
  '===': '!==',
  '!==': '==='
}
/** Arithmetic swaps, the augmented assignments with them. */
const ARITHMETIC: Readonly<Record<string, string>> = {
  '+': '-',
  '-': '+',
  '*': '/',
  '/': '*',
  '+=': '-=',
  '-=': '+=',
  '*=': '/=',
  '/=': '*='
}
/** Parents of an operator token that make it a binary comparison or arithmetic. */
const BINARY = new Set(['comparison_operator', 'binary_operator', 'binary_expression'])
const AUGMENTED = new Set(['augmented_assignment', 'augmented_assignment_expression'])

// ------------------------------------------------------------------------- arid lines

/**
 * Arid code: no mutant is made in it. A candidate is arid when the statement it belongs to
 * (for if/while/for/def/class: the header only, never the body) is of an arid kind or calls
 * or reads something of the table below, or when the candidate itself sits in a type or in
 * string formatting. Callees are matched on their dotted name (`self.log.info` → segments).
 */
export const ARID = {
  /** Statements that are imports, type declarations only, or raise an error. */
  statements: {
    import_statement: 'import',
    import_from_statement: 'import',
    future_import_statement: 'import',
    type_alias_statement: 'type only',
    type_alias_declaration: 'type only',
    interface_declaration: 'type only',
    ambient_declaration: 'type only',
    // What an exception says is rarely what a test pins; that it is raised is the removal's.
    raise_statement: 'error message',
    throw_statement: 'error message'
  } as Readonly<Record<string, string>>,
  /** Ancestors that put a candidate in a type (annotations, generics, literal types). */
  types: new Set([
    'type',
    'type_annotation',
    'type_arguments',
    'type_parameters',
    'literal_type',
    'type_predicate_annotation',
    'asserts_annotation'
  ]) as ReadonlySet<string>,
  /** Callees by dotted name (whole name matched), and why each makes a statement arid. */
  callees: [
    { why: 'printing', name: /^(print|pprint|pprint\.pprint|sys\.(stdout|stderr)\.write)$/ },
    { why: 'logging', name: /^(console|logging|warnings\.warn$)/ },
    // A logger object anywhere before the method: log.info, self.logger.debug, LOG.warn.
    { why: 'logging', name: /(^|\.)_*(log|logger|LOG|LOGGER|Log|Logger)\.\w+$/ },
    {
      why: 'time or date',
      name: /^((time|timeit)\.\w+|(datetime\.)?(datetime|date)\.(now|utcnow|today|fromtimestamp)|Date(\.now)?|performance\.now|process\.hrtime(\.bigint)?|set(Timeout|Interval|Immediate)|(asyncio\.)?sleep)$/
    },
    {
      why: 'randomness',
      name: /^(random\.\w+|Math\.random|crypto\.random\w*|(uuid\.)?uuid[14]|secrets\.\w+)$/
    },
    { why: 'environment', name: /^(os\.getenv|os\.environ\.get|getenv)$/ },
    {
      why: 'feature flag',
      name: /(^|\.)(is_?(feature_?)?enabled|isFeatureEnabled|feature_?enabled|featureEnabled|get_?flag|getFlag|flags?|feature_?flags?|featureFlags?|toggles?)(\.\w+)?$/i
    },
    { why: 'import', name: /^(require|import|__import__|importlib\.import_module)$/ }
  ] as readonly { why: string; name: RegExp }[],
  /** Reads (attribute or member chains) that make a statement arid. */
  reads: [
    { why: 'environment', name: /^(os\.environ|process\.env|import\.meta\.env)(\.|\[|$)/ }
  ] as readonly { why: string; name: RegExp }[]
} as const

/** Statement-like node types: the unit a candidate's aridity is judged on. */
const STATEMENT = /(_statement|_definition|_declaration|_clause|^switch_case|^switch_default)$/
/** Nodes that hold other statements: a statement's header ends where these begin. */
const BODY = new Set(['block', 'statement_block', 'class_body', 'switch_body'])

// ------------------------------------------------------------------------- the walk

interface Candidate {
  rank: number
  mutant: Mutant
}

interface Walk {
  path: string
  python: boolean
  text: string
  /** Sorted changed lines asked about. */
  lines: readonly number[]
  wanted: ReadonlySet<number>
  /** node id → why its statement is arid ('' when it is not); per call, never shared. */
  aridity: Map<number, string>
  found: Map<number, Candidate>
}

/**
 * At most `limit` mutants of `text` (the head's file at `path`), at most one per line of
 * `lines` (1-based), spread evenly over the lines that have one. Parses with the shipped
 * grammar; a file that does not parse gets none.
 */
export async function mutantsFor(
  path: string,
  language: LanguageId,
  text: string,
  lines: ReadonlySet<number>,
  limit: number
): Promise<Mutant[]> {
  if (lines.size === 0 || limit <= 0) return []
  const tree = (await parserFor(language)).parse(text)
  if (tree === null) return []
  try {
    return mutantsInTree(path, language, text, tree, lines, limit)
  } finally {
    tree.delete()
  }
}

/** mutantsFor on a tree already parsed from `text`. */
export function mutantsInTree(
  path: string,
  language: LanguageId,
  text: string,
  tree: Tree,
  lines: ReadonlySet<number>,
  limit: number
): Mutant[] {
  const walk: Walk = {
    path,
    python: language === 'python',
    text,
    lines: [...lines].sort((a, b) => a - b),
    wanted: lines,
    aridity: new Map(),
    found: new Map()
  }
  visit(tree.rootNode, walk)
  const chosen = [...walk.found.values()].map(c => c.mutant).sort((a, b) => a.line - b.line)
  return spread(chosen, limit)
}

/** Depth-first over the nodes whose rows hold a wanted line. */
function visit(node: Node, walk: Walk): void {
  if (!touches(walk.lines, node.startPosition.row + 1, node.endPosition.row + 1)) return
  for (const [rank, find] of FINDERS.entries()) {
    const mutant = find(node, walk)
    if (mutant !== null) offer(walk, rank, node, mutant)
  }
  for (const child of node.children) if (child !== null) visit(child, walk)
}

/** Does any wanted line fall in [from, to]? (binary search on the sorted lines) */
function touches(lines: readonly number[], from: number, to: number): boolean {
  let lo = 0
  let hi = lines.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if ((lines[mid] ?? 0) < from) lo = mid + 1
    else hi = mid
  }
  return lo < lines.length && (lines[lo] ?? Infinity) <= to
}

/** Keeps a candidate when its line is wanted, it is not arid, and it beats the line's. */
function offer(walk: Walk, rank: number, node: Node, mutant: Mutant): void {
  if (!walk.wanted.has(mutant.line)) return
  const held = walk.found.get(mutant.line)
  if (held && (held.rank < rank || (held.rank === rank && held.mutant.start <= mutant.start)))
    return
  if (aridWhy(node, walk) !== '') return
  walk.found.set(mutant.line, { rank, mutant })
}

/** Why the candidate at `node` is arid ('' when it is not). */
export function aridWhy(node: Node, walk: Pick<Walk, 'python' | 'aridity'>): string {
  let unit: Node | null = node
  for (let n: Node | null = node; n !== null; n = n.parent) {
    if (ARID.types.has(n.type)) return 'type only'
    if (formatting(n, walk.python)) return 'string formatting'
    if (STATEMENT.test(n.type)) {
      unit = n
      break
    }
    unit = n
  }
  if (unit === null) return ''
  let why = walk.aridity.get(unit.id)
  if (why === undefined) {
    why = statementWhy(unit, walk.python)
    walk.aridity.set(unit.id, why)
  }
  return why
}

/** Is `n` a string-building expression (interpolation, `%` or `+` on a string, `.format`)? */
function formatting(n: Node, python: boolean): boolean {
  if (n.type === 'interpolation' || n.type === 'template_substitution') return true
  if (n.type === 'binary_operator' || n.type === 'binary_expression') {
    const op = n.childForFieldName('operator')?.type
    return (
      (op === '%' && python && stringy(n.childForFieldName('left'))) || (op === '+' && stringy(n))
    )
  }
  if (n.type === 'call' || n.type === 'call_expression') {
    const fn = n.childForFieldName('function')
    const object = fn?.childForFieldName('object')
    const member = fn?.childForFieldName(python ? 'attribute' : 'property')?.text
    return (member === 'format' || member === 'join') && stringy(object ?? null)
  }
  return false
}

/** A string, or a `+` chain with a string in it. */
function stringy(n: Node | null): boolean {
  if (n === null) return false
  if (['string', 'template_string', 'concatenated_string'].includes(n.type)) return true
  if (n.type === 'parenthesized_expression') return stringy(n.namedChildren[0] ?? null)
  if (n.type !== 'binary_operator' && n.type !== 'binary_expression') return false
  if (n.childForFieldName('operator')?.type !== '+') return false
  return stringy(n.childForFieldName('left')) || stringy(n.childForFieldName('right'))
}

/** Why a statement (its header, for a compound one) is arid, or ''. */
function statementWhy(unit: Node, python: boolean): string {
  const kind = ARID.statements[unit.type]
  if (kind !== undefined) return kind
  if (unit.type === 'export_statement' && unit.childForFieldName('source') !== null) return 'import'
  if (unit.type === 'expression_statement') {
    const only = unit.namedChildren.length === 1 ? unit.namedChildren[0] : undefined
    if (only && (only.type === 'string' || only.type === 'concatenated_string'))
      return python ? 'docstring' : 'directive'
  }
  return headerWhy(unit, python, true)
}

/** Calls and reads of the table in `n`, without entering bodies or nested statements. */
function headerWhy(n: Node, python: boolean, top: boolean): string {
  if (!top && (BODY.has(n.type) || STATEMENT.test(n.type))) return ''
  const why = nodeWhy(n, python)
  if (why !== '') return why
  for (const child of n.namedChildren) {
    if (child === null) continue
    const found = headerWhy(child, python, false)
    if (found !== '') return found
  }
  return ''
}

function nodeWhy(n: Node, python: boolean): string {
  const callee =
    n.type === 'call' || n.type === 'call_expression'
      ? n.childForFieldName('function')
      : n.type === 'new_expression'
        ? n.childForFieldName('constructor')
        : null
  if (callee) {
    const name = dotted(callee.text)
    const hit = ARID.callees.find(c => c.name.test(name))
    if (hit) return hit.why
  }
  const read = python
    ? n.type === 'attribute' || n.type === 'subscript'
    : n.type === 'member_expression' || n.type === 'subscript_expression'
  if (read) {
    const name = dotted(n.text)
    const hit = ARID.reads.find(r => r.name.test(name))
    if (hit) return hit.why
  }
  return ''
}

/** A callee's text as a dotted name: whitespace and optional-chaining dots removed. */
function dotted(text: string): string {
  return text.replace(/\s+/g, '').replace(/\?\./g, '.')
}

// ------------------------------------------------------------------------- operators

type Finder = (node: Node, walk: Walk) => Mutant | null

/** One finder per operator, in the order of OPERATORS. */
const FINDERS: readonly Finder[] = [comparison, arithmetic, boundary, negation, constant, removal]

function comparison(node: Node, walk: Walk): Mutant | null {
  const to = COMPARISON[node.type]
  if (node.isNamed || to === undefined || !BINARY.has(node.parent?.type ?? '')) return null
  return replace(walk, node, to, `\`${node.type}\` → \`${to}\``)
}

function arithmetic(node: Node, walk: Walk): Mutant | null {
  const to = ARITHMETIC[node.type]
  const parent = node.parent
  if (node.isNamed || to === undefined || parent === null) return null
  if (node.type.endsWith('=')) {
    if (!AUGMENTED.has(parent.type) || stringy(parent.childForFieldName('right'))) return null
  } else if (!BINARY.has(parent.type) || parent.type === 'comparison_operator') return null
  else if (node.type === '+' && stringy(parent)) return null
  return replace(walk, node, to, `\`${node.type}\` → \`${to}\``)
}

function boundary(node: Node, walk: Walk): Mutant | null {
  if (node.type !== (walk.python ? 'integer' : 'number') || !node.isNamed) return null
  if (!/^(0|[1-9][0-9]*)$/.test(node.text)) return null
  const to = (BigInt(node.text) + 1n).toString()
  return replace(walk, node, to, `\`${node.text}\` → \`${to}\``)
}

function negation(node: Node, walk: Walk): Mutant | null {
  if ((node.type === 'true' || node.type === 'false') && node.isNamed) {
    const to = walk.python
      ? node.type === 'true'
        ? 'False'
        : 'True'
      : node.type === 'true'
        ? 'false'
        : 'true'
    return replace(walk, node, to, `\`${node.text}\` → \`${to}\``)
  }
  if (walk.python && node.type === 'not_operator') {
    const argument = node.childForFieldName('argument')
    if (argument === null) return null
    return mutant(walk, node.startIndex, argument.startIndex, '', '`not` removed', node)
  }
  if (!walk.python && node.type === 'unary_expression') {
    const op = node.childForFieldName('operator')
    if (op?.type !== '!') return null
    return replace(walk, op, '', '`!` removed')
  }
  return null
}

function constant(node: Node, walk: Walk): Mutant | null {
  if (node.type === 'string' && node.isNamed) return stringChange(node, walk)
  const float = walk.python ? node.type === 'float' : node.type === 'number'
  const m = float && node.isNamed ? /^([0-9]+)\.([0-9]+)$/.exec(node.text) : null
  if (m === null) return null
  const to = `${(BigInt(m[1] ?? '0') + 1n).toString()}.${m[2] ?? '0'}`
  return replace(walk, node, to, `\`${node.text}\` → \`${to}\``)
}

/** A plain one-line string literal: emptied, or an empty one given a character. */
function stringChange(node: Node, walk: Walk): Mutant | null {
  const quote = node.text[0]
  if ((quote !== '"' && quote !== "'") || node.text.length < 2) return null
  if (node.text.startsWith(quote.repeat(3)) || node.text.includes('\n')) return null
  // Interpolations (f-strings) or escapes inside: left alone.
  if (
    node.namedChildren.some(
      c => c !== null && !/^(string_start|string_end|string_content|string_fragment)$/.test(c.type)
    )
  )
    return null
  const to = node.text.length === 2 ? `${quote}_${quote}` : `${quote}${quote}`
  return replace(walk, node, to, `\`${shown(node.text)}\` → \`${to}\``)
}

function removal(node: Node, walk: Walk): Mutant | null {
  if (node.type === 'return_statement') {
    const value = node.namedChildren.find(c => c !== null && c.type !== 'comment') ?? null
    if (value === null || ['none', 'undefined'].includes(value.type)) return null
    const none = walk.python ? 'None' : 'undefined'
    const what = `\`return ${shown(value.text)}\` → \`return ${none}\``
    return mutant(walk, value.startIndex, value.endIndex, none, what, node)
  }
  if (node.type !== 'expression_statement') return null
  const only = node.namedChildren.length === 1 ? node.namedChildren[0] : null
  const call =
    only?.type === 'await' || only?.type === 'await_expression' ? only.namedChildren[0] : only
  if (!call || (call.type !== 'call' && call.type !== 'call_expression')) return null
  if (/^super\b/.test(call.childForFieldName('function')?.text ?? '')) return null
  const to = walk.python ? 'pass' : ';'
  return mutant(walk, node.startIndex, node.endIndex, to, `\`${shown(call.text)}\` removed`, node)
}

/** Replaces exactly `node`'s text. */
function replace(walk: Walk, node: Node, to: string, what: string): Mutant {
  return mutant(walk, node.startIndex, node.endIndex, to, what, node)
}

function mutant(
  walk: Walk,
  start: number,
  end: number,
  replacement: string,
  mutation: string,
  at: Node
): Mutant {
  return {
    path: walk.path,
    line: at.startPosition.row + 1,
    mutation,
    start,
    end,
    replacement,
    original: walk.text.slice(start, end)
  }
}

/**
 * Head-written code in a mutation's description: one line, no backticks, no invisible or
 * bidirectional controls, at most 40 characters. (Every printer sanitises it again.)
 */
function shown(code: string): string {
  const flat = code
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\s]+/g, ' ')
    .replace(/`/g, "'")
    .trim()
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat
}

// ------------------------------------------------------------------------- the cap

/** `n` of `items`, evenly spaced (all of them when there are no more than `n`). */
function spread<T>(items: readonly T[], n: number): T[] {
  if (items.length <= n) return [...items]
  if (n <= 0) return []
  const out: T[] = []
  for (let k = 0; k < n; k++) {
    const item = items[Math.floor((k * items.length) / n)]
    if (item !== undefined) out.push(item)
  }
  return out
}

/**
 * At most `max` mutants over all files, shared fairly: every file gets the same share
 * (a file with fewer gives its unused share to the others), each file's share spread
 * evenly over its lines. Returned by path, then line.
 */
export function selectMutants(perFile: readonly (readonly Mutant[])[], max: number): Mutant[] {
  const shares = fairShares(
    perFile.map(f => f.length),
    Math.max(0, Math.floor(max))
  )
  const out = perFile.flatMap((file, i) => spread(file, shares[i] ?? 0))
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line))
}

/** Water-filling: the largest equal share that fits `max`, the remainder to the first files. */
function fairShares(sizes: readonly number[], max: number): number[] {
  const shares = sizes.map(() => 0)
  let left = max
  while (left > 0) {
    const open = sizes.map((s, i) => i).filter(i => (shares[i] ?? 0) < (sizes[i] ?? 0))
    if (open.length === 0) break
    for (const i of open) {
      if (left === 0) break
      shares[i] = (shares[i] ?? 0) + 1
      left--
    }
  }
  return shares
}
