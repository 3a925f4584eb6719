// Preloaded (NODE_OPTIONS=--require) into every Node process of the gate's extra coverage
// run only (src/evidence/js-coverage.ts), never into a vote: the fallback where the head's
// vote could not measure coverage itself (vote-cover.cjs). V8's own dump (NODE_V8_COVERAGE)
// is written at teardown, too late for a pool worker its runner SIGKILLs while it writes
// (jest gives a worker a second) or stops with SIGTERM (vitest), and it lacks the text a
// runner executed after transforming it (TypeScript: its inline source map leads back to
// the head's lines). So this takes the coverage itself (cover-take.cjs), keeps only the
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
  const { startCoverage, urlPath } = require('./cover-take.cjs')
  const { threadId } = require('node:worker_threads')
  const own = path.join(root, 'own')
  const name = `${process.pid}-${threadId}`
  // A process that may have run asked code and never writes a dump was killed:
  // js-coverage.ts says so. Marked at start, or (eager) when an asked script compiles.
  const mark = () => fs.writeFileSync(path.join(own, `started-${name}`), '')
  const eager = startCoverage({
    asked: url => targets.has(urlPath(url)),
    source: (url, source) =>
      fs.appendFileSync(
        path.join(own, `sources-${name}.jsonl`),
        `${JSON.stringify({ url, source })}\n`
      ),
    take: result =>
      fs.writeFileSync(path.join(own, `own-${name}-end.json`), JSON.stringify({ result })),
    onAsked: mark
  })
  if (!eager) mark()
}

try {
  start()
} catch {
  // no inspector, no targets: V8's own dumps are all there is
}
