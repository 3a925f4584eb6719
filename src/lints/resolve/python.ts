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
import {
  braceFormat,
  decodeAs,
  fromBase64,
  fromCodes,
  fromHex,
  percentFormat,
  stringMethod
} from './strings.js'

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
      case 'subscript':
        return this.subscript(node)
      case 'call':
        return this.call(node)
      case 'string':
        return stringValue(node) ?? this.formatted(node)
      case 'concatenated_string': {
        const parts = node.namedChildren.map(c => this.stringOf(c))
        return parts.every(p => p !== undefined) ? str(parts.join('')) : undefined
      }
      case 'binary_operator':
        return this.binary(node)
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

  // ------------------------------------------------------------ strings built at run time

  /** `x[k]`: a member, a reversed string (`s[::-1]`) or a name of a namespace dict. */
  private subscript(node: Node): V | PyString | undefined {
    const value = node.childForFieldName('value')
    const index = node.childForFieldName('subscript')
    if (index?.type === 'slice' && index.text.replace(/\s/g, '') === '::-1') {
      const text = this.stringOf(value)
      return text === undefined ? undefined : str([...text].reverse().join(''))
    }
    const key = this.stringOf(index)
    if (key === undefined || value === null) return undefined
    const namespace = this.namespaceOf(value)
    if (namespace === 'scope') return this.lookup(key, node)
    if (namespace !== undefined) return this.member(this.valueOf(namespace), key)
    return this.member(this.valueOf(value), key)
  }

  /**
   * What a namespace dict stands for: `globals()`, `locals()`, `vars()` are the names in
   * scope; `vars(m)` and `m.__dict__` are m's members.
   */
  private namespaceOf(node: Node): 'scope' | Node | undefined {
    if (node.type === 'attribute' && node.childForFieldName('attribute')?.text === '__dict__')
      return node.childForFieldName('object') ?? undefined
    if (node.type !== 'call') return undefined
    const fn = node.childForFieldName('function')
    const name = fn?.type === 'identifier' ? pyName(fn) : ''
    if (!['globals', 'locals', 'vars'].includes(name) || this.declared(name, node)) return undefined
    const args = argumentsOf(node)
    if (args.length === 0) return 'scope'
    return name === 'vars' && args.length === 1 ? args[0] : undefined
  }

  /** `a + b`, `fmt % args`, `s * n` of constant strings. */
  private binary(node: Node): PyString | undefined {
    const op = node.childForFieldName('operator')?.text
    const leftNode = node.childForFieldName('left')
    const rightNode = node.childForFieldName('right')
    const left = this.stringOf(leftNode)
    if (left === undefined) return undefined
    if (op === '+') {
      const right = this.stringOf(rightNode)
      return right === undefined ? undefined : str(left + right)
    }
    if (op === '%') {
      const args =
        rightNode?.type === 'tuple' ? this.stringsOf(rightNode) : this.maybeList(rightNode)
      const out = args === undefined ? undefined : percentFormat(left, args)
      return out === undefined ? undefined : str(out)
    }
    if (op === '*') {
      const out = stringMethod(left, 'repeat', [intOf(rightNode)])
      return out === undefined ? undefined : str(out)
    }
    return undefined
  }

  private maybeList(node: Node | null): string[] | undefined {
    const one = this.stringOf(node)
    return one === undefined ? undefined : [one]
  }

  /** An f-string whose every field folds (no conversion, no format spec). */
  private formatted(node: Node): PyString | undefined {
    let out = ''
    for (const child of node.namedChildren) {
      if (!child || child.type === 'string_start' || child.type === 'string_end') continue
      if (child.type === 'string_content') out += decodeEscapes(child.text)
      else if (child.type === 'interpolation') {
        if (child.namedChildren.length !== 1) return undefined
        const part = this.stringOf(child.namedChildren[0])
        if (part === undefined) return undefined
        out += part
      } else return undefined
    }
    return str(out)
  }

  /** The strings of a sequence: a list or tuple of them, a string's characters, `reversed(x)`, `map(chr, codes)`. */
  stringsOf(node: Node | null | undefined): string[] | undefined {
    if (!node) return undefined
    if (node.type === 'list' || node.type === 'tuple') {
      const parts = node.namedChildren.map(c => this.stringOf(c))
      return parts.every(p => p !== undefined) ? (parts as string[]) : undefined
    }
    const text = this.stringOf(node)
    if (text !== undefined) return [...text]
    if (node.type === 'parenthesized_expression') return this.stringsOf(node.namedChildren[0])
    if (node.type !== 'call') return undefined
    const fn = node.childForFieldName('function')
    const name = fn?.type === 'identifier' && !this.declared(fn.text, fn) ? pyName(fn) : ''
    const args = argumentsOf(node)
    if (name === 'reversed' || name === 'list' || name === 'tuple') {
      const inner = this.stringsOf(args[0])
      return name === 'reversed' ? inner?.reverse() : inner
    }
    if (name === 'map' && args[0]?.text === 'chr' && !this.declared('chr', node)) {
      const codes = intsOf(args[1])
      const chars = codes?.map(c => fromCodes([c]))
      return chars?.every(c => c !== undefined) ? (chars as string[]) : undefined
    }
    return undefined
  }

  /** A call that builds a string from constants: methods of strings, decoders, `chr`. */
  private foldCall(fn: Node | null, args: Node[]): string | undefined {
    if (fn?.type === 'identifier') {
      const name = pyName(fn)
      if (this.declared(name, fn)) return undefined
      if (name === 'chr') return fromCodes([intOf(args[0])])
      if (name === 'str' && args.length === 1) return this.stringOf(args[0])
      if ((name === 'bytes' || name === 'bytearray') && args.length >= 1) {
        const codes = intsOf(args[0])
        return codes ? fromCodes(codes) : this.stringOf(args[0])
      }
      return undefined
    }
    if (fn?.type !== 'attribute') return undefined
    const object = fn.childForFieldName('object')
    const method = pyName(fn.childForFieldName('attribute') ?? fn)
    const self = this.stringOf(object)
    const strings = args.map(a => this.stringOf(a))
    if (self !== undefined) {
      if (method === 'join') return this.stringsOf(args[0])?.join(self)
      if (method === 'format')
        return strings.every(a => a !== undefined)
          ? braceFormat(self, strings as string[])
          : undefined
      return stringMethod(
        self,
        method,
        args.map((a, i) => strings[i] ?? intOf(a))
      )
    }
    const owner = object?.type === 'identifier' ? pyName(object) : ''
    const first = strings[0]
    if (first === undefined) return undefined
    return decoderCall(`${owner}.${method}`, first, strings[1])
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
    const folded = this.foldCall(fn, args)
    if (folded !== undefined) return str(folded)
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

/** Module functions that decode a constant: `base64.b64decode(s)`, `codecs.decode(s, 'rot13')`. */
function decoderCall(
  name: string,
  value: string,
  encoding: string | undefined
): string | undefined {
  switch (name) {
    case 'base64.b64decode':
    case 'base64.standard_b64decode':
    case 'base64.urlsafe_b64decode':
    case 'binascii.a2b_base64':
      return fromBase64(value)
    case 'base64.b16decode':
    case 'bytes.fromhex':
    case 'bytearray.fromhex':
    case 'binascii.unhexlify':
    case 'binascii.a2b_hex':
      return fromHex(value)
    case 'codecs.decode':
    case 'codecs.encode':
      return decodeAs(value, encoding ?? 'utf-8')
    default:
      return undefined
  }
}

/** An integer literal's value (`65`, `0x41`, `1_000`). */
function intOf(node: Node | null | undefined): number | undefined {
  if (node?.type !== 'integer') return undefined
  const text = node.text.replace(/_/g, '').toLowerCase()
  const value = /^0[xob]/.test(text) ? Number(text) : /^\d+$/.test(text) ? Number(text) : NaN
  return Number.isSafeInteger(value) ? value : undefined
}

/** The integers of a list or tuple literal. */
function intsOf(node: Node | null | undefined): number[] | undefined {
  if (node?.type !== 'list' && node?.type !== 'tuple') return undefined
  const values = node.namedChildren.map(intOf)
  return values.every(v => v !== undefined) ? (values as number[]) : undefined
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
