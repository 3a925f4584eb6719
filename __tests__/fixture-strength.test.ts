// An honest limit said out loud (issue 26): locked tests that compare with golden files can
// be answered by a table keyed on each case's input, which no reach rule can see. init and
// doctor say so when a repository has such tests and neither generated inputs nor seeds
// that demand distance; they stay silent when either is there.
import { describe, expect, it } from 'vitest'
import {
  fixtureFiles,
  fixtureStrengthNote,
  seedsWithDistance
} from '../src/policy/fixture-strength.js'
import { inspect } from '../src/policy/inspect.js'
import type { SeedSettings } from '../src/policy/types.js'

const SEEDS: SeedSettings = {
  corpus: 'oracle/seeds',
  command: 'python -m seeds',
  min_hits: 3,
  min_distance: 8,
  distance: 'simhash',
  timeout: 60
}

describe('fixture files', () => {
  it('are data beside the tests or in a fixtures folder of their tree; package data is not', () => {
    const tests = ['tests/test_fee.py', 'src/app/fee.test.ts']
    const files = [
      ...tests,
      'tests/cases.json',
      'tests/fixtures/golden/a.txt',
      'src/app/__snapshots__/fee.test.ts.snap',
      'src/locales/en.json',
      'docs/fixtures/example.json',
      'tests/helpers.py'
    ]
    expect(fixtureFiles(files, tests)).toEqual([
      'tests/cases.json',
      'tests/fixtures/golden/a.txt',
      'src/app/__snapshots__/fee.test.ts.snap'
    ])
    expect(fixtureFiles(['tests/test_a.py', 'pkg/data.json'], ['tests/test_a.py'])).toEqual([])
  })
})

describe('the note', () => {
  it('speaks for fixture tests with neither generators nor seeds with distance', () => {
    const note = fixtureStrengthNote(['tests/cases.json'], null, undefined)
    expect(note).toMatch(/1 fixture file\(s\) \(tests\/cases\.json\)/)
    expect(note).toMatch(/seeds\.min_distance/)
  })
  it('is silent with a property library, with seeds that demand distance, or without fixtures', () => {
    expect(fixtureStrengthNote(['tests/cases.json'], 'hypothesis', undefined)).toBeNull()
    expect(fixtureStrengthNote(['tests/cases.json'], null, SEEDS)).toBeNull()
    expect(fixtureStrengthNote([], null, undefined)).toBeNull()
  })
  it('seeds without hits required or without distance do not count', () => {
    expect(seedsWithDistance({ ...SEEDS, min_hits: 0 })).toBe(false)
    expect(seedsWithDistance({ ...SEEDS, min_distance: 0 })).toBe(false)
    expect(fixtureStrengthNote(['t/x.json'], null, { ...SEEDS, min_hits: 0 })).not.toBeNull()
  })
})

describe('init sees the fixtures', () => {
  const files = ['pyproject.toml', 'tests/test_fee.py', 'tests/golden/fee.json', 'pkg/fee.py']
  it('lists them for the note; hypothesis in the tests silences it', () => {
    const plain = inspect({ files, read: () => null, has: n => n === 'python3' })
    expect(plain.fixtures).toEqual(['tests/golden/fee.json'])
    expect(fixtureStrengthNote(plain.fixtures, plain.propertyLibrary, undefined)).not.toBeNull()
    const texts: Record<string, string> = { 'tests/test_fee.py': 'from hypothesis import given\n' }
    const withProps = inspect({ files, read: p => texts[p] ?? null, has: n => n === 'python3' })
    expect(fixtureStrengthNote(withProps.fixtures, withProps.propertyLibrary, undefined)).toBeNull()
  })
})
