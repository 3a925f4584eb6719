// Tests silently shadowed by a second definition of the same name: a Python `def test_x`
// defined twice in one module or class (only the last runs), a JS/TS `it`/`test`/`describe`
// title repeated in one scope (both run, but collapse into one id and one vote). Neither is
// visible in a report, so doctor reads the source with the lints' tree-sitter parsers.
import type { Node } from 'web-tree-sitter'
import { languageOf, parserFor } from '../lints/parsers.js'
import {
  JS_GROUP_FUNCTIONS,
  JS_TEST_FUNCTIONS,
  PY_TEST_CLASS,
  PY_TEST_FUNCTION
} from '../lints/tables.js'

export interface Shadowed {
  file: string
  name: string
  /** 1-based lines of every definition, in source order. */
  lines: number[]
}

/** The calls that declare a test or a group: the lints' table (src/lints/tables.ts). */
const JS_CALLS: ReadonlySet<string> = new Set([...JS_TEST_FUNCTIONS, ...JS_GROUP_FUNCTIONS])

export async function shadowedTests(file: string, text: string): Promise<Shadowed[]> {
  const language = languageOf(file)
  if (language === undefined) return []
  const parser = await parserFor(language)
  const tree = parser.parse(text)
  if (tree === null) return []
  try {
    const groups = new Map<string, number[]>()
    const add = (key: string, line: number): void => {
      groups.set(key, [...(groups.get(key) ?? []), line])
    }
    if (language === 'python') pythonScopes(tree.rootNode, 'module', add)
    else jsScopes(tree.rootNode, 'file', add)
    const out: Shadowed[] = []
    for (const [key, lines] of groups)
      if (lines.length > 1) out.push({ file, name: key.slice(key.indexOf('\0') + 1), lines })
    return out.sort((a, b) => (a.lines[0] ?? 0) - (b.lines[0] ?? 0))
  } finally {
    tree.delete()
  }
}

/** Definitions of one block (module or class body), keyed by scope and name. */
function pythonScopes(block: Node, scope: string, add: (key: string, line: number) => void): void {
  for (const child of block.namedChildren) {
    if (child === null) continue
    const def =
      child.type === 'decorated_definition' ? child.childForFieldName('definition') : child
    if (def === null) continue
    const name = def.childForFieldName('name')?.text ?? ''
    if (def.type === 'function_definition' && PY_TEST_FUNCTION.test(name))
      add(`${scope}\0${name}`, def.startPosition.row + 1)
    if (def.type === 'class_definition') {
      if (PY_TEST_CLASS.test(name)) add(`${scope}\0${name}`, def.startPosition.row + 1)
      const body = def.childForFieldName('body')
      if (body !== null) pythonScopes(body, `${scope}.${name}`, add)
    }
  }
}

/** it/test/describe calls, keyed by the enclosing describe chain and the title. */
function jsScopes(node: Node, scope: string, add: (key: string, line: number) => void): void {
  for (const child of node.namedChildren) {
    if (child === null) continue
    const title = child.type === 'call_expression' ? testTitle(child) : null
    if (title === null) {
      jsScopes(child, scope, add)
      continue
    }
    add(`${scope}\0${title}`, child.startPosition.row + 1)
    jsScopes(child, `${scope} > ${title}`, add)
  }
}

/** The literal title of `it('x', ...)`, `test.only('x', ...)`, `describe.each(...)('x')` is skipped. */
function testTitle(call: Node): string | null {
  const fn = call.childForFieldName('function')
  if (fn === null) return null
  const head = fn.type === 'member_expression' ? fn.childForFieldName('object') : fn
  if (head === null || head.type !== 'identifier' || !JS_CALLS.has(head.text)) return null
  const first = call.childForFieldName('arguments')?.namedChildren[0]
  if (first === null || first === undefined || first.type !== 'string') return null
  return first.text.slice(1, -1)
}
