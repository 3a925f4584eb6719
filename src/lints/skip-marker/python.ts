// Suppressions in Python, read off the tree-sitter syntax tree: a marker is any expression
// whose value is one of pytest's or unittest's skipping functions, however it is reached.
// `pytest.mark.skip`, `import pytest as pt; pt.mark.skip`, `from pytest import mark as m;
// m.xfail`, `later = pytest.mark.skip; @later`, `getattr(pytest.mark, 'sk' + 'ip')`,
// `pytest.ｓｋｉｐ` (Python folds identifiers to NFKC) all have the same value. A local
// `def` whose body holds a marker is a marker where it is used, and so is a helper imported
// from another module of the repository. Pure: a tree in, plain data out.
import type { Node, Tree } from 'web-tree-sitter'
import { decodeEscapes } from '../extract.js'
import { addHit, Bindings, NodeValues } from './bindings.js'
import type { HelperExports, MarkerHit } from './markers.js'
import {
  BARE_DECORATORS,
  SCOPES,
  globalValue,
  isDeclarationName,
  member,
  pyName,
  scopeOf,
  strongest,
  type Value
} from './python-values.js'

export interface PythonOptions {
  /** A production module (a helper): the any-receiver and bare-name rules are off there. */
  production?: boolean
  /** Marked exports of a module this file imports (dotted or relative name), if known. */
  helpers?: (module: string) => HelperExports | undefined
}

type Site =
  | { kind: 'expr'; node: Node }
  | { kind: 'value'; value: Value | undefined }
  | { kind: 'def'; node: Node }

const opaque: Site = { kind: 'value', value: undefined }

/** Markers by 1-based line. */
export function pythonMarkers(tree: Tree, options: PythonOptions = {}): Map<number, MarkerHit[]> {
  return new PythonAnalysis(tree, options).run()
}

class PythonAnalysis {
  private readonly sites = new Bindings<Site>(SCOPES)
  private readonly values = new NodeValues<Value>(node => this.compute(node))
  private readonly resolving = new Set<number>()
  private readonly hits = new Map<number, MarkerHit[]>()
  private readonly production: boolean

  constructor(
    private readonly tree: Tree,
    private readonly options: PythonOptions
  ) {
    this.production = options.production ?? false
  }

  run(): Map<number, MarkerHit[]> {
    const root = this.tree.rootNode
    for (const node of eachOfType(root, [
      'import_statement',
      'import_from_statement',
      'assignment',
      'function_definition',
      'class_definition',
      'parameters',
      'lambda_parameters',
      'for_statement'
    ])) {
      this.declare(node)
    }
    for (const node of eachOfType(root, ['identifier', 'attribute', 'call', 'subscript'])) {
      this.reference(node)
    }
    if (!this.production) this.bareRules(root)
    return this.hits
  }

  // ------------------------------------------------------------ declarations

  private declare(node: Node): void {
    switch (node.type) {
      case 'import_statement':
        return this.declareImport(node)
      case 'import_from_statement':
        return this.declareFrom(node)
      case 'assignment': {
        const left = node.childForFieldName('left')
        const right = node.childForFieldName('right')
        if (left?.type === 'identifier')
          this.site(left, scopeOf(node), right ? { kind: 'expr', node: right } : opaque)
        else if (left)
          for (const name of left.descendantsOfType('identifier')) this.bindOpaque(name)
        return
      }
      case 'function_definition':
      case 'class_definition': {
        const name = node.childForFieldName('name')
        const scope = node.parent ? scopeOf(node.parent) : node
        if (name) this.site(name, scope, { kind: 'def', node })
        return
      }
      case 'for_statement': {
        const left = node.childForFieldName('left')
        for (const name of left?.descendantsOfType('identifier') ?? []) this.bindOpaque(name)
        if (left?.type === 'identifier') this.bindOpaque(left)
        return
      }
      default:
        // Parameters bind in their function and shadow any outer name.
        for (const child of node.namedChildren) {
          const name = child?.type === 'identifier' ? child : child?.namedChildren[0]
          if (name?.type === 'identifier' && node.parent) this.site(name, node.parent, opaque)
        }
    }
  }

  private bindOpaque(name: Node | null): void {
    if (name) this.site(name, scopeOf(name), opaque)
  }

  private declareImport(node: Node): void {
    for (const name of node.childrenForFieldName('name')) {
      if (!name) continue
      const dotted = name.type === 'aliased_import' ? name.childForFieldName('name') : name
      const alias = name.type === 'aliased_import' ? name.childForFieldName('alias') : null
      if (!dotted) continue
      const module = dotted.text
      // `import a.b` binds `a`; `import a.b as c` binds `c` to a.b.
      const value = alias ? this.moduleValue(module) : this.moduleValue(module.split('.')[0]!)
      const local = alias ?? dotted.namedChildren[0]
      if (local) this.site(local, scopeOf(node), { kind: 'value', value })
    }
  }

  private declareFrom(node: Node): void {
    const module = node.childForFieldName('module_name')?.text ?? ''
    const from = this.moduleValue(module)
    for (const name of node.childrenForFieldName('name')) {
      if (!name) continue
      const dotted = name.type === 'aliased_import' ? name.childForFieldName('name') : name
      const alias = name.type === 'aliased_import' ? name.childForFieldName('alias') : null
      const local = alias ?? dotted
      if (!dotted || !local) continue
      const imported = dotted.text
      const submodule = this.moduleValue(`${module}${module.endsWith('.') ? '' : '.'}${imported}`)
      const value = (from && member(from, imported)) ?? submodule
      this.site(local, scopeOf(node), { kind: 'value', value })
    }
  }

  private moduleValue(module: string): Value | undefined {
    if (module === 'pytest') return { kind: 'module', name: 'pytest' }
    if (module === 'pytest.mark' || module === '_pytest.mark')
      return { kind: 'module', name: 'mark' }
    if (module === 'unittest' || module.startsWith('unittest.'))
      return { kind: 'module', name: 'unittest' }
    const exports = this.options.helpers?.(module)
    return exports && exports.size > 0 ? { kind: 'helpers', module, exports } : undefined
  }

  private site(name: Node, scope: Node, site: Site): void {
    this.sites.bind(pyName(name), scope, site)
  }

  // ------------------------------------------------------------ values

  private valueOf(node: Node | null): Value | undefined {
    return this.values.of(node)
  }

  private compute(node: Node): Value | undefined {
    switch (node.type) {
      case 'identifier':
        return this.lookup(pyName(node), node)
      case 'attribute': {
        const prop = node.childForFieldName('attribute')
        if (!prop) return undefined
        const name = pyName(prop)
        if (name === 'skipTest' && !this.production) return { kind: 'marker', label: 'skipTest(' }
        const object = this.valueOf(node.childForFieldName('object'))
        return object ? member(object, name) : undefined
      }
      case 'call':
        return this.call(node)
      case 'string':
        return this.string(node)
      case 'concatenated_string': {
        const parts = node.namedChildren.map(c => this.valueOf(c))
        if (!parts.every(p => p?.kind === 'string')) return undefined
        return {
          kind: 'string',
          value: parts.map(p => (p?.kind === 'string' ? p.value : '')).join('')
        }
      }
      case 'binary_operator': {
        const left = this.valueOf(node.childForFieldName('left'))
        const right = this.valueOf(node.childForFieldName('right'))
        if (node.childForFieldName('operator')?.text !== '+') return undefined
        return left?.kind === 'string' && right?.kind === 'string'
          ? { kind: 'string', value: left.value + right.value }
          : undefined
      }
      case 'boolean_operator':
      case 'conditional_expression':
        return strongest(node.namedChildren.map(c => this.valueOf(c)))
      case 'parenthesized_expression':
        return this.valueOf(node.namedChildren[0] ?? null)
      case 'decorator':
        return this.valueOf(node.namedChildren[0] ?? null)
      default:
        return undefined
    }
  }

  private call(node: Node): Value | undefined {
    const fn = node.childForFieldName('function')
    const args = node.childForFieldName('arguments')?.namedChildren ?? []
    // getattr(pytest.mark, 'skip'), pytest.mark.__getattr__('skip')
    if (fn?.type === 'identifier' && fn.text === 'getattr') {
      const object = this.valueOf(args[0] ?? null)
      const name = this.valueOf(args[1] ?? null)
      return object && name?.kind === 'string' ? member(object, name.value) : undefined
    }
    if (
      fn?.type === 'attribute' &&
      /^__getattr(ibute)?__$/.test(fn.childForFieldName('attribute')?.text ?? '')
    ) {
      const object = this.valueOf(fn.childForFieldName('object'))
      const name = this.valueOf(args[0] ?? null)
      return object && name?.kind === 'string' ? member(object, name.value) : undefined
    }
    // pytest.mark.skipif(cond) and unittest.skip('why') return markers; pytest.skip(),
    // pytest.importorskip('x') and skipTest() do their work and return something else.
    const callee = this.valueOf(fn)
    return callee?.kind === 'marker' && !callee.label.endsWith('(') ? callee : undefined
  }

  private string(node: Node): Value | undefined {
    if (node.namedChildren.some(c => c?.type === 'interpolation')) return undefined
    const content = node.namedChildren
      .filter(c => c?.type === 'string_content')
      .map(c => c?.text ?? '')
      .join('')
    const raw = /^[a-zA-Z]*[rR]/.test(node.text)
    return { kind: 'string', value: raw ? content : decodeEscapes(content) }
  }

  private lookup(name: string, from: Node): Value | undefined {
    const sites = this.sites.visible(name, from)
    if (sites === undefined) return globalValue(name)
    return strongest(sites.map(site => this.siteValue(site)))
  }

  private siteValue(site: Site): Value | undefined {
    if (site.kind === 'value') return site.value
    if (this.resolving.has(site.node.id)) return undefined
    this.resolving.add(site.node.id)
    try {
      if (site.kind === 'expr') return this.valueOf(site.node)
      // A def or class whose body holds a marker marks what it decorates or is called on.
      const body = site.node.childForFieldName('body')
      for (const inner of body?.descendantsOfType(['attribute', 'identifier', 'call']) ?? []) {
        const value = inner ? this.valueOf(inner) : undefined
        if (value?.kind === 'marker') return value
      }
      return undefined
    } finally {
      this.resolving.delete(site.node.id)
    }
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

  private add(line: number, hit: MarkerHit): void {
    addHit(this.hits, line, hit)
  }
}

/**
 * The nodes of these types in document order, as descendantsOfType(root) lists them, but
 * gathered one top-level statement at a time: an 8 MB test file holds millions of
 * identifiers, and one array of all their node objects is most of the lint's memory.
 */
function* eachOfType(root: Node, types: string[]): Generator<Node> {
  for (const child of root.children) {
    if (!child) continue
    for (const node of child.descendantsOfType(types)) if (node) yield node
  }
}
