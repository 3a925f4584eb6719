// Sharded replay end to end on a real pytest + hypothesis suite: `check --shard I/3` three
// times plus `merge` gives the verdict, votes, transitions and seeds of one unsharded
// `check`, for a merge, a product and a policy case; each shard runs only its own files
// (the runner's selection) and the split owns each voting file once; a missing,
// duplicated, foreign or altered shard makes the merge an error naming it.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { shardDigest } from '../src/shard/digest.js'
import type { Scorecard } from '../src/types.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { judged, runMerge, runShards, runUnsharded } from './helpers/shards.js'

const PY = pythonWithPytest()

const CALC = `def add(a, b):
    return a + b


def mul(a, b):
    return a * b


def neg(x):
    return -x


def absval(x):
    return x  # bug: negative numbers stay negative
`
const FIXED = CALC.replace(
  'return x  # bug: negative numbers stay negative',
  'return -x if x < 0 else x'
)

const header = `import os

from hypothesis import given, settings, strategies as st

from app import calc

fast = settings(max_examples=int(os.environ.get("ORACLE_GATE_MAX_EXAMPLES", "20")), derandomize=True, database=None, deadline=None)
`
const TESTS: Record<string, string> = {
  'oracle/properties/test_abs.py': `${header}

@fast
@given(st.integers())
def test_abs_non_negative(x):
    assert calc.absval(x) >= 0


@fast
@given(st.integers(min_value=0))
def test_abs_of_positive(x):
    assert calc.absval(x) == x
`,
  'oracle/properties/test_add.py': `${header}

@fast
@given(st.integers(), st.integers())
def test_add_commutes(a, b):
    assert calc.add(a, b) == calc.add(b, a)
`,
  'oracle/properties/test_mul.py': `${header}

@fast
@given(st.integers(), st.integers())
def test_mul_commutes(a, b):
    assert calc.mul(a, b) == calc.mul(b, a)


@fast
@given(st.integers())
def test_mul_by_one(a):
    assert calc.mul(a, 1) == a
`,
  'oracle/properties/test_neg.py': `${header}

@fast
@given(st.integers())
def test_neg_twice(x):
    assert calc.neg(calc.neg(x)) == x
`,
  'oracle/properties/sub/test_zero.py': `${header}

def test_add_zero():
    assert calc.add(3, 0) == 3
`
}

const REPLAY = `import json, os, sys
sys.path.insert(0, os.getcwd())
from app import calc
for line in sys.stdin:
    seed = json.loads(line)
    x = seed["payload"]["x"]
    print(json.dumps({"id": seed["id"], "ok": calc.absval(x) == abs(x)}))
`
const CORPUS = JSON.stringify({
  property: 'absval',
  seeds: [
    { id: 's1', payload: { x: -5 } },
    { id: 's2', payload: { x: -123456, tags: ['overdraft', 'frozen', 'apac'] } },
    { id: 's3', payload: { x: 4 } }
  ]
})

const POLICY = `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/properties/**]
  drafts: [drafts/**]
  in_diff: [tests/**]
suite:
  command: ${PY} -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}
  timeout: 120
  reruns: 1
campaign: {seed: 7, max_examples: 15, wall_clock: 30}
seeds:
  corpus: oracle/seeds.json
  command: ${PY} oracle/replay.py
  min_hits: 1
  min_distance: 8
  timeout: 60
`

const repos: TestRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function scenario(head: Record<string, string>): TestRepo {
  const repo = new TestRepo()
  repos.push(repo)
  repo.write({
    '.github/oracle-gate.yml': POLICY,
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': CALC,
    'oracle/replay.py': REPLAY,
    'oracle/seeds.json': CORPUS,
    'oracle/properties/conftest.py': '',
    ...TESTS
  })
  repo.commit('base')
  repo.branch('agent')
  repo.write(head)
  repo.commit('agent patch')
  return repo
}

const VOTING = Object.keys(TESTS).sort()
const testsIn = (file: string): number => (TESTS[file]?.match(/^def test_/gm) ?? []).length

/** Three shards and the merge, compared with one unsharded check. */
async function sameAsUnsharded(
  repo: TestRepo,
  replays = true
): Promise<{ merged: Scorecard; shards: Scorecard[]; files: string[] }> {
  const plain = await runUnsharded(repo)
  const run = await runShards(repo, 3)
  dirs.push(run.dir)
  const merged = await runMerge(repo, run.files)
  expect(judged(merged.card)).toEqual(judged(plain.card))
  expect(merged.exit).toBe(plain.exit)
  // The split owns each voting file exactly once, and each shard ran only its own files.
  const owned = run.shards.map(s => s.shard?.files ?? [])
  expect(owned.flat().sort()).toEqual(replays ? VOTING : [])
  for (const s of run.shards) {
    if (!replays) continue
    expect(s.shard?.observed?.selection).toBe('runner')
    const own = (s.shard?.files ?? []).reduce((n, f) => n + testsIn(f), 0)
    expect(s.runs.map(r => r.tests)).toEqual([own, own])
  }
  expect(merged.card.shard).toBeUndefined()
  return { merged: merged.card, shards: run.shards, files: run.files }
}

describe(
  'sharded replay (pytest): three shards and a merge judge like one check',
  { timeout: 600_000 },
  () => {
    it('merge: an honest fix, its hits and its seed hits', async () => {
      const repo = scenario({ 'app/calc.py': FIXED })
      const { merged, shards } = await sameAsUnsharded(repo)
      expect(merged.verdict).toBe('merge')
      expect(merged.transitions.fail_to_pass).toEqual([
        'oracle/properties/test_abs.py::test_abs_non_negative'
      ])
      expect(merged.seeds.oracle_hits).toBeGreaterThan(0)
      // Shard 1 alone runs the seeds command: the others' cards carry no seed answers.
      expect(shards.map(s => s.shard?.observed?.base.seeds !== undefined)).toEqual([
        true,
        false,
        false
      ])
    })

    it("product: a regression in one shard's file; the other shards alone look green", async () => {
      const repo = scenario({
        'app/calc.py': FIXED.replace('return a * b', 'return a * b - (a < 0)')
      })
      const { merged, shards, files } = await sameAsUnsharded(repo)
      expect(merged.verdict).toBe('product')
      expect(merged.transitions.pass_to_fail).toContain(
        'oracle/properties/test_mul.py::test_mul_by_one'
      )
      // The naive reading: every shard but the one owning test_mul.py is green on its own, so
      // merging only the shards that arrived would pass. The merge refuses a missing shard.
      const owner = shards.findIndex(s => s.shard?.files.includes('oracle/properties/test_mul.py'))
      const others = shards.filter((_, i) => i !== owner)
      expect(others.map(s => s.verdict)).toEqual(['merge', 'merge'])
      const missing = await runMerge(
        repo,
        files.filter((_, i) => i !== owner)
      )
      expect(missing.card.verdict).toBe('error')
      expect(missing.exit).toBe(4)
      expect(missing.card.reasons[0]?.message).toMatch(
        new RegExp(`shard ${owner + 1}/3 is missing`)
      )
    })

    it('policy: an ungoverned test beside the fix', async () => {
      const repo = scenario({
        'app/calc.py': FIXED,
        'app/test_extra.py': 'def test_x():\n    assert True\n'
      })
      const { merged } = await sameAsUnsharded(repo)
      expect(merged.verdict).toBe('policy')
      expect(merged.reasons.map(r => r.rule)).toContain('ungoverned-test')
    })

    it('policy before the replay: the patch rewrote a voting file, no shard replays', async () => {
      const abs = TESTS['oracle/properties/test_abs.py'] ?? ''
      const repo = scenario({
        'oracle/properties/test_abs.py': abs.replace('>= 0', '>= -(10**30)')
      })
      const { merged, shards } = await sameAsUnsharded(repo, false)
      expect(merged.verdict).toBe('policy')
      expect(shards.map(s => s.shard?.observed)).toEqual([undefined, undefined, undefined])
    })
  }
)

describe('the merge refuses shards it cannot vouch for', { timeout: 600_000 }, () => {
  it('duplicated, foreign (another head, another N), altered (edited, or files swapped and resealed)', async () => {
    const repo = scenario({ 'app/calc.py': FIXED })
    const run = await runShards(repo, 3)
    dirs.push(run.dir)
    const [one, two, three] = run.files as [string, string, string]
    const good = await runMerge(repo, run.files)
    expect(good.card.verdict).toBe('merge')

    const refused = async (files: string[], pattern: RegExp): Promise<void> => {
      const { card, exit } = await runMerge(repo, files)
      expect(card.verdict).toBe('error')
      expect(exit).toBe(4)
      expect(card.reasons.find(r => r.level === 'failure')?.message).toMatch(pattern)
    }
    await refused([one, two, two], /shard-2\.json \(shard 2\/3\) is duplicated/)
    await refused([one, two], /shard 3\/3 is missing/)

    // Foreign: shard 3 of another head of the same base.
    repo.branch('agent2', 'agent')
    repo.write({ 'app/other.py': 'X = 1\n' })
    repo.commit('another head')
    const other = await runShards(repo, 3, 'agent2', [3])
    dirs.push(other.dir)
    await refused(
      [one, two, other.files[0] ?? ''],
      /shard-3\.json \(shard 3\/3\) is foreign: its head differ/
    )
    // Foreign: a shard of a split in two.
    const halves = await runShards(repo, 2, 'agent', [2])
    dirs.push(halves.dir)
    await refused([one, two, halves.files[0] ?? ''], /is foreign: a shard of 2/)

    // Altered: an outcome edited after the run (the digest no longer matches).
    const edited = JSON.parse(readFileSync(three, 'utf8')) as Scorecard
    const headResults = edited.shard?.observed?.head.results ?? []
    for (const o of headResults)
      o.outcomes = o.outcomes.map(x => (x === 'passed' ? 'failed' : 'passed'))
    const editedPath = join(run.dir, 'edited.json')
    writeFileSync(editedPath, JSON.stringify(edited))
    await refused([one, two, editedPath], /edited\.json \(shard 3\/3\) was altered: its digest/)

    // Altered and resealed: shard 3 claims shard 2's files. The digest matches, the split
    // of the merge base does not.
    const swapped = JSON.parse(readFileSync(three, 'utf8')) as Scorecard
    const block = swapped.shard
    if (!block) throw new Error('no shard block')
    const second = JSON.parse(readFileSync(two, 'utf8')) as Scorecard
    block.files = [...(second.shard?.files ?? [])]
    block.digest = shardDigest(block)
    const swappedPath = join(run.dir, 'swapped.json')
    writeFileSync(swappedPath, JSON.stringify(swapped))
    await refused([one, two, swappedPath], /owned twice/)
    // ... and with shard 2 left out too, the re-derived split still refuses it.
    block.files = [
      ...(second.shard?.files ?? []),
      ...(JSON.parse(readFileSync(three, 'utf8')) as Scorecard).shard!.files
    ]
    block.index = 2
    block.digest = shardDigest(block)
    writeFileSync(swappedPath, JSON.stringify(swapped))
    const fakeThree = JSON.parse(readFileSync(three, 'utf8')) as Scorecard
    fakeThree.shard!.files = []
    fakeThree.shard!.digest = shardDigest(fakeThree.shard!)
    const fakePath = join(run.dir, 'fake3.json')
    writeFileSync(fakePath, JSON.stringify(fakeThree))
    await refused([one, swappedPath, fakePath], /was altered: its files are not the split/)

    // Not a shard at all: a card without the shard block.
    const plain = JSON.parse(readFileSync(one, 'utf8')) as Scorecard
    delete plain.shard
    const plainPath = join(run.dir, 'plain.json')
    writeFileSync(plainPath, JSON.stringify(plain))
    await refused([one, two, plainPath], /plain\.json is not a shard scorecard/)
  }, 600_000)
})
