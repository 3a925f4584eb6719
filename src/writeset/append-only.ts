// Test-level locking of a voting file (`voting_edits: append`): the patch may add new test
// definitions (and import statements) to an existing voting file, nothing else. The check
// is one subtraction on the head's parse tree: remove the definitions whose names the base
// does not have, and the added imports; what is left must be the merge base's file, line
// for line (blank lines outside strings aside). Anything else — an edited assertion, a
// changed helper or module constant, a deleted or redefined test — names what changed.
// Pure: two texts and their trees in, a decision out. The vote always runs the base's file;
// the added tests are diagnostics.
//
// A test is what the runner collects, in the project's own style (issue 25): Python
// functions by pytest's python_functions, methods of classes by python_classes and of every
// unittest.TestCase subclass whatever its name (the merge base's configuration says which);
// JS/TS it/test/describe calls anywhere in a scope, also inside if blocks and loops.
import type { Node, Tree } from 'web-tree-sitter'
import type { LanguageId } from '../lints/parsers.js'
import { namePatterns, PYTEST_DEFAULTS } from '../policy/pytest-config.js'

/** The collection rules of the merge base (pytest's python_classes / python_functions). */
export interface TestStyle {
  pythonClasses: readonly string[]
  pythonFunctions: readonly string[]
}

export const DEFAULT_STYLE: TestStyle = {
  pythonClasses: PYTEST_DEFAULTS.pythonClasses,
  pythonFunctions: PYTEST_DEFAULTS.pythonFunctions
}

/** The compiled rules for one file (both trees): which names and classes hold tests. */
interface Rules {
  language: LanguageId
  isClass(name: string): boolean
  isFunction(name: string): boolean
  /** Classes of either tree that derive (in the file) from unittest's TestCase. */
  unittestClasses: ReadonlySet<string>
}

/** A test definition of the head that the base does not have. */
export interface AddedTest {
  /** Name as written: `test_parses_dates`, `TestDates`, `parses dates` (JS title). */
  name: string
  /** 1-based head line where it starts. */
  line: number
}

export type AppendCheck =
  | { ok: true; added: AddedTest[] }
  | { ok: false; what: string; line: number; baseLine?: number; hunk: string }

/** A definition the rules know about, in one scope. */
interface Definition {
  node: Node
  name: string
  kind: 'test' | 'group' | 'import'
  /** Python `class Test…` / JS `describe(…)`: a scope whose body may gain tests. */
  body?: Node
  /** A unittest.TestCase subclass: its `test*` methods are tests. */
  unittest?: boolean
}

/** Statements whose bodies belong to the enclosing scope (a test inside an if or a loop). */
const TRANSPARENT: Record<'python' | 'script', ReadonlySet<string>> = {
  python: new Set([
    'if_statement',
    'elif_clause',
    'else_clause',
    'block',
    'for_statement',
    'while_statement',
    'try_statement',
    'except_clause',
    'finally_clause',
    'with_statement'
  ]),
  script: new Set([
    'if_statement',
    'else_clause',
    'statement_block',
    'for_statement',
    'for_in_statement',
    'while_statement',
    'do_statement',
    'try_statement',
    'catch_clause',
    'finally_clause',
    'labeled_statement'
  ])
}

const JS_TESTS = new Set(['it', 'test', 'specify', 'bench'])
const JS_GROUPS = new Set(['describe', 'suite', 'context'])

export function checkAppendOnly(
  language: LanguageId,
  base: { text: string; tree: Tree },
  head: { text: string; tree: Tree },
  style: TestStyle = DEFAULT_STYLE
): AppendCheck {
  const rules = compileRules(language, style, [base.tree, head.tree])
  const removed: Node[] = []
  const added: AddedTest[] = []
  const conflict = subtract(rules, base.tree.rootNode, head.tree.rootNode, false, removed, added)
  if (conflict) return conflict
  return compareRemainder(rules, base, head, removed, added)
}

function compileRules(language: LanguageId, style: TestStyle, trees: readonly Tree[]): Rules {
  return {
    language,
    isClass: namePatterns(style.pythonClasses),
    isFunction: namePatterns(style.pythonFunctions),
    unittestClasses: language === 'python' ? unittestClasses(trees) : new Set()
  }
}

/**
 * Class names deriving from TestCase (unittest.TestCase, IsolatedAsyncioTestCase, a
 * django TestCase…) directly or through a class of the file that does, to a fixpoint.
 */
function unittestClasses(trees: readonly Tree[]): Set<string> {
  const classes: { name: string; bases: string[] }[] = []
  for (const tree of trees)
    for (const node of tree.rootNode.descendantsOfType('class_definition')) {
      if (!node) continue
      const bases = (node.childForFieldName('superclasses')?.namedChildren ?? [])
        .filter(b => b !== null && (b.type === 'identifier' || b.type === 'attribute'))
        .map(b => (b?.text ?? '').split('.').pop() ?? '')
      classes.push({ name: node.childForFieldName('name')?.text ?? '', bases })
    }
  const found = new Set<string>()
  for (let grew = true; grew;) {
    grew = false
    for (const c of classes) {
      if (found.has(c.name)) continue
      if (c.bases.some(b => b.endsWith('TestCase') || found.has(b))) {
        found.add(c.name)
        grew = true
      }
    }
  }
  return found
}

/**
 * Walks one scope of base and head side by side: head definitions the base lacks are
 * removed (and recorded), groups the base has are entered, a test redefined under a name
 * the base has is a conflict right away (in Python the later definition replaces the
 * locked one).
 */
function subtract(
  rules: Rules,
  baseScope: Node,
  headScope: Node,
  /** The scope is a unittest.TestCase body. */
  unittest: boolean,
  removed: Node[],
  added: AddedTest[]
): Extract<AppendCheck, { ok: false }> | null {
  const baseDefs = definitions(rules, baseScope, unittest)
  const byName = new Map(baseDefs.filter(d => d.kind !== 'import').map(d => [key(d), d]))
  const baseImports = new Set(baseDefs.filter(d => d.kind === 'import').map(d => d.node.text))
  const seen = new Set<string>()
  for (const def of definitions(rules, headScope, unittest)) {
    if (def.kind === 'import') {
      if (!baseImports.has(def.node.text)) removed.push(def.node)
      continue
    }
    const k = key(def)
    const inBase = byName.get(k)
    if (seen.has(k) && inBase !== undefined) {
      return conflictAt(
        def.node,
        `${describe(def)} is defined twice (it would replace the locked one)`
      )
    }
    seen.add(k)
    if (inBase === undefined) {
      removed.push(def.node)
      added.push({ name: def.name, line: def.node.startPosition.row + 1 })
    } else if (def.body && inBase.body) {
      const inner = subtract(
        rules,
        inBase.body,
        def.body,
        (inBase.unittest ?? false) && (def.unittest ?? false),
        removed,
        added
      )
      if (inner) return inner
    }
  }
  return null
}

function key(d: Definition): string {
  return `${d.kind}\u0000${d.name}`
}

function describe(d: Definition): string {
  return d.kind === 'group' ? `group "${d.name}"` : `test "${d.name}"`
}

function conflictAt(node: Node, what: string): Extract<AppendCheck, { ok: false }> {
  return { ok: false, what, line: node.startPosition.row + 1, hunk: firstLines(node.text, 6) }
}

/**
 * The definitions in one scope (module, class body, describe callback body), also those
 * inside its if blocks, loops and try blocks, which the runner collects as the scope's own.
 */
function definitions(rules: Rules, scope: Node, unittest: boolean): Definition[] {
  const out: Definition[] = []
  const transparent = TRANSPARENT[rules.language === 'python' ? 'python' : 'script']
  for (const child of scope.namedChildren) {
    if (!child) continue
    if (transparent.has(child.type)) {
      out.push(...definitions(rules, child, unittest))
      continue
    }
    const def =
      rules.language === 'python'
        ? pythonDefinition(rules, child, unittest)
        : scriptDefinition(child)
    if (def) out.push(def)
  }
  return out
}

function pythonDefinition(rules: Rules, node: Node, unittest: boolean): Definition | null {
  if (['import_statement', 'import_from_statement', 'future_import_statement'].includes(node.type))
    return { node, name: node.text, kind: 'import' }
  const inner = node.type === 'decorated_definition' ? node.childForFieldName('definition') : node
  if (!inner) return null
  const name = inner.childForFieldName('name')?.text ?? ''
  if (
    inner.type === 'function_definition' &&
    (rules.isFunction(name) || (unittest && name.startsWith('test')))
  )
    return { node, name, kind: 'test' }
  if (inner.type !== 'class_definition') return null
  const isUnittest = rules.unittestClasses.has(name)
  if (!isUnittest && !rules.isClass(name)) return null
  const body = inner.childForFieldName('body')
  return body
    ? { node, name, kind: 'group', body, unittest: isUnittest }
    : { node, name, kind: 'group', unittest: isUnittest }
}

function scriptDefinition(node: Node): Definition | null {
  if (node.type === 'import_statement') return { node, name: node.text, kind: 'import' }
  if (node.type !== 'expression_statement') return null
  const call = node.namedChildren[0]
  if (call?.type !== 'call_expression') return null
  const root = calleeRoot(call)
  if (root === null) return null
  const kind = JS_TESTS.has(root) ? 'test' : JS_GROUPS.has(root) ? 'group' : null
  if (kind === null) return null
  const args = call.childForFieldName('arguments')
  const title = args?.namedChildren[0]
  const name = title ? title.text : ''
  if (kind === 'test') return { node, name, kind }
  const fn = args?.namedChildren.find(
    a => a?.type === 'arrow_function' || a?.type === 'function_expression'
  )
  const body = fn?.childForFieldName('body')
  return body && body.type === 'statement_block' ? { node, name, kind, body } : { node, name, kind }
}

/** `it`, `test.each(...)(...)`, `describe.skip` → the identifier the call chain starts from. */
function calleeRoot(call: Node): string | null {
  let n: Node | null = call.childForFieldName('function')
  while (n) {
    if (n.type === 'identifier') return n.text
    if (n.type === 'member_expression') n = n.childForFieldName('object')
    else if (n.type === 'call_expression') n = n.childForFieldName('function')
    else return null
  }
  return null
}

/**
 * Removes the recorded nodes' lines from the head and walks what is left beside the base:
 * equal lines advance both; a blank line of the head outside any string may be skipped (an
 * added test brings its blank lines along); anything else is the first change.
 */
function compareRemainder(
  rules: Rules,
  base: { text: string; tree: Tree },
  head: { text: string; tree: Tree },
  removed: readonly Node[],
  added: AddedTest[]
): AppendCheck {
  const gone = new Set<number>()
  for (const node of removed) {
    if (!ownsItsLines(node, head.text)) {
      return conflictAt(node, 'a test or import was added on a line shared with other code')
    }
    for (let r = node.startPosition.row; r <= node.endPosition.row; r++) gone.add(r)
  }
  const headLines = head.text.split('\n')
  const baseLines = base.text.split('\n')
  let b = 0
  for (let h = 0; h < headLines.length; h++) {
    if (gone.has(h)) continue
    const line = headLines[h] ?? ''
    if (b < baseLines.length && line === baseLines[b]) {
      b++
      continue
    }
    if (line.trim() === '' && !insideString(head.tree, h)) continue
    return mismatch(rules, base, b, h, headLines)
  }
  while (b < baseLines.length && (baseLines[b] ?? '').trim() === '') b++
  if (b < baseLines.length) return mismatch(rules, base, b, headLines.length - 1, headLines)
  return { ok: true, added }
}

/** True when nothing but whitespace shares the node's first and last lines. */
function ownsItsLines(node: Node, text: string): boolean {
  const lines = text.split('\n')
  const first = lines[node.startPosition.row] ?? ''
  const last = lines[node.endPosition.row] ?? ''
  return (
    first.slice(0, node.startPosition.column).trim() === '' &&
    last.slice(node.endPosition.column).trim() === ''
  )
}

function insideString(tree: Tree, row: number): boolean {
  let n: Node | null = tree.rootNode.descendantForPosition({ row, column: 0 })
  for (; n; n = n.parent) {
    if (/string|template/.test(n.type) && n.startPosition.row < row) return true
  }
  return false
}

function mismatch(
  rules: Rules,
  base: { text: string; tree: Tree },
  baseRow: number,
  headRow: number,
  headLines: readonly string[]
): Extract<AppendCheck, { ok: false }> {
  // A blank line of the base names nothing: the change is the code that follows it.
  const lines = base.text.split('\n')
  while (baseRow + 1 < lines.length && (lines[baseRow] ?? '').trim() === '') baseRow++
  const enclosing = enclosingDefinition(rules, base.tree.rootNode, false, baseRow)
  const what =
    enclosing === null
      ? `a statement outside the tests changed (base line ${baseRow + 1})`
      : `${describe(enclosing)} was changed or removed`
  const lo = Math.max(0, headRow - 2)
  const hunk = headLines.slice(lo, headRow + 3).join('\n')
  return { ok: false, what, line: headRow + 1, baseLine: baseRow + 1, hunk }
}

/** The innermost test or group of the base that spans a row. */
function enclosingDefinition(
  rules: Rules,
  scope: Node,
  unittest: boolean,
  row: number
): Definition | null {
  for (const def of definitions(rules, scope, unittest)) {
    if (def.kind === 'import') continue
    if (def.node.startPosition.row > row || def.node.endPosition.row < row) continue
    return (def.body && enclosingDefinition(rules, def.body, def.unittest ?? false, row)) ?? def
  }
  return null
}

function firstLines(text: string, n: number): string {
  return text.split('\n').slice(0, n).join('\n')
}
