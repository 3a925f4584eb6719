// The runner's state in a watched node process, told by structure rather than by name
// (issue 26, docs/lints.md "Node runners"): which environment keys the runner set (those the
// gate did not hand the run, by the plan's digests, and no test or product frame wrote),
// which process listeners, handles and resources it made (registered by its code, or there
// before the first module of the patch loaded), the async resource a test runs in, and the
// runner's command line in what a child process printed. A patch line is handed production's
// view of each (the runner's part left out); the environment keys it asks for by name and a
// command line it obtained are also reported. Loaded by reach-hooks.cjs, out of the module
// registry at once (gate-reach.cjs loadHooks).
'use strict'
const { EventEmitter } = require('node:events')
const { sep } = require('node:path')

// What the gate's shell (bash -c, src/exec/process.ts) adds itself: production run from a
// shell has them too.
const SHELL_ENV = new Set(['PWD', 'OLDPWD', 'SHLVL', '_'])
// The one key the runners set for the product on purpose (jest and vitest default it to
// `test` so that the code under test takes its test configuration): hidden like the rest,
// production's value, but a log level read from it is no reach and is not reported.
const PRODUCT_ENV = new Set(['NODE_ENV'])

/**
 * The digest src/replay/watch.ts envDigest computes for the plan: cyrb53 over the UTF-16
 * code units, in hex. Not node:crypto, which costs a dozen modules in every process; it
 * only tells a value the runner changed from the one handed, which nobody forges.
 */
function digest(value) {
  const text = String(value)
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    h1 = Math.imul(h1 ^ c, 2654435761)
    h2 = Math.imul(h2 ^ c, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16)
}

/** Name → digest of an environment (the runner's process, when the gate sent none). */
function digests(env) {
  const out = {}
  for (const key of Object.keys(env)) if (env[key] !== undefined) out[key] = digest(env[key])
  return out
}

/**
 * Who makes the current call, by its nearest frames: 'own' when a frame of the checkout
 * that is not a dependency (a test or the product) comes before any of the runner's code,
 * 'runner' when the runner's does (node:test's is node's own `internal/test_runner`; a
 * dependency's frame with nothing of the checkout under it counts as the runner's), 'node'
 * when every frame is node's (its bootstrap). `frames`: structured call sites
 * (reach-hooks.cjs `sites`), `self(file)`: whether a file is this watcher's, `runnerCode`:
 * the runners' packages (reach-hooks.cjs RUNNER_CODE), `complete`: whether `frames` is
 * the whole stack.
 */
function author(frames, root, self, runnerCode, complete = true) {
  const inRoot = `${root}${sep}`
  let foreign = false
  for (const site of frames) {
    const name = String(site.getFileName?.() ?? '')
    if (name.startsWith('node:internal/test_runner/')) return 'runner'
    if (name === '' || name.startsWith('node:') || self(name)) continue
    const file = name.startsWith('file://') ? new URL(name).pathname : name
    if (runnerCode.test(file)) return 'runner'
    if (file.startsWith(inRoot) && !file.includes(`${sep}node_modules${sep}`)) return 'own'
    foreign = true
  }
  // (Frames cut short decide nothing more: null, the caller looks deeper.)
  if (!complete) return null
  return foreign ? 'runner' : 'node'
}

/**
 * The environment keys of this process the runner set: not handed by the gate (or handed
 * with another value) and not written by a test or product frame since.
 */
function envState(plan) {
  const handed = plan.env !== null && typeof plan.env === 'object' ? plan.env : {}
  const own = new Set()
  const judged = new Map()
  const runnerKey = (key, value) => {
    if (typeof key !== 'string' || value === undefined || own.has(key) || SHELL_ENV.has(key))
      return false
    const last = judged.get(key)
    if (last !== undefined && last.value === value) return last.runner
    const runner = !Object.hasOwn(handed, key) || handed[key] !== digest(value)
    judged.set(key, { value, runner })
    return runner
  }
  return { runnerKey, own, reported: key => !PRODUCT_ENV.has(key) }
}

/**
 * A view of an environment object: a patch line's listing, spread or JSON of it lacks the
 * runner's keys; a look-up by name of one (`[]`, `in`, a descriptor) finds nothing and is
 * reported. `watch.at(true)`: the patch's line making the read directly, or null;
 * `watch.writer()`: who writes.
 */
function envProxy(real, state, watch) {
  const hidden = key => state.runnerKey(key, real[key])
  const asked = (key, how) => {
    if (!hidden(key)) return false
    const at = watch.at(true)
    if (at === null) return false
    if (state.reported(key))
      watch.reportAt(at, 'markers', `process.env ${how} ${key.slice(0, 60)} (the runner’s)`)
    return true
  }
  return new Proxy(real, {
    get(target, key) {
      if (asked(key, 'read of')) return undefined
      return Reflect.get(target, key)
    },
    has(target, key) {
      if (asked(key, 'test of')) return false
      return Reflect.has(target, key)
    },
    getOwnPropertyDescriptor(target, key) {
      if (asked(key, 'read of')) return undefined
      return Reflect.getOwnPropertyDescriptor(target, key)
    },
    set(target, key, value) {
      if (typeof key === 'string' && watch.writer() === 'own') state.own.add(key)
      target[key] = value
      return true
    },
    // A listing from a patch line: production's keys only (a product scanning its own
    // prefix is honest, one scanning for the runner finds nothing).
    ownKeys(target) {
      const keys = Reflect.ownKeys(target)
      if (!keys.some(hidden) || watch.at(true) === null) return keys
      return keys.filter(k => !hidden(k))
    }
  })
}

/**
 * What the runner made in this process before the patch's first module loaded: the active
 * handles and requests (objects) and the resources' kinds (counts), taken once (`mark`).
 */
function baseline(proc) {
  let taken = null
  return {
    /** Taken once: when the patch's first module loads, or at its first look (native ESM). */
    mark() {
      if (taken !== null) return taken
      const kinds = new Map()
      for (const kind of proc.getActiveResourcesInfo?.() ?? [])
        kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
      taken = {
        kinds,
        handles: new Set(proc._getActiveHandles?.() ?? []),
        requests: new Set(proc._getActiveRequests?.() ?? [])
      }
      return taken
    },
    get taken() {
      return taken
    }
  }
}

/**
 * The runner's objects, hidden from a patch line's direct call: process listeners the
 * runner's code registered (listeners, rawListeners, listenerCount, eventNames), the handles,
 * requests and resource kinds present before the patch's first module loaded, and the async
 * resource it runs in (a stand-in, one per resource, as the top level's `{}`). `wrap(name,
 * fn)` installs one replacement keeping fn's members.
 */
function hideRunnerObjects(proc, watch, base, wrap) {
  const runnerFns = new WeakSet()
  const runners = list => list.some(fn => runnerFns.has(fn) || runnerFns.has(fn?.listener))
  const mine = list => list.filter(fn => !runnerFns.has(fn) && !runnerFns.has(fn?.listener))
  for (const name of ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener'])
    wrap(
      proc,
      name,
      fn =>
        function (event, listener) {
          if (typeof listener === 'function' && watch.writer() === 'runner') runnerFns.add(listener)
          return fn.apply(this, arguments)
        }
    )
  const direct = () => watch.at(true) !== null
  for (const name of ['listeners', 'rawListeners'])
    wrap(
      proc,
      name,
      fn =>
        function () {
          const all = fn.apply(this, arguments)
          return this === proc && runners(all) && direct() ? mine(all) : all
        }
    )
  const raw = EventEmitter.prototype.rawListeners
  const listenersOf = event => raw.call(proc, event)
  wrap(
    proc,
    'listenerCount',
    fn =>
      function (event) {
        const count = fn.apply(this, arguments)
        if (this !== proc || count === 0) return count
        const all = listenersOf(event)
        return runners(all) && direct() ? mine(all).length : count
      }
  )
  wrap(
    proc,
    'eventNames',
    fn =>
      function () {
        const names = fn.apply(this, arguments)
        if (this !== proc || !names.some(n => runners(listenersOf(n))) || !direct()) return names
        return names.filter(n => mine(listenersOf(n)).length > 0)
      }
  )
  const without = (list, held) => (held.size === 0 ? list : list.filter(x => !held.has(x)))
  wrap(
    proc,
    'getActiveResourcesInfo',
    fn =>
      function () {
        const kinds = fn.apply(this, arguments)
        if (!direct()) return kinds
        const taken = base.taken ?? base.mark()
        if (taken.kinds.size === 0) return kinds
        const left = new Map(taken.kinds)
        return kinds.filter(k => {
          const n = left.get(k) ?? 0
          if (n > 0) left.set(k, n - 1)
          return n === 0
        })
      }
  )
  for (const [name, key] of [
    ['_getActiveHandles', 'handles'],
    ['_getActiveRequests', 'requests']
  ])
    wrap(
      proc,
      name,
      fn =>
        function () {
          const list = fn.apply(this, arguments)
          return direct() ? without(list, (base.taken ?? base.mark())[key]) : list
        }
    )
  hideAsyncResource(watch, wrap)
}

/** executionAsyncResource() from a patch line: a stand-in per resource, as the top level's. */
function hideAsyncResource(watch, wrap) {
  const asyncHooks = require('node:async_hooks')
  const standIns = new WeakMap()
  wrap(
    asyncHooks,
    'executionAsyncResource',
    fn =>
      function executionAsyncResource() {
        const resource = fn.apply(this, arguments)
        if (resource === null || typeof resource !== 'object' || watch.at(true) === null)
          return resource
        let standIn = standIns.get(resource)
        if (standIn === undefined) standIns.set(resource, (standIn = {}))
        return standIn
      }
  )
  // A hook of the patch's own sees every resource the runner creates.
  wrap(
    asyncHooks,
    'createHook',
    fn =>
      function createHook() {
        const at = watch.at(true)
        if (at !== null) watch.reportAt(at, 'introspection', 'async_hooks.createHook')
        return fn.apply(this, arguments)
      }
  )
}

/**
 * The command lines of this process and of its ancestors up to the runner's (what `ps` or
 * another process's /proc/<pid>/cmdline would print), without the interpreter's path: the
 * words node and the shell were started with.
 */
function commandLines(readFile, pids) {
  const out = []
  for (const pid of pids) {
    try {
      const words = readFile(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean)
      const args = words.slice(1).join(' ')
      if (args.length >= 4) out.push(args)
    } catch {
      // no /proc: nothing to compare with
    }
  }
  return out
}

/** Whether a child's output (a string, a Buffer, spawnSync's result) holds one of them. */
function holdsCommandLine(lines, result) {
  if (lines.length === 0 || result === null || result === undefined) return false
  const parts =
    typeof result === 'string' || Buffer.isBuffer(result)
      ? [result]
      : [result.stdout, result.stderr].filter(Boolean)
  return parts.some(part => {
    const text = String(part).replace(/\s+/g, ' ')
    return lines.some(line => text.includes(line.replace(/\s+/g, ' ')))
  })
}

module.exports = {
  author,
  baseline,
  commandLines,
  digest,
  digests,
  envProxy,
  envState,
  hideRunnerObjects,
  holdsCommandLine
}
