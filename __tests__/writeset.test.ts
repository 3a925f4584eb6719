import { afterEach, describe, expect, it } from 'vitest'
import { runFacts } from '../src/context.js'
import { Git } from '../src/git/git.js'
import { parsePolicy } from '../src/policy/load.js'
import type { Change } from '../src/types.js'
import { classifyChange, type ClassifierContext } from '../src/writeset/classify.js'
import { buildWriteSet, parseRawDiff, resolveSymlink } from '../src/writeset/index.js'
import { compilePlanes, normalisePath } from '../src/writeset/planes.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

const policy = (extra = ''): ReturnType<typeof parsePolicy> =>
  parsePolicy(
    policyYaml(`ledger: oracle/flake_ledger.yml\nfixtures: data/manifest.json\n${extra}`),
    '.github/oracle-gate.yml'
  )

function context(extra = ''): ClassifierContext {
  const p = policy(extra)
  return { planes: compilePlanes(p), ungovernedTest: p.lints['ungoverned-test'] }
}

const classify = (change: Change, ctx = context()): [string, string] => {
  const c = classifyChange(change, ctx)
  return [c.plane, c.action]
}

describe('the classification table (pure)', () => {
  const ctx = context()
  it.each<[string, Change, string, string]>([
    ['a source edit', { path: 'src/app.py', status: 'modified' }, 'source', 'continue'],
    [
      'a voting test edit',
      { path: 'oracle/properties/test_a.py', status: 'modified' },
      'voting',
      'reject'
    ],
    [
      'a protected non-test file',
      { path: 'oracle/data.json', status: 'added' },
      'protected',
      'reject'
    ],
    [
      'the policy file (always protected)',
      { path: '.github/oracle-gate.yml', status: 'modified' },
      'protected',
      'reject'
    ],
    [
      'the ledger named by the policy',
      { path: 'oracle/flake_ledger.yml', status: 'modified' },
      'protected',
      'reject'
    ],
    [
      'the fixture manifest outside the protected globs',
      { path: 'data/manifest.json', status: 'modified' },
      'protected',
      'reject'
    ],
    [
      'a deleted protected file',
      { path: 'oracle/properties/test_a.py', status: 'deleted' },
      'voting',
      'reject'
    ],
    [
      'a rename out of the oracle',
      { path: 'src/t.py', previous_path: 'oracle/t.py', status: 'renamed' },
      'protected',
      'reject'
    ],
    [
      'a rename into the oracle',
      { path: 'oracle/t.py', previous_path: 'src/t.py', status: 'renamed' },
      'protected',
      'reject'
    ],
    [
      'a copy out of the oracle (the source is untouched)',
      { path: 'tests/test_a.py', previous_path: 'oracle/properties/test_a.py', status: 'copied' },
      'in_diff',
      'continue'
    ],
    [
      'a copy into the oracle',
      { path: 'oracle/t.py', previous_path: 'src/t.py', status: 'copied' },
      'protected',
      'reject'
    ],
    ['an in_diff test', { path: 'tests/test_a.py', status: 'added' }, 'in_diff', 'continue'],
    ['a draft', { path: 'drafts/test_a.py', status: 'added' }, 'drafts', 'continue'],
    ['a stray Python test', { path: 'src/test_a.py', status: 'added' }, 'other', 'reject'],
    ['a stray Go test', { path: 'pkg/x_test.go', status: 'modified' }, 'other', 'reject'],
    [
      'a stray Java test',
      { path: 'svc/src/test/java/AppTest.java', status: 'added' },
      'other',
      'reject'
    ],
    ['a stray Ruby spec', { path: 'lib/x_spec.rb', status: 'added' }, 'other', 'reject'],
    [
      'a stray JS test in __tests__',
      { path: 'web/__tests__/x.tsx', status: 'added' },
      'other',
      'reject'
    ],
    ['a deleted stray test', { path: 'src/test_a.py', status: 'deleted' }, 'other', 'ignore'],
    ['a deleted source file', { path: 'src/old.py', status: 'deleted' }, 'source', 'ignore'],
    [
      'a path escaping the repository',
      { path: '../outside.py', status: 'added' },
      'other',
      'reject'
    ],
    [
      'a path that escapes after normalisation',
      { path: 'src/../../x.py', status: 'added' },
      'other',
      'reject'
    ],
    [
      'a path with ./ and a .. that stays inside',
      { path: './src/../oracle/x.py', status: 'added' },
      'protected',
      'reject'
    ]
  ])('%s', (_name, change, plane, action) => {
    expect(classify(change, ctx)).toEqual([plane, action])
  })

  it('judges symlinks by their target', () => {
    const link = (path: string, target: string): Change => ({
      path,
      status: 'added',
      new_kind: 'symlink',
      symlink_target: target
    })
    expect(classify(link('src/o', '../oracle/properties/test_a.py'), ctx)).toEqual([
      'protected',
      'reject'
    ])
    expect(classify(link('src/ok', 'app.py'), ctx)).toEqual(['source', 'continue'])
    expect(classify(link('src/abs', '/etc/passwd'), ctx)).toEqual(['source', 'reject'])
    const withDirs: ClassifierContext = {
      ...ctx,
      containsInstrument: d => d === '' || d === 'oracle'
    }
    expect(classify(link('src/dir', '../oracle'), withDirs)).toEqual(['protected', 'reject'])
    expect(classify(link('src/dir', '../src'), withDirs)).toEqual(['source', 'continue'])
  })

  it('folds case only when the policy says case_insensitive', () => {
    const change: Change = { path: 'Oracle/Properties/test_a.py', status: 'modified' }
    expect(classify(change, context())).toEqual(['other', 'reject']) // a stray test, not the oracle
    expect(classify(change, context('case_insensitive: true\n'))).toEqual(['voting', 'reject'])
    expect(
      classify(
        { path: '.GitHub/Oracle-Gate.yml', status: 'modified' },
        context('case_insensitive: true\n')
      )
    ).toEqual(['protected', 'reject'])
    expect(classify({ path: '.GitHub/Oracle-Gate.yml', status: 'modified' }, context())).toEqual([
      'source',
      'continue'
    ])
  })

  it('matches a decomposed name against composed globs without rewriting the path', () => {
    const ctx2 = context('runner_config: []\n').planes
    expect(normalisePath('oracle/cafe\u0301.py')).toBe('oracle/cafe\u0301.py')
    const p = parsePolicy(
      policyYaml().replace('  - oracle/**\n', '  - "caf\u00e9/**"\n'),
      '.github/oracle-gate.yml'
    )
    expect(compilePlanes(p).isProtected('cafe\u0301/x.py')).toBe(true)
    expect(ctx2.isProtected('cafe\u0301/x.py')).toBe(false)
  })

  it('classifies 20,000 paths with one compiled matcher', () => {
    const changes: Change[] = []
    for (let i = 0; i < 20_000; i++) {
      const dir = ['src', 'oracle/properties', 'tests', 'lib/deep/er', 'drafts'][i % 5]
      changes.push({
        path: `${dir}/m${i}/file_${i}${i % 7 === 0 ? '_test.go' : '.py'}`,
        status: i % 11 === 0 ? 'deleted' : 'modified'
      })
    }
    const planes = changes.map(c => classifyChange(c, ctx).plane)
    expect(planes.filter(p => p === 'voting')).toHaveLength(4000)
    // No wall-clock bound in the fast tier (issue 22): speed is measured by npm run bench.
  })
})

describe('raw diff parsing and symlink resolution (pure)', () => {
  it('parses statuses, kinds and both names of a rename', () => {
    const z = (...f: string[]): string => f.join('\0') + '\0'
    const o = 'a'.repeat(40)
    const n = 'b'.repeat(40)
    const zero = '0'.repeat(40)
    const out = z(
      `:000000 100644 ${zero} ${n} A`,
      'new.py',
      `:100644 000000 ${o} ${zero} D`,
      'gone.py',
      `:100644 100755 ${o} ${o} M`,
      'run.sh',
      `:100644 120000 ${o} ${n} T`,
      'link',
      `:100644 100644 ${o} ${n} R087`,
      'old name.py',
      'new name.py',
      `:160000 160000 ${o} ${n} M`,
      'vendor/sub'
    )
    expect(parseRawDiff(out).map(({ new_oid: _, ...c }) => c)).toEqual([
      { path: 'new.py', status: 'added', new_kind: 'file' },
      { path: 'gone.py', status: 'deleted', old_kind: 'file' },
      { path: 'run.sh', status: 'mode-changed', old_kind: 'file', new_kind: 'executable' },
      { path: 'link', status: 'type-changed', old_kind: 'file', new_kind: 'symlink' },
      {
        path: 'new name.py',
        previous_path: 'old name.py',
        status: 'renamed',
        old_kind: 'file',
        new_kind: 'file'
      },
      { path: 'vendor/sub', status: 'modified', old_kind: 'submodule', new_kind: 'submodule' }
    ])
    expect(() => parseRawDiff(z(`:100644 100644 ${o} ${n} X`, 'odd'))).toThrow(/cannot judge/)
  })

  it('resolves relative targets, chains and escapes', () => {
    const links = new Map([
      ['vendor', 'oracle'],
      ['loop', 'loop2'],
      ['loop2', 'loop']
    ])
    expect(resolveSymlink('src/a', '../oracle/x')).toBe('oracle/x')
    expect(resolveSymlink('src/a', './b/../c')).toBe('src/c')
    expect(resolveSymlink('src/a', '../vendor/properties', links)).toBe('oracle/properties')
    expect(resolveSymlink('a', '..')).toBeNull()
    expect(resolveSymlink('a', '/abs')).toBeNull()
    expect(resolveSymlink('a', 'loop/x', links)).toBeNull()
    expect(resolveSymlink('src/root', '..')).toBe('')
  })
})

describe('git and the API list give the same rows', () => {
  const repos: TestRepo[] = []
  afterEach(() => {
    while (repos.length) repos.pop()?.cleanup()
  })

  it('for adds, deletes, renames, mode and type changes, symlinks and submodules', async () => {
    const repo = new TestRepo()
    repos.push(repo)
    repo.write({
      '.github/oracle-gate.yml': policyYaml(),
      'oracle/properties/test_a.py': 'def test_a():\n    pass\n',
      'src/keep.py': 'k = 1\n',
      'src/gone.py': 'g = 1\n',
      'src/moved.py': 'a long enough body so that rename detection pairs it\n'.repeat(5),
      'src/run.sh': 'echo\n',
      'src/typed': 'was a file\n'
    })
    repo.commit('base')
    repo.branch('pr')
    repo.write({
      'src/keep.py': 'k = 2\n',
      'src/new.py': 'n = 1\n',
      'src/test_stray.py': 'def test_s():\n    pass\n'
    })
    repo.remove('src/gone.py', 'src/typed', 'src/moved.py')
    repo.write({
      'lib/moved.py': 'a long enough body so that rename detection pairs it\n'.repeat(5)
    })
    repo.chmod('src/run.sh', 0o755)
    repo.symlink('src/typed', 'keep.py')
    repo.symlink('src/o', '../oracle/properties')
    repo.commit('mixed')
    repo.git('update-index', '--add', '--cacheinfo', `160000,${repo.sha('main')},vendor/sub`)
    repo.git('commit', '-q', '-m', 'submodule')

    const git = new Git(repo.dir, process.env)
    const p = parsePolicy(policyYaml(), '.github/oracle-gate.yml')
    const mergeBase = await git.mergeBase(repo.sha('main'), repo.sha('pr'))
    const fromGit = await buildWriteSet(git, mergeBase, repo.sha('pr'), p, null, runFacts(git, p))
    // What the PR files API says: names and coarse statuses only (no modes, no symlinks).
    const api: Change[] = [
      { path: 'src/keep.py', status: 'modified' },
      { path: 'src/new.py', status: 'added' },
      { path: 'src/test_stray.py', status: 'added' },
      { path: 'src/gone.py', status: 'deleted' },
      { path: 'lib/moved.py', previous_path: 'src/moved.py', status: 'renamed' },
      { path: 'src/run.sh', status: 'modified' },
      { path: 'src/typed', status: 'modified' },
      { path: 'src/o', status: 'added' },
      { path: 'vendor/sub', status: 'added' }
    ]
    const fromApi = await buildWriteSet(git, mergeBase, repo.sha('pr'), p, api, runFacts(git, p))
    expect(fromApi).toEqual(fromGit)
    expect(
      fromGit.map(r => [r.path, r.status, r.old_kind ?? '-', r.new_kind ?? '-', r.plane, r.action])
    ).toEqual([
      ['lib/moved.py', 'renamed', 'file', 'file', 'source', 'continue'],
      ['src/gone.py', 'deleted', 'file', '-', 'source', 'ignore'],
      ['src/keep.py', 'modified', 'file', 'file', 'source', 'continue'],
      ['src/new.py', 'added', '-', 'file', 'source', 'continue'],
      ['src/o', 'added', '-', 'symlink', 'protected', 'reject'],
      ['src/run.sh', 'mode-changed', 'file', 'executable', 'source', 'continue'],
      ['src/test_stray.py', 'added', '-', 'file', 'other', 'reject'],
      ['src/typed', 'type-changed', 'file', 'symlink', 'source', 'continue'],
      ['vendor/sub', 'added', '-', 'submodule', 'source', 'continue']
    ])
    expect(fromGit.find(r => r.path === 'src/o')?.symlink_target).toBe('../oracle/properties')
  })
})
