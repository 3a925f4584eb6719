// The generated validators (src/generated/, scripts/validators.mjs) against the schemas they
// come from: the committed files are what the generator writes from today's schemas (a
// schema edited without regenerating fails here), the generator's options are the ones the
// gate's code documents, and on a corpus of documents (real ones and every one-step mutation
// of them: a value of the wrong type, a key removed, an unknown key, a bad date) each
// generated validator accepts and rejects what ajv compiling the schema at run time does,
// with the same errors and the same defaults filled in.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ValidateFunction } from 'ajv'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import fixtures from '../src/generated/fixtures.mjs'
import ledger from '../src/generated/ledger.mjs'
import policy from '../src/generated/policy.mjs'
import primed from '../src/generated/primed.mjs'
import scorecard from '../src/generated/scorecard.mjs'
import seeds from '../src/generated/seeds.mjs'
import { isCalendarDate } from '../src/ledger/dates.js'
import { SCHEMA_OPTIONS } from '../src/schema.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'
import {
  VALIDATORS,
  ajvFor,
  generatedFiles,
  validatorModule,
  type ValidatorEntry
} from '../scripts/validators.mjs'

const root = join(import.meta.dirname, '..')
const GENERATED: Record<string, ValidateFunction> = {
  policy,
  ledger,
  scorecard,
  primed,
  seeds,
  fixtures
}

const entry = (name: string): ValidatorEntry => {
  const found = VALIDATORS.find(v => v.name === name)
  if (!found) throw new Error(`no validator ${name}`)
  return found
}

/** ajv compiling the schema now, with the real format functions. */
function compiledNow(name: string): ValidateFunction {
  const e = entry(name)
  const formats = Object.fromEntries(Object.keys(e.formats ?? {}).map(k => [k, isCalendarDate]))
  const schema = JSON.parse(readFileSync(join(root, e.schema), 'utf8')) as object
  return ajvFor({ ...e, formats }).compile(schema)
}

/** The document with one change at `path`. */
function at(doc: unknown, path: (string | number)[], change: (parent: never, key: never) => void) {
  const copy = structuredClone(doc) as Record<string | number, unknown>
  let node: Record<string | number, unknown> = copy
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>
  change(node as never, path[path.length - 1] as never)
  return copy
}

const WRONG = [null, 7, -1, 1.5, 'x', '', true, [], {}, ['x'], { k: 1 }, '2026-02-30', '\u{1F600}']

/** Every one-step mutation of `doc` (bounded), and `doc` itself. */
function mutations(doc: unknown, limit = 4000): unknown[] {
  const out: unknown[] = [doc, null, 1, 'x', [], {}]
  const walk = (node: unknown, path: (string | number)[]): void => {
    if (out.length >= limit || node === null || typeof node !== 'object') return
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node)
    out.push(
      at(doc, [...path, 'unknown_key_x'], (p: Record<string, unknown>, k: string) => (p[k] = 1))
    )
    for (const key of keys) {
      const here = [...path, key]
      out.push(
        at(doc, here, (p: Record<string | number, unknown>, k: string | number) => {
          if (Array.isArray(p)) p.splice(k as number, 1)
          else delete p[k]
        })
      )
      for (const value of WRONG)
        out.push(at(doc, here, (p: Record<string | number, unknown>, k) => (p[k] = value)))
      walk((node as Record<string | number, unknown>)[key], here)
    }
  }
  walk(doc, [])
  return out
}

const demoPolicy = parse(readFileSync(join(root, 'demo/example/.github/oracle-gate.yml'), 'utf8'))
const richPolicy = {
  version: 1,
  protected: ['oracle/**', 'tests/golden/**'],
  planes: { voting: ['oracle/**'], production: ['src/**'], drafts: ['drafts/**'] },
  suite: { command: 'pytest -q --junitxml={junit}', timeout: 60, reruns: 2, jobs: 2 },
  seeds: { corpus: 'oracle/seeds.json', command: 'python3 replay.py', min_distance: 0 },
  lints: { 'oracle-reach': 'warn', reach_allow: [{ path: 'src/x.py', categories: ['process'] }] },
  evidence: { mode: 'report' },
  ledger: 'oracle/flake_ledger.yml',
  campaign: { seed: 1, max_examples: 40, wall_clock: 60 }
}
const ledgerDoc = {
  version: 1,
  entries: [
    {
      id: 'f1',
      test: 'oracle/test_a.py::test_x',
      cause: 'time',
      reason: 'slow clock',
      owner: 'ana',
      first_seen: '2026-01-30',
      expires_on: '2026-02-28',
      max_runs: 3,
      ticket: 'T-1'
    }
  ]
}
const card = finalize(
  emptyScorecard({ version: '0.1.0', today: '2026-12-02', policyPath: 'p.yml' })
)
const CORPUS: Record<string, unknown[]> = {
  policy: [...mutations(demoPolicy), ...mutations(richPolicy)],
  ledger: mutations(ledgerDoc),
  scorecard: mutations(card, 3000),
  primed: mutations({
    schema: 'oracle-gate/primed-base@1',
    fingerprint: {
      commit: 'a'.repeat(40),
      instrument_digest: 'd1',
      policy_digest: 'd2',
      suite_command: 'pytest',
      lockfiles: {},
      runner: { os: 'linux', arch: 'x64', release: '6', image_os: '', image_version: '' },
      gate_version: '0.1.0'
    },
    produced_by: { kind: 'local', label: 'here' },
    base: {
      run: { side: 'base', exit_code: 1, timed_out: false, duration_ms: 5, tests: 1 },
      results: [{ id: 't.py::a', file: 't.py', outcomes: ['failed'], runnerFlaky: false }],
      records: [],
      duplicates: []
    }
  }),
  seeds: mutations({ property: 'total', seeds: [{ id: 's1', payload: [1, -2] }] }),
  fixtures: mutations({ golden: { file: 'golden.json', sha256: 'a'.repeat(64) } })
}

describe('the generated validators', () => {
  it('are what the generator writes from the schemas as they are now', () => {
    const files = generatedFiles()
    expect(files.size).toBe(VALIDATORS.length * 2)
    for (const [path, text] of files) {
      // A failure here: run `node scripts/validators.mjs` (npm run bundle does) and commit.
      expect(readFileSync(join(root, path), 'utf8'), path).toBe(text)
    }
  })

  it('a schema changed without regenerating is caught (the comparison can fail)', () => {
    const e = entry('policy')
    const schema = JSON.parse(readFileSync(join(root, e.schema), 'utf8'))
    schema.properties.version = { const: 2 }
    expect(validatorModule(e, schema)).not.toBe(generatedFiles().get('src/generated/policy.mjs'))
  })

  it('use the options the gate documents for its plain validators (schema.ts)', () => {
    for (const name of ['scorecard', 'primed', 'seeds', 'fixtures'])
      expect(entry(name).options).toEqual(SCHEMA_OPTIONS)
  })

  it.each(Object.keys(GENERATED))('%s: accepts and rejects as ajv at run time does', name => {
    const generated = GENERATED[name] as ValidateFunction
    const now = compiledNow(name)
    const corpus = CORPUS[name] as unknown[]
    let accepted = 0
    for (const doc of corpus) {
      const [a, b] = [structuredClone(doc), structuredClone(doc)]
      const verdict = generated(a)
      expect(verdict, JSON.stringify(doc)).toBe(now(b))
      expect(generated.errors ?? null).toEqual(now.errors ?? null)
      // useDefaults (the policy): the same defaults filled in.
      expect(a).toEqual(b)
      if (verdict) accepted++
    }
    // The corpus holds documents of both kinds.
    expect(accepted).toBeGreaterThan(0)
    expect(accepted).toBeLessThan(corpus.length)
  })

  it('the ledger validator rejects a date that is not on the calendar', () => {
    const bad = structuredClone(ledgerDoc)
    ;(bad.entries[0] as { expires_on: string }).expires_on = '2026-02-30'
    expect(ledger(bad)).toBe(false)
    expect(ledger.errors?.[0]?.keyword).toBe('format')
    expect(ledger(ledgerDoc)).toBe(true)
  })

  it('count string length in code points, as ajv does (minLength on an astral character)', () => {
    const doc = { golden: { file: '\u{1F600}', sha256: 'a'.repeat(64) } }
    expect(fixtures(doc)).toBe(true)
    expect(fixtures({ golden: { file: '', sha256: 'a'.repeat(64) } })).toBe(false)
  })
})
