// The gate's run-time watcher for node runners (issue 26), loaded first into every node
// process of the head's run through NODE_OPTIONS=--require (src/replay/stream.ts; node --test's
// own process takes no --import): it
// reports what the patch's own lines do while the vote runs (reach-hooks.cjs), however the
// names were built, as `reach` records on the gate's descriptor.
//
// Delivery (docs/replay.md "Outcome stream"): the first node process of the run (the
// runner's) reads the watch plan from descriptor 4 to its end and closes it, and writes its
// records with the run's nonce on descriptor 3, beside the reporter. Every process it spawns
// (vitest's forks, jest's workers, node:test's per-file children, and whatever those spawn)
// gets one more stdio pipe, a socket pair the parent holds: the parent writes the plan into
// it at once, the child's copy of this module reads it and from then on writes its records
// there, and the parent relays them to its own channel as events only (never a start, case
// or end), so a child knows no nonce and cannot forge an outcome. The pipe's number reaches
// the child in one variable, taken out of the environment at load, and our own --require is
// taken out of NODE_OPTIONS (the product sees the user's) and put back into each spawn.
'use strict'
const fs = require('node:fs')

// The originals, before the hooks wrap them (the hooks' own writes are not the product's).
const { closeSync, readSync, writeSync } = fs

const STREAM_VAR = 'TEST_OUTCOME_STREAM'
const RELAY_VAR = 'ORACLE_GATE_REACH_FD'
const SESSION_KINDS = new Set(['start', 'end', 'case'])
const MAX_LINE = 1 << 16
const HERE = __filename

/** The `--require` word of NODE_OPTIONS that loaded this module, and the option without it. */
function takeOption() {
  const value = process.env.NODE_OPTIONS ?? ''
  const words = value.match(/(?:[^\s"]+|"(?:\\.|[^"])*")+/g) ?? []
  const ours = words.filter(w => w.includes(HERE))
  const kept = words.filter(w => !ours.includes(w))
  if (kept.length > 0) process.env.NODE_OPTIONS = kept.join(' ')
  else delete process.env.NODE_OPTIONS
  return ours[0] ?? `--require=${JSON.stringify(HERE)}`
}

/** Every byte of a descriptor up to a newline (the plan from a parent) or its end (fd 4). */
function readPlan(fd, untilNewline) {
  const chunks = []
  const buf = Buffer.alloc(1 << 16)
  const pause = new Int32Array(new SharedArrayBuffer(4))
  for (let waits = 0; waits < 10_000;) {
    let n
    try {
      n = readSync(fd, buf, 0, buf.length, null)
    } catch (error) {
      if (error?.code !== 'EAGAIN') return null
      Atomics.wait(pause, 0, 0, 1)
      waits++
      continue
    }
    if (n === 0) break
    chunks.push(Buffer.from(buf.subarray(0, n)))
    if (untilNewline && buf.subarray(0, n).includes(10)) break
  }
  try {
    const plan = JSON.parse(Buffer.concat(chunks).toString('utf8').split('\n')[0])
    return plan && plan.v === 1 && typeof plan.root === 'string' ? plan : null
  } catch {
    return null
  }
}

/** Writes one line whole to a descriptor; a closed one ends the channel quietly. */
function writeLine(fd, line) {
  const data = Buffer.from(`${line}\n`)
  for (let off = 0; off < data.length;) {
    try {
      off += writeSync(fd, data, off)
    } catch (error) {
      if (error?.code !== 'EAGAIN') return
    }
  }
}

/** The report paths the runner was given (its command line, jest-junit's variables). */
function reportPaths() {
  const out = []
  for (const arg of process.argv) {
    const m = /^--(?:outputFile(?:\.junit)?|test-reporter-destination)=(.+)$/.exec(arg)
    if (m && m[1] !== 'stdout' && m[1] !== 'stderr') out.push(m[1])
  }
  for (const key of ['JEST_JUNIT_OUTPUT_FILE', 'JEST_JUNIT_OUTPUT_DIR'])
    if (process.env[key]) out.push(process.env[key])
  return out
}

/** How this process got its plan and where its records go, or null when unwatched. */
function intake() {
  const relayed = process.env[RELAY_VAR]
  delete process.env[RELAY_VAR]
  if (relayed !== undefined && /^\d+$/.test(relayed)) {
    const fd = Number(relayed)
    const plan = readPlan(fd, true)
    return (
      plan && { plan, fd, runner: false, emit: record => writeLine(fd, JSON.stringify(record)) }
    )
  }
  const spec = process.env[STREAM_VAR]
  if (!spec) return null
  const [fdText, nonce, watchFd] = spec.split(':')
  if (!watchFd || !/^\d+$/.test(watchFd) || !/^\d+$/.test(fdText)) return null
  const plan = readPlan(Number(watchFd), false)
  try {
    closeSync(Number(watchFd))
  } catch {
    // already closed
  }
  if (plan === null) return null
  // Tells the reporter (channel.mjs) that this run's plan was read.
  process.env[STREAM_VAR] = `${fdText}:${nonce}:watched`
  plan.report = [...(plan.report ?? []), ...reportPaths()]
  const fd = Number(fdText)
  return {
    plan,
    fd,
    runner: true,
    emit: record => writeLine(fd, JSON.stringify({ ...record, k: nonce }))
  }
}

/** The relay of one child's pipe: its records go on as events, never a session's. */
function relayFrom(socket, emit, seen = () => {}) {
  let held = ''
  const take = text => {
    held += text
    let at
    while ((at = held.indexOf('\n')) >= 0) {
      const line = held.slice(0, at)
      held = held.slice(at + 1)
      seen(forward(line, emit))
    }
    if (held.length > MAX_LINE) held = ''
  }
  socket.setEncoding('utf8')
  socket.on('data', take)
  socket.on('error', () => {})
  socket.unref?.()
  return take
}

function forward(line, emit) {
  let record
  try {
    record = JSON.parse(line)
  } catch {
    return
  }
  if (record === null || typeof record !== 'object' || Array.isArray(record)) return
  if (typeof record.t !== 'string' || SESSION_KINDS.has(record.t)) {
    emit({
      t: 'reach',
      category: 'process',
      what: 'a child process wrote a forged record on the gate’s channel',
      path: '',
      line: 0
    })
    return
  }
  delete record.k
  emit(record)
  return record
}

/** What a child has left in its pipe when this process ends, read before it goes. */
function drainAll(pipes) {
  const buf = Buffer.alloc(1 << 16)
  for (const { fd, take } of pipes) {
    for (;;) {
      let n
      try {
        n = readSync(fd, buf, 0, buf.length, null)
      } catch {
        break
      }
      if (n === 0) break
      take(buf.toString('utf8', 0, n))
    }
  }
}

/** Every spawn gets the relay's pipe, the plan through it, and our --require back. */
function relaySpawns(watch, option) {
  const { ChildProcess } = require('node:child_process')
  const spawn = ChildProcess.prototype.spawn
  const pipes = []
  ChildProcess.prototype.spawn = function (options) {
    if (options === null || typeof options !== 'object') return spawn.call(this, options)
    const given = options.stdio ?? 'pipe'
    const stdio = typeof given === 'string' ? [given, given, given] : [...given]
    while (stdio.length < 3) stdio.push('ignore')
    const fd = stdio.length
    stdio.push('pipe')
    const envPairs = withRelay(options.envPairs ?? [], fd, option)
    const result = spawn.call(this, { ...options, stdio, envPairs })
    const socket = this.stdio?.[fd]
    if (socket) {
      socket.write(`${JSON.stringify(watch.plan)}\n`)
      const taking = new Set()
      const take = relayFrom(socket, watch.emit, record => tookNote(taking, record))
      const handleFd = socket._handle?.fd
      if (typeof handleFd === 'number' && handleFd >= 0) {
        pipes.push({ fd: handleFd, take })
        holdKill(this, taking, () => drainAll([{ fd: handleFd, take }]))
      }
      this.stdio.length = fd // the runner's view of its child is the one it asked for
    }
    return result
  }
  return () => drainAll(pipes)
}

/** The coverage takes under way in a child (vote-cover.cjs): begun, last chunk not in. */
function tookNote(taking, record) {
  if (record === undefined || typeof record.p !== 'string') return
  if (record.t === 'jscov-taking') taking.add(record.p)
  if (record.t === 'jscov' && record.i === record.n - 1) taking.delete(record.p)
}

/**
 * A pool gives its worker a fixed grace period before SIGKILL (jest: 1 s after telling it
 * to end), which a coverage take of many scripts can outlast on a loaded machine. A
 * SIGKILL of a child whose take is under way waits until the take's last chunk is in (or
 * the child is gone): the take runs no product code and ends; a child that never takes is
 * killed at once. The run's own timeout bounds it all.
 */
function holdKill(child, taking, drain) {
  const { setInterval, clearInterval } = require('node:timers')
  const kill = child.kill
  let held = null
  child.kill = function (signal) {
    drain()
    if ((signal === 'SIGKILL' || signal === 9) && taking.size > 0 && child.exitCode === null) {
      held ??= setInterval(() => {
        drain()
        if (taking.size > 0 && child.exitCode === null && child.signalCode === null) return
        clearInterval(held)
        if (child.exitCode === null && child.signalCode === null) kill.call(child, signal)
      }, 20)
      return true
    }
    return kill.call(this, signal)
  }
}

function withRelay(pairs, fd, option) {
  const out = pairs.filter(p => !p.startsWith(`${RELAY_VAR}=`))
  const at = out.findIndex(p => p.startsWith('NODE_OPTIONS='))
  const current = at >= 0 ? out[at].slice('NODE_OPTIONS='.length) : ''
  const options = current.includes(HERE) ? current : `${current} ${option}`.trim()
  if (at >= 0) out[at] = `NODE_OPTIONS=${options}`
  else out.push(`NODE_OPTIONS=${options}`)
  out.push(`${RELAY_VAR}=${fd}`)
  return out
}

function main() {
  // Nothing of ours in the module registry the product can read; modules loaded only when
  // there is a plan (every node process of the run loads this file).
  const Module = require('node:module')
  delete Module._cache[__filename]
  const option = takeOption()
  if (!require('node:worker_threads').isMainThread) return
  const watch = intake()
  if (watch === null || (watch.plan.reach !== true && watch.plan.cover !== true)) return
  const drain = relaySpawns(watch, option)
  loadHooks(watch, drain)
}

/**
 * The one point where code of the gate is loaded into the head's process through this
 * preload (the reach hooks, the in-vote JS coverage): each module out of the registry
 * again at once, so the product cannot list it.
 */
function loadHooks(watch, drain) {
  const Module = require('node:module')
  const load = name => {
    const path = require.resolve(name)
    const exported = require(path)
    delete Module._cache[path]
    return exported
  }
  if (watch.plan.cover === true) load('./vote-cover.cjs').start(watch.plan, watch.emit, drain)
  if (watch.plan.reach !== true) return
  const { install } = load('./reach-hooks.cjs')
  install(watch.plan, watch.emit, drain, [watch.fd], watch.runner)
}

main()
