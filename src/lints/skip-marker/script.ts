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
import { identifierName, ScriptResolver, type ScriptDomain } from '../resolve/script.js'
import { MarkerReader, type HelperExports, type MarkerHit } from './markers.js'
import {
  CONTEXT_NAMES,
  FRAMEWORKS,
  GROUP_FUNCTIONS,
  OPTION_KEYS,
  globalValue,
  isDeclarationName,
  isFalsyLiteral,
  markerPosition,
  member,
  strongest,
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

export function scriptMarkers(tree: Tree, options: ScriptOptions = {}): ScriptMarkers {
  return new Analysis(tree, options).run()
}

/** What skip-marker says JS names are: the test functions, their markers, marked helpers. */
function markerDomain(options: ScriptOptions): ScriptDomain<Value> {
  const production = options.production ?? false
  return {
    // What importing a module gives: a framework, a helper module with marked exports, or nothing.
    module: specifier => {
      if (FRAMEWORKS.has(specifier))
        return { kind: 'module', callable: specifier === 'node:test' ? 'test' : undefined }
      const exports = specifier.startsWith('.') ? options.helpers?.(specifier) : undefined
      return exports && exports.size > 0 ? { kind: 'helpers', specifier, exports } : undefined
    },
    // A default import: node:test's default export is `test` itself.
    defaultImport: module => (module.kind === 'helpers' ? member(module, 'default') : module),
    member,
    global: globalValue,
    join: strongest,
    this: () => (production ? undefined : { kind: 'context', name: 'this' }),
    // test.each(table) and test.skipIf(cond) return test functions.
    call: fn => (fn?.kind === 'root' || fn?.kind === 'marker' ? fn : undefined),
    // A function passed to a test call or a hook: its first parameter is the test context.
    parameter: (fn, name, resolver) => {
      const args = fn.parent
      const call = args?.parent
      if (args?.type !== 'arguments' || call?.type !== 'call_expression') return undefined
      const callee = resolver.valueOf(call.childForFieldName('function'))
      return callee?.kind === 'root' || callee?.kind === 'marker' || callee?.kind === 'hook'
        ? { kind: 'context', name }
        : undefined
    }
  }
}

class Analysis extends MarkerReader<Value, ScriptResolver<Value>> {
  constructor(tree: Tree, options: ScriptOptions) {
    const resolver = new ScriptResolver(tree.rootNode, markerDomain(options))
    super(tree.rootNode, options.production ?? false, resolver)
  }

  run(): ScriptMarkers {
    const root = this.root
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

  /** `{ skip: <anything but a falsy literal> }` among a test call's arguments. */
  private testOptions(arg: Node): void {
    let object: Node | null = arg
    if (arg.type === 'identifier') object = this.resolver.declaration(arg)
    if (object?.type !== 'object') return
    for (const entry of object.namedChildren) {
      if (!entry) continue
      const shorthand = entry.type === 'shorthand_property_identifier'
      if (!shorthand && entry.type !== 'pair') continue
      const key = shorthand
        ? identifierName(entry)
        : this.resolver.propertyKey(entry.childForFieldName('key'))
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
