// A generated production file far over the lints' 8 MiB read limit (tens of MB, streamed
// to disk here) no longer stops a pull request at the lints: an honest change to it passes
// every lint, a reach pattern on its added lines is still found at its line, and a new
// file whose added text is over the limit is named in a notice. A file rewritten whole,
// whose -U0 diff is larger than the 1 GiB buffer git's output once went through, is read
// as a stream: its first added lines linted, the rest counted in the notice. Test files
// keep the limit (padding a test must not be a way around the lints): memory-bounds.test.ts.
import {
  closeSync,
  createWriteStream,
  ftruncateSync,
  mkdirSync,
  openSync,
  writeSync
} from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { LintKey } from '../src/lints/registry.js'
import { lintScenario } from './lints-helpers.js'

const ALL: LintKey[] = [
  'ungoverned-test',
  'skip-marker',
  'judge-import',
  'literal-overlap',
  'oracle-reach'
]
const MB = 1_000_000

/** Writes `path` (under `dir`) as `bytes` of generated Python rows, then `tail`; the row count. */
async function generated(dir: string, path: string, bytes: number, tail = ''): Promise<number> {
  const file = join(dir, path)
  await mkdir(dirname(file), { recursive: true })
  const out = createWriteStream(file)
  const write = (s: string): Promise<void> =>
    out.write(s) ? Promise.resolve() : new Promise(r => out.once('drain', () => r()))
  let written = 0
  let buf = ''
  let i = 0
  for (; written + buf.length < bytes; i++) {
    buf += `ROW_${i} = ("generated value number ${i}", ${i})\n`
    if (buf.length > 1 << 20) {
      written += buf.length
      await write(buf)
      buf = ''
    }
  }
  await write(buf + tail)
  await new Promise<void>(r => out.end(() => r()))
  return i
}

/**
 * Writes `path` as `head`, then `lines` lines of `width` bytes: a `prefix` and its number,
 * NUL bytes to the width (left as holes: a sparse file, nothing written), a newline; its
 * size. Few, long lines: git's diff of two such files is cheap to compute.
 */
function longLines(
  dir: string,
  path: string,
  shape: { lines: number; width: number; prefix: string; head?: string }
): number {
  const file = join(dir, path)
  mkdirSync(dirname(file), { recursive: true })
  const fd = openSync(file, 'w')
  try {
    const head = Buffer.from(shape.head ?? '')
    writeSync(fd, head, 0, head.length, 0)
    for (let i = 0; i < shape.lines; i++) {
      const start = head.length + i * (shape.width + 1)
      const prefix = Buffer.from(`${shape.prefix}${i} = "`)
      writeSync(fd, prefix, 0, prefix.length, start)
      writeSync(fd, Buffer.from('"\n'), 0, 2, start + shape.width - 1)
    }
    const size = head.length + shape.lines * (shape.width + 1)
    ftruncateSync(fd, size)
    return size
  } finally {
    closeSync(fd)
  }
}

const base = { 'tests/test_app.py': 'def test_app():\n    assert 1 + 1 == 2\n' }
const testHead = {
  'tests/test_app.py': 'def test_app():\n    assert "totals per region" != ""\n'
}

describe('a large generated production file', () => {
  it('with an honest change passes every lint', async () => {
    const { reasons, log } = await lintScenario({
      base,
      head: testHead,
      lints: ALL,
      generate: {
        base: async dir => void (await generated(dir, 'src/app/data.py', 30 * MB)),
        head: async dir =>
          void (await generated(dir, 'src/app/data.py', 30 * MB, 'TOTAL = "totals per region"\n'))
      }
    })
    expect(reasons.filter(r => r.level === 'failure' || r.level === 'warning')).toEqual([])
    expect(log.join('\n')).toMatch(/oracle-reach: 1 production file\(s\) parsed/)
  }, 300_000)

  it('still has a reach pattern on its added lines found, at its line', async () => {
    let rows = 0
    const { reasons } = await lintScenario({
      base,
      head: testHead,
      lints: ALL,
      generate: {
        base: async dir => void (await generated(dir, 'src/app/data.py', 30 * MB)),
        head: async dir => {
          rows = await generated(
            dir,
            'src/app/data.py',
            30 * MB,
            'import os\nif os.environ.get("PYTEST_CURRENT_TEST"):\n    TOTAL = 5\n'
          )
        }
      }
    })
    const reach = reasons.filter(r => r.rule === 'oracle-reach')
    expect(reach).toHaveLength(1)
    expect(reach[0]).toMatchObject({ level: 'failure', path: 'src/app/data.py' })
    expect(reach[0]?.message).toMatch(/PYTEST_CURRENT_TEST.*\[markers\]/)
    // The second line of the tail, after the generated rows.
    expect(rows).toBeGreaterThan(100_000)
    expect(reach[0]?.line).toBe(rows + 2)
  }, 300_000)

  it('added whole and over the added-text limit is named in a notice, not an error', async () => {
    const { reasons } = await lintScenario({
      base: {},
      head: {},
      lints: ALL,
      generate: { head: async dir => void (await generated(dir, 'src/app/table.py', 10 * MB)) }
    })
    expect(reasons).toEqual([
      expect.objectContaining({
        rule: 'oracle-reach',
        level: 'notice',
        path: 'src/app/table.py',
        message: expect.stringMatching(
          /^9\.5 MiB of the text added to this 9\.5 MiB file was not read: the lints read up to 8 MiB of added text per large file \(the limit\)/
        )
      })
    ])
  }, 300_000)

  it('rewritten whole, its diff over the old 1 GiB buffer: read as a stream, within the limit', async () => {
    const MiB = 1024 * 1024
    const shape = { lines: 36, width: 16 * MiB }
    const reachLines = 'import os\nif os.environ.get("PYTEST_CURRENT_TEST"):\n    TOTAL = 5\n'
    let baseSize = 0
    let headSize = 0
    const { reasons } = await lintScenario({
      base: {},
      head: {},
      lints: ALL,
      generate: {
        base: async dir => {
          baseSize = longLines(dir, 'src/app/blob.py', { ...shape, prefix: 'B_' })
          return Promise.resolve()
        },
        head: async dir => {
          headSize = longLines(dir, 'src/app/blob.py', { ...shape, prefix: 'H_', head: reachLines })
          return Promise.resolve()
        }
      }
    })
    // Every line is rewritten: the -U0 diff holds all of both files, over 1 GiB.
    expect(baseSize + headSize).toBeGreaterThan(1024 * MiB)
    // The short added lines first are linted, at their line ...
    const reach = reasons.filter(r => r.rule === 'oracle-reach' && r.level === 'failure')
    expect(reach).toEqual([expect.objectContaining({ path: 'src/app/blob.py', line: 2 })])
    // ... and the long ones, each over the limit, are named unread: all but those three.
    const unread = headSize - Buffer.byteLength(reachLines)
    const mib = (n: number) => (n / MiB).toFixed(1)
    expect(reasons.filter(r => r.level === 'notice')).toEqual([
      expect.objectContaining({
        rule: 'oracle-reach',
        path: 'src/app/blob.py',
        message: `${mib(unread)} MiB of the text added to this ${mib(headSize)} MiB file was not read: the lints read up to 8 MiB of added text per large file (the limit)`
      })
    ])
  }, 600_000)
})
