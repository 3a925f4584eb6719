// The exports of a JS/TS helper module that carry a marker, and the modules a test imports
// relatively: how a skipping helper exported from a production file is found where a test
// calls it (the resolver in helpers.ts reads the files). Pure.
import type { Node, Tree } from 'web-tree-sitter'
import type { HelperExports, MarkerHit } from './markers.js'
import { scriptMarkers } from './script.js'
import { identifierName, stringValue } from '../resolve/script.js'

/** Module paths a file imports or requires relatively (`./x`, `../src/y`): helper candidates. */
export function relativeImports(tree: Tree): string[] {
  const found = new Set<string>()
  for (const node of tree.rootNode.descendantsOfType(['import_statement', 'call_expression'])) {
    if (!node) continue
    const source =
      node.type === 'import_statement'
        ? node.childForFieldName('source')
        : node.childForFieldName('function')?.text === 'require'
          ? (node.childForFieldName('arguments')?.namedChildren[0] ?? null)
          : null
    const specifier = source ? stringValue(source) : undefined
    if (specifier?.startsWith('.')) found.add(specifier)
  }
  return [...found]
}

/**
 * The exports of a production module whose declaration holds a marker: `export const
 * pending = it.skip`, `export function onCi(name, fn) { (CI ? test.skip : test)(name, fn) }`.
 * A test that calls such a helper adds the marker as surely as one that writes it.
 */
export function markedExports(tree: Tree): HelperExports {
  const { hits } = scriptMarkers(tree, { production: true })
  const exports = new Map<string, { label: string; only: boolean }>()
  if (hits.size === 0) return exports
  const markerIn = (node: Node): MarkerHit | undefined => {
    for (let line = node.startPosition.row + 1; line <= node.endPosition.row + 1; line++) {
      const hit = hits.get(line)?.[0]
      if (hit) return hit
    }
    return undefined
  }
  const topLevel = new Map<string, Node>()
  for (const statement of tree.rootNode.namedChildren) {
    const declaration =
      statement?.type === 'export_statement'
        ? (statement.childForFieldName('declaration') ?? statement)
        : statement
    if (declaration) for (const name of declaredNames(declaration)) topLevel.set(name, declaration)
  }
  const mark = (name: string, node: Node | undefined): void => {
    const hit = node && markerIn(node)
    if (hit) exports.set(name, { label: hit.label, only: hit.silencesOthers })
  }
  for (const statement of tree.rootNode.namedChildren) {
    if (statement?.type !== 'export_statement' || statement.childForFieldName('source')) continue
    const declaration = statement.childForFieldName('declaration')
    if (declaration) {
      for (const name of declaredNames(declaration)) mark(name, declaration)
      continue
    }
    const value = statement.childForFieldName('value')
    if (value) {
      mark('default', value)
      continue
    }
    for (const spec of statement.descendantsOfType('export_specifier')) {
      const local = spec?.childForFieldName('name')
      if (!spec || !local) continue
      const exported = spec.childForFieldName('alias') ?? local
      mark(identifierName(exported), topLevel.get(identifierName(local)))
    }
  }
  return exports
}

/** Names a top-level declaration binds: `const a = …, b = …`, `function f`, `class C`. */
function declaredNames(node: Node): string[] {
  if (node.type === 'function_declaration' || node.type === 'class_declaration') {
    const name = node.childForFieldName('name')
    return name ? [identifierName(name)] : []
  }
  if (node.type !== 'lexical_declaration' && node.type !== 'variable_declaration') return []
  return node.namedChildren.flatMap(d => {
    const name = d?.type === 'variable_declarator' ? d.childForFieldName('name') : null
    return name?.type === 'identifier' ? [identifierName(name)] : []
  })
}
