// Figure 6: API calls for a 3,000-file PR with 1,000 reasons, counted at the fake GitHub
// server the end-to-end tests use (every request validated against GitHub's OpenAPI
// request schemas). Goal: ceil(files/100) + ceil(annotations/50) + a small constant.
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { buildEntries } from './build.mjs'
import { commitAll, git, initRepo, tempDir, writeFiles } from './lib.mjs'

const ENTRY = join(import.meta.dirname, '..', 'dist', 'index.js')
const TOKEN = 'ghs_benchFakeToken0123456789'
const POLICY = `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
suite:
  command: "false"
`

export async function apiCalls() {
  const { FakeGitHub, runBundledAction } = await import(await buildEntries())
  const origin = tempDir('og-bench-api-origin-')
  const workspace = tempDir('og-bench-api-ws-')
  let fake
  try {
    initRepo(origin)
    const base = {
      '.github/oracle-gate.yml': POLICY,
      'oracle/properties/test_a.py': 'def test_a():\n    pass\n'
    }
    for (let i = 0; i < 2000; i++) base[`src/m${i}.py`] = `V = ${i}\n`
    writeFiles(origin, base)
    commitAll(origin, 'base')
    const baseSha = git(origin, 'rev-parse', 'HEAD').trim()
    git(origin, 'checkout', '-q', '-b', 'agent')
    const head = {}
    for (let i = 0; i < 2000; i++) head[`src/m${i}.py`] = `V = ${i + 1}\n`
    for (let i = 0; i < 1000; i++) head[`oracle/gen/f${i}.py`] = `X = ${i}\n`
    writeFiles(origin, head)
    commitAll(origin, 'agent: 3,000 files, 1,000 of them protected')
    const headSha = git(origin, 'rev-parse', 'HEAD').trim()
    const files = git(origin, 'diff', '--name-status', baseSha, headSha)
      .trim()
      .split('\n')
      .map(l => ({ filename: l.split('\t')[1], status: l.startsWith('A') ? 'added' : 'modified' }))
      .sort((a, b) => (a.filename < b.filename ? -1 : 1))
    execFileSync('git', ['clone', '-q', origin, workspace])
    git(workspace, 'checkout', '-q', headSha)

    fake = await FakeGitHub.start({ token: TOKEN, pulls: [{ number: 1, baseSha, headSha, files }] })
    const repo = { full_name: 'acme/widget', name: 'widget', owner: { login: 'acme' } }
    const run = await runBundledAction({
      entry: ENTRY,
      workspace,
      eventName: 'pull_request',
      payload: {
        action: 'synchronize',
        number: 1,
        repository: repo,
        pull_request: {
          number: 1,
          base: { sha: baseSha, ref: 'main', repo },
          head: { sha: headSha, ref: 'agent', repo }
        }
      },
      inputs: {
        token: TOKEN,
        policy: '.github/oracle-gate.yml',
        'check-name': 'oracle-gate',
        today: '2026-06-01',
        'working-directory': '.'
      },
      apiUrl: fake.apiUrl,
      repository: fake.repository,
      timeoutMs: 300_000
    })
    const card = JSON.parse(readFileSync(run.outputs.scorecard, 'utf8'))
    rmSync(run.runnerTemp, { recursive: true, force: true })
    const calls = fake.calls().length
    const annotations = fake.checkRuns[0]?.annotations.length ?? 0
    const floor = Math.ceil(files.length / 100) + Math.ceil(annotations / 50)
    const invalid = fake.invalid.length
    return [
      {
        measure: `reasons in the card [verdict ${card.verdict}]`,
        value: card.reasons.length,
        digits: 0,
        goal: ''
      },
      { measure: `annotations posted (capped)`, value: annotations, digits: 0, goal: '' },
      {
        measure: `API calls, ${files.length} files (floor ${floor})`,
        value: calls,
        digits: 0,
        goal: `≤ floor + 5`,
        ok: calls <= floor + 5 && invalid === 0
      }
    ]
  } finally {
    await fake?.close?.()
    rmSync(origin, { recursive: true, force: true })
    rmSync(workspace, { recursive: true, force: true })
  }
}
