// Primed base results on GitHub, end to end: the action in mode: prime on a push to main
// writes the file for the artifact; a pull_request run with primed-base: auto finds the
// artifact of that push run through the fake Actions API (every request validated against
// GitHub's OpenAPI schemas), verifies the run and takes the base side from it. A real
// pytest suite runs; the product appends "base" or "head" to a marker file outside the
// repository whenever a suite imports it, so whether the base suite ran is observed.
// The forged artifact is the attack the provenance check exists for: a pull-request run
// (where the patch's code ran) uploads a primed file with a perfect fingerprint and an
// edited result. Trusted naively it merges a buggy head; the action never reads it.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../src/cli/main.js'
import { PRIMED_FILE, primedArtifactName } from '../src/github/primed.js'
import type { PrimedFile } from '../src/prime/store.js'
import type { Scorecard } from '../src/types.js'
import { validateScorecard } from '../src/verdict/scorecard-schema.js'
import { runActionInProcess } from './helpers/action-run.js'
import { FakeGitHub, runBundledAction } from './helpers/fake-github.js'
import type {
  ActionRun,
  FakeArtifact,
  FakeGitHubOptions,
  FakeWorkflowRun
} from './helpers/fake-github.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { writeZip } from './helpers/zip.js'

// dist/ is bundled from the current sources before any test (__tests__/global-setup.ts).
const ENTRY = join(import.meta.dirname, '..', 'dist', 'index.js')
const TOKEN = 'ghs_primedFakeToken0123456789'
const WORKFLOW = '.github/workflows/gate.yml'
const RUNS = 'GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs'
const ARTIFACTS = 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts'
const DOWNLOAD = 'GET /repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}'

const PY = pythonWithPytest()
const POLICY = `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/props/**]
# The product appends its side to a marker outside the worktree, which a sandbox hides.
sandbox: off
# This file counts which sides ran: the evidence stage's mutants are runs of the head of
# their own (docs/evidence.md), so it is off here.
evidence:
  mode: off
suite:
  command: ${PY} -m pytest oracle/props -q -p no:cacheprovider --junitxml={junit}
  timeout: 120
  reruns: 1
`
// Data-driven tests: the cases live with the product, as in many real suites.
const slug = (marker: string, side: string, cases: string, fixed: boolean): string =>
  `with open(${JSON.stringify(marker)}, "a") as f:
    f.write("${side}\\n")

CASES = ${cases}


def slugify(text):
    return "-".join(text.split())${fixed ? '.lower()' : ''}
`
const ALL_CASES = `[("Hello World", "hello-world"), ("a b", "a-b")]`
const PROPS = `import pytest

from lib.slug import CASES, slugify


@pytest.mark.parametrize("text,want", CASES)
def test_slug(text, want):
    assert slugify(text) == want
`
/** The id of the case the buggy base fails (pytest's parametrized id). */
const FAILING_ON_BASE = 'oracle/props/test_slug.py::test_slug[Hello World-hello-world]'
const PASSING = 'oracle/props/test_slug.py::test_slug[a b-a-b]'

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
  marker: string
  sides: () => string[]
  clearMarker: () => void
}

/** main: buggy slugify; agent: the honest fix, or (`drop`) the failing case removed instead. */
function setup(head: 'fix' | 'drop-case' = 'fix'): Setup {
  const origin = new TestRepo('og-primed-origin-')
  const scratch = mkdtempSync(join(tmpdir(), 'og-primed-'))
  cleanups.push(
    () => origin.cleanup(),
    () => rmSync(scratch, { recursive: true, force: true })
  )
  const marker = join(scratch, 'marker')
  origin.write({
    '.github/oracle-gate.yml': POLICY,
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'lib/__init__.py': '',
    'lib/slug.py': slug(marker, 'base', ALL_CASES, false),
    'oracle/props/test_slug.py': PROPS
  })
  const base = origin.commit('base')
  origin.branch('agent')
  origin.write({
    'lib/slug.py':
      head === 'fix'
        ? slug(marker, 'head', ALL_CASES, true)
        : slug(marker, 'head', `[("a b", "a-b")]`, false)
  })
  const headSha = origin.commit('agent patch')
  origin.git('update-ref', 'refs/pull/1/head', headSha)
  origin.checkout('main')
  return {
    origin,
    base,
    head: headSha,
    marker,
    sides: () =>
      existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').filter(Boolean) : [],
    clearMarker: () => rmSync(marker, { force: true })
  }
}

function workspace(s: Setup): string {
  const dir = mkdtempSync(join(tmpdir(), 'og-primed-ws-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  execFileSync('git', ['clone', '-q', `file://${s.origin.dir}`, dir], { stdio: 'pipe' })
  return dir
}

const REPOSITORY = {
  full_name: 'acme/widget',
  name: 'widget',
  owner: { login: 'acme' },
  default_branch: 'main'
}

function pushPayload(sha: string, ref = 'refs/heads/main'): unknown {
  return { ref, before: '0'.repeat(40), after: sha, repository: REPOSITORY }
}

function prPayload(s: Setup): unknown {
  return {
    action: 'synchronize',
    number: 1,
    pull_request: {
      number: 1,
      base: { sha: s.base, ref: 'main', repo: REPOSITORY },
      head: { sha: s.head, ref: 'agent', repo: REPOSITORY }
    },
    repository: REPOSITORY
  }
}

async function fake(s: Setup, options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
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
    ...options
  })
  fakes.push(f)
  return f
}

async function action(
  s: Setup,
  f: FakeGitHub,
  opts: { eventName: string; payload: unknown; inputs?: Record<string, string>; bundled?: boolean }
): Promise<ActionRun> {
  const runner = opts.bundled ? runBundledAction : runActionInProcess
  const run = await runner({
    entry: ENTRY,
    workspace: workspace(s),
    eventName: opts.eventName,
    payload: opts.payload,
    inputs: { token: TOKEN, today: '2026-06-01', ...(opts.inputs ?? {}) },
    apiUrl: f.apiUrl,
    repository: f.repository,
    env: { GITHUB_WORKFLOW_REF: `acme/widget/${WORKFLOW}@refs/heads/main` }
  })
  cleanups.push(() => rmSync(run.runnerTemp, { recursive: true, force: true }))
  return run
}

function card(run: ActionRun): Scorecard {
  const json: unknown = JSON.parse(readFileSync(run.outputs.scorecard ?? '', 'utf8'))
  expect(validateScorecard(json)).toEqual([])
  return json as Scorecard
}

/** mode: prime on the push of main: the primed file's bytes, as the upload step stores them. */
async function primeOnPush(s: Setup): Promise<Buffer> {
  const f = await fake(s)
  const run = await action(s, f, {
    eventName: 'push',
    payload: pushPayload(s.base),
    inputs: { mode: 'prime' }
  })
  expect(run.code, run.stdout).toBe(0)
  expect(run.outputs['primed-artifact']).toBe(primedArtifactName(s.base))
  expect(f.requests).toEqual([]) // priming needs no API at all
  const bytes = readFileSync(run.outputs.primed ?? '')
  s.clearMarker()
  return bytes
}

const pushRun = (s: Setup, over: Partial<FakeWorkflowRun> = {}): FakeWorkflowRun => ({
  id: 501,
  event: 'push',
  head_branch: 'main',
  head_sha: s.base,
  path: WORKFLOW,
  status: 'completed',
  conclusion: 'success',
  ...over
})

const artifact = (
  s: Setup,
  runId: number,
  primed: Buffer,
  over: Partial<FakeArtifact> = {}
): FakeArtifact => ({
  id: 9000 + runId,
  run_id: runId,
  name: primedArtifactName(s.base),
  zip: writeZip([{ name: PRIMED_FILE, data: primed }]),
  ...over
})

const judgeInputs = { 'primed-base': 'auto' }
/** The pull_request run of the workflow, judging with primed-base: auto. */
const judgePull = (s: Setup, f: FakeGitHub, bundled = false): Promise<ActionRun> =>
  action(s, f, { eventName: 'pull_request', payload: prPayload(s), inputs: judgeInputs, bundled })
const primedNotices = (c: Scorecard): string[] =>
  c.reasons.filter(r => r.message.includes('primed')).map(r => r.message)

describe('mode: prime', () => {
  it('bundled: on a push to main writes the primed file and names its artifact; the base suite ran', async () => {
    const s = setup()
    const f = await fake(s)
    const run = await action(s, f, {
      eventName: 'push',
      payload: pushPayload(s.base),
      inputs: { mode: 'prime' },
      bundled: true
    })
    expect(run.code, run.stdout).toBe(0)
    expect(s.sides()).toContain('base')
    expect(s.sides()).not.toContain('head')
    const file = JSON.parse(readFileSync(run.outputs.primed ?? '', 'utf8')) as PrimedFile
    expect(file.fingerprint.commit).toBe(s.base)
    expect(file.produced_by).toMatchObject({
      kind: 'github',
      run_url: 'https://github.example/acme/widget/actions/runs/4242'
    })
    expect(file.base.results.map(o => o.id).sort()).toEqual([FAILING_ON_BASE, PASSING])
    expect(run.summary).toContain(primedArtifactName(s.base))
  })

  it('a push to another branch primes nothing and says so, without failing the step', async () => {
    const s = setup()
    const f = await fake(s)
    const run = await action(s, f, {
      eventName: 'push',
      payload: pushPayload(s.head, 'refs/heads/agent'),
      inputs: { mode: 'prime' }
    })
    expect(run.code).toBe(0)
    expect(run.outputs.primed).toBe('')
    expect(run.stdout).toMatch(
      /::notice title=oracle-gate%3A nothing primed::refs\/heads\/agent is not the default branch/
    )
    expect(s.sides()).toEqual([])
  })

  it('outside a push it is a configuration error that fails the step and writes nothing', async () => {
    const s = setup()
    const f = await fake(s)
    const run = await action(s, f, {
      eventName: 'pull_request',
      payload: prPayload(s),
      inputs: { mode: 'prime' }
    })
    expect(run.code).toBe(1)
    expect(run.outputs.primed).toBe('')
    expect(run.stdout).toContain(
      'mode: prime runs on push to the default branch, not on pull_request'
    )
  })
})

describe('primed-base: auto', () => {
  it('bundled: takes the base side from the verified push run: the base suite does not run, the card names the run', async () => {
    const s = setup()
    const primed = await primeOnPush(s)
    const f = await fake(s, { workflowRuns: [pushRun(s)], artifacts: [artifact(s, 501, primed)] })
    const run = await judgePull(s, f, true)
    const c = card(run)
    expect(c.verdict).toBe('merge')
    expect(c.transitions.fail_to_pass).toEqual([FAILING_ON_BASE])
    // The base suite never imported the product; the head's module is imported by the vote
    // and by the differential replay's plain processes (docs/lints.md).
    expect([...new Set(s.sides())]).toEqual(['head'])
    expect(c.runs[0]?.primed_from).toMatch(
      /^workflow run 501 \(push to main at [0-9a-f]{12}\) https:\/\/github\.example\/acme\/widget\/actions\/runs\/501$/
    )
    expect(primedNotices(c).join('\n')).toContain('the base suite was not run')
    expect(f.invalid).toEqual([])
    expect(f.calls(RUNS)[0]?.query).toEqual({
      event: 'push',
      branch: 'main',
      head_sha: s.base,
      status: 'success',
      per_page: '20'
    })
    expect(f.calls(RUNS)[0]?.path).toBe('/repos/acme/widget/actions/workflows/gate.yml/runs')
    expect(f.calls(ARTIFACTS)[0]?.query.name).toBe(primedArtifactName(s.base))
    expect(f.calls(DOWNLOAD)).toHaveLength(1)
  })

  it('off (the default) asks the Actions API nothing and runs the base', async () => {
    const s = setup()
    const primed = await primeOnPush(s)
    const f = await fake(s, { workflowRuns: [pushRun(s)], artifacts: [artifact(s, 501, primed)] })
    const run = await action(s, f, { eventName: 'pull_request', payload: prPayload(s) })
    expect(card(run).verdict).toBe('merge')
    expect(f.calls(RUNS)).toEqual([])
    expect(s.sides()).toContain('base')
  })

  it('a forged artifact from a pull-request run: merges a buggy head when trusted naively, never read by the action', async () => {
    // The patch drops the failing case from the product's list instead of fixing slugify.
    const s = setup('drop-case')
    const honest = JSON.parse((await primeOnPush(s)).toString('utf8')) as PrimedFile
    // What the patch's code can upload from its own pull_request run: the same fingerprint
    // (it can compute it from the merge base), a result without the test it makes vanish.
    const forged: PrimedFile = {
      ...honest,
      base: { ...honest.base, results: honest.base.results.filter(o => o.id !== FAILING_ON_BASE) }
    }
    const forgedBytes = Buffer.from(JSON.stringify(forged))

    // The attack works when the file is trusted without provenance: a buggy head merges.
    const forgedPath = join(s.origin.dir, '..', `${Date.now()}-forged.json`)
    writeFileSync(forgedPath, forgedBytes)
    cleanups.push(() => rmSync(forgedPath, { force: true }))
    const io = cliIo(s.origin.dir)
    await main(
      [
        'check',
        '--base',
        'main',
        '--head',
        'agent',
        '--base-results',
        forgedPath,
        '--today',
        '2026-06-01',
        '-q'
      ],
      io
    )
    const naive = JSON.parse(io.out()) as Scorecard
    expect(naive.verdict).toBe('merge')
    expect(naive.runs[0]?.primed_from).toBeDefined()
    s.clearMarker()

    const prRun = pushRun(s, {
      id: 502,
      event: 'pull_request',
      head_branch: 'agent',
      head_sha: s.head
    })
    for (const ignoreRunFilters of [false, true]) {
      const f = await fake(s, {
        workflowRuns: [prRun],
        artifacts: [artifact(s, 502, forgedBytes)],
        ignoreRunFilters
      })
      const run = await judgePull(s, f)
      const c = card(run)
      expect(c.verdict).not.toBe('merge')
      expect(c.reasons.map(r => r.rule)).toContain('vanished-oracle')
      expect(s.sides()).toContain('base')
      expect(c.runs[0]?.primed_from).toBeUndefined()
      expect(f.calls(ARTIFACTS)).toEqual([]) // the pull-request run's artifacts are never listed
      expect(f.calls(DOWNLOAD)).toEqual([])
      const notice = primedNotices(c).join('\n')
      expect(notice).toContain('primed base result not used')
      if (ignoreRunFilters)
        expect(run.stdout).toContain(
          'workflow run 502 is not a trusted producer: event is "pull_request", not "push"; branch is "agent", not "main"'
        )
      s.clearMarker()
    }
  })

  it.each([
    ['a push run on another branch', { run: { head_branch: 'release' } }, 'none trusted'],
    [
      'a run of another workflow file',
      { run: { path: '.github/workflows/other.yml' } },
      'none trusted'
    ],
    ['a failed push run', { run: { conclusion: 'failure' } }, 'none trusted'],
    ['an expired artifact', { artifact: { expired: true } }, 'has expired'],
    [
      "a download whose digest is not the artifact's",
      { artifact: { digest: `sha256:${'0'.repeat(64)}` } },
      'digest'
    ],
    [
      'an artifact without the primed file',
      { zip: 'other.json' },
      'the archive has no file "primed-base.json"'
    ],
    ['a fingerprint that differs (another suite command)', { edit: true }, 'suite command: stored']
  ] as const)(
    'refuses %s: the base runs, the reason is logged and on the card',
    async (_what, change, why) => {
      const s = setup()
      let primed = await primeOnPush(s)
      if ('edit' in change) {
        const file = JSON.parse(primed.toString('utf8')) as PrimedFile
        file.fingerprint.suite_command = '{"command":"other"}'
        primed = Buffer.from(JSON.stringify(file))
      }
      const runOver = 'run' in change ? change.run : {}
      const zip = 'zip' in change ? { zip: writeZip([{ name: change.zip, data: primed }]) } : {}
      const artifactOver = 'artifact' in change ? change.artifact : {}
      // The fake applies GitHub's own filters; a run they would drop is listed anyway here, so
      // that the gate's verification on the run object is what refuses it.
      const f = await fake(s, {
        workflowRuns: [pushRun(s, runOver)],
        artifacts: [artifact(s, 501, primed, { ...artifactOver, ...zip })],
        ignoreRunFilters: 'run' in change
      })
      const run = await judgePull(s, f)
      const c = card(run)
      expect(c.verdict).toBe('merge')
      expect(s.sides()).toContain('base')
      expect(c.runs[0]?.primed_from).toBeUndefined()
      expect(primedNotices(c).join('\n')).toContain(why)
      expect(run.stdout).toMatch(/::warning::primed base result not used/)
      expect(f.invalid).toEqual([])
    }
  )

  it('a merge queue group takes its base side from the push run of its base too', async () => {
    const s = setup()
    const primed = await primeOnPush(s)
    // The group's commit: main with the PR merged, on the queue's branch.
    s.origin.git('checkout', '-q', '--detach', 'main')
    s.origin.git('merge', '-q', '--no-ff', '-m', 'merge group', s.head)
    const group = s.origin.sha()
    const headRef = `refs/heads/gh-readonly-queue/main/pr-1-${s.head}`
    s.origin.git('update-ref', headRef, group)
    s.origin.checkout('main')
    s.clearMarker()
    const f = await fake(s, { workflowRuns: [pushRun(s)], artifacts: [artifact(s, 501, primed)] })
    const run = await action(s, f, {
      eventName: 'merge_group',
      payload: {
        action: 'checks_requested',
        merge_group: {
          base_sha: s.base,
          head_sha: group,
          head_ref: headRef,
          base_ref: 'refs/heads/main'
        },
        repository: REPOSITORY
      },
      inputs: judgeInputs
    })
    const c = card(run)
    expect(c.verdict).toBe('merge')
    expect(c.event).toBe('merge_group')
    expect([...new Set(s.sides())]).toEqual(['head'])
    expect(c.runs[0]?.primed_from).toMatch(/^workflow run 501 /)
    expect(f.invalid).toEqual([])
  })

  it('an Actions API the token cannot read: the base runs and the card says which permission is missing', async () => {
    const s = setup()
    const f = await fake(s, {
      faults: [
        {
          method: 'GET',
          path: /\/actions\/workflows\//,
          status: 403,
          times: 1,
          message: 'Resource not accessible by integration'
        }
      ]
    })
    const run = await judgePull(s, f)
    const c = card(run)
    expect(c.verdict).toBe('merge')
    expect(s.sides()).toContain('base')
    expect(primedNotices(c).join('\n')).toContain('actions: read')
  })
})

function cliIo(cwd: string): Parameters<typeof main>[1] & { out: () => string } {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  stdout.on('data', d => (out += String(d)))
  stderr.resume()
  return { stdout, stderr, cwd, env: { PATH: process.env.PATH ?? '' }, out: () => out }
}
