// Figure 7: peak RSS and wall time of `oracle-gate check` (the bundled CLI) on the large
// hostile inputs of issue 14: a 1,000,000-case JUnit report and one of 400,000 (the case
// limit), a 100,000-row ledger and one of 15,000 (under the 4 MB limit), test files of 8 MB
// (under the lint limit), 24 MB and 80 MB; and (issue 22) a 576 MiB production file
// rewritten whole, whose -U0 diff (1.2 GB) the lints read as a stream. Each must stay
// within 600 MB, or end with a reason that names the limit. OG_BENCH_MEMORY_ONLY=<text>
// measures only the cases whose name holds it. RSS is the CLI process's own (a `node -r` preload prints
// process.resourceUsage().maxRSS at exit; the suite's children do not inherit it).
import { spawnSync } from 'node:child_process'
import {
  closeSync,
  createWriteStream,
  ftruncateSync,
  openSync,
  rmSync,
  writeFileSync,
  writeSync
} from 'node:fs'
import { join } from 'node:path'
import { commitAll, git, initRepo, tempDir, writeFiles } from './lib.mjs'

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js')
const RSS_GOAL_MB = 600
const ONE_CASE =
  '<testsuite><testcase classname="oracle.properties.test_big" name="test_x" file="oracle/properties/test_big.py"/></testsuite>'

async function writeReport(path, cases) {
  const out = createWriteStream(path)
  const write = s => (out.write(s) ? Promise.resolve() : new Promise(r => out.once('drain', r)))
  await write('<?xml version="1.0"?>\n<testsuites><testsuite name="pytest">\n')
  let buf = ''
  for (let i = 0; i < cases; i++) {
    buf += `<testcase classname="oracle.properties.test_big" name="test_case_${i}" file="oracle/properties/test_big.py" time="0.001"/>\n`
    if (buf.length > 1 << 20) {
      await write(buf)
      buf = ''
    }
  }
  await write(`${buf}</testsuite></testsuites>\n`)
  await new Promise(r => out.end(r))
}

function ledgerYaml(rows) {
  const parts = ['version: 1\nentries:\n']
  for (let i = 0; i < rows; i++)
    parts.push(
      `  - id: F${i}\n    test: oracle/properties/test_big.py::test_gone_${i}\n    cause: time\n    reason: slow runner on CI\n    owner: ada\n    first_seen: 2026-05-20\n    expires_on: 2026-06-15\n    max_runs: 2\n`
    )
  return parts.join('')
}

function testFile(bytes) {
  const parts = ['from app import calc\n\n']
  let n = parts[0].length
  for (let i = 0; n < bytes; i++) {
    const s = `def test_case_${i}():\n    assert calc.absval(-${i}) == ${i}  # value ${i * 7919}\n\n`
    parts.push(s)
    n += s.length
  }
  return parts.join('')
}

/**
 * `lines` lines of 16 MiB at `path` (a Python assignment of NUL bytes, left as holes: a
 * sparse file), after `head`: too large for a string, so written here and not by writeFiles.
 */
function sparseLines(file, prefix, lines, head = '') {
  const width = 16 * 1024 * 1024
  const fd = openSync(file, 'w')
  try {
    const start = Buffer.from(head)
    writeSync(fd, start, 0, start.length, 0)
    for (let i = 0; i < lines; i++) {
      const at = start.length + i * (width + 1)
      const name = Buffer.from(`${prefix}${i} = "`)
      writeSync(fd, name, 0, name.length, at)
      writeSync(fd, Buffer.from('"\n'), 0, 2, at + width - 1)
    }
    ftruncateSync(fd, start.length + lines * (width + 1))
  } finally {
    closeSync(fd)
  }
}

function judge(work, preload, { command, base = {}, head = {}, ledger = false, generate = {} }) {
  const dir = tempDir('og-bench-memory-')
  try {
    initRepo(dir)
    writeFiles(dir, {
      '.github/oracle-gate.yml': `version: 1\nprotected: [oracle/**]\nplanes:\n  voting: [oracle/properties/**]\n  in_diff: [tests/**]\nsuite:\n  command: ${command}\n  timeout: 600\n  reruns: 0\n${ledger ? 'ledger: oracle/flake_ledger.yml\n' : ''}`,
      'oracle/properties/test_big.py': 'def test_x():\n    pass\n',
      'app/calc.py': 'def absval(x):\n    return abs(x)\n',
      ...base
    })
    generate.base?.(dir)
    commitAll(dir, 'base')
    git(dir, 'checkout', '-q', '-b', 'agent')
    writeFiles(dir, { 'app/calc.py': 'def absval(x):\n    return abs(x) + 0\n', ...head })
    generate.head?.(dir)
    commitAll(dir, 'agent')
    const started = process.hrtime.bigint()
    const r = spawnSync(
      process.execPath,
      [
        '-r',
        preload,
        CLI,
        'check',
        '--base',
        'main',
        '--head',
        'agent',
        '--today',
        '2026-06-01',
        '--quiet'
      ],
      { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 }
    )
    const seconds = Number(process.hrtime.bigint() - started) / 1e9
    const rss = Number(/OG_MAX_RSS_KB=(\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024
    const card = JSON.parse(r.stdout)
    const limit = card.reasons.find(x => /\(the limit/.test(x.message))
    return { seconds, rss, verdict: card.verdict, limit: limit ? limit.rule : '' }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function memoryBounds() {
  const work = tempDir('og-bench-memory-inputs-')
  const preload = join(work, 'rss.cjs')
  writeFileSync(
    preload,
    "process.on('exit', () => require('fs').writeSync(2, `\\nOG_MAX_RSS_KB=${process.resourceUsage().maxRSS}\\n`))\n"
  )
  try {
    await writeReport(join(work, 'million.xml'), 1_000_000)
    await writeReport(join(work, 'half.xml'), 400_000)
    const cases = [
      ['1,000,000-case report', 30, { command: `cp ${join(work, 'million.xml')} {junit}` }],
      ['400,000-case report (the limit)', 60, { command: `cp ${join(work, 'half.xml')} {junit}` }],
      [
        '100,000-row ledger',
        10,
        {
          command: `echo '${ONE_CASE}' > {junit}`,
          ledger: true,
          base: { 'oracle/flake_ledger.yml': ledgerYaml(100_000) }
        }
      ],
      [
        '15,000-row ledger',
        30,
        {
          command: `echo '${ONE_CASE}' > {junit}`,
          ledger: true,
          base: { 'oracle/flake_ledger.yml': ledgerYaml(15_000) }
        }
      ],
      [
        '8 MB test file (lints)',
        30,
        {
          command: `echo '${ONE_CASE}' > {junit}`,
          head: { 'tests/test_big.py': testFile(8_000_000) }
        }
      ],
      [
        '24 MB test file',
        10,
        {
          command: `echo '${ONE_CASE}' > {junit}`,
          head: { 'tests/test_big.py': testFile(24_000_000) }
        }
      ],
      [
        '80 MB test file',
        10,
        {
          command: `echo '${ONE_CASE}' > {junit}`,
          head: { 'tests/test_big.py': testFile(80_000_000) }
        }
      ],
      [
        '576 MiB production file rewritten whole',
        120,
        {
          command: `echo '${ONE_CASE}' > {junit}`,
          generate: {
            base: dir => sparseLines(join(dir, 'app', 'blob.py'), 'B_', 36),
            head: dir => sparseLines(join(dir, 'app', 'blob.py'), 'H_', 36, 'TOTAL = 1\n')
          }
        }
      ]
    ]
    const only = process.env.OG_BENCH_MEMORY_ONLY
    const rows = []
    for (const [name, seconds, spec] of cases) {
      if (only && !name.includes(only)) continue
      const r = judge(work, preload, spec)
      const outcome = r.limit ? `${r.verdict}, limit named (${r.limit})` : r.verdict
      rows.push({
        measure: `${name}: peak RSS (MB) [${outcome}]`,
        value: r.rss,
        digits: 0,
        goal: `< ${RSS_GOAL_MB} MB`,
        ok: r.rss < RSS_GOAL_MB
      })
      rows.push({
        measure: `${name}: wall time (s)`,
        value: r.seconds,
        digits: 1,
        goal: `< ${seconds} s`,
        ok: r.seconds < seconds
      })
    }
    return rows
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
