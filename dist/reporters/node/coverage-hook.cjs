// Preloaded (NODE_OPTIONS=--require) into every Node process of the gate's coverage run
// only (src/evidence/js-coverage.ts), never into a vote. V8's own dump (NODE_V8_COVERAGE)
// is written at teardown, too late for a pool worker its runner SIGKILLs while it writes
// (jest gives a worker a second) or stops with SIGTERM (vitest), and it lacks the text a
// runner executed after transforming it (TypeScript: its inline source map leads back to
// the head's lines). So this takes the coverage itself at exit or SIGTERM, keeps only the
// asked files' scripts with their executed texts, and writes that small dump first. The
// folder above NODE_V8_COVERAGE holds `targets.json` (the asked absolute paths) and
// receives, in `own/`, per process and thread: `started-<pid>-<thread>`,
// `sources-<pid>-<thread>.jsonl` and `own-<pid>-<thread>-end.json`. Any failure leaves the
// process as it was.
'use strict'
const fs = require('node:fs')
const path = require('node:path')

function start() {
  const dumps = process.env.NODE_V8_COVERAGE
  if (!dumps) return
  const root = path.dirname(dumps)
  const targets = new Set(JSON.parse(fs.readFileSync(path.join(root, 'targets.json'), 'utf8')))
  const { fileURLToPath } = require('node:url')
  const inspector = require('node:inspector')
  const session = new inspector.Session()
  session.connect()
  const { isMainThread, threadId } = require('node:worker_threads')
  const own = path.join(root, 'own')
  const name = `${process.pid}-${threadId}`
  // A process that may have run asked code and never writes a dump was killed:
  // js-coverage.ts says so. Marked at start, or (eager below) when an asked script compiles.
  const mark = () => fs.writeFileSync(path.join(own, `started-${name}`), '')
  const asked = url => {
    try {
      return targets.has(url.startsWith('file:') ? fileURLToPath(url) : url)
    } catch {
      return false
    }
  }
  const keep = (url, source) =>
    fs.appendFileSync(
      path.join(own, `sources-${name}.jsonl`),
      `${JSON.stringify({ url, source })}\n`
    )
  // The inspector answers a session of the same thread synchronously.
  const sourceOf = (scriptId, url) =>
    session.post('Debugger.getScriptSource', { scriptId }, (error, answer) => {
      if (!error) keep(url, answer.scriptSource)
    })
  // A worker thread that is terminated runs no exit handler (V8 still writes its dump), and
  // a pool worker (a child with an IPC channel) has its parent's grace period to exit in
  // (jest: one second, then SIGKILL): there the asked scripts' texts are kept as they are
  // compiled, with the debugger on from the start. Elsewhere it is turned on at the end
  // only: on from the start, it costs a big suite about a fifth more CPU.
  const eager = !isMainThread || typeof process.send === 'function'
  let marked = false
  if (!eager) mark()
  if (eager) {
    session.on('Debugger.scriptParsed', message => {
      const { url, scriptId } = message.params
      if (!asked(url)) return
      if (!marked) mark()
      marked = true
      sourceOf(scriptId, url)
    })
    session.post('Debugger.enable')
  }
  session.post('Profiler.enable')
  session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true })
  // One take per process: a take resets V8's counts, and a second one lists only what ran
  // since, in a form that cannot be read safely. `end` names it.
  let written = false
  const write = () => {
    if (written) return
    written = true
    let result = []
    session.post('Profiler.takePreciseCoverage', (error, answer) => {
      if (!error) result = answer.result.filter(s => asked(s.url))
    })
    if (!eager && result.length > 0) {
      session.post('Debugger.enable')
      for (const script of result) sourceOf(script.scriptId, script.url)
    }
    fs.writeFileSync(path.join(own, `own-${name}-end.json`), JSON.stringify({ result }))
  }
  // jest's pool workers are told to end (jest-worker's CHILD_MESSAGE_END, `[2, …]`) and then
  // have a second to exit before SIGKILL: the take starts when that message arrives (the
  // tests are over by then), not at exit. Under heavy load it can still be cut off, and
  // js-coverage.ts then says so.
  if (process.env.JEST_WORKER_ID && typeof process.send === 'function') {
    const onEnd = message => {
      if (!Array.isArray(message) || message[0] !== 2) return
      process.removeListener('message', onEnd)
      try {
        write()
      } catch {
        // the exit handler will not try again; V8's own dump may still come
      }
    }
    process.on('message', onEnd)
  }
  process.on('exit', () => {
    try {
      write()
    } catch {
      // nothing more can be done at exit
    }
  })
  process.on('SIGTERM', function onTerm() {
    try {
      write()
    } catch {
      // the dump is lost; the process ends as it would have
    }
    // Alone, end as the signal would have; beside the process's own handlers, leave it to them.
    if (process.listenerCount('SIGTERM') === 1) {
      process.removeListener('SIGTERM', onTerm)
      process.kill(process.pid, 'SIGTERM')
    }
  })
}

try {
  start()
} catch {
  // no inspector, no targets: V8's own dumps are all there is
}
