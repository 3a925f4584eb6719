// The split of voting test files into shards (src/shard/split.ts): the same input in any
// order gives the same shards, every file is owned exactly once, and the loads are
// balanced by count or by weight.
import { describe, expect, it } from 'vitest'
import { byCodeUnit, parseShard, splitFiles, votingTestFiles } from '../src/shard/split.js'
import { planSlice } from '../src/shard/slice.js'
import { parsePolicy } from '../src/policy/load.js'
import type { Observation } from '../src/replay/transitions.js'
import type { Plane } from '../src/types.js'

const files = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => `oracle/properties/test_${String(i).padStart(3, '0')}.py`)

function shuffled<T>(xs: readonly T[], seed: number): T[] {
  const out = [...xs]
  let s = seed
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1103515245 + 12345) % 2 ** 31
    const j = s % (i + 1)
    ;[out[i], out[j]] = [out[j] as T, out[i] as T]
  }
  return out
}

describe('splitFiles', () => {
  it('is deterministic: any input order gives the same shards', () => {
    const all = files(37)
    const weight = (f: string): number => (f.charCodeAt(f.length - 4) % 7) + 1
    const first = splitFiles(all, 4, weight)
    for (const seed of [1, 2, 3, 99])
      expect(splitFiles(shuffled(all, seed), 4, weight)).toEqual(first)
  })

  it('owns every file exactly once, for every N', () => {
    const all = files(23)
    for (const n of [1, 2, 3, 5, 23, 30]) {
      const shards = splitFiles(all, n)
      expect(shards).toHaveLength(n)
      const owned = shards.flat()
      expect(owned.length).toBe(all.length)
      expect([...owned].sort(byCodeUnit)).toEqual(all)
    }
  })

  it('balances by count without weights (sizes differ by at most one)', () => {
    const sizes = splitFiles(files(38), 4).map(s => s.length)
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(38)
  })

  it('balances by weight: a heavy file gets a shard of its own', () => {
    const all = ['a.py', 'b.py', 'c.py', 'd.py', 'heavy.py']
    const weight = (f: string): number => (f === 'heavy.py' ? 40 : 10)
    const shards = splitFiles(all, 2, weight)
    const load = shards.map(s => s.reduce((t, f) => t + weight(f), 0))
    expect(load).toEqual([40, 40])
    expect(shards[0]).toEqual(['heavy.py'])
    // By count instead, the heavy file would share a shard: 3 and 2 files.
    expect(splitFiles(all, 2).map(s => s.length)).toEqual([3, 2])
  })

  it('breaks ties by path in code-unit order (upper case before lower case)', () => {
    expect(splitFiles(['b.py', 'B.py', 'a.py'], 3)).toEqual([['B.py'], ['a.py'], ['b.py']])
  })

  it('treats a missing or non-positive weight as 1 and ignores repeated paths', () => {
    const shards = splitFiles(['x', 'y', 'x'], 2, f => (f === 'x' ? Number.NaN : -3))
    expect(shards).toEqual([['x'], ['y']])
  })
})

describe('votingTestFiles', () => {
  it('keeps voting test files, not helpers, conftest.py or other planes', () => {
    const planeOf = (p: string) =>
      (p.startsWith('oracle/properties/') ? 'voting' : 'source') as never
    const testLike = (p: string): boolean => /(^|\/)test_[^/]*\.py$|conftest\.py$/.test(p)
    expect(
      votingTestFiles(
        [
          'oracle/properties/test_b.py',
          'oracle/properties/conftest.py',
          'oracle/properties/helpers.py',
          'oracle/properties/test_a.py',
          'app/test_x.py'
        ],
        planeOf,
        testLike
      )
    ).toEqual(['oracle/properties/test_a.py', 'oracle/properties/test_b.py'])
  })
})

describe('parseShard', () => {
  it('reads I/N and refuses anything else', () => {
    expect(parseShard('2/4')).toEqual({ index: 2, total: 4 })
    expect(parseShard(' 1 / 1 ')).toEqual({ index: 1, total: 1 })
    for (const bad of ['0/3', '4/3', '1/0', '3', 'a/b', '1/300', '-1/2'])
      expect(typeof parseShard(bad)).toBe('string')
  })
})

describe('planSlice: selection only where it cannot leave a test out', () => {
  const planes = {
    planeOf: (p: string): Plane => (p.startsWith('oracle/') ? 'voting' : 'source'),
    isTestLike: (p: string): boolean => /(^|\/)test_[^/]*\.py$/.test(p)
  }
  const suite = parsePolicy(
    'version: 1\nplanes:\n  voting: [oracle/**]\nsuite:\n  command: python -m pytest oracle --junitxml={junit}\n',
    'p.yml'
  ).suite
  const base = ['app/fee.py', 'oracle/test_a.py', 'oracle/test_b.py', 'oracle/conftest.py']

  it('selects the owned files through the runner when every voting source file is split', () => {
    const slice = planSlice({ index: 1, total: 2 }, base, planes, suite)
    expect(slice.files).toHaveLength(1)
    expect(slice.first(null)?.testArgs).toEqual(slice.files)
  })

  it('runs the whole suite when a voting source file is outside the split (it may hold tests)', () => {
    // pytest.ini could say python_files = check_*.py: the patterns do not know it.
    const slice = planSlice({ index: 1, total: 2 }, [...base, 'oracle/check_fee.py'], planes, suite)
    expect(slice.first(null)).toBeNull()
    // Its tests are kept by every shard (no shard owns the file; the merge keeps the worst).
    expect(slice.keep({ file: 'oracle/check_fee.py' } as Observation)).toBe(true)
  })
})
