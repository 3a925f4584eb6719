// `npm run bench`: every figure of issue 8 measured side by side in one run, printed as one
// table with its goal, and written to bench/results/latest.json. Ratios, not absolute
// times, so the figures mean the same on a faster or slower machine.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { overhead } from './overhead.mjs'
import { policyOnly } from './policy-only.mjs'
import { coldStart } from './cold-start.mjs'
import { junitParse } from './junit.mjs'
import { lintFiles } from './lints.mjs'
import { apiCalls } from './api-calls.mjs'
import { memoryBounds } from './memory.mjs'
import { primed } from './primed.mjs'
import { cost } from './cost.mjs'
import { fixedCost } from './fixed.mjs'
import { shard } from './shard.mjs'
import { sandboxCost } from './sandbox.mjs'
import { fit } from './fit.mjs'
import { reachCost, reachInstructions } from './reach.mjs'
import { differentialCost } from './differential.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const only = process.argv.slice(2)
const figures = [
  ['overhead', overhead],
  ['policy-only', policyOnly],
  ['cold-start', coldStart],
  ['junit', junitParse],
  ['lints', lintFiles],
  ['api-calls', apiCalls],
  ['memory', memoryBounds],
  ['primed', primed],
  ['cost', cost],
  ['fixed', fixedCost],
  ['shard', shard],
  ['sandbox', sandboxCost],
  ['fit', fit],
  ['reach', reachCost],
  ['reach-instr', reachInstructions],
  ['differential', differentialCost]
]

const rows = []
for (const [name, fn] of figures) {
  if (only.length && !only.includes(name)) continue
  process.stderr.write(`bench: ${name}…\n`)
  try {
    for (const row of await fn()) rows.push({ figure: name, ...row })
  } catch (error) {
    rows.push({
      figure: name,
      measure: 'failed',
      value: String(error?.message ?? error),
      goal: '',
      ok: false
    })
  }
}

const machine = {
  cores: cpus().length,
  cpu: cpus()[0]?.model ?? '?',
  node: process.version,
  platform: process.platform
}
const width = Math.max(...rows.map(r => r.measure.length))
console.log(
  `oracle-gate benchmarks — ${machine.cores} cores, ${machine.cpu}, Node ${machine.node}\n`
)
console.log(`${'figure'.padEnd(12)} ${'measure'.padEnd(width)}  ${'value'.padStart(12)}  goal`)
for (const r of rows) {
  const value = typeof r.value === 'number' ? r.value.toFixed(r.digits ?? 3) : String(r.value)
  console.log(
    `${r.figure.padEnd(12)} ${r.measure.padEnd(width)}  ${value.padStart(12)}  ${r.goal}${r.goal ? (r.ok ? '  ✓' : '  ✗') : ''}`
  )
}
mkdirSync(join(here, 'results'), { recursive: true })
writeFileSync(
  join(here, 'results', 'latest.json'),
  JSON.stringify({ machine, when: new Date().toISOString(), rows }, null, 2) + '\n'
)
console.log(`\nwritten: bench/results/latest.json`)
