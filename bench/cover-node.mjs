// The cost of JavaScript diff coverage (issue 27) on the generated node suite of
// bench/reach-node.mjs (40 test files of 25 tests each over 40 product modules), run by
// vitest (TypeScript), jest and node:test the way the gate runs a head (stream at descriptor
// 3, watch plan at 4, the watcher preloaded), 10 changed lines on the plan (three modules):
// - vote: the head's vote as without evidence (plan: reach on, cover off);
// - in-vote: the same vote measuring coverage itself (cover on: vote-cover.cjs), now;
// - extra run: before, the one more run with NODE_V8_COVERAGE and coverage-hook.cjs that
//   evidence added to every head (still the fallback where the vote cannot measure).
// Each cost is given ÷ the vote. Medians of 3 wall-clock and CPU (process tree) runs,
// alternated. Run: node bench/cover-node.mjs
import { spawn } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median, tempDir } from './lib.mjs'
import { FILES, RUNNERS, suiteProject, TESTS } from './node-suite.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const reporters = join(here, '..', 'src', 'reporters', 'node')

/** The environment of one variant: the plan's watcher, or the extra run's hook. */
function variantEnv(dir, variant) {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME }
  if (variant === 'extra') {
    const root = tempDir('bench-cover-')
    mkdirSync(join(root, 'dumps'))
    mkdirSync(join(root, 'own'))
    const targets = [0, 1, 2].map(f => join(dir, `src/m${f}.${RUNNERS_EXT.get(dir)}`))
    writeFileSync(join(root, 'targets.json'), JSON.stringify(targets))
    return {
      ...env,
      TEST_OUTCOME_STREAM: '3:bench',
      NODE_V8_COVERAGE: join(root, 'dumps'),
      NODE_OPTIONS: `--require=${reporters}/coverage-hook.cjs`
    }
  }
  return {
    ...env,
    TEST_OUTCOME_STREAM: '3:bench:4',
    NODE_OPTIONS: `--require=${reporters}/gate-reach.cjs`
  }
}

const RUNNERS_EXT = new Map()

function runOnce(dir, command, variant, plan) {
  return new Promise(done => {
    const env = variantEnv(dir, variant)
    const start = process.hrtime.bigint()
    const cpuFile = join(tempDir('bench-cpu-'), 'cpu')
    const child = spawn('/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, 'bash', '-c', command], {
      cwd: dir,
      env,
      stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe']
    })
    child.stdio[4].on('error', () => {})
    const fed = variant === 'extra' ? null : { ...plan, cover: variant === 'in-vote' }
    child.stdio[4].end(fed ? `${JSON.stringify(fed)}\n` : '')
    let out = ''
    child.stdio[3].on('data', d => (out += d))
    child.on('close', code => {
      const seconds = Number(process.hrtime.bigint() - start) / 1e9
      const [user, sys] = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).map(Number)
      const lines = out.split('\n')
      const payloads = new Set(
        lines.filter(l => l.includes('"t":"jscov"')).map(l => JSON.parse(l).p)
      ).size
      const cases = lines.filter(l => l.includes('"t":"case"')).length
      done({ seconds, cpu: user + sys, code, payloads, cases })
    })
  })
}

const VARIANTS = ['vote', 'in-vote', 'extra']

async function measure(dir, command, plan) {
  const runs = Object.fromEntries(VARIANTS.map(v => [v, []]))
  for (let i = 0; i < 3; i++)
    for (const v of VARIANTS) runs[v].push(await runOnce(dir, command, v, plan))
  const m = (v, key) => median(runs[v].map(r => r[key]))
  const ratio = (v, key) => (m(v, key) / m('vote', key)).toFixed(2)
  const last = v => runs[v][runs[v].length - 1]
  return [
    `vote ${m('vote', 'seconds').toFixed(2)} s wall, ${m('vote', 'cpu').toFixed(2)} s CPU`,
    `in-vote coverage ${m('in-vote', 'seconds').toFixed(2)} s (÷ vote: wall ${ratio('in-vote', 'seconds')}, CPU ${ratio('in-vote', 'cpu')}; extra ${(m('in-vote', 'seconds') / m('vote', 'seconds') - 1).toFixed(2)} head run; ${last('in-vote').payloads} payloads)`,
    `before, the extra run: ${m('extra', 'seconds').toFixed(2)} s (÷ vote: wall ${ratio('extra', 'seconds')}, CPU ${ratio('extra', 'cpu')}: ${ratio('extra', 'seconds')} extra head run)`,
    `${last('vote').cases}/${last('in-vote').cases} cases, exit ${last('vote').code}/${last('in-vote').code}/${last('extra').code}`
  ].join('; ')
}

for (const [name, r] of Object.entries(RUNNERS)) {
  if (process.argv.length > 2 && !process.argv.includes(name)) continue
  const dir = suiteProject('bench-cover-', name, r)
  RUNNERS_EXT.set(dir, r.ext)
  // 10 changed lines: lines 1-4 of two modules, 1-2 of a third.
  const lines = {
    [`src/m0.${r.ext}`]: [[1, 4]],
    [`src/m1.${r.ext}`]: [[1, 4]],
    [`src/m2.${r.ext}`]: [[1, 2]]
  }
  const plan = { v: 1, root: dir, lines, instrument: ['test'], reach: true, cover: false }
  await runOnce(dir, r.command, 'vote', plan) // warm the transform caches
  console.log(`${name}: ${FILES * TESTS} tests; ${await measure(dir, r.command, plan)}`)
}
