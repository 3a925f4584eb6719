// The one resolver of Python names, used by every lint that asks what an expression stands
// for (skip-marker: is it a marker; oracle-reach: which dotted path does it name). It
// binds names per scope (module, function, lambda, class) from imports (`import a.b`,
// `import a as b`, `from x import y as z`, relative modules), assignments, definitions,
// parameters and loop variables, and evaluates an expression through them: attributes,
// string subscripts, `getattr(x, "n")`, `x.__getattr__("n")`, strings folded through `+`,
// `a or b` and conditionals, parentheses and decorators. Python folds identifiers to NFKC
// (`ｓｋｉｐ` is `skip`), and so does this. What a module or a member *is* comes from the
// lint's domain; the resolver only follows names. Pure: one instance per parse tree.
import type { Node } from 'web-tree-sitter'
import { decodeEscapes } from '../extract.js'
import { Bindings, NodeValues } from './scope.js'

/** A string value (a getattr name, a subscript key) as every domain sees it. */
export interface PyString {
  kind: 'string'
  value: string
}

/** What a lint says modules, members and names are; V is its own kind of value. */
export interface PythonDomain<V extends { kind: string }> {
  /** What importing `name` (dotted, or relative with leading dots) gives. */
  module(name: string): V | undefined
  /** The value of `object.name`. */
  member(object: V, name: string): V | undefined
  /** The value of a name no scope around it declares (a builtin, or a name the lint knows). */
  global(name: string): V | undefined
  /** One value of several possible ones (a name bound in two places, `a or b`). */
  join(values: ReadonlyArray<V | PyString | undefined>): V | PyString | undefined
  /** What a call returns, when it is not one of getattr and `__getattr__`; default nothing. */
  call?(callee: V | PyString | undefined, node: Node, resolver: PythonResolver<V>): V | undefined
  /** The value of a `def` or `class` used by its name; default nothing. */
  definition?(node: Node, resolver: PythonResolver<V>): V | undefined
  /** An attribute whose name alone decides its value (`self.skipTest`); default none. */
  attribute?(name: string): V | undefined
  /**
   * A declared name whose every binding has no value: nothing (skip-marker: a local name
   * shadows the global), or the global of that name (oracle-reach: unknown is not safe).
   */
  unknownLocal?: 'nothing' | 'global'
}

type Site =
  | { kind: 'expr'; node: Node }
  | { kind: 'known'; module: string }
  | { kind: 'from'; module: string; name: string }
  | { kind: 'opaque' }
  | { kind: 'def'; node: Node }

const OPAQUE: Site = { kind: 'opaque' }

/** Nodes that open a scope for the names bound in them. */
export const PY_SCOPES: ReadonlySet<string> = new Set([
  'module',
  'function_definition',
  'lambda',
  'class_definition'
])

const DECLARATIONS = [
  'import_statement',
  'import_from_statement',
  'assignment',
  'function_definition',
  'class_definition',
  'parameters',
  'lambda_parameters',
  'for_statement'
]

export class PythonResolver<V extends { kind: string }> {
  private readonly sites = new Bindings<Site>(PY_SCOPES)
  private readonly values = new NodeValues<V | PyString>(node => this.compute(node))
  private readonly resolving = new Set<number>()

  constructor(
    root: Node,
    private readonly domain: PythonDomain<V>
  ) {
    for (const node of eachOfType(root, DECLARATIONS)) this.declare(node)
  }

  /** The value of an expression (memoised per node). */
  valueOf(node: Node | null | undefined): V | PyString | undefined {
    return this.values.of(node ?? null)
  }

  /** The static string an expression folds to, if any. */
  stringOf(node: Node | null | undefined): string | undefined {
    const value = this.valueOf(node)
    return value?.kind === 'string' ? (value as PyString).value : undefined
  }

  // ------------------------------------------------------------ declarations

  private declare(node: Node): void {
    switch (node.type) {
      case 'import_statement':
        for (const b of importBindings(node)) this.site(b.local, node, b.site)
        return
      case 'import_from_statement':
        for (const b of importBindings(node)) this.site(b.local, node, b.site)
        return
      case 'assignment': {
        const left = node.childForFieldName('left')
        const right = node.childForFieldName('right')
        if (left?.type === 'identifier')
          this.site(left, node, right ? { kind: 'expr', node: right } : OPAQUE)
        else if (left) for (const name of left.descendantsOfType('identifier')) this.opaque(name)
        return
      }
      case 'function_definition':
      case 'class_definition': {
        const name = node.childForFieldName('name')
        if (name && node.parent) this.site(name, node.parent, { kind: 'def', node })
        return
      }
      case 'for_statement': {
        const left = node.childForFieldName('left')
        for (const name of left?.descendantsOfType('identifier') ?? []) this.opaque(name)
        if (left?.type === 'identifier') this.opaque(left)
        return
      }
      default:
        // Parameters bind in their function and shadow any outer name.
        for (const child of node.namedChildren) {
          const name = child?.type === 'identifier' ? child : child?.namedChildren[0]
          if (name?.type === 'identifier' && node.parent)
            this.sites.bind(pyName(name), node.parent, OPAQUE)
        }
    }
  }

  private opaque(name: Node | null): void {
    if (name) this.site(name, name, OPAQUE)
  }

  /** Binds `name` in the scope around `at`. */
  private site(name: Node, at: Node, site: Site): void {
    this.sites.bind(pyName(name), scopeOf(at), site)
  }

  // ------------------------------------------------------------ values

  private compute(node: Node): V | PyString | undefined {
    switch (node.type) {
      case 'identifier':
        return this.lookup(pyName(node), node)
      case 'attribute': {
        const prop = node.childForFieldName('attribute')
        if (!prop) return undefined
        const name = pyName(prop)
        const fixed = this.domain.attribute?.(name)
        if (fixed !== undefined) return fixed
        return this.member(this.valueOf(node.childForFieldName('object')), name)
      }
      case 'subscript': {
        const key = this.stringOf(node.childForFieldName('subscript'))
        return key === undefined
          ? undefined
          : this.member(this.valueOf(node.childForFieldName('value')), key)
      }
      case 'call':
        return this.call(node)
      case 'string':
        return stringValue(node)
      case 'concatenated_string': {
        const parts = node.namedChildren.map(c => this.stringOf(c))
        return parts.every(p => p !== undefined) ? str(parts.join('')) : undefined
      }
      case 'binary_operator': {
        if (node.childForFieldName('operator')?.text !== '+') return undefined
        const left = this.stringOf(node.childForFieldName('left'))
        const right = this.stringOf(node.childForFieldName('right'))
        return left !== undefined && right !== undefined ? str(left + right) : undefined
      }
      case 'boolean_operator':
      case 'conditional_expression':
        return this.domain.join(node.namedChildren.map(c => this.valueOf(c)))
      case 'parenthesized_expression':
      case 'decorator':
        return this.valueOf(node.namedChildren[0])
      default:
        return undefined
    }
  }

  private member(object: V | PyString | undefined, name: string): V | undefined {
    return object === undefined || object.kind === 'string'
      ? undefined
      : this.domain.member(object as V, name)
  }

  private call(node: Node): V | PyString | undefined {
    const fn = node.childForFieldName('function')
    const args = argumentsOf(node)
    // getattr(pytest.mark, 'skip'), pytest.mark.__getattr__('skip')
    if (fn?.type === 'identifier' && pyName(fn) === 'getattr' && !this.declared('getattr', fn)) {
      const name = this.stringOf(args[1])
      return name === undefined ? undefined : this.member(this.valueOf(args[0]), name)
    }
    if (fn?.type === 'attribute') {
      const attr = fn.childForFieldName('attribute')
      if (attr && /^__getattr(ibute)?__$/.test(pyName(attr))) {
        const name = this.stringOf(args[0])
        return name === undefined
          ? undefined
          : this.member(this.valueOf(fn.childForFieldName('object')), name)
      }
    }
    return this.domain.call?.(this.valueOf(fn), node, this)
  }

  private declared(name: string, from: Node): boolean {
    return this.sites.visible(name, from) !== undefined
  }

  private lookup(name: string, from: Node): V | PyString | undefined {
    const sites = this.sites.visible(name, from)
    if (sites === undefined) return this.domain.global(name)
    const value = this.domain.join(sites.map(site => this.siteValue(site)))
    if (value === undefined && this.domain.unknownLocal === 'global')
      return this.domain.global(name)
    return value
  }

  private siteValue(site: Site): V | PyString | undefined {
    switch (site.kind) {
      case 'opaque':
        return undefined
      case 'known':
        return this.domain.module(site.module)
      case 'from': {
        const from = this.domain.module(site.module)
        const submodule = `${site.module}${site.module.endsWith('.') ? '' : '.'}${site.name}`
        return (from && this.domain.member(from, site.name)) ?? this.domain.module(submodule)
      }
      case 'expr':
      case 'def': {
        if (this.resolving.has(site.node.id)) return undefined
        this.resolving.add(site.node.id)
        try {
          return site.kind === 'expr'
            ? this.valueOf(site.node)
            : this.domain.definition?.(site.node, this)
        } finally {
          this.resolving.delete(site.node.id)
        }
      }
    }
  }
}

// ------------------------------------------------------------------ imports

interface ImportBinding {
  /** The name node the import binds. */
  local: Node
  site: Site
}

/** What one import statement binds: `import a.b` binds a; `from m import x as y` binds y. */
function importBindings(node: Node): ImportBinding[] {
  const out: ImportBinding[] = []
  const module = node.childForFieldName('module_name')?.text ?? ''
  for (const name of node.childrenForFieldName('name')) {
    if (!name) continue
    const dotted = name.type === 'aliased_import' ? name.childForFieldName('name') : name
    const alias = name.type === 'aliased_import' ? name.childForFieldName('alias') : null
    if (!dotted) continue
    if (node.type === 'import_statement') {
      // `import a.b` binds `a`; `import a.b as c` binds `c` to a.b.
      const local = alias ?? dotted.namedChildren[0] ?? dotted
      const bound = alias ? dotted.text : (dotted.text.split('.')[0] ?? dotted.text)
      out.push({ local, site: { kind: 'known', module: bound } })
    } else {
      out.push({ local: alias ?? dotted, site: { kind: 'from', module, name: dotted.text } })
    }
  }
  return out
}

/**
 * Every module a file imports, by the name it is imported as (`pkg.mod`, `.helpers`,
 * `..app.testing`), with the names a `from` import takes from it as submodule candidates.
 */
export function importedModules(root: Node): string[] {
  const found = new Set<string>()
  for (const node of root.descendantsOfType(['import_statement', 'import_from_statement'])) {
    if (!node) continue
    const module = node.childForFieldName('module_name')?.text
    if (node.type === 'import_from_statement' && module !== undefined) found.add(module)
    for (const name of node.childrenForFieldName('name')) {
      const dotted = name?.type === 'aliased_import' ? name.childForFieldName('name') : name
      if (!dotted) continue
      if (node.type === 'import_statement') found.add(dotted.text)
      else if (module !== undefined)
        found.add(`${module}${module.endsWith('.') ? '' : '.'}${dotted.text}`)
    }
  }
  return [...found]
}

// ------------------------------------------------------------------ syntax

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

export function scopeOf(node: Node): Node {
  let n: Node = node
  while (n.parent !== null && !PY_SCOPES.has(n.type)) n = n.parent
  return n
}

export function argumentsOf(call: Node): Node[] {
  const args = call.childForFieldName('arguments')
  return args ? (args.namedChildren.filter(Boolean) as Node[]) : []
}

function str(value: string): PyString {
  return { kind: 'string', value }
}

/** A string literal's value (escapes decoded unless raw); undefined with an f-string hole. */
function stringValue(node: Node): PyString | undefined {
  if (node.namedChildren.some(c => c?.type === 'interpolation')) return undefined
  const content = node.namedChildren
    .filter(c => c?.type === 'string_content')
    .map(c => c?.text ?? '')
    .join('')
  const raw = /^[a-zA-Z]*[rR]/.test(node.text)
  return str(raw ? content : decodeEscapes(content))
}

/**
 * The nodes of these types in document order, gathered one top-level statement at a time:
 * an 8 MB test file holds millions of identifiers, and one array of all their node objects
 * is most of a lint's memory.
 */
export function* eachOfType(root: Node, types: string[]): Generator<Node> {
  for (const child of root.children) {
    if (!child) continue
    for (const node of child.descendantsOfType(types)) if (node) yield node
  }
}
