// The git version check (issue 22): the gate reads `git --version` once at the start, and
// a git older than the hardening needs (2.32: GIT_CONFIG_GLOBAL; 2.31: --path-format) is
// an error verdict naming the found and the needed versions, before anything else runs.
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { execFileSync } from 'node:child_process'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { Git } from '../src/git/git.js'
import { atLeast, gitVersionProblem, MIN_GIT_VERSION, parseGitVersion } from '../src/git/version.js'
import { memoryLogger } from './helpers/logger.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

describe('parseGitVersion / gitVersionProblem', () => {
  it('reads the forms git prints', () => {
    expect(parseGitVersion('git version 2.39.5\n')).toEqual([2, 39, 5])
    expect(parseGitVersion('git version 2.39.3 (Apple Git-146)')).toEqual([2, 39, 3])
    expect(parseGitVersion('git version 2.45.1.windows.1')).toEqual([2, 45, 1])
    expect(parseGitVersion('git version 3.0')).toEqual([3, 0, 0])
    expect(parseGitVersion('hub version 2.14')).toBeNull()
  })

  it('compares part by part', () => {
    expect(MIN_GIT_VERSION).toEqual([2, 32, 0])
    expect(atLeast([2, 32, 0], [2, 32, 0])).toBe(true)
    expect(atLeast([2, 100, 0], [2, 32, 0])).toBe(true)
    expect(atLeast([3, 0, 0], [2, 32, 0])).toBe(true)
    expect(atLeast([2, 31, 9], [2, 32, 0])).toBe(false)
    expect(atLeast([1, 99, 99], [2, 32, 0])).toBe(false)
  })

  it('names the found and needed versions, and refuses what it cannot read', () => {
    expect(gitVersionProblem('git version 2.39.5')).toBeNull()
    expect(gitVersionProblem('git version 2.25.1')).toMatch(
      /git 2\.25\.1 found, oracle-gate needs git 2\.32\.0 or newer/
    )
    expect(gitVersionProblem('garbage')).toMatch(/cannot read the git version from "garbage"/)
  })
})

describe('check() with an old git on PATH', () => {
  const cleanups: (() => void)[] = []
  afterEach(() => {
    while (cleanups.length) cleanups.pop()!()
  })

  /** A `git` that says it is 2.30.2 and otherwise runs the real git. */
  function fakeOldGit(): void {
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
    const dir = mkdtempSync(join(tmpdir(), 'og-fake-git-'))
    writeFileSync(
      join(dir, 'git'),
      `#!/bin/sh\nfor a in "$@"; do [ "$a" = --version ] && { echo "git version 2.30.2"; exit 0; }; done\nexec "${real}" "$@"\n`
    )
    chmodSync(join(dir, 'git'), 0o755)
    const path = process.env.PATH
    process.env.PATH = `${dir}${delimiter}${path ?? ''}`
    cleanups.push(() => {
      process.env.PATH = path
      rmSync(dir, { recursive: true, force: true })
    })
  }

  function repo(): TestRepo {
    const r = new TestRepo()
    cleanups.push(() => r.cleanup())
    r.write({ '.github/oracle-gate.yml': policyYaml(), 'src/app.py': 'X = 1\n' })
    r.commit('base')
    r.branch('pr')
    r.write({ 'src/app.py': 'X = 2\n' })
    r.commit('edit')
    return r
  }

  it('the real git passes the check', async () => {
    const output = await new Git(tmpdir(), process.env).version()
    expect(gitVersionProblem(output)).toBeNull()
  })

  it('is an error verdict naming both versions, before the commits are read', async () => {
    const r = repo()
    fakeOldGit()
    expect(await new Git(r.dir, process.env).version()).toBe('git version 2.30.2\n')
    const card = await check({
      repoDir: r.dir,
      base: 'main',
      today: '2026-06-01',
      log: memoryLogger()
    })
    expect(card.verdict).toBe('error')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        rule: 'gate-error',
        message: expect.stringMatching(
          /git 2\.30\.2 found, oracle-gate needs git 2\.32\.0 or newer/
        )
      })
    )
    expect(card.base).toBeFalsy()
  })
})
