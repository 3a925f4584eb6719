// `npm run demo`: builds a throwaway git repository from demo/example (a small Python
// project with a locked property suite under oracle/), applies each sample agent patch of
// demo/scenarios.mjs on its own branch, and runs the bundled gate on it, printing the
// verdict, the figures and the reasons. Exits 1 when a verdict differs from the expected.
import { execFileSync, spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  cpSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  mkdirSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { scenarios } from './scenarios.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const cli = join(here, '..', 'dist', 'cli.js')
const keep = process.argv.includes('--keep')
const only = process.argv.slice(2).filter(a => !a.startsWith('--'))

function findPython() {
  for (const candidate of [
    process.env.ORACLE_GATE_TEST_PYTHON,
    'python3',
    '/usr/bin/python3'
  ].filter(Boolean)) {
    const r = spawnSync(candidate, ['-c', 'import pytest, hypothesis'], { stdio: 'ignore' })
    if (r.status === 0) return candidate
  }
  console.error(
    'demo: needs python3 with pytest and hypothesis (Debian: apt-get install -y python3-pytest python3-hypothesis)'
  )
  process.exit(1)
}

const work = mkdtempSync(join(tmpdir(), 'oracle-gate-demo-'))
const repo = join(work, 'repo')
// The demo policy runs `python3 -m pytest`: point python3 at an interpreter that has pytest.
const shims = join(work, 'bin')
mkdirSync(shims)
const python = findPython()
const pythonPath = python.includes('/')
  ? python
  : execFileSync('sh', ['-c', `command -v ${python}`], { encoding: 'utf8' }).trim()
symlinkSync(pythonPath, join(shims, 'python3'))
symlinkSync(pythonPath, join(shims, 'python'))
const env = {
  ...process.env,
  PATH: `${shims}:${process.env.PATH}`,
  GIT_AUTHOR_NAME: 'demo',
  GIT_AUTHOR_EMAIL: 'demo@example.invalid',
  GIT_COMMITTER_NAME: 'demo',
  GIT_COMMITTER_EMAIL: 'demo@example.invalid'
}
const git = (...args) => execFileSync('git', args, { cwd: repo, env, encoding: 'utf8' })

cpSync(join(here, 'example'), repo, { recursive: true })
git('init', '-q', '-b', 'main')
git('add', '-A')
git('commit', '-q', '-m', 'demo project with a locked oracle')

let mismatches = 0
console.log(`oracle-gate demo: ${scenarios.length} sample patches against ${repo}\n`)
for (const s of scenarios) {
  if (only.length && !only.includes(s.name)) continue
  git('checkout', '-q', '-B', s.name, 'main')
  for (const [file, from, to] of s.edit ?? []) {
    const path = join(repo, file)
    const text = readFileSync(path, 'utf8')
    if (!text.includes(from))
      throw new Error(`scenario ${s.name}: ${file} has no ${JSON.stringify(from)}`)
    writeFileSync(path, text.replace(from, to))
  }
  for (const [file, content] of Object.entries(s.files ?? {})) {
    mkdirSync(dirname(join(repo, file)), { recursive: true })
    writeFileSync(join(repo, file), content)
  }
  for (const file of s.delete ?? []) rmSync(join(repo, file))
  if (s.rehashManifest) rehash(join(repo, 'oracle/fixtures/manifest.json'))
  git('add', '-A')
  git('commit', '-q', '-m', s.title)

  const cardPath = join(work, `${s.name}.json`)
  const started = Date.now()
  const run = spawnSync(
    process.execPath,
    [
      cli,
      'check',
      '--base',
      'main',
      '--head',
      s.name,
      '--repo',
      repo,
      '--today',
      '2026-12-01',
      '--json',
      cardPath,
      '--quiet'
    ],
    {
      env,
      encoding: 'utf8'
    }
  )
  const card = JSON.parse(readFileSync(cardPath, 'utf8'))
  const ok = card.verdict === s.expect
  if (!ok) mismatches++
  const secs = ((Date.now() - started) / 1000).toFixed(1)
  console.log(
    `${ok ? '✓' : '✗'} ${s.name}: ${card.verdict} (exit ${run.status}; expected ${s.expect}) in ${secs} s`
  )
  console.log(`  ${s.title}`)
  const t = card.transitions
  if (card.runs.length)
    console.log(
      `  voting: ${card.votes.passed} passed, ${card.votes.failed} failed, ${card.votes.frozen} frozen; hits [${t.fail_to_pass.join(', ')}]; regressions [${t.pass_to_fail.join(', ')}]`
    )
  else console.log('  suite not run (the instrument was touched or the gate stopped early)')
  for (const r of card.reasons)
    console.log(
      `  ${r.level === 'failure' ? 'x' : '!'} [${r.rule}]${r.path ? ` ${r.path}${r.line ? `:${r.line}` : ''}` : ''} ${r.message.split('\n')[0].slice(0, 160)}`
    )
  console.log('')
}

git('checkout', '-q', 'main')
if (keep) console.log(`kept ${work}`)
else rmSync(work, { recursive: true, force: true })
console.log(
  mismatches === 0
    ? 'demo: every verdict as expected'
    : `demo: ${mismatches} verdict(s) differ from the expected`
)
process.exit(mismatches === 0 ? 0 : 1)

function rehash(manifestPath) {
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'))
  for (const entry of Object.values(manifest)) {
    entry.sha256 = createHash('sha256')
      .update(readFileSync(join(dirname(manifestPath), entry.file)))
      .digest('hex')
  }
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2) + '\n')
}
