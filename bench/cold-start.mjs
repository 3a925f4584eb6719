// Figure 3: cold start of the bundles against a bare `node -e 0`: dist/index.js to its
// first log line, dist/cli.js --version to exit.
import { join } from 'node:path'
import { median, tempDir, timeCommand, timeToOutputLines } from './lib.mjs'

const DIST = join(import.meta.dirname, '..', 'dist')

export async function coldStart() {
  const runs = 15
  const bare = [],
    action = [],
    loaded = [],
    version = []
  const env = { PATH: process.env.PATH, RUNNER_TEMP: tempDir('og-bench-cold-') }
  for (let i = 0; i < runs; i++) {
    bare.push(timeCommand(process.execPath, ['-e', '0']).seconds)
    action.push(await timeToOutputLines(process.execPath, [join(DIST, 'index.js')], { env }))
    // The line after the banner comes from run(), once the toolkit and the gate have loaded.
    loaded.push(await timeToOutputLines(process.execPath, [join(DIST, 'index.js')], { env }, 3))
    version.push(timeCommand(process.execPath, [join(DIST, 'cli.js'), '--version']).seconds)
  }
  const b = median(bare)
  return [
    { measure: 'node -e 0 (ms)', value: b * 1000, digits: 0, goal: '' },
    {
      measure: 'dist/index.js first log line ÷ node -e 0',
      value: median(action) / b,
      goal: '≤ 1.5',
      ok: median(action) / b <= 1.5
    },
    {
      measure: 'dist/index.js fully loaded (first line of run()) ÷ node -e 0',
      value: median(loaded) / b,
      goal: ''
    },
    {
      measure: 'dist/cli.js --version ÷ node -e 0',
      value: median(version) / b,
      goal: '≤ 1.5',
      ok: median(version) / b <= 1.5
    }
  ]
}
