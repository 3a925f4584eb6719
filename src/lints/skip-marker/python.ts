// Suppressions in Python, read off the tree-sitter syntax tree: a marker is any expression
// whose value is one of pytest's or unittest's skipping functions, however it is reached.
// `pytest.mark.skip`, `import pytest as pt; pt.mark.skip`, `from pytest import mark as m;
// m.xfail`, `later = pytest.mark.skip; @later`, `getattr(pytest.mark, 'sk' + 'ip')`,
// `pytest.ｓｋｉｐ` (Python folds identifiers to NFKC) all have the same value. A local
// `def` whose body holds a marker is a marker where it is used, and so is a helper imported
// from another module of the repository. Pure: a tree in, plain data out.
import type { Node, Tree } from 'web-tree-sitter'
import {
  eachOfType,
  isDeclarationName,
  pyName,
  PythonResolver,
  type PythonDomain
} from '../resolve/python.js'
import { MarkerReader, type HelperExports, type MarkerHit } from './markers.js'
import { BARE_DECORATORS, globalValue, member, strongest, type Value } from './python-values.js'

export interface PythonOptions {
  /** A production module (a helper): the any-receiver and bare-name rules are off there. */
  production?: boolean
  /** Marked exports of a module this file imports (dotted or relative name), if known. */
  helpers?: (module: string) => HelperExports | undefined
}

/** Markers by 1-based line. */
export function pythonMarkers(tree: Tree, options: PythonOptions = {}): Map<number, MarkerHit[]> {
  return new PythonAnalysis(tree, options).run()
}

/** What skip-marker says Python names are: pytest, unittest, their markers, marked helpers. */
function markerDomain(options: PythonOptions): PythonDomain<Value> {
  const production = options.production ?? false
  return {
    module: name => {
      if (name === 'pytest') return { kind: 'module', name: 'pytest' }
      if (name === 'pytest.mark' || name === '_pytest.mark') return { kind: 'module', name: 'mark' }
      if (name === 'unittest' || name.startsWith('unittest.'))
        return { kind: 'module', name: 'unittest' }
      const exports = options.helpers?.(name)
      return exports && exports.size > 0 ? { kind: 'helpers', module: name, exports } : undefined
    },
    member,
    global: globalValue,
    join: strongest,
    attribute: name =>
      name === 'skipTest' && !production ? { kind: 'marker', label: 'skipTest(' } : undefined,
    // pytest.mark.skipif(cond) and unittest.skip('why') return markers; pytest.skip(),
    // pytest.importorskip('x') and skipTest() do their work and return something else.
    call: callee => (callee?.kind === 'marker' && !callee.label.endsWith('(') ? callee : undefined),
    // A def or class whose body holds a marker marks what it decorates or is called on.
    definition: (node, resolver) => {
      const body = node.childForFieldName('body')
      for (const inner of body?.descendantsOfType(['attribute', 'identifier', 'call']) ?? []) {
        const value = inner ? resolver.valueOf(inner) : undefined
        if (value?.kind === 'marker') return value
      }
      return undefined
    }
  }
}

class PythonAnalysis extends MarkerReader<Value, PythonResolver<Value>> {
  constructor(tree: Tree, options: PythonOptions) {
    const resolver = new PythonResolver(tree.rootNode, markerDomain(options))
    super(tree.rootNode, options.production ?? false, resolver)
  }

  run(): Map<number, MarkerHit[]> {
    const root = this.root
    for (const node of eachOfType(root, ['identifier', 'attribute', 'call', 'subscript'])) {
      this.reference(node)
    }
    if (!this.production) this.bareRules(root)
    return this.hits
  }

  // ------------------------------------------------------------ findings

  /** A marker whose value is made here (its object or callee is not a marker already). */
  private reference(node: Node): void {
    if (node.type === 'identifier' && isDeclarationName(node)) return
    const value = this.valueOf(node)
    if (value?.kind !== 'marker') return
    const inner =
      node.type === 'attribute'
        ? node.childForFieldName('object')
        : node.type === 'call'
          ? node.childForFieldName('function')
          : node.type === 'subscript'
            ? node.childForFieldName('value')
            : null
    if (inner && this.valueOf(inner)?.kind === 'marker') return
    const at = node.type === 'attribute' ? (node.childForFieldName('attribute') ?? node) : node
    this.add(at.startPosition.row + 1, {
      label: value.label,
      silencesOthers: false,
      column: at.startPosition.column + 1
    })
  }

  /** What the old line rules matched whatever the binding: `@skip(...)`, `raise SkipTest`. */
  private bareRules(root: Node): void {
    for (const decorator of root.descendantsOfType('decorator')) {
      const expr = decorator?.namedChildren[0]
      const callee = expr?.type === 'call' ? expr.childForFieldName('function') : expr
      if (callee?.type === 'identifier' && BARE_DECORATORS.has(pyName(callee))) {
        this.add(callee.startPosition.row + 1, {
          label: `unittest.${pyName(callee)}`,
          silencesOthers: false,
          column: callee.startPosition.column + 1
        })
      }
    }
    for (const raise of root.descendantsOfType('raise_statement')) {
      const expr = raise?.namedChildren[0]
      const target = expr?.type === 'call' ? expr.childForFieldName('function') : expr
      const name = target?.type === 'attribute' ? target.childForFieldName('attribute') : target
      if (name && pyName(name) === 'SkipTest' && raise)
        this.add(raise.startPosition.row + 1, {
          label: 'raise SkipTest',
          silencesOthers: false,
          column: raise.startPosition.column + 1
        })
    }
  }
}
