// The JUnit report is written by the head's code: a FIFO, a device, a link out of the run's
// folder, deep nesting, too many cases or a parse that never ends must each be a clear
// ReportError (the side's vote is red), never a hang and never an unbounded allocation.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { parseText, readReport, ReportError } from '../src/replay/junit.js'

const GOOD = '<testsuite name="s"><testcase classname="m" name="t"/></testsuite>'
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'og-junit-hostile-'))
  dirs.push(d)
  return d
}

async function reason(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ReportError)
    return (error as Error).message
  }
  throw new Error('expected a ReportError')
}

describe('what the report may be', () => {
  it('refuses a FIFO at once, without waiting for a writer', async () => {
    const dir = temp()
    const fifo = join(dir, 'junit.xml')
    execFileSync('mkfifo', [fifo])
    // Opening it would block forever (no writer): the test's timeout is the bound, no clock.
    expect(await reason(readReport(fifo))).toMatch(/is a FIFO, not a regular file/)
  })

  it('refuses a FIFO inside a report directory', async () => {
    const dir = temp()
    mkdirSync(join(dir, 'reports'))
    writeFileSync(join(dir, 'reports', 'a.xml'), GOOD)
    execFileSync('mkfifo', [join(dir, 'reports', 'b.xml')])
    expect(await reason(readReport(join(dir, 'reports')))).toMatch(/b\.xml is a FIFO/)
  })

  it('refuses a device', async () => {
    expect(await reason(readReport('/dev/zero', { root: '/dev' }))).toMatch(
      /\/dev\/zero is a device, not a regular file/
    )
  })

  it('refuses a link that leads out of the run folder (to a device or any file)', async () => {
    const dir = temp()
    const outside = temp()
    writeFileSync(join(outside, 'report.xml'), GOOD)
    symlinkSync('/dev/zero', join(dir, 'zero.xml'))
    symlinkSync(join(outside, 'report.xml'), join(dir, 'junit.xml'))
    expect(await reason(readReport(join(dir, 'zero.xml')))).toMatch(/leads out of the run's folder/)
    expect(await reason(readReport(join(dir, 'junit.xml')))).toMatch(
      /leads out of the run's folder/
    )
  })

  it('reads a link that stays inside the run folder (the near miss)', async () => {
    const dir = temp()
    mkdirSync(join(dir, 'out'))
    writeFileSync(join(dir, 'out', 'real.xml'), GOOD)
    symlinkSync(join(dir, 'out', 'real.xml'), join(dir, 'junit.xml'))
    const report = await readReport(join(dir, 'junit.xml'), { root: dir })
    expect(report.cases.map(c => c.name)).toEqual(['t'])
  })

  it('names a dangling link', async () => {
    const dir = temp()
    symlinkSync(join(dir, 'nowhere.xml'), join(dir, 'junit.xml'))
    expect(await reason(readReport(join(dir, 'junit.xml')))).toMatch(/dangling/)
  })
})

describe('limits', () => {
  it('caps nesting with a reason, in little memory (12,000 nested suites)', async () => {
    const dir = temp()
    const file = join(dir, 'deep.xml')
    const n = 12_000
    writeFileSync(
      file,
      `<testsuites>${'<testsuite name="s">'.repeat(n)}<testcase name="x"/>${'</testsuite>'.repeat(n)}</testsuites>`
    )
    const before = process.memoryUsage().heapUsed
    expect(await reason(readReport(file))).toMatch(/nested more than 64 deep \(the limit\)/)
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(200 * 1024 * 1024)
  })

  it('accepts nesting up to the limit and keeps the chain of suite names', () => {
    const depth = 64
    const text = `${'<testsuite name="s">'.repeat(depth)}<testcase name="x"/>${'</testsuite>'.repeat(depth)}`
    const [c] = parseText(text)
    expect(c?.suites).toHaveLength(depth)
  })

  it('shares the chain of suite names between the cases of one suite', () => {
    const cases = parseText(
      '<testsuite name="a"><testsuite name="b"><testcase name="x"/><testcase name="y"/></testsuite></testsuite>'
    )
    expect(cases[0]?.suites).toEqual(['a', 'b'])
    expect(cases[0]?.suites).toBe(cases[1]?.suites)
  })

  it('caps the number of cases with a reason', async () => {
    const dir = temp()
    const file = join(dir, 'many.xml')
    writeFileSync(file, `<testsuite>${'<testcase name="x"/>'.repeat(11)}</testsuite>`)
    expect(await reason(readReport(file, { maxCases: 10 }))).toMatch(
      /more than 10 <testcase> elements \(the limit\)/
    )
  })

  it('stops at the deadline with a reason', async () => {
    const dir = temp()
    const file = join(dir, 'slow.xml')
    writeFileSync(file, `<testsuite>${'<testcase name="x"/>\n'.repeat(400_000)}</testsuite>`)
    expect(await reason(readReport(file, { deadlineMs: 1 }))).toMatch(
      /took longer than the limit of 1 ms/
    )
  })
})
