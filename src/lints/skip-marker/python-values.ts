// The values skip-marker's Python evaluation gives expressions (python.ts): what pytest and
// unittest export, what a member of each is, and the syntax helpers the evaluation shares.
// Pure data and functions of syntax nodes.
import type { Node } from 'web-tree-sitter'
import type { HelperExports } from './markers.js'

export type Value =
  | { kind: 'module'; name: 'pytest' | 'mark' | 'unittest' }
  | { kind: 'marker'; label: string }
  | { kind: 'helpers'; module: string; exports: HelperExports }
  | { kind: 'string'; value: string }

export const SCOPES = new Set(['module', 'function_definition', 'lambda', 'class_definition'])
const PYTEST_MARKERS = new Set(['skip', 'xfail', 'importorskip'])
const MARK_MARKERS = new Set(['skip', 'skipif', 'xfail'])
const UNITTEST_MARKERS = new Set(['skip', 'skipIf', 'skipUnless', 'expectedFailure'])
/** Decorators the old line rule matched by bare name (`from unittest import skip`). */
export const BARE_DECORATORS = UNITTEST_MARKERS

export function isFramework(module: string): boolean {
  return (
    module === 'pytest' ||
    module.startsWith('pytest.') ||
    module === 'unittest' ||
    module.startsWith('unittest.')
  )
}

/** Names a file may use without importing them that the old line rules knew. */
export function globalValue(name: string): Value | undefined {
  if (name === 'pytest') return { kind: 'module', name: 'pytest' }
  if (name === 'unittest') return { kind: 'module', name: 'unittest' }
  if (name === 'mark') return { kind: 'module', name: 'mark' }
  return undefined
}

export function member(object: Value, prop: string): Value | undefined {
  switch (object.kind) {
    case 'module':
      if (object.name === 'pytest') {
        if (prop === 'mark') return { kind: 'module', name: 'mark' }
        return PYTEST_MARKERS.has(prop) ? { kind: 'marker', label: `pytest.${prop}(` } : undefined
      }
      if (object.name === 'mark')
        return MARK_MARKERS.has(prop) ? { kind: 'marker', label: `pytest.mark.${prop}` } : undefined
      if (prop === 'SkipTest') return { kind: 'marker', label: 'raise SkipTest' }
      return UNITTEST_MARKERS.has(prop) ? { kind: 'marker', label: `unittest.${prop}` } : undefined
    case 'marker':
      return object
    case 'helpers': {
      const marked = object.exports.get(prop)
      return marked
        ? { kind: 'marker', label: `${marked.label} (${prop} from ${object.module})` }
        : undefined
    }
    default:
      return undefined
  }
}

export function strongest(values: ReadonlyArray<Value | undefined>): Value | undefined {
  return values.find(v => v?.kind === 'marker') ?? values.find(v => v !== undefined)
}

export function scopeOf(node: Node): Node {
  let n: Node = node
  while (n.parent !== null && !SCOPES.has(n.type)) n = n.parent
  return n
}

/** A name where it is bound (import, assignment target, def name): counted where it is used. */
export function isDeclarationName(node: Node): boolean {
  const parent = node.parent
  if (parent === null) return false
  if (
    ['dotted_name', 'aliased_import', 'import_from_statement', 'import_statement'].includes(
      parent.type
    )
  )
    return true
  if (parent.type === 'assignment') return parent.childForFieldName('left')?.id === node.id
  // `obj.skip`: the member's name is not a reference to a variable `skip`.
  if (parent.type === 'attribute') return parent.childForFieldName('attribute')?.id === node.id
  if (parent.type === 'keyword_argument') return parent.childForFieldName('name')?.id === node.id
  if (PARAMETER_PARTS.has(parent.type)) return parent.namedChildren[0]?.id === node.id
  if (parent.type === 'function_definition' || parent.type === 'class_definition')
    return parent.childForFieldName('name')?.id === node.id
  return false
}

const PARAMETER_PARTS = new Set([
  'parameters',
  'lambda_parameters',
  'default_parameter',
  'typed_parameter',
  'typed_default_parameter',
  'list_splat_pattern',
  'dictionary_splat_pattern'
])

/** Python folds identifiers to NFKC: `ｓｋｉｐ` is `skip`. */
export function pyName(node: Node): string {
  return node.text.normalize('NFKC')
}
