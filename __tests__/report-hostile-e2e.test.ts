// The head's code writes the JUnit report, so the bundled CLI (and the bundled action) is
// given the report shapes an attacker would leave: a FIFO (which hung the gate with no
// card), a device, a link out of the run's folder, 12,000 nested suites (1.8 GB before).
// Each ends quickly in a product verdict whose reason names the limit: the head's vote is
// red, a card is written. The base writes a plain report; the near miss is a head that does
// the same and merges.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Scorecard } from '../src/types.js'
import { TestRepo } from './helpers/repo.js'

const CLI = join(import.meta.dirname, '..', 'dist', 'cli.js')
const POLICY = `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/properties/**]
suite:
  command: bash app/report.sh {junit}
  timeout: 60
  reruns: 0
`
const GOOD_REPORT = `#!/bin/bash
mkdir -p "$(dirname "$1")"
cat > "$1" <<'XML'
<testsuite name="s"><testcase classname="oracle.properties.test_a" name="test_x" file="oracle/properties/test_a.py"/></testsuite>
XML
`

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

/** Runs the bundled CLI with a head whose app/report.sh is `script`; returns card and time. */
function judge(
  script: string,
  policy = POLICY
): { card: Scorecard; seconds: number; status: number | null } {
  const repo = new TestRepo('og-report-e2e-')
  repos.push(repo)
  repo.write({
    '.github/oracle-gate.yml': policy,
    'app/report.sh': GOOD_REPORT,
    'oracle/properties/test_a.py': 'def test_x():\n    pass\n'
  })
  repo.commit('base')
  repo.branch('agent')
  repo.write({ 'app/report.sh': script })
  repo.commit('agent')
  const started = Date.now()
  const r = spawnSync(
    process.execPath,
    [CLI, 'check', '--base', 'main', '--head', 'agent', '--today', '2026-06-01', '--quiet'],
    { cwd: repo.dir, encoding: 'utf8', timeout: 120_000 }
  )
  return {
    card: JSON.parse(r.stdout) as Scorecard,
    seconds: (Date.now() - started) / 1000,
    status: r.status
  }
}

function expectRedVote(card: Scorecard, reason: RegExp): void {
  expect(card.verdict).toBe('product')
  const failed = card.reasons.find(r => r.rule === 'oracle-failed')
  expect(failed?.message).toMatch(/the suite left no readable report on head/)
  expect(failed?.message).toMatch(reason)
}

describe('hostile reports through the bundled CLI', () => {
  it('a FIFO: refused at once (no hang), the head vote is red', () => {
    const { card, seconds } = judge('#!/bin/bash\nmkfifo "$1"\n')
    expectRedVote(card, /is a FIFO, not a regular file/)
    expect(seconds).toBeLessThan(60)
  })

  it('a link to a device: out of the run folder, refused', () => {
    const { card } = judge('#!/bin/bash\nln -s /dev/zero "$1"\n')
    expectRedVote(card, /leads out of the run's folder \(to \/dev\/zero\)/)
  })

  it('a link to a file outside the run folder: refused', () => {
    const { card } = judge('#!/bin/bash\nln -s /etc/hostname "$1"\n')
    expectRedVote(card, /leads out of the run's folder/)
  })

  it('12,000 nested suites: the nesting limit, named', () => {
    const { card } = judge(
      `#!/bin/bash\npython3 -c 'import sys; n=12000; open(sys.argv[1],"w").write("<testsuites>"+"<testsuite name=\\"s\\">"*n+"<testcase name=\\"x\\" file=\\"oracle/properties/test_a.py\\"/>"+"</testsuite>"*n+"</testsuites>")' "$1"\n`
    )
    expectRedVote(card, /nested more than 64 deep \(the limit\)/)
  })

  it('a configured report whose folder is a link out of the worktree: refused', () => {
    const outside = mkdtempSync(join(tmpdir(), 'og-outside-'))
    try {
      writeFileSync(
        join(outside, 'junit.xml'),
        '<testsuite name="s"><testcase classname="oracle.properties.test_a" name="test_x" file="oracle/properties/test_a.py"/></testsuite>'
      )
      const policy = POLICY.replace(
        'bash app/report.sh {junit}',
        'bash app/report.sh reports/junit.xml'
      ).replace('  reruns: 0\n', '  reruns: 0\n  report: reports/junit.xml\n')
      const { card } = judge(`#!/bin/bash\nrm -rf reports\nln -s ${outside} reports\n`, policy)
      expectRedVote(card, /leads out of the run's folder/)
    } finally {
      rmSync(outside, { recursive: true, force: true })
    }
  })

  it('the near miss: a head writing the same plain report merges', () => {
    const { card, status } = judge(GOOD_REPORT.replace('cat >', 'cat  >'))
    expect(card.verdict).toBe('merge')
    expect(status).toBe(0)
  })
})
