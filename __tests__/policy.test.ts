import { describe, expect, it } from 'vitest'
import { parsePolicy, PolicyError } from '../src/policy/load.js'
import { detectProject, renderStarter } from '../src/policy/starter.js'
import schema from '../src/policy/schema.json' with { type: 'json' }
import { policyYaml } from './helpers/repo.js'

const FILE = '.github/oracle-gate.yml'

function problems(text: string): string[] {
  try {
    parsePolicy(text, FILE)
  } catch (error) {
    expect(error).toBeInstanceOf(PolicyError)
    return (error as PolicyError).problems.map(
      p => `${p.file}:${p.line}:${p.column} ${p.key} ${p.message}`
    )
  }
  throw new Error('expected the policy to be rejected')
}

describe('policy loading', () => {
  it('parses a valid policy and fills the schema defaults', () => {
    const policy = parsePolicy(
      'version: 1\nplanes:\n  voting: [oracle/**]\nsuite:\n  command: pytest\n',
      FILE
    )
    expect(policy.path).toBe(FILE)
    expect(policy.suite.timeout).toBe(600)
    expect(policy.suite.reruns).toBe(2)
    expect(policy.suite.parallel).toBe(false)
    expect(policy.planes.drafts).toEqual([])
    expect(policy.protected).toEqual([])
    expect(policy.ledger_max_days).toBe(30)
    // Absent blocks get every default from the schema, their one home.
    expect(policy.test_patterns).toEqual(schema.properties.test_patterns.default)
    expect(policy.test_patterns).toContain('**/conftest.py')
    expect(policy.lints['literal-overlap']).toBe('error')
    expect(policy.lints['oracle-reach']).toBe('error')
    expect(policy.lints.literal_min_length).toBe(6)
    expect(policy.lints.reach_allow).toEqual([])
    expect(policy.campaign).toEqual({ seed: 0, max_examples: 100, wall_clock: 90 })
    expect(policy.classes).toEqual({ fixture: [], invariant: [], metamorphic: [], judge: [] })
    // A block given in part keeps the defaults of the keys it leaves out.
    const partial = parsePolicy(
      'version: 1\nplanes:\n  voting: [oracle/**]\nsuite:\n  command: pytest\ncampaign: {seed: 7}\nclasses: {judge: [j]}\n',
      FILE
    )
    expect(partial.campaign).toEqual({ seed: 7, max_examples: 100, wall_clock: 90 })
    expect(partial.classes).toEqual({ fixture: [], invariant: [], metamorphic: [], judge: ['j'] })
    expect(Object.isFrozen(policy)).toBe(true)
    expect(Object.isFrozen(policy.suite)).toBe(true)
  })

  it('parses the contract example policy', () => {
    const text = `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/properties/**]
  drafts: [drafts/**]
  in_diff: [tests/**]
suite:
  command: python -m pytest oracle/properties -p no:cacheprovider --junitxml={junit}
  timeout: 600
  reruns: 2
ledger: oracle/flake_ledger.yml
fixtures: oracle/fixtures/manifest.json
seeds:
  corpus: oracle/seeds.json
  command: python oracle/replay.py
  min_hits: 0
  min_distance: 8
campaign: {seed: 20260913, max_examples: 128, wall_clock: 90}
`
    const policy = parsePolicy(text, FILE)
    expect(policy.seeds?.min_distance).toBe(8)
    expect(policy.seeds?.distance).toBe('simhash')
    expect(policy.campaign).toEqual({ seed: 20260913, max_examples: 128, wall_clock: 90 })
  })

  it('names file, line, column and key for a wrong type', () => {
    const text = policyYaml().replace('timeout: 120', 'timeout: ten')
    const line = text.split('\n').findIndex(l => l.includes('timeout: ten')) + 1
    expect(problems(text)).toEqual([`${FILE}:${line}:12 suite.timeout expected integer`])
  })

  it('rejects an unknown top-level key at the key, with a suggestion', () => {
    const text = policyYaml('protectd: [x/**]\n')
    const line = text.split('\n').findIndex(l => l.startsWith('protectd')) + 1
    const [p] = problems(text)
    expect(p).toBe(`${FILE}:${line}:1 protectd unknown key "protectd" (did you mean "protected"?)`)
  })

  it('rejects an unknown nested key and says what is known', () => {
    const text = policyYaml().replace('reruns: 1', 'rerun: 1')
    const line = text.split('\n').findIndex(l => l.includes('rerun: 1')) + 1
    const [p] = problems(text)
    expect(p).toMatch(
      new RegExp(`^${FILE.replace(/\./g, '\\.')}:${line}:3 suite\\.rerun unknown key "rerun"`)
    )
    expect(p).toContain(`did you mean "reruns"`)
  })

  it('reports a missing required key at its parent', () => {
    expect(problems('version: 1\nplanes:\n  voting: [a/**]\n')).toEqual([
      `${FILE}:1:1  missing required key "suite"`
    ])
    const nested = problems('version: 1\nplanes:\n  drafts: [a/**]\nsuite:\n  command: x\n')
    expect(nested).toEqual([`${FILE}:3:3 planes missing required key "voting"`])
  })

  it('reports every problem at once', () => {
    const text =
      'version: 2\nplanes:\n  voting: []\nsuite:\n  command: x\n  parallel: "yes"\nlints:\n  judge-import: loud\n'
    const all = problems(text)
    expect(all).toHaveLength(4)
    expect(all[0]).toBe(`${FILE}:1:10 version expected 1`)
    expect(
      all.some(p => p.startsWith(`${FILE}:3:11 planes.voting`) && p.includes('fewer than 1'))
    ).toBe(true)
    expect(all).toContain(`${FILE}:6:13 suite.parallel expected boolean`)
    expect(all).toContain(`${FILE}:8:17 lints.judge-import expected one of "off", "warn", "error"`)
  })

  it('reports YAML syntax errors with their line', () => {
    const [p] = problems('version: 1\nplanes:\n  voting: [a/**\nsuite: {command: x}\n')
    expect(p).toMatch(/^\.github\/oracle-gate\.yml:\d+:\d+ {2}YAML syntax: /)
  })

  it('rejects duplicate keys and non-mapping documents', () => {
    expect(problems('version: 1\nversion: 1\n')[0]).toContain('YAML syntax')
    expect(problems('- a\n- b\n')).toEqual([
      `${FILE}:1:1  expected a mapping with at least version, planes and suite`
    ])
    expect(problems('')).toEqual([
      `${FILE}:1:1  expected a mapping with at least version, planes and suite`
    ])
  })

  it('the message of the error names every problem', () => {
    try {
      parsePolicy(policyYaml('bogus: 1\n'), FILE)
      expect.unreachable()
    } catch (error) {
      expect((error as PolicyError).rule).toBe('config-invalid')
      expect((error as Error).message).toMatch(
        /invalid policy: \.github\/oracle-gate\.yml:\d+:1: bogus: unknown key "bogus"/
      )
    }
  })

  it('the starter policy written by init is valid', () => {
    expect(() => parsePolicy(renderStarter(detectProject([])), FILE)).not.toThrow()
  })
})
