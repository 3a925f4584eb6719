// Issue 29, the gate's fixed cost: what the gate adds to the runs it starts, on suites so
// small that the fixed part decides the ratio. On (a) a small generated oracle-first suite
// (OG_BENCH_FIXED_PROPS properties, about 2.5 s a side on an idle 2-core machine) and (b)
// the bundled demo, ROUNDS interleaved rounds of the minimal sound work (base suite +
// targeted reruns of its failures + head suite, run directly, bench/lib.mjs) and of the
// gate, serial. Figures: the fixed cost (gate − minimal, median; goal ≤ 0.12 s) and gate ÷
// minimal (median, with the range over the rounds; goal ≤ 1.1). Also the gate's own part:
// its wall time less the runs it reports in the scorecard (runs[].duration_ms: the base's,
// the reruns', the head's, as the gate ran them, watched and contained), both taken from
// one invocation, so a machine that slows down between runs moves it far less than
// gate − minimal, and the watcher's cost (issue 26's row) is not counted twice.
import { gateSeconds, median, minimalWork, onBenchProjects } from './lib.mjs'

const ROUNDS = Number(process.env.OG_BENCH_FIXED_ROUNDS ?? 3)

// The fixed cost is the gate's with the evidence stage off: evidence (issue 27, default
// report) is extra measurement work of its own (coverage probes, the mutant session), and
// its cost is the rows `evidence (report) ÷ gate without it` and the extra head runs
// (gate with − without, ÷ one direct head run), not part of the fixed part.
function measure(p) {
  const work = []
  const gate = []
  const withEvidence = []
  const heads = []
  const own = []
  for (let i = 0; i < ROUNDS; i++) {
    const minimal = minimalWork(p)
    work.push(minimal.total)
    heads.push(minimal.head)
    const serial = gateSeconds(p, 'serial')
    gate.push(serial.seconds)
    own.push(serial.seconds - runSeconds(serial.stdout))
    withEvidence.push(gateSeconds(p, 'evidence').seconds)
  }
  const ratios = gate.map((g, i) => g / work[i])
  const fixed = gate.map((g, i) => g - work[i])
  const evidence = withEvidence.map((g, i) => g / gate[i])
  const extraRuns = withEvidence.map((g, i) => (g - gate[i]) / (heads[i] ?? 1))
  return { work: median(work), ratios, fixed, evidence, extraRuns, own }
}

/** The seconds of the runs a scorecard (the CLI's stdout) reports. */
function runSeconds(stdout) {
  const runs = JSON.parse(stdout).runs
  if (!Array.isArray(runs) || runs.length === 0) throw new Error('bench: a scorecard without runs')
  return runs.reduce((sum, r) => sum + r.duration_ms, 0) / 1000
}

const range = values => `${Math.min(...values).toFixed(3)}–${Math.max(...values).toFixed(3)}`

function rows(label, m) {
  const ratio = median(m.ratios)
  const fixed = median(m.fixed)
  return [
    { measure: `${label}: minimal sound work (s)`, value: m.work, digits: 2, goal: '' },
    {
      measure: `${label}: fixed cost, gate − minimal (s) [${range(m.fixed)}]`,
      value: fixed,
      goal: '≤ 0.12 s',
      ok: fixed <= 0.12
    },
    {
      measure: `${label}: the gate's own part, gate − the runs its scorecard reports (s) [${range(m.own)}]`,
      value: median(m.own),
      goal: '≤ 0.12 s',
      ok: median(m.own) <= 0.12
    },
    {
      measure: `${label}: gate with evidence (report, the default) ÷ without (off) [${range(m.evidence)}]`,
      value: median(m.evidence),
      goal: ''
    },
    {
      measure: `${label}: evidence (report) extra head runs, (with − without) ÷ one head run [${range(m.extraRuns)}]`,
      value: median(m.extraRuns),
      goal: '≤ 1.0',
      ok: median(m.extraRuns) <= 1.0
    },
    {
      measure: `${label}: gate serial ÷ minimal [${range(m.ratios)}]`,
      value: ratio,
      goal: '≤ 1.1',
      ok: ratio <= 1.1
    }
  ]
}

export async function fixedCost() {
  const props = Number(process.env.OG_BENCH_FIXED_PROPS ?? 6)
  return onBenchProjects({ props, seeds: 0 }, p => rows(p.name, measure(p)))
}
