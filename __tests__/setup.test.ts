import { execFileSync } from 'node:child_process'
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync
} from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { GateError } from '../src/errors.js'
import { cleanupWorktree, prepareWorktree } from '../src/replay/setup.js'
import { TestRepo, policyYaml } from './helpers/repo.js'
import {
  addWorktree,
  cleanEnv,
  contextFor,
  removeWorktree,
  tempParent
} from './helpers/setup-fixture.js'

const LOCK = '{"name":"demo","lockfileVersion":3,"packages":{}}\n'
const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.()
})

/**
 * A repository whose checkout has an installed (ignored) node_modules, one commit `base`
 * and optionally a second commit changed by `change`. The setup command appends the side
 * to a marker file outside the repository, so a test can prove setup did or did not run.
 */
function scenario(
  options: { suite?: string; change?: (repo: TestRepo) => void; env?: NodeJS.ProcessEnv } = {}
) {
  const repo = new TestRepo('og-setup-')
  const parent = tempParent('og-setup-wt-')
  cleanups.push(
    () => repo.cleanup(),
    () => parent.cleanup()
  )
  const marker = join(parent.dir, 'setup-ran.txt')
  repo.write({
    '.gitignore': 'node_modules/\n',
    'package-lock.json': LOCK,
    'package.json': '{"name":"demo"}\n',
    'pkg/package.json': '{}\n'
  })
  const base = repo.commit('base')
  let head = base
  if (options.change) {
    options.change(repo)
    head = repo.commit('head')
    // The checkout stands where a PR workflow leaves it: at the head.
  }
  repo.write({ 'node_modules/dep/index.js': 'module.exports = 42\n' })
  const suite =
    options.suite ??
    `  setup: mkdir -p node_modules && echo "$ORACLE_GATE_SIDE" >> ${marker}\n  setup_timeout: 30\n  reuse: [node_modules]\n`
  const ctx = contextFor(repo, policyYaml(suite), {
    mergeBase: base,
    head,
    ...(options.env ? { env: options.env } : {})
  })
  cleanups.push(() => rmSync(ctx.tempDir, { recursive: true, force: true }))
  const worktree = (sha: string, name: string): string => addWorktree(repo, sha, parent.dir, name)
  const log = join(parent.dir, 'setup.log')
  const ran = (): string[] =>
    existsSync(marker) ? readFileSync(marker, 'utf8').trim().split('\n') : []
  return { repo, parent, ctx, base, head, worktree, log, ran }
}

describe('prepareWorktree: reuse', () => {
  it('links node_modules into both sides when the lockfile is unchanged, and runs no setup', async () => {
    const s = scenario({ change: r => void r.write({ 'src/app.js': 'export const x = 1\n' }) })
    for (const [side, sha] of [
      ['base', s.base],
      ['head', s.head]
    ] as const) {
      const wt = s.worktree(sha, side)
      const outcome = await prepareWorktree(s.ctx, side, wt, s.log)
      expect(outcome).toMatchObject({ mode: 'reused', ok: true })
      expect(outcome.reason).toContain('package-lock.json identical')
      expect(lstatSync(join(wt, 'node_modules')).isSymbolicLink()).toBe(true)
      expect(readlinkSync(join(wt, 'node_modules'))).toBe(join(s.repo.dir, 'node_modules'))
      expect(readFileSync(join(wt, 'node_modules/dep/index.js'), 'utf8')).toContain('42')
      expect(s.ctx.log.lines).toContainEqual(
        expect.stringContaining(`${side}: reused node_modules`)
      )
      await cleanupWorktree(outcome.links ?? [])
    }
    expect(s.ran()).toEqual([])
  })

  it('runs setup on the side whose lockfile differs, and reuses on the other', async () => {
    const s = scenario({
      change: r => void r.write({ 'package-lock.json': LOCK.replace('{}', '{"x":{}}') })
    })
    // The checkout is at the head, so the head reuses and the base must install.
    const base = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    const head = await prepareWorktree(s.ctx, 'head', s.worktree(s.head, 'head'), s.log)
    expect(base).toMatchObject({ mode: 'ran', ok: true, exitCode: 0 })
    expect(base.reason).toContain('package-lock.json differs between the checkout and the worktree')
    expect(head.mode).toBe('reused')
    expect(s.ran()).toEqual(['base'])
    expect(s.ctx.log.lines).toContainEqual(
      expect.stringContaining('base: running suite.setup (cannot reuse node_modules')
    )
  })

  it('treats a lockfile present on one side only as different', async () => {
    const s = scenario({ change: r => void r.write({ 'yarn.lock': '# yarn\n' }) })
    const base = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    expect(base.mode).toBe('ran')
    expect(base.reason).toContain('yarn.lock exists in the checkout but not in the worktree')
    // ... and the other way round: the checkout loses a lockfile the commit has.
    rmSync(join(s.repo.dir, 'yarn.lock'))
    const head = await prepareWorktree(s.ctx, 'head', s.worktree(s.head, 'head'), s.log)
    expect(head.reason).toContain('yarn.lock exists in the worktree but not in the checkout')
    expect(s.ran()).toEqual(['base', 'head'])
  })

  it('uses requirements*.txt as a default key and honours an explicit reuse_key', async () => {
    const s = scenario({
      change: r =>
        void r.write({ 'requirements-dev.txt': 'pytest==9\n', 'README.md': 'changed\n' }),
      suite: `  setup: echo ran\n  reuse: [node_modules]\n  reuse_key: [package.json]\n`
    })
    // package.json is the same on both sides, so the explicit key allows reuse on base
    // although requirements-dev.txt (a default key, not used here) differs.
    const base = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    expect(base.mode).toBe('reused')
    expect(base.reason).toContain('package.json identical')
    const d = scenario({ change: r => void r.write({ 'requirements-dev.txt': 'pytest==9\n' }) })
    const dbase = await prepareWorktree(d.ctx, 'base', d.worktree(d.base, 'base'), d.log)
    expect(dbase.mode).toBe('ran')
    expect(dbase.reason).toContain(
      'requirements-dev.txt exists in the checkout but not in the worktree'
    )
  })

  it('refuses to link a directory that is tracked in the checkout', async () => {
    const s = scenario({
      change: r => void r.write({ 'vendor/lib.js': 'tracked\n' }),
      suite: `  setup: echo installing\n  reuse: [vendor]\n`
    })
    const out = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    expect(out.mode).toBe('ran')
    expect(out.reason).toContain('vendor is tracked in the checkout')
  })

  it('runs setup when the checkout has no such directory, or no lockfile proves anything', async () => {
    const s = scenario({ suite: `  setup: echo installing\n  reuse: [.venv]\n` })
    const venv = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    expect(venv.mode).toBe('ran')
    expect(venv.reason).toContain('.venv does not exist in the checkout')

    const n = scenario({
      suite: `  setup: echo installing\n  reuse: [node_modules]\n  reuse_key: [uv.lock]\n`
    })
    const none = await prepareWorktree(n.ctx, 'base', n.worktree(n.base, 'base'), n.log)
    expect(none.mode).toBe('ran')
    expect(none.reason).toContain('none of the reuse_key files (uv.lock) exists')
  })

  it('does not compare through a symlinked lockfile', async () => {
    const s = scenario({ change: r => void r.symlink('package-lock.json', 'package.json') })
    const head = await prepareWorktree(s.ctx, 'head', s.worktree(s.head, 'head'), s.log)
    expect(head.mode).toBe('ran')
    expect(head.reason).toContain('package-lock.json is not a regular file')
  })

  it('does not link through a parent directory that leads outside the worktree', async () => {
    const outside = tempParent('og-setup-outside-')
    cleanups.push(outside.cleanup)
    const s = scenario({
      change: r => void r.remove('pkg').symlink('pkg', outside.dir),
      suite: `  setup: echo installing\n  reuse: [pkg/node_modules]\n`
    })
    // The checkout stays at the base, where pkg is a real directory with its install;
    // the head commits pkg as a symlink to a directory outside the worktree.
    s.repo.checkout(s.base)
    mkdirSync(join(s.repo.dir, 'pkg/node_modules'), { recursive: true })
    const head = await prepareWorktree(s.ctx, 'head', s.worktree(s.head, 'head'), s.log)
    expect(head.mode).toBe('ran')
    expect(head.reason).toContain('cannot reuse pkg/node_modules: pkg leads outside the worktree')
    expect(existsSync(join(outside.dir, 'node_modules'))).toBe(false)
    const base = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    expect(base.mode).toBe('reused')
  })

  it("refuses a node_modules whose workspace links lead back into the checkout's sources", async () => {
    const s = scenario()
    s.repo.write({ 'packages/lib/index.js': 'checkout copy\n' })
    s.repo.symlink('node_modules/@demo/lib', '../../packages/lib')
    const out = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    expect(out.mode).toBe('ran')
    expect(out.reason).toContain(
      'node_modules/@demo/lib links to packages/lib in the checkout (a workspace package)'
    )
    // A link to a package store outside the checkout is what installers do: still reused.
    const store = tempParent('og-setup-store-')
    cleanups.push(store.cleanup)
    s.repo.remove('node_modules/@demo').symlink('node_modules/dep2', store.dir)
    const again = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base2'), s.log)
    expect(again.mode).toBe('reused')
  })

  it('refuses a .venv with the project installed in editable mode from the checkout', async () => {
    const s = scenario({
      suite: '  setup: echo installing\n  reuse: [.venv]\n  reuse_key: [package-lock.json]\n'
    })
    s.repo.write({
      '.gitignore': 'node_modules/\n.venv/\n',
      '.venv/lib/python3.12/site-packages/six.py': ''
    })
    const clean = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    expect(clean.mode).toBe('reused')
    s.repo.write({
      '.venv/lib/python3.12/site-packages/__editable__.demo-1.0.pth': `${s.repo.dir}/src\n`
    })
    const editable = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base2'), s.log)
    expect(editable.mode).toBe('ran')
    expect(editable.reason).toContain(
      '.venv has the project installed in editable mode (__editable__.demo-1.0.pth points into the checkout)'
    )
  })

  it('rejects a reuse path outside the repository as a policy error', async () => {
    const s = scenario({ suite: `  setup: echo x\n  reuse: [../elsewhere]\n` })
    const error = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log).catch(
      e => e
    )
    expect(error).toBeInstanceOf(GateError)
    expect(error).toMatchObject({ rule: 'config-invalid', path: '.github/oracle-gate.yml' })
    expect(String(error.message)).toContain('suite.reuse: "../elsewhere"')
  })

  it('fails the side when reuse is impossible and there is no setup to fall back on', async () => {
    const s = scenario({
      change: r => void r.write({ 'package-lock.json': '{}\n' }),
      suite: `  reuse: [node_modules]\n`
    })
    const base = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    expect(base).toMatchObject({ mode: 'none', ok: false })
    expect(base.reason).toContain('no suite.setup is configured')
    const head = await prepareWorktree(s.ctx, 'head', s.worktree(s.head, 'head'), s.log)
    expect(head).toMatchObject({ mode: 'reused', ok: true })
  })
})

describe('prepareWorktree: running setup', () => {
  it('reports nothing to do without setup or reuse', async () => {
    const s = scenario({ suite: '' })
    const out = await prepareWorktree(s.ctx, 'base', s.worktree(s.base, 'base'), s.log)
    expect(out).toMatchObject({ mode: 'none', ok: true })
  })

  it('runs setup in the worktree, without credentials, with the ORACLE_GATE_* variables', async () => {
    const s = scenario({
      suite: `  setup: 'pwd > where.txt; echo "token=\${GITHUB_TOKEN:-none} side=$ORACLE_GATE_SIDE checkout=$ORACLE_GATE_CHECKOUT extra=$EXTRA" > env.txt'\n  env: {EXTRA: yes}\n`,
      env: cleanEnv({ GITHUB_TOKEN: 'ghs_secretsecretsecret', SOME: 'ghs_secretsecretsecret' })
    })
    const wt = s.worktree(s.base, 'base')
    const out = await prepareWorktree(s.ctx, 'base', wt, s.log)
    expect(out).toMatchObject({
      mode: 'ran',
      ok: true,
      reason: 'ran setup (suite.reuse is not configured): suite.setup succeeded'
    })
    expect(readFileSync(join(wt, 'where.txt'), 'utf8').trim()).toBe(wt)
    expect(readFileSync(join(wt, 'env.txt'), 'utf8').trim()).toBe(
      `token=none side=base checkout=${s.repo.dir} extra=yes`
    )
  })

  it('reports a failing setup with its exit code and log tail', async () => {
    const s = scenario({ suite: `  setup: echo "npm ERR! missing package" >&2; exit 3\n` })
    const out = await prepareWorktree(s.ctx, 'head', s.worktree(s.base, 'head'), s.log)
    expect(out).toMatchObject({ mode: 'ran', ok: false, timedOut: false, exitCode: 3 })
    expect(out.reason).toBe(
      'ran setup (suite.reuse is not configured): suite.setup failed (exit 3)'
    )
    expect(out.tail).toContain('npm ERR! missing package')
    expect(readFileSync(s.log, 'utf8')).toContain('npm ERR! missing package')
    expect(s.ctx.log.lines).toContainEqual(
      expect.stringMatching(/^warning: head: suite.setup failed \(exit 3\)/)
    )
  })

  it('kills a setup that outlives setup_timeout, with its whole process group', async () => {
    const s = scenario({
      suite: `  setup: (sleep 2; touch late.txt) & sleep 60\n  setup_timeout: 1\n`
    })
    const wt = s.worktree(s.base, 'base')
    const out = await prepareWorktree(s.ctx, 'base', wt, s.log)
    expect(out).toMatchObject({ mode: 'ran', ok: false, timedOut: true })
    expect(out.reason).toContain('suite.setup timed out after 1s')
    await new Promise(r => setTimeout(r, 2500))
    expect(existsSync(join(wt, 'late.txt'))).toBe(false)
  })
})

describe('cleanupWorktree', () => {
  it("unlinks the reuse links, and removing the worktree leaves the checkout's node_modules intact", async () => {
    const s = scenario()
    const real = join(s.repo.dir, 'node_modules/dep/index.js')
    for (const remover of ['git', 'fs'] as const) {
      const wt = s.worktree(s.base, `wt-${remover}`)
      const out = await prepareWorktree(s.ctx, 'base', wt, s.log)
      expect(out.links).toEqual([join(wt, 'node_modules')])
      expect(await cleanupWorktree(out.links ?? [])).toEqual([join(wt, 'node_modules')])
      expect(existsSync(join(wt, 'node_modules'))).toBe(false)
      expect(await cleanupWorktree(out.links ?? [])).toEqual([]) // idempotent
      if (remover === 'git') removeWorktree(s.repo, wt)
      else rmSync(wt, { recursive: true, force: true })
      expect(existsSync(wt)).toBe(false)
      expect(readFileSync(real, 'utf8')).toContain('42')
    }
  })

  it('even without cleanup, git worktree remove and fs.rm do not follow a link into the checkout', async () => {
    // The guarantee cleanupWorktree does not rely on, checked so a regression in either
    // remover would show up here rather than as a deleted node_modules in CI.
    const s = scenario()
    const real = join(s.repo.dir, 'node_modules/dep/index.js')
    const a = s.worktree(s.base, 'a')
    const linksA = (await prepareWorktree(s.ctx, 'base', a, s.log)).links ?? []
    removeWorktree(s.repo, a)
    const b = s.worktree(s.base, 'b')
    const linksB = (await prepareWorktree(s.ctx, 'base', b, s.log)).links ?? []
    rmSync(b, { recursive: true, force: true })
    expect(readFileSync(real, 'utf8')).toContain('42')
    await cleanupWorktree(linksA)
    await cleanupWorktree(linksB)
  })

  it('removing the worktree removes what setup created there, symlinks included', async () => {
    const outside = tempParent('og-setup-target-')
    cleanups.push(outside.cleanup)
    writeFileSync(join(outside.dir, 'keep.txt'), 'keep\n')
    const s = scenario({
      suite: `  setup: mkdir -p node_modules/.bin && ln -s ${outside.dir} node_modules/linked && touch node_modules/.bin/tool\n`
    })
    const wt = s.worktree(s.base, 'base')
    const out = await prepareWorktree(s.ctx, 'base', wt, s.log)
    expect(out.ok).toBe(true)
    await cleanupWorktree(out.links ?? [])
    removeWorktree(s.repo, wt)
    expect(existsSync(wt)).toBe(false)
    expect(
      execFileSync('git', ['worktree', 'list', '--porcelain'], {
        cwd: s.repo.dir,
        encoding: 'utf8'
      })
    ).not.toContain(wt)
    expect(readFileSync(join(outside.dir, 'keep.txt'), 'utf8')).toBe('keep\n')
  })
})
