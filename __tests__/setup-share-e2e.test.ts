// Setup once per dependency fingerprint, end to end through check(): a node project whose
// node:test suite needs a real dependency that `npm ci` (offline, from a local tarball
// outside the repository) installs into node_modules. The setup also appends its side to a
// log outside the repository, so the test sees how many installs ran.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'
import { cleanEnv, tempParent } from './helpers/setup-fixture.js'

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.()
})

/** A packed npm package (a real tarball npm ci installs) in `dir`; returns its path. */
function packLeftpad(dir: string, version: string, body: string): string {
  const src = join(dir, `leftpad-src-${version}`)
  mkdirSync(src, { recursive: true })
  writeFileSync(
    join(src, 'package.json'),
    JSON.stringify({ name: 'leftpad', version, main: 'index.js' })
  )
  writeFileSync(join(src, 'index.js'), body)
  execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], {
    cwd: src,
    env: cleanEnv(),
    stdio: 'ignore'
  })
  return join(dir, `leftpad-${version}.tgz`)
}

const LEFTPAD = "module.exports = (s, n) => ' '.repeat(Math.max(0, n - s.length)) + s\n"

const policy = (marker: string, extra = ''): string => `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/props/**]
# The setup appends to a log outside the worktree, which a sandbox would not allow.
sandbox: off
suite:
  command: ${process.execPath} --test --test-reporter=junit --test-reporter-destination={junit} oracle/props/
  timeout: 120
  reruns: 0
  setup: 'npm ci --offline --no-audit --no-fund && echo "$ORACLE_GATE_SIDE" >> ${marker}'
  setup_timeout: 120
${extra}`

const PROPS = `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { pad } from '../../src/pad.js'
test('pads to the width', () => assert.equal(pad('ab', 4), '  ab'))
test('a long string stays', () => assert.equal(pad('abcdef', 3), 'abcdef'))
`
const BUGGY = "import leftpad from 'leftpad'\nexport const pad = (s, n) => leftpad(s, n - 1)\n"
const FIXED = "import leftpad from 'leftpad'\nexport const pad = (s, n) => leftpad(s, n)\n"

/** The repository: package.json naming the tarball, its real lockfile, a buggy pad. */
function nodeRepo(policyText: string, tarball: string): TestRepo {
  const repo = new TestRepo('og-share-e2e-')
  cleanups.push(() => repo.cleanup())
  repo.write({
    '.github/oracle-gate.yml': policyText,
    '.gitignore': 'node_modules/\n',
    'package.json': JSON.stringify({
      name: 'demo',
      version: '1.0.0',
      type: 'module',
      dependencies: { leftpad: `file:${tarball}` }
    }),
    'src/pad.js': BUGGY,
    'oracle/props/pad.test.js': PROPS
  })
  lockfile(repo)
  repo.commit('base: pad with a leftpad dependency')
  return repo
}

function lockfile(repo: TestRepo): void {
  execFileSync('npm', ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'], {
    cwd: repo.dir,
    env: cleanEnv(),
    stdio: 'ignore'
  })
}

async function gate(
  extra: string,
  change: (repo: TestRepo, dir: string) => void
): Promise<{ card: Scorecard; installs: string[]; log: string }> {
  const parent = tempParent('og-share-')
  cleanups.push(() => parent.cleanup())
  const marker = join(parent.dir, 'installs.txt')
  const tarball = packLeftpad(parent.dir, '1.0.0', LEFTPAD)
  const repo = nodeRepo(policy(marker, extra), tarball)
  repo.branch('feature')
  change(repo, parent.dir)
  repo.commit('head')
  repo.checkout('main')
  const log = memoryLogger()
  const card = await check({
    repoDir: repo.dir,
    base: 'main',
    head: 'feature',
    today: '2026-01-01',
    log,
    env: cleanEnv()
  })
  const installs = existsSync(marker) ? readFileSync(marker, 'utf8').trim().split('\n') : []
  return { card, installs, log: log.lines.join('\n') }
}

const side = (card: Scorecard, s: 'base' | 'head') => card.runs.find(r => r.side === s)
const verdictOf = (card: Scorecard) => ({
  verdict: card.verdict,
  transitions: card.transitions,
  failures: card.reasons.filter(r => r.level === 'failure').map(r => r.rule)
})

describe('setup once per dependency fingerprint (suite.share_setup)', () => {
  const fix = (repo: TestRepo): void => void repo.write({ 'src/pad.js': FIXED })

  it('identical manifests: the head gets the base install, npm ci runs once, same verdict as two installs', async () => {
    const shared = await gate('', fix)
    expect(shared.installs).toEqual(['base'])
    expect(side(shared.card, 'base')?.setup).toBe('ran')
    expect(side(shared.card, 'head')).toMatchObject({
      setup: 'shared',
      setup_reason: expect.stringMatching(/node_modules copied.*identical to the base's/)
    })
    expect(shared.card.reasons.filter(r => r.level === 'failure')).toEqual([])
    expect(shared.card.verdict).toBe('merge')
    expect(shared.card.transitions.fail_to_pass).toEqual([
      expect.stringContaining('pads to the width')
    ])

    // The same pull request with sharing off: two installs, the same verdict.
    const twice = await gate('  share_setup: false\n', fix)
    expect(twice.installs).toEqual(['base', 'head'])
    expect(side(twice.card, 'head')?.setup).toBe('ran')
    expect(verdictOf(shared.card)).toEqual(verdictOf(twice.card))
  }, 120_000)

  it('a broken head measured with the shared install is still product', async () => {
    const g = await gate('', repo => {
      repo.write({
        'src/pad.js': "import leftpad from 'leftpad'\nexport const pad = () => leftpad('', 0)\n"
      })
    })
    expect(g.installs).toEqual(['base'])
    expect(side(g.card, 'head')?.setup).toBe('shared')
    expect(g.card.verdict).toBe('product')
  }, 120_000)

  it('a setup that copies the project into node_modules: a naive share passes a broken head; the gate sets the head up anew, product', async () => {
    const parent = tempParent('og-share-copy-')
    cleanups.push(() => parent.cleanup())
    const marker = join(parent.dir, 'installs.txt')
    const setup = `mkdir -p node_modules/pad && cp src/pad.js node_modules/pad/ && echo '{"name": "pad", "type": "module", "main": "pad.js"}' > node_modules/pad/package.json`
    const repo = new TestRepo('og-share-copy-')
    cleanups.push(() => repo.cleanup())
    repo.write({
      '.gitignore': 'node_modules/\n',
      '.github/oracle-gate.yml': policy(marker).replace(
        /setup: '.*'\n/,
        () => `setup: ${JSON.stringify(`${setup} && echo "$ORACLE_GATE_SIDE" >> ${marker}`)}\n`
      ),
      'package.json': JSON.stringify({ name: 'demo', type: 'module' }),
      'package-lock.json': '{"lockfileVersion": 3}\n',
      'src/pad.js': 'export const pad = (s, n) => s.padStart(n)\n',
      'oracle/props/pad.test.js': PROPS.replace("'../../src/pad.js'", "'pad'")
    })
    repo.commit('base: the suite imports the copy setup makes')
    repo.branch('feature').write({ 'src/pad.js': "export const pad = () => ''\n" })
    repo.commit('head: breaks pad')
    repo.checkout('main')

    // Naive: the head measured with the base's install (what sharing without the copy
    // check would do) is green although its pad is broken; its own install is red.
    const suite = (dir: string): number | null =>
      spawnSync(process.execPath, ['--test', 'oracle/props/'], { cwd: dir, env: cleanEnv() }).status
    const base = join(parent.dir, 'base')
    const head = join(parent.dir, 'head')
    repo.git('worktree', 'add', '-q', '--detach', base, 'main')
    repo.git('worktree', 'add', '-q', '--detach', head, 'feature')
    execFileSync('bash', ['-c', setup], { cwd: base })
    cpSync(join(base, 'node_modules'), join(head, 'node_modules'), { recursive: true })
    expect(suite(head)).toBe(0)
    rmSync(join(head, 'node_modules'), { recursive: true })
    execFileSync('bash', ['-c', setup], { cwd: head })
    expect(suite(head)).toBe(1)
    repo.git('worktree', 'remove', '--force', base)
    repo.git('worktree', 'remove', '--force', head)

    const card = await check({
      repoDir: repo.dir,
      base: 'main',
      head: 'feature',
      today: '2026-01-01',
      log: memoryLogger(),
      env: cleanEnv()
    })
    expect(readFileSync(marker, 'utf8').trim().split('\n')).toEqual(['base', 'head'])
    expect(side(card, 'head')).toMatchObject({
      setup: 'ran',
      setup_reason: expect.stringContaining(
        "node_modules/pad/pad.js is a copy of the merge base's src/pad.js, which the head changed"
      )
    })
    expect(card.verdict).toBe('product')
  }, 120_000)

  it('in the sandbox: both sides at its one path, the head takes the copy, the fix merges', async () => {
    const repo = new TestRepo('og-share-sandbox-')
    cleanups.push(() => repo.cleanup())
    repo.write({
      // The "registry": an untracked folder of the checkout, which setup reads (read-only).
      '.gitignore': 'node_modules/\noffline/\n',
      '.github/oracle-gate.yml': `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/props/**]
  production: [src/**]
sandbox: required
suite:
  command: ${process.execPath} --test --test-reporter=junit --test-reporter-destination={junit} oracle/props/
  timeout: 120
  reruns: 0
  setup: 'mkdir -p node_modules && cp -r "$ORACLE_GATE_CHECKOUT/offline/leftpad" node_modules/'
  setup_timeout: 120
`,
      'package.json': JSON.stringify({ name: 'demo', type: 'module' }),
      'package-lock.json': '{"lockfileVersion": 3}\n',
      'src/pad.js': BUGGY,
      'oracle/props/pad.test.js': PROPS
    })
    repo.commit('base')
    repo.write({
      'offline/leftpad/package.json': '{"name": "leftpad", "main": "index.js"}',
      'offline/leftpad/index.js': LEFTPAD
    })
    repo.branch('feature').write({ 'src/pad.js': FIXED })
    repo.commit('head: the fix')
    repo.checkout('main')
    const card = await check({
      repoDir: repo.dir,
      base: 'main',
      head: 'feature',
      today: '2026-01-01',
      log: memoryLogger(),
      env: cleanEnv()
    })
    expect(card.sandbox).toMatchObject({ kind: 'bwrap', contained: true })
    expect(side(card, 'base')?.setup).toBe('ran')
    expect(side(card, 'head')?.setup).toBe('shared')
    expect(card.verdict).toBe('merge')
  }, 120_000)

  it('a head that changes the lockfile (dependencies: head) sets up anew', async () => {
    const g = await gate('dependencies: head\n', (repo, dir) => {
      // A new release of the dependency: package.json and the lockfile both change.
      const next = packLeftpad(dir, '1.0.1', LEFTPAD)
      const manifest = JSON.parse(readFileSync(join(repo.dir, 'package.json'), 'utf8')) as {
        dependencies: Record<string, string>
      }
      manifest.dependencies.leftpad = `file:${next}`
      repo.write({ 'package.json': JSON.stringify(manifest), 'src/pad.js': FIXED })
      lockfile(repo)
    })
    expect(g.installs).toEqual(['base', 'head'])
    expect(side(g.card, 'head')).toMatchObject({
      setup: 'ran',
      setup_reason: expect.stringContaining("not shared: package-lock.json differs from the base's")
    })
    expect(g.card.verdict).toBe('merge')
  }, 120_000)
})
