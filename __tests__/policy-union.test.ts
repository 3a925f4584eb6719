// Policy from the base tip too (issue 12): a branch cut from an old commit is judged by the
// union of the merge base's and the base tip's protections, and says so; settings that
// cannot be united ask for a rebase.
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { GateError } from '../src/errors.js'
import { parsePolicy } from '../src/policy/load.js'
import { unitePolicies } from '../src/policy/union.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

const FILE = '.github/oracle-gate.yml'
const load = (extra = '', edit = (y: string): string => y) =>
  parsePolicy(edit(policyYaml(extra)), FILE)

describe('unitePolicies (pure)', () => {
  it('returns the merge base policy when the tip adds nothing', () => {
    const base = load()
    expect(unitePolicies(base, null).source).toBe('merge-base')
    const same = unitePolicies(base, load())
    expect(same.source).toBe('merge-base')
    expect(same.widened).toEqual([])
  })

  it('unites protected globs, planes, runner_config and the stricter lint levels', () => {
    const base = load('lints:\n  ungoverned-test: warn\n')
    const tip = load('runner_config: [scripts/run.sh]\n', y =>
      y
        .replace('  - oracle/**\n', '  - oracle/**\n  - data/**\n')
        .replace('voting: [oracle/properties/**]', 'voting: [oracle/properties/**, checks/**]')
    )
    const u = unitePolicies(base, tip)
    expect(u.source).toBe('union')
    expect(u.policy.protected).toEqual(['oracle/**', 'data/**'])
    expect(u.policy.planes.voting).toEqual(['oracle/properties/**', 'checks/**'])
    expect(u.policy.runner_config).toEqual(['scripts/run.sh'])
    expect(u.policy.lints['ungoverned-test']).toBe('error')
    expect(u.widened).toEqual(
      expect.arrayContaining([
        'protected',
        'planes.voting',
        'runner_config',
        'lints.ungoverned-test'
      ])
    )
    // The tip cannot weaken: a base glob the tip dropped stays.
    const weaker = load('', y => y.replace('  - oracle/**\n', '  - oracle/properties/**\n'))
    expect(unitePolicies(base, weaker).policy.protected).toContain('oracle/**')
  })

  it('asks for a rebase when the suites or ledgers differ', () => {
    const base = load()
    const tip = load('', y => y.replace('timeout: 120', 'timeout: 300'))
    expect(() => unitePolicies(base, tip)).toThrow(GateError)
    expect(() => unitePolicies(base, tip)).toThrow(/changes suite since the merge base.*rebase/)
    expect(() => unitePolicies(base, load('ledger: oracle/ledger.yml\n'))).toThrow(/ledger/)
  })
})

describe('check() reads the policy at the base tip too', () => {
  const repos: TestRepo[] = []
  afterEach(() => {
    while (repos.length) repos.pop()?.cleanup()
  })

  function repoWithOldBranch(): TestRepo {
    const repo = new TestRepo()
    repos.push(repo)
    repo.write({
      [FILE]: policyYaml(),
      'oracle/properties/test_a.py': 'def test_a():\n    assert True\n',
      'data/golden.json': '{"fee": 5}\n',
      'src/app.py': 'X = 1\n'
    })
    repo.commit('base')
    repo.branch('pr')
    repo.checkout('main')
    // The base branch protects data/ after the branch was cut.
    repo.write({ [FILE]: policyYaml().replace('  - oracle/**\n', '  - oracle/**\n  - data/**\n') })
    repo.commit('protect data/')
    repo.checkout('pr')
    return repo
  }

  it('an old branch writing a path only the tip protects is rejected, and the card says why', async () => {
    const repo = repoWithOldBranch()
    repo.write({ 'data/golden.json': '{"fee": 10}\n' })
    repo.commit('rewrite the golden file')
    const card = await check({
      repoDir: repo.dir,
      base: 'main',
      today: '2026-06-01',
      log: memoryLogger()
    })
    expect(card.verdict).toBe('policy')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({ rule: 'protected-path', path: 'data/golden.json' })
    )
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        rule: 'diagnostic',
        level: 'notice',
        message: expect.stringMatching(/union .* adds protected/)
      })
    )
  })

  it('a tip that changed the suite asks for a rebase (config-invalid)', async () => {
    const repo = repoWithOldBranch()
    repo.checkout('main')
    repo.write({ [FILE]: policyYaml().replace('timeout: 120', 'timeout: 99') })
    repo.commit('slower suite')
    repo.checkout('pr')
    repo.write({ 'src/app.py': 'X = 2\n' })
    repo.commit('edit')
    const card = await check({
      repoDir: repo.dir,
      base: 'main',
      today: '2026-06-01',
      log: memoryLogger()
    })
    expect(card.verdict).toBe('error')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({ rule: 'config-invalid', message: expect.stringMatching(/rebase/) })
    )
  })
})
