// Suppressions in JavaScript and TypeScript, read off the tree-sitter syntax tree rather
// than the text: a marker is any expression whose value is a test framework's skipping or
// focusing function, however it is spelled. `test.skip`, `test['skip']`, `test.sk\u0069p`,
// `const t = test; t.skip`, `import * as v from 'vitest'; v.it.only`, `const { skip } =
// test`, the test context's `({ skip }) => skip()` and node:test's `{ skip: <expression> }`
// all have the same value, so all are the same marker. Pure: a tree in, plain data out.
//
// The evaluation is deliberately small: names bind per function (blocks are not told
// apart), strings fold through `+` and constants, and anything it cannot follow has no
// value. Test calls found the same way give the units (test titles inside describe titles)
// a marker belongs to. The values themselves: script-values.ts; helper modules:
// script-exports.ts.
import type { Node, Tree } from 'web-tree-sitter'
import { decodeEscapes } from '../extract.js'
import { Bindings, NodeValues } from '../resolve/scope.js'
import { addHit } from './markers.js'
import type { HelperExports, MarkerHit } from './markers.js'
import {
  CONTEXT_NAMES,
  FRAMEWORKS,
  GROUP_FUNCTIONS,
  OPTION_KEYS,
  SCOPES,
  globalValue,
  identifierName,
  isDeclarationName,
  isFalsyLiteral,
  lastExpression,
  markerPosition,
  member,
  scopeOf,
  strongest,
  stringValue,
  titleText,
  type Value
} from './script-values.js'

/** A test call: its title and the lines it spans (1-based, inclusive). */
export interface TestSpan {
  title: string
  group: boolean
  from: number
  to: number
}

export interface ScriptMarkers {
  /** Markers by 1-based line. */
  hits: Map<number, MarkerHit[]>
  spans: TestSpan[]
}

export interface ScriptOptions {
  /**
   * A production file (a helper module): only the framework's own markers count there
   * (`this.skip()` or `t.skip()` in production code is a lexer's, not a test's).
   */
  production?: boolean
  /** The marked exports of a module this file imports by a relative path, if known. */
  helpers?: (specifier: string) => HelperExports | undefined
}

/** Where a name gets its value: an expression, an import, a test callback's parameter. */
type Site =
  | { kind: 'expr'; node: Node; key: string[] }
  | { kind: 'value'; value: Value | undefined }
  | { kind: 'param'; fn: Node; name: string; key: string[] }

const opaque: Site = { kind: 'value', value: undefined }

export function scriptMarkers(tree: Tree, options: ScriptOptions = {}): ScriptMarkers {
  return new Analysis(tree, options).run()
}

class Analysis {
  /** name → scope node id → the sites declaring it there. */
  private readonly sites = new Bindings<Site>(SCOPES)
  private readonly values = new NodeValues<Value>(node => this.compute(node))
  private readonly resolving = new Set<string>()
  private readonly hits = new Map<number, MarkerHit[]>()

  private readonly production: boolean

  constructor(
    private readonly tree: Tree,
    private readonly options: ScriptOptions
  ) {
    this.production = options.production ?? false
  }

  run(): ScriptMarkers {
    const root = this.tree.rootNode
    for (const node of root.descendantsOfType([
      'import_statement',
      'variable_declarator',
      'assignment_expression',
      'formal_parameters',
      'arrow_function'
    ])) {
      if (node) this.declare(node)
    }
    for (const node of root.descendantsOfType([
      'identifier',
      'this',
      'member_expression',
      'subscript_expression'
    ])) {
      if (node) this.reference(node)
    }
    const spans: TestSpan[] = []
    for (const call of root.descendantsOfType('call_expression')) {
      if (!call) continue
      const span = this.testCall(call)
      if (span) spans.push(span)
    }
    return { hits: this.hits, spans }
  }

  // ------------------------------------------------------------ declarations

  private declare(node: Node): void {
    if (node.type === 'import_statement') return this.declareImport(node)
    if (node.type === 'formal_parameters') return this.declareParams(node)
    if (node.type === 'arrow_function') {
      // `t => t.skip()`: a single parameter without parentheses.
      const param = node.childForFieldName('parameter')
      if (param) this.bindPattern(param, node, key => this.paramSite(node, param, key, 0))
      return
    }
    const target = node.childForFieldName(node.type === 'variable_declarator' ? 'name' : 'left')
    const value = node.childForFieldName(node.type === 'variable_declarator' ? 'value' : 'right')
    if (!target) return
    this.bindPattern(target, scopeOf(node), key =>
      value ? { kind: 'expr', node: value, key } : opaque
    )
  }

  private declareImport(node: Node): void {
    const source = node.childForFieldName('source')
    const module = this.moduleValue(source === null ? undefined : stringValue(source))
    for (const clause of node.namedChildren) {
      if (clause?.type !== 'import_clause') continue
      for (const part of clause.namedChildren) {
        if (!part) continue
        if (part.type === 'identifier') {
          // A default import: node:test's default export is `test` itself.
          const value = module?.kind === 'helpers' ? member(module, 'default') : module
          this.site(part, scopeOf(node), { kind: 'value', value })
        } else if (part.type === 'namespace_import') {
          const name = part.namedChildren.find(c => c?.type === 'identifier')
          if (name) this.site(name, scopeOf(node), { kind: 'value', value: module })
        } else if (part.type === 'named_imports') {
          for (const spec of part.namedChildren) {
            const imported = spec?.childForFieldName('name')
            const local = spec?.childForFieldName('alias') ?? imported
            if (!imported || !local) continue
            const value = module ? member(module, identifierName(imported)) : undefined
            this.site(local, scopeOf(node), { kind: 'value', value })
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
      if (pattern) this.bindPattern(pattern, fn, key => this.paramSite(fn, pattern, key, i))
    })
  }

  /**
   * Only a callback's first parameter can be the test context; the others still bind (and
   * so shadow a global of the same name).
   */
  private paramSite(fn: Node, pattern: Node, key: string[], position: number): Site {
    if (position > 0) return opaque
    const name = pattern.type === 'identifier' ? identifierName(pattern) : 'context'
    return { kind: 'param', fn, name, key }
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
        if (value) inner(value, name === undefined ? () => opaque : site, [...key, name ?? ''])
        return
      }
      case 'object_pattern':
      case 'array_pattern':
        for (const child of pattern.namedChildren) {
          if (child) inner(child, pattern.type === 'array_pattern' ? () => opaque : site, key)
        }
        return
      case 'rest_pattern':
        for (const child of pattern.namedChildren) if (child) inner(child, () => opaque, key)
        return
      default:
        return
    }
  }

  private site(name: Node, scope: Node, site: Site): void {
    this.sites.bind(identifierName(name), scope, site)
  }

  // ------------------------------------------------------------ values

  private valueOf(node: Node | null): Value | undefined {
    return this.values.of(node)
  }

  private compute(node: Node): Value | undefined {
    switch (node.type) {
      case 'identifier':
      case 'shorthand_property_identifier':
        return this.lookup(identifierName(node), node)
      case 'this':
        return this.production ? undefined : { kind: 'context', name: 'this' }
      case 'member_expression': {
        const property = node.childForFieldName('property')
        const object = this.valueOf(node.childForFieldName('object'))
        return property && object ? member(object, identifierName(property)) : undefined
      }
      case 'subscript_expression': {
        const index = this.valueOf(node.childForFieldName('index'))
        const object = this.valueOf(node.childForFieldName('object'))
        return index?.kind === 'string' && object ? member(object, index.value) : undefined
      }
      case 'call_expression': {
        const callee = node.childForFieldName('function')
        if (callee?.type === 'identifier' && callee.text === 'require') return this.required(node)
        // test.each(table) and test.skipIf(cond) return test functions.
        const fn = this.valueOf(callee)
        return fn?.kind === 'root' || fn?.kind === 'marker' ? fn : undefined
      }
      case 'string':
        return { kind: 'string', value: stringValue(node) ?? '' }
      case 'template_string':
        return node.namedChildren.some(c => c?.type === 'template_substitution')
          ? undefined
          : { kind: 'string', value: decodeEscapes(node.text.slice(1, -1)) }
      case 'binary_expression':
        return this.binary(node)
      case 'ternary_expression':
        return strongest([
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

  private binary(node: Node): Value | undefined {
    const operator = node.childForFieldName('operator')?.text
    const left = this.valueOf(node.childForFieldName('left'))
    const right = this.valueOf(node.childForFieldName('right'))
    if (operator === '+' && left?.kind === 'string' && right?.kind === 'string')
      return { kind: 'string', value: left.value + right.value }
    // `a || test.skip`, `cond && test.only`: the marker is one of the values.
    if (operator === '||' || operator === '&&' || operator === '??') return strongest([left, right])
    return undefined
  }

  private required(call: Node): Value | undefined {
    const arg = call.childForFieldName('arguments')?.namedChildren[0]
    return this.moduleValue(arg ? stringValue(arg) : undefined)
  }

  /** What importing a module gives: a framework, a helper module with marked exports, or nothing. */
  private moduleValue(specifier: string | undefined): Value | undefined {
    if (specifier === undefined) return undefined
    if (FRAMEWORKS.has(specifier))
      return { kind: 'module', callable: specifier === 'node:test' ? 'test' : undefined }
    const exports = specifier.startsWith('.') ? this.options.helpers?.(specifier) : undefined
    return exports && exports.size > 0 ? { kind: 'helpers', specifier, exports } : undefined
  }

  /** The value of a name where `from` reads it: its innermost declaring scope decides. */
  private lookup(name: string, from: Node): Value | undefined {
    const sites = this.sites.visible(name, from)
    if (sites === undefined) return globalValue(name)
    if (this.resolving.has(name)) return undefined
    this.resolving.add(name)
    try {
      return strongest(sites.map(site => this.siteValue(site)))
    } finally {
      this.resolving.delete(name)
    }
  }

  private siteValue(site: Site): Value | undefined {
    if (site.kind === 'value') return site.value
    const base =
      site.kind === 'expr'
        ? this.valueOf(site.node)
        : this.isTestCallback(site.fn)
          ? ({ kind: 'context', name: site.name } as const)
          : undefined
    return site.key.reduce<Value | undefined>(
      (value, prop) => (value === undefined ? undefined : member(value, prop)),
      base
    )
  }

  /** A function passed to a test call or a hook: its first parameter is the test context. */
  private isTestCallback(fn: Node): boolean {
    const args = fn.parent
    const call = args?.parent
    if (args?.type !== 'arguments' || call?.type !== 'call_expression') return false
    const callee = this.valueOf(call.childForFieldName('function'))
    return callee?.kind === 'root' || callee?.kind === 'marker' || callee?.kind === 'hook'
  }

  private propertyKey(node: Node | null): string | undefined {
    if (node === null) return undefined
    if (node.type === 'property_identifier' || node.type === 'identifier')
      return identifierName(node)
    if (node.type === 'computed_property_name') {
      const inner = this.valueOf(node.namedChildren[0] ?? null)
      return inner?.kind === 'string' ? inner.value : undefined
    }
    const value = this.valueOf(node)
    return value?.kind === 'string' ? value.value : undefined
  }

  // ------------------------------------------------------------ findings

  /** A marker whose value is made here (its object, if any, is not a marker already). */
  private reference(node: Node): void {
    if (isDeclarationName(node)) return
    const value = this.valueOf(node)
    let hit: MarkerHit | undefined
    if (value?.kind === 'marker') {
      const object = node.childForFieldName('object')
      if (object && this.valueOf(object)?.kind === 'marker') return
      hit = { label: value.label, silencesOthers: value.only, column: 0 }
    } else if (node.type === 'member_expression' && !this.production) {
      hit = this.legacyContextSkip(node)
    }
    if (hit === undefined) return
    const at = markerPosition(node)
    this.add(at.row + 1, { ...hit, column: at.column + 1 })
  }

  /** `ctx.skip()` / `t.skip()` on a name the gate cannot follow (the old line rule). */
  private legacyContextSkip(node: Node): MarkerHit | undefined {
    const object = node.childForFieldName('object')
    const property = node.childForFieldName('property')
    if (object?.type !== 'identifier' || !property || identifierName(property) !== 'skip')
      return undefined
    const name = identifierName(object)
    if (!CONTEXT_NAMES.has(name) || this.valueOf(object) !== undefined) return undefined
    if (node.parent?.type !== 'call_expression') return undefined
    return { label: `${name}.skip(`, silencesOthers: false, column: 0 }
  }

  private add(line: number, hit: MarkerHit): void {
    addHit(this.hits, line, hit)
  }

  /** A test call: its options are checked for markers, its title makes a span. */
  private testCall(call: Node): TestSpan | undefined {
    const callee = this.valueOf(call.childForFieldName('function'))
    if (callee?.kind !== 'root' && callee?.kind !== 'marker') return undefined
    const args = call.childForFieldName('arguments')?.namedChildren ?? []
    for (const arg of args) if (arg) this.testOptions(arg)
    const first = args[0]
    if (!first || (first.type !== 'string' && first.type !== 'template_string')) return undefined
    return {
      title: titleText(first.text),
      group: GROUP_FUNCTIONS.has(callee.kind === 'root' ? callee.name : callee.root),
      from: call.startPosition.row + 1,
      to: call.endPosition.row + 1
    }
  }

  /** The object literal a name is declared with (`const opts = { skip: true }`), if any. */
  private declaredObject(name: Node): Node | null {
    const sites = this.sites.visible(identifierName(name), name)
    const site = sites?.find(s => s.kind === 'expr' && s.key.length === 0)
    return site?.kind === 'expr' ? site.node : null
  }

  /** `{ skip: <anything but a falsy literal> }` among a test call's arguments. */
  private testOptions(arg: Node): void {
    let object: Node | null = arg
    if (arg.type === 'identifier') object = this.declaredObject(arg)
    if (object?.type !== 'object') return
    for (const entry of object.namedChildren) {
      if (!entry) continue
      const shorthand = entry.type === 'shorthand_property_identifier'
      if (!shorthand && entry.type !== 'pair') continue
      const key = shorthand
        ? identifierName(entry)
        : this.propertyKey(entry.childForFieldName('key'))
      if (key === undefined || !OPTION_KEYS.has(key)) continue
      const value = shorthand ? entry : entry.childForFieldName('value')
      if (value && isFalsyLiteral(value)) continue
      this.add(entry.startPosition.row + 1, {
        label: `{ ${key}: ... }`,
        silencesOthers: key === 'only',
        column: entry.startPosition.column + 1
      })
    }
  }
}
