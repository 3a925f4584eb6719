// Issue 28, sharded replay: 4 shards of a generated pytest suite of about 60 s (per side;
// OG_BENCH_SHARD_SECONDS scales it, OG_BENCH_SHARDS the N). The unsharded gate, then each
// `check --shard I/N --out FILE` one after another (a 2-core machine cannot run a matrix),
// then `merge`. Figures: critical path (the slowest shard + the merge) ÷ the unsharded gate
// (goal ≤ 0.35), and the merge alone (goal < 2 s). The tests sleep instead of computing,
// so the split's effect is measured, not the machine's load. Run alone with
// `node bench/shard.mjs` after `npm run bundle`.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { commitAll, git, initRepo, tempDir, timeCommand, writeFiles } from './lib.mjs'

const CLI = new URL('../dist/cli.js', import.meta.url).pathname
const FILES = 24
const TESTS_PER_FILE = 5

function project(seconds) {
  const dir = tempDir('og-bench-shard-')
  initRepo(dir)
  const sleep = (seconds / (FILES * TESTS_PER_FILE)).toFixed(3)
  const files = {
    '.github/oracle-gate.yml': `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
suite:
  command: python3 -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}
  timeout: 900
  reruns: 1
`,
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': 'def absval(x):\n    return x  # bug\n'
  }
  for (let f = 0; f < FILES; f++) {
    const tests = Array.from(
      { length: TESTS_PER_FILE },
      (_, t) =>
        `\ndef test_${f}_${t}():\n    time.sleep(${sleep})\n    assert calc.absval(${f === 0 && t === 0 ? -1 : 1}) == 1\n`
    )
    files[`oracle/properties/test_part_${String(f).padStart(2, '0')}.py`] =
      `import time\n\nfrom app import calc\n${tests.join('')}`
  }
  writeFiles(dir, files)
  commitAll(dir, 'base')
  git(dir, 'checkout', '-q', '-b', 'agent')
  writeFiles(dir, { 'app/calc.py': 'def absval(x):\n    return -x if x < 0 else x\n' })
  commitAll(dir, 'fix')
  return dir
}

function cli(dir, args) {
  const r = timeCommand(process.execPath, [CLI, ...args], { cwd: dir })
  return r
}

export async function shard() {
  const seconds = Number(process.env.OG_BENCH_SHARD_SECONDS ?? 60)
  const total = Number(process.env.OG_BENCH_SHARDS ?? 4)
  const dir = project(seconds)
  try {
    const check = ['check', '--base', 'main', '--head', 'agent', '-q', '--today', '2026-06-01']
    const plain = cli(dir, [
      ...check,
      '--json',
      join(dir, '..', `${dir.split('/').pop()}-plain.json`)
    ])
    if (plain.status !== 0)
      throw new Error(`unsharded gate exit ${plain.status}: ${plain.stderr.slice(-600)}`)
    const files = []
    const shards = []
    for (let i = 1; i <= total; i++) {
      const out = `${dir}-shard-${i}.json`
      files.push(out)
      const r = cli(dir, [...check, '--shard', `${i}/${total}`, '--out', out])
      if (r.status !== 0) throw new Error(`shard ${i} exit ${r.status}: ${r.stderr.slice(-600)}`)
      shards.push(r.seconds)
    }
    const merge = cli(dir, ['merge', ...files, '-q', '--json', `${dir}-merged.json`])
    if (merge.status !== 0)
      throw new Error(`merge exit ${merge.status}: ${merge.stderr.slice(-600)}`)
    const slowest = Math.max(...shards)
    const ratio = (slowest + merge.seconds) / plain.seconds
    for (const f of files) rmSync(f, { force: true })
    return [
      {
        measure: `unsharded gate, ~${seconds} s suite per side (s)`,
        value: plain.seconds,
        digits: 1,
        goal: ''
      },
      { measure: `slowest of ${total} shards (s)`, value: slowest, digits: 1, goal: '' },
      {
        measure: `critical path (slowest shard + merge) ÷ unsharded`,
        value: ratio,
        goal: '≤ 0.35',
        ok: ratio <= 0.35
      },
      { measure: 'merge (s)', value: merge.seconds, digits: 2, goal: '< 2', ok: merge.seconds < 2 }
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
    rmSync(`${dir}-merged.json`, { force: true })
    rmSync(join(dir, '..', `${dir.split('/').pop()}-plain.json`), { force: true })
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await shard())
    console.log(
      `${row.measure}: ${typeof row.value === 'number' ? row.value.toFixed(row.digits ?? 3) : row.value} ${row.goal}`
    )
}
