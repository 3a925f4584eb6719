// JavaScript and TypeScript coverage inside the head's vote (issue 27), started by the
// gate's watcher (gate-reach.cjs) in every node process of the head's run that read a watch
// plan asking for coverage (`cover`), so no extra run of the suite is needed. Nothing of
// it is in the run's environment, arguments or files: the plan came over the gate's
// descriptor, coverage is started through an in-process inspector session (cover-take.cjs:
// no NODE_V8_COVERAGE, no port), and the result goes back on the gate's channel (the
// runner's descriptor, or the relay pipe a child got from its parent) as `jscov` records,
// which every other stage ignores: per process one JSON payload {result, sources} (V8's
// scripts of the plan's JavaScript files, the texts V8 executed for them), cut into chunks
// small enough for the relay's lines. A pool worker also sends `jscov-start` when it first
// compiles a planned file, so the gate can tell a worker killed before its take, and
// `jscov-taking` when its take begins: its parent's watcher then holds a SIGKILL of it
// until the last chunk is through (gate-reach.cjs), so no fixed grace period decides.
// Worker threads are not measured here (the watcher does not run in them): the gate then
// falls back to its extra coverage run (src/evidence/js-coverage.ts).
'use strict'

/** Characters of the payload per record (a relayed line must stay under 64 KiB escaped). */
const CHUNK = 8000
const JS_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/

/** The absolute paths of the plan's JavaScript files, as written and with links resolved. */
function plannedPaths(plan) {
  const path = require('node:path')
  const fs = require('node:fs')
  const out = new Set()
  if (plan.lines === null || typeof plan.lines !== 'object') return out
  for (const rel of Object.keys(plan.lines)) {
    if (!JS_FILE.test(rel)) continue
    const abs = path.join(plan.root, rel)
    out.add(abs)
    try {
      out.add(fs.realpathSync(abs))
    } catch {
      // not there (yet): the path as written is all there is
    }
  }
  return out
}

/** Most paths of loaded files sent per process. */
const MAX_LOADED = 2000

/**
 * The worktree's files this process compiled, repository-relative, outside node_modules:
 * the gate attributes the process's lines to the voting tests of those files, so a mutant
 * runs only the tests that could have run its line.
 */
function loaded(roots, paths) {
  const prefixes = roots.map(root => (root.endsWith('/') ? root : `${root}/`))
  const out = new Set()
  for (const abs of paths) {
    const prefix = prefixes.find(p => abs !== null && abs.startsWith(p))
    if (prefix === undefined) continue
    const rel = abs.slice(prefix.length)
    if (!rel.split('/').includes('node_modules')) out.add(rel)
    if (out.size >= MAX_LOADED) break
  }
  return [...out]
}

/** The plan's root as written and with links resolved. */
function rootsOf(root) {
  try {
    return [...new Set([root, require('node:fs').realpathSync(root)])]
  } catch {
    return [root]
  }
}

/** Sends one process's payload as `jscov` records of at most CHUNK characters. */
function send(emit, p, payload) {
  const text = JSON.stringify(payload)
  const n = Math.max(1, Math.ceil(text.length / CHUNK))
  for (let i = 0; i < n; i++)
    emit({ t: 'jscov', p, i, n, d: text.slice(i * CHUNK, (i + 1) * CHUNK) })
}

/**
 * Starts coverage for the plan in this process. `emit` sends one record on the gate's
 * channel; `drain` reads what the children left in their pipes (the reach watcher calls it
 * at exit when it runs; alone, this does).
 */
function start(plan, emit, drain) {
  if (plan.reach !== true) process.on('exit', () => drain())
  try {
    measure(plan, emit)
  } catch {
    // no inspector: the gate finds no payload and measures in its extra run
  }
}

function measure(plan, emit) {
  const targets = plannedPaths(plan)
  if (targets.size === 0) return
  const take = require.resolve('./cover-take.cjs')
  const { startCoverage, urlPath } = require(take)
  delete require.cache[take]
  const { threadId } = require('node:worker_threads')
  const p = `${process.pid}-${threadId}-${require('node:crypto').randomBytes(4).toString('hex')}`
  const sources = Object.create(null)
  const roots = rootsOf(plan.root)
  startCoverage({
    asked: url => targets.has(urlPath(url)),
    source: (url, text) => {
      const kept = (sources[url] ??= [])
      if (!kept.includes(text)) kept.push(text)
    },
    take: (result, urls) =>
      send(emit, p, { result, sources, loaded: loaded(roots, urls.map(urlPath)) }),
    onAsked: () => emit({ t: 'jscov-start', p }),
    onTaking: () => emit({ t: 'jscov-taking', p })
  })
}

delete require.cache[__filename]
module.exports = { start }
