// The name tables of every lint, and of doctor's shadowed-test check, in one place: the
// test frameworks' modules and the names they give tests, groups and markers (skip-marker,
// doctor/shadow.ts), and the module names, dotted paths and literal values that production
// code has no honest reason to touch while the locked tests import it (oracle-reach). The
// detectors only look things up here; docs/lints.md prints these. Pure data.

// ------------------------------------------------------------------ test calls (JS/TS)

/** Globals of the test frameworks that declare one test (mocha, jest, vitest, node:test). */
export const JS_TEST_FUNCTIONS: ReadonlySet<string> = new Set(['it', 'test', 'specify'])
/** Benchmarks (vitest, bun): declared and skipped like tests, but no test of their own. */
export const JS_BENCH_FUNCTIONS: ReadonlySet<string> = new Set(['bench'])
/** Globals that declare a group of tests. */
export const JS_GROUP_FUNCTIONS: ReadonlySet<string> = new Set(['describe', 'suite', 'context'])
/** Globals that are markers by themselves: x* skip, f* focus (jasmine, jest, mocha). */
export const JS_MARKER_GLOBALS: Readonly<Record<string, { root: string; only: boolean }>> = {
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
export const JS_TEST_MODIFIERS: ReadonlySet<string> = new Set([
  'only',
  'skip',
  'skipIf',
  'runIf',
  'todo',
  'fails',
  'failing'
])
/** Hooks whose callback receives the test context (vitest `ctx.skip()`). */
export const JS_HOOKS: ReadonlySet<string> = new Set([
  'beforeEach',
  'afterEach',
  'beforeAll',
  'afterAll',
  'before',
  'after'
])
/** Modules whose exports are the test functions. */
export const JS_TEST_MODULES: ReadonlySet<string> = new Set([
  'vitest',
  '@jest/globals',
  'node:test',
  'test',
  'mocha',
  'bun:test',
  '@playwright/test'
])
/** The global object, through which the globals are reachable too. */
export const JS_GLOBAL_OBJECTS: ReadonlySet<string> = new Set([
  'globalThis',
  'global',
  'window',
  'self'
])

// ------------------------------------------------------------------ test names (Python)

/** pytest collects functions (and unittest methods) named so. */
export const PY_TEST_FUNCTION = /^test/
/** pytest collects classes named so. */
export const PY_TEST_CLASS = /^Test/

// ------------------------------------------------------------------ oracle-reach

/** Python modules (and their submodules) that are the test framework or its internals. */
export const PY_FRAMEWORK_MODULES = [
  'pytest',
  '_pytest',
  'pluggy',
  'hypothesis',
  '_hypothesis_pytestplugin',
  'unittest',
  'nose',
  'nose2',
  'xdist'
] as const
/** Python module name prefixes of pytest plugins (`pytest_cov`, `pytest_asyncio`). */
export const PY_FRAMEWORK_PREFIXES = ['pytest_'] as const

/** npm packages (and subpaths) of JavaScript test runners and assertion libraries. */
export const JS_FRAMEWORK_PACKAGES = [
  'vitest',
  'vite-node',
  'jest',
  'expect',
  'node:test',
  'mocha',
  'chai',
  'sinon',
  'jasmine',
  'ava',
  'tap',
  'uvu',
  'tinyspy',
  'fast-check',
  '@playwright/test'
] as const
/** npm scopes and name prefixes of runner internals (`@vitest/expect`, `jest-circus`). */
export const JS_FRAMEWORK_PREFIXES = [
  '@vitest/',
  '@jest/',
  'jest-',
  'chai-',
  '@sinonjs/',
  '@fast-check/'
] as const

/** Globals a JavaScript runner installs; production code that uses them runs only under test. */
export const JS_RUNNER_GLOBALS = new Set(['expect', 'vi', 'jest', 'chai'])

/** Substrings of string literals and property names that name runner internals. */
export const JS_RUNNER_INTERNAL_STRINGS = [
  'expect-global',
  '$$jest-matchers-object',
  'jest-matchers',
  '$$jest',
  'jest-symbol-do-not-touch',
  '__vitest_',
  'vitest:',
  '__VITEST_'
] as const
/** Property names a runner's equality consults: `toEqual` trusts an object's own verdict. */
export const JS_RUNNER_PROTOCOL_NAMES = new Set(['asymmetricMatch'])

/** Node modules whose members an assertion depends on (mutating them neuters assertions). */
export const JS_ASSERT_MODULES = new Set(['assert', 'assert/strict', 'util'])

/**
 * Environment variables (and literal prefixes of them) that tell code it runs under a test
 * runner or the gate. NODE_ENV is not one: libraries legitimately read it.
 */
export const MARKER_PREFIXES = [
  'PYTEST',
  '_PYTEST',
  'VITEST',
  'JEST_',
  'NODE_TEST',
  'ORACLE_GATE',
  'MOCHA_',
  'HYPOTHESIS_'
] as const
export const MARKER_EXACT = new Set(['JEST', 'PYTEST_CURRENT_TEST', 'NODE_TEST_CONTEXT'])

/** Substrings of literals that name a runner's report option or location. */
export const REPORT_MARKERS = [
  'junitxml',
  '--junit',
  'outputfile.junit',
  'jest-junit',
  'jest_junit',
  'test-reporter-destination',
  '--test-reporter',
  'resultlog'
] as const

/** Names of test runners and libraries, as a runner-detection check spells them. */
export const RUNNER_NAMES = new Set([
  'pytest',
  '_pytest',
  'py.test',
  'hypothesis',
  'unittest',
  'pluggy',
  'vitest',
  'jest',
  'mocha',
  'node:test',
  '--test',
  'jasmine',
  'ava'
])

/** Python objects that tell code where it runs: a runner name next to one is detection. */
export const PY_RUNTIME_SOURCES = [
  'sys.modules',
  'sys.argv',
  'sys.orig_argv',
  'sys.executable',
  'os.environ',
  'os.getenv',
  'sys.flags'
] as const
/** JavaScript counterparts. */
export const JS_RUNTIME_SOURCES = [
  'process.argv',
  'process.execArgv',
  'process.env',
  'process.title',
  'process.mainModule',
  'require.cache',
  'require.main',
  'module.parent',
  'module.children'
] as const

/** Python callables and attributes that read callers' frames, the heap or the tracer. */
export const PY_INTROSPECTION = [
  'inspect.stack',
  'inspect.currentframe',
  'inspect.getouterframes',
  'inspect.getinnerframes',
  'inspect.getframeinfo',
  'inspect.trace',
  'sys._getframe',
  'sys._current_frames',
  'sys.settrace',
  'sys.setprofile',
  'sys.monitoring',
  'threading.settrace',
  'threading.setprofile',
  'gc.get_objects',
  'gc.get_referrers',
  'gc.get_referents',
  'traceback.extract_stack',
  'traceback.walk_stack',
  'traceback.format_stack',
  'traceback.print_stack'
] as const
/**
 * Frame attributes that lead to callers and their variables, whatever object they are read
 * from (a traceback's own `tb_frame` and `f_code`, used by error reports, are not).
 */
export const PY_FRAME_ATTRIBUTES = new Set(['f_back', 'f_locals', 'f_globals'])

/** JavaScript members that read the call stack, callers or the heap. */
export const JS_INTROSPECTION = [
  'Error.prepareStackTrace',
  'arguments.callee',
  'arguments.caller',
  'process.binding',
  'process._linkedBinding',
  'process._getActiveHandles',
  'process._getActiveRequests',
  'v8.getHeapSnapshot',
  'v8.writeHeapSnapshot',
  'inspector',
  'Function.prototype.caller',
  'Function.prototype.arguments'
] as const

/** Python calls and attributes that end, replace or outlive the runner's process. */
export const PY_PROCESS_CALLS = [
  'os._exit',
  'os.abort',
  'signal.alarm',
  'signal.setitimer',
  'os.dup2'
] as const
export const PY_PROCESS_EXEC_PREFIX = 'os.exec'
/** Hooks that fire at the runner's exit or on its errors; assigning them hijacks the run. */
export const PY_PROCESS_HOOKS = [
  'sys.excepthook',
  'sys.unraisablehook',
  'threading.excepthook',
  'sys.stdout',
  'sys.stderr',
  'sys.__stdout__',
  'sys.__stderr__'
] as const
/** Habits of command-line entry points (a notice there, a failure anywhere else). */
export const PY_ENTRY_HABITS = ['atexit.register', 'signal.signal', 'sys.exit'] as const

export const JS_PROCESS_CALLS = [
  'process.exit',
  'process.reallyExit',
  'process.abort',
  'process.removeAllListeners',
  'process.setUncaughtExceptionCaptureCallback',
  'process.emit'
] as const
export const JS_PROCESS_LISTENERS = new Set([
  'on',
  'once',
  'addListener',
  'prependListener',
  'prependOnceListener'
])
/** Events whose listener runs when the runner ends or fails. */
export const JS_PROCESS_EVENTS = new Set([
  'exit',
  'beforeExit',
  'uncaughtException',
  'unhandledRejection',
  'uncaughtExceptionMonitor'
])
export const JS_PROCESS_ASSIGNED = [
  'process.exitCode',
  'process.stdout.write',
  'process.stderr.write',
  'process.exit'
] as const

/** Python dunders that decide comparisons, membership and type checks. */
export const PY_COMPARISON_DUNDERS = new Set([
  '__eq__',
  '__ne__',
  '__lt__',
  '__le__',
  '__gt__',
  '__ge__',
  '__contains__',
  '__instancecheck__',
  '__subclasscheck__'
])
/** Built-in value types whose subclasses must not redefine comparison. */
export const PY_VALUE_TYPES = new Set([
  'int',
  'float',
  'complex',
  'str',
  'bytes',
  'bool',
  'tuple',
  'list',
  'dict',
  'set',
  'frozenset',
  'decimal.Decimal',
  'fractions.Fraction',
  'Decimal',
  'Fraction'
])
/** Python modules whose members comparisons and assertions use. */
export const PY_PATCHED_MODULES = new Set(['builtins', '__builtins__', 'operator', 'math', 'cmath'])

/** JavaScript globals whose members (and prototypes) every comparison relies on. */
export const JS_BUILTIN_GLOBALS = new Set([
  'Object',
  'Array',
  'String',
  'Number',
  'Boolean',
  'BigInt',
  'Symbol',
  'Function',
  'Promise',
  'Error',
  'Math',
  'JSON',
  'Reflect',
  'Map',
  'Set',
  'WeakMap',
  'Date',
  'RegExp',
  'Buffer'
])
export const JS_PRIMITIVE_WRAPPERS = new Set(['Number', 'String', 'Boolean', 'BigInt'])
