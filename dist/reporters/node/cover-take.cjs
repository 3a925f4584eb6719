// V8's precise coverage of one Node process, taken by the process itself through an
// in-process inspector session (no port, no variable, no file of its own), for the gate's
// two ways of measuring JavaScript coverage: the head's vote itself (vote-cover.cjs, fed
// the watch plan) and the extra coverage run (coverage-hook.cjs, NODE_V8_COVERAGE). Both
// need the same things: the asked files' scripts only, the text V8 executed for each (a
// runner that transforms TypeScript executes a text that is in no file; its inline source
// map leads back to the head's lines), and one take per process made before the process is
// gone: at exit, at SIGTERM (vitest stops its forks so), or when jest tells its worker to
// end (then it has a second before SIGKILL, which the parent's watcher holds while a take
// it was told of is under way). Any failure leaves the process as it was.
'use strict'

/**
 * Starts precise coverage in this process. `asked(url)`: is the script one of the asked
 * files; `source(url, text)`: an asked script's executed text, as soon as it is known;
 * `take(result, urls)`: the asked scripts' coverage and every script's URL, once. `onAsked()`: the first asked script
 * compiled, `onTaking()`: the take begins, in a process that compiled one (eager
 * processes only). Returns false when the inspector is not available.
 */
function startCoverage({ asked, source, take, onAsked = () => {}, onTaking = () => {} }) {
  const inspector = require('node:inspector')
  const session = new inspector.Session()
  session.connect()
  const { isMainThread } = require('node:worker_threads')
  // The inspector answers a session of the same thread synchronously.
  const sourceOf = (scriptId, url) =>
    session.post('Debugger.getScriptSource', { scriptId }, (error, answer) => {
      if (!error) source(url, answer.scriptSource)
    })
  const debug = () => {
    session.post('Debugger.enable')
    // A `debugger` statement of the product must not stop a thread nobody steps.
    session.post('Debugger.setSkipAllPauses', { skip: true })
  }
  // A worker thread that is terminated runs no exit handler, and a pool worker (a child
  // with an IPC channel) has its parent's grace period to exit in: there the asked
  // scripts' texts are kept as they are compiled, with the debugger on from the start.
  // Elsewhere it is turned on at the end only: on from the start, it costs a big suite
  // about a fifth more CPU.
  const eager = !isMainThread || typeof process.send === 'function'
  let seen = false
  if (eager) {
    session.on('Debugger.scriptParsed', message => {
      const { url, scriptId } = message.params
      if (!asked(url)) return
      if (!seen) onAsked()
      seen = true
      sourceOf(scriptId, url)
    })
    debug()
  }
  session.post('Profiler.enable')
  session.post('Profiler.startPreciseCoverage', { callCount: false, detailed: true })
  // One take per process: a take resets V8's counts, and a second one lists only what ran
  // since, in a form that cannot be read safely.
  let taken = false
  const once = () => {
    if (taken) return
    taken = true
    // Said before the take (which can outlast a pool's grace period): the parent's watcher
    // holds a SIGKILL of this process until the payload is through (gate-reach.cjs).
    if (seen) onTaking()
    let result = []
    let urls = []
    session.post('Profiler.takePreciseCoverage', (error, answer) => {
      if (error) return
      result = answer.result.filter(s => asked(s.url))
      urls = answer.result.map(s => s.url)
    })
    if (!eager && result.length > 0) {
      debug()
      for (const script of result) sourceOf(script.scriptId, script.url)
    }
    take(result, urls)
  }
  onEnd(once, process.env.JEST_WORKER_ID !== undefined)
  return eager
}

/** Calls `end` (at most once, it guards itself) before the process goes. */
function onEnd(end, jestWorker) {
  const safely = () => {
    try {
      end()
    } catch {
      // the take is lost; the process ends as it would have
    }
  }
  // jest's pool workers are told to end (jest-worker's CHILD_MESSAGE_END, `[2, …]`) and then
  // have a second to exit before SIGKILL: the take starts when that message arrives (the
  // tests are over by then), not at exit.
  if (jestWorker && typeof process.send === 'function') {
    const onMessage = message => {
      if (!Array.isArray(message) || message[0] !== 2) return
      process.removeListener('message', onMessage)
      safely()
    }
    process.on('message', onMessage)
  }
  process.on('exit', safely)
  process.on('SIGTERM', function onTerm() {
    safely()
    // Alone, end as the signal would have; beside the process's own handlers, leave it to them.
    if (process.listenerCount('SIGTERM') === 1) {
      process.removeListener('SIGTERM', onTerm)
      process.kill(process.pid, 'SIGTERM')
    }
  })
}

/** A script URL's absolute path (file: URLs and the plain paths of vm scripts), or null. */
function urlPath(url) {
  if (typeof url !== 'string' || url === '') return null
  if (url.startsWith('file:')) {
    try {
      return require('node:url').fileURLToPath(url)
    } catch {
      return null
    }
  }
  return url.startsWith('/') ? url : null
}

module.exports = { startCoverage, urlPath }
