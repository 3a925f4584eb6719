// Issue 16, cost: the gate's wall time ÷ the minimal sound work of judging the same PR, on
// (a) a generated oracle-first pytest + hypothesis suite of about 10 s a run
// (OG_BENCH_COST_PROPS scales it; its base fails two properties the head fixes, so they
// are rerun, and it has a seed corpus) and (b) the bundled demo. The minimal sound work is
// the base suite + the targeted reruns of the base's failing voting tests + the head suite
// + the seeds command on each side, each run directly with the gate's commands. Serial
// (goal ≤ 1.1), suite.jobs: 2 and suite.parallel: true (goal ≤ 0.75 on 2 cores).
import { gateSeconds, median, minimalWork, onBenchProjects } from './lib.mjs'

const ROUNDS = Number(process.env.OG_BENCH_COST_ROUNDS ?? 3)

/** Medians over ROUNDS of the minimal work and of the gate in each variant, interleaved. */
function measure(p) {
  const work = [],
    pieces = []
  const gate = { serial: [], jobs: [], parallel: [] }
  for (let i = 0; i < ROUNDS; i++) {
    const w = minimalWork(p)
    work.push(w.total)
    pieces.push(w)
    for (const variant of Object.keys(gate)) gate[variant].push(gateSeconds(p, variant).seconds)
  }
  const reruns = median(pieces.map(w => w.reruns + w.seeds / 2))
  return {
    work: median(work),
    reruns,
    gate: Object.fromEntries(Object.entries(gate).map(([k, v]) => [k, median(v)]))
  }
}

function rows(label, m) {
  const ratio = v => m.gate[v] / m.work
  return [
    { measure: `${label}: minimal sound work (s)`, value: m.work, digits: 2, goal: '' },
    {
      measure: `${label}: of which base reruns + base seeds (s)`,
      value: m.reruns,
      digits: 2,
      goal: ''
    },
    {
      measure: `${label}: gate serial ÷ minimal`,
      value: ratio('serial'),
      goal: '≤ 1.1',
      ok: ratio('serial') <= 1.1
    },
    {
      measure: `${label}: gate suite.jobs 2 ÷ minimal`,
      value: ratio('jobs'),
      goal: '≤ 0.75',
      ok: ratio('jobs') <= 0.75
    },
    {
      measure: `${label}: gate parallel ÷ minimal`,
      value: ratio('parallel'),
      goal: '≤ 0.75',
      ok: ratio('parallel') <= 0.75
    }
  ]
}

export async function cost() {
  return onBenchProjects({ props: Number(process.env.OG_BENCH_COST_PROPS ?? 30), seeds: 200 }, p =>
    rows(p.name, measure(p))
  )
}
