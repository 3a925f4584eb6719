// Policy from the base tip too (issue 12): a branch cut from an old commit is judged by the
// union of the merge base's and the base tip's protections, and says so; settings that
// cannot be united ask for a rebase.
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { GateError } from '../src/errors.js'
import { parsePolicy } from '../src/policy/load.js'
import { readJudgingPolicy, unitePolicies } from '../src/policy/union.js'
import { UNITE_RULES, uniteBySchema, type UniteNode } from '../src/policy/unite.js'
import { policySchema, policyValidator, validatePolicyObject } from '../src/policy/validate.js'
import type { Policy } from '../src/policy/types.js'
import { Git } from '../src/git/git.js'
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

// The table (issue 22): every key of the schema declares how the merge base's and the
// tip's values combine, and unitePolicies applies exactly that, for every key.
type Json = unknown
type Node = UniteNode & { type?: string; enum?: string[]; const?: unknown }

/** Every property of the schema, dotted, with its node and whether an ancestor must agree. */
function schemaKeys(node: Node = policySchema as Node, prefix = '', underAgree = false) {
  const out: { path: string; node: Node; underAgree: boolean }[] = []
  for (const [key, child] of Object.entries(node.properties ?? {}) as [string, Node][]) {
    const path = prefix === '' ? key : `${prefix}.${key}`
    out.push({ path, node: child, underAgree })
    out.push(...schemaKeys(child, path, underAgree || child['x-unite'] === 'agree'))
  }
  return out
}

/** Parsed once per file: compiling the validator per policy made these tests slow. */
let starts: { plain: Policy; seeds: Policy; validate: ReturnType<typeof policyValidator> } | null =
  null

/** A valid policy whose key at `path` is `value` (checked against the schema). */
function variant(path: string, value: Json, validate = true): Policy {
  starts ??= {
    plain: load(),
    // A key inside seeds needs a seeds block to live in.
    seeds: load('seeds:\n  corpus: c.json\n  command: run\n'),
    validate: policyValidator()
  }
  const start = path.startsWith('seeds.') ? starts.seeds : starts.plain
  const raw = structuredClone({ ...start }) as Record<string, unknown>
  delete raw.path
  const keys = path.split('.')
  let at = raw
  for (const k of keys.slice(0, -1)) at = at[k] as Record<string, unknown>
  at[keys.at(-1)!] = structuredClone(value)
  if (validate) expect(validatePolicyObject(raw, starts.validate), path).toEqual([])
  return { ...(raw as Omit<Policy, 'path'>), path: FILE }
}

function valueAt(policy: Policy, path: string): Json {
  return path.split('.').reduce<Json>((v, k) => (v as Record<string, Json>)[k], policy)
}

/** [merge base, tip, united] per key; every key outside a must-agree block needs rows. */
const LINT_ROWS: [Json, Json, Json][] = [
  ['warn', 'error', 'error'],
  ['error', 'off', 'error'],
  ['off', 'warn', 'warn'],
  ['warn', 'warn', 'warn']
]
const CASES: Record<string, [Json, Json, Json][]> = {
  protected: [
    [['oracle/**'], ['oracle/**', 'data/**'], ['oracle/**', 'data/**']],
    [['oracle/**', 'data/**'], ['oracle/**'], ['oracle/**', 'data/**']]
  ],
  instrument_approvers: [
    [['alice', 'org/leads'], ['ALICE'], ['alice']],
    [['alice'], ['alice', 'mallory'], ['alice']]
  ],
  case_insensitive: [
    [false, true, true],
    [true, false, true],
    [false, false, false]
  ],
  sandbox: [
    ['off', 'auto', 'auto'],
    ['auto', 'required', 'required'],
    ['required', 'off', 'required']
  ],
  dependencies: [
    ['head', 'base', 'base'],
    ['base', 'head', 'base'],
    ['head', 'head', 'head']
  ],
  voting_edits: [
    ['append', 'none', 'none'],
    ['none', 'append', 'none'],
    ['append', 'append', 'append']
  ],
  'planes.voting': [
    [
      ['oracle/properties/**'],
      ['oracle/properties/**', 'checks/**'],
      ['oracle/properties/**', 'checks/**']
    ],
    [['a/**', 'b/**'], ['a/**'], ['a/**', 'b/**']]
  ],
  'planes.drafts': [
    [['drafts/**', 'tmp/**'], ['drafts/**'], ['drafts/**']],
    [['drafts/**'], ['drafts/**', 'tmp/**'], ['drafts/**']]
  ],
  'planes.in_diff': [
    [['tests/**', 'agent/**'], ['tests/**'], ['tests/**']],
    [['tests/**'], ['tests/**', 'agent/**'], ['tests/**']]
  ],
  test_patterns: [[['**/test_*.py'], ['**/check_*.py'], ['**/test_*.py', '**/check_*.py']]],
  runner_config: [[[], ['scripts/run.sh'], ['scripts/run.sh']]],
  ledger_max_days: [
    [30, 7, 7],
    [7, 30, 7],
    // By cause: a stale merge base cannot lengthen env freezes the tip shortened.
    [
      { env: 180 },
      { default: 20, env: 90 },
      { default: 20, order: 20, time: 20, net: 20, rng: 20, shared: 20, env: 90 }
    ],
    [14, { env: 180 }, { default: 14, order: 14, time: 14, net: 14, rng: 14, shared: 14, env: 14 }]
  ],
  // Evidence: the stricter mode, the higher thresholds, the larger cap and budget (more
  // mutants run can only find more survivors; the tip is the maintainers').
  'evidence.mode': [
    ['report', 'enforce', 'enforce'],
    ['enforce', 'off', 'enforce'],
    ['off', 'report', 'report'],
    ['off', 'off', 'off']
  ],
  'evidence.min_coverage': [
    [0.8, 0.9, 0.9],
    [0.9, 0.5, 0.9]
  ],
  'evidence.min_kill_ratio': [
    [0.6, 0.75, 0.75],
    [0.75, 0, 0.75]
  ],
  'evidence.max_mutants': [
    [10, 30, 30],
    [30, 10, 30]
  ],
  'evidence.budget_s': [
    [120, 60, 120],
    [60, 300, 300]
  ],
  'lints.literal-overlap': LINT_ROWS,
  'lints.judge-import': LINT_ROWS,
  'lints.skip-marker': LINT_ROWS,
  'lints.ungoverned-test': LINT_ROWS,
  'lints.oracle-reach': LINT_ROWS,
  'lints.reach_allow': [
    // A wider allow list at the merge base: only what the tip allows too survives.
    [
      [
        { path: 'dev/**', categories: ['process', 'echo'] },
        { path: 'debug/**', categories: ['introspection'] }
      ],
      [{ path: 'dev/**', categories: ['process'] }],
      [{ path: 'dev/**', categories: ['process'] }]
    ],
    [[], [{ path: 'dev/**', categories: ['process'] }], []],
    [[{ path: 'dev/**', categories: ['echo'] }], [{ path: 'other/**', categories: ['echo'] }], []]
  ],
  'lints.literal_min_length': [
    [12, 6, 6],
    [4, 6, 4]
  ],
  'lints.literal_allow': [
    [['v1.2.3', 'hello!'], ['hello!'], ['hello!']],
    [[], ['hello!'], []]
  ],
  'lints.judge_modules': [[['openai'], ['anthropic'], ['openai', 'anthropic']]],
  'lints.judge_modules_replace': [
    [true, false, false],
    [false, true, false],
    [true, true, true]
  ],
  // Turning the differential replay off takes both policies.
  'lints.reach_differential': [
    [false, true, true],
    [true, false, true],
    [false, false, false]
  ]
}
/** Keys that must agree: a tip changing them asks for a rebase. [key, merge base, tip]. */
const AGREE: [string, Json, Json][] = [
  ['version', 1, 2],
  ['suite', { command: 'pytest', timeout: 1 }, { command: 'pytest', timeout: 2 }],
  ['suite.timeout', 120, 99],
  ['suite.command', 'pytest -q', 'pytest -x'],
  ['suite.env', {}, { PYTHONHASHSEED: '1' }],
  ['suite.network', false, true],
  ['suite.expose_env', false, true],
  ['ledger', 'a.yml', 'b.yml'],
  ['fixtures', 'fixtures/a.json', 'fixtures/b.json'],
  ['seeds', { corpus: 'c.json', command: 'run' }, { corpus: 'c.json', command: 'run2' }],
  ['seeds.timeout', 600, 60],
  ['campaign', { seed: 1 }, { seed: 2 }],
  ['campaign.max_examples', 100, 10],
  ['classes', {}, { judge: ['x'] }],
  ['classes.judge', [], ['oracle/judge/*']],
  ['planes.production', ['src/**'], ['src/**', 'tools/**']]
]

describe('the uniting table in the schema', () => {
  it('gives every key of the schema a rule, in a form that fits its type', () => {
    const keys = schemaKeys()
    expect(keys.length).toBeGreaterThan(50)
    for (const { path, node, underAgree } of keys) {
      const rule = node['x-unite']
      expect(UNITE_RULES, `${path} has no x-unite rule`).toContain(rule)
      // Inside a block that must agree, every key agrees (the block is compared whole).
      if (underAgree) expect(rule, path).toBe('agree')
      if (rule === 'recurse') expect(node.properties, path).toBeDefined()
      if (rule === 'stricter')
        expect([...node['x-unite-order']!].sort(), path).toEqual([...node.enum!].sort())
      else expect(node['x-unite-order'], path).toBeUndefined()
      if (node['x-unite-nocase'] !== undefined) expect(rule, path).toBe('intersection')
      if (rule === 'union' || rule === 'intersection') expect(node.type, path).toBe('array')
      if (rule === 'min' || rule === 'max') expect(['integer', 'number'], path).toContain(node.type)
      if (rule === 'min-by-key') expect(node.oneOf, path).toBeDefined()
      if (rule === 'or' || rule === 'and') expect(node.type, path).toBe('boolean')
    }
  })

  it('orders lint levels off < warn < error and voting_edits append < none', () => {
    const lints = (policySchema as Node).properties!.lints!.properties!
    for (const key of [
      'literal-overlap',
      'judge-import',
      'skip-marker',
      'ungoverned-test',
      'oracle-reach'
    ])
      expect(lints[key]!['x-unite-order']).toEqual(['off', 'warn', 'error'])
    expect((policySchema as Node).properties!.voting_edits!['x-unite-order']).toEqual([
      'append',
      'none'
    ])
  })

  it('has a combination test for every key (a new key without rows fails here)', () => {
    const leaves = schemaKeys().filter(k => !k.underAgree && k.node['x-unite'] !== 'recurse')
    const agreeing = leaves.filter(k => k.node['x-unite'] === 'agree').map(k => k.path)
    const combined = leaves.filter(k => k.node['x-unite'] !== 'agree').map(k => k.path)
    expect(Object.keys(CASES).sort()).toEqual(combined.sort())
    for (const key of agreeing) expect(AGREE.map(([k]) => k)).toContain(key)
  })

  it('a key without a rule is a gate error, never the merge base value', () => {
    const schema = { properties: { protected: { type: 'array' } } } as UniteNode
    expect(() => uniteBySchema(schema, { protected: ['a'] }, { protected: ['b'] })).toThrow(
      /protected declares no x-unite rule/
    )
    expect(() => uniteBySchema(schema, { protected: ['a'] }, { protected: ['b'] })).toThrow(
      GateError
    )
  })
})

describe('unitePolicies applies each key’s rule', () => {
  for (const [key, rows] of Object.entries(CASES)) {
    it(`${key}`, () => {
      for (const [base, tip, united] of rows) {
        const u = unitePolicies(variant(key, base), variant(key, tip))
        expect(valueAt(u.policy, key), `${key}: ${JSON.stringify([base, tip])}`).toEqual(united)
        // widened names the key exactly when the tip changed the merge base's value.
        const changed = JSON.stringify(united) !== JSON.stringify(base)
        expect(u.widened.includes(key), `${key} widened`).toBe(changed)
        expect(u.source).toBe(changed ? 'union' : 'merge-base')
        expect(Object.isFrozen(u.policy)).toBe(true)
      }
    })
  }

  for (const [key, base, tip] of AGREE) {
    it(`${key} must agree: a tip that changes it asks for a rebase`, () => {
      const valid = key !== 'version'
      const top = key.split('.')[0]!
      let error: unknown
      try {
        unitePolicies(variant(key, base, valid), variant(key, tip, valid), 'abc1234')
      } catch (e) {
        error = e
      }
      expect(error).toBeInstanceOf(GateError)
      expect((error as GateError).rule).toBe('config-invalid')
      expect((error as GateError).message).toMatch(
        new RegExp(`at abc1234 changes ${top}(\\.[\\w.]+)? since the merge base.*rebase`)
      )
      // The same value on both sides unites quietly.
      expect(unitePolicies(variant(key, base, valid), variant(key, base, valid)).widened).toEqual(
        []
      )
    })
  }

  it('a block written in another key order still agrees', () => {
    const base = load('', y =>
      y.replace('  timeout: 120\n  reruns: 1\n', '  reruns: 1\n  timeout: 120\n')
    )
    expect(Object.keys(base.suite)).not.toEqual(Object.keys(load().suite))
    expect(unitePolicies(base, load()).widened).toEqual([])
  })

  it('unites a stale merge base with a stricter tip on every key at once', () => {
    const base = load(
      'voting_edits: append\nlints:\n  oracle-reach: warn\n  skip-marker: off\n  literal_min_length: 20\n  reach_allow:\n    - path: "src/**"\n      categories: [process, framework]\n'
    )
    const tip = load('lints:\n  judge_modules: [my_llm]\n')
    const u = unitePolicies(base, tip)
    expect(u.policy.voting_edits).toBe('none')
    expect(u.policy.lints['oracle-reach']).toBe('error')
    expect(u.policy.lints['skip-marker']).toBe('error')
    expect(u.policy.lints.literal_min_length).toBe(6)
    expect(u.policy.lints.reach_allow).toEqual([])
    expect(u.policy.lints.judge_modules).toEqual(['my_llm'])
    expect(u.policy.path).toBe(FILE)
    expect(u.widened.sort()).toEqual(
      [
        'voting_edits',
        'lints.oracle-reach',
        'lints.skip-marker',
        'lints.literal_min_length',
        'lints.reach_allow',
        'lints.judge_modules'
      ].sort()
    )
  })
})

describe('readJudgingPolicy on a real repository with a stale merge base', () => {
  const repos: TestRepo[] = []
  afterEach(() => {
    while (repos.length) repos.pop()?.cleanup()
  })

  it('oracle-reach: warn at the merge base, error at the tip → error (the merge base alone says warn)', async () => {
    const repo = new TestRepo()
    repos.push(repo)
    repo.write({
      [FILE]: policyYaml('voting_edits: append\nlints:\n  oracle-reach: warn\n'),
      'src/app.py': 'X = 1\n'
    })
    repo.commit('old policy')
    repo.branch('pr')
    repo.checkout('main')
    repo.write({ [FILE]: policyYaml() })
    repo.commit('stricter policy')
    const git = new Git(repo.dir, process.env)
    const mergeBase = (await git.mergeBase('main', 'pr')).trim()
    const baseTip = await git.resolveCommit('main')
    const readBase = async (): Promise<Policy> =>
      parsePolicy((await git.showText(mergeBase, FILE))!, FILE)
    // The naive run: the merge base's policy alone is what the old union kept for these keys.
    const alone = await readBase()
    expect(alone.lints['oracle-reach']).toBe('warn')
    expect(alone.voting_edits).toBe('append')
    const judged = await readJudgingPolicy(
      git,
      { mergeBase, baseTip },
      FILE,
      readBase,
      memoryLogger()
    )
    expect(judged.policy.lints['oracle-reach']).toBe('error')
    expect(judged.policy.voting_edits).toBe('none')
    expect(judged.notice.message).toMatch(/the tip adds voting_edits, lints\.oracle-reach/)
  })
})
