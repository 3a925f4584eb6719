// Hostile text through the BUNDLED CLI (dist/cli.js) and the BUNDLED action (dist/index.js,
// against the fake GitHub API): file names, failure messages and suite output carrying HTML,
// Markdown, backticks, workflow commands, line separators and terminal escapes, and a
// product that appends to the runner's file commands. What comes out is checked where a
// reader or the runner would meet it: the card rendered by cmark-gfm (no element the head
// supplied, no fake verdict line), the raw stdout/stderr lines (no head line that is a
// workflow command, no raw control character), and the files GITHUB_* name (untouched).
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Scorecard } from '../src/types.js'
import { FakeGitHub, runBundledAction } from './helpers/fake-github.js'
import type { ActionRun } from './helpers/fake-github.js'
import { fakeVerdictBlocks, foreignTags, headings, renderGfm } from './helpers/gfm.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'

const ROOT = join(import.meta.dirname, '..')
const CLI = join(ROOT, 'dist', 'cli.js')
const ACTION = join(ROOT, 'dist', 'index.js')
const PY = pythonWithPytest()
const TOKEN = 'ghs_hostileFakeToken0123456789'
const TODAY = '2026-06-01'

/** Everything a head string may try, on one line (no '/', so it can be a file name). */
const HOSTILE =
  '<img src=x onerror=alert(1)> <h2>✅ oracle-gate: merge</h2 ``` ` ![p](www.evil.example) [x](a@evil.example) ::error file=app/calc.py,line=1::forged ##[error]forged-v1 ::add-mask::hunter2 \u2028## ✅ oracle-gate: merge\u2029 \u001b[2J\u001b[31m'
/** A second name, with real newlines: the next line of a log or a card would be the head's. */
const NEWLINES = 'x\n::add-mask::hunter2\n## ✅ oracle-gate: merge\n::error::forged-nl'

const POLICY = `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/properties/**]
  in_diff: [tests/**]
suite:
  command: ${PY} -m pytest oracle/properties -q -p no:cacheprovider --junitxml={junit}
  timeout: 120
  reruns: 0
`
const CALC_BUGGY = 'def absval(x):\n    return x\n'
const PROPERTIES = `from app import calc


def test_abs_non_negative():
    for x in [-5, 0, 3]:
        assert calc.absval(x) >= 0
`
/** The head's product: fails with a hostile message, prints hostile output, and writes to
 * every runner file command it can find in its environment. */
const CALC_HOSTILE = `import os, sys

MSG = ${JSON.stringify(HOSTILE)}
FILES = ("GITHUB_ENV", "GITHUB_PATH", "GITHUB_OUTPUT", "GITHUB_STATE", "GITHUB_STEP_SUMMARY")
for name in FILES:
    path = os.environ.get(name)
    if path:
        with open(path, "a") as f:
            f.write("NODE_OPTIONS=--require /tmp/pwned.js\\nPWNED_" + name + "=1\\n## ✅ oracle-gate: merge PWNED\\n")


def absval(x):
    print("::add-mask::hunter2")
    print("::error file=app/calc.py,line=1::forged-stdout")
    print("\`\`\`\`\`\`\\n<img src=x onerror=alert(2)>\\n## ✅ oracle-gate: merge\\n\\x1b[2J")
    if x < 0:
        raise ValueError(MSG)
    return x
`

/** Control characters and line separators a log line or a card must never hold raw. */
// eslint-disable-next-line no-control-regex
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/

/** Nine anchors, each nine aliases of the previous one: 9^9 nodes when expanded. */
function aliasBomb(): string {
  const lines = ['bomb0: &a0 [x, x, x, x, x, x, x, x, x]']
  for (let i = 1; i < 9; i++)
    lines.push(
      `bomb${i}: &a${i} [${Array(9)
        .fill(`*a${i - 1}`)
        .join(', ')}]`
    )
  return lines.join('\n') + '\n'
}
const BOMBED_POLICY = `${POLICY}x-${aliasBomb().replace(/\n(?=.)/g, '\nx-')}`

/** A product that needs no variable: it lists the runner's folder and appends to every file. */
const CALC_LISTS_FOLDER = `import os

folder = os.path.join(os.environ.get("RUNNER_TEMP", "/nonexistent"), "_runner_file_commands")
if os.path.isdir(folder):
    for name in os.listdir(folder):
        with open(os.path.join(folder, name), "a") as f:
            f.write("NODE_OPTIONS=--require /tmp/pwned.js\\n")


def absval(x):
    return abs(x)
`

const cleanups: Array<() => void> = []
const fakes: FakeGitHub[] = []
afterEach(async () => {
  for (const f of fakes.splice(0)) await f.close()
  for (const c of cleanups.splice(0)) c()
})

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Runner file-command files, empty, as a runner hands them to a step. */
function fileCommands(): Record<string, string> {
  const dir = tempDir('og-filecmd-')
  const files: Record<string, string> = {}
  for (const name of ['GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE']) {
    files[name] = join(dir, name.toLowerCase())
    writeFileSync(files[name], '')
  }
  return files
}

interface Scenario {
  repo: TestRepo
  base: string
  head: string
}

/** base: the locked suite; head: `files` on top. */
function scenario(head: Record<string, string>, base: Record<string, string> = {}): Scenario {
  const repo = new TestRepo('og-hostile-')
  cleanups.push(() => repo.cleanup())
  repo.write({
    '.github/oracle-gate.yml': POLICY,
    'app/__init__.py': '',
    'app/calc.py': CALC_BUGGY,
    'oracle/properties/test_calc.py': PROPERTIES,
    // The suite imports the project through pytest's pythonpath (children run with
    // PYTHONSAFEPATH=1, so the worktree root is not on sys.path by itself).
    'pytest.ini': '[pytest]\npythonpath = .\n',
    ...base
  })
  const baseSha = repo.commit('base')
  repo.branch('agent')
  repo.write(head)
  const headSha = repo.commit('agent patch')
  return { repo, base: baseSha, head: headSha }
}

/** The hostile product: its failure message and output carry the text. */
const productScenario = (): Scenario => scenario({ 'app/calc.py': CALC_HOSTILE })
/**
 * Hostile names, in the protected instrument and beside it: such a name is refused wherever
 * it is written (protected-path), so reasons, annotations and the write set all name them.
 */
const protectedScenario = (): Scenario =>
  scenario({
    [`oracle/${HOSTILE}.py`]: 'x = 1\n',
    [`oracle/${NEWLINES}.py`]: 'y = 2\n',
    [`tests/${HOSTILE}.txt`]: 'notes\n'
  })

// -------------------------------------------------------------------------------------
// What must hold of every card, log and file.

/** The rendered card has the text (escaped) and nothing the head could have made. */
function expectInertCard(markdown: string, verdict: string): void {
  const html = renderGfm(markdown)
  // The hostile text did reach the card, as text:
  expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;')
  expect(foreignTags(html)).toEqual([])
  const hs = headings(html)
  expect(hs.filter(h => h.includes('oracle-gate'))).toEqual([
    expect.stringMatching(new RegExp(`oracle-gate: <code>${verdict}</code>$`))
  ])
  for (const h of hs) expect(h).not.toMatch(/evil|img|forged|hunter2|PWNED/)
  expect(fakeVerdictBlocks(html)).toEqual([])
  expect(markdown).not.toMatch(RAW_CONTROL)
}

const OUR_COMMANDS =
  /^::(group|endgroup|debug|set-output|save-state|stop-commands)::|^::(error|warning|notice)( title=oracle-gate[^:]*)?::|^::add-mask::/

/**
 * Splits the action's stdout into what the runner acts on: lines outside
 * `::stop-commands::TOKEN` … `::TOKEN::` blocks. Each such line that the runner would read
 * as a command must be one the action writes itself.
 */
function expectNoForgedCommands(stdout: string): void {
  let stopToken: string | null = null
  const live: string[] = []
  for (const line of stdout.split('\n')) {
    if (stopToken !== null) {
      if (line === `::${stopToken}::`) stopToken = null
      continue
    }
    const stop = /^::stop-commands::(.+)$/.exec(line)
    if (stop) {
      stopToken = stop[1] ?? ''
      continue
    }
    live.push(line)
  }
  expect(stopToken).toBeNull()
  for (const line of live) {
    const trimmed = line.trimStart()
    if (trimmed.startsWith('::')) {
      expect(trimmed, line).toMatch(OUR_COMMANDS)
      if (trimmed.startsWith('::add-mask::')) expect(trimmed).toBe(`::add-mask::${TOKEN}`)
    } else {
      // The runner's older syntax is found anywhere in a line that is not a ::command::.
      expect(line, line).not.toContain('##[')
    }
    expect(line).not.toMatch(RAW_CONTROL)
  }
  expect(live.join('\n')).not.toMatch(/^\s*::error file=app\/calc\.py,line=1::forged/m)
}

function expectUntouched(files: Record<string, string>): void {
  for (const [name, path] of Object.entries(files))
    expect(readFileSync(path, 'utf8'), name).toBe('')
}

// -------------------------------------------------------------------------------------

function runCli(
  s: Scenario,
  args: string[] = [],
  env: Record<string, string> = {}
): { status: number | null; stdout: string; stderr: string; markdown: string; card: Scorecard } {
  const out = tempDir('og-cli-out-')
  const md = join(out, 'card.md')
  const r = spawnSync(
    process.execPath,
    [
      CLI,
      'check',
      '--base',
      'main',
      '--head',
      'agent',
      '--today',
      TODAY,
      '--markdown',
      md,
      ...args
    ],
    {
      cwd: s.repo.dir,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LANG: 'C.UTF-8', ...env },
      timeout: 120_000,
      maxBuffer: 1 << 28
    }
  )
  return {
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    markdown: readFileSync(md, 'utf8'),
    card: JSON.parse(r.stdout) as Scorecard
  }
}

describe('hostile text through the bundled CLI', () => {
  it('the attack works on a naive run: the product writes to the runner file commands', () => {
    const s = productScenario()
    s.repo.checkout('agent')
    const files = fileCommands()
    const r = spawnSync(
      'bash',
      ['-c', `${PY} -m pytest oracle/properties -q -p no:cacheprovider`],
      { cwd: s.repo.dir, encoding: 'utf8', env: { ...process.env, ...files } }
    )
    expect(r.status).not.toBe(0)
    expect(readFileSync(files.GITHUB_ENV ?? '', 'utf8')).toContain('NODE_OPTIONS=--require')
    expect(readFileSync(files.GITHUB_PATH ?? '', 'utf8')).toContain('PWNED_GITHUB_PATH')
    // ...and its output is what a naive log would print raw:
    expect(r.stdout).toMatch(/^::error file=app\/calc\.py,line=1::forged-stdout$/m)
    s.repo.checkout('main')
  })

  it('a hostile product and hostile file names: inert card, one-line stderr, file commands untouched', () => {
    const s = productScenario()
    const files = fileCommands()
    const r = runCli(s, [], files)
    expect(r.card.verdict).toBe('product')
    expect(r.status).toBe(1)
    expectInertCard(r.markdown, 'product')
    // The failure message and the names are in the card, escaped, and the log tail too.
    expect(r.markdown).toContain('::error file=app/calc.py,line=1::forged')
    expect(r.markdown).toMatch(/`{4,}\n[^]*forged-stdout[^]*\n`{4,}/)
    expectUntouched(files)
    // stderr: every line the CLI's own; head text is on one line with escapes shown.
    expect(r.stderr).not.toMatch(RAW_CONTROL)
    for (const line of r.stderr.split('\n')) {
      expect(line).not.toMatch(/^\s*(::|##)/)
    }
    // (pytest itself writes ESC in a message as #x1B; the line separators come through.)
    expect(r.stderr).toContain('\\u2028## ✅ oracle-gate: merge\\u2029')
  })

  it('hostile names in the instrument: reasons name them, nothing renders', () => {
    const s = protectedScenario()
    const r = runCli(s)
    expect(r.card.verdict).toBe('policy')
    expect(r.card.reasons.filter(x => x.rule === 'protected-path').map(x => x.path)).toEqual(
      expect.arrayContaining([`oracle/${HOSTILE}.py`, `oracle/${NEWLINES}.py`])
    )
    expectInertCard(r.markdown, 'policy')
    expect(r.stderr).not.toMatch(RAW_CONTROL)
    expect(r.stderr).toContain('x\\n::add-mask::hunter2\\n## ✅ oracle-gate: merge')
    expect(r.stderr).toContain('\\x1b[2J\\x1b[31m')
  })

  it.each(['2026-13-45', '2026-02-30', '2026-2-3', 'tomorrow'])(
    '--today %s is config-invalid, and the scorecard is still written',
    today => {
      const s = productScenario()
      const r = spawnSync(
        process.execPath,
        [CLI, 'check', '--base', 'main', '--head', 'agent', '--today', today],
        { cwd: s.repo.dir, encoding: 'utf8' }
      )
      expect(r.status).toBe(4)
      const card = JSON.parse(r.stdout) as Scorecard
      expect(card.verdict).toBe('error')
      expect(card.reasons).toEqual([
        expect.objectContaining({
          rule: 'config-invalid',
          message: expect.stringContaining(`calendar date YYYY-MM-DD, got "${today}"`)
        })
      ])
      expect(card.runs).toEqual([])
    }
  )

  it('an alias bomb in the policy is config-invalid naming file and line, with a card', () => {
    const s = scenario(
      { 'app/calc.py': CALC_HOSTILE },
      { '.github/oracle-gate.yml': BOMBED_POLICY }
    )
    const r = runCli(s)
    expect(r.status).toBe(4)
    expect(r.card.reasons).toEqual([
      expect.objectContaining({
        rule: 'config-invalid',
        path: '.github/oracle-gate.yml',
        line: POLICY.split('\n').length + 1,
        message: expect.stringMatching(/too many aliases .*an alias bomb/)
      })
    ])
    expect(r.card.runs).toEqual([])
  })

  it('an alias bomb in the ledger is ledger-invalid naming file and line', () => {
    const s = scenario(
      { 'app/calc.py': 'def absval(x):\n    return abs(x)\n' },
      {
        '.github/oracle-gate.yml': `${POLICY}ledger: oracle/flake_ledger.yml\n`,
        'oracle/flake_ledger.yml': `version: 1\nentries: []\n${aliasBomb()}`
      }
    )
    const r = runCli(s)
    expect(r.card.verdict).toBe('policy')
    expect(r.card.reasons.filter(x => x.rule === 'ledger-invalid')).toEqual([
      expect.objectContaining({
        rule: 'ledger-invalid',
        path: 'oracle/flake_ledger.yml',
        line: 4,
        message: expect.stringMatching(/too many aliases/)
      })
    ])
  })

  it('--today 2028-02-29 (a leap day, the near miss) is accepted', () => {
    const s = scenario({ 'app/calc.py': 'def absval(x):\n    return abs(x)\n' })
    const r = runCli(s, ['--today', '2028-02-29'])
    expect(r.card.verdict).toBe('merge')
    expect(r.card.today).toBe('2028-02-29')
  })
})

// -------------------------------------------------------------------------------------

function payload(s: Scenario): unknown {
  const repo = { full_name: 'acme/widget', name: 'widget', owner: { login: 'acme' } }
  return {
    action: 'synchronize',
    number: 1,
    pull_request: {
      number: 1,
      base: { sha: s.base, ref: 'main', repo },
      head: { sha: s.head, ref: 'agent', repo }
    },
    repository: repo
  }
}

/** The PR files as the API lists them (names with newlines included, as JSON allows). */
function apiFiles(s: Scenario): Array<{ filename: string; status: string }> {
  const out = s.repo.git('diff', '--name-status', '-z', '--no-renames', s.base, s.head)
  const parts = out.split('\0').filter(Boolean)
  const files: Array<{ filename: string; status: string }> = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    files.push({
      filename: parts[i + 1] ?? '',
      status: parts[i] === 'A' ? 'added' : parts[i] === 'D' ? 'removed' : 'modified'
    })
  }
  return files
}

async function runAction(
  s: Scenario,
  options: { refuseCheckRuns?: boolean; env?: Record<string, string>; today?: string } = {}
): Promise<{ run: ActionRun; fake: FakeGitHub }> {
  // The workspace: a checkout of the head with the base's history, as actions/checkout leaves.
  const ws = tempDir('og-hostile-ws-')
  execFileSync('git', ['clone', '-q', '--no-checkout', s.repo.dir, ws])
  execFileSync('git', ['checkout', '-q', '--detach', s.head], { cwd: ws })
  const fake = await FakeGitHub.start({
    token: TOKEN,
    pulls: [{ number: 1, baseSha: s.base, headSha: s.head, files: apiFiles(s) }],
    ...(options.refuseCheckRuns ? { refuseCheckRuns: true } : {})
  })
  fakes.push(fake)
  const run = await runBundledAction({
    entry: ACTION,
    workspace: ws,
    eventName: 'pull_request',
    payload: payload(s),
    inputs: { token: TOKEN, today: options.today ?? TODAY },
    apiUrl: fake.apiUrl,
    repository: fake.repository,
    ...(options.env ? { env: options.env } : {})
  })
  cleanups.push(() => rmSync(run.runnerTemp, { recursive: true, force: true }))
  return { run, fake }
}

describe('hostile text through the bundled action', () => {
  it('a hostile product: inert check run and job summary, no forged command, file commands untouched', async () => {
    const s = productScenario()
    const files = fileCommands()
    const { run, fake } = await runAction(s, { env: files })
    expect(run.outputs.verdict).toBe('product')
    expect(run.code).not.toBe(0)
    expect(fake.invalid).toEqual([])

    const summary = fake.checkRuns[0]?.output.summary ?? ''
    expectInertCard(summary, 'product')
    expectInertCard(run.summary, 'product')
    expect(run.summary).not.toContain('PWNED')
    expect(Object.keys(run.outputs).sort()).toEqual([
      'attestation',
      'merge',
      'oracle-hits',
      'scorecard',
      'verdict'
    ])
    expectUntouched(files)

    expectNoForgedCommands(run.stdout)
    // Annotation messages are text: no raw escapes there either.
    for (const a of fake.checkRuns[0]?.annotations ?? []) expect(a.message).not.toMatch(RAW_CONTROL)
  })

  it('hostile names in the instrument, with a read-only token: step annotations cannot be forged', async () => {
    const s = protectedScenario()
    const { run } = await runAction(s, { refuseCheckRuns: true })
    expect(run.outputs.verdict).toBe('policy')
    expectInertCard(run.summary, 'policy')
    expectNoForgedCommands(run.stdout)
    // The step's own annotations carry the names: line breaks shown, then escaped as the
    // runner expects of a property (%3A for ':').
    const annotations = run.stdout.split('\n').filter(l => /^::error title=oracle-gate/.test(l))
    expect(annotations.join('\n')).toContain('protected-path')
    expect(annotations.join('\n')).toContain(
      'x\\n%3A%3Aadd-mask%3A%3Ahunter2\\n## ✅ oracle-gate%3A merge'
    )
  })

  it('a head that leaves a FIFO as the report: the head vote is red, no hang, a card', async () => {
    // The base's suite command runs a script of the product; the head's version leaves a FIFO.
    const report = (body: string): string => `#!/bin/bash\n${body}\n`
    const s = scenario(
      { 'app/report.sh': report('mkfifo "$1"') },
      {
        '.github/oracle-gate.yml': POLICY.replace(
          /command: .*/,
          'command: bash app/report.sh {junit}'
        ),
        'app/report.sh': report(
          `echo '<testsuite><testcase classname="oracle.properties.test_calc" name="test_abs_non_negative" file="oracle/properties/test_calc.py"/></testsuite>' > "$1"`
        )
      }
    )
    const { run, fake } = await runAction(s)
    expect(run.outputs.verdict).toBe('product')
    const card = JSON.parse(readFileSync(run.outputs.scorecard ?? '', 'utf8')) as Scorecard
    expect(card.reasons.find(r => r.rule === 'oracle-failed')?.message).toMatch(
      /no readable report on head .*is a FIFO, not a regular file/
    )
    expect(fake.checkRuns[0]?.conclusion).toBe('failure')
  })

  it('an alias bomb in the policy: config-invalid naming file and line, a failed check run', async () => {
    const s = scenario(
      { 'app/calc.py': CALC_HOSTILE },
      { '.github/oracle-gate.yml': BOMBED_POLICY }
    )
    const { run, fake } = await runAction(s)
    expect(run.outputs.verdict).toBe('error')
    const card = JSON.parse(readFileSync(run.outputs.scorecard ?? '', 'utf8')) as Scorecard
    expect(card.reasons[0]).toMatchObject({
      rule: 'config-invalid',
      path: '.github/oracle-gate.yml',
      line: POLICY.split('\n').length + 1
    })
    expect(fake.checkRuns[0]?.conclusion).toBe('failure')
  })

  it('a product that finds the file-command files by listing their folder: put back, runner-tampered', async () => {
    // What the runner does: the files live in $RUNNER_TEMP/_runner_file_commands.
    const runnerTemp = tempDir('og-runner-temp-')
    const folder = join(runnerTemp, '_runner_file_commands')
    mkdirSync(folder)
    const files: Record<string, string> = {}
    for (const name of ['GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE']) {
      files[name] = join(folder, `${name.toLowerCase()}_0123`)
      writeFileSync(files[name], '')
    }
    // Without the sandbox, which hides the folder from the suite: the check behind it.
    const s = scenario(
      { 'app/calc.py': CALC_LISTS_FOLDER },
      { '.github/oracle-gate.yml': POLICY.replace('suite:\n', 'sandbox: off\nsuite:\n') }
    )
    // The attack works on a naive run, with no GITHUB_* variable at all:
    s.repo.checkout('agent')
    spawnSync('bash', ['-c', `${PY} -m pytest oracle/properties -q -p no:cacheprovider`], {
      cwd: s.repo.dir,
      env: { PATH: process.env.PATH ?? '', RUNNER_TEMP: runnerTemp }
    })
    expect(readFileSync(files.GITHUB_ENV ?? '', 'utf8')).toContain('NODE_OPTIONS=--require')
    for (const path of Object.values(files)) writeFileSync(path, '')

    const { run } = await runAction(s, { env: { ...files, RUNNER_TEMP: runnerTemp } })
    expectUntouched(files)
    const card = JSON.parse(readFileSync(run.outputs.scorecard ?? '', 'utf8')) as Scorecard
    expect(card.verdict).not.toBe('merge')
    expect(card.reasons).toContainEqual(
      expect.objectContaining({
        rule: 'runner-tampered',
        message: expect.stringMatching(
          /wrote to the runner's file commands \(GITHUB_ENV, GITHUB_PATH, GITHUB_STATE\)/
        )
      })
    )
  })

  it("the action's today input 2026-13-45 is config-invalid, with a card", async () => {
    const s = productScenario()
    const { run, fake } = await runAction(s, { today: '2026-13-45' })
    expect(run.outputs.verdict).toBe('error')
    const card = JSON.parse(readFileSync(run.outputs.scorecard ?? '', 'utf8')) as Scorecard
    expect(card.reasons[0]).toMatchObject({ rule: 'config-invalid' })
    expect(card.reasons[0]?.message).toContain('2026-13-45')
    expect(fake.checkRuns[0]?.conclusion).toBe('failure')
  })
})
