import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import type { Io } from '../src/cli/io.js'
import { main } from '../src/cli/main.js'
import type { Scorecard } from '../src/types.js'
import { VERSION } from '../src/version.js'
import { policyYaml, TestRepo } from './helpers/repo.js'

function capture(cwd: string): Io & { out: () => string; err: () => string } {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', d => (out += String(d)))
  stderr.on('data', d => (err += String(d)))
  return {
    stdout,
    stderr,
    cwd,
    env: { PATH: process.env.PATH ?? '' },
    out: () => out,
    err: () => err
  }
}

const repos: TestRepo[] = []
afterEach(() => {
  while (repos.length) repos.pop()?.cleanup()
})

function repoWithPolicy(policy: string): TestRepo {
  const repo = new TestRepo()
  repos.push(repo)
  repo.write({ '.github/oracle-gate.yml': policy, 'src/app.py': 'X = 1\n' })
  repo.commit('base')
  return repo
}

describe('oracle-gate CLI', () => {
  it('--version and --help exit 0', async () => {
    const io = capture('/')
    expect(await main(['--version'], io)).toBe(0)
    expect(io.out()).toBe(`${VERSION}\n`)
    const help = capture('/')
    expect(await main(['check', '--help'], help)).toBe(0)
    expect(help.out()).toContain('oracle-gate check --base REF')
  })

  it('unknown commands and flags are usage errors (exit 4)', async () => {
    const io = capture('/')
    expect(await main(['frobnicate'], io)).toBe(4)
    expect(io.err()).toContain('unknown command "frobnicate"')
    // The command table is looked up by its own names only, never an Object property.
    const inherited = capture('/')
    expect(await main(['constructor'], inherited)).toBe(4)
    expect(inherited.err()).toContain('unknown command "constructor"')
    const flag = capture('/')
    expect(await main(['check', '--base', 'x', '--bogus'], flag)).toBe(4)
    const card = JSON.parse(flag.out()) as Scorecard
    expect(card.verdict).toBe('error')
    expect(card.reasons[0]?.message).toContain('--bogus')
  })

  it('check --repo on a missing folder is a usage error naming it (exit 4, error card)', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'og-cli-')), 'no-such-repo')
    const io = capture('/')
    expect(await main(['check', '--base', 'main', '--repo', missing], io)).toBe(4)
    const card = JSON.parse(io.out()) as Scorecard
    expect(card.verdict).toBe('error')
    expect(card.reasons[0]?.message).toBe(`usage: --repo: no such folder: ${missing}`)
  })

  it('init refuses a missing folder and a folder outside git (exit 4) and writes nothing', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'og-cli-'))
    const missing = join(outside, 'no-such-repo')
    const gone = capture('/')
    expect(await main(['init', '--repo', missing], gone)).toBe(4)
    expect(gone.err()).toContain(`no such folder: ${missing}`)
    expect(existsSync(missing)).toBe(false)
    const plain = capture('/')
    expect(await main(['init', '--repo', outside], plain)).toBe(4)
    expect(plain.err()).toContain(`not a git repository: ${outside}`)
    expect(readdirSync(outside)).toEqual([])
    // The near-miss: a checkout is initialised.
    const repo = new TestRepo()
    repos.push(repo)
    repo.write({ 'app.py': 'X = 1\n' }).commit('base')
    const ok = capture('/')
    expect(await main(['init', '--repo', repo.dir], ok), ok.err()).toBe(0)
    expect(existsSync(join(repo.dir, '.github/oracle-gate.yml'))).toBe(true)
  })

  it('check without --base writes an error scorecard and exits 4', async () => {
    const io = capture('/')
    expect(await main(['check'], io)).toBe(4)
    const card = JSON.parse(io.out()) as Scorecard
    expect(card.schema).toBe('oracle-gate/scorecard@1')
    expect(card.verdict).toBe('error')
    expect(card.merge).toBe(false)
    expect(card.reasons).toEqual([
      { rule: 'config-invalid', message: 'usage: --base REF is required', level: 'failure' }
    ])
    expect(io.err()).toContain('--base REF is required')
  })

  it('an unresolvable ref is an error that names it', async () => {
    const repo = repoWithPolicy(policyYaml())
    const io = capture(repo.dir)
    expect(await main(['check', '--base', 'no-such-branch', '--quiet'], io)).toBe(4)
    const card = JSON.parse(io.out()) as Scorecard
    expect(card.reasons[0]?.rule).toBe('gate-error')
    expect(card.reasons[0]?.message).toContain('cannot resolve "no-such-branch"')
  })

  it('a bad --today is a usage error', async () => {
    const repo = repoWithPolicy(policyYaml())
    const io = capture(repo.dir)
    expect(await main(['check', '--base', 'main', '--today', '30/11/2026', '--quiet'], io)).toBe(4)
    expect((JSON.parse(io.out()) as Scorecard).reasons[0]?.message).toContain(
      '--today must be a calendar date YYYY-MM-DD'
    )
  })

  it('reads the policy from the merge base: an invalid base policy is an error even if the head fixes it', async () => {
    const repo = repoWithPolicy(policyYaml().replace('timeout: 120', 'timeout: soon'))
    repo.branch('agent')
    repo.write({ '.github/oracle-gate.yml': policyYaml() }).commit('agent fixes the policy')
    const io = capture(repo.dir)
    const code = await main(['check', '--base', 'main', '--today', '2026-11-30', '--quiet'], io)
    const card = JSON.parse(io.out()) as Scorecard
    expect(code).toBe(4)
    expect(card.verdict).toBe('error')
    const reason = card.reasons.find(r => r.rule === 'config-invalid')
    expect(reason?.path).toBe('.github/oracle-gate.yml')
    expect(reason?.line).toBe(
      policyYaml()
        .split('\n')
        .findIndex(l => l.includes('timeout:')) + 1
    )
    expect(reason?.message).toContain('suite.timeout: expected integer')
  })

  it('a head that invalidates the policy is not judged by its own policy', async () => {
    const repo = repoWithPolicy(policyYaml())
    repo.branch('agent')
    repo
      .write({ '.github/oracle-gate.yml': 'version: [broken\n' })
      .commit('agent breaks the policy')
    const io = capture(repo.dir)
    const code = await main(['check', '--base', 'main', '--quiet'], io)
    const card = JSON.parse(io.out()) as Scorecard
    expect(card.reasons.some(r => r.rule === 'config-invalid')).toBe(false)
    expect(code).not.toBe(0)
    expect(card.merge).toBe(false)
  })

  it('a policy missing at the merge base is an error, even when the head adds one', async () => {
    const repo = new TestRepo()
    repos.push(repo)
    repo.write({ 'src/app.py': 'X = 1\n' }).commit('base')
    repo.branch('agent')
    repo.write({ '.github/oracle-gate.yml': policyYaml() }).commit('agent adds a policy')
    const io = capture(repo.dir)
    expect(await main(['check', '--base', 'main', '--quiet'], io)).toBe(4)
    const card = JSON.parse(io.out()) as Scorecard
    expect(card.reasons[0]?.rule).toBe('config-invalid')
    expect(card.reasons[0]?.message).toContain('does not exist at the merge base')
  })

  it('--json and --markdown write files and keep stdout empty', async () => {
    const repo = repoWithPolicy(policyYaml())
    const io = capture(repo.dir)
    await main(
      ['check', '--base', 'main', '--json', 'card.json', '--markdown', 'card.md', '--quiet'],
      io
    )
    expect(io.out()).toBe('')
    const card = JSON.parse(readFileSync(join(repo.dir, 'card.json'), 'utf8')) as Scorecard
    expect(card.base).toBe(repo.sha())
    expect(readFileSync(join(repo.dir, 'card.md'), 'utf8')).toContain(
      `oracle-gate: \`${card.verdict}\``
    )
    expect(io.err()).toContain(`oracle-gate: ${card.verdict}`)
  })

  it('init writes a valid starter policy and refuses to overwrite', async () => {
    const repo = new TestRepo()
    repos.push(repo)
    const io = capture(repo.dir)
    expect(await main(['init'], io)).toBe(0)
    expect(existsSync(join(repo.dir, '.github/oracle-gate.yml'))).toBe(true)
    expect(await main(['init'], capture(repo.dir))).toBe(4)
    expect(await main(['init', '--force'], capture(repo.dir))).toBe(0)
  })
})

describe('the bundled CLI', () => {
  const cli = join(import.meta.dirname, '..', 'dist', 'cli.js')
  it('runs from dist/ with --version and exits 4 on a usage error', () => {
    expect(execFileSync(process.execPath, [cli, '--version'], { encoding: 'utf8' }).trim()).toBe(
      VERSION
    )
    const r = spawnSync(process.execPath, [cli, 'check'], { encoding: 'utf8' })
    expect(r.status).toBe(4)
    expect((JSON.parse(r.stdout) as Scorecard).verdict).toBe('error')
  })

  it('the action bundle without an event fails with a clear message', () => {
    const env = { PATH: process.env.PATH ?? '', RUNNER_TEMP: repos[0]?.dir ?? '/tmp' }
    const r = spawnSync(process.execPath, [join(import.meta.dirname, '..', 'dist', 'index.js')], {
      encoding: 'utf8',
      env
    })
    expect(r.status).not.toBe(0)
    expect(r.stdout).toContain('no GitHub event')
  })
})
