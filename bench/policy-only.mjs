// Figure 2: a PR touching 20,000 files, one of them protected: the verdict is policy and
// no suite runs (nor the lints: the verdict is policy on paths, src/gate.ts). Total
// seconds of `oracle-gate check`, the median of three.
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { commitAll, git, initRepo, median, pack, tempDir, timeCommand, writeFiles } from './lib.mjs'

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js')
const N = 20_000

export async function policyOnly() {
  const dir = tempDir('og-bench-20k-')
  try {
    initRepo(dir)
    const base = {
      '.github/oracle-gate.yml':
        'version: 1\nprotected: [oracle/**]\nplanes:\n  voting: [oracle/properties/**]\nsuite:\n  command: "false"\n',
      'oracle/properties/test_a.py': 'def test_a():\n    pass\n'
    }
    for (let i = 0; i < N; i++) base[`src/pkg${i % 100}/mod_${i}.py`] = `VALUE = ${i}\n`
    writeFiles(dir, base)
    commitAll(dir, 'base')
    git(dir, 'checkout', '-q', '-b', 'agent')
    const head = { 'oracle/properties/test_a.py': 'def test_a():\n    assert True\n' }
    for (let i = 0; i < N - 1; i++) head[`src/pkg${i % 100}/mod_${i}.py`] = `VALUE = ${i + 1}\n`
    writeFiles(dir, head)
    commitAll(dir, 'agent touches 20,000 files')
    pack(dir)
    const times = []
    let verdict = ''
    for (let i = 0; i < 3; i++) {
      const r = timeCommand(
        process.execPath,
        [CLI, 'check', '--base', 'main', '--head', 'agent', '--quiet'],
        { cwd: dir }
      )
      verdict = JSON.parse(r.stdout).verdict
      times.push(r.seconds)
    }
    const t = median(times)
    return [
      {
        measure: `policy-only verdict, 20,000 files (s) [${verdict}]`,
        value: t,
        digits: 2,
        goal: '≤ 1 s',
        ok: t <= 1 && verdict === 'policy'
      }
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
