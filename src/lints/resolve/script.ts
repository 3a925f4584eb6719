// The one resolver of JavaScript and TypeScript names, used by every lint that asks what an
// expression stands for (skip-marker: is it a test function or a marker; oracle-reach:
// which dotted path does it name). It binds names per function scope (blocks are not told
// apart) from `import` clauses (default, namespace, named with aliases), `require()`,
// `import()` and what createRequire made, declarations and assignments with destructuring
// (`const { env } = process`, `const { a: { b } } = m`), and parameters; and it evaluates
// an expression through them: members (escapes decoded: `sk\u0069p` is `skip`), string
// subscripts, strings folded through `+` and constant templates, `a || b`, `a ?? b`,
// ternaries, and the wrappers (parentheses, `await`, `as`, `satisfies`, `!`). What a
// module or a member *is* comes from the lint's domain. Pure: one instance per parse tree.
import type { Node } from 'web-tree-sitter'
import { decodeEscapes } from '../extract.js'
import { Bindings, NodeValues } from './scope.js'
import { decodeAs, fromBase64, fromCodes, stringMethod } from './strings.js'

export interface JsString {
  kind: 'string'
  value: string
}

/** What a lint says modules, members and names are; V is its own kind of value. */
export interface ScriptDomain<V extends { kind: string }> {
  /** What importing or requiring `specifier` gives. */
  module(specifier: string): V | undefined
  /** What a default import of a module gives; default: the module itself. */
  defaultImport?(module: V): V | undefined
  member(object: V, name: string): V | undefined
  /** The value of a name no scope around it declares. */
  global(name: string): V | undefined
  join(values: ReadonlyArray<V | JsString | undefined>): V | JsString | undefined
  /** The value of `this`; default nothing. */
  this?(): V | undefined
  /** What a call returns, when it is not a `require` or `import()`; default nothing. */
  call?(callee: V | JsString | undefined, node: Node, resolver: ScriptResolver<V>): V | undefined
  /** The value of a function's first parameter (`name` as written, or `context`); default nothing. */
  parameter?(fn: Node, name: string, resolver: ScriptResolver<V>): V | undefined
  /** A declared name whose every binding has no value: nothing, or the global of that name. */
  unknownLocal?: 'nothing' | 'global'
}

/** Where a name gets its value: an expression, an import, a parameter (with a member path). */
type Site =
  | { kind: 'expr'; node: Node; key: string[] }
  | { kind: 'import'; specifier: string; take: 'default' | 'namespace' | { name: string } }
  | { kind: 'param'; fn: Node; name: string; key: string[] }
  | { kind: 'opaque' }

const OPAQUE: Site = { kind: 'opaque' }

/** Nodes that open a scope for the names declared in them (blocks are not told apart). */
export const JS_SCOPES: ReadonlySet<string> = new Set([
  'program',
  'function_declaration',
  'function_expression',
  'function',
  'arrow_function',
  'method_definition',
  'generator_function',
  'generator_function_declaration'
])

export class ScriptResolver<V extends { kind: string }> {
  private readonly sites = new Bindings<Site>(JS_SCOPES)
  private readonly values = new NodeValues<V | JsString>(node => this.compute(node))
  private readonly resolving = new Set<string>()

  constructor(
    root: Node,
    private readonly domain: ScriptDomain<V>
  ) {
    for (const node of root.descendantsOfType([
      'import_statement',
      'variable_declarator',
      'assignment_expression',
      'formal_parameters',
      'arrow_function'
    ])) {
      if (node) this.declare(node)
    }
  }

  valueOf(node: Node | null | undefined): V | JsString | undefined {
    return this.values.of(node ?? null)
  }

  stringOf(node: Node | null | undefined): string | undefined {
    const value = this.valueOf(node)
    return value?.kind === 'string' ? (value as JsString).value : undefined
  }

  /** Whether a scope around `name` declares it with a value the resolver follows. */
  bound(name: Node): boolean {
    const sites = this.sites.visible(identifierName(name), name)
    return sites !== undefined && sites.some(site => this.siteValue(site) !== undefined)
  }

  /** The expression a name is declared with as a whole (`const opts = { skip: true }`). */
  declaration(name: Node): Node | null {
    const sites = this.sites.visible(identifierName(name), name)
    const site = sites?.find(s => s.kind === 'expr' && s.key.length === 0)
    return site?.kind === 'expr' ? site.node : null
  }

  /** A property key's name: an identifier, a string, a computed key that folds to one. */
  propertyKey(node: Node | null): string | undefined {
    if (node === null) return undefined
    if (node.type === 'property_identifier' || node.type === 'identifier')
      return identifierName(node)
    if (node.type === 'computed_property_name') return this.stringOf(node.namedChildren[0])
    return this.stringOf(node)
  }

  // ------------------------------------------------------------ declarations

  private declare(node: Node): void {
    if (node.type === 'import_statement') return this.declareImport(node)
    if (node.type === 'formal_parameters') return this.declareParams(node)
    if (node.type === 'arrow_function') {
      // `t => t.skip()`: a single parameter without parentheses.
      const param = node.childForFieldName('parameter')
      if (param) this.bindPattern(param, node, key => paramSite(node, param, key, 0))
      return
    }
    const target = node.childForFieldName(node.type === 'variable_declarator' ? 'name' : 'left')
    const value = node.childForFieldName(node.type === 'variable_declarator' ? 'value' : 'right')
    if (!target) return
    this.bindPattern(target, scopeOf(node), key =>
      value ? { kind: 'expr', node: value, key } : OPAQUE
    )
  }

  private declareImport(node: Node): void {
    const source = node.childForFieldName('source')
    const specifier = source === null ? undefined : stringValue(source)
    const scope = scopeOf(node)
    for (const clause of node.namedChildren) {
      if (clause?.type !== 'import_clause') continue
      for (const part of clause.namedChildren) {
        if (!part) continue
        const site = (take: Extract<Site, { kind: 'import' }>['take']): Site =>
          specifier === undefined ? OPAQUE : { kind: 'import', specifier, take }
        if (part.type === 'identifier') this.site(part, scope, site('default'))
        else if (part.type === 'namespace_import') {
          const name = part.namedChildren.find(c => c?.type === 'identifier')
          if (name) this.site(name, scope, site('namespace'))
        } else if (part.type === 'named_imports') {
          for (const spec of part.namedChildren) {
            const imported = spec?.childForFieldName('name')
            const local = spec?.childForFieldName('alias') ?? imported
            if (imported && local) this.site(local, scope, site({ name: identifierName(imported) }))
          }
        }
      }
    }
  }

  private declareParams(params: Node): void {
    const fn = params.parent
    params.namedChildren.forEach((param, i) => {
      if (!param || !fn) return
      const pattern =
        param.type === 'required_parameter' || param.type === 'optional_parameter'
          ? param.childForFieldName('pattern')
          : param
      if (pattern) this.bindPattern(pattern, fn, key => paramSite(fn, pattern, key, i))
    })
  }

  /** Binds every name a pattern declares; `key` is the member path to it from the value. */
  private bindPattern(
    pattern: Node,
    scope: Node,
    site: (key: string[]) => Site,
    key: string[] = []
  ): void {
    const inner = (child: Node, how: (key: string[]) => Site, path: string[]): void =>
      this.bindPattern(child, scope, how, path)
    switch (pattern.type) {
      case 'identifier':
        this.site(pattern, scope, site(key))
        return
      case 'assignment_pattern':
      case 'object_assignment_pattern': {
        const left = pattern.childForFieldName('left') ?? pattern.namedChildren[0]
        if (left) inner(left, site, key)
        return
      }
      case 'shorthand_property_identifier_pattern':
        this.site(pattern, scope, site([...key, identifierName(pattern)]))
        return
      case 'pair_pattern': {
        const name = this.propertyKey(pattern.childForFieldName('key'))
        const value = pattern.childForFieldName('value')
        if (value) inner(value, name === undefined ? () => OPAQUE : site, [...key, name ?? ''])
        return
      }
      case 'object_pattern':
      case 'array_pattern':
        for (const child of pattern.namedChildren) {
          if (child) inner(child, pattern.type === 'array_pattern' ? () => OPAQUE : site, key)
        }
        return
      case 'rest_pattern':
        for (const child of pattern.namedChildren) if (child) inner(child, () => OPAQUE, key)
        return
      default:
        return
    }
  }

  private site(name: Node, scope: Node, site: Site): void {
    this.sites.bind(identifierName(name), scope, site)
  }

  // ------------------------------------------------------------ values

  private compute(node: Node): V | JsString | undefined {
    switch (node.type) {
      case 'identifier':
      case 'shorthand_property_identifier':
        return this.lookup(identifierName(node), node)
      case 'this':
        return this.domain.this?.()
      case 'member_expression': {
        const property = node.childForFieldName('property')
        const object = this.valueOf(node.childForFieldName('object'))
        return property ? this.member(object, identifierName(property)) : undefined
      }
      case 'subscript_expression': {
        const index = this.stringOf(node.childForFieldName('index'))
        const object = this.valueOf(node.childForFieldName('object'))
        return index === undefined ? undefined : this.member(object, index)
      }
      case 'call_expression': {
        const specifier = requiredModule(node, n => this.stringOf(n))
        if (specifier !== undefined) return this.domain.module(specifier)
        const folded = this.foldCall(node)
        if (folded !== undefined) return folded
        const reflected = this.reflectGet(node)
        if (reflected !== undefined) return reflected
        return this.domain.call?.(this.valueOf(node.childForFieldName('function')), node, this)
      }
      case 'string':
        return str(stringValue(node) ?? '')
      case 'template_string':
        return this.template(node)
      case 'binary_expression':
        return this.binary(node)
      case 'ternary_expression':
        return this.domain.join([
          this.valueOf(node.childForFieldName('consequence')),
          this.valueOf(node.childForFieldName('alternative'))
        ])
      case 'parenthesized_expression':
      case 'sequence_expression':
      case 'as_expression':
      case 'satisfies_expression':
      case 'non_null_expression':
      case 'type_assertion':
      case 'await_expression':
        return this.valueOf(lastExpression(node))
      default:
        return undefined
    }
  }

  // ------------------------------------------------------------ strings built at run time

  /** A template whose every substitution folds. */
  private template(node: Node): JsString | undefined {
    let out = ''
    let at = node.startIndex + 1
    for (const sub of node.namedChildren) {
      if (sub?.type !== 'template_substitution') continue
      out += decodeEscapes(node.text.slice(at - node.startIndex, sub.startIndex - node.startIndex))
      const part = this.stringOf(sub.namedChildren[0])
      if (part === undefined) return undefined
      out += part
      at = sub.endIndex
    }
    return str(out + decodeEscapes(node.text.slice(at - node.startIndex, -1)))
  }

  /** The strings of an array built from constants: a literal, `s.split(x)`, `[...s]`, `.reverse()`. */
  stringsOf(node: Node | null | undefined): string[] | undefined {
    if (!node) return undefined
    if (node.type === 'parenthesized_expression') return this.stringsOf(lastExpression(node))
    if (node.type === 'array') {
      const out: string[] = []
      for (const item of node.namedChildren) {
        if (item?.type === 'spread_element') {
          const text = this.stringOf(item.namedChildren[0])
          if (text === undefined) return undefined
          out.push(...text)
          continue
        }
        const text = this.stringOf(item)
        if (text === undefined) return undefined
        out.push(text)
      }
      return out
    }
    if (node.type !== 'call_expression') return undefined
    const fn = node.childForFieldName('function')
    const args = callArguments(node)
    if (fn?.type !== 'member_expression') return undefined
    const method = fn.childForFieldName('property')?.text
    const object = fn.childForFieldName('object')
    if (method === 'split') {
      const text = this.stringOf(object)
      const sep = this.stringOf(args[0])
      return text === undefined || sep === undefined ? undefined : text.split(sep)
    }
    if (method === 'reverse') return this.stringsOf(object)?.reverse()
    if (method === 'from' && object?.text === 'Array') {
      const text = this.stringOf(args[0])
      return text === undefined ? undefined : [...text]
    }
    return undefined
  }

  /** A call that builds a string from constants: string methods, `join`, decoders, char codes. */
  private foldCall(node: Node): JsString | undefined {
    const fn = node.childForFieldName('function')
    const args = callArguments(node)
    const strings = args.map(a => this.stringOf(a))
    if (fn?.type === 'identifier') {
      const name = identifierName(fn)
      if (this.sites.visible(name, fn) !== undefined || strings[0] === undefined) return undefined
      const value = globalDecoder(name, strings[0])
      return value === undefined ? undefined : str(value)
    }
    if (fn?.type !== 'member_expression') return undefined
    const method = fn.childForFieldName('property')?.text ?? ''
    const object = fn.childForFieldName('object')
    if (method === 'join') {
      const parts = this.stringsOf(object)
      const sep = args.length === 0 ? ',' : strings[0]
      return parts === undefined || sep === undefined ? undefined : str(parts.join(sep))
    }
    if ((method === 'fromCharCode' || method === 'fromCodePoint') && object?.text === 'String') {
      const value = fromCodes(args.map(numberOf))
      return value === undefined ? undefined : str(value)
    }
    const self = this.bufferText(object) ?? this.stringOf(object)
    if (self === undefined) return undefined
    const value = stringMethod(
      self,
      method,
      args.map((a, i) => strings[i] ?? numberOf(a))
    )
    return value === undefined ? undefined : str(value)
  }

  /** `Reflect.get(o, k)` is `o[k]`. */
  private reflectGet(node: Node): V | undefined {
    if (node.childForFieldName('function')?.text !== 'Reflect.get') return undefined
    const [object, key] = callArguments(node)
    const name = this.stringOf(key)
    return name === undefined ? undefined : this.member(this.valueOf(object), name)
  }

  /** `Buffer.from(s, encoding)`: the text it holds. */
  private bufferText(node: Node | null): string | undefined {
    if (node?.type !== 'call_expression') return undefined
    const fn = node.childForFieldName('function')
    if (fn?.text !== 'Buffer.from') return undefined
    const [data, encoding] = callArguments(node).map(a => this.stringOf(a))
    return data === undefined ? undefined : decodeAs(data, encoding ?? 'utf8')
  }

  private member(object: V | JsString | undefined, name: string): V | undefined {
    return object === undefined || object.kind === 'string'
      ? undefined
      : this.domain.member(object as V, name)
  }

  private binary(node: Node): V | JsString | undefined {
    const operator = node.childForFieldName('operator')?.text
    const left = this.valueOf(node.childForFieldName('left'))
    const right = this.valueOf(node.childForFieldName('right'))
    if (operator === '+' && left?.kind === 'string' && right?.kind === 'string')
      return str((left as JsString).value + (right as JsString).value)
    // `a || test.skip`, `cond && test.only`: either may be the value.
    if (operator === '||' || operator === '&&' || operator === '??')
      return this.domain.join([left, right])
    return undefined
  }

  /** The value of a name where `from` reads it: its innermost declaring scope decides. */
  private lookup(name: string, from: Node): V | JsString | undefined {
    const sites = this.sites.visible(name, from)
    if (sites === undefined) return this.domain.global(name)
    if (this.resolving.has(name)) return undefined
    this.resolving.add(name)
    try {
      const value = this.domain.join(sites.map(site => this.siteValue(site)))
      if (value === undefined && this.domain.unknownLocal === 'global')
        return this.domain.global(name)
      return value
    } finally {
      this.resolving.delete(name)
    }
  }

  private siteValue(site: Site): V | JsString | undefined {
    switch (site.kind) {
      case 'opaque':
        return undefined
      case 'import': {
        const module = this.domain.module(site.specifier)
        if (module === undefined || site.take === 'namespace') return module
        if (site.take === 'default')
          return this.domain.defaultImport ? this.domain.defaultImport(module) : module
        return this.domain.member(module, site.take.name)
      }
      case 'expr':
      case 'param': {
        const base =
          site.kind === 'expr'
            ? this.valueOf(site.node)
            : this.domain.parameter?.(site.fn, site.name, this)
        return site.key.reduce<V | JsString | undefined>(
          (value, prop) => this.member(value, prop),
          base
        )
      }
    }
  }
}

/**
 * Only a callback's first parameter can be a test context; the others still bind (and so
 * shadow a global of the same name).
 */
function paramSite(fn: Node, pattern: Node, key: string[], position: number): Site {
  if (position > 0) return OPAQUE
  const name = pattern.type === 'identifier' ? identifierName(pattern) : 'context'
  return { kind: 'param', fn, name, key }
}

// ------------------------------------------------------------------ syntax

/**
 * The module of `require('m')`, `module.require('m')`, what createRequire() made (called
 * `require` or `*Require`; other names are not followed) or `import('m')`, with a constant
 * argument (or one `fold` builds from constants).
 */
export function requiredModule(
  call: Node,
  fold?: (node: Node) => string | undefined
): string | undefined {
  const fn = call.childForFieldName('function')
  if (!fn || (fn.type !== 'import' && !/(^|\.)require$|Require$/.test(fn.text))) return undefined
  const arg = call.childForFieldName('arguments')?.namedChildren[0]
  return arg ? (scriptStringValue(arg) ?? fold?.(arg)) : undefined
}

export function scopeOf(node: Node): Node {
  let n: Node = node
  while (n.parent !== null && !JS_SCOPES.has(n.type)) n = n.parent
  return n
}

/** An identifier's name with its escapes decoded: `sk\u0069p` is `skip`. */
export function identifierName(node: Node): string {
  const text = node.text
  if (!text.includes('\\')) return text
  return text.replace(
    /\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g,
    (_m, braced?: string, four?: string) =>
      String.fromCodePoint(Number.parseInt(braced ?? four ?? '0', 16))
  )
}

/** A string literal's value, escapes decoded; undefined for any other node. */
export function stringValue(node: Node): string | undefined {
  if (node.type !== 'string') return undefined
  return decodeEscapes(node.text.slice(1, -1))
}

/** A string literal's or a constant template's value; undefined for any other node. */
export function scriptStringValue(node: Node): string | undefined {
  if (node.type === 'string') return decodeEscapes(node.text.slice(1, -1))
  if (
    node.type === 'template_string' &&
    node.descendantsOfType('template_substitution').length === 0
  )
    return decodeEscapes(node.text.slice(1, -1))
  return undefined
}

export function lastExpression(node: Node): Node | null {
  const named = node.namedChildren.filter(c => c !== null && !c.type.startsWith('type'))
  if (node.type === 'as_expression' || node.type === 'satisfies_expression') return named[0] ?? null
  return named[named.length - 1] ?? null
}

function callArguments(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter(Boolean) as Node[]
}

/** A number literal's value. */
function numberOf(node: Node | undefined): number | undefined {
  if (node?.type !== 'number') return undefined
  const value = Number(node.text.replace(/_/g, ''))
  return Number.isFinite(value) ? value : undefined
}

/** Global functions that decode a constant: `atob`, `decodeURIComponent`, `String`. */
function globalDecoder(name: string, value: string): string | undefined {
  if (name === 'atob') return fromBase64(value)
  if (name === 'String') return value
  if (name === 'decodeURIComponent' || name === 'decodeURI' || name === 'unescape') {
    try {
      return decodeURIComponent(value)
    } catch {
      return undefined
    }
  }
  return undefined
}

function str(value: string): JsString {
  return { kind: 'string', value }
}
