// What the gate's node watcher (gate-reach.cjs) wraps, and how it tells the patch's lines:
// fs calls on the instrument's paths, the report's and /proc's; child processes; reads of
// the runners' environment keys; process exits, kills and exit hooks; Symbol.for of the
// runners' keys and the runners' globals; writes to the intrinsics the matchers use, in this
// realm and in every vm context (jest runs each test file in one). Each check is cheap and
// only a hit reads the stack: the structured frames (our own prepareStackTrace for the one
// capture, so the product cannot hide them), mapped through the inline source map of the
// code vitest and jest compile (vm), kept for the patch's files only. A record names the
// first frame on a line of the plan; anything else passes silently.
'use strict'
const fs = require('node:fs')
// The original, before hookFs wraps it (the watcher's own read of /proc is not the product's).
const { readFileSync } = fs
const fsp = require('node:fs/promises')
const childProcess = require('node:child_process')
const Module = require('node:module')
const { syncBuiltinESMExports } = Module
const { dirname, isAbsolute, relative, resolve } = require('node:path')
const { fileURLToPath } = require('node:url')
const vm = require('node:vm')
// The definer before guardRealm wraps it (the watcher's own definitions are not the product's).
const defineOwn = Object.defineProperty

/** The runner-state module, out of the registry at once like this one (gate-reach.cjs). */
function loadState() {
  const path = require.resolve('./runner-state.cjs')
  const state = require(path)
  delete Module._cache[path]
  return state
}
const {
  author,
  baseline,
  commandLines,
  digests,
  envProxy,
  envState,
  hideRunnerObjects,
  holdsCommandLine
} = loadState()
// This watcher's own files (and the gate's reporters beside them): never the patch's frames.
const HERE_DIR = `${dirname(__filename)}/`
const isSelf = file => typeof file === 'string' && file.startsWith(HERE_DIR)
const RUNNER_CODE =
  /\/node_modules\/(?:jest|jest-[^/]+|@jest\/[^/]+|expect|vitest|@vitest\/[^/]+|vite-node|vite|tinypool|tinyspy|chai)\//
// (The runners' keys and globals are written inside the guards, which are also compiled
// into jest's test contexts from their source, where this module's constants do not exist.)
const FRAMEWORK_MODULES =
  /^(node:test|vitest|vite-node|expect|jest|mocha|chai|sinon|tinyspy|@vitest\/|@jest\/|jest-|chai-|@sinonjs\/)/
// Listeners that can change how a run ends (swallow a failure, act at exit). A signal
// handler is a graceful shutdown: the gate's timeout kills the process group regardless.
const EXIT_EVENTS = new Set(['exit', 'beforeExit', 'uncaughtException', 'unhandledRejection'])

/** Installs every hook; `emit` sends one record, `drain` reads the children's last ones. */
function install(plan, emit, drain, ownFds, runnerOnly = false) {
  // The runner's process, fed no environment by the gate, holds its own as the handed one.
  if (runnerOnly && (plan.env === null || typeof plan.env !== 'object')) plan.env = handedHere()
  // The command lines of this process (and of the shell above the runner's): a child's
  // output that holds one printed the runner's. Passed on to every spawn with the plan.
  plan.ancestors = [
    ...(Array.isArray(plan.ancestors) ? plan.ancestors : []),
    ...commandLines(readFileSync, runnerOnly ? [process.ppid, process.pid] : [process.pid])
  ]
  const where = attribution(plan)
  const seen = new Set()
  const reportAt = (at, category, what) => {
    if (at === null) return
    const key = `${category}\0${what}\0${at.path}\0${at.line}`
    if (seen.has(key) || seen.size > 5000) return
    seen.add(key)
    emit({ t: 'reach', category, what, path: at.path, line: at.line })
  }
  const report = (category, what, direct = false) => reportAt(where.find(direct), category, what)
  // A replacement seen after the fact (guardRealm's RegExp.prototype): judged by where the
  // new value's source is; one with no source at all (a built-in) names no line.
  report.located = (category, what, value) => {
    const at = where.locate(value)
    if (at !== undefined) reportAt(at, category, what)
    else reportAt({ path: '', line: 0 }, category, `${what} by a value with no source line`)
  }
  // Where the runner's state is hidden from the patch's lines instead (a listing, argv).
  // Files the merge base's lints.reach_allow waives for `markers` (plan.open) see the
  // runner's state as it is: nothing is hidden from their lines.
  const open = new Set(Array.isArray(plan.open) ? plan.open : [])
  const hideAt = direct => {
    const at = where.find(direct)
    return at !== null && open.has(at.path) ? null : at
  }
  report.at = hideAt
  const paths = sensitivePaths(plan)
  hookFs(paths, report, ownFds)
  // The environment a spawn copies for its child is no read of the product's; a child the
  // patch's line starts gets production's (hookChildren).
  const quiet = { depth: 0 }
  const state = envState(plan)
  const outlived = hookChildren(report, quiet, paths, where, reportAt, {
    ancestors: plan.ancestors,
    state
  })
  const envWatch = {
    at: direct => (quiet.depth === 0 ? hideAt(direct) : null),
    reportAt,
    writer: () => where.writer()
  }
  // The runner's own process (vitest's main, jest's, node --test's) runs no test in its
  // main realm: jest's in-band files run in vm contexts, guarded when created (hookVm).
  // There the hot views (env, intrinsics) would only slow the runner's own work down.
  if (!runnerOnly) hookEnv(state, envWatch)
  hookProcess(report, () => {
    outlived()
    drain()
  })
  const base = baseline(process)
  where.loaded = () => base.mark()
  hideRunnerObjects(process, { ...envWatch, at: hideAt }, base, wrapOn)
  hookModules(report)
  const owned = runnerOwned(paths, state)
  hookProcessInfo(process, owned, report)
  hookRegistry(paths, owned, report, where)
  // Objects the runner's matchers are: node:assert's exports (node:test's), watched as
  // objects whatever key writes them, in every realm's definers too.
  const objects = new WeakMap()
  watchAssert(objects, report)
  // Each guarded realm's last look at what it cannot guard (guardRealm), as the process ends.
  const realms = new WeakMap()
  const held = []
  const guarded = (G, check) => {
    realms.set(G, check)
    held.push(new WeakRef(G))
  }
  process.on('exit', () => held.forEach(ref => realms.get(ref.deref())?.()))
  if (!runnerOnly) guarded(globalThis, guardRealm(globalThis, report, objects))
  hookVm(where, report, objects, owned, { state, watch: envWatch, guarded })
  syncBuiltinESMExports()
}

/** This process's environment as the handed one (its keys at load, the gate's own out). */
function handedHere() {
  const env = { ...process.env }
  for (const key of Object.keys(env))
    if (key.startsWith('ORACLE_GATE_') || key === 'TEST_OUTCOME_STREAM') delete env[key]
  return digests(env)
}

/** target[name] replaced by make(original), the original's members kept. */
function wrapOn(target, name, make) {
  const fn = target[name]
  if (typeof fn === 'function') target[name] = keepProps(fn, make(fn))
}

/** The first frame of the stack on one of the plan's lines, or null. */
function attribution(plan) {
  const root = plan.root
  const lines = plan.lines ?? {}
  const files = new Map()
  for (const [path, ranges] of Object.entries(lines))
    files.set(resolve(root, path), { path, ranges })
  // No frame can be the patch's before one of its files loads: until then a stack is not
  // even captured. A file node may load as native ESM (no hook of the watcher sees that
  // load) makes every stack worth looking at from the start.
  // (Each directory's package scope read once: the plan's files mostly share a few.)
  const scopes = new Map()
  let live = [...files.keys()].some(file => nativeEsm(file, scopes))
  const maps = new Map()
  const capture = Error.captureStackTrace
  // A direct read is decided by the first frames past this file's: a short stack is enough.
  const sites = depth => {
    const prepare = Error.prepareStackTrace
    const limit = Error.stackTraceLimit
    const holder = {}
    try {
      Error.prepareStackTrace = (_, frames) => frames
      Error.stackTraceLimit = depth
      capture(holder, sites)
      return Array.isArray(holder.stack) ? holder.stack : []
    } catch {
      return []
    } finally {
      Error.prepareStackTrace = prepare
      Error.stackTraceLimit = limit
    }
  }
  const fileOf = name => {
    if (typeof name !== 'string') return null
    if (name.startsWith('file://')) {
      try {
        return fileURLToPath(name.split('?')[0])
      } catch {
        return null
      }
    }
    return isAbsolute(name) ? name : null
  }
  const onPlan = (file, line) => {
    const entry = files.get(file)
    if (entry === undefined) return null
    return entry.ranges.some(([a, b]) => line >= a && line <= b) ? { path: entry.path, line } : null
  }
  const mapped = (file, line, column) => {
    const map = maps.get(file)
    if (map === undefined) return { file, line }
    const entry = map.findEntry(line - 1, Math.max(0, column - 1))
    if (!entry || typeof entry.originalLine !== 'number' || !entry.originalSource)
      return { file, line }
    const source = fileOf(entry.originalSource) ?? resolve(dirname(file), entry.originalSource)
    return { file: source, line: entry.originalLine + 1 }
  }
  return {
    files,
    /** Who makes the current call: a test or the product ('own'), node, or the runner. */
    writer() {
      // The nearest frames decide most calls; the deeper stack only when they leave it open.
      const near = sites(12)
      return (
        author(near, root, isSelf, RUNNER_CODE, near.length < 12) ??
        author(sites(60), root, isSelf, RUNNER_CODE, true)
      )
    },
    /** Called when the first of the patch's files loads (set by install). */
    loaded: () => {},
    /** One of the patch's files is loading (require, or code compiled for it). */
    arrive() {
      live = true
      this.loaded()
    },
    keepMap(filename, code) {
      const file = fileOf(filename)
      if (file === null || !files.has(file) || typeof code !== 'string') return
      this.arrive()
      const at = code.lastIndexOf('sourceMappingURL=data:application/json')
      if (at < 0) return
      const comma = code.indexOf(',', at)
      const end = code.slice(comma + 1).search(/\s|$/)
      try {
        const payload = JSON.parse(
          Buffer.from(code.slice(comma + 1, comma + 1 + end), 'base64').toString('utf8')
        )
        // (Module.SourceMap is a lazy getter: read only for a file that has a map.)
        maps.set(file, new Module.SourceMap(payload))
      } catch {
        // no usable map: raw lines
      }
    },
    /**
     * The plan's line a value's source is on (a function, or a bound one's target: the
     * inspector's [[FunctionLocation]]), or null; undefined for a value that has no source
     * (a built-in, a proxy, a non-function), which no line can be told for.
     */
    locate(value) {
      const at = functionLocation(value)
      if (at === undefined) return undefined
      const file = at === null ? null : fileOf(at.url)
      if (file === null) return null
      const place = mapped(file, at.line, at.column)
      return onPlan(place.file, place.line)
    },
    /**
     * `direct`: only the first frame outside this file counts, and a read made by node's own
     * code (`node:` frames: fetch reading JEST_WORKER_ID on the caller's behalf) is node's.
     */
    find(direct) {
      if (!live) return null
      // A direct read is decided by the first frame past the watcher's (a few of its own).
      if (direct) {
        const near = sites(8)
        const found = scan(near, true)
        return found !== undefined || near.length < 8
          ? (found ?? null)
          : (scan(sites(16), true) ?? null)
      }
      // Most calls are decided by their nearest frames (the runner's code, or the patch's
      // line): the whole stack is captured only when those leave it open.
      const near = sites(16)
      const found = scan(near, false)
      if (found !== undefined || near.length < 16) return found ?? null
      return scan(sites(200), false) ?? null
    }
  }
  /** The patch's line of a stack (null: none can be; undefined: not decided by `frames`). */
  function scan(frames, direct) {
    for (const site of frames) {
      const name = site.getFileName?.()
      const file = fileOf(name)
      if (direct && /^node:/.test(String(name))) return null
      // node:test's runner is node's own code: what it does is the runner's.
      if (String(name).startsWith('node:internal/test_runner/')) return null
      if (direct && (file === null || isSelf(file))) continue
      if (file === null || !files.has(file)) {
        // The runner's own code, called under the patch's line (jest's require writing its
        // transform cache registers signal handlers), acts on the runner's account.
        if (direct || (file !== null && RUNNER_CODE.test(file))) return null
        continue
      }
      const at = mapped(file, site.getLineNumber() ?? 0, site.getColumnNumber() ?? 0)
      const hit = onPlan(at.file, at.line)
      if (hit !== null) return hit
    }
    return undefined
  }
}

/**
 * Where a function's source is, read through the inspector (this process's own session, no
 * port): { url, line, column } (1-based), null when the inspector cannot say, undefined for a
 * value with no source of its own. Costly (~4 ms): only for a replacement already seen.
 */
function functionLocation(value) {
  if (typeof value !== 'function') return undefined
  let session
  const key = `__oracle_gate_${process.pid}_${Math.random().toString(36).slice(2)}`
  try {
    session = new (require('node:inspector').Session)()
    session.connect()
  } catch {
    return null
  }
  const scripts = new Map()
  session.on('Debugger.scriptParsed', m => scripts.set(m.params.scriptId, m.params.url))
  const post = (method, params) => {
    let out = null
    session.post(method, params, (error, result) => (out = error ? null : result))
    return out
  }
  try {
    defineOwn(globalThis, key, { value, configurable: true })
    post('Debugger.enable', {})
    let id = post('Runtime.evaluate', { expression: `globalThis[${JSON.stringify(key)}]` })?.result
      ?.objectId
    for (let hops = 0; id && hops < 8; hops++) {
      const inner = post('Runtime.getProperties', {
        objectId: id,
        ownProperties: true
      })?.internalProperties
      const loc = inner?.find(p => p.name === '[[FunctionLocation]]')?.value?.value
      if (loc) {
        const url = scripts.get(loc.scriptId)
        return url ? { url, line: loc.lineNumber + 1, column: loc.columnNumber + 1 } : null
      }
      id = inner?.find(p => p.name === '[[TargetFunction]]')?.value?.objectId
    }
    return undefined
  } catch {
    return null
  } finally {
    delete globalThis[key]
    try {
      session.disconnect()
    } catch {
      // gone
    }
  }
}

/** Whether node may load a file as native ESM: `.mjs`/`.mts`, or its package's "type". */
function nativeEsm(file, scopes) {
  if (/\.m[jt]s$/.test(file)) return true
  if (!/\.[jt]sx?$/.test(file)) return false
  return moduleScope(dirname(file), scopes)
}

/** Whether the nearest package.json at or above `dir` says "type": "module" (memoized). */
function moduleScope(dir, scopes) {
  const known = scopes.get(dir)
  if (known !== undefined) return known
  let result
  try {
    result = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')).type === 'module'
  } catch (error) {
    result = error?.code === 'ENOENT' && dirname(dir) !== dir && moduleScope(dirname(dir), scopes)
  }
  scopes.set(dir, result)
  return result
}

/** The code vitest and jest compile for the patch's files: its inline map is kept. */
function hookVm(where, report, objects, owned, env) {
  const filenameOf = options => (typeof options === 'string' ? options : options?.filename)
  const runInThisContext = vm.runInThisContext
  vm.runInThisContext = function (code, options) {
    where.keepMap(filenameOf(options), code)
    return runInThisContext.apply(this, arguments)
  }
  const runInContext = vm.runInContext
  vm.runInContext = function (code, context, options) {
    where.keepMap(filenameOf(options), code)
    return runInContext.apply(this, arguments)
  }
  const compileFunction = vm.compileFunction
  vm.compileFunction = function (code, params, options) {
    where.keepMap(filenameOf(options), code)
    return compileFunction.apply(this, arguments)
  }
  const Script = vm.Script
  vm.Script = class extends Script {
    constructor(code, options) {
      where.keepMap(filenameOf(options), code)
      super(code, options)
    }
  }
  const createContext = vm.createContext
  vm.createContext = function () {
    const context = createContext.apply(this, arguments)
    try {
      // The context's own intrinsics: the guard runs there, reporting through ours.
      const global = runInContext('this', context)
      env.guarded(global, runInContext(`(${guardRealmSource})`, context)(global, report, objects))
      watchContextProcess(global, report, owned, env)
    } catch {
      // a context that cannot run code (no code generation) has no tests in it
    }
    return context
  }
}

/** A wrapper with the wrapped function's own members (`realpathSync.native`, promisify's). */
function keepProps(fn, wrapper) {
  for (const key of Reflect.ownKeys(fn)) {
    if (key === 'length' || key === 'name' || key === 'prototype') continue
    Object.defineProperty(wrapper, key, Object.getOwnPropertyDescriptor(fn, key))
  }
  return wrapper
}

/** Absolute prefixes the product may not touch, each with its category. */
function sensitivePaths(plan) {
  const out = []
  for (const p of plan.instrument ?? [])
    out.push({ at: resolve(plan.root, p), category: 'instrument' })
  for (const p of plan.report ?? []) out.push({ at: resolve(p), category: 'instrument' })
  return out
}

const PROC = /^\/proc\/(self|thread-self|\d+)(\/|$)|^\/dev\/fd(\/|$)/

function pathOf(value) {
  if (typeof value === 'string') return value
  if (value instanceof URL) return value.protocol === 'file:' ? fileURLToPath(value) : null
  if (Buffer.isBuffer(value)) return value.toString('utf8')
  return null
}

function hookFs(paths, report, ownFds) {
  const check = (name, value) => {
    const raw = pathOf(value)
    if (raw === null || raw === '') return
    // Most calls name a plain absolute path outside every watched one: no resolve. (No
    // guarded intrinsic here: the accessors would cost on every call.)
    if (raw[0] === '/' && !/\/\.|\/\//.test(raw) && !PROC.test(raw)) {
      let near = false
      for (let i = 0; i < paths.length && !near; i++)
        near = raw.slice(0, paths[i].at.length) === paths[i].at
      if (!near) return
    }
    const abs = resolve(raw)
    if (PROC.test(abs)) return report('introspection', `fs.${name} of ${abs.slice(0, 80)}`)
    for (const p of paths)
      if (abs === p.at || abs.startsWith(`${p.at}/`))
        return report(p.category, `fs.${name} of ${relative(process.cwd(), abs).slice(0, 120)}`)
  }
  const TWO = new Set([
    'copyFile',
    'copyFileSync',
    'cp',
    'cpSync',
    'rename',
    'renameSync',
    'link',
    'linkSync',
    'symlink',
    'symlinkSync'
  ])
  const wrapAll = (target, prefix) => {
    for (const name of Object.keys(target)) {
      // (The classes first: reading fs.ReadStream loads node's streams, ~10 ms a process.)
      if (/^[A-Z]/.test(name) || name === 'promises') continue
      const fn = target[name]
      if (typeof fn !== 'function') continue
      const two = TWO.has(name)
      const closes = name === 'close' || name === 'closeSync'
      target[name] = keepProps(
        fn,
        {
          [name](a, b) {
            const own = a === ownFds[0]
            if (closes && own) {
              report('process', 'closed the gate’s descriptor')
              if (typeof b === 'function') b(null)
              return undefined
            }
            if (own) report('process', 'wrote to the gate’s descriptor')
            else {
              check(`${prefix}${name}`, a)
              if (two) check(`${prefix}${name}`, b)
            }
            return fn.apply(this, arguments)
          }
        }[name]
      )
    }
  }
  wrapAll(fs, '')
  wrapAll(fsp, 'promises.')
}

/**
 * A process a patch's line starts counts, as in the Python watcher, when it runs the runner
 * or the tests (another vote, out of the gate's sight), or when it outlives this process (a
 * detached, unreferenced child, or one still running at exit). A child it waits for (an
 * execFileSync of git, a spawn it reads to its end) is the product's own business.
 */
function hookChildren(report, quiet, paths, where, reportAt, { ancestors, state }) {
  const { ChildProcess } = childProcess
  const runsTests = runsTheTests(paths)
  const production = productionEnv(state)
  // What a child the patch's line ran printed: the runner's command line (`ps` of the
  // parent) is reported as argv would be hidden. (A waited-for child's output only.)
  const printed = result => {
    if (holdsCommandLine(ancestors, result))
      report('markers', 'a child process printed the runner’s command line')
  }
  const patched = () => where.find(false) !== null
  for (const name of ['spawn', 'fork']) quietly(name, quiet, patched, undefined, production)
  for (const name of ['exec', 'execFile'])
    quietly(name, quiet, patched, undefined, (args, fromPatch) => {
      const out = production(args, fromPatch)
      const at = out.findIndex(a => typeof a === 'function')
      if (!fromPatch || at < 0) return out
      const done = out[at]
      out[at] = function (error, stdout, stderr) {
        printed({ stdout, stderr })
        return done.apply(this, arguments)
      }
      return out
    })
  const started = []
  const spawn = ChildProcess.prototype.spawn
  ChildProcess.prototype.spawn = function (options) {
    const line = commandOf(options?.file, options?.args)
    if (runsTests(line)) report('process', `spawned the runner or the tests: ${line.slice(0, 80)}`)
    else {
      const at = where.find(false)
      if (at !== null) {
        const child = { process: this, at, what: line.slice(0, 80) }
        if (options?.detached === true) {
          const unref = this.unref
          this.unref = function () {
            reportAt(
              at,
              'process',
              `started a detached process it does not wait for: ${child.what}`
            )
            return unref.apply(this, arguments)
          }
        }
        started.push(child)
      }
    }
    return spawn.apply(this, arguments)
  }
  for (const name of ['spawnSync', 'execSync', 'execFileSync'])
    quietly(
      name,
      quiet,
      patched,
      (file, args) => {
        const line = commandOf(file, Array.isArray(args) ? args : [])
        if (runsTests(line))
          report('process', `${name} of the runner or the tests: ${line.slice(0, 80)}`)
      },
      production,
      printed
    )
  return () => {
    for (const child of started.splice(0))
      if (running(child.process))
        reportAt(child.at, 'process', `started a process that outlived the run: ${child.what}`)
  }
}

/**
 * childProcess[name] wrapped: `before` sees the call's file and arguments first, and the
 * environment the spawn copies for its child is no read of the product's (quiet). For a
 * call of the patch's line (`patched()`), `args` may replace the arguments and `after`
 * sees the result.
 */
function quietly(name, quiet, patched, before = () => {}, args = a => a, after = () => {}) {
  const fn = childProcess[name]
  childProcess[name] = keepProps(
    fn,
    {
      [name]() {
        before(arguments[0], arguments[1])
        const fromPatch = patched()
        const given = args(arguments, fromPatch)
        quiet.depth++
        let result
        try {
          result = fn.apply(this, given)
        } finally {
          quiet.depth--
        }
        if (fromPatch) after(result)
        return result
      }
    }[name]
  )
}

/**
 * The arguments of a spawn the patch's line makes, its options' environment made
 * production's: the runner's keys left out of the one given, or of this process's (what
 * node would copy). Options go after the optional argument list, before a callback.
 */
function productionEnv(state) {
  const without = env => {
    const out = {}
    for (const key of Object.keys(env)) if (!state.runnerKey(key, env[key])) out[key] = env[key]
    return out
  }
  return (args, fromPatch) => {
    const out = [...args]
    if (!fromPatch) return out
    const isOptions = a => a !== null && typeof a === 'object' && !Array.isArray(a)
    let at = out.findIndex((a, i) => i > 0 && isOptions(a))
    if (at < 0) {
      at = Array.isArray(out[1]) ? 2 : 1
      while (out.length < at) out.push(undefined)
      const fn = typeof out[at] === 'function'
      if (out[at] !== undefined && !fn) return out
      out.splice(at, 0, {})
    }
    out[at] = { ...out[at], env: without(out[at].env ?? process.env) }
    return out
  }
}

function commandOf(file, args) {
  const words = [String(file ?? ''), ...(Array.isArray(args) ? args.map(String) : [])]
  return words.join(' ')
}

/** Whether a command line runs a test runner or names the instrument's files. */
function runsTheTests(paths) {
  const runners = /vitest|jest|mocha|pytest|tinypool|node:test|(^|\s)--test(\s|=|$)/
  return line =>
    runners.test(line) ||
    line
      .split(/\s+/)
      .some(w => w !== '' && paths.some(p => p.category === 'instrument' && inside(w, p.at)))
}

function inside(word, at) {
  const abs = resolve(word)
  return abs === at || abs.startsWith(`${at}/`)
}

/** A child not seen to end whose pid is still a live process (a zombie has ended). */
function running(child) {
  if (child.exitCode !== null || child.signalCode !== null || !(child.pid > 0)) return false
  try {
    const stat = readFileSync(`/proc/${child.pid}/stat`, 'utf8')
    return !/\)\s+[ZX]\s/.test(stat)
  } catch {
    return false
  }
}

function hookEnv(state, watch) {
  const env = envProxy(process.env, state, watch)
  Object.defineProperty(process, 'env', {
    value: env,
    writable: true,
    configurable: true,
    enumerable: true
  })
}

/** The traps of a watched object's look-ups by key (`in`, descriptors): each one noted. */
function lookups(note) {
  return {
    has(target, key) {
      note(key)
      return Reflect.has(target, key)
    },
    getOwnPropertyDescriptor(target, key) {
      note(key)
      return Reflect.getOwnPropertyDescriptor(target, key)
    }
  }
}

/** jest gives each test file's context a copy of process with a copy of its env. */
function watchContextProcess(global, report, owned, env) {
  let value = global.process
  Object.defineProperty(global, 'process', {
    configurable: true,
    enumerable: false,
    get() {
      return value
    },
    set(next) {
      if (next !== null && typeof next === 'object' && next.env && typeof next.env === 'object')
        try {
          next.env = envProxy(next.env, env.state, env.watch)
          hookProcessInfo(next, owned, report)
        } catch {
          // an env that cannot be replaced is read unwatched
        }
      value = next
    }
  })
}

/**
 * Whether a process-information value holds what the runner made: its own modules
 * (node_modules, the runners' names, node --test's flags), the instrument's paths, or the
 * runners' environment keys. Production run alone would see none of these.
 */
function runnerOwned(paths, state) {
  const words = /node_modules|vitest|jest|tinypool|mocha|node:test|^--test|oracle.gate/i
  const word = w => typeof w === 'string' && (words.test(w) || paths.some(p => inside(w, p.at)))
  return value => {
    if (typeof value === 'string') return word(value)
    if (Array.isArray(value)) return value.some(word)
    // An environment (the diagnostic report's): one that holds a key the runner set.
    if (value !== null && typeof value === 'object')
      return Object.keys(value).some(k => word(k) || state.runnerKey(k, value[k]))
    return false
  }
}

/**
 * The runner's command line and environment as a product line can obtain them besides
 * process.env: process.argv/execArgv (a vitest or jest worker's, node --test's per-file
 * child's) and the diagnostic report's header and environment. A read from a patch line
 * counts when what it obtained holds what the runner made; the rest of the report (versions,
 * memory, the host) is diagnostics and passes.
 */
function hookProcessInfo(proc, owned, report) {
  for (const key of ['argv', 'execArgv']) {
    const d = Object.getOwnPropertyDescriptor(proc, key)
    if (!d || !('value' in d) || !d.configurable) continue
    let value = d.value
    // Judged once per array and length (the runner reads its argv often; it seldom changes).
    let judged = { of: undefined, length: -1, owned: false }
    const holds = () => {
      if (judged.of !== value || judged.length !== value?.length)
        judged = { of: value, length: value?.length, owned: owned(value) }
      return judged.owned
    }
    Object.defineProperty(proc, key, {
      configurable: true,
      enumerable: d.enumerable,
      // A patch line that reads the runner's command line gets production's instead (the
      // interpreter alone): an honest flag check reads no flag, a probe finds no runner.
      get() {
        if (holds() && report.at?.(true)) return key === 'argv' ? value.slice(0, 1) : []
        return value
      },
      set(next) {
        value = next
      }
    })
  }
  // process.report is node's lazy getter (it loads the report module): wrapped at first use.
  const d = Object.getOwnPropertyDescriptor(proc, 'report')
  if (d?.get && d.configurable) {
    const wrapped = new WeakSet()
    Object.defineProperty(proc, 'report', {
      ...d,
      get() {
        const diag = d.get.call(this)
        if (!wrapped.has(diag)) watchDiagnostics(diag, owned, report, wrapped)
        return diag
      }
    })
  } else watchDiagnostics(proc.report, owned, report, new WeakSet())
}

function watchDiagnostics(diag, owned, report, wrapped) {
  if (diag === null || typeof diag !== 'object' || typeof diag.getReport !== 'function') return
  wrapped.add(diag)
  const original = diag.getReport
  diag.getReport = keepProps(original, function getReport() {
    const result = original.apply(this, arguments)
    watchReport(result, owned, report)
    return result
  })
}

/** The report's environment and command line become views that say when they are read. */
function watchReport(result, owned, report) {
  const watchKey = (holder, key, label) => {
    if (holder === null || typeof holder !== 'object') return
    // (A report already watched, by the wrapper of another process object, has accessors.)
    const d = Object.getOwnPropertyDescriptor(holder, key)
    if (!d || !('value' in d)) return
    const value = d.value
    if (!owned(value)) return
    Object.defineProperty(holder, key, {
      configurable: true,
      enumerable: true,
      get() {
        report('markers', `process.report.getReport() ${label} read (the runner's)`, true)
        return value
      }
    })
  }
  watchKey(result, 'environmentVariables', 'environment')
  watchKey(result?.header, 'commandLine', 'command line')
}

/** node:assert's exports and its strict twin: a write to any member is reported. */
function watchAssert(objects, report) {
  const assert = require('node:assert')
  for (const [target, label] of [
    [assert, 'node:assert'],
    [assert.strict, 'node:assert/strict']
  ]) {
    if (objects.has(target)) continue
    objects.set(target, label)
    for (const key of Reflect.ownKeys(target)) {
      const d = Object.getOwnPropertyDescriptor(target, key)
      if (!d || !('value' in d) || !d.configurable || key === 'prototype') continue
      let value = d.value
      Object.defineProperty(target, key, {
        configurable: true,
        enumerable: d.enumerable,
        get() {
          return value
        },
        set(next) {
          report('framework', `${label}'s ${String(key).slice(0, 40)} replaced`)
          value = next
        }
      })
    }
  }
}

function hookProcess(report, drain) {
  const wrap = (name, what) => {
    const fn = process[name]
    if (typeof fn !== 'function') return
    process[name] = keepProps(
      fn,
      {
        // (No rest parameters: process.emit runs for every event the process sees.)
        [name]() {
          const said = what(arguments[0])
          if (said) report('process', said)
          return fn.apply(this, arguments)
        }
      }[name]
    )
  }
  const own = pid =>
    pid === process.pid || pid === process.ppid || pid === 0 || pid < 0 || pid === 1
  wrap('exit', code => `process.exit(${Number(code ?? 0)})`)
  wrap('abort', () => 'process.abort()')
  wrap('kill', pid =>
    own(Number(pid))
      ? `process.kill of ${Number(pid) === process.pid ? 'itself' : 'the runner'}`
      : null
  )
  wrap(
    'removeAllListeners',
    event => `process.removeAllListeners(${String(event ?? '').slice(0, 40)})`
  )
  wrap('setUncaughtExceptionCaptureCallback', () => 'process.setUncaughtExceptionCaptureCallback')
  for (const name of ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener'])
    wrap(name, event => (EXIT_EVENTS.has(event) ? `process.${name}('${String(event)}')` : null))
  wrap('emit', event => (EXIT_EVENTS.has(event) ? `process.emit('${String(event)}')` : null))
  const reallyExit = process.reallyExit
  process.reallyExit = function (code) {
    report('process', `process.reallyExit(${Number(code ?? 0)})`)
    drain()
    return reallyExit.apply(this, arguments)
  }
  process.on('exit', () => drain())
  const exitCode = Object.getOwnPropertyDescriptor(process, 'exitCode')
  if (exitCode?.configurable && exitCode.set) {
    Object.defineProperty(process, 'exitCode', {
      ...exitCode,
      set(value) {
        report('process', `process.exitCode = ${Number(value)}`)
        exitCode.set.call(this, value)
      }
    })
  }
  for (const name of ['binding', '_linkedBinding', 'dlopen']) wrap(name, () => `process.${name}`)
}

/**
 * The module registry as the runner left it: `require.cache` (one object, Module._cache)
 * lists the tests' files and the runner's modules, and the Module objects of those files
 * (`require.main` in a per-file child or a worker, `module.parent` of the product imported
 * by a test) carry their paths. A patch line that lists the registry or reads one of those
 * entries, or reads the path of one of those objects, obtained what the runner made.
 */
function hookRegistry(paths, owned, report, where) {
  const real = Module._cache
  if (real === null || typeof real !== 'object') return
  // Each absolute key judged once (the loader looks the same paths up again and again; a
  // relative one resolves against the working directory, which may change).
  const judged = new Map()
  const holds = key => {
    if (key[0] !== '/') return owned(key)
    let result = judged.get(key)
    if (result === undefined) judged.set(key, (result = owned(key)))
    return result
  }
  const note = key => {
    if (typeof key === 'string' && holds(key))
      report('markers', 'the module registry read (a module of the runner or the tests)', true)
  }
  // node's loader reads an entry for every require: there only the tests' own entries are
  // looked at (the runner's modules are read by the loader all the time).
  const tests = paths.filter(p => p.category === 'instrument')
  Module._cache = new Proxy(real, {
    get(target, key) {
      if (typeof key === 'string' && tests.some(p => key.startsWith(p.at))) note(key)
      return Reflect.get(target, key)
    },
    ...lookups(note),
    ownKeys(target) {
      const keys = Reflect.ownKeys(target)
      if (keys.some(k => typeof k === 'string' && owned(k)))
        report('markers', 'the module registry listed (the runner’s and the tests’ modules)', true)
      return keys
    }
  })
  // The Module objects of the tests' files and of the process's main module (the runner's
  // entry, or node --test's test file): the loader reads their paths on every require they
  // make, so only those few are watched.
  const load = Module.prototype.load
  Module.prototype.load = function (filename) {
    if (typeof filename === 'string' && where.files.has(filename)) where.arrive()
    const watched =
      typeof filename === 'string' &&
      (this.id === '.' || tests.some(p => filename.startsWith(p.at))) &&
      owned(filename)
    if (watched) watchModule(this, owned, report)
    return load.apply(this, arguments)
  }
}

/** A Module object of the runner or of a test file: reads of its paths are reported. */
function watchModule(mod, owned, report) {
  for (const key of ['filename', 'id', 'path']) {
    let value = mod[key]
    let holds = owned(value)
    Object.defineProperty(mod, key, {
      configurable: true,
      enumerable: true,
      get() {
        if (holds) report('markers', `module.${key} of a runner or test module read`, true)
        return value
      },
      set(next) {
        value = next
        holds = owned(value)
      }
    })
  }
}

function hookModules(report) {
  const load = Module._load
  Module._load = function (request) {
    if (typeof request === 'string' && FRAMEWORK_MODULES.test(request))
      report('framework', `require('${request.slice(0, 60)}')`, true)
    return load.apply(this, arguments)
  }
}

/**
 * The intrinsics the matchers use, made accessors whose setter reports a write (and keeps
 * it); the definers report a definition on them; Symbol.for reports the runners' keys;
 * the runners' globals report a read. Self-contained: it runs as source in vm contexts.
 */
function guardRealm(G, report, objects) {
  const O = G.Object
  const define = O.defineProperty
  const describe = O.getOwnPropertyDescriptor
  const guarded = new G.WeakMap()
  // What the matchers call (equality, containment, type tests, printing, toBeCloseTo):
  // accessors, cheap enough there. Methods only product code keeps hot (map, slice, split,
  // most of Math) are left alone: a lie there reaches no matcher.
  const names = {
    Object: [
      'is',
      'keys',
      'entries',
      'values',
      'assign',
      'getPrototypeOf',
      'setPrototypeOf',
      'defineProperty',
      'defineProperties',
      'getOwnPropertyNames',
      'getOwnPropertyDescriptor',
      'getOwnPropertySymbols',
      'freeze',
      'hasOwn'
    ],
    'Object.prototype': [
      'hasOwnProperty',
      'toString',
      'valueOf',
      'isPrototypeOf',
      'propertyIsEnumerable'
    ],
    Array: ['isArray', 'from'],
    'Array.prototype': ['includes', 'indexOf', 'every', 'some', 'find', 'findIndex'],
    'String.prototype': ['includes', 'startsWith', 'endsWith', 'indexOf'],
    Number: ['isNaN', 'isInteger', 'isFinite', 'isSafeInteger'],
    JSON: ['stringify', 'parse'],
    Math: ['abs', 'pow', 'max', 'min'],
    Reflect: ['ownKeys', 'has', 'get', 'getPrototypeOf', 'apply'],
    'Map.prototype': ['has', 'get'],
    'Set.prototype': ['has'],
    'Date.prototype': ['getTime', 'valueOf'],
    Symbol: ['for'],
    globalThis: ['isNaN', 'isFinite']
  }
  // RegExp.prototype is never redefined here: any change to it, even to the same value,
  // sends every regular expression of the realm off V8's fast path (ten times slower). A
  // definer on it reports (its members are guarded keys below); a plain assignment of a
  // member the matchers and the tests' own matching call is seen at the next guarded read,
  // definition or Symbol.for (and as the process ends), and judged by where the new value's
  // source is (report.located).
  const RP = G.RegExp.prototype
  const S = G.Symbol
  const rxKeys = ['exec', 'test', S.match, S.matchAll, S.replace, S.search, S.split]
  const rxSeen = rxKeys.map(key => RP[key])
  const [sMatch, sMatchAll, sReplace, sSearch, sSplit] = rxKeys.slice(2)
  let looking = false
  const rxLook = () => {
    if (looking) return
    looking = true
    try {
      rxLookAll()
    } finally {
      looking = false
    }
  }
  const rxLookAll = () => {
    for (let i = 0; i < rxKeys.length; i++) {
      const d = describe(RP, rxKeys[i])
      const now = d === undefined ? undefined : 'value' in d ? d.value : d.get
      if (now === rxSeen[i]) continue
      rxSeen[i] = now
      report.located?.(
        'comparison',
        `RegExp.prototype.${String(rxKeys[i]).replace(/^Symbol\((.*)\)$/, '[$1]')} replaced`,
        now
      )
    }
  }
  const rxCheck = () => {
    if (
      RP.exec !== rxSeen[0] ||
      RP.test !== rxSeen[1] ||
      RP[sMatch] !== rxSeen[2] ||
      RP[sMatchAll] !== rxSeen[3] ||
      RP[sReplace] !== rxSeen[4] ||
      RP[sSearch] !== rxSeen[5] ||
      RP[sSplit] !== rxSeen[6]
    )
      rxLook()
  }
  guarded.set(RP, new G.Set(rxKeys))
  // The global constructors are read everywhere: read-only data properties, fast to read;
  // a replacement through a definer is reported, a plain assignment fails.
  for (const key of [
    'Object',
    'Array',
    'String',
    'Number',
    'Boolean',
    'Symbol',
    'JSON',
    'Math',
    'Reflect',
    'Map',
    'Set',
    'Date',
    'RegExp',
    'Promise',
    'Proxy'
  ]) {
    const d = describe(G, key)
    if (d && 'value' in d && d.configurable) {
      define(G, key, {
        value: d.value,
        writable: false,
        enumerable: d.enumerable,
        configurable: true
      })
      const keys = guarded.get(G) ?? new G.Set()
      keys.add(key)
      guarded.set(G, keys)
    }
  }
  const owner = path => path.split('.').reduce((o, k) => (k === 'globalThis' ? o : o[k]), G)
  const guard = (target, label, key) => {
    const d = describe(target, key)
    if (!d || !('value' in d) || !d.configurable) return
    let value = d.value
    const keys = guarded.get(target) ?? new G.Set()
    keys.add(key)
    guarded.set(target, keys)
    define(target, key, {
      configurable: true,
      enumerable: d.enumerable,
      get() {
        rxCheck()
        return value
      },
      set(next) {
        if (this !== target) {
          define(this, key, { value: next, writable: true, configurable: true, enumerable: true })
          return
        }
        report('comparison', `${label}.${String(key)} replaced`)
        value = next
      }
    })
  }
  const symbolFor = G.Symbol.for
  const forWrapped = {
    for(key) {
      rxCheck()
      if (
        typeof key === 'string' &&
        /jest|vitest|chai|tinyspy|matchers|expect|\$\$|node:test|oracle/i.test(key)
      )
        report('framework', `Symbol.for('${key.slice(0, 60)}')`, true)
      return symbolFor.call(this, key)
    }
  }.for
  define(G.Symbol, 'for', { value: forWrapped, writable: true, configurable: true })
  // The runners' globals: reads report; a runner's own definition keeps the accessor.
  const runner = new G.Map()
  for (const name of [
    '__vitest_worker__',
    '__vitest_index__',
    '__vitest_environment__',
    'expect',
    'jest',
    'vi',
    'chai'
  ]) {
    const d = describe(G, name)
    if (d && !d.configurable) continue
    runner.set(name, d ? ('value' in d ? d.value : d.get?.call(G)) : undefined)
    define(G, name, {
      configurable: true,
      enumerable: d ? d.enumerable : false,
      get() {
        report('framework', `globalThis.${name} read`, true)
        return runner.get(name)
      },
      set(next) {
        runner.set(name, next)
      }
    })
  }
  const definer = (name, fn, holder) => {
    const original = holder[name]
    const wrapped = {
      [name](target, key, desc) {
        rxCheck()
        if (
          name === 'defineProperty' &&
          target === G &&
          runner.has(key) &&
          desc &&
          'value' in desc
        ) {
          runner.set(key, desc.value)
          return holder === O ? target : true
        }
        const watched = objects === undefined ? undefined : objects.get(target)
        if (watched !== undefined) report('framework', `${name} on ${watched}`)
        const keys = guarded.get(target)
        if (
          keys !== undefined &&
          (typeof key !== 'string' && typeof key !== 'symbol'
            ? true
            : keys.has(key) || target !== G)
        )
          report(
            'comparison',
            `${name} on a built-in (${typeof key === 'symbol' || typeof key === 'string' ? String(key).slice(0, 40) : 'several keys'})`
          )
        return fn(original, this, arguments)
      }
    }[name]
    define(holder, name, { value: wrapped, writable: true, configurable: true })
  }
  const call = (original, self, args) => original.apply(self, args)
  definer('defineProperty', call, O)
  definer('defineProperties', call, O)
  definer('assign', call, O)
  definer('setPrototypeOf', call, O)
  definer('defineProperty', call, G.Reflect)
  definer('set', call, G.Reflect)
  definer('setPrototypeOf', call, G.Reflect)
  for (const name of ['getOwnPropertySymbols', 'getOwnPropertyNames', 'keys']) {
    const fn = O[name]
    const wrapped = {
      [name](target) {
        if (target === G) report('framework', `Object.${name}(globalThis)`, true)
        return fn.apply(this, arguments)
      }
    }[name]
    O[name] = wrapped
  }
  // The legacy definers define as Object.defineProperty does, on their receiver.
  for (const name of ['__defineGetter__', '__defineSetter__']) {
    const fn = O.prototype[name]
    if (typeof fn !== 'function') continue
    const wrapped = {
      [name](key) {
        rxCheck()
        const keys = guarded.get(this)
        if (keys !== undefined && (keys.has(key) || this !== G))
          report('comparison', `${name} on a built-in (${String(key).slice(0, 40)})`)
        return fn.apply(this, arguments)
      }
    }[name]
    define(O.prototype, name, { value: wrapped, writable: true, configurable: true })
  }
  // Guarded last: the listings above are replaced by plain assignment, before their setter
  // would report the watcher's own write.
  for (const [path, keys] of O.entries(names)) {
    const target = owner(path)
    for (const key of keys) guard(target, path, key)
  }
  return () => rxCheck()
}

const guardRealmSource = guardRealm.toString()

module.exports = { install }
