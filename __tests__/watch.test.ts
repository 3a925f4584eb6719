// The watch plan's delivery (src/replay/watch.ts): fed through a pipe at descriptor 4 that
// the gate's pytest reporter reads to its end when it loads. A real pytest run shows the
// reporter read it (the session starts watched), that the product finds neither the pipe's
// bytes nor the variable that named it, and that without a feed the session is not watched.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runShell } from '../src/exec/process.js'
import { planStream, reportersDir } from '../src/replay/stream.js'
import { encodeWatch, toRanges } from '../src/replay/watch.js'
import { pythonWithPytest } from './helpers/python.js'

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe('line ranges', () => {
  it('folds line numbers into sorted ranges', () => {
    expect(toRanges([9, 3, 4, 5, 3, 12])).toEqual([
      [3, 5],
      [9, 9],
      [12, 12]
    ])
    expect(toRanges([])).toEqual([])
  })
})

describe('the watch plan reaches the reporter and nothing else', () => {
  // The product's test looks for the plan where it could be: the variable, descriptor 4
  // (and every descriptor of its own), and writes what it found beside the log.
  const probe = `
import os, json
def test_probe():
    found = {"var": os.environ.get("TEST_OUTCOME_STREAM"), "fds": {}}
    for name in os.listdir("/proc/self/fd"):
        fd = int(name)
        if fd < 3:
            continue
        try:
            os.set_blocking(fd, False)
            found["fds"][name] = os.read(fd, 4096).decode("utf-8", "replace")
        except OSError:
            pass
    with open(os.environ["PROBE_OUT"], "w") as out:
        json.dump(found, out)
`

  async function run(feed: Buffer | undefined): Promise<{
    watched: number
    started: number
    found: { var: string | null; fds: Record<string, string> }
  }> {
    const dir = mkdtempSync(join(tmpdir(), 'watch-'))
    dirs.push(dir)
    writeFileSync(join(dir, 'test_probe.py'), probe)
    const python = pythonWithPytest()
    const plan = planStream(
      `${python} -m pytest -q -p no:cacheprovider`,
      'pytest',
      {},
      reportersDir(),
      feed
    )
    const result = await runShell({
      command: plan.command,
      cwd: dir,
      env: { PATH: process.env.PATH, ...plan.env, PROBE_OUT: join(dir, 'found.json') },
      timeoutSec: 120,
      logFile: join(dir, 'log'),
      ...plan.shell
    })
    expect(result.exitCode).toBe(0)
    const outcome = plan.outcome()
    if (outcome.state !== 'read') throw new Error('no stream')
    return {
      watched: outcome.watched,
      started: outcome.started,
      found: JSON.parse(readFileSync(join(dir, 'found.json'), 'utf8'))
    }
  }

  it('a fed plan is read by the reporter: the session starts watched, the product finds none of it', async () => {
    const plan = encodeWatch(
      { lines: { 'pkg/fee.py': [[3, 4]] }, instrument: ['tests'], reach: true, cover: false },
      '/root/project'
    )
    const seen = await run(plan)
    expect(seen).toMatchObject({ watched: 1, started: 1 })
    expect(seen.found.var).toBeNull()
    for (const text of Object.values(seen.found.fds)) expect(text).not.toContain('pkg/fee.py')
  })

  it('without a feed the session is not watched', async () => {
    expect(await run(undefined)).toMatchObject({ watched: 0, started: 1 })
  })
})
