// `oracle-reach` detectors for JavaScript, TypeScript and TSX: one walk over a parse tree,
// names resolved through the file's imports, `require`s, destructuring and simple aliases
// (`const { env } = process`, `const a = require('node:assert')`, `globalThis.process`),
// each node checked against tables.ts. Pure: a tree in, findings out.
import type { Node } from 'web-tree-sitter'
import { lastDefined, pathOf, pathValue, type PathValue } from '../resolve/paths.js'
import {
  requiredModule,
  ScriptResolver,
  type JsString,
  type ScriptDomain
} from '../resolve/script.js'
import {
  JS_ASSERT_MODULES,
  JS_BUILTIN_GLOBALS,
  JS_FRAMEWORK_PACKAGES,
  JS_FRAMEWORK_PREFIXES,
  JS_GLOBAL_OBJECTS,
  JS_INTROSPECTION,
  JS_PRIMITIVE_WRAPPERS,
  JS_PROCESS_ASSIGNED,
  JS_PROCESS_CALLS,
  JS_PROCESS_EVENTS,
  JS_PROCESS_LISTENERS,
  JS_RUNNER_GLOBALS,
  JS_RUNNER_INTERNAL_STRINGS,
  JS_RUNNER_PROTOCOL_NAMES,
  JS_RUNTIME_SOURCES
} from '../tables.js'
import {
  descendants,
  byType,
  detectFile,
  finding,
  type Detectors,
  builtStringFindings,
  instrumentFindings,
  isMarkerName,
  moduleMatches,
  namesRunner,
  pathMatches,
  quote,
  runFindings,
  usesFindings,
  scriptStringRuns,
  scriptStringValue
} from './syntax.js'
import type { DetectContext, Finding } from './types.js'

const JS_MAIN_GUARD = /^(require\.main\s*===?\s*module|module\s*===?\s*require\.main)$/

export function detectScript(root: Node, ctx: DetectContext): Finding[] {
  return detectFile(root, scriptNames(root), ctx, JS_DETECTORS, JS_MAIN_GUARD)
}

/** What each node type is checked for; the walk is syntax.ts's detectFile. */
const JS_DETECTORS: Detectors<Names> = byType<Names>(
  [['import_statement', 'export_statement'], n => moduleFindings(n.childForFieldName('source'), n)],
  [
    ['call_expression'],
    (n, names, ctx) => [...callFindings(n, names), ...builtFindings(n, names, ctx)]
  ],
  [['identifier', 'member_expression'], referenceFindings],
  [
    ['subscript_expression'],
    (n, names, ctx) => [...referenceFindings(n, names), ...builtFindings(n, names, ctx)]
  ],
  [['binary_expression', 'template_string'], builtFindings],
  [
    [
      'property_identifier',
      'shorthand_property_identifier',
      'shorthand_property_identifier_pattern'
    ],
    propertyNameFindings
  ],
  [
    ['assignment_expression', 'augmented_assignment_expression'],
    (n, names) => targetFindings(n.childForFieldName('left'), n, names)
  ],
  [['update_expression'], (n, names) => targetFindings(n.childForFieldName('argument'), n, names)],
  [
    ['unary_expression'],
    (n, names) =>
      n.text.startsWith('delete') ? targetFindings(n.childForFieldName('argument'), n, names) : []
  ],
  [['string', 'template_string'], stringFindings],
  [['class_declaration', 'class'], wrapperSubclassFindings],
  [['method_definition', 'pair'], conversionFindings],
  [['if_statement', 'ternary_expression'], nodeEnvFindings]
)

// ------------------------------------------------------------------ names

/** `node:assert` and `assert` are one module; `node:test` has no unprefixed name. */
export function canonicalModule(module: string): string {
  if (module === 'node:test' || module.startsWith('node:test/')) return module
  return module.startsWith('node:') ? module.slice(5) : module
}

function stripGlobal(path: string): string {
  const dot = path.indexOf('.')
  return dot > 0 && JS_GLOBAL_OBJECTS.has(path.slice(0, dot))
    ? stripGlobal(path.slice(dot + 1))
    : path
}

type Names = ScriptResolver<PathValue | JsString>

/**
 * Names as dotted paths: a module is its canonical name, a member extends its object's
 * path (through the global object: `globalThis.process` is `process`), an unknown name (a
 * global, a parameter, a local the resolver cannot follow) stands for itself.
 */
const PATHS: ScriptDomain<PathValue | JsString> = {
  module: specifier => pathValue(canonicalModule(specifier)),
  member: (object, name) =>
    object.kind === 'path' ? pathValue(stripGlobal(`${object.path}.${name}`)) : undefined,
  global: pathValue,
  this: () => pathValue('this'),
  join: lastDefined,
  unknownLocal: 'global'
}

/** The file's names, resolved through its imports, requires and aliases (resolve/script.ts). */
export function scriptNames(root: Node): Names {
  return new ScriptResolver(root, PATHS)
}

/** Dotted path an expression names (`e.VITEST` → `process.env.VITEST`), or undefined. */
export function resolveScript(node: Node, names: Names): string | undefined {
  return pathOf(names.valueOf(node))
}

function args(call: Node): Node[] {
  return (call.childForFieldName('arguments')?.namedChildren ?? []).filter(Boolean) as Node[]
}

// ------------------------------------------------------------------ detectors

function frameworkPackage(module: string): string | undefined {
  return moduleMatches(module, JS_FRAMEWORK_PACKAGES, JS_FRAMEWORK_PREFIXES, '/')
}

function moduleFindings(source: Node | null, at: Node, names?: Names): Finding[] {
  const module = source ? (scriptStringValue(source) ?? names?.stringOf(source)) : undefined
  if (module === undefined) return []
  if (frameworkPackage(module) !== undefined)
    return [finding('framework', at, `imports the test framework package ${quote(module)}`)]
  if (canonicalModule(module) === 'inspector' || canonicalModule(module) === 'inspector/promises')
    return [
      finding(
        'introspection',
        at,
        `imports ${quote(module)}, which reads the process's heap and frames`
      )
    ]
  return []
}

const DEFINE_CALLS = new Set([
  'Object.assign',
  'Object.defineProperty',
  'Object.defineProperties',
  'Object.setPrototypeOf',
  'Reflect.set',
  'Reflect.defineProperty',
  'Reflect.setPrototypeOf',
  'Reflect.deleteProperty'
])

function callFindings(node: Node, names: Names): Finding[] {
  const module = requiredModule(node, n => names.stringOf(n))
  if (module !== undefined)
    return moduleFindings(
      node.childForFieldName('arguments')?.namedChildren[0] ?? null,
      node,
      names
    )
  const fn = node.childForFieldName('function')
  const callee = fn ? resolveScript(fn, names) : undefined
  const list = args(node)
  if (callee === undefined) return []
  if (DEFINE_CALLS.has(callee) && list[0]) return targetFindings(list[0], node, names, true)
  if (callee === 'Error.captureStackTrace' && list[0]?.type !== 'this')
    return [
      finding('introspection', node, 'captures a stack trace into an object to read its callers')
    ]
  if (callee === 'process.kill' && list[0]) {
    const target = list[0].text
    if (
      /process\.(pid|ppid)/.test(target) ||
      (/^-?\s*[0-9]+$/.test(target) && Number(target.replace(/\s/g, '')) <= 0)
    )
      return [
        finding('process', node, `process.kill(${quote(target)}) signals the runner's own process`)
      ]
  }
  const [object, method] = splitLast(callee)
  if (object === 'process' && JS_PROCESS_LISTENERS.has(method) && list[0]) {
    const event = scriptStringValue(list[0])
    if (event !== undefined && JS_PROCESS_EVENTS.has(event))
      return [
        finding(
          'process',
          node,
          `listens to process '${event}', which runs when the runner ends or fails`
        )
      ]
    if (event !== undefined && event.startsWith('SIG'))
      return [
        finding('process', node, `handles ${event} on the runner's process`, {
          entryPointHabit: true
        })
      ]
  }
  return []
}

function splitLast(path: string): [string, string] {
  const dot = path.lastIndexOf('.')
  return dot < 0 ? ['', path] : [path.slice(0, dot), path.slice(dot + 1)]
}

function referenceFindings(node: Node, names: Names): Finding[] {
  if (node.type === 'identifier') {
    const global = globalFindings(node)
    if (global.length > 0 || !boundReference(node, names)) return global
  }
  const object = node.childForFieldName('object')
  if (node.type === 'member_expression' && object) {
    const property = node.childForFieldName('property')?.text
    if (property === 'stack' && freshError(object))
      return [finding('introspection', node, 'reads the call stack from a new Error')]
    if (property === 'caller' && callerObject(object))
      return [
        finding(
          'introspection',
          node,
          `reads ${quote(object.text)}.caller, the function that called it`
        )
      ]
  }
  const path = resolveScript(node, names)
  if (path === undefined) return []
  const root = path.split('.')[0] ?? ''
  // `globalThis.expect`: the runner's global reached through the global object.
  if (object && JS_GLOBAL_OBJECTS.has(object.text) && JS_RUNNER_GLOBALS.has(root))
    return [finding('framework', node, `uses the runner global ${quote(root)}`)]
  return usesFindings(path, node, JS_INTROSPECTION, JS_PROCESS_CALLS, 'process.exit')
}

/** An alias in use (`exit(0)` after `import { exit } from 'node:process'`), not its declaration. */
function boundReference(node: Node, names: Names): boolean {
  if (!names.bound(node)) return false
  const parent = node.parent
  if (!parent || parent.type === 'import_specifier' || parent.type === 'import_clause') return false
  if (parent.type === 'namespace_import' || parent.type === 'pair_pattern') return false
  return !(
    parent.type === 'variable_declarator' && parent.childForFieldName('name')?.id === node.id
  )
}

/** A free `expect`, `vi` or `jest`: the runner's global, present only under test. */
function globalFindings(node: Node): Finding[] {
  const parent = node.parent
  if (!JS_RUNNER_GLOBALS.has(node.text) || declaredAround(node, node.text)) return []
  if (parent?.type === 'variable_declarator' && parent.childForFieldName('name')?.id === node.id)
    return []
  if (parent?.type === 'import_specifier' || parent?.type === 'export_specifier') return []
  return [finding('framework', node, `uses the runner global ${quote(node.text)}`)]
}

function freshError(object: Node): boolean {
  const inner = object.type === 'parenthesized_expression' ? object.namedChildren[0] : object
  if (!inner || (inner.type !== 'new_expression' && inner.type !== 'call_expression')) return false
  const ctor = inner.childForFieldName(inner.type === 'new_expression' ? 'constructor' : 'function')
  return ctor !== null && /Error$/.test(ctor.text)
}

function callerObject(object: Node): boolean {
  const text = object.text
  if (text === 'arguments' || text === 'arguments.callee' || text === 'Function.prototype')
    return true
  return object.type === 'identifier' && declaredAround(object, text)
}

function propertyNameFindings(node: Node): Finding[] {
  const name = node.text
  if (isMarkerName(name))
    return [finding('markers', node, `reads the runner or gate marker ${quote(name)}`)]
  if (JS_RUNNER_PROTOCOL_NAMES.has(name))
    return [
      finding(
        'framework',
        node,
        `defines ${name}, which makes the runner's equality take the object's word for it`
      )
    ]
  if (JS_RUNNER_INTERNAL_STRINGS.some(s => name.includes(s)))
    return [finding('framework', node, `names the runner internal ${quote(name)}`)]
  return []
}

const FUNCTIONS = new Set([
  'function_declaration',
  'function_expression',
  'function',
  'arrow_function',
  'method_definition',
  'generator_function_declaration',
  'generator_function'
])
const BLOCKS = new Set(['statement_block', 'program', 'switch_body', 'class_body'])

/**
 * True when a scope around `node` declares `name` (a parameter, a declaration in an
 * enclosing block, a loop or catch variable, an import): then `expect` is the file's own
 * variable, not the runner's global. A declaration in some other function does not count.
 */
export function declaredAround(node: Node, name: string): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (FUNCTIONS.has(p.type)) {
      const params = p.childForFieldName('parameters') ?? p.childForFieldName('parameter')
      if (params && declares(params, name)) return true
    } else if (BLOCKS.has(p.type)) {
      for (const child of p.namedChildren) if (child && statementDeclares(child, name)) return true
    } else if (p.type === 'catch_clause' || p.type.startsWith('for_')) {
      const binding =
        p.childForFieldName('parameter') ??
        p.childForFieldName('left') ??
        p.childForFieldName('initializer')
      if (binding && declares(binding, name)) return true
    }
  }
  return false
}

function statementDeclares(statement: Node, name: string): boolean {
  const target =
    statement.type === 'export_statement' ? statement.childForFieldName('declaration') : statement
  if (!target) return false
  if (target.type === 'lexical_declaration' || target.type === 'variable_declaration') {
    return target.namedChildren.some(d => {
      const bound = d?.childForFieldName('name')
      return bound ? declares(bound, name) : false
    })
  }
  if (target.type === 'import_statement') {
    const clause = target.namedChildren.find(c => c?.type === 'import_clause')
    return clause ? declares(clause, name, true) : false
  }
  return target.childForFieldName('name')?.text === name && /declaration$/.test(target.type)
}

/** `node` is, or binds in a pattern, an identifier called `name`. */
function declares(node: Node, name: string, importClause = false): boolean {
  if (node.type === 'identifier' || node.type === 'shorthand_property_identifier_pattern')
    return node.text === name
  return node
    .descendantsOfType(['identifier', 'shorthand_property_identifier_pattern'])
    .some(id => {
      if (id?.text !== name) return false
      // In `import { a as b }` only the alias is bound.
      if (
        importClause &&
        id.parent?.type === 'import_specifier' &&
        id.parent.childForFieldName('alias')
      )
        return id.parent.childForFieldName('alias')?.id === id.id
      // In a default value (`x = expect`) the name is used, not bound.
      return !(
        id.parent?.type === 'assignment_pattern' &&
        id.parent.childForFieldName('right')?.id === id.id
      )
    })
}

/** A member of a variable the file declares itself (`const expect = make(); expect.x = 1`). */
function localObject(target: Node, names: Names): boolean {
  let root: Node | null = target
  while (root && (root.type === 'member_expression' || root.type === 'subscript_expression'))
    root = root.childForFieldName('object')
  if (root?.type !== 'identifier') return false
  return !names.bound(root) && declaredAround(root, root.text)
}

/** Writes to a member: of an assertion module, the runner, the process or a built-in. */
function targetFindings(target: Node | null, at: Node, names: Names, whole = false): Finding[] {
  if (!target || localObject(target, names)) return []
  const resolved = resolveScript(target, names)
  if (resolved === undefined) return []
  const path = whole ? `${resolved}.*` : resolved
  const parts = path.split('.')
  const root = parts[0] ?? ''
  const module =
    parts.length >= 2 && JS_ASSERT_MODULES.has(`${root}/${parts[1]}`) ? `${root}/${parts[1]}` : root
  if (JS_ASSERT_MODULES.has(module) && parts.length >= 2)
    return [
      finding('framework', at, `patches ${resolved} of the assertion module ${quote(module)}`)
    ]
  if (
    frameworkPackage(root) !== undefined ||
    (JS_RUNNER_GLOBALS.has(root) && !declaredAround(at, root))
  )
    return [finding('framework', at, `patches ${resolved} of the test runner`)]
  const assigned = pathMatches(path, JS_PROCESS_ASSIGNED)
  if (assigned !== undefined)
    return [
      finding('process', at, `replaces ${assigned}`, {
        entryPointHabit: assigned === 'process.exitCode'
      })
    ]
  if (JS_BUILTIN_GLOBALS.has(root) && (parts.length >= 2 || whole) && !declaredAround(at, root))
    return [
      finding(
        'comparison',
        at,
        `patches the built-in ${resolved}, which every comparison relies on`
      )
    ]
  return []
}

function stringFindings(node: Node, names: Names, ctx: DetectContext): Finding[] {
  const parent = node.parent
  if (parent?.type === 'expression_statement') return []
  if (parent?.type === 'import_statement' || parent?.type === 'export_statement') return []
  if (parent?.type === 'arguments' && parent.parent && requiredModule(parent.parent) !== undefined)
    return []
  const out: Finding[] = []
  const runs = scriptStringRuns(node)
  for (const run of runs) {
    // An object key (`{ VITEST: 1 }`) names nothing it reads.
    out.push(...runFindings(node, run, parent?.type !== 'pair'))
    const internal = JS_RUNNER_INTERNAL_STRINGS.find(s => run.includes(s))
    if (internal !== undefined)
      out.push(finding('framework', node, `names the runner internal ${quote(internal)}`))
  }
  const value = runs.join('')
  if (namesRunner(value) && expressionUses(expressionRoot(node), names))
    out.push(
      finding(
        'markers',
        node,
        `checks whether ${quote(value.trim())} is running (process.argv, process.env or require.cache)`
      )
    )
  out.push(...instrumentFindings(node, [...runs, ...joinedPath(node)], ctx))
  return out
}

/**
 * A string built at run time from constants (`[...].join('')`, `atob(...)`, a template of
 * constants, `String.fromCharCode(...)`): checked as its literal would be, at the
 * outermost expression that still folds.
 */
function builtFindings(node: Node, names: Names, ctx: DetectContext): Finding[] {
  const value = names.stringOf(node)
  if (value === undefined || (node.parent && names.stringOf(node.parent) !== undefined)) return []
  const internal = JS_RUNNER_INTERNAL_STRINGS.find(s => value.includes(s))
  const reads = (): boolean => expressionUses(expressionRoot(node), names)
  return [
    ...(internal === undefined
      ? []
      : [finding('framework', node, `names the runner internal ${quote(internal)}`)]),
    ...builtStringFindings(node, value, reads, ctx)
  ]
}

/** `path.join('a', 'b')`, `resolve(...)`, `new URL('a', base)`: the static path, if any. */
function joinedPath(node: Node): string[] {
  const parent = node.parent
  const call = parent?.type === 'arguments' ? parent.parent : null
  if (!call) return []
  const fn = call.childForFieldName(call.type === 'new_expression' ? 'constructor' : 'function')
  if (!fn || !/(^|\.)(join|resolve|joinPath)$/.test(fn.text)) return []
  const parts = args(call)
    .map(a => scriptStringValue(a))
    .filter((p): p is string => p !== undefined)
  return parts.length > 1 ? [parts.join('/')] : []
}

function expressionRoot(node: Node): Node {
  let current = node
  for (let p = node.parent; p; p = p.parent) {
    if (
      p.type.endsWith('statement') ||
      p.type.endsWith('declaration') ||
      p.type === 'statement_block' ||
      p.type === 'program'
    )
      break
    current = p
  }
  return current
}

function expressionUses(root: Node, names: Names): boolean {
  for (const node of descendants(root)) {
    if (
      node.type !== 'member_expression' &&
      node.type !== 'identifier' &&
      node.type !== 'subscript_expression'
    )
      continue
    const path = resolveScript(node, names)
    if (path !== undefined && pathMatches(path, JS_RUNTIME_SOURCES) !== undefined) return true
  }
  return false
}

// ------------------------------------------------------------------ comparisons

const CONVERSIONS = new Set(['valueOf', '[Symbol.toPrimitive]', '[Symbol.hasInstance]'])

/** `valueOf() { return 42 }`: a conversion that ignores the object it converts. */
function conversionFindings(node: Node): Finding[] {
  const key = node.childForFieldName(node.type === 'pair' ? 'key' : 'name')
  if (!key || !CONVERSIONS.has(key.text)) return []
  const fn = node.type === 'pair' ? node.childForFieldName('value') : node
  if (
    !fn ||
    !['method_definition', 'function_expression', 'arrow_function', 'function'].includes(fn.type)
  )
    return []
  const body = fn.childForFieldName('body')
  if (!body) return []
  const results =
    body.type === 'statement_block'
      ? body.descendantsOfType('return_statement').map(r => r?.namedChildren[0])
      : [body]
  if (results.length === 0 || !results.every(r => r && isScriptConstant(r))) return []
  if (body.descendantsOfType('this').length > 0) return []
  return [
    finding(
      'comparison',
      node,
      `defines ${key.text} to return a constant, so comparisons with it always agree`
    )
  ]
}

function isScriptConstant(node: Node): boolean {
  if (['number', 'string', 'true', 'false', 'null', 'undefined'].includes(node.type)) return true
  return node.type === 'unary_expression' && node.namedChildren[0]?.type === 'number'
}

/** `class X extends Number { valueOf() {...} }`: a number that compares as it likes. */
function wrapperSubclassFindings(node: Node): Finding[] {
  const heritage = node.namedChildren.find(c => c?.type === 'class_heritage')
  const base = heritage?.text.replace(/^extends\s+/, '').trim()
  if (!base || !JS_PRIMITIVE_WRAPPERS.has(base)) return []
  const body = node.childForFieldName('body')
  const out: Finding[] = []
  for (const member of body?.namedChildren ?? []) {
    const name =
      member?.type === 'method_definition' ? member.childForFieldName('name')?.text : undefined
    if (member && name && ['valueOf', 'toString', '[Symbol.toPrimitive]', 'equals'].includes(name))
      out.push(
        finding(
          'comparison',
          member,
          `redefines ${name} in a subclass of ${base}: comparing it with an expected value no longer means what the test says`
        )
      )
  }
  return out
}

/** `if (process.env.NODE_ENV === 'test') return 42`: a different answer under test. */
function nodeEnvFindings(node: Node, names: Names): Finding[] {
  const condition = node.childForFieldName('condition')
  const consequence = node.childForFieldName('consequence')
  if (!condition || !consequence) return []
  const mentionsNodeEnv = [...descendants(condition)].some(
    n =>
      (n.type === 'member_expression' || n.type === 'subscript_expression') &&
      resolveScript(n, names) === 'process.env.NODE_ENV'
  )
  const saysTest = condition
    .descendantsOfType('string')
    .some(s => s && scriptStringValue(s) === 'test')
  if (!mentionsNodeEnv || !saysTest) return []
  const answers =
    node.type === 'ternary_expression' ||
    consequence.descendantsOfType('return_statement').some(r => r && r.namedChildren.length > 0)
  return answers
    ? [
        finding(
          'markers',
          condition,
          "returns a different value when NODE_ENV is 'test', which the runner sets"
        )
      ]
    : []
}
