// The values skip-marker's JS/TS evaluation gives expressions (script.ts): what the test
// frameworks export, what a member of each is, and the small syntax helpers the evaluation
// shares. Pure data and functions of syntax nodes.
import type { Node } from 'web-tree-sitter'
import {
  JS_BENCH_FUNCTIONS,
  JS_GLOBAL_OBJECTS,
  JS_GROUP_FUNCTIONS,
  JS_HOOKS,
  JS_MARKER_GLOBALS,
  JS_TEST_FUNCTIONS,
  JS_TEST_MODIFIERS,
  JS_TEST_MODULES
} from '../tables.js'
import type { HelperExports } from './markers.js'

export { JS_GROUP_FUNCTIONS as GROUP_FUNCTIONS, JS_TEST_MODULES as FRAMEWORKS }
/** node:test and vitest options that skip or focus: test('x', { skip: true }, fn). */
export const OPTION_KEYS = new Set(['skip', 'todo', 'only', 'fails'])
/** Context members that skip the running test, or run only the focused ones. */
const CONTEXT_MARKERS: Readonly<Record<string, boolean>> = {
  skip: false,
  todo: false,
  runOnly: true
}
/** Names the old line patterns treated as a test context whatever their binding. */
export const CONTEXT_NAMES = new Set(['ctx', 'context', 't'])

export type Value =
  | { kind: 'root'; name: string }
  | { kind: 'marker'; root: string; label: string; only: boolean }
  | { kind: 'module'; callable?: string }
  | { kind: 'hook' }
  | { kind: 'context'; name: string }
  | { kind: 'string'; value: string }
  | { kind: 'helpers'; specifier: string; exports: HelperExports }

/** A name where it is declared or imported (the marker, if any, is counted where it is used). */
export function isDeclarationName(node: Node): boolean {
  const parent = node.parent
  if (parent === null || node.type !== 'identifier') return false
  if (IMPORT_PARTS.has(parent.type)) return true
  return parent.type === 'variable_declarator' && parent.childForFieldName('name')?.id === node.id
}

const IMPORT_PARTS = new Set(['import_specifier', 'namespace_import', 'import_clause'])

export function globalValue(name: string): Value | undefined {
  if (JS_TEST_FUNCTIONS.has(name) || JS_BENCH_FUNCTIONS.has(name) || JS_GROUP_FUNCTIONS.has(name))
    return { kind: 'root', name }
  const marker = Object.hasOwn(JS_MARKER_GLOBALS, name) ? JS_MARKER_GLOBALS[name] : undefined
  if (marker) return { kind: 'marker', root: marker.root, label: name, only: marker.only }
  if (JS_HOOKS.has(name)) return { kind: 'hook' }
  if (JS_GLOBAL_OBJECTS.has(name)) return { kind: 'module' }
  return undefined
}

/** The value of `object.prop`. */
export function member(object: Value, prop: string): Value | undefined {
  switch (object.kind) {
    case 'module':
      if (object.callable !== undefined && JS_TEST_MODIFIERS.has(prop))
        return marker(object.callable, prop)
      return globalValue(prop)
    case 'root':
      // test.each, test.concurrent, test.extend(...) are still test functions.
      return JS_TEST_MODIFIERS.has(prop) ? marker(object.name, prop) : object
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
export function strongest(values: ReadonlyArray<Value | undefined>): Value | undefined {
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

/** Where a marker is written: the member's name, not the start of a long chain. */
export function markerPosition(node: Node): { row: number; column: number } {
  const part = node.childForFieldName('property') ?? node.childForFieldName('index') ?? node
  return part.startPosition
}

export function isFalsyLiteral(node: Node): boolean {
  if (node.type === 'false' || node.type === 'null' || node.type === 'undefined') return true
  if (node.type === 'identifier' && node.text === 'undefined') return true
  if (node.type === 'number') return Number(node.text) === 0
  if (node.type === 'string') return node.text.length === 2
  return false
}

/** A title as the old line reader took it: quotes off, each backslash dropped before its character. */
export function titleText(text: string): string {
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
