// The action's shard and merge modes end to end against the fake GitHub API (every request
// validated against GitHub's OpenAPI schemas): a matrix of mode: shard jobs on a real
// pytest suite writes the shard scorecards (no API call, no token needed), the workflow's
// upload step is played by putting them in the fake as artifacts of this run (4242), and
// mode: merge reads them by run id, posts one check run with the verdict an unsharded
// judge gives, and names an in-toto Statement over its scorecard. A shard missing from this
// run (uploaded by another run) or an artifact whose download does not match its digest
// is an error naming it.
import { createHash } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { SHARD_FILE } from '../src/github/shards.js'
import { compiledValidator } from './helpers/schemas.js'
import statementSchema from '../src/shard/statement.schema.json' with { type: 'json' }
import type { Scorecard } from '../src/types.js'
import { validateScorecard } from '../src/verdict/scorecard-schema.js'
import { runActionInProcess } from './helpers/action-run.js'
import { FakeGitHub, type ActionRun, type FakeArtifact } from './helpers/fake-github.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { judged } from './helpers/shards.js'
import { writeZip } from './helpers/zip.js'

const TOKEN = 'ghs_shardFakeToken0123456789'
const PY = pythonWithPytest()
const POLICY = `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/props/**]
suite:
  command: ${PY} -m pytest oracle/props -q -p no:cacheprovider --junitxml={junit}
  timeout: 120
  reruns: 1
`
const LIB = `def slug(text):
    return "-".join(text.split())
`
const prop = (name: string, text: string, want: string): string =>
  `from lib.slug import slug\n\n\ndef test_${name}():\n    assert slug(${JSON.stringify(text)}) == ${JSON.stringify(want)}\n`

const cleanups: (() => void)[] = []
const fakes: FakeGitHub[] = []
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close()
  for (const c of cleanups.splice(0)) c()
})

interface Setup {
  origin: TestRepo
  base: string
  head: string
}

function setup(): Setup {
  const origin = new TestRepo('og-shard-origin-')
  cleanups.push(() => origin.cleanup())
  origin.write({
    '.github/oracle-gate.yml': POLICY,
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'lib/__init__.py': '',
    'lib/slug.py': LIB,
    'oracle/props/test_lower.py': prop('lower', 'Hello World', 'hello-world'),
    'oracle/props/test_spaces.py': prop('spaces', 'a  b', 'a-b'),
    'oracle/props/test_plain.py': prop('plain', 'a b', 'a-b')
  })
  const base = origin.commit('base')
  origin.branch('agent')
  origin.write({ 'lib/slug.py': LIB.replace('text.split())', 'text.split()).lower()') })
  const head = origin.commit('agent patch')
  origin.git('update-ref', 'refs/pull/1/head', head)
  origin.checkout('main')
  return { origin, base, head }
}

const REPOSITORY = {
  full_name: 'acme/widget',
  name: 'widget',
  owner: { login: 'acme' },
  default_branch: 'main'
}
const payload = (s: Setup): unknown => ({
  action: 'synchronize',
  number: 1,
  pull_request: {
    number: 1,
    base: { sha: s.base, ref: 'main', repo: REPOSITORY },
    head: { sha: s.head, ref: 'agent', repo: REPOSITORY }
  },
  repository: REPOSITORY
})

async function fake(s: Setup, artifacts: FakeArtifact[] = []): Promise<FakeGitHub> {
  const f = await FakeGitHub.start({
    token: TOKEN,
    pulls: [
      {
        number: 1,
        baseSha: s.base,
        headSha: s.head,
        files: [{ filename: 'lib/slug.py', status: 'modified' }]
      }
    ],
    artifacts
  })
  fakes.push(f)
  return f
}

async function action(s: Setup, f: FakeGitHub, inputs: Record<string, string>): Promise<ActionRun> {
  const workspace = mkdtempSync(join(tmpdir(), 'og-shard-ws-'))
  cleanups.push(() => rmSync(workspace, { recursive: true, force: true }))
  execFileSync('git', ['clone', '-q', `file://${s.origin.dir}`, workspace], { stdio: 'pipe' })
  const run = await runActionInProcess({
    entry: '',
    workspace,
    eventName: 'pull_request',
    payload: payload(s),
    inputs: { token: TOKEN, today: '2026-06-01', ...inputs },
    apiUrl: f.apiUrl,
    repository: f.repository
  })
  cleanups.push(() => rmSync(run.runnerTemp, { recursive: true, force: true }))
  return run
}

/** The matrix: mode: shard for I = 1..N, each upload played as an artifact of `runId`. */
async function matrix(s: Setup, total: number, runId = 4242): Promise<FakeArtifact[]> {
  const f = await fake(s)
  const out: FakeArtifact[] = []
  for (let i = 1; i <= total; i++) {
    const run = await action(s, f, { mode: 'shard', shard: `${i}/${total}`, token: '' })
    expect(run.code, run.stdout).toBe(0)
    expect(run.outputs['shard-artifact']).toBe(`oracle-gate-shard-${i}-of-${total}`)
    const bytes = readFileSync(run.outputs.shard ?? '')
    out.push({
      id: 7000 + runId + i,
      run_id: runId,
      name: run.outputs['shard-artifact'] ?? '',
      zip: writeZip([{ name: SHARD_FILE, data: bytes }])
    })
  }
  // A shard job needs no API at all (and so no token).
  expect(f.requests).toEqual([])
  return out
}

function card(run: ActionRun): Scorecard {
  const json: unknown = JSON.parse(readFileSync(run.outputs.scorecard ?? '', 'utf8'))
  expect(validateScorecard(json)).toEqual([])
  return json as Scorecard
}

describe('mode: shard and mode: merge', { timeout: 600_000 }, () => {
  it('the merge of the matrix judges like one judge run, posts one check run and a Statement over the scorecard it wrote', async () => {
    const s = setup()
    const artifacts = await matrix(s, 2)
    const f = await fake(s, artifacts)
    const merged = await action(s, f, { mode: 'merge' })
    const c = card(merged)
    expect(c.verdict, merged.stdout).toBe('merge')
    expect(merged.code).toBe(0)
    expect(c.transitions.fail_to_pass).toEqual(['oracle/props/test_lower.py::test_lower'])
    expect(f.invalid).toEqual([])
    expect(f.checkRuns).toHaveLength(1)
    expect(f.checkRuns[0]?.conclusion).toBe('success')
    expect(f.calls('GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts')[0]?.path).toBe(
      '/repos/acme/widget/actions/runs/4242/artifacts'
    )

    const statementPath = merged.outputs.attestation ?? ''
    expect(statementPath).not.toBe('')
    const statement = JSON.parse(readFileSync(statementPath, 'utf8')) as {
      subject: { name: string; digest: { sha256: string } }[]
      predicate: { result: string; url: string }
    }
    expect(compiledValidator(statementSchema)(statement)).toEqual([])
    const bytes = readFileSync(merged.outputs.scorecard ?? '')
    expect(statement.subject[0]?.digest.sha256).toBe(
      createHash('sha256').update(bytes).digest('hex')
    )
    expect(statement.predicate).toMatchObject({
      result: 'PASSED',
      url: 'https://github.example/acme/widget/actions/runs/4242'
    })

    const plain = await action(s, await fake(s), {})
    expect(judged(c)).toEqual(judged(card(plain)))
  })

  it('a shard uploaded by another run is not read: the merge is an error naming the missing shard', async () => {
    const s = setup()
    const [one, two] = (await matrix(s, 2)) as [FakeArtifact, FakeArtifact]
    const f = await fake(s, [one, { ...two, run_id: 999 }])
    const merged = await action(s, f, { mode: 'merge' })
    const c = card(merged)
    expect(c.verdict).toBe('error')
    expect(merged.code).toBe(1)
    expect(c.reasons[0]?.message).toContain('shard 2/2 is missing')
    expect(f.checkRuns[0]?.conclusion).toBe('failure')
  })

  it('an artifact whose download does not match its digest is an error naming it', async () => {
    const s = setup()
    const [one, two] = (await matrix(s, 2)) as [FakeArtifact, FakeArtifact]
    const f = await fake(s, [one, { ...two, digest: `sha256:${'0'.repeat(64)}` }])
    const c = card(await action(s, f, { mode: 'merge' }))
    expect(c.verdict).toBe('error')
    expect(c.reasons[0]?.message).toMatch(
      /artifact oracle-gate-shard-2-of-2: the download's digest/
    )
  })
})
