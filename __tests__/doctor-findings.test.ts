// doctor's pure core: cause guesses from failure text, and the tree findings (files on no
// plane, voting files without tests, globs matching nothing) with the fit/blocker rule.
import { describe, expect, it } from 'vitest'
import { logCollectionErrors } from '../src/doctor/collection.js'
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

// Output of real runs (pytest 9, jest 30, vitest 4), trimmed to the lines that matter.
const PYTEST_LOG = `collected 1 item / 1 error

==================================== ERRORS ====================================
_____________________ ERROR collecting tests/test_hpack.py _____________________
import file mismatch:
imported module 'test_hpack' has this __file__ attribute:
  /wt/bench/test_hpack.py
-------------------- generated xml file: /wt/out.xml --------------------
=========================== short test summary info ============================
ERROR tests/test_hpack.py
!!!!!!!!!!!!!!!!!!!! Interrupted: 1 error during collection !!!!!!!!!!!!!!!!!!!!`
const JEST_LOG = `FAIL __tests__/b.test.js
  \u001b[1m● Test suite failed to run\u001b[22m

    Cannot find module './nope' from '__tests__/b.test.js'

PASS __tests__/a.test.js`
const VITEST_LOG = ` FAIL  src/cases.spec.ts [ src/cases.spec.ts ]
Error: No test suite found in file /wt/src/cases.spec.ts`

describe('collection errors (issue 25)', () => {
  it('names the file and the cause from pytest, jest and vitest output', () => {
    expect(logCollectionErrors(PYTEST_LOG, '/wt')).toEqual([
      { file: 'tests/test_hpack.py', cause: 'import file mismatch:' }
    ])
    expect(logCollectionErrors(JEST_LOG.replace(/\\u001b/g, '\u001b'), '/wt')).toEqual([
      {
        file: '__tests__/b.test.js',
        cause: "Cannot find module './nope' from '__tests__/b.test.js'"
      }
    ])
    expect(logCollectionErrors(VITEST_LOG, '/wt')).toEqual([
      { file: 'src/cases.spec.ts', cause: 'No test suite found in file' }
    ])
    expect(logCollectionErrors('FAIL tests/a.test.js\n  ● a test > fails\n', '/wt')).toEqual([])
  })

  it('a collection error is a blocker naming the file; a failing test is not one', () => {
    const id = 'tests/test_a.py::<collection>'
    const run = {
      observations: new Map([
        ['tests/test_a.py::t', obs('tests/test_a.py::t', 'tests/test_a.py', 'passed')],
        [id, { ...obs(id, 'tests/test_a.py', 'error'), message: 'import file mismatch:' }]
      ]),
      seconds: 1,
      exitCode: 2,
      duplicates: new Set<string>()
    }
    const r = diagnose(input({ runs: [run], runner: 'pytest' }))
    expect(r.fit).toBe(false)
    expect(r.findings[0]).toMatchObject({
      level: 'blocker',
      code: 'collection-error',
      items: ['tests/test_a.py: import file mismatch:']
    })
    // pytest exiting 2 without a named file still blocks.
    const bare = diagnose(
      input({ runs: [{ ...run, observations: new Map() }], runner: 'pytest' })
    ).findings.find(f => f.code === 'collection-error')
    expect(bare?.items?.[0]).toMatch(/pytest exited 2/)
    // The near miss: an ordinary failing test is a warning (always-failing), not this blocker.
    const failing = diagnose(
      input({
        runs: [
          {
            ...run,
            exitCode: 1,
            observations: new Map([
              ['tests/test_a.py::t', obs('tests/test_a.py::t', 'tests/test_a.py', 'failed')]
            ])
          }
        ],
        runner: 'pytest'
      })
    )
    expect(failing.fit).toBe(true)
    expect(failing.findings.map(f => f.code)).toContain('always-failing')
  })

  it('a voting file whose runs yield only a file-level failure (vitest: a case named after the file) blocks', () => {
    const id = 'tests/cases.spec.ts::tests/cases.spec.ts'
    const run = {
      observations: new Map([
        ['tests/test_a.py::t', obs('tests/test_a.py::t', 'tests/test_a.py', 'passed')],
        [
          id,
          {
            ...obs(id, 'tests/cases.spec.ts', 'failed'),
            message: 'No test suite found in file /wt/tests/cases.spec.ts'
          }
        ]
      ]),
      seconds: 1,
      exitCode: 1,
      duplicates: new Set<string>()
    }
    const r = diagnose(input({ runs: [run, run], runner: 'vitest' }))
    expect(r.fit).toBe(false)
    expect(r.findings.find(f => f.code === 'collection-error')?.items).toEqual([
      'tests/cases.spec.ts: No test suite found in file /wt/tests/cases.spec.ts'
    ])
  })
})
