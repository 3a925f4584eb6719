// `oracle-gate init` on generated repositories shaped like real ones (pytest with tests beside
// a src/ layout package, vitest with tests beside the code, jest with jest-junit in
// __tests__): the policy it writes parses, puts the existing tests on the voting plane, and
// the following `check` uses it as is: an honest fix plus an appended test merges, an edited
// existing assertion is protected-path.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { parsePolicy } from '../src/policy/load.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import type { TestRepo } from './helpers/repo.js'
import { runCli, type Runner, SHAPES, shapedRepo, testEnv } from './helpers/shapes.js'

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

async function judge(
  repo: TestRepo,
  runner: Runner,
  head: (text: string) => Record<string, string>
): Promise<Scorecard> {
  const shape = SHAPES[runner]
  repo.branch('agent')
  repo.write(head(shape.files[shape.test] ?? ''))
  repo.commit('agent patch')
  repo.checkout('main')
  return check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-12-01',
    log: memoryLogger(),
    env: testEnv()
  })
}

const failures = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.level === 'failure').map(r => `${r.rule} ${r.path ?? ''}`)

describe.each(['pytest', 'vitest', 'jest'] as const)(
  'init then check on a %s repository',
  runner => {
    it('init votes the existing tests, and check uses the policy as is: fix + appended test merges, an edited assertion is protected-path', async () => {
      const repo = shapedRepo(runner, repos)
      const shape = SHAPES[runner]
      const init = await runCli(['init'], repo.dir, testEnv())
      expect(init.code, init.err).toBe(0)
      const text = readFileSync(join(repo.dir, '.github/oracle-gate.yml'), 'utf8')
      const policy = parsePolicy(text, '.github/oracle-gate.yml')
      expect(policy.planes.voting).toEqual(shape.voting)
      expect(policy.planes.in_diff).toEqual(['agent-tests/**'])
      expect(policy.voting_edits).toBe('append')
      expect(readFileSync(join(repo.dir, 'oracle/flake_ledger.yml'), 'utf8')).toBe(
        'version: 1\nentries: []\n'
      )
      if (runner === 'pytest') expect(policy.suite.env).toEqual({ PYTHONPATH: 'src' })
      if (runner === 'jest')
        expect(policy.suite.command).toContain('JEST_JUNIT_ADD_FILE_ATTRIBUTE=true')
      expect(text).not.toMatch(/^campaign:/m)
      repo.commit('adopt oracle-gate (init, unedited)')

      const honest = await judge(repo, runner, t => ({
        [shape.fix[0]]: (shape.files[shape.fix[0]] ?? '').replace(shape.fix[1], shape.fix[2]),
        [shape.test]: shape.append(t)
      }))
      expect(failures(honest)).toEqual([])
      expect(honest.verdict).toBe('merge')
      expect(honest.votes.passed).toBeGreaterThan(0)
      expect(Object.keys(honest.diagnostics.in_diff ?? {}).some(id => /zero/.test(id))).toBe(true)

      repo.git('branch', '-D', 'agent')
      const edited = await judge(repo, runner, t => ({
        [shape.test]: t.replace(/13/, '3')
      }))
      expect(edited.verdict).toBe('policy')
      expect(failures(edited).join('\n')).toMatch(new RegExp(`protected-path ${shape.test}`))
    }, 120_000)
  }
)

describe('oracle-gate init --help', () => {
  it('prints its usage and exits 0 without writing', async () => {
    const repo = shapedRepo('pytest', repos)
    const r = await runCli(['init', '--help'], repo.dir, process.env)
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^Usage: oracle-gate init/)
    expect(repo.git('status', '--porcelain')).toBe('')
  })
})
