// `oracle-reach` detectors for Python: one walk over a parse tree, names resolved through
// the file's imports and simple aliases (`import os as o`, `from os import environ as e`,
// `env = os.environ`, `getattr(sys, "_getframe")`), each node checked against tables.ts.
// Pure: a tree in, findings out; the caller keeps only findings on lines the patch added.
import type { Node } from 'web-tree-sitter'
import { lastDefined, pathOf, pathValue, type PathValue } from '../resolve/paths.js'
import {
  argumentsOf,
  pyName,
  PythonResolver,
  type PyString,
  type PythonDomain
} from '../resolve/python.js'
import {
  PY_COMPARISON_DUNDERS,
  PY_ENTRY_HABITS,
  PY_FRAME_ATTRIBUTES,
  PY_FRAMEWORK_MODULES,
  PY_FRAMEWORK_PREFIXES,
  PY_INTROSPECTION,
  PY_PATCHED_MODULES,
  PY_PROCESS_CALLS,
  PY_PROCESS_EXEC_PREFIX,
  PY_PROCESS_HOOKS,
  PY_RUNTIME_SOURCES,
  PY_VALUE_TYPES
} from '../tables.js'
import {
  descendants,
  byType,
  detectFile,
  finding,
  type Detectors,
  builtStringFindings,
  instrumentFindings,
  moduleMatches,
  namesRunner,
  pathMatches,
  pythonStringRuns,
  pythonStringValue,
  quote,
  runFindings,
  usesFindings
} from './syntax.js'
import type { DetectContext, Finding } from './types.js'

const PY_MAIN_GUARD = /^(__name__\s*==\s*(['"])__main__\2|(['"])__main__\3\s*==\s*__name__)$/

export function detectPython(root: Node, ctx: DetectContext): Finding[] {
  return detectFile(root, pythonNames(root), ctx, PY_DETECTORS, PY_MAIN_GUARD)
}

/** What each node type is checked for; the walk is syntax.ts's detectFile. */
const PY_DETECTORS: Detectors<Names> = byType<Names>(
  [['import_statement', 'import_from_statement'], importFindings],
  [
    ['call'],
    (node, names, ctx) => [...callFindings(node, names), ...builtFindings(node, names, ctx)]
  ],
  [['attribute', 'identifier'], referenceFindings],
  [
    ['subscript'],
    (node, names, ctx) => [...referenceFindings(node, names), ...builtFindings(node, names, ctx)]
  ],
  [['binary_operator'], builtFindings],
  [['assignment', 'augmented_assignment'], assignmentFindings],
  [['string', 'concatenated_string'], stringFindings],
  [['class_definition'], classFindings],
  [['raise_statement'], raiseFindings]
)

// ------------------------------------------------------------------ names

type Names = PythonResolver<PathValue | PyString>

const IMPORT_CALLS = new Set([
  '__import__',
  'builtins.__import__',
  'importlib.__import__',
  'importlib.import_module'
])

/**
 * Names as dotted paths: a module is its name, a member extends its object's path, an
 * unknown name (a builtin, or a local whose value the resolver cannot follow) stands for
 * itself. `__import__("m")` and `importlib.import_module("m")` name the module.
 */
const PATHS: PythonDomain<PathValue | PyString> = {
  module: name => (name.startsWith('.') ? undefined : pathValue(name)),
  member: (object, name) =>
    object.kind === 'path' ? pathValue(`${object.path}.${name}`) : undefined,
  // `__builtins__` is the builtins module by another name (a dict in imported modules).
  global: name => pathValue(name === '__builtins__' ? 'builtins' : name),
  join: lastDefined,
  call: (callee, node, names) => {
    if (callee?.kind !== 'path' || !IMPORT_CALLS.has(callee.path)) return undefined
    const module = names.stringOf(argumentsOf(node)[0])
    return module === undefined ? undefined : pathValue(module)
  },
  unknownLocal: 'global'
}

/** The file's names, resolved through its imports and aliases (resolve/python.ts). */
export function pythonNames(root: Node): Names {
  return new PythonResolver(root, PATHS)
}

/** Dotted path an expression names (`o.environ` → `os.environ`), or undefined. */
export function resolvePython(node: Node, names: Names): string | undefined {
  return pathOf(names.valueOf(node))
}

function isImportCall(callee: string | undefined): boolean {
  return callee !== undefined && IMPORT_CALLS.has(callee)
}

// ------------------------------------------------------------------ detectors

function frameworkModule(name: string): string | undefined {
  return moduleMatches(name, PY_FRAMEWORK_MODULES, PY_FRAMEWORK_PREFIXES, '.')
}

function importFindings(node: Node): Finding[] {
  const out: Finding[] = []
  const modules: string[] = []
  if (node.type === 'import_statement') {
    for (const name of node.childrenForFieldName('name')) {
      const dotted = name?.type === 'aliased_import' ? name.childForFieldName('name') : name
      if (dotted) modules.push(dotted.text)
    }
  } else {
    const module = node.childForFieldName('module_name')
    if (module?.type === 'dotted_name') {
      modules.push(module.text)
      // `from sys import _getframe` names the callable itself.
      for (const name of node.childrenForFieldName('name')) {
        const original = name?.type === 'aliased_import' ? name.childForFieldName('name') : name
        if (original) out.push(...pathFindings(`${module.text}.${original.text}`, node))
      }
    }
  }
  for (const module of modules) {
    if (frameworkModule(module) !== undefined)
      out.push(finding('framework', node, `imports the test framework module ${quote(module)}`))
  }
  return out
}

function callFindings(node: Node, names: Names): Finding[] {
  const fn = node.childForFieldName('function')
  const callee = fn ? resolvePython(fn, names) : undefined
  const args = argumentsOf(node)
  if (isImportCall(callee) && args[0]) {
    const module = names.stringOf(args[0])
    if (module !== undefined && frameworkModule(module) !== undefined)
      return [finding('framework', node, `imports the test framework module ${quote(module)}`)]
  }
  if (callee === 'getattr' && args[1]) {
    const path = resolvePython(node, names)
    if (path !== undefined) return pathFindings(path, node)
  }
  if ((callee === 'setattr' || callee === 'delattr') && args[0] && args[1]) {
    const base = resolvePython(args[0], names)
    const name = names.stringOf(args[1])
    if (base !== undefined && name !== undefined) return targetFindings(`${base}.${name}`, node)
  }
  if (callee === 'type' && args.length === 3 && args[2]?.type === 'dictionary')
    return typeCallFindings(args, names)
  if ((callee === 'os.kill' || callee === 'os.killpg') && args[0]) {
    const target = args[0].text
    if (/getpid|getppid|getpgid|getpgrp/.test(target) || target === '0')
      return [
        finding('process', node, `${callee}(${quote(target)}) signals the runner's own process`)
      ]
  }
  return []
}

function referenceFindings(node: Node, names: Names): Finding[] {
  const parent = node.parent
  if (node.type === 'identifier') {
    // Only names bound to something else (imports, aliases) are references of their own;
    // a bare identifier inside an attribute or an import is covered there.
    const bound = resolvePython(node, names)
    if (bound === undefined || bound === pyName(node)) return []
    if (parent?.type === 'attribute' || parent?.type === 'dotted_name') return []
    if (parent?.type === 'aliased_import' || parent?.type?.startsWith('import')) return []
    if (parent?.type === 'assignment' && parent.childForFieldName('left')?.id === node.id) return []
  }
  if (node.type === 'attribute') {
    const attr = node.childForFieldName('attribute')?.text
    if (attr !== undefined && PY_FRAME_ATTRIBUTES.has(attr))
      return [finding('introspection', node, `reads the frame attribute ${attr}`)]
  }
  const path = resolvePython(node, names)
  return path === undefined ? [] : pathFindings(path, node)
}

/** Findings for any reference to a dotted path (a call, an alias, a decorator). */
function pathFindings(path: string, node: Node): Finding[] {
  const uses = usesFindings(path, node, PY_INTROSPECTION, PY_PROCESS_CALLS)
  if (uses.length > 0) return uses
  if (path.startsWith(PY_PROCESS_EXEC_PREFIX) && /^os\.exec[lv]p?e?$/.test(path))
    return [finding('process', node, `uses ${path}, which replaces the runner's process`)]
  const habit = pathMatches(path, PY_ENTRY_HABITS)
  if (habit !== undefined)
    return [
      finding(
        'process',
        node,
        `uses ${habit}, which ${habit === 'sys.exit' ? "ends the runner's process with a status of its choosing" : 'runs code when the runner exits or is signalled'}`,
        { entryPointHabit: true }
      )
    ]
  const hook = pathMatches(path, ['sys.meta_path', 'sys.path_hooks', 'builtins.__import__'])
  if (hook !== undefined)
    return [
      finding('framework', node, `touches ${hook}, the import machinery that loads the tests`)
    ]
  return []
}

/** `raise SystemExit(0)`: sys.exit by another name. */
function raiseFindings(node: Node, names: Names): Finding[] {
  const raised = node.namedChildren[0]
  const target = raised?.type === 'call' ? raised.childForFieldName('function') : raised
  if (!target || resolvePython(target, names) !== 'SystemExit') return []
  return [
    finding(
      'process',
      node,
      'raises SystemExit, which ends the runner with a status of its choosing',
      {
        entryPointHabit: true
      }
    )
  ]
}

function assignmentTargets(node: Node): Node[] {
  const left = node.childForFieldName('left')
  if (!left) return []
  if (left.type === 'pattern_list' || left.type === 'tuple_pattern' || left.type === 'list_pattern')
    return left.namedChildren.filter(Boolean) as Node[]
  return [left]
}

function assignmentFindings(node: Node, names: Names): Finding[] {
  const out: Finding[] = []
  for (const target of assignmentTargets(node)) {
    if (target.type !== 'attribute' && target.type !== 'subscript') continue
    const path = resolvePython(target, names)
    if (path !== undefined) out.push(...targetFindings(path, node))
    else if (target.type === 'subscript') {
      const value = target.childForFieldName('value')
      const base = value ? resolvePython(value, names) : undefined
      if (base === 'sys.modules')
        out.push(finding('framework', node, 'replaces a module in sys.modules'))
      if (base !== undefined && PY_PATCHED_MODULES.has(base))
        out.push(finding('comparison', node, `assigns into ${base}`))
    }
  }
  return out
}

/** Findings for writing to a dotted path (`x.y = v`, `setattr(x, "y", v)`). */
function targetFindings(path: string, node: Node): Finding[] {
  const hook = pathMatches(path, PY_PROCESS_HOOKS)
  if (hook !== undefined)
    return [finding('process', node, `replaces ${hook}, which the runner reports through`)]
  if (path.startsWith('sys.modules.'))
    return [
      finding('framework', node, `replaces the module ${quote(path.slice(12))} in sys.modules`)
    ]
  const root = path.split('.')[0] ?? ''
  if (PY_PATCHED_MODULES.has(root))
    return [
      finding('comparison', node, `patches ${path}, which comparisons and assertions rely on`)
    ]
  const framework = frameworkModule(path)
  if (framework !== undefined)
    return [finding('framework', node, `patches ${path} of the test framework`)]
  return []
}

function stringFindings(node: Node, names: Names, ctx: DetectContext): Finding[] {
  if (node.parent?.type === 'concatenated_string') return []
  // Docstrings and strings used as comments are not values.
  if (node.parent?.type === 'expression_statement') return []
  if (node.parent?.type === 'dotted_name') return []
  const out: Finding[] = []
  const runs = pythonStringRuns(node)
  for (const run of runs) out.push(...runFindings(node, run, true))
  const value = runs.join('')
  if (namesRunner(value) && expressionUses(expressionRoot(node), names, PY_RUNTIME_SOURCES))
    out.push(
      finding(
        'markers',
        node,
        `checks whether ${quote(value.trim())} is running (sys.modules, sys.argv or the environment)`
      )
    )
  out.push(...instrumentFindings(node, [...runs, ...joinedPath(node, names)], ctx))
  return out
}

/**
 * A string built at run time from constants (`"".join(...)`, `s[::-1]`, a decoder, `%`):
 * checked as its literal would be, at the outermost expression that still folds.
 */
function builtFindings(node: Node, names: Names, ctx: DetectContext): Finding[] {
  const value = names.stringOf(node)
  if (value === undefined || (node.parent && names.stringOf(node.parent) !== undefined)) return []
  const reads = (): boolean => expressionUses(expressionRoot(node), names, PY_RUNTIME_SOURCES)
  return builtStringFindings(node, value, reads, ctx)
}

/** `os.path.join("a", "b")`, `Path("a") / "b"`: the path the string is part of, if static. */
function joinedPath(node: Node, names: Names): string[] {
  let parent = node.parent
  if (parent?.type === 'argument_list') {
    const call = parent.parent
    const fn = call?.childForFieldName('function')
    const callee = fn ? (resolvePython(fn, names) ?? fn.text) : ''
    if (call && /(^|\.)(join|joinpath|Path|PurePath|PurePosixPath|PosixPath)$/.test(callee)) {
      // Non-literal parts (a root folder variable) are left out: what follows them is a path.
      const parts = argumentsOf(call)
        .map(a => pythonStringValue(a))
        .filter((p): p is string => p !== undefined)
      if (parts.length > 1) return [parts.join('/')]
    }
    return []
  }
  const parts: string[] = []
  while (parent?.type === 'binary_operator' && parent.text.includes('/')) {
    parts.length = 0
    for (const leaf of descendants(parent)) {
      const value = pythonStringValue(leaf)
      if (value !== undefined) parts.push(value)
    }
    parent = parent.parent
  }
  return parts.length > 1 ? [parts.join('/')] : []
}

const STOP = new Set([
  'block',
  'module',
  'function_definition',
  'class_definition',
  'decorated_definition'
])

/** The outermost expression around `node` inside its statement. */
export function expressionRoot(node: Node): Node {
  let current = node
  for (let p = node.parent; p; p = p.parent) {
    if (STOP.has(p.type) || p.type.endsWith('statement') || p.type.endsWith('clause')) break
    current = p
  }
  return current
}

function expressionUses(root: Node, names: Names, sources: readonly string[]): boolean {
  for (const node of descendants(root)) {
    if (node.type !== 'attribute' && node.type !== 'identifier') continue
    const path = resolvePython(node, names)
    if (path !== undefined && pathMatches(path, sources) !== undefined) return true
  }
  return false
}

// ------------------------------------------------------------------ comparisons

function classFindings(node: Node, names: Names): Finding[] {
  const body = node.childForFieldName('body')
  if (!body) return []
  const bases = (node.childForFieldName('superclasses')?.namedChildren ?? [])
    .map(b => (b ? resolvePython(b, names) : undefined))
    .filter((b): b is string => b !== undefined)
  const valueBase = bases.find(b => PY_VALUE_TYPES.has(b))
  const out: Finding[] = []
  for (const member of body.namedChildren) {
    const def =
      member?.type === 'decorated_definition' ? member.childForFieldName('definition') : member
    if (!def) continue
    const name = memberName(def)
    if (name === undefined) continue
    if (name === '__class__')
      out.push(finding('comparison', def, 'defines __class__, which makes isinstance lie'))
    if (!PY_COMPARISON_DUNDERS.has(name)) continue
    if (valueBase !== undefined)
      out.push(
        finding(
          'comparison',
          def,
          `redefines ${name} in a subclass of ${valueBase}: comparing it with an expected value no longer means what the test says`
        )
      )
    else if (returnsConstant(def))
      out.push(
        finding(
          'comparison',
          def,
          `defines ${name} to return a constant, whatever it is compared with`
        )
      )
  }
  return out
}

/** `type(name, bases, {...})`: a class made without a class statement, judged as one. */
function typeCallFindings(args: Node[], names: Names): Finding[] {
  const bases = (args[1]?.type === 'tuple' ? args[1].namedChildren : [args[1]])
    .map(b => (b ? resolvePython(b, names) : undefined))
    .filter((b): b is string => b !== undefined)
  const valueBase = bases.find(b => PY_VALUE_TYPES.has(b))
  const out: Finding[] = []
  for (const pair of args[2]?.namedChildren ?? []) {
    if (pair?.type !== 'pair') continue
    const key = names.stringOf(pair.childForFieldName('key'))
    const value = pair.childForFieldName('value')
    if (key === undefined || !value) continue
    if (key === '__class__')
      out.push(
        finding('comparison', pair, 'defines __class__ through type(), which makes isinstance lie')
      )
    if (!PY_COMPARISON_DUNDERS.has(key)) continue
    if (valueBase !== undefined)
      out.push(
        finding('comparison', pair, `redefines ${key} through type() on a subclass of ${valueBase}`)
      )
    else if (value.type === 'lambda' && returnsConstant(value))
      out.push(
        finding(
          'comparison',
          pair,
          `defines ${key} through type() to return a constant, whatever it is compared with`
        )
      )
  }
  return out
}

function memberName(def: Node): string | undefined {
  if (def.type === 'function_definition') return def.childForFieldName('name')?.text
  if (def.type === 'expression_statement') {
    const assignment = def.namedChildren[0]
    const left = assignment?.type === 'assignment' ? assignment.childForFieldName('left') : null
    return left?.type === 'identifier' ? left.text : undefined
  }
  return undefined
}

const CONSTANT_TYPES = new Set(['true', 'false', 'none', 'integer', 'float', 'string'])

function isConstant(node: Node | null | undefined): boolean {
  if (!node) return false
  return (
    CONSTANT_TYPES.has(node.type) || (node.type === 'identifier' && node.text === 'NotImplemented')
  )
}

/** A comparison method whose every result is a constant and that ignores what it compares. */
export function returnsConstant(def: Node): boolean {
  const { other, results } = methodShape(def)
  if (results.length === 0 || !results.every(isConstant)) return false
  const decisive = results.filter(r => r.type === 'true' || r.type === 'false').map(r => r.type)
  if (decisive.length === 0) return false
  const body = def.type === 'function_definition' ? def.childForFieldName('body') : def
  const usesOther =
    other !== undefined &&
    body !== null &&
    body.descendantsOfType('identifier').some(n => n?.text === other)
  return !usesOther || new Set(decisive).size === 1
}

/** The second parameter's name and the result expressions of a method or a lambda. */
function methodShape(def: Node): { other: string | undefined; results: Node[] } {
  if (def.type === 'expression_statement' || def.type === 'lambda') {
    const lambda = def.type === 'lambda' ? def : def.namedChildren[0]?.childForFieldName('right')
    if (lambda?.type !== 'lambda') return { other: undefined, results: [] }
    const params = lambda.childForFieldName('parameters')?.namedChildren ?? []
    const body = lambda.childForFieldName('body')
    return { other: params[1]?.text, results: body ? [body] : [] }
  }
  const params = def.childForFieldName('parameters')?.namedChildren ?? []
  const second = params[1]
  const other = second?.type === 'identifier' ? second.text : second?.namedChildren[0]?.text
  const body = def.childForFieldName('body')
  const results: Node[] = []
  if (body) {
    for (const ret of body.descendantsOfType('return_statement')) {
      if (!ret || nestedDefinition(ret, def)) continue
      const value = ret.namedChildren[0]
      if (value) results.push(value)
    }
  }
  return { other, results }
}

function nestedDefinition(node: Node, outer: Node): boolean {
  for (let p = node.parent; p && p.id !== outer.id; p = p.parent)
    if (p.type === 'function_definition' || p.type === 'lambda' || p.type === 'class_definition')
      return true
  return false
}
