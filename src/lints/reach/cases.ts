// Category `echo` of oracle-reach: production code that special-cases a locked case. A
// locked case is one assertion of a voting test at the merge base (`assert add(2, 3) == 5`,
// `expect(add(2, 3)).toBe(5)`), one row of a parametrised test, or one row of a golden
// fixture file; its constants are split into inputs (inside the call under test, or the
// row's input fields) and expected values (the rest). A condition, branch, lookup-table
// entry or return the patch adds that holds at least one input and one expected value of
// the same case, and either three of its constants or one distinctive constant, echoes
// the oracle. Pure: trees and texts in, cases and constructs out.
import type { Node } from 'web-tree-sitter'
import type { LanguageId } from '../parsers.js'
import {
  descendants,
  lineOf,
  queryNodes,
  pythonStringValue,
  quote,
  scriptStringValue
} from './syntax.js'
import type { Finding } from './types.js'

export interface LockedCase {
  inputs: Set<string>
  expected: Set<string>
  /** Where the case is, for the reason: `path:line` or `path row N`. */
  where: string
}

export interface Constant {
  key: string
  line: number
}

export interface Construct {
  start: number
  end: number
  constants: Constant[]
}

// ------------------------------------------------------------------ constants

/** Constants that say nothing about a case: 0, 1, -1, empty and one-character strings. */
export function trivial(key: string): boolean {
  if (key.startsWith('n:')) return ['0', '1', '-1'].includes(key.slice(2))
  return key.slice(2).trim().length <= 1
}

/** A constant too specific to be shared by chance: a string of 3+ characters, a number of 100+ or a fraction. */
export function distinctive(key: string): boolean {
  if (key.startsWith('s:')) return key.slice(2).trim().length >= 3
  const n = Number(key.slice(2))
  return !Number.isInteger(n) || Math.abs(n) >= 100
}

function numberKey(text: string): string | undefined {
  const clean = text.replace(/_/g, '').replace(/n$/, '').replace(/[jJ]$/, '')
  const n = /^0[oO]/.test(clean) ? Number.parseInt(clean.slice(2), 8) : Number(clean)
  return Number.isFinite(n) ? `n:${n}` : undefined
}

/** The key of a constant node (`n:5`, `s:hello`), or undefined for anything else. */
export function constantKey(node: Node, language: LanguageId): string | undefined {
  const t = node.type
  if (t === 'integer' || t === 'float' || t === 'number') return numberKey(node.text)
  if (t === 'string' || t === 'concatenated_string' || t === 'template_string') {
    const value = language === 'python' ? pythonStringValue(node) : scriptStringValue(node)
    return value === undefined ? undefined : `s:${value}`
  }
  if ((t === 'unary_operator' || t === 'unary_expression') && node.text.startsWith('-')) {
    const inner = node.namedChildren[0]
    const key = inner ? constantKey(inner, language) : undefined
    return key?.startsWith('n:') ? `n:${-Number(key.slice(2))}` : undefined
  }
  return undefined
}

/** A string used as a key (`row["expected"]`) names a field; it is not a value of the case. */
function isFieldName(node: Node): boolean {
  const parent = node.parent
  if (parent?.type === 'subscript') return parent.childForFieldName('subscript')?.id === node.id
  if (parent?.type === 'subscript_expression')
    return parent.childForFieldName('index')?.id === node.id
  return false
}

/** The constants of a construct the patch added, less those that are operands of arithmetic. */
function constantsIn(
  nodes: readonly (Node | null | undefined)[],
  language: LanguageId,
  computes: boolean
): Constant[] {
  const out: Constant[] = []
  for (const root of nodes) {
    if (root)
      for (const { key, node } of constantNodes(root, language))
        if (!computes || !scalesAValue(node, language)) out.push({ key, line: lineOf(node) })
  }
  return out
}

// ------------------------------------------------------------------ arithmetic operands

// `return (x * 5) / 100` computes with the test's constants (fee(100) == 5); it does not
// recognise the input and answer the expected value. A constant that is an operand of
// arithmetic on a value is no part of a special case, so it is left out of the construct.
// Arithmetic of constants alone (`return 5 + 0`) and arithmetic on a comparison
// (`(x == 100) * 5`, a branch written as a product) still count.

const PY_ARITHMETIC = new Set(['binary_operator', 'augmented_assignment'])
const PY_RECOGNISING = new Set([
  'comparison_operator',
  'boolean_operator',
  'not_operator',
  'conditional_expression'
])
const JS_ARITHMETIC_OPS = new Set(['+', '-', '*', '/', '%', '**', '<<', '>>', '>>>', '&', '|', '^'])
const VALUE_TYPES = new Set([
  'identifier',
  'attribute',
  'member_expression',
  'subscript',
  'subscript_expression',
  'call',
  'call_expression',
  'this',
  'self'
])

function isArithmetic(node: Node, language: LanguageId): boolean {
  // Python's binary_operator and augmented assignments are arithmetic or bitwise only.
  if (language === 'python') return PY_ARITHMETIC.has(node.type)
  if (node.type !== 'binary_expression' && node.type !== 'augmented_assignment_expression')
    return false
  const op = (node.childForFieldName('operator')?.text ?? '').replace(/=$/, '')
  return JS_ARITHMETIC_OPS.has(op)
}

function isRecognising(node: Node, language: LanguageId): boolean {
  if (language === 'python') return PY_RECOGNISING.has(node.type)
  if (node.type === 'ternary_expression') return true
  if (node.type === 'unary_expression') return node.childForFieldName('operator')?.text === '!'
  return node.type === 'binary_expression' && !isArithmetic(node, language)
}

const PY_EQUALITY = new Set(['==', '!=', 'in', 'not in', 'is', 'is not'])
const JS_EQUALITY = new Set(['==', '===', '!=', '!==', 'in'])

/** Whether a condition tests equality or membership somewhere (a case arm always does). */
function testsEquality(test: Node | null, language: LanguageId): boolean {
  if (test === null) return true
  for (const node of descendants(test)) {
    if (language === 'python' && node.type === 'comparison_operator') {
      if (node.children.some(c => c !== null && PY_EQUALITY.has(c.type))) return true
    } else if (language !== 'python' && node.type === 'binary_expression') {
      if (JS_EQUALITY.has(node.childForFieldName('operator')?.text ?? '')) return true
    }
  }
  return false
}

/**
 * `x - 100`, `100 - x`, `x + -100`: a value moved by a constant is its distance to a point,
 * the way a special case is written without a comparison (`5 * max(0, 1 - abs(x - 100))`,
 * `0 ** abs(x - 100)`). Its arithmetic recognises, so every constant around it counts.
 */
function offsetsAValue(node: Node, language: LanguageId): boolean {
  if (!isArithmetic(node, language)) return false
  const op = node.childForFieldName('operator')?.text ?? ''
  if (op !== '-' && op !== '+' && op !== '-=' && op !== '+=') return false
  const operands = [node.childForFieldName('left'), node.childForFieldName('right')]
  const bare = operands.filter(o => o !== null && VALUE_TYPES.has(o.type) && o.type !== 'call')
  const constant = operands.filter(o => o !== null && CONSTANT_TYPES.has(o.type))
  return bare.length === 1 && constant.length === 1
}

/**
 * A value built from constants alone (`Fraction(5, 100)`, `Decimal("0.05")`, `BigInt(5)`):
 * its argument list, or the call itself, is as much a constant as its arguments.
 */
function constantCall(node: Node): boolean {
  const call = node.type === 'argument_list' || node.type === 'arguments' ? node.parent : node
  if (call === null || (call.type !== 'call' && call.type !== 'call_expression')) return false
  const args = call.childForFieldName('arguments')?.namedChildren ?? []
  return args.length > 0 && args.every(a => a !== null && CONSTANT_TYPES.has(a.type))
}

/** Whether an expression reads anything but constants (a callee's name is no value read). */
function readsAValue(root: Node): boolean {
  for (const node of descendants(root)) {
    if (!VALUE_TYPES.has(node.type)) continue
    const parent = node.parent
    const callee =
      parent !== null &&
      (parent.type === 'call' ||
        parent.type === 'call_expression' ||
        parent.type === 'new_expression') &&
      parent.childForFieldName(parent.type === 'new_expression' ? 'constructor' : 'function')
        ?.id === node.id
    if (!callee && node.type !== 'call' && node.type !== 'call_expression') return true
  }
  return false
}

/** Whether a constant is an operand of arithmetic on a value (not on a comparison). */
function scalesAValue(constant: Node, language: LanguageId): boolean {
  let top: Node | null = null
  for (let p = constant.parent; p; p = p.parent) {
    if (p.type === 'parenthesized_expression' || constantCall(p)) continue
    if (!isArithmetic(p, language)) break
    top = p
  }
  if (top === null) return false
  let value = false
  for (const node of descendants(top)) {
    if (isRecognising(node, language) || offsetsAValue(node, language)) return false
    if (VALUE_TYPES.has(node.type)) value = true
  }
  return value
}

/**
 * The non-trivial constants under `root`, outermost first: a constant's own parts (the
 * number of `-5`, the pieces of `"a" "b"`) are not entered. Types are checked before
 * anything else is asked of a node: every property read crosses into the wasm engine.
 */
function constantNodes(root: Node, language: LanguageId): Array<{ key: string; node: Node }> {
  const out: Array<{ key: string; node: Node }> = []
  const stack: Node[] = [root]
  while (stack.length > 0) {
    const node = stack.pop() as Node
    const key = CONSTANT_TYPES.has(node.type) ? constantKey(node, language) : undefined
    if (key !== undefined) {
      if (!trivial(key) && !isFieldName(node)) out.push({ key, node })
      continue
    }
    const children = node.namedChildren
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i]
      if (child) stack.push(child)
    }
  }
  return out
}

const CONSTANT_TYPES = new Set([
  'integer',
  'float',
  'number',
  'string',
  'concatenated_string',
  'template_string',
  'unary_operator',
  'unary_expression'
])

// ------------------------------------------------------------------ locked cases (tests)

const PY_ASSERT = /^(self\.assert|assert|unittest\.|pytest\.approx|approx|math\.isclose|isclose)/
const JS_ASSERT =
  /^(expect|assert|t\.assert|chai\.|should)\b|^(t|test)\.(is|deepEqual|equal|same|ok|truthy|like)$/

/** Cases of a voting test file: one per assertion, one per parametrised row. */
export function testCases(root: Node, language: LanguageId, path: string): LockedCase[] {
  const python = language === 'python'
  const cases: LockedCase[] = []
  for (const node of descendants(root)) {
    if (python && node.type === 'assert_statement') {
      const subject = node.namedChildren[0]
      if (subject) cases.push(assertionCase(subject, node, language, path))
    } else if (node.type === 'expression_statement') {
      const call = unwrapAwait(node.namedChildren[0])
      const callee =
        call?.type === (python ? 'call' : 'call_expression')
          ? call.childForFieldName('function')?.text
          : undefined
      if (call && callee !== undefined && (python ? PY_ASSERT : JS_ASSERT).test(callee))
        cases.push(assertionCase(call, node, language, path))
    } else if (node.type === (python ? 'call' : 'call_expression')) {
      cases.push(...rowCases(node, language, path))
    }
  }
  return cases.filter(c => c.inputs.size + c.expected.size >= 2)
}

function unwrapAwait(node: Node | null | undefined): Node | null | undefined {
  return node?.type === 'await_expression' ? node.namedChildren[0] : node
}

/** Inputs: constants inside a call that is not the assertion itself; the rest are expected. */
function assertionCase(
  subject: Node,
  statement: Node,
  language: LanguageId,
  path: string
): LockedCase {
  const python = language === 'python'
  const callType = python ? 'call' : 'call_expression'
  const assertion = python ? PY_ASSERT : JS_ASSERT
  const c: LockedCase = {
    inputs: new Set(),
    expected: new Set(),
    where: `${path}:${lineOf(statement)}`
  }
  for (const constant of constantNodes(subject, language)) {
    let input = false
    for (let p = constant.node.parent; p && p.id !== statement.id; p = p.parent) {
      if (p.type !== callType) continue
      const callee = p.childForFieldName('function')?.text ?? ''
      if (!assertion.test(callee)) input = true
    }
    ;(input ? c.inputs : c.expected).add(constant.key)
  }
  return c
}

const EXPECTED_NAME = /expect|want|out|result|answer|golden/i

/** `pytest.mark.parametrize("a,b,expected", [...])`, `test.each([...])`: one case per row. */
function rowCases(call: Node, language: LanguageId, path: string): LockedCase[] {
  const fn = call.childForFieldName('function')?.text ?? ''
  const args = (call.childForFieldName('arguments')?.namedChildren ?? []).filter(Boolean) as Node[]
  let names: string[] = []
  let rows: Node | undefined
  if (language === 'python' && /(^|\.)parametrize$/.test(fn) && args[0] && args[1]) {
    const value = pythonStringValue(args[0])
    names =
      value !== undefined
        ? value.split(/[\s,]+/).filter(Boolean)
        : args[0].namedChildren.map(n => n?.text ?? '')
    rows = args[1]
  } else if (language !== 'python' && /\.each$/.test(fn) && args[0]?.type === 'array') {
    rows = args[0]
  }
  if (!rows || (rows.type !== 'list' && rows.type !== 'array' && rows.type !== 'tuple')) return []
  const expectedAt = Math.max(
    names.findIndex(n => EXPECTED_NAME.test(n)),
    -1
  )
  const out: LockedCase[] = []
  for (const row of rows.namedChildren) {
    if (!row) continue
    const c: LockedCase = {
      inputs: new Set(),
      expected: new Set(),
      where: `${path}:${lineOf(row)}`
    }
    const cells = rowCells(row)
    cells.forEach((cell, i) => {
      const isExpected =
        cell.name !== undefined
          ? EXPECTED_NAME.test(cell.name)
          : i === (expectedAt >= 0 ? expectedAt : cells.length - 1)
      for (const { key } of constantNodes(cell.node, language))
        (isExpected ? c.expected : c.inputs).add(key)
    })
    if (c.inputs.size > 0 && c.expected.size > 0) out.push(c)
  }
  return out
}

function rowCells(row: Node): Array<{ node: Node; name?: string }> {
  let inner = row
  if (row.type === 'call') inner = row.childForFieldName('arguments') ?? row
  if (inner.type === 'object') {
    return inner.namedChildren
      .filter((p): p is Node => p?.type === 'pair')
      .map(p => ({
        node: p.childForFieldName('value') ?? p,
        name: p.childForFieldName('key')?.text ?? ''
      }))
  }
  if (['tuple', 'list', 'array', 'argument_list', 'arguments'].includes(inner.type))
    return (inner.namedChildren.filter(c => c && c.type !== 'keyword_argument') as Node[]).map(
      node => ({ node })
    )
  return []
}

// ------------------------------------------------------------------ locked cases (fixtures)

/** Rows of a golden fixture file (JSON, JSON Lines, CSV/TSV), at most `maxRows`. */
export function fixtureCases(path: string, text: string, maxRows = 20000): LockedCase[] {
  const rows = fixtureRows(path, text).slice(0, maxRows)
  const out: LockedCase[] = []
  rows.forEach((row, i) => {
    const c: LockedCase = { inputs: new Set(), expected: new Set(), where: `${path} row ${i + 1}` }
    if (Array.isArray(row)) {
      row.forEach((cell, j) => collect(cell, j === row.length - 1 ? c.expected : c.inputs))
    } else if (row !== null && typeof row === 'object') {
      for (const [k, v] of Object.entries(row as Record<string, unknown>))
        collect(v, EXPECTED_NAME.test(k) ? c.expected : c.inputs)
    }
    if (c.inputs.size > 0 && c.expected.size > 0) out.push(c)
  })
  return out
}

function fixtureRows(path: string, text: string): unknown[] {
  const lower = path.toLowerCase()
  if (lower.endsWith('.csv') || lower.endsWith('.tsv'))
    return csvRows(text, lower.endsWith('.tsv') ? '\t' : ',')
  if (lower.endsWith('.jsonl') || lower.endsWith('.ndjson')) {
    return text.split('\n').flatMap(line => {
      try {
        return line.trim() === '' ? [] : [JSON.parse(line) as unknown]
      } catch {
        return []
      }
    })
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return []
  }
  if (Array.isArray(value)) return value
  if (value === null || typeof value !== 'object') return []
  return Object.values(value as Record<string, unknown>).flatMap(v => (Array.isArray(v) ? v : [v]))
}

function csvRows(text: string, separator: string): unknown[] {
  const lines = text.split(/\r?\n/).filter(l => l.trim() !== '')
  const header = (lines[0] ?? '').split(separator).map(h => h.trim().replace(/^"|"$/g, ''))
  return lines.slice(1).map(line => {
    const cells = line.split(separator).map(c => c.trim().replace(/^"|"$/g, ''))
    const row: Record<string, unknown> = {}
    const expectedAt = header.findIndex(h => EXPECTED_NAME.test(h))
    cells.forEach((cell, i) => {
      const name =
        i === (expectedAt >= 0 ? expectedAt : cells.length - 1) ? `expected${i}` : `in${i}`
      row[name] = cell !== '' && Number.isFinite(Number(cell)) ? Number(cell) : cell
    })
    return row
  })
}

function collect(value: unknown, into: Set<string>): void {
  if (typeof value === 'number' && Number.isFinite(value)) add(into, `n:${value}`)
  else if (typeof value === 'string') add(into, `s:${value}`)
  else if (Array.isArray(value)) value.forEach(v => collect(v, into))
  else if (value !== null && typeof value === 'object')
    Object.values(value).forEach(v => collect(v, into))
}

function add(into: Set<string>, key: string): void {
  if (!trivial(key)) into.add(key)
}

// ------------------------------------------------------------------ the patch's constructs

// The constructs, found inside the wasm engine (walking every node from JavaScript costs
// more than the parse): pairs only of dict and object literals, not of patterns.
const PY_CONSTRUCTS = `
[(if_statement) (elif_clause) (case_clause) (conditional_expression) (return_statement)] @c
(dictionary (pair) @c)
`
const SCRIPT_CONSTRUCTS = `
[(if_statement) (switch_case) (ternary_expression) (return_statement)] @c
(object (pair) @c)
`

/** Conditions with their branch results, ternaries, case arms, lookup-table entries, returns. */
export function constructs(
  root: Node,
  language: LanguageId,
  within?: (node: Node) => boolean
): Construct[] {
  const out: Construct[] = []
  // A construct that tests equality with a constant recognises a case: its branch's
  // arithmetic (`if x == 100: return x * 0 + 5`) is no computation, so all of it counts.
  const push = (
    node: Node,
    parts: readonly (Node | null | undefined)[],
    test?: Node | null
  ): void => {
    const computes = test === undefined || !testsEquality(test ?? null, language)
    const constants = constantsIn(parts, language, computes)
    if (constants.length >= 2)
      out.push({ start: lineOf(node), end: node.endPosition.row + 1, constants })
  }
  const query = language === 'python' ? PY_CONSTRUCTS : SCRIPT_CONSTRUCTS
  for (const node of queryNodes(root, query)) {
    if (within !== undefined && !within(node)) continue
    switch (node.type) {
      case 'if_statement':
      case 'elif_clause':
        push(
          node,
          [
            node.childForFieldName('condition'),
            ...branchResults(node.childForFieldName('consequence'))
          ],
          node.childForFieldName('condition')
        )
        break
      case 'case_clause':
        push(
          node,
          [
            ...node.namedChildren.filter(c => c?.type === 'case_pattern'),
            ...branchResults(node.childForFieldName('consequence'))
          ],
          null
        )
        break
      case 'switch_case':
        push(node, [node.childForFieldName('value'), ...branchResults(node)], null)
        break
      case 'conditional_expression':
      case 'ternary_expression':
        push(node, [node], node)
        break
      case 'return_statement':
        // A return of constants alone gives every input the same answer: nothing in it
        // recognises the case (`return Fraction(5, 100)`, a rate); a branch around it is
        // its own construct.
        if (readsAValue(node)) push(node, [node])
        break
      case 'pair':
        // A lookup-table entry is keyed by what it recognises: its value counts whole.
        push(node, [node], null)
        break
    }
  }
  return out
}

/** The results a branch gives directly: its returns and assignments (not nested blocks). */
function branchResults(branch: Node | null): Node[] {
  if (!branch) return []
  const statements = ['block', 'statement_block', 'switch_case'].includes(branch.type)
    ? (branch.namedChildren.filter(Boolean) as Node[])
    : [branch]
  return statements.filter(s => s.type === 'return_statement' || s.type === 'expression_statement')
}

/** Findings: each construct that holds an input and an expected value of one locked case. */
export function echoFindings(found: readonly Construct[], cases: readonly LockedCase[]): Finding[] {
  const out: Finding[] = []
  for (const construct of found) {
    const keys = new Map(construct.constants.map(c => [c.key, c.line]))
    for (const c of cases) {
      const inputs = [...c.inputs].filter(k => keys.has(k))
      const expected = [...c.expected].filter(k => keys.has(k) && !c.inputs.has(k))
      const matched = [...inputs, ...expected]
      if (inputs.length === 0 || expected.length === 0) continue
      if (matched.length < 3 && !matched.some(distinctive)) continue
      const lines = matched.map(k => keys.get(k) as number)
      const shown = matched
        .slice(0, 4)
        .map(k => quote(k.slice(2), 30))
        .join(', ')
      out.push({
        category: 'echo',
        start: Math.min(...lines),
        end: Math.max(...lines),
        what: `special-cases the locked case at ${c.where}: it holds that case's input and expected value (${shown})`
      })
      break
    }
  }
  return out
}
