// The pure parts of the outcome stream: how the gate's reporter joins a suite command, how
// a stream is read (anything not the reporter's is a problem), and how it is held against
// the JUnit file. End to end with real runners: outcome-stream.test.ts.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { RawCase } from '../src/replay/junit.js'
import { withReporter } from '../src/replay/runners.js'
import {
  crossCheck,
  MAX_EVENTS,
  parseStream,
  pipedStdio,
  planStream,
  STREAM_VAR
} from '../src/replay/stream.js'
import { judgeStream } from '../src/replay/tripwires.js'
import { SUITE_COMMANDS } from './helpers/runners.js'

const c = (name: string, outcome: RawCase['outcome'], more: Partial<RawCase> = {}): RawCase => ({
  classname: 'oracle.test_x',
  name,
  suites: [],
  outcome,
  flaky: false,
  ...more
})
const line = (record: object, nonce = 'n1'): string =>
  `${JSON.stringify({ ...record, k: nonce })}\n`

describe('the reporter on the command line', () => {
  it('goes beside the reporters the command names, where each runner reads it', () => {
    expect(withReporter(SUITE_COMMANDS.vitest('oracle'), 'vitest', '/g/r/vitest.mjs')).toEqual({
      command:
        'node node_modules/vitest/vitest.mjs run --reporter=/g/r/vitest.mjs oracle --reporter=junit --outputFile.junit={junit}'
    })
    // jest takes every plain word after --reporters as a reporter: the gate's goes last.
    expect(withReporter('npx jest oracle --reporters=jest-junit', 'jest', '/g/jest.js')).toEqual({
      command: 'npx jest oracle --reporters=jest-junit --reporters=/g/jest.js'
    })
    expect(withReporter(SUITE_COMMANDS.nodeTest('oracle/'), 'node-test', "/g r/it's.mjs")).toEqual({
      command: `${process.execPath} --test --test-reporter='/g r/it'\\''s.mjs' --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination={junit} oracle/`
    })
  })

  it("is not added where it would silence the user's report or cannot be placed", () => {
    const why = (command: string, kind: 'vitest' | 'jest' | 'node-test'): string => {
      const r = withReporter(command, kind, '/g/r.mjs')
      return 'why' in r ? r.why : 'added'
    }
    expect(why('npx vitest run oracle', 'vitest')).toMatch(
      /reporters come from the runner's configuration/
    )
    expect(why('npx jest oracle', 'jest')).toMatch(/names no --reporters/)
    expect(why('make test', 'vitest')).toMatch(/does not run vitest/)
    expect(why('npx vitest run --reporter=junit | tee x', 'vitest')).toMatch(/not a simple command/)
    expect(why('node --test --test-reporter=junit oracle/', 'node-test')).toMatch(/destination/)
  })

  it('pytest takes it through the environment, keeping the PYTHONPATH and plugins it had', () => {
    const plan = planStream('make test', 'pytest', { PYTHONPATH: '/x', PYTEST_PLUGINS: 'a' }, '/g')
    expect(plan.command).toBe('make test')
    expect(plan.env).toMatchObject({
      PYTEST_PLUGINS: 'a,pytest_outcomes',
      PYTHONPATH: '/g/python:/x'
    })
    expect(plan.env[STREAM_VAR]).toMatch(/^3:[0-9a-f]{32}$/)
    expect(plan.shell.feed).toBeUndefined()
    // With a watch plan: its descriptor named in the variable, its bytes fed there.
    const fed = planStream('pytest', 'pytest', {}, '/g', Buffer.from('{}\n'))
    expect(fed.env[STREAM_VAR]).toMatch(/^3:[0-9a-f]{32}:4$/)
    expect(fed.shell.feed?.toString()).toBe('{}\n')
    // A watched run gets pipes for descriptors 1 and 2 (bash), the command otherwise as it is.
    expect(fed.command).toBe(pipedStdio('pytest'))
    expect(pipedStdio('pytest -q', '/usr/bin/bash')).toBe(
      'exec > >(exec cat) 2> >(exec cat >&2)\npytest -q'
    )
    expect(pipedStdio('pytest -q', '/bin/sh')).toBe('pytest -q')
    expect(plan.shell.onStream).toBeTypeOf('function')
    // Nothing to add it to: the run is judged on the file alone, and says why.
    expect(planStream('bash run.sh', null, {}, '/g').outcome()).toEqual({
      state: 'off',
      why: 'the suite command names no runner the gate knows'
    })
    expect(planStream('go test ./...', 'go', {}, '/g').outcome()).toMatchObject({ state: 'off' })
    expect(planStream('pytest', 'pytest', {}, null).outcome()).toMatchObject({
      state: 'off',
      why: expect.stringMatching(/reporters are missing/)
    })
  })

  it('node runners take the watcher through NODE_OPTIONS only with a watch plan, after the user’s', () => {
    const command = 'npx vitest run --reporter=junit'
    const user = { NODE_OPTIONS: '--max-old-space-size=512' }
    // A folder with a space, holding the watcher: quoted the way NODE_OPTIONS reads it.
    const dir = join(mkdtempSync(join(tmpdir(), 'og watch ')), 'r')
    mkdirSync(join(dir, 'node'), { recursive: true })
    writeFileSync(join(dir, 'node', 'gate-reach.cjs'), '')
    const plain = planStream(command, 'vitest', user, dir)
    expect(plain.env).not.toHaveProperty('NODE_OPTIONS')
    expect(plain.shell.feed).toBeUndefined()
    const fed = planStream(command, 'vitest', user, dir, Buffer.from('{}\n'))
    expect(fed.env.NODE_OPTIONS).toBe(
      `--max-old-space-size=512 --require="${join(dir, 'node', 'gate-reach.cjs')}"`
    )
    expect(fed.env[STREAM_VAR]).toMatch(/^3:[0-9a-f]{32}:4$/)
    expect(fed.shell.feed?.toString()).toBe('{}\n')
    rmSync(dirname(dir), { recursive: true, force: true })
    // An installation without the watcher (an older bundle): streamed, not watched.
    const old = planStream(command, 'vitest', user, '/g', Buffer.from('{}\n'))
    expect(old.env).not.toHaveProperty('NODE_OPTIONS')
    expect(old.shell.feed).toBeUndefined()
    expect(old.env[STREAM_VAR]).toMatch(/^3:[0-9a-f]{32}$/)
    // No reporter, no watcher: the run is not streamed at all.
    expect(planStream('npx jest', 'jest', {}, dir, Buffer.from('{}\n')).env).toEqual({})
  })
})

describe('reading a stream', () => {
  it('keeps the cases of each session and counts sessions started and ended', () => {
    const text =
      line({ t: 'start' }) +
      line({ t: 'case', classname: 'a', name: 't1', outcome: 'failed' }) +
      line({ t: 'end', status: 1 })
    expect(parseStream(text, 'n1')).toEqual({
      state: 'read',
      cases: [{ classname: 'a', name: 't1', suites: [], outcome: 'failed', flaky: false }],
      started: 1,
      ended: 1,
      status: 1,
      problems: [],
      events: [],
      dropped: 0,
      watched: 0
    })
  })

  it('keeps watch events in and out of sessions, counts watched sessions, drops past the cap', () => {
    const text =
      line({ t: 'reach', what: 'early' }) +
      line({ t: 'start', watch: true }) +
      line({ t: 'cover', path: 'a.py', lines: [3] }) +
      line({ t: 'end', status: 0 }) +
      line({ t: 'reach', what: 'forged' }, 'guess')
    const read = parseStream(text, 'n1')
    expect(read.events.map(e => e.t)).toEqual(['reach', 'cover'])
    expect(read.watched).toBe(1)
    expect(read.problems).toEqual([
      "1 line(s) on the stream were not written by the gate's reporter"
    ])
    const flood = Array.from({ length: MAX_EVENTS + 3 }, () => line({ t: 'reach' })).join('')
    const many = parseStream(flood, 'n1')
    expect(many.events).toHaveLength(MAX_EVENTS)
    expect(many.dropped).toBe(3)
  })

  it("a line without the run's nonce, a record outside a session or a broken last line is a problem", () => {
    const forged = line({ t: 'case', classname: 'a', name: 't1', outcome: 'passed' }, 'guess')
    const read = parseStream(
      line({ t: 'case', name: 'early', outcome: 'passed' }) +
        line({ t: 'start' }) +
        forged +
        'not json\n' +
        line({ t: 'case', name: 'x', outcome: 'maybe' }) +
        '{"t":"end"',
      'n1'
    )
    expect(read.cases).toEqual([])
    expect(read.started).toBe(1)
    expect(read.ended).toBe(0)
    expect(read.problems).toEqual([
      'the stream ends in the middle of a line',
      'a case record outside a session of the runner',
      'a case record without a name or an outcome',
      "2 line(s) on the stream were not written by the gate's reporter"
    ])
  })
})

describe('the stream against the file', () => {
  it('agrees when every test is in both with the same outcome class (failed and error are one)', () => {
    const file = [c('t1', 'failed'), c('t2', 'passed'), c('t2', 'error'), c('t3', 'skipped')]
    const stream = [c('t1', 'error'), c('t2', 'error'), c('t3', 'skipped')]
    expect(crossCheck(file, stream, '/wt', 'pytest')).toEqual([])
  })

  it('names each test the two disagree on', () => {
    const problems = crossCheck(
      [c('t1', 'passed'), c('t2', 'passed', { file: '/wt/o/a.test.js', classname: 'cart' })],
      [c('t1', 'failed'), c('t3', 'failed')],
      '/wt',
      'jest'
    )
    expect(problems).toEqual([
      'oracle.test_x::t1 was streamed failed but the report says passed',
      'o/a.test.js::cart > t2 is in the report (passed) but was never streamed',
      'oracle.test_x::t3 was streamed failed but is missing from the report'
    ])
  })

  it('node:test names no file: the describe chain tells two tests of one title apart', () => {
    const n = (suite: string, outcome: RawCase['outcome']): RawCase =>
      c('works', outcome, { classname: 'test', suites: [suite] })
    expect(
      crossCheck(
        [n('a', 'passed'), n('b', 'failed')],
        [n('a', 'passed'), n('b', 'failed')],
        '/',
        'node-test'
      )
    ).toEqual([])
    expect(
      crossCheck(
        [n('a', 'failed'), n('b', 'passed')],
        [n('a', 'passed'), n('b', 'failed')],
        '/',
        'node-test'
      )
    ).toHaveLength(2)
  })

  it('the vote takes the streamed cases; a stream cut short is tampering even when the file agrees', () => {
    const report = { files: ['j.xml'], cases: [c('t1', 'passed')] }
    const streamed = {
      state: 'read' as const,
      cases: [c('t1', 'failed')],
      started: 1,
      ended: 1,
      problems: [],
      events: [],
      dropped: 0,
      watched: 0
    }
    const judged = judgeStream(report, streamed, '/wt', 'pytest')
    expect(judged.report).toEqual({ files: ['j.xml'], cases: [c('t1', 'failed')] })
    expect(judged.stream).toEqual({
      state: 'tampered',
      problems: ['oracle.test_x::t1 was streamed failed but the report says passed']
    })
    const cut = judgeStream(
      report,
      { ...streamed, cases: [c('t1', 'passed')], ended: 0 },
      '/wt',
      'pytest'
    )
    expect(cut.stream).toEqual({
      state: 'tampered',
      problems: [
        'the stream was cut short: 1 test(s) streamed, the last oracle.test_x::t1, and the runner never reached its end'
      ]
    })
    const agrees = judgeStream(report, { ...streamed, cases: [c('t1', 'passed')] }, '/wt', 'pytest')
    expect(agrees.stream).toEqual({ state: 'agrees' })
    // The stream carries outcomes only: the card's failure message comes from the file.
    const failed = { files: [], cases: [c('t1', 'failed', { message: 'assert -3 >= 0' })] }
    const streamedFail = { ...streamed, cases: [c('t1', 'error')] }
    expect(judgeStream(failed, streamedFail, '/wt', 'pytest').report.cases).toEqual([
      c('t1', 'error', { message: 'assert -3 >= 0' })
    ])
    // Nothing at all on the stream: the reporter never loaded (judged against the base).
    expect(
      judgeStream(report, { ...streamed, cases: [], started: 0, ended: 0 }, '/wt', 'pytest')
    ).toEqual({
      report,
      stream: { state: 'silent' }
    })
  })
})
