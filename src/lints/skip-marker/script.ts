// Suppressions in JavaScript and TypeScript, read off the tree-sitter syntax tree rather
// than the text: a marker is any expression whose value is a test framework's skipping or
// focusing function, however it is spelled. `test.skip`, `test['skip']`, `test.sk\u0069p`,
// `const t = test; t.skip`, `import * as v from 'vitest'; v.it.only`, `const { skip } =
// test`, the test context's `({ skip }) => skip()` and node:test's `{ skip: <expression> }`
// all have the same value, so all are the same marker. Pure: a tree in, plain data out.
//
// The evaluation is deliberately small: names bind per file (not per block), strings fold
// through `+` and constants, and anything it cannot follow has no value. Test calls found
// the same way give the units (test titles inside describe titles) a marker belongs to.
import type { Node, Tree } from 'web-tree-sitter'
import { decodeEscapes } from '../extract.js'
import type { MarkerHit } from './markers.js'

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

/** The exports of a module that carry a marker: export name → that marker. */
export type HelperExports = ReadonlyMap<string, { label: string; only: boolean }>

export interface ScriptOptions {
  /**
   * A production file (a helper module): only the framework's own markers count there
   * (`this.skip()` or `t.skip()` in production code is a lexer's, not a test's).
   */
  production?: boolean
  /** The marked exports of a module this file imports by a relative path, if known. */
  helpers?: (specifier: string) => HelperExports | undefined
}

/** Globals of the test frameworks that declare tests or groups (mocha, jest, vitest, bun). */
const TEST_FUNCTIONS = new Set(['it', 'test', 'specify', 'bench'])
const GROUP_FUNCTIONS = new Set(['describe', 'suite', 'context'])
/** Globals that are markers by themselves: x* skip, f* focus (jasmine, jest, mocha). */
const MARKER_GLOBALS: Readonly<Record<string, { root: string; only: boolean }>> = {
  xit: { root: 'it', only: false },
  xtest: { root: 'test', only: false },
  xspecify: { root: 'specify', only: false },
  xdescribe: { root: 'describe', only: false },
  xcontext: { root: 'context', only: false },
  fit: { root: 'it', only: true },
  fdescribe: { root: 'describe', only: true },
  fcontext: { root: 'context', only: true }
}
/** Members of a test function that skip, focus, or invert it. */
const MODIFIERS = new Set(['only', 'skip', 'skipIf', 'runIf', 'todo', 'fails', 'failing'])
/** Hooks whose callback receives the test context (vitest `ctx.skip()`). */
const HOOKS = new Set(['beforeEach', 'afterEach', 'beforeAll', 'afterAll', 'before', 'after'])
/** Modules whose exports are the test functions. */
const FRAMEWORKS = new Set([
  'vitest',
  '@jest/globals',
  'node:test',
  'test',
  'mocha',
  'bun:test',
  '@playwright/test'
])
/** The global object, through which the globals are reachable too. */
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'window', 'self'])
/** node:test and vitest options that skip or focus: test('x', { skip: true }, fn). */
const OPTION_KEYS = new Set(['skip', 'todo', 'only', 'fails'])
/** Context members that skip the running test, or run only the focused ones. */
const CONTEXT_MARKERS: Readonly<Record<string, boolean>> = {
  skip: false,
  todo: false,
  runOnly: true
}
/** Names the old line patterns treated as a test context whatever their binding. */
const CONTEXT_NAMES = new Set(['ctx', 'context', 't'])

type Value =
  | { kind: 'root'; name: string }
  | { kind: 'marker'; root: string; label: string; only: boolean }
  | { kind: 'module'; callable?: string }
  | { kind: 'hook' }
  | { kind: 'context'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'helpers'; specifier: string; exports: HelperExports }

/** Where a name gets its value: an expression, an import, a test callback's parameter. */
type Site =
  | { kind: 'expr'; node: Node; key: string[] }
  | { kind: 'value'; value: Value | undefined }
  | { kind: 'param'; fn: Node; name: string; key: string[] }

/** Nodes that open a scope for the names declared in them (blocks are not told apart). */
const SCOPES = new Set([
  'program',
  'function_declaration',
  'function_expression',
  'function',
  'arrow_function',
  'method_definition',
  'generator_function',
  'generator_function_declaration'
])

export function scriptMarkers(tree: Tree, options: ScriptOptions = {}): ScriptMarkers {
  return new Analysis(tree, options).run()
}

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

class Analysis {
  /** name → scope node id → the sites declaring it there. */
  private readonly sites = new Map<string, Map<number, Site[]>>()
  private readonly memo = new Map<number, Value | undefined>()
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
    const text = identifierName(name)
    let scopes = this.sites.get(text)
    if (scopes === undefined) this.sites.set(text, (scopes = new Map()))
    const list = scopes.get(scope.id)
    if (list) list.push(site)
    else scopes.set(scope.id, [site])
  }

  // ------------------------------------------------------------ values

  private valueOf(node: Node | null): Value | undefined {
    if (node === null) return undefined
    if (this.memo.has(node.id)) return this.memo.get(node.id)
    this.memo.set(node.id, undefined)
    const value = this.compute(node)
    this.memo.set(node.id, value)
    return value
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
    const scopes = this.sites.get(name)
    let sites: Site[] | undefined
    for (let n: Node | null = from; n !== null && sites === undefined; n = n.parent) {
      if (SCOPES.has(n.type)) sites = scopes?.get(n.id)
    }
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
    const list = this.hits.get(line)
    if (list === undefined) this.hits.set(line, [hit])
    else if (!list.some(h => h.label === hit.label)) list.push(hit)
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
    for (let n: Node | null = name; n !== null; n = n.parent) {
      if (!SCOPES.has(n.type)) continue
      const sites = this.sites.get(identifierName(name))?.get(n.id)
      if (sites === undefined) continue
      const site = sites.find(s => s.kind === 'expr' && s.key.length === 0)
      return site?.kind === 'expr' ? site.node : null
    }
    return null
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

const opaque: Site = { kind: 'value', value: undefined }

/** A name where it is declared or imported (the marker, if any, is counted where it is used). */
function isDeclarationName(node: Node): boolean {
  const parent = node.parent
  if (parent === null || node.type !== 'identifier') return false
  if (IMPORT_PARTS.has(parent.type)) return true
  return parent.type === 'variable_declarator' && parent.childForFieldName('name')?.id === node.id
}

const IMPORT_PARTS = new Set(['import_specifier', 'namespace_import', 'import_clause'])

function scopeOf(node: Node): Node {
  let n: Node = node
  while (n.parent !== null && !SCOPES.has(n.type)) n = n.parent
  return n
}

function globalValue(name: string): Value | undefined {
  if (TEST_FUNCTIONS.has(name) || GROUP_FUNCTIONS.has(name)) return { kind: 'root', name }
  const marker = MARKER_GLOBALS[name]
  if (marker) return { kind: 'marker', root: marker.root, label: name, only: marker.only }
  if (HOOKS.has(name)) return { kind: 'hook' }
  if (GLOBAL_OBJECTS.has(name)) return { kind: 'module' }
  return undefined
}

/** The value of `object.prop`. */
function member(object: Value, prop: string): Value | undefined {
  switch (object.kind) {
    case 'module':
      if (object.callable !== undefined && MODIFIERS.has(prop)) return marker(object.callable, prop)
      return globalValue(prop)
    case 'root':
      // test.each, test.concurrent, test.extend(...) are still test functions.
      return MODIFIERS.has(prop) ? marker(object.name, prop) : object
    case 'marker':
      return object
    case 'helpers': {
      const marked = object.exports.get(prop)
      return marked
        ? {
            kind: 'marker',
            root: 'test',
            label: `${marked.label} (${prop} from ${object.specifier})`,
            only: marked.only
          }
        : undefined
    }
    case 'context':
      if (prop in CONTEXT_MARKERS)
        return {
          kind: 'marker',
          root: 'test',
          label: `${object.name}.${prop}(`,
          only: CONTEXT_MARKERS[prop] ?? false
        }
      // node:test subtests: t.test('sub', { skip: true }, fn).
      return prop === 'test' ? { kind: 'root', name: 'test' } : undefined
    default:
      return undefined
  }
}

function marker(root: string, prop: string): Value {
  return { kind: 'marker', root, label: `${root}.${prop}`, only: prop === 'only' }
}

/** The most telling of several possible values: a marker beats a test function, etc. */
function strongest(values: ReadonlyArray<Value | undefined>): Value | undefined {
  const rank = (v: Value | undefined): number =>
    v === undefined
      ? 0
      : v.kind === 'marker'
        ? 6
        : v.kind === 'root'
          ? 5
          : v.kind === 'module'
            ? 4
            : v.kind === 'context'
              ? 3
              : v.kind === 'hook'
                ? 2
                : 1
  let best: Value | undefined
  for (const v of values) if (rank(v) > rank(best)) best = v
  return best
}

function lastExpression(node: Node): Node | null {
  const named = node.namedChildren.filter(c => c !== null && !c.type.startsWith('type'))
  if (node.type === 'as_expression' || node.type === 'satisfies_expression') return named[0] ?? null
  return named[named.length - 1] ?? null
}

/** Where a marker is written: the member's name, not the start of a long chain. */
function markerPosition(node: Node): { row: number; column: number } {
  const part = node.childForFieldName('property') ?? node.childForFieldName('index') ?? node
  return part.startPosition
}

/** An identifier's name with its escapes decoded: `sk\u0069p` is `skip`. */
function identifierName(node: Node): string {
  const text = node.text
  if (!text.includes('\\')) return text
  return text.replace(
    /\\u\{([0-9a-fA-F]+)\}|\\u([0-9a-fA-F]{4})/g,
    (_m, braced?: string, four?: string) =>
      String.fromCodePoint(Number.parseInt(braced ?? four ?? '0', 16))
  )
}

function stringValue(node: Node): string | undefined {
  if (node.type !== 'string') return undefined
  return decodeEscapes(node.text.slice(1, -1))
}

function isFalsyLiteral(node: Node): boolean {
  if (node.type === 'false' || node.type === 'null' || node.type === 'undefined') return true
  if (node.type === 'identifier' && node.text === 'undefined') return true
  if (node.type === 'number') return Number(node.text) === 0
  if (node.type === 'string') return node.text.length === 2
  return false
}

/** A title as the old line reader took it: quotes off, each backslash dropped before its character. */
function titleText(text: string): string {
  let out = ''
  for (let j = 1; j < text.length - 1; j++) {
    if (text[j] === '\\') {
      out += text[j + 1] ?? ''
      j++
      continue
    }
    out += text[j]
  }
  return out
}
