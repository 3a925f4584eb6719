// The example workflows in docs/workflows are what users copy: they must parse, pin every
// action by a full commit sha, grant least privilege, and use only inputs action.yml has.
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'

const root = join(import.meta.dirname, '..')
const dir = join(root, 'docs/workflows')
const files = readdirSync(dir).filter(f => f.endsWith('.yml'))
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as {
  inputs: Record<string, unknown>
}

interface Step {
  uses?: string
  with?: Record<string, unknown>
}
interface Job {
  permissions?: Record<string, string>
  steps: Step[]
}
interface Workflow {
  on: Record<string, unknown>
  permissions?: Record<string, string>
  jobs: Record<string, Job>
}

const load = (file: string): { text: string; wf: Workflow } => {
  const text = readFileSync(join(dir, file), 'utf8')
  return { text, wf: parse(text) as Workflow }
}
const isGate = (s: Step): boolean => (s.uses ?? '').includes('/oracle-gate@')

describe('example workflows', () => {
  it('exist for the same-repo and the fork patterns and are linked from docs/github.md', () => {
    expect(files.sort()).toEqual([
      'oracle-gate-fork-report.yml',
      'oracle-gate-fork-test.yml',
      'oracle-gate-merge-queue.yml',
      'oracle-gate-primed.yml',
      'oracle-gate-required.yml',
      'oracle-gate-same-repo.yml',
      'oracle-gate-sharded.yml'
    ])
    const doc = readFileSync(join(root, 'docs/github.md'), 'utf8')
    for (const f of files) expect(doc).toContain(`workflows/${f}`)
  })

  it.each(files)('%s pins every action by a 40-hex commit sha', file => {
    const { wf } = load(file)
    const uses = Object.values(wf.jobs).flatMap(j =>
      j.steps.map(s => s.uses).filter((u): u is string => !!u)
    )
    expect(uses.length).toBeGreaterThan(1)
    for (const u of uses) expect(u).toMatch(/^[\w.-]+\/[\w.-]+@[0-9a-f]{40}$/)
  })

  it.each(files)('%s drops all default permissions and grants per job', file => {
    const { wf } = load(file)
    expect(wf.permissions).toEqual({})
    for (const job of Object.values(wf.jobs)) {
      expect(job.permissions?.contents).toBe('read')
      // pull-requests: write only where the gate posts the sticky comment.
      const comments = job.steps.some(s => isGate(s) && (s.with?.comment ?? 'never') !== 'never')
      // id-token and attestations: write only where actions/attest signs the verdict.
      const attests = job.steps.some(s => (s.uses ?? '').startsWith('actions/attest@'))
      const writable = (scope: string): boolean =>
        scope === 'checks' ||
        (scope === 'pull-requests' && comments) ||
        ((scope === 'id-token' || scope === 'attestations') && attests)
      for (const [scope, level] of Object.entries(job.permissions ?? {}))
        if (level === 'write') expect(writable(scope), `${scope}: write`).toBe(true)
    }
  })

  it.each(files)('%s passes only inputs that action.yml declares', file => {
    const { wf } = load(file)
    for (const step of Object.values(wf.jobs)
      .flatMap(j => j.steps)
      .filter(isGate)) {
      for (const key of Object.keys(step.with ?? {}))
        expect(Object.keys(action.inputs)).toContain(key)
    }
  })

  it('only the jobs that never run the patch can write checks; patch-running checkouts keep no token', () => {
    const test = load('oracle-gate-fork-test.yml').wf
    expect(Object.keys(test.on)).toEqual(['pull_request'])
    expect(test.jobs.gate?.permissions?.checks).toBeUndefined()
    for (const file of ['oracle-gate-fork-test.yml', 'oracle-gate-same-repo.yml']) {
      const checkout = Object.values(load(file).wf.jobs)[0]?.steps[0]
      expect(checkout?.with).toMatchObject({ 'persist-credentials': false, 'fetch-depth': 0 })
    }
    for (const file of ['oracle-gate-merge-queue.yml', 'oracle-gate-required.yml']) {
      const checkout = Object.values(load(file).wf.jobs)[0]?.steps[0]
      expect(checkout?.with).toMatchObject({ 'persist-credentials': false, 'fetch-depth': 0 })
    }
    const report = load('oracle-gate-fork-report.yml').wf
    expect(Object.keys(report.on)).toEqual(['workflow_run'])
    const gate = report.jobs.report?.steps.find(isGate)
    expect(gate?.with).toMatchObject({ mode: 'report' })
    expect(report.jobs.report?.permissions).toMatchObject({ checks: 'write', actions: 'read' })
  })

  it('the primed example primes on push to main and judges PRs from the same file, reading artifacts only with actions: read', () => {
    const { wf } = load('oracle-gate-primed.yml')
    expect(Object.keys(wf.on)).toEqual(['push', 'pull_request'])
    expect(wf.on.push).toEqual({ branches: ['main'] })
    const prime = wf.jobs.prime as Job & { if?: string }
    const gate = wf.jobs.gate as Job & { if?: string }
    expect(prime.if).toBe("github.event_name == 'push'")
    expect(gate.if).toBe("github.event_name == 'pull_request'")
    expect(prime.steps.find(isGate)?.with).toMatchObject({ mode: 'prime' })
    const upload = prime.steps.find(s => (s.uses ?? '').startsWith('actions/upload-artifact@'))
    expect(upload?.with).toMatchObject({
      name: '${{ steps.prime.outputs.primed-artifact }}',
      path: '${{ steps.prime.outputs.primed }}',
      'if-no-files-found': 'error'
    })
    // The prime job never needs the API; only the judging job reads the Actions API.
    expect(prime.permissions).toEqual({ contents: 'read' })
    expect(gate.steps.find(isGate)?.with).toMatchObject({ 'primed-base': 'auto' })
    expect(gate.permissions?.actions).toBe('read')
    const outputs = Object.keys(
      (parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { outputs: object }).outputs
    )
    expect(outputs).toEqual(expect.arrayContaining(['primed', 'primed-artifact']))
  })

  it('the sharded example: a matrix of shard jobs without API access, one merge job that reads this run and signs', () => {
    const { wf } = load('oracle-gate-sharded.yml')
    expect(Object.keys(wf.on)).toEqual(['pull_request'])
    const shard = wf.jobs.shard as Job & { strategy: { matrix: { shard: number[] } } }
    const merge = wf.jobs.merge as Job & { needs: string; if: string }
    expect(shard.permissions).toEqual({ contents: 'read' })
    const n = shard.strategy.matrix.shard.length
    expect(shard.steps.find(isGate)?.with).toMatchObject({
      mode: 'shard',
      shard: `\${{ matrix.shard }}/${n}`
    })
    const upload = shard.steps.find(s => (s.uses ?? '').startsWith('actions/upload-artifact@'))
    expect(upload?.with).toMatchObject({
      name: '${{ steps.shard.outputs.shard-artifact }}',
      path: '${{ steps.shard.outputs.shard }}'
    })
    expect(merge.needs).toBe('shard')
    expect(merge.steps.find(isGate)?.with).toMatchObject({ mode: 'merge' })
    expect(merge.permissions).toMatchObject({
      actions: 'read',
      'id-token': 'write',
      attestations: 'write'
    })
    const attest = merge.steps.find(s => (s.uses ?? '').startsWith('actions/attest@'))
    expect(attest?.with).toMatchObject({
      'subject-path': '${{ steps.gate.outputs.scorecard }}',
      'predicate-type': 'https://in-toto.io/attestation/test-result/v0.1'
    })
    const outputs = Object.keys(
      (parse(readFileSync(join(root, 'action.yml'), 'utf8')) as { outputs: object }).outputs
    )
    expect(outputs).toEqual(expect.arrayContaining(['attestation', 'shard', 'shard-artifact']))
  })

  it('the merge-queue example judges PRs, re-judges on reviews and judges queue groups; the required workflow runs on PRs and groups', () => {
    const queue = load('oracle-gate-merge-queue.yml').wf
    expect(Object.keys(queue.on)).toEqual(['pull_request', 'pull_request_review', 'merge_group'])
    expect(queue.on.pull_request_review).toEqual({ types: ['submitted', 'dismissed'] })
    expect(queue.on.merge_group).toEqual({ types: ['checks_requested'] })
    expect(queue.jobs.gate?.steps.find(isGate)?.with).toMatchObject({ comment: 'on-failure' })
    expect(queue.jobs.gate?.permissions?.['pull-requests']).toBe('write')
    const required = load('oracle-gate-required.yml').wf
    expect(Object.keys(required.on)).toEqual(['pull_request', 'merge_group'])
    expect(required.jobs.gate?.permissions).toEqual({
      contents: 'read',
      'pull-requests': 'read',
      checks: 'write'
    })
  })
})
