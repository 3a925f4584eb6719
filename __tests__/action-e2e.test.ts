// End to end: the action run as GitHub's runner runs it, with an event payload file, a
// depth-1 clone of the PR's merge commit as the workspace, and GITHUB_API_URL pointing at
// the fake GitHub server on 127.0.0.1, which validates every request against GitHub's
// OpenAPI schemas. Most scenarios call run() in this process (helpers/action-run.ts: the
// same variables, a recording toolkit, API waits in milliseconds); the ones marked
// `bundled` run dist/index.js as a child process with GITHUB_OUTPUT / GITHUB_STEP_SUMMARY
// files and the real toolkit, as smoke tests of the bundle.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import type { Scorecard } from '../src/types.js'
import { validateScorecard } from '../src/verdict/scorecard-schema.js'
import { runActionInProcess } from './helpers/action-run.js'
import { FakeGitHub, runBundledAction } from './helpers/fake-github.js'
import type { ActionRun, FakeFile, FakeGitHubOptions } from './helpers/fake-github.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const ENTRY = join(ROOT, 'dist/index.js')
const PY = pythonWithPytest()
const TOKEN = 'ghs_e2eFakeToken0123456789'
const TODAY = '2026-06-01'
const CHECK_RUNS = 'POST /repos/{owner}/{repo}/check-runs'
const UPDATES = 'PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}'
const FILES = 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files'

const CALC_BUGGY = `def add(a, b):
    return a + b


def absval(x):
    return x  # bug: negative numbers stay negative
`
const CALC_FIXED = CALC_BUGGY.replace(
  'return x  # bug: negative numbers stay negative',
  'return -x if x < 0 else x'
)
const PROPERTIES = `from app import calc


def test_add_commutes():
    for a, b in [(1, 2), (-3, 5), (0, 7)]:
        assert calc.add(a, b) == calc.add(b, a)


def test_abs_non_negative():
    for x in [-5, 0, 3, -250]:
        assert calc.absval(x) >= 0
`
const POLICY = `version: 1
protected:
  - oracle/**
  - .github/workflows/**
planes:
  voting: [oracle/properties/**]
  drafts: [drafts/**]
  in_diff: [tests/**]
suite:
  command: ${PY} -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}
  timeout: 120
  reruns: 1
`

interface Scenario {
  origin: TestRepo
  /** Tip of main when the event fired (main moved on after the agent branched). */
  base: string
  head: string
  mergeBase: string
  files: FakeFile[]
}

const cleanups: Array<() => void> = []
const fakes: FakeGitHub[] = []
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close()
  for (const c of cleanups.splice(0)) c()
})

// dist/ is bundled from the current sources once before any test (__tests__/global-setup.ts).

/** origin: base on main, the agent's branch, main moving on, and the PR's refs. */
function scenario(head: Record<string, string>, extraBase: Record<string, string> = {}): Scenario {
  const origin = new TestRepo('og-origin-')
  cleanups.push(() => origin.cleanup())
  origin.write({
    '.github/oracle-gate.yml': POLICY,
    // Children run with PYTHONSAFEPATH=1: the project says where its code is.
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': CALC_BUGGY,
    'oracle/properties/test_calc.py': PROPERTIES,
    ...extraBase
  })
  const mergeBase = origin.commit('base')
  origin.branch('agent')
  origin.write(head)
  const headSha = origin.commit('agent patch')
  origin.checkout('main')
  origin.write({ 'README.md': 'main moved on\n' })
  const base = origin.commit('unrelated work on main')
  // refs/pull/1/merge, which actions/checkout checks out at depth 1 on pull_request.
  origin.git('checkout', '-q', '--detach', 'main')
  origin.git('merge', '-q', '--no-ff', '-m', 'merge agent into main', 'agent')
  origin.git('update-ref', 'refs/pull/1/merge', 'HEAD')
  origin.git('update-ref', 'refs/pull/1/head', headSha)
  origin.checkout('main')
  // The agent's branch lives in a fork: the base repository only has refs/pull/1/*.
  origin.git('branch', '-q', '-D', 'agent')
  return { origin, base, head: headSha, mergeBase, files: apiFiles(origin, mergeBase, headSha) }
}

/** The PR files list as GitHub computes it: the diff from the merge base, renames detected. */
function apiFiles(repo: TestRepo, from: string, to: string): FakeFile[] {
  const out = repo.git('diff', '--name-status', '-z', '-M', from, to).split('\0').filter(Boolean)
  const files: FakeFile[] = []
  for (let i = 0; i < out.length;) {
    const status = out[i++] ?? ''
    if (status.startsWith('R') || status.startsWith('C')) {
      const previous = out[i++] ?? ''
      files.push({
        filename: out[i++] ?? '',
        status: status.startsWith('R') ? 'renamed' : 'copied',
        previous_filename: previous
      })
    } else {
      files.push({
        filename: out[i++] ?? '',
        status:
          { A: 'added', D: 'removed', M: 'modified', T: 'changed' }[status[0] ?? 'M'] ?? 'modified'
      })
    }
  }
  return files.sort((a, b) => (a.filename < b.filename ? -1 : 1))
}

/** A depth-1 clone of the merge commit: what actions/checkout leaves in the workspace. */
function shallowWorkspace(s: Scenario): string {
  const dir = mkdtempSync(join(tmpdir(), 'og-ws-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' })
  git('init', '-q')
  git('remote', 'add', 'origin', `file://${s.origin.dir}`)
  git(
    'fetch',
    '-q',
    '--no-tags',
    '--depth=1',
    'origin',
    '+refs/pull/1/merge:refs/remotes/pull/1/merge'
  )
  git('checkout', '-q', '--detach', 'refs/remotes/pull/1/merge')
  return dir
}

function prPayload(s: Scenario, headRepo = 'acme/widget'): unknown {
  const repo = { full_name: 'acme/widget', name: 'widget', owner: { login: 'acme' } }
  return {
    action: 'synchronize',
    number: 1,
    pull_request: {
      number: 1,
      base: { sha: s.base, ref: 'main', repo },
      head: { sha: s.head, ref: 'agent', repo: { ...repo, full_name: headRepo } }
    },
    repository: repo
  }
}

async function startFake(s: Scenario, options: FakeGitHubOptions = {}): Promise<FakeGitHub> {
  const fake = await FakeGitHub.start({
    token: TOKEN,
    pulls: [{ number: 1, baseSha: s.base, headSha: s.head, files: s.files }],
    ...options
  })
  fakes.push(fake)
  return fake
}

async function runAction(
  s: Scenario,
  f: FakeGitHub,
  opts: {
    workspace?: string
    eventName?: string
    payload?: unknown
    inputs?: Record<string, string>
    /** Run dist/index.js as a child process instead of run() in this process. */
    bundled?: boolean
  } = {}
): Promise<ActionRun> {
  const runner = opts.bundled ? runBundledAction : runActionInProcess
  const run = await runner({
    entry: ENTRY,
    workspace: opts.workspace ?? shallowWorkspace(s),
    eventName: opts.eventName ?? 'pull_request',
    payload: opts.payload ?? prPayload(s),
    inputs: {
      token: TOKEN,
      policy: '.github/oracle-gate.yml',
      'check-name': 'oracle-gate',
      today: TODAY,
      'working-directory': '.',
      ...(opts.inputs ?? {})
    },
    apiUrl: f.apiUrl,
    repository: f.repository
  })
  cleanups.push(() => rmSync(run.runnerTemp, { recursive: true, force: true }))
  return run
}

/** The card the run wrote; every one of them must match the published schema. */
function card(run: ActionRun): Scorecard {
  const json: unknown = JSON.parse(readFileSync(run.outputs.scorecard ?? '', 'utf8'))
  expect(validateScorecard(json)).toEqual([])
  return json as Scorecard
}
const errorLines = (run: ActionRun): string[] =>
  run.stdout.split('\n').filter(l => l.startsWith('::error'))

describe('the action on pull_request', () => {
  it('bundled: an honest fix fetches the missing commits, judges from the merge base, posts success', async () => {
    const s = scenario({ 'app/calc.py': CALC_FIXED })
    const f = await startFake(s)
    const run = await runAction(s, f, { bundled: true })

    expect(run.code).toBe(0)
    expect(run.outputs).toMatchObject({ verdict: 'merge', merge: 'true', 'oracle-hits': '1' })
    expect(run.stdout).toMatch(/the checkout lacks .* fetching them from origin/)
    expect(run.stdout).toMatch(/1 changed file\(s\) from the PR files API/)
    const c = card(run)
    expect(c.base).toBe(s.mergeBase)
    expect(c.head).toBe(s.head)
    expect(c.transitions.fail_to_pass).toEqual([
      'oracle/properties/test_calc.py::test_abs_non_negative'
    ])
    expect(c.write_set.map(w => w.path)).toEqual(['app/calc.py'])
    // The artifact for report mode sits next to the card.
    expect(
      JSON.parse(readFileSync(join(dirname(run.outputs.scorecard ?? ''), 'event.json'), 'utf8'))
    ).toEqual(prPayload(s))

    expect(f.checkRuns).toHaveLength(1)
    const checkRun = f.checkRuns[0]
    expect(checkRun).toMatchObject({
      name: 'oracle-gate',
      head_sha: s.head,
      status: 'completed',
      conclusion: 'success'
    })
    expect(checkRun?.details_url).toBe('https://github.example/acme/widget/actions/runs/4242')
    expect(checkRun?.output.title).toMatch(/^merge: 1 hit/)
    expect(checkRun?.output.summary).toContain('oracle-gate: `merge`')
    expect(run.summary).toContain('oracle-gate: `merge`')
    expect(errorLines(run)).toEqual([])
    // Created pending first, then completed: 1 POST + 1 PATCH, plus pulls.get and 1 files page.
    expect(f.calls().map(r => `${r.method} ${r.status}`)).toEqual([
      'GET 200',
      'POST 201',
      'GET 200',
      'GET 200',
      'PATCH 200'
    ])
    expect(f.invalid).toEqual([])
    // The token is registered as a secret (masked by the runner) and printed nowhere else.
    expect(run.stdout).toContain(`::add-mask::${TOKEN}`)
    expect(run.stdout.replace(`::add-mask::${TOKEN}`, '') + run.stderr).not.toContain(TOKEN)
  })

  it('a protected edit: policy, a failed step, a failure check run annotated on the file', async () => {
    const s = scenario({ 'oracle/properties/test_calc.py': PROPERTIES.replace('>= 0', '>= -1000') })
    const f = await startFake(s)
    const run = await runAction(s, f)

    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ verdict: 'policy', merge: 'false', 'oracle-hits': '0' })
    expect(run.stdout).toMatch(/::error::oracle-gate verdict: policy \(protected-path: /)
    const checkRun = f.checkRuns[0]
    expect(checkRun).toMatchObject({ conclusion: 'failure', status: 'completed' })
    expect(checkRun?.output.title).toMatch(/^policy: /)
    // One annotation per failing reason on the file: the write (protected-path) and the digest.
    expect(checkRun?.annotations.map(a => [a.path, a.annotation_level, a.title])).toEqual([
      ['oracle/properties/test_calc.py', 'failure', 'oracle-gate: protected-path'],
      ['oracle/properties/test_calc.py', 'failure', 'oracle-gate: oracle-digest']
    ])
    // With a check run to carry them, the reasons are not repeated as step annotations.
    expect(errorLines(run)).toHaveLength(1)
    expect(f.invalid).toEqual([])
  })

  it('a protected edit beyond the API cap: the list stops at 3000, git catches the edit', async () => {
    const generated = Object.fromEntries(
      Array.from({ length: 3005 }, (_, i) => [
        `docs/gen/f${String(i).padStart(4, '0')}.md`,
        `${i}\n`
      ])
    )
    const s = scenario({
      ...generated,
      'oracle/properties/test_calc.py': PROPERTIES.replace('>= 0', '>= -1000')
    })
    expect(s.files).toHaveLength(3006)
    // Sorted like GitHub's list, the protected file is the 3006th: past the cap.
    expect(s.files.findIndex(x => x.filename.startsWith('oracle/'))).toBe(3005)
    const f = await startFake(s)
    const run = await runAction(s, f)

    expect(run.stdout).toMatch(
      /the API listed 3000 of the PR's 3006 changed files \(the files API stops at 3000\): the write set comes from git/
    )
    expect(run.outputs.verdict).toBe('policy')
    expect(card(run).write_set).toHaveLength(3006)
    expect(f.checkRuns[0]?.annotations.map(a => a.path)).toContain('oracle/properties/test_calc.py')
    expect(f.calls(FILES)).toHaveLength(31)
    // list runs + create + get PR + 31 pages + complete
    expect(f.calls()).toHaveLength(35)
    expect(f.invalid).toEqual([])
  })

  it('a 502 from the API is retried and the run goes on to its verdict', async () => {
    const s = scenario({ 'oracle/properties/test_calc.py': PROPERTIES.replace('>= 0', '>= -1000') })
    const f = await startFake(s, {
      faults: [{ method: 'GET', path: /\/pulls\/1\/files$/, status: 502, times: 1 }]
    })
    const run = await runAction(s, f)

    expect(f.calls(FILES).map(r => r.status)).toEqual([502, 200])
    expect(run.outputs.verdict).toBe('policy')
    expect(run.stdout).toMatch(/from the PR files API/)
    expect(f.checkRuns[0]?.conclusion).toBe('failure')
  })

  it('an API that stays down is a gate error, never a pass', async () => {
    const s = scenario({ 'app/calc.py': CALC_FIXED })
    const f = await startFake(s, {
      faults: [{ method: 'GET', path: /\/pulls\/1$/, status: 503, times: 100 }]
    })
    const run = await runAction(s, f)

    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ verdict: 'error', merge: 'false' })
    expect(f.calls('GET /repos/{owner}/{repo}/pulls/{pull_number}')).toHaveLength(4) // 1 + 3 retries
    expect(f.checkRuns[0]).toMatchObject({ conclusion: 'failure' })
  }, 60_000)

  it('bundled: a fork (403 on the check run): the verdict stands in the summary, the step annotations and the outcome', async () => {
    const edits = Object.fromEntries(
      Array.from({ length: 14 }, (_, i) => [
        `oracle/extra_${String(i).padStart(2, '0')}.py`,
        `X = ${i}\n`
      ])
    )
    const s = scenario(edits)
    const f = await startFake(s, { refuseCheckRuns: true })
    const run = await runAction(s, f, {
      payload: prPayload(s, 'contributor/widget'),
      bundled: true
    })

    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ verdict: 'policy', merge: 'false' })
    expect(f.checkRuns).toHaveLength(0)
    expect(f.calls(CHECK_RUNS).map(r => r.status)).toEqual([403]) // a refusal is not retried
    expect(run.summary).toMatch(
      /check run could not be posted \(Resource not accessible by integration/
    )
    expect(run.summary).toContain('oracle-gate: `policy`')
    const errors = errorLines(run)
    // GitHub shows 10 error annotations a step: 9 reasons (most important first) + the failure.
    expect(errors).toHaveLength(10)
    expect(errors[0]).toMatch(
      /^::error title=oracle-gate%3A protected-path,file=oracle\/extra_00\.py::/
    )
    expect(errors[9]).toMatch(/^::error::oracle-gate verdict: policy/)
    expect(f.invalid).toEqual([])
  })

  it('a re-run updates the check run it posted instead of adding another', async () => {
    const s = scenario({ 'oracle/properties/test_calc.py': PROPERTIES.replace('>= 0', '>= -1000') })
    const f = await startFake(s, { basePath: '/api/v3' }) // a GHES-style API address as well
    await runAction(s, f)
    await runAction(s, f)

    expect(f.calls(CHECK_RUNS)).toHaveLength(1)
    expect(f.checkRuns).toHaveLength(1)
    expect(f.checkRuns[0]).toMatchObject({ status: 'completed', conclusion: 'failure' })
    expect(f.checkRuns[0]?.annotations).toHaveLength(2) // not posted twice
    expect(f.calls(UPDATES)).toHaveLength(3) // completed, back in progress, completed
    expect(f.invalid).toEqual([])
  })

  it('a 1,000-path protected edit: annotations in batches of 50, capped, summary within the limit', async () => {
    const edits = Object.fromEntries(
      Array.from({ length: 1000 }, (_, i) => [
        `oracle/gen/f${String(i).padStart(4, '0')}.py`,
        `X = ${i}\n`
      ])
    )
    const s = scenario(edits)
    const f = await startFake(s)
    const run = await runAction(s, f)

    expect(run.outputs.verdict).toBe('policy')
    expect(
      card(run).reasons.filter(r => r.rule === 'protected-path').length
    ).toBeGreaterThanOrEqual(1000)
    const checkRun = f.checkRuns[0]
    expect(checkRun?.annotations).toHaveLength(500)
    expect(checkRun?.annotationRequests).toBe(10)
    expect(checkRun?.output.summary?.length).toBeLessThanOrEqual(65_535)
    expect(checkRun?.output.summary).toMatch(/more annotation\(s\) not posted/)
    expect(f.calls(FILES)).toHaveLength(10)
    // list runs + create + get PR + 10 pages + complete with 50 + 9 follow-ups of 50
    expect(f.calls()).toHaveLength(23)
    expect(f.invalid).toEqual([])
  }, 90_000)
})

describe('the action on other events', () => {
  it('push: nothing to judge, no-vote, nothing claimed mergeable', async () => {
    const s = scenario({ 'app/calc.py': CALC_FIXED })
    const f = await startFake(s)
    const run = await runAction(s, f, {
      eventName: 'push',
      payload: { ref: 'refs/heads/main', after: s.base }
    })

    expect(run.code).toBe(1)
    expect(run.outputs).toMatchObject({ verdict: 'no-vote', merge: 'false' })
    expect(run.stdout).toMatch(
      /::notice title=oracle-gate%3A nothing to judge::nothing to judge: a push event/
    )
    expect(f.calls()).toHaveLength(0)
  })

  it('bundled: an unsupported event is a clear error', async () => {
    const s = scenario({ 'app/calc.py': CALC_FIXED })
    const f = await startFake(s)
    const run = await runAction(s, f, {
      eventName: 'issues',
      payload: { action: 'opened' },
      bundled: true
    })

    expect(run.code).toBe(1)
    expect(run.outputs.verdict).toBe('error')
    expect(run.stdout).toMatch(/event "issues" is not supported/)
  })
})

describe('the fork pattern: pull_request run without checks, workflow_run in report mode', () => {
  function workflowRun(s: Scenario, pullRequests: Array<{ number: number }> = []): unknown {
    return {
      action: 'completed',
      workflow_run: {
        id: 99,
        event: 'pull_request',
        head_sha: s.head,
        head_repository: { full_name: 'contributor/widget' },
        pull_requests: pullRequests,
        conclusion: 'failure'
      }
    }
  }

  /** The report job: a full clone of the base repository (actions/checkout on the default branch). */
  function baseCheckout(s: Scenario): string {
    const dir = mkdtempSync(join(tmpdir(), 'og-base-'))
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
    execFileSync('git', ['clone', '-q', `file://${s.origin.dir}`, dir], { stdio: 'pipe' })
    return dir
  }

  const forkPull = (s: Scenario, number = 1, headSha = s.head) => ({
    number,
    baseSha: s.base,
    headSha,
    headRepo: 'contributor/widget',
    files: s.files
  })

  /** Part 1: the fork's pull_request run, whose token cannot post check runs. */
  async function forkRun(s: Scenario): Promise<{ first: ActionRun; artifact: string }> {
    const fork = await startFake(s, { refuseCheckRuns: true, pulls: [forkPull(s)] })
    const first = await runAction(s, fork, { payload: prPayload(s, 'contributor/widget') })
    await fork.close()
    return { first, artifact: dirname(first.outputs.scorecard ?? '') }
  }

  /** Part 2: report mode on workflow_run, from a copy of the artifact (optionally forged). */
  async function reportRun(
    s: Scenario,
    artifact: string,
    options: { tamper?: (card: Scorecard) => void; fake?: FakeGitHubOptions } = {}
  ) {
    const copy = mkdtempSync(join(tmpdir(), 'og-artifact-'))
    cleanups.push(() => rmSync(copy, { recursive: true, force: true }))
    cpSync(artifact, copy, { recursive: true })
    if (options.tamper) {
      const c = JSON.parse(readFileSync(join(copy, 'scorecard.json'), 'utf8')) as Scorecard
      options.tamper(c)
      writeFileSync(join(copy, 'scorecard.json'), JSON.stringify(c))
    }
    const f = await startFake(s, { pulls: [forkPull(s)], ...(options.fake ?? {}) })
    const second = await runAction(s, f, {
      workspace: baseCheckout(s),
      eventName: 'workflow_run',
      payload: workflowRun(s),
      inputs: { mode: 'report', scorecard: copy }
    })
    return { second, f }
  }

  it('posts the tested results on the fork head, and refuses results for other commits or that contradict a pass', async () => {
    const s = scenario({ 'app/calc.py': CALC_FIXED })
    const { first, artifact } = await forkRun(s)
    expect(first.outputs.verdict).toBe('merge')

    const honest = await reportRun(s, artifact)
    expect(honest.second.code).toBe(0)
    expect(honest.second.outputs).toMatchObject({ verdict: 'merge', merge: 'true' })
    expect(honest.f.checkRuns).toEqual([
      expect.objectContaining({ head_sha: s.head, conclusion: 'success', name: 'oracle-gate' })
    ])
    expect(card(honest.second).transitions.fail_to_pass).toEqual([
      'oracle/properties/test_calc.py::test_abs_non_negative'
    ])
    expect(card(honest.second).runs).toEqual(card(first).runs)
    expect(honest.second.stdout).toMatch(/test results from the artifact/)
    expect(honest.second.stdout).toMatch(/the checkout lacks [0-9a-f]{12}: fetching it from origin/)
    expect(honest.f.invalid).toEqual([])

    const other = await reportRun(s, artifact, { tamper: c => void (c.head = 'f'.repeat(40)) })
    expect(other.second.outputs.verdict).toBe('error')
    expect(card(other.second).reasons[0]?.message).toMatch(/the artifact judged head ffffffffffff/)
    expect(other.f.checkRuns[0]).toMatchObject({ head_sha: s.head, conclusion: 'failure' })

    const contradicted = await reportRun(s, artifact, {
      tamper: c => {
        c.reasons = []
        c.transitions.pass_to_fail = ['oracle/properties/test_calc.py::test_add_commutes']
      }
    })
    expect(contradicted.second.outputs.verdict).toBe('product')
    expect(card(contradicted.second).reasons.map(r => r.rule)).toContain('regression')

    // The artifact's event file names PR #2, whose head is not the tested commit.
    const eventFile = join(artifact, 'event.json')
    const event = JSON.parse(readFileSync(eventFile, 'utf8')) as {
      pull_request: { number: number }
    }
    event.pull_request.number = 2
    writeFileSync(eventFile, JSON.stringify(event))
    const wrongPr = await reportRun(s, artifact, {
      fake: { pulls: [forkPull(s), forkPull(s, 2, 'e'.repeat(40))] }
    })
    expect(wrongPr.second.outputs.verdict).toBe('error')
    expect(card(wrongPr.second).reasons[0]?.message).toMatch(
      /PR #2 is at eeeeeeeeeeee, not at the tested commit/
    )
    expect(wrongPr.f.checkRuns[0]).toMatchObject({ head_sha: s.head, conclusion: 'failure' })
  })

  it('re-derives the instrument: a forged "merge" artifact for a protected edit still fails', async () => {
    const s = scenario({ 'oracle/properties/test_calc.py': PROPERTIES.replace('>= 0', '>= -1000') })
    const { artifact } = await forkRun(s)
    const { second, f } = await reportRun(s, artifact, {
      tamper: c => {
        c.reasons = []
        c.verdict = 'merge'
        c.merge = true
        c.votes = { passed: 2, failed: 0, frozen: 0, drafts: 0, by_class: {} }
      }
    })
    expect(second.outputs.verdict).toBe('policy')
    expect(f.checkRuns[0]).toMatchObject({ head_sha: s.head, conclusion: 'failure' })
    expect(new Set(f.checkRuns[0]?.annotations.map(a => a.path))).toEqual(
      new Set(['oracle/properties/test_calc.py'])
    )
  })
})
