// doctor's pure core: cause guesses from failure text, and the tree findings (files on no
// plane, voting files without tests, globs matching nothing) with the fit/blocker rule.
import { describe, expect, it } from 'vitest'
import { diagnose, guessCause, type DoctorInput } from '../src/doctor/findings.js'
import type { Observation } from '../src/replay/transitions.js'
import type { Plane } from '../src/types.js'

describe('guessCause', () => {
  it.each([
    ['TimeoutError: timed out after 5s', 'time'],
    ['ConnectionRefusedError: [Errno 111]', 'net'],
    ['random seed 42 gave a different list', 'rng'],
    ['expected setup to run before teardown', 'order'],
    ['assert 1 == 2', 'shared']
  ] as const)('%s → %s', (text, cause) => expect(guessCause(text)).toBe(cause))
})

const obs = (id: string, file: string, outcome: Observation['outcomes'][number]): Observation => ({
  id,
  file,
  outcomes: [outcome],
  runnerFlaky: false
})

function input(over: Partial<DoctorInput>): DoctorInput {
  const planeOf = (p: string): Plane => (p.startsWith('tests/') ? 'voting' : 'source')
  return {
    ref: 'HEAD',
    runs: [
      {
        observations: new Map([
          ['tests/test_a.py::t', obs('tests/test_a.py::t', 'tests/test_a.py', 'passed')]
        ]),
        seconds: 1,
        exitCode: 0,
        duplicates: new Set()
      }
    ],
    files: ['tests/test_a.py', 'tests/helpers.txt', 'lib/test_b.py'],
    planeOf,
    votingGlobs: ['tests/**', 'spec/**'],
    globMatches: new Map([
      ['tests/**', true],
      ['spec/**', false]
    ]),
    testFiles: ['tests/test_a.py', 'lib/test_b.py'],
    shadowed: [],
    imports: [],
    runnerConfig: [],
    ledgered: new Set(),
    today: '2026-12-01',
    owner: 'me',
    ...over
  }
}

describe('diagnose', () => {
  it('warns about a test file on no plane, a voting file without a test and a glob matching nothing, and stays fit', () => {
    const r = diagnose(input({}))
    expect(r.fit).toBe(true)
    expect(r.findings.map(f => [f.code, f.items])).toEqual([
      ['test-on-no-plane', ['lib/test_b.py']],
      ['voting-file-without-test', ['tests/helpers.txt']],
      ['glob-matches-nothing', ['spec/**']]
    ])
  })

  it('a run with no voting test is a blocker; a flake already in the ledger is not', () => {
    expect(diagnose(input({ planeOf: () => 'source' })).findings[0]?.code).toBe('no-voting-test')
    const id = 'tests/test_a.py::t'
    const flip = (o: 'passed' | 'failed') => ({
      observations: new Map([[id, obs(id, 'tests/test_a.py', o)]]),
      seconds: 1,
      exitCode: 0,
      duplicates: new Set<string>()
    })
    const runs = [flip('passed'), flip('failed')]
    expect(diagnose(input({ runs })).fit).toBe(false)
    const ledgered = diagnose(input({ runs, ledgered: new Set([id]) }))
    expect(ledgered.fit).toBe(true)
    expect(ledgered.flaky).toHaveLength(1)
    expect(ledgered.proposedRows).toEqual([])
  })
})
