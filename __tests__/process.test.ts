// The process wrapper (issue 22): a timeout beyond what a timer holds is clamped (not
// fired at once), a multi-byte character split across two writes stays whole in the
// tail, and captured stdout past its limit kills the run with a reason naming the limit.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_CAPTURE_BYTES, MAX_TIMER_MS, runShell, timerDelay } from '../src/exec/process.js'
import { validatePolicyObject } from '../src/policy/validate.js'

const dirs: string[] = []
afterEach(() => {
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'og-process-'))
  dirs.push(dir)
  return dir
}

/** Runs a node script in the wrapper (node, not Python: the fast tier needs no Python). */
function runNode(script: string, captureStdout = false, timeoutSec = 600) {
  const dir = tempDir()
  return runShell({
    command: `"${process.execPath}" -e '${script}'`,
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir },
    timeoutSec,
    logFile: join(dir, 'run.log'),
    captureStdout
  }).then(result => ({ result, log: readFileSync(join(dir, 'run.log')) }))
}

/**
 * Script text for the child: `until(n)` waits until the wrapper has written n bytes of the
 * child's output to its log, so each write reaches the wrapper as a chunk of its own (a
 * condition, not a pause of some length: the tier has no real sleeps).
 */
const UNTIL_LOGGED = [
  'const fs = require("fs");',
  'const pause = new Int32Array(new SharedArrayBuffer(4));',
  // run.log may not exist yet when the child first looks (the wrapper opens it on its
  // first write): a missing log is an empty one, not an error.
  'const size = () => fs.statSync("run.log", { throwIfNoEntry: false })?.size ?? 0;',
  'const until = n => { while (size() < n) Atomics.wait(pause, 0, 0, 2) };'
].join(' ')

describe('timerDelay', () => {
  it('keeps ordinary timeouts and clamps what a timer cannot hold', () => {
    expect(timerDelay(600)).toBe(600_000)
    expect(timerDelay(0.0004)).toBe(1)
    // 2,200,000 s overflowed setTimeout and "timed out" after a few milliseconds.
    expect(2_200_000 * 1000).toBeGreaterThan(MAX_TIMER_MS)
    expect(timerDelay(2_200_000)).toBe(MAX_TIMER_MS)
    expect(timerDelay(Number.POSITIVE_INFINITY)).toBe(MAX_TIMER_MS)
    expect(timerDelay(Number.NaN)).toBe(MAX_TIMER_MS)
    expect(MAX_TIMER_MS).toBe(2147483647)
  })

  it('the schema caps suite.timeout, suite.setup_timeout and seeds.timeout at 7 days', () => {
    const policy = (suite: object, seeds: object = {}) => ({
      version: 1,
      planes: { voting: ['t/**'] },
      suite: { command: 'true', ...suite },
      seeds: { corpus: 'c.json', command: 'run', ...seeds }
    })
    expect(
      validatePolicyObject(policy({ timeout: 604800, setup_timeout: 604800 }, { timeout: 604800 }))
    ).toEqual([])
    for (const [suite, seeds, key] of [
      [{ timeout: 2_200_000 }, {}, 'suite.timeout'],
      [{ setup_timeout: 604801 }, {}, 'suite.setup_timeout'],
      [{}, { timeout: 2_200_000 }, 'seeds.timeout']
    ] as const) {
      const issues = validatePolicyObject(policy(suite, seeds))
      expect(
        issues.map(i => i.path.join('.')),
        key
      ).toEqual([key])
      expect(issues[0]!.message).toMatch(/604800/)
    }
  })
})

describe('runShell timeout', () => {
  it('a timeout beyond a timer does not fire at once (it did after ~26 ms)', async () => {
    // The child outlives a turn of the wrapper's event loop: it ends only after the wrapper
    // has logged its first line (an overflowed timer had fired and killed it by then).
    const { result } = await runNode(
      `${UNTIL_LOGGED} console.log("started"); until(8); console.log("done")`,
      false,
      2_200_000
    )
    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBe(0)
    expect(result.tail).toBe('started\ndone')
  })
})

describe('runShell output', () => {
  it('keeps a multi-byte character split across two writes whole in the tail', async () => {
    // "é" is C3 A9 and "😀" F0 9F 98 80: each is cut between two writes, each write
    // waiting until the wrapper has logged the one before.
    const script = [
      UNTIL_LOGGED,
      'const w = b => process.stderr.write(Buffer.from(b));',
      'w([0x61, 0xc3]); until(2);',
      'w([0xa9, 0x62, 0xf0, 0x9f]); until(6);',
      'w([0x98, 0x80, 0x0a])'
    ].join(' ')
    const { result, log } = await runNode(script)
    expect(result.exitCode).toBe(0)
    expect(result.tail).toBe('aéb😀')
    expect(result.tail).not.toContain('\uFFFD')
    expect(log.toString('utf8')).toBe('aéb😀\n')
  })

  it('the same split on stdout, and a character cut off at the end is one U+FFFD, not lost output', async () => {
    const { result } = await runNode(
      `${UNTIL_LOGGED} process.stdout.write(Buffer.from([0xe2, 0x82])); until(2); process.stdout.write(Buffer.from([0xac, 0x0a, 0xe2]))`
    )
    expect(result.tail).toBe('€\n\uFFFD')
  })

  it('captures stdout up to the limit', async () => {
    const { result } = await runNode(
      'process.stdout.write("{\\"id\\": \\"1\\", \\"ok\\": true}\\n")',
      true
    )
    expect(result.stdout).toBe('{"id": "1", "ok": true}\n')
    expect(result.failure).toBeUndefined()
  })

  it('captured stdout past the limit kills the run, discards it and names the limit', async () => {
    expect(MAX_CAPTURE_BYTES).toBe(64 * 1024 * 1024)
    // 1 MiB blocks, forever: only the cap ends this run (the timeout is 600 s).
    const { result } = await runNode(
      'const b = Buffer.alloc(1 << 20, 120); const go = () => process.stdout.write(b, go); go()',
      true
    )
    expect(result.timedOut).toBe(false)
    expect(result.exitCode).toBeNull()
    expect(result.signal).toBe('SIGKILL')
    expect(result.stdout).toBe('')
    expect(result.failure).toMatch(/exceeded the 64 MiB limit/)
    expect(result.tail).toMatch(/oracle-gate: captured stdout exceeded the 64 MiB limit/)
  })

  it('onSpawn is called once while the child runs, not after it', async () => {
    const dir = tempDir()
    const calls: number[] = []
    const result = await runShell({
      // The child waits for the file onSpawn leaves (at most 60 s), and fails without it.
      command: `for i in $(seq 600); do [ -e go ] && break; sleep 0.1; done; [ -e go ]`,
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      timeoutSec: 120,
      logFile: join(dir, 'run.log'),
      onSpawn: () => {
        calls.push(Date.now())
        writeFileSync(join(dir, 'go'), '')
      }
    })
    expect(calls).toHaveLength(1)
    // Without the call the child would have waited out its loop and failed.
    expect(result.exitCode).toBe(0)
  })

  it('an onSpawn that throws kills the child group (nothing outlives the run) and rejects', async () => {
    const dir = tempDir()
    // A background grandchild that would live for 10 minutes, and the shell waiting for it:
    // only the group's kill ends this run before the test's own timeout.
    const run = runShell({
      command: `sleep 600 & wait`,
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      timeoutSec: 600,
      logFile: join(dir, 'run.log'),
      onSpawn: () => {
        throw new Error('boom in onSpawn')
      }
    })
    const started = Date.now()
    await expect(run).rejects.toThrow('boom in onSpawn')
    expect(Date.now() - started).toBeLessThan(60_000)
  })
})
