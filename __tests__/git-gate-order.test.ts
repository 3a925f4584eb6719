// The order the gate keeps with its readers (src/gate.ts): the lints read the head's
// objects from the repository, and the head's code could rewrite loose objects there once
// it runs, so with serial sides the lints run beside the base's first run (the base's code
// is trusted; they start as it starts, so that their parsing does not hold back the
// replay's set-up) and are over before the head's first child starts; with suite.parallel (both
// sides start at once) they run before the replay, as before. The instrument stage and
// the ledger (objects and reviews only) run at once, and a failure of either, or of both,
// is the card's error, never a pass or an unobserved rejection.
//
// A guard of the order, not a proof of its need: with the seam's wait taken out the serial
// case still passed here, because the lints' parsing holds the event loop until they end.
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { GateError } from '../src/errors.js'
import { check } from '../src/gate.js'
import type { Logger } from '../src/types.js'
import type { ApprovalSource } from '../src/verdict/approval.js'
import { TestRepo } from './helpers/repo.js'

const repos: TestRepo[] = []
const marks = mkdtempSync(join(tmpdir(), 'og-order-'))
afterAll(() => {
  for (const r of repos) r.cleanup()
  rmSync(marks, { recursive: true, force: true })
})

/**
 * The suite: notes which side it ran on (told apart by content: worktree names are random),
 * then reports one passing voting test.
 */
const SUITE = `#!/bin/bash
if grep -q "for x in xs" app/calc.py; then side=head; else side=base; fi
echo "suite $side" >> "$MARK"
cat > "$1" <<'XML'
<testsuite><testcase classname="oracle.properties.test_a" name="test_a" file="oracle/properties/test_a.py"/></testsuite>
XML
`

function policy(mark: string, extra: string): string {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  in_diff: [tests/**]
# The suite writes its marks outside the worktree, where the gate's sandbox has no view.
sandbox: off
suite:
  command: bash oracle/run.sh {junit}
  timeout: 120
  reruns: 0
  env:
    MARK: ${mark}
${extra}`
}

/** A logger whose lines go to the same file the suite writes to, in the order they happen. */
function markingLogger(mark: string): Logger {
  const note = (line: string) => appendFileSync(mark, `log ${line}\n`)
  return {
    info: note,
    warning: note,
    group: async (name, fn) => {
      note(`group ${name}`)
      return fn()
    }
  }
}

async function judge(
  name: string,
  extra: string,
  headFiles: Record<string, string> = {}
): Promise<string[]> {
  const mark = join(marks, `${name}.log`)
  const repo = new TestRepo('og-order-')
  repos.push(repo)
  repo.write({
    '.github/oracle-gate.yml': policy(mark, extra),
    'oracle/run.sh': SUITE,
    'oracle/properties/test_a.py': 'def test_a():\n    pass\n',
    'app/calc.py': 'def total(xs):\n    return sum(xs)\n'
  })
  repo.commit('base')
  repo.branch('agent')
  repo.write({
    'app/calc.py': 'def total(xs):\n    return sum(x for x in xs)\n',
    'tests/test_calc.py':
      'from app.calc import total\n\n\ndef test_total():\n    assert total([1]) == 1\n',
    ...headFiles
  })
  repo.commit('agent')
  const card = await check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-12-01',
    log: markingLogger(mark),
    env: process.env
  })
  expect(card.runs.map(r => r.side)).toEqual(['base', 'head'])
  return readFileSync(mark, 'utf8').split('\n')
}

describe('the lints and the head side', () => {
  it('serial sides: the lints run beside the base and end before the head starts', async () => {
    const lines = await judge('serial', '')
    const lints = lines.findIndex(l => /^log lints: \d+ ms, beside the base's first run$/.test(l))
    const head = lines.indexOf('suite head')
    expect(lints).toBeGreaterThanOrEqual(0)
    expect(head).toBeGreaterThan(lints)
    // No group of their own: their lines come inside the replay's.
    expect(lines.indexOf('log group replay')).toBeLessThan(lints)
    expect(lines).not.toContain('log group lints')
    // The ledger beside the instrument stage: its one line, no group, before the replay.
    const ledger = lines.findIndex(l => /^log ledger: \d+ ms, beside the instrument stage$/.test(l))
    expect(ledger).toBeGreaterThan(lines.indexOf('log group instrument'))
    expect(ledger).toBeLessThan(lines.indexOf('log group replay'))
    expect(lines).not.toContain('log group ledger')
  })

  // The lints' parsing holds the event loop: started before the replay's set-up, they kept
  // the base from starting until they were over (issue 29). A production file long enough
  // that its parse outlasts the start of a shell script shows where they run now.
  it("serial sides: the lints start with the base's first run, not before it", async () => {
    const long = Array.from(
      { length: 2000 },
      (_, i) =>
        `def f${i}(x):\n    if x == ${i}:\n        return "v${i}"\n    return {"k${i}": x}\n`
    ).join('')
    const lines = await judge('late-lints', '', { 'app/long.py': long })
    const lints = lines.findIndex(l => /^log lints: \d+ ms, beside the base's first run$/.test(l))
    const base = lines.indexOf('suite base')
    expect(base).toBeGreaterThanOrEqual(0)
    expect(lints).toBeGreaterThan(base)
    expect(lines.indexOf('suite head')).toBeGreaterThan(lints)
  })

  it('suite.parallel: the lints run before the replay starts', async () => {
    const lines = await judge('parallel', '  parallel: true\n')
    const lints = lines.indexOf('log group lints')
    expect(lints).toBeGreaterThanOrEqual(0)
    expect(lines.indexOf('log group replay')).toBeGreaterThan(lints)
    expect(lines.findIndex(l => l.startsWith('suite '))).toBeGreaterThan(lints)
  })
})

describe('the instrument stage and the ledger at once', () => {
  // `ledger: oracle` names a directory of the merge base: reading it is a gate error.
  const policy = (ledger: string) => `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
instrument_approvers: [octocat]
ledger: ${ledger}
suite:
  command: "true {junit}"
  timeout: 60
  reruns: 0
`
  function repoWith(ledger: string): TestRepo {
    const repo = new TestRepo('og-stages-')
    repos.push(repo)
    repo.write({
      '.github/oracle-gate.yml': policy(ledger),
      'oracle/ledger.yml': 'version: 1\nentries: []\n',
      'oracle/properties/test_a.py': 'def test_a():\n    pass\n',
      'app/calc.py': 'X = 1\n'
    })
    repo.commit('base')
    repo.branch('product').write({ 'app/calc.py': 'X = 2\n' })
    repo.commit('product edit')
    repo.checkout('main').branch('instrument')
    repo.write({ 'oracle/properties/test_a.py': 'def test_a():\n    assert True\n' })
    repo.commit('instrument edit')
    return repo
  }
  const judgeOf = (repo: TestRepo, head: string, approval: ApprovalSource) =>
    check({
      repoDir: repo.dir,
      base: 'main',
      head,
      today: '2026-12-01',
      log: { info: () => {}, warning: () => {}, group: (_n, fn) => fn() },
      approval
    })
  const failing: ApprovalSource = () =>
    Promise.reject(new GateError('the reviews could not be read'))
  const none: ApprovalSource = () => Promise.resolve({ unavailable: 'no reviews in this test' })

  it('a ledger that cannot be read is the error while the instrument stage passes', async () => {
    const card = await judgeOf(repoWith('oracle'), 'product', failing)
    expect(card.verdict).toBe('error')
    expect(card.reasons.map(r => r.message).join('\n')).toMatch(/oracle.*a tree, not a file/)
    expect(Object.keys(card.timings_ms)).toEqual(expect.arrayContaining(['instrument', 'ledger']))
    expect(card.runs).toEqual([])
  })

  it("both failing: the instrument stage's error is the card's, the ledger's is observed", async () => {
    const card = await judgeOf(repoWith('oracle'), 'instrument', failing)
    expect(card.verdict).toBe('error')
    const messages = card.reasons.map(r => r.message).join('\n')
    expect(messages).toMatch(/the reviews could not be read/)
    expect(messages).not.toMatch(/a tree, not a file/)
  })

  it('the near miss: both stages succeed and both write the card', async () => {
    const card = await judgeOf(repoWith('oracle/ledger.yml'), 'instrument', none)
    expect(card.verdict).toBe('policy')
    expect(card.reasons.map(r => r.rule)).toEqual(
      expect.arrayContaining(['protected-path', 'instrument-approval'])
    )
    expect(card.freeze_debt).toEqual([])
    expect(card.oracle.base_digest).not.toBe('')
  })
})
