// Every git command of the gate runs hardened (src/git/git.ts): a repository whose
// .git/config, or the runner's global config, names hooks, an fsmonitor, an external diff
// or a textconv driver that would run a command, and output switches that would change what
// git prints, neither runs any of them nor changes a single result of the gate.
import { execFileSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { Git, hardenedGitEnv } from '../src/git/git.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

const HOOKS = [
  'post-checkout',
  'reference-transaction',
  'post-index-change',
  'pre-auto-gc',
  'post-rewrite',
  'fsmonitor-watchman'
]

/** A hostile configuration: each program appends its role to the marker file. */
function hostileConfig(dir: string, marker: string): { local: string[][]; global: string } {
  const program = (role: string, body = '') => {
    const path = join(dir, `${role}.sh`)
    writeFileSync(
      path,
      `#!/bin/sh\necho ${role} $(tr '\\0' ' ' < /proc/$PPID/cmdline) >> '${marker}'\n${body}`
    )
    chmodSync(path, 0o755)
    return path
  }
  const hooks = join(dir, 'hooks')
  mkdirSync(hooks)
  for (const hook of HOOKS) {
    writeFileSync(
      join(hooks, hook),
      `#!/bin/sh\necho hook:${hook} $(tr '\\0' ' ' < /proc/$PPID/cmdline) >> '${marker}'\n`
    )
    chmodSync(join(hooks, hook), 0o755)
  }
  const local = [
    ['core.hooksPath', hooks],
    ['core.fsmonitor', program('fsmonitor')],
    ['diff.external', program('external-diff')],
    ['diff.evil.textconv', program('textconv', 'cat "$1"\n')],
    ['diff.noprefix', 'true'],
    ['diff.relative', 'true'],
    ['grep.lineNumber', 'true'],
    ['grep.column', 'true'],
    ['grep.patternType', 'perl'],
    ['core.quotePath', 'false'],
    ['color.ui', 'always'],
    ['core.pager', program('pager')]
  ]
  const global = join(dir, 'global.gitconfig')
  writeFileSync(
    global,
    `[core]\n\thooksPath = ${hooks}\n[diff]\n\texternal = ${program('global-external-diff')}\n[grep]\n\tlineNumber = true\n`
  )
  return { local, global }
}

/** What the gate decided, without the run's timings. */
function decision(card: Scorecard): unknown {
  return {
    verdict: card.verdict,
    reasons: card.reasons,
    write_set: card.write_set,
    transitions: card.transitions,
    votes: card.votes,
    oracle: card.oracle
  }
}

describe('git commands run hardened', () => {
  const repo = new TestRepo('og-harden-')
  const scratch = mkdtempSync(join(tmpdir(), 'og-harden-cfg-'))
  const marker = join(scratch, 'ran.txt')
  afterAll(() => {
    repo.cleanup()
    rmSync(scratch, { recursive: true, force: true })
  })

  it('a hostile .git/config and global config run nothing and change no result', async () => {
    const python = pythonWithPytest()
    repo.write({
      // The suite's own git commands are the suite's (pytest-benchmark runs `git describe`
      // in the worktree, under the checkout's config): that plugin is off, so every line
      // in the marker file would come from a command of the gate.
      // The reasons are compared whole: the evidence stage's notices are no git's concern.
      '.github/oracle-gate.yml': policyYaml('evidence:\n  mode: off\n').replace(
        'python3 -m pytest',
        `${python} -m pytest -p no:benchmark`
      ),
      // The children run with PYTHONSAFEPATH=1: the project says where its code is.
      'pytest.ini': '[pytest]\npythonpath = .\n',
      'README.md': 'The greeting is "shared-greeting-text".\n',
      'app/__init__.py': '',
      'app/calc.py': 'def absval(x):\n    return x\n',
      'oracle/properties/test_calc.py':
        'from app import calc\n\n\ndef test_abs():\n    assert calc.absval(-3) == 3\n',
      'tests/test_unit.py': 'def test_a():\n    assert True\n'
    })
    const base = repo.commit('base')
    repo.branch('agent')
    repo.write({
      'app/calc.py':
        'GREETING = "shared-greeting-text"\nCODE = "brand-new-literal-42"\n\n\ndef absval(x):\n    return -x if x < 0 else x\n',
      'tests/test_unit.py':
        'import pytest\nimport openai\n\n\n@pytest.mark.skip(reason="later")\ndef test_a():\n    assert "shared-greeting-text" and "brand-new-literal-42"\n'
    })
    repo.commit('fix, with a governed-test problem or three')
    repo.checkout('main')
    const options = {
      repoDir: repo.dir,
      base,
      head: 'agent',
      today: '2026-03-10',
      env: process.env
    }

    const clean = await check({ ...options, log: memoryLogger() })
    // The comparison below is not vacuous: the card exercises diff, added lines, both greps.
    expect(clean.transitions.fail_to_pass).toEqual(['oracle/properties/test_calc.py::test_abs'])
    // Notices (the canary's state, the policy read, the patch's own tests) are information.
    const ruled = clean.reasons.filter(r => r.rule !== 'diagnostic')
    expect(ruled.map(r => `${r.rule} ${r.path}:${r.line ?? ''}`).sort()).toEqual([
      'judge-import tests/test_unit.py:2',
      'literal-overlap tests/test_unit.py:7',
      'skip-marker tests/test_unit.py:5'
    ])

    const { local, global } = hostileConfig(scratch, marker)
    for (const [key, value] of local) repo.git('config', key ?? '', value ?? '')
    writeFileSync(join(repo.dir, '.git/info/attributes'), '* diff=evil\n')

    // Naively, git runs them: the hooks on worktree add, the external diff on diff.
    const naive = join(scratch, 'naive-wt')
    repo.git('worktree', 'add', '--detach', '--quiet', naive, 'agent')
    repo.git('diff', base, 'agent')
    repo.git('worktree', 'remove', '--force', naive)
    expect(readFileSync(marker, 'utf8')).toMatch(/hook:post-checkout/)
    expect(readFileSync(marker, 'utf8')).toMatch(/external-diff/)
    rmSync(marker)

    const saved = process.env.GIT_CONFIG_GLOBAL
    process.env.GIT_CONFIG_GLOBAL = global
    let hostile: Scorecard
    try {
      hostile = await check({ ...options, log: memoryLogger() })
    } finally {
      if (saved === undefined) delete process.env.GIT_CONFIG_GLOBAL
      else process.env.GIT_CONFIG_GLOBAL = saved
    }
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('')
    expect(decision(hostile)).toEqual(decision(clean))
  })

  it('the named methods read the same under the hostile config (diffs, greps, trees)', async () => {
    const git = new Git(repo.dir, process.env)
    const raw = await git.diffRaw('main', 'agent')
    expect(raw).toContain('app/calc.py')
    const pieces: Buffer[] = []
    await git.diffZeroContext('main', 'agent', ['app/calc.py'], piece => pieces.push(piece))
    expect(Buffer.concat(pieces).toString('utf8')).toMatch(/^\+\+\+ b\/app\/calc\.py$/m)
    const patterns = join(scratch, 'patterns')
    writeFileSync(patterns, 'shared-greeting-text\n')
    expect(await git.grepLines('main', patterns)).toBe(
      'main:README.md\0The greeting is "shared-greeting-text".\n'
    )
    expect(await git.grepFiles('main', patterns, { paths: ['README.md'] })).toEqual([
      'main:README.md'
    ])
    expect((await git.lsTree('main', ['app/calc.py'])).map(e => e.path)).toEqual(['app/calc.py'])
    expect(existsSync(marker) ? readFileSync(marker, 'utf8') : '').toBe('')
  })
})

describe('hardenedGitEnv', () => {
  it('drops the GIT_* variables that move the repository or change pathspecs, keeps transport ones', () => {
    const env = hardenedGitEnv({
      PATH: '/bin',
      HOME: '/home/u',
      GIT_DIR: '/elsewhere/.git',
      GIT_WORK_TREE: '/elsewhere',
      GIT_INDEX_FILE: '/tmp/index',
      GIT_LITERAL_PATHSPECS: '0',
      GIT_GLOB_PATHSPECS: '1',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'core.hooksPath',
      GIT_CONFIG_VALUE_0: '/evil',
      GIT_CONFIG_PARAMETERS: "'core.fsmonitor'='/evil'",
      GIT_EXTERNAL_DIFF: '/evil',
      GIT_SSH_COMMAND: 'ssh -i key',
      GIT_SSL_CAINFO: '/etc/ca.pem'
    })
    expect(env).toEqual({
      PATH: '/bin',
      HOME: '/home/u',
      GIT_SSH_COMMAND: 'ssh -i key',
      GIT_SSL_CAINFO: '/etc/ca.pem',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_NO_REPLACE_OBJECTS: '1',
      GIT_TERMINAL_PROMPT: '0',
      GIT_OPTIONAL_LOCKS: '0',
      GIT_PAGER: 'cat',
      LC_ALL: 'C'
    })
  })

  // Only root can hand a repository to another user; this machine's test runs are root.
  it.skipIf(process.getuid?.() !== 0)(
    'a checkout owned by another user (a container job) stays readable: safe.directory=*',
    async () => {
      const repo = new TestRepo('og-owner-')
      try {
        repo.write({ 'a.txt': 'a\n' })
        const sha = repo.commit('a')
        execFileSync('chown', ['-R', 'nobody', repo.dir])
        // Without the global config that would list it, plain git refuses the directory.
        expect(() =>
          execFileSync('git', ['rev-parse', 'HEAD'], {
            cwd: repo.dir,
            env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
            stdio: 'pipe'
          })
        ).toThrow(/dubious ownership/)
        expect(await new Git(repo.dir, process.env).resolveCommit('HEAD')).toBe(sha)
      } finally {
        repo.cleanup()
      }
    }
  )
})
