import { createHash } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import { runFacts, type GateContext } from '../src/context.js'
import { check } from '../src/gate.js'
import { Git } from '../src/git/git.js'
import { EMPTY_LEDGER } from '../src/ledger/index.js'
import { runLints } from '../src/lints/index.js'
import { checkInstrument, instrumentOverlay, instrumentTouched } from '../src/instrument/index.js'
import { parsePolicy } from '../src/policy/load.js'
import type { Reason, WriteSetRow } from '../src/types.js'
import { buildWriteSet } from '../src/writeset/index.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

const POLICY = '.github/oracle-gate.yml'
const sha256 = (s: string): string => createHash('sha256').update(s).digest('hex')

const PYPROJECT = `[project]
name = "app"
dependencies = ["requests>=2"]

[tool.pytest.ini_options]
addopts = "-q"
testpaths = ["oracle/properties"]

[tool.black]
line-length = 100
`

const repos: TestRepo[] = []
afterEach(() => {
  while (repos.length) repos.pop()?.cleanup()
})

/** A base commit on main with an oracle, a fixture manifest and a product; then branch pr. */
function baseRepo(extraPolicy = ''): TestRepo {
  const repo = new TestRepo()
  repos.push(repo)
  repo.write({
    [POLICY]: policyYaml(`fixtures: oracle/fixtures/manifest.json\n${extraPolicy}`),
    'oracle/properties/test_sort.py': 'def test_sort():\n    assert sorted([2, 1]) == [1, 2]\n',
    'oracle/fixtures/golden.txt': 'golden\n',
    'oracle/fixtures/manifest.json': JSON.stringify({
      golden: { file: 'golden.txt', sha256: sha256('golden\n') }
    }),
    'src/app.py': 'def add(a, b):\n    return a + b\n',
    'tests/test_app.py': 'from src.app import add\n',
    'pyproject.toml': PYPROJECT,
    'setup.cfg': '[metadata]\nname = app\n\n[tool:pytest]\naddopts = -q\n',
    'package.json': JSON.stringify(
      { name: 'app', scripts: { test: 'jest', build: 'tsc' }, dependencies: { a: '1.0.0' } },
      null,
      2
    )
  })
  repo.commit('base')
  repo.branch('pr')
  return repo
}

interface Judged {
  rows: WriteSetRow[]
  reasons: Reason[]
  rules: string[]
  oracle: { base_digest: string; head_digest: string; unchanged: boolean }
  overlay: { restore: string[]; remove: string[] }
}

async function judge(repo: TestRepo): Promise<Judged> {
  const git = new Git(repo.dir, process.env)
  const head = repo.sha('HEAD')
  const mergeBase = await git.mergeBase(repo.sha('main'), head)
  const policy = parsePolicy((await git.showText(mergeBase, POLICY)) ?? '', POLICY)
  const rows = await buildWriteSet(git, mergeBase, head, policy, null, runFacts(git, policy))
  const ctx: GateContext = {
    ...runFacts(git, policy),
    repoDir: repo.dir,
    git,
    policy,
    mergeBase,
    head,
    today: '2026-01-01',
    log: memoryLogger(),
    writeSet: rows,
    childEnv: {},
    tempDir: repo.dir
  }
  const instrument = await checkInstrument(ctx)
  const { oracle, view } = instrument
  // ungoverned-test is decided by the write-set classifier and reported by its lint.
  const reasons = [
    ...instrument.reasons,
    ...(await runLints(ctx, EMPTY_LEDGER, ['ungoverned-test']))
  ]
  const overlay = await instrumentOverlay({ ...ctx, instrument: view })
  return { rows, reasons, rules: [...new Set(reasons.map(r => r.rule))].sort(), oracle, overlay }
}

function only(reasons: Reason[], rule: string): Reason[] {
  return reasons.filter(r => r.rule === rule)
}

describe('quiet patches', () => {
  it('a product change touches nothing of the instrument', async () => {
    const repo = baseRepo()
    repo.write({
      'src/app.py': 'def add(a, b):\n    return b + a\n',
      'tests/test_app.py': 'from src.app import add\n\ndef test_add():\n    assert add(1, 2) == 3\n'
    })
    repo.commit('product')
    const j = await judge(repo)
    expect(j.reasons).toEqual([])
    expect(j.oracle.unchanged).toBe(true)
    expect(j.oracle.base_digest).toMatch(/^sha256:[0-9a-f]{64}$/)
    expect(j.overlay).toEqual({ restore: [], remove: [] })
    expect(j.rows.map(r => [r.path, r.status, r.plane, r.action])).toEqual([
      ['src/app.py', 'modified', 'source', 'continue'],
      ['tests/test_app.py', 'modified', 'in_diff', 'continue']
    ])
  })
})

describe('protected-path and oracle-digest', () => {
  it('fires on an edit of a voting test, and the overlay restores it', async () => {
    const repo = baseRepo()
    repo.write({ 'oracle/properties/test_sort.py': 'def test_sort():\n    assert True\n' })
    repo.commit('weaken')
    const j = await judge(repo)
    expect(j.rules).toEqual(['oracle-digest', 'protected-path'])
    expect(only(j.reasons, 'protected-path')[0]).toMatchObject({
      path: 'oracle/properties/test_sort.py',
      level: 'failure'
    })
    expect(only(j.reasons, 'oracle-digest')[0]?.path).toBe('oracle/properties/test_sort.py')
    expect(j.oracle.unchanged).toBe(false)
    expect(j.overlay).toEqual({ restore: ['oracle/properties/test_sort.py'], remove: [] })
    expect(instrumentTouched(j.reasons)).toBe(true)
  })

  it('fires on a deletion', async () => {
    const repo = baseRepo()
    repo.remove('oracle/properties/test_sort.py')
    repo.commit('delete')
    const j = await judge(repo)
    expect(only(j.reasons, 'protected-path')[0]?.message).toMatch(/deletes/)
    expect(j.rules).toContain('oracle-digest')
    expect(j.overlay.restore).toEqual(['oracle/properties/test_sort.py'])
  })

  it('fires on a rename out of the oracle, naming the protected source', async () => {
    const repo = baseRepo()
    repo.git('mv', 'oracle/properties/test_sort.py', 'tests/test_sort.py')
    repo.commit('move out')
    const j = await judge(repo)
    expect(j.rows).toEqual([
      expect.objectContaining({
        path: 'tests/test_sort.py',
        previous_path: 'oracle/properties/test_sort.py',
        status: 'renamed',
        plane: 'voting',
        action: 'reject'
      })
    ])
    const [reason] = only(j.reasons, 'protected-path')
    expect(reason?.message).toMatch(
      /oracle\/properties\/test_sort\.py.*out to tests\/test_sort\.py/
    )
  })

  it('fires on a rename into a protected path', async () => {
    const repo = baseRepo()
    repo.git('mv', 'src/app.py', 'oracle/app.py')
    repo.commit('move in')
    const j = await judge(repo)
    expect(j.rows[0]).toMatchObject({
      path: 'oracle/app.py',
      previous_path: 'src/app.py',
      plane: 'protected',
      action: 'reject'
    })
    expect(only(j.reasons, 'protected-path')[0]?.message).toMatch(/renamed into oracle\/app\.py/)
    expect(j.overlay.remove).toEqual(['oracle/app.py'])
  })

  it('fires on a mode change of an oracle file, stays quiet on one in src', async () => {
    const repo = baseRepo()
    repo.chmod('oracle/properties/test_sort.py', 0o755).chmod('src/app.py', 0o755)
    repo.commit('chmod')
    const j = await judge(repo)
    expect(j.rows.map(r => [r.path, r.status, r.old_kind, r.new_kind, r.action])).toEqual([
      ['oracle/properties/test_sort.py', 'mode-changed', 'file', 'executable', 'reject'],
      ['src/app.py', 'mode-changed', 'file', 'executable', 'continue']
    ])
    expect(j.reasons.map(r => [r.rule, r.path])).toEqual([
      ['protected-path', 'oracle/properties/test_sort.py'],
      ['oracle-digest', 'oracle/properties/test_sort.py']
    ])
  })

  it('fires on a symlink into the oracle (also through a link chain), quiet on one into src', async () => {
    const repo = baseRepo()
    repo.symlink('vendor', 'oracle') // a link the base already had
    repo.git('checkout', '-q', 'main')
    repo.commit('base link')
    repo.branch('pr')
    repo.symlink('src/props', '../oracle/properties')
    repo.symlink('src/chain.py', '../vendor/properties/test_sort.py')
    repo.symlink('src/helper.py', 'app.py')
    repo.symlink('src/root', '..')
    repo.commit('links')
    const j = await judge(repo)
    const byPath = Object.fromEntries(j.rows.map(r => [r.path, r]))
    expect(byPath['src/props']).toMatchObject({
      status: 'added',
      new_kind: 'symlink',
      symlink_target: '../oracle/properties',
      action: 'reject'
    })
    expect(byPath['src/chain.py']?.action).toBe('reject')
    expect(byPath['src/root']?.action).toBe('reject')
    expect(byPath['src/helper.py']).toMatchObject({ action: 'continue', plane: 'source' })
    expect(
      only(j.reasons, 'protected-path')
        .map(r => r.path)
        .sort()
    ).toEqual(['src/chain.py', 'src/props', 'src/root'])
    // The oracle itself is untouched: only the links reach into it.
    expect(j.oracle.unchanged).toBe(true)
  })

  it('fires on a submodule pointer inside the oracle, quiet on one in src', async () => {
    const repo = baseRepo()
    const commit = repo.sha('HEAD')
    repo.git('update-index', '--add', '--cacheinfo', `160000,${commit},oracle/vendor`)
    repo.git('update-index', '--add', '--cacheinfo', `160000,${commit},src/vendor`)
    repo.git('commit', '-q', '-m', 'submodules')
    const j = await judge(repo)
    expect(j.rows.map(r => [r.path, r.status, r.new_kind, r.action])).toEqual([
      ['oracle/vendor', 'added', 'submodule', 'reject'],
      ['src/vendor', 'added', 'submodule', 'continue']
    ])
    expect(j.reasons.map(r => [r.rule, r.path])).toEqual([
      ['protected-path', 'oracle/vendor'],
      ['oracle-digest', 'oracle/vendor']
    ])
    expect(j.overlay).toEqual({ restore: [], remove: ['oracle/vendor'] })
  })

  it('a file turned into a symlink is a type change', async () => {
    const repo = baseRepo()
    repo.remove('oracle/fixtures/golden.txt')
    repo.symlink('oracle/fixtures/golden.txt', '../../src/app.py')
    repo.commit('type change')
    const j = await judge(repo)
    expect(j.rows[0]).toMatchObject({
      path: 'oracle/fixtures/golden.txt',
      status: 'type-changed',
      old_kind: 'file',
      new_kind: 'symlink',
      action: 'reject'
    })
    expect(j.rules).toEqual(['fixture-digest', 'oracle-digest', 'protected-path'])
  })
})

describe('instrument symlinks that point out of the oracle', () => {
  it('make their target instrument: writing it fires, other source stays quiet', async () => {
    const repo = baseRepo()
    repo.write({ 'src/expected.json': '[1, 2]\n' })
    repo.symlink('oracle/expected.json', '../src/expected.json')
    repo.git('checkout', '-q', 'main')
    repo.commit('oracle reads product data through a link')
    repo.branch('pr')
    repo.write({ 'src/app.py': 'def add(a, b):\n    return a + b + 0\n' })
    repo.commit('quiet')
    expect((await judge(repo)).reasons).toEqual([])
    repo.write({ 'src/expected.json': '[2, 1]\n' })
    repo.commit('rewrite what the oracle reads')
    const j = await judge(repo)
    expect(j.rows.find(r => r.path === 'src/expected.json')).toMatchObject({
      plane: 'protected',
      action: 'reject'
    })
    expect(only(j.reasons, 'protected-path')[0]?.message).toMatch(
      /symlink oracle\/expected\.json points at it/
    )
    expect(j.rules).toEqual(['oracle-digest', 'protected-path'])
    expect(j.overlay.restore).toEqual(['src/expected.json'])
  })
})

describe('policy edited in head', () => {
  it('the base policy judges, and the edit itself is rejected', async () => {
    const repo = baseRepo()
    // The head drops the protection of oracle/** and then weakens a voting test.
    repo.write({
      [POLICY]: policyYaml().replace('  - oracle/**\n', '  - nothing/**\n'),
      'oracle/properties/test_sort.py': 'def test_sort():\n    pass\n'
    })
    repo.commit('unprotect and weaken')
    const card = await check({
      repoDir: repo.dir,
      base: 'main',
      head: 'pr',
      today: '2026-01-01',
      log: memoryLogger()
    })
    const hits = card.reasons.filter(r => r.rule === 'protected-path').map(r => r.path)
    expect(hits).toContain(POLICY)
    expect(hits).toContain('oracle/properties/test_sort.py')
    expect(card.write_set.find(r => r.path === POLICY)).toMatchObject({
      plane: 'protected',
      action: 'reject'
    })
    expect(card.oracle.unchanged).toBe(false)
    expect(card.verdict).toBe('policy')
  })
})

describe('fixture-digest', () => {
  it('fires when a fixture is rewritten together with its manifest', async () => {
    const repo = baseRepo()
    repo.write({
      'oracle/fixtures/golden.txt': 'forged\n',
      'oracle/fixtures/manifest.json': JSON.stringify({
        golden: { file: 'golden.txt', sha256: sha256('forged\n') }
      })
    })
    repo.commit('forge')
    const j = await judge(repo)
    const [reason] = only(j.reasons, 'fixture-digest')
    expect(reason).toMatchObject({ path: 'oracle/fixtures/golden.txt', level: 'failure' })
    expect(reason?.message).toContain(sha256('golden\n'))
    expect(only(j.reasons, 'protected-path').map(r => r.path)).toEqual([
      'oracle/fixtures/golden.txt',
      'oracle/fixtures/manifest.json'
    ])
  })

  it('fires for an unprotected fixture the patch changed, quiet when untouched', async () => {
    const repo = new TestRepo()
    repos.push(repo)
    repo.write({
      [POLICY]: policyYaml('fixtures: data/manifest.json\n').replace(
        '  - oracle/**\n',
        '  - oracle/properties/**\n'
      ),
      'oracle/properties/test_x.py': 'def test_x():\n    pass\n',
      'data/blob.bin': 'abc',
      'data/manifest.json': JSON.stringify({ blob: { file: 'blob.bin', sha256: sha256('abc') } })
    })
    repo.commit('base')
    repo.branch('pr')
    repo.write({ 'src/x.py': 'x = 1\n' })
    repo.commit('quiet')
    expect((await judge(repo)).reasons).toEqual([])
    repo.write({ 'data/blob.bin': 'abd' })
    repo.commit('change fixture')
    const j = await judge(repo)
    expect(j.reasons.map(r => [r.rule, r.path])).toEqual([['fixture-digest', 'data/blob.bin']])
    expect(j.overlay.restore).toEqual(['data/blob.bin'])
  })

  it('a mismatch already at the merge base is reported as the base policy error', async () => {
    const repo = new TestRepo()
    repos.push(repo)
    repo.write({
      [POLICY]: policyYaml('fixtures: oracle/fixtures/manifest.json\n'),
      'oracle/properties/test_x.py': 'def test_x():\n    pass\n',
      'oracle/fixtures/golden.txt': 'drifted\n',
      'oracle/fixtures/manifest.json': JSON.stringify({
        golden: { file: 'golden.txt', sha256: sha256('golden\n') }
      })
    })
    repo.commit('broken base')
    repo.branch('pr')
    repo.write({ 'src/x.py': 'x = 1\n' })
    repo.commit('innocent')
    const j = await judge(repo)
    expect(j.reasons).toHaveLength(1)
    expect(j.reasons[0]).toMatchObject({
      rule: 'config-invalid',
      level: 'failure',
      path: 'oracle/fixtures/manifest.json'
    })
    expect(j.reasons[0]?.message).toMatch(
      /base branch.*manifest\.json.*"golden".*oracle\/fixtures\/golden\.txt.*not to blame/
    )
  })
})

describe('runner-tampered', () => {
  const FORCE_PASS = `import pytest

@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    report.outcome = "passed"
`

  it('fires on a root conftest.py that forces outcomes to passed, and the overlay removes it', async () => {
    const repo = baseRepo()
    repo.write({ 'conftest.py': FORCE_PASS })
    repo.commit('force pass')
    const j = await judge(repo)
    expect(j.rules).toEqual(['runner-tampered', 'ungoverned-test'])
    expect(only(j.reasons, 'runner-tampered')[0]).toMatchObject({
      path: 'conftest.py',
      level: 'failure'
    })
    expect(only(j.reasons, 'runner-tampered')[0]?.message).toMatch(/adds it/)
    expect(j.overlay).toEqual({ restore: [], remove: ['conftest.py'] })
    expect(instrumentTouched(j.reasons)).toBe(true)
  })

  it('stays quiet on a conftest.py beside in-diff tests (not an ancestor of a voting test)', async () => {
    const repo = baseRepo()
    repo.write({ 'tests/conftest.py': FORCE_PASS })
    repo.commit('local conftest')
    const j = await judge(repo)
    expect(j.reasons).toEqual([])
    expect(j.overlay).toEqual({ restore: [], remove: [] })
  })

  it('fires on a pytest.ini whose addopts deselect voting tests', async () => {
    const repo = baseRepo()
    repo.write({
      'pytest.ini': '[pytest]\naddopts = --deselect oracle/properties/test_sort.py::test_sort\n'
    })
    repo.commit('deselect')
    const j = await judge(repo)
    expect(j.reasons.map(r => [r.rule, r.path])).toEqual([['runner-tampered', 'pytest.ini']])
    expect(j.overlay.remove).toEqual(['pytest.ini'])
  })

  it("fires on pyproject addopts that deselect voting tests, naming the section's line", async () => {
    const repo = baseRepo()
    repo.write({
      'pyproject.toml': PYPROJECT.replace('addopts = "-q"', 'addopts = "-q -k not sort"')
    })
    repo.commit('deselect via pyproject')
    const j = await judge(repo)
    expect(j.reasons).toEqual([
      expect.objectContaining({ rule: 'runner-tampered', path: 'pyproject.toml', line: 5 })
    ])
    expect(j.overlay.restore).toEqual(['pyproject.toml'])
  })

  it('fires on pytest settings written as dotted keys at the top level', async () => {
    const repo = baseRepo()
    repo.write({
      'pyproject.toml': `tool.pytest.ini_options.addopts = "--deselect oracle"\n${PYPROJECT}`
    })
    repo.commit('dotted')
    expect((await judge(repo)).rules).toEqual(['runner-tampered'])
  })

  it('stays quiet on a dependency-only pyproject change', async () => {
    const repo = baseRepo()
    repo.write({
      'pyproject.toml': PYPROJECT.replace(
        'dependencies = ["requests>=2"]',
        'dependencies = [\n  "requests>=2.31",\n  "attrs",\n]'
      ).replace('line-length = 100', 'line-length = 88')
    })
    repo.commit('deps')
    const j = await judge(repo)
    expect(j.reasons).toEqual([])
    expect(j.overlay).toEqual({ restore: [], remove: [] })
  })

  it('setup.cfg: [tool:pytest] fires, [metadata] is quiet', async () => {
    const repo = baseRepo()
    repo.write({ 'setup.cfg': '[metadata]\nname = app2\n\n[tool:pytest]\naddopts = -q\n' })
    repo.commit('metadata')
    expect((await judge(repo)).reasons).toEqual([])
    repo.write({
      'setup.cfg': '[metadata]\nname = app2\n\n[tool:pytest]\naddopts = -q -p no:oracle\n'
    })
    repo.commit('pytest section')
    expect((await judge(repo)).reasons).toEqual([
      expect.objectContaining({ rule: 'runner-tampered', path: 'setup.cfg', line: 4 })
    ])
  })

  it('package.json: a test script change fires, a dependency change is quiet', async () => {
    const repo = baseRepo()
    repo.write({
      'package.json': JSON.stringify({
        name: 'app',
        scripts: { test: 'jest', build: 'tsc -b' },
        dependencies: { a: '2.0.0' }
      })
    })
    repo.commit('deps')
    expect((await judge(repo)).reasons).toEqual([])
    repo.write({
      'package.json': JSON.stringify({
        name: 'app',
        scripts: { test: 'jest --passWithNoTests || true', build: 'tsc -b' },
        dependencies: { a: '2.0.0' }
      })
    })
    repo.commit('test script')
    expect((await judge(repo)).reasons.map(r => [r.rule, r.path])).toEqual([
      ['runner-tampered', 'package.json']
    ])
  })

  it('sitecustomize.py anywhere and policy runner_config globs fire', async () => {
    const repo = baseRepo('runner_config: [ci/pytest-*.sh]\n')
    repo.write({
      'src/sitecustomize.py': 'import os\n',
      'ci/pytest-run.sh': 'exit 0\n',
      'ci/build.sh': 'make\n'
    })
    repo.commit('hooks')
    const j = await judge(repo)
    expect(
      only(j.reasons, 'runner-tampered')
        .map(r => r.path)
        .sort()
    ).toEqual(['ci/pytest-run.sh', 'src/sitecustomize.py'])
  })
})

describe('ungoverned-test', () => {
  it('fires on a test file dropped into src/, following the lint level', async () => {
    const repo = baseRepo()
    repo.write({ 'src/test_app_extra.py': 'def test_x():\n    assert True\n' })
    repo.commit('stray test')
    const j = await judge(repo)
    expect(j.reasons).toEqual([
      expect.objectContaining({
        rule: 'ungoverned-test',
        level: 'failure',
        path: 'src/test_app_extra.py'
      })
    ])
    expect(j.rows[0]).toMatchObject({ plane: 'other', action: 'reject' })
    expect(instrumentTouched(j.reasons)).toBe(false)
  })

  it('warns under lints.ungoverned-test: warn and says nothing under off', async () => {
    for (const [mode, expected] of [
      ['warn', [['ungoverned-test', 'warning']]],
      ['off', []]
    ] as const) {
      const repo = baseRepo(`lints:\n  ungoverned-test: ${mode}\n`)
      repo.write({ 'src/app.spec.ts': 'it("x", () => {})\n' })
      repo.commit('stray spec')
      const j = await judge(repo)
      expect(j.reasons.map(r => [r.rule, r.level])).toEqual(expected)
      expect(j.rows[0]?.action).toBe(mode === 'warn' ? 'continue' : 'ignore')
    }
  })

  it('stays quiet for tests on the in_diff and drafts planes, and for deleted stray tests', async () => {
    const repo = baseRepo()
    repo.write({ 'src/test_old.py': 'def test_old():\n    pass\n' })
    repo.git('checkout', '-q', 'main')
    repo.commit('base stray')
    repo.branch('pr')
    repo.remove('src/test_old.py')
    repo.write({
      'tests/test_new.py': 'def test_new():\n    pass\n',
      'drafts/test_idea.py': 'def test_idea():\n    pass\n'
    })
    repo.commit('governed')
    const j = await judge(repo)
    expect(j.reasons).toEqual([])
    expect(j.rows.map(r => [r.path, r.plane, r.action])).toEqual([
      ['drafts/test_idea.py', 'drafts', 'continue'],
      ['src/test_old.py', 'other', 'ignore'],
      ['tests/test_new.py', 'in_diff', 'continue']
    ])
  })
})
