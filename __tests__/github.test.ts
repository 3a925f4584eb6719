// The endpoint modules against the fake GitHub server (real HTTP, OpenAPI-validated bodies).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { finishCheckRun, openCheckRun } from '../src/action/checkrun.js'
import type { CheckRunTarget } from '../src/action/checkrun.js'
import { EXTERNAL_ID, SUMMARY_MAX_CHARS, chunk, toAnnotations } from '../src/github/checks.js'
import { apiChanges, toChange } from '../src/github/files.js'
import { createClient } from '../src/github/octokit.js'
import { PRIMED_FILE, fetchPrimed, primedArtifactName } from '../src/github/primed.js'
import type { Reason, Scorecard } from '../src/types.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'
import { FakeGitHub } from './helpers/fake-github.js'
import type { FakeGitHubOptions } from './helpers/fake-github.js'
import { memoryLogger } from './helpers/logger.js'
import { writeZip } from './helpers/zip.js'

const BASE = 'b'.repeat(40)
const HEAD = 'c'.repeat(40)
const TOKEN = 'ghs_faketoken1234567890'

let fake: FakeGitHub | undefined
afterEach(async () => {
  await fake?.close()
  fake = undefined
})

/** GitHub's waits (retry backoff, write spacing) in milliseconds instead of seconds. */
const FAST = { msPerSecond: 1, spaceWrites: false }

async function setup(options: FakeGitHubOptions) {
  fake = await FakeGitHub.start({ token: TOKEN, ...options })
  const log = memoryLogger()
  const client = createClient({ token: TOKEN, baseUrl: fake.apiUrl, log, timing: FAST })
  return { fake, log, client, repo: { owner: fake.owner, repo: fake.repo } }
}

const files = (n: number, dir = 'src') =>
  Array.from({ length: n }, (_, i) => ({ filename: `${dir}/f${i}.py`, status: 'modified' }))

function card(reasons: Reason[]): Scorecard {
  const c = emptyScorecard({
    version: 'test',
    today: '2026-01-01',
    policyPath: '.github/oracle-gate.yml'
  })
  c.base = BASE
  c.head = HEAD
  return finalize(c, reasons)
}

describe('PR files', () => {
  it('maps API statuses onto write-set changes, renames with their previous path', () => {
    expect(toChange({ filename: 'a', status: 'added' })).toEqual({ path: 'a', status: 'added' })
    expect(toChange({ filename: 'a', status: 'removed' })).toEqual({ path: 'a', status: 'deleted' })
    expect(toChange({ filename: 'b', status: 'renamed', previous_filename: 'a' })).toEqual({
      path: 'b',
      status: 'renamed',
      previous_path: 'a'
    })
    expect(toChange({ filename: 'b', status: 'copied', previous_filename: 'a' })).toEqual({
      path: 'b',
      status: 'copied',
      previous_path: 'a'
    })
    expect(toChange({ filename: 'a', status: 'changed' }).status).toBe('modified')
    expect(toChange({ filename: 'a', status: 'something-new' }).status).toBe('modified')
  })

  it('follows Link pagination 100 per page and returns every file', async () => {
    const { fake, log, client, repo } = await setup({
      pulls: [{ number: 7, baseSha: BASE, headSha: HEAD, files: files(250) }]
    })
    const changes = await apiChanges(client, repo, { number: 7, baseSha: BASE, headSha: HEAD }, log)
    expect(changes).toHaveLength(250)
    expect(changes?.[249]).toEqual({ path: 'src/f249.py', status: 'modified' })
    const pages = fake.calls('GET /repos/{owner}/{repo}/pulls/{pull_number}/files')
    expect(pages.map(p => p.query.page ?? '1')).toEqual(['1', '2', '3'])
    expect(pages.every(p => p.query.per_page === '100')).toBe(true)
    expect(fake.invalid).toEqual([])
  })

  it('returns null (git is used) when the list stops at the cap, and says so', async () => {
    const { fake, log, client, repo } = await setup({
      pulls: [{ number: 7, baseSha: BASE, headSha: HEAD, files: files(3050) }]
    })
    const changes = await apiChanges(client, repo, { number: 7, baseSha: BASE, headSha: HEAD }, log)
    expect(changes).toBeNull()
    expect(log.lines.join('\n')).toMatch(
      /listed 3000 of the PR's 3050 changed files \(the files API stops at 3000\)/
    )
    // 30 full pages, then the advertised 31st comes back empty and ends the walk.
    expect(fake.calls('GET /repos/{owner}/{repo}/pulls/{pull_number}/files')).toHaveLength(31)
    expect(fake.invalid).toEqual([])
  })

  it('returns null when the PR moved on since the event (the API would describe another diff)', async () => {
    const { log, client, repo } = await setup({
      pulls: [{ number: 7, baseSha: BASE, headSha: 'd'.repeat(40), files: files(2) }]
    })
    expect(
      await apiChanges(client, repo, { number: 7, baseSha: BASE, headSha: HEAD }, log)
    ).toBeNull()
    expect(log.lines.join('\n')).toMatch(/head moved/)
  })

  it('retries a 502 and then succeeds; a persistent 5xx is an error, not an empty list', async () => {
    const { fake, log, repo } = await setup({
      pulls: [{ number: 7, baseSha: BASE, headSha: HEAD, files: files(3) }],
      faults: [{ method: 'GET', path: /\/pulls\/7$/, status: 502, times: 1 }]
    })
    // The production timing: the first retry waits GitHub's second, on a fake clock (no
    // real sleep in the fast tier): the retry is not sent before a second has passed.
    const client = createClient({ token: TOKEN, baseUrl: fake.apiUrl, log })
    const pulls = (): number[] =>
      fake.calls('GET /repos/{owner}/{repo}/pulls/{pull_number}').map(r => r.status)
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      let done = false
      const changes = apiChanges(client, repo, { number: 7, baseSha: BASE, headSha: HEAD }, log)
      void changes.finally(() => (done = true)).catch(() => undefined)
      let waited = 0
      let retriedAt = -1
      while (!done && waited < 5000) {
        await new Promise(resolve => setImmediate(resolve)) // real I/O with the fake server
        if (retriedAt < 0 && pulls().length > 1) retriedAt = waited
        await vi.advanceTimersByTimeAsync(10)
        waited += 10
      }
      expect(await changes).toHaveLength(3)
      if (retriedAt < 0) retriedAt = waited
      expect(retriedAt).toBeGreaterThanOrEqual(1000)
    } finally {
      vi.useRealTimers()
    }
    expect(fake.calls('GET /repos/{owner}/{repo}/pulls/{pull_number}').map(r => r.status)).toEqual([
      502, 200
    ])

    const stubborn = createClient({
      token: TOKEN,
      baseUrl: fake.apiUrl,
      log,
      retries: 1,
      timing: FAST
    })
    fake.options.faults = [{ method: 'GET', path: /\/pulls\/7\/files$/, status: 503, times: 10 }]
    await expect(
      apiChanges(stubborn, repo, { number: 7, baseSha: BASE, headSha: HEAD }, log)
    ).rejects.toThrow(/503/)
  })
})

describe('check runs', () => {
  function target(
    client: CheckRunTarget['client'],
    repo: CheckRunTarget['repo'],
    log: CheckRunTarget['log']
  ): CheckRunTarget {
    return {
      client,
      repo,
      log,
      name: 'oracle-gate',
      headSha: HEAD,
      detailsUrl: 'https://github.example/acme/widget/actions/runs/1'
    }
  }

  it('creates the run in progress, completes it with the conclusion, and a re-run updates the same run', async () => {
    const { fake, log, client, repo } = await setup({
      checkRuns: [
        { name: 'oracle-gate', head_sha: HEAD, status: 'completed', conclusion: 'success' }
      ]
    })
    // The pre-existing run has no external_id: it is the job's own run named like the check.
    const t = target(client, repo, log)
    const first = await openCheckRun(t)
    expect(first).toMatchObject({ kind: 'open', reused: false })
    expect(fake.checkRuns).toHaveLength(2)
    const ours = fake.checkRuns[1]
    expect(ours).toMatchObject({ status: 'in_progress', external_id: EXTERNAL_ID, head_sha: HEAD })

    const failing = card([
      {
        rule: 'protected-path',
        message: 'oracle/x.py is protected',
        path: 'oracle/x.py',
        level: 'failure'
      }
    ])
    expect(await finishCheckRun(t, first, failing)).toMatchObject({ problem: null, requests: 1 })
    expect(ours).toMatchObject({ status: 'completed', conclusion: 'failure' })
    expect(ours?.output.title).toMatch(/^policy: /)
    expect(ours?.annotations).toEqual([
      {
        path: 'oracle/x.py',
        start_line: 1,
        end_line: 1,
        annotation_level: 'failure',
        message: 'oracle/x.py is protected',
        title: 'oracle-gate: protected-path'
      }
    ])

    // A re-run with the same reasons: same run, no duplicate annotation.
    const again = await openCheckRun(t)
    expect(again).toEqual({ kind: 'open', id: ours?.id, reused: true, priorAnnotations: 1 })
    expect(ours).toMatchObject({ status: 'in_progress', conclusion: null })
    await finishCheckRun(t, again, failing)
    expect(ours).toMatchObject({ status: 'completed', conclusion: 'failure' })
    expect(ours?.annotations).toHaveLength(1)

    // A re-run that passes: the conclusion flips and the summary owns up to the old annotation.
    const third = await openCheckRun(t)
    await finishCheckRun(t, third, card([]))
    expect(ours).toMatchObject({ status: 'completed', conclusion: 'success' })
    expect(ours?.output.summary).toMatch(
      /1 annotation\(s\) from an earlier run of this check remain/
    )
    expect(fake.checkRuns).toHaveLength(2)
    expect(fake.calls('POST /repos/{owner}/{repo}/check-runs')).toHaveLength(1)
    expect(fake.invalid).toEqual([])
  })

  it('reports a 403 on creation as refused (the fork path), not as an error', async () => {
    const { fake, log, client, repo } = await setup({ refuseCheckRuns: true })
    const posting = await openCheckRun(target(client, repo, log))
    expect(posting).toMatchObject({ kind: 'refused' })
    expect(log.lines.join('\n')).toMatch(/Resource not accessible by integration/)
    expect(await finishCheckRun(target(client, repo, log), posting, card([]))).toMatchObject({
      refused: true,
      requests: 0
    })
    expect(fake.calls('POST /repos/{owner}/{repo}/check-runs')).toHaveLength(1) // no retry of a 403
  })

  it('posts a 1,000-reason card: 50 annotations a request, capped with a count, summary within 65,535', async () => {
    const reasons: Reason[] = Array.from({ length: 1000 }, (_, i) => ({
      rule: i % 2 ? 'protected-path' : 'ledger-expiring',
      message: `reason ${i}: ${'x'.repeat(200)}`,
      path: `oracle/f${String(i).padStart(4, '0')}.py`,
      ...(i % 3 ? { line: i } : {}),
      level: i % 2 ? 'failure' : 'warning'
    }))
    const { fake, log, client, repo } = await setup({})
    const t = target(client, repo, log)
    const posting = await openCheckRun(t)
    const done = await finishCheckRun(t, posting, card(reasons))
    const run = fake.checkRuns[0]
    expect(done).toMatchObject({ problem: null, requests: 10 })
    expect(run?.annotations).toHaveLength(500)
    expect(run?.annotationRequests).toBe(10)
    // Failures (the blocking ones) come first: all 500 failures fill the cap.
    expect(run?.annotations.every(a => a.annotation_level === 'failure')).toBe(true)
    expect(run?.output.summary?.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS)
    expect(run?.output.summary).toMatch(/500 more annotation\(s\) not posted/)
    expect(run?.output.summary).toMatch(/cut to fit|and \d+ more/)
    expect(fake.calls('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}')).toHaveLength(10) // the run was opened by a POST
    expect(fake.invalid).toEqual([])
  }, 60_000)

  it('annotations keep the level, default to line 1, and are chunked by 50', () => {
    const { annotations, omitted } = toAnnotations(
      [
        { rule: 'ledger-expiring', message: 'w', path: 'a', line: 3, level: 'warning' },
        { rule: 'diagnostic', message: 'n', path: 'b', level: 'notice' },
        { rule: 'empty-vote', message: 'no path', level: 'failure' }
      ],
      1
    )
    expect(annotations).toEqual([
      {
        path: 'a',
        start_line: 3,
        end_line: 3,
        annotation_level: 'warning',
        message: 'w',
        title: 'oracle-gate: ledger-expiring'
      }
    ])
    expect(omitted).toBe(1)
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]])
  })
})

describe('fetchPrimed (primed-base: auto)', () => {
  const lookup = {
    repository: 'acme/widget',
    defaultBranch: 'main',
    workflowPath: '.github/workflows/gate.yml'
  }
  const run = (id: number) => ({
    id,
    event: 'push',
    head_branch: 'main',
    head_sha: BASE,
    path: '.github/workflows/gate.yml',
    status: 'completed',
    conclusion: 'success'
  })
  const primedJson = (label: string): string =>
    JSON.stringify({ schema: 'oracle-gate/primed-base@1', produced_by: { kind: 'local', label } })

  it('tries the newest trusted run first and falls back to an older one with the artifact', async () => {
    const s = await setup({
      workflowRuns: [run(10), run(12)],
      artifacts: [
        {
          id: 1,
          run_id: 10,
          name: primedArtifactName(BASE),
          zip: writeZip([{ name: PRIMED_FILE, data: primedJson('x') }])
        }
      ]
    })
    const got = await fetchPrimed(s.client, s.repo, lookup, BASE, s.log)
    // The file is off-schema (no fingerprint): what matters here is which run was read.
    expect(typeof got).toBe('string')
    expect(got).toContain('run 12: no artifact named')
    expect(got).toContain('run 10: not a primed base file')
    expect(
      s.fake.calls('GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts').map(r => r.path)
    ).toEqual([
      '/repos/acme/widget/actions/runs/12/artifacts',
      '/repos/acme/widget/actions/runs/10/artifacts'
    ])
    expect(s.fake.invalid).toEqual([])
  })

  it('without a default branch or a workflow path it asks the API nothing', async () => {
    const s = await setup({})
    expect(
      await fetchPrimed(s.client, s.repo, { ...lookup, defaultBranch: undefined }, BASE, s.log)
    ).toBe('the event payload names no default branch')
    expect(
      await fetchPrimed(s.client, s.repo, { ...lookup, workflowPath: undefined }, BASE, s.log)
    ).toMatch(/GITHUB_WORKFLOW_REF/)
    expect(s.fake.requests).toEqual([])
  })

  it('a run of a fork (another head repository) is not trusted even on a branch called main', async () => {
    const s = await setup({ workflowRuns: [{ ...run(7), head_repository: 'mallory/widget' }] })
    const got = await fetchPrimed(s.client, s.repo, lookup, BASE, s.log)
    expect(got).toMatch(/none trusted/)
    expect(s.log.lines.join('\n')).toContain(
      'head repository is "mallory/widget", not "acme/widget"'
    )
  })
})
