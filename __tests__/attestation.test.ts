// The verdict as an in-toto Statement (src/shard/attestation.ts): validated against a JSON
// Schema of the Statement v1 and the test-result v0.1 predicate written from the in-toto
// spec (src/shard/statement.schema.json), its subject the scorecard's exact bytes, its
// result following the verdict, and the schema refusing what the spec forbids.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { compiledValidator } from './helpers/schemas.js'
import { runUrl, statementOf } from '../src/shard/attestation.js'
import statementSchema from '../src/shard/statement.schema.json' with { type: 'json' }
import type { Scorecard } from '../src/types.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'

const validate = compiledValidator(statementSchema)
const SHA = 'a'.repeat(40)

function card(reasons: Scorecard['reasons'] = []): Scorecard {
  const c = emptyScorecard({
    version: '0.1.0',
    today: '2026-06-01',
    policyPath: '.github/oracle-gate.yml'
  })
  c.base = SHA
  c.base_ref = 'c'.repeat(40)
  c.head = 'b'.repeat(40)
  c.oracle = {
    base_digest: `sha256:${'e'.repeat(64)}`,
    head_digest: `sha256:${'e'.repeat(64)}`,
    unchanged: true
  }
  c.transitions = {
    fail_to_pass: ['oracle/t.py::hit'],
    pass_to_fail: ['oracle/t.py::broke'],
    fail_to_fail: [],
    pass_to_pass: 3,
    vanished: ['oracle/t.py::gone']
  }
  c.flakes = [{ test: 'oracle/t.py::coin', side: 'base', outcomes: ['passed', 'failed'] }]
  return finalize(c, reasons)
}

describe('the in-toto Statement of a verdict', () => {
  it('validates against the Statement v1 + test-result v0.1 schema, subject the scorecard bytes', () => {
    const c = card()
    const bytes = JSON.stringify(c, null, 2) + '\n'
    const s = statementOf({
      card: c,
      scorecardPath: 'out/scorecard.json',
      scorecardBytes: bytes,
      policyDigest: `sha256:${'d'.repeat(64)}`,
      url: 'https://github.com/o/r/actions/runs/42'
    })
    expect(validate(s)).toEqual([])
    expect(s._type).toBe('https://in-toto.io/Statement/v1')
    expect(s.predicateType).toBe('https://in-toto.io/attestation/test-result/v0.1')
    expect(s.subject).toEqual([
      {
        name: 'scorecard.json',
        digest: { sha256: createHash('sha256').update(bytes).digest('hex') }
      }
    ])
    expect(s.predicate.result).toBe('PASSED')
    expect(s.predicate.url).toBe('https://github.com/o/r/actions/runs/42')
    expect(s.predicate.passedTests).toEqual(['oracle/t.py::hit'])
    expect(s.predicate.failedTests).toEqual(['oracle/t.py::broke', 'oracle/t.py::gone'])
    expect(s.predicate.warnedTests).toEqual(['oracle/t.py::coin'])
    const names = s.predicate.configuration.map(d => [d.name, d.digest])
    expect(names).toEqual([
      ['.github/oracle-gate.yml', { sha256: 'd'.repeat(64) }],
      ['oracle-gate/instrument', { sha256: 'e'.repeat(64) }],
      ['merge-base', { gitCommit: SHA }],
      ['base', { gitCommit: 'c'.repeat(40) }],
      ['head', { gitCommit: 'b'.repeat(40) }]
    ])
  })

  it('follows the verdict: a warning is WARNED, any other verdict FAILED', () => {
    const warned = card([{ rule: 'diagnostic', message: 'w', level: 'warning' }])
    expect(warned.verdict).toBe('merge')
    const failed = card([{ rule: 'regression', message: 'r', level: 'failure' }])
    const error = card([{ rule: 'gate-error', message: 'e', level: 'failure' }])
    const result = (c: Scorecard): string =>
      statementOf({ card: c, scorecardPath: 's.json', scorecardBytes: '{}' }).predicate.result
    expect([warned, failed, error].map(result)).toEqual(['WARNED', 'FAILED', 'FAILED'])
    // An error card before the commits were known still makes a valid Statement.
    const bare = finalize(
      emptyScorecard({ version: 'v', today: '2026-06-01', policyPath: 'p.yml' }),
      [{ rule: 'gate-error', message: 'no commits', level: 'failure' }]
    )
    const s = statementOf({ card: bare, scorecardPath: 's.json', scorecardBytes: '{}' })
    expect(validate(s)).toEqual([])
    expect(s.predicate.configuration).toEqual([
      {
        name: 'p.yml',
        uri: 'file:p.yml',
        annotations: { verdict: 'error', gate_version: 'v', today: '2026-06-01' }
      }
    ])
  })

  it('the schema refuses what the spec forbids', () => {
    const good = statementOf({ card: card(), scorecardPath: 's.json', scorecardBytes: '{}' })
    const broken = [
      { ...good, _type: 'https://in-toto.io/Statement/v0.1' },
      { ...good, subject: [] },
      { ...good, subject: [{ name: 's.json' }] },
      { ...good, subject: [{ name: 's.json', digest: { sha256: 'NOT-HEX' } }] },
      { ...good, predicateType: 'https://slsa.dev/provenance/v1' },
      { ...good, predicate: { ...good.predicate, result: 'pass' } },
      { ...good, predicate: { ...good.predicate, configuration: [{ name: 'no pointer' }] } },
      { ...good, predicate: { result: 'PASSED' } }
    ]
    for (const b of broken) expect(validate(b).length).toBeGreaterThan(0)
  })

  it('names the Actions run only when the runner says which', () => {
    expect(
      runUrl({
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_RUN_ID: '7'
      })
    ).toBe('https://github.com/o/r/actions/runs/7')
    expect(runUrl({ GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '7' })).toBeUndefined()
    expect(
      runUrl({
        GITHUB_SERVER_URL: 'https://github.com',
        GITHUB_REPOSITORY: 'o/r',
        GITHUB_RUN_ID: '7;x'
      })
    ).toBeUndefined()
  })
})
