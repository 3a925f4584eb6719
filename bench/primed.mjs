// Issue 16, primed base: the gate judging a PR with a primed base result ÷ one plain head
// run of the suite (goal ≤ 1.15), on the generated oracle-first pytest + hypothesis suite
// of the cost figure (OG_BENCH_PRIMED_PROPS scales it; no seeds, so the head run is the
// whole of the head side) and on the bundled demo. Beside it, for reference: the prime
// itself ÷ the base suite and its reruns run directly (a prime runs the base side only),
// and the gate with the primed base ÷ the gate without.
import { rmSync } from 'node:fs'
import { direct, gateSeconds, median, minimalWork, onBenchProjects, timeCommand } from './lib.mjs'

const CLI = new URL('../dist/cli.js', import.meta.url).pathname
const ROUNDS = 3

function prime(p, out) {
  const r = timeCommand(process.execPath, [CLI, 'prime', '--out', out, '--commit', 'main', '-q'], {
    cwd: p.dir,
    env: { ...process.env, PATH: `${p.shims}:${process.env.PATH}` }
  })
  if (r.status !== 0) throw new Error(`prime exit ${r.status}: ${r.stderr.slice(-800)}`)
  return r.seconds
}

function measure(p) {
  const out = `${p.dir}-primed.json`
  const baseWork = minimalWork(p)
  const primeSeconds = prime(p, out)
  const headRun = [],
    plain = [],
    reused = []
  for (let i = 0; i < ROUNDS; i++) {
    const h = direct(p, 'head', p.suite)
    if (h.status !== 0) throw new Error('the head suite failed')
    headRun.push(h.seconds)
    plain.push(gateSeconds(p, 'serial').seconds)
    const r = gateSeconds(p, 'serial', ['--base-results', out])
    if (!/primed result of/.test(r.stdout)) throw new Error('the primed base was not used')
    reused.push(r.seconds)
  }
  rmSync(out, { force: true })
  return {
    head: median(headRun),
    reused: median(reused),
    plain: median(plain),
    prime: primeSeconds / (baseWork.base + baseWork.reruns)
  }
}

function rows(label, m) {
  const ratio = m.reused / m.head
  return [
    { measure: `${label}: one plain head run (s)`, value: m.head, digits: 2, goal: '' },
    {
      measure: `${label}: gate with primed base ÷ head run`,
      value: ratio,
      goal: '≤ 1.15',
      ok: ratio <= 1.15
    },
    { measure: `${label}: gate with ÷ gate without`, value: m.reused / m.plain, goal: '' },
    { measure: `${label}: prime ÷ base suite + reruns direct`, value: m.prime, goal: '' }
  ]
}

export async function primed() {
  return onBenchProjects({ props: Number(process.env.OG_BENCH_PRIMED_PROPS ?? 30) }, p =>
    rows(p.name, measure(p))
  )
}
