// `oracle-gate init`: inspects the repository (its tracked tests, layout and installed tools)
// and writes a commented policy fitted to it, plus the empty ledger that policy names. It
// never overwrites a policy without --force, because the policy is the instrument's charter
// and must change only in a reviewed PR; an existing ledger is never touched.
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'
import { Git } from '../git/git.js'
import { DEFAULT_POLICY_PATH } from '../policy/load.js'
import { fixtureStrengthNote } from '../policy/fixture-strength.js'
import { inspectRepository, type Inspection } from '../policy/inspect.js'
import {
  describeProject,
  EMPTY_LEDGER,
  renderInspected,
  STARTER_LEDGER_PATH
} from '../policy/starter.js'
import { logText } from '../report/sanitize.js'
import { EXIT, folderProblem, parseFlags, type Io } from './io.js'

export const INIT_USAGE = `Usage: oracle-gate init [--repo DIR] [--policy PATH] [--force]

Inspects the repository (git ls-files, the runner's configuration, the CI workflow) and
writes a policy fitted to it (default ${DEFAULT_POLICY_PATH}): the test files the runner
collects vote (voting_edits: append, so a patch may add tests but not edit existing ones),
files named like tests that define none are protected data, new files under agent-tests/
are the patch's own tests, the package manager is the one installed (pnpm: the pinned
version from the registry), the CI's test environment becomes suite.env, a Python src/
layout gets PYTHONPATH. Creates an empty ledger at ${STARTER_LEDGER_PATH} when there is none.
Next: oracle-gate doctor, then commit the policy in a PR of its own.
`

export async function runInit(argv: string[], io: Io): Promise<number> {
  const parsed = parseFlags(argv, {
    repo: { type: 'string' },
    policy: { type: 'string' },
    force: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' }
  })
  if ('error' in parsed) {
    io.stderr.write(`oracle-gate init: ${logText(parsed.error)}\n`)
    return EXIT.error
  }
  const { values } = parsed
  if (values.help) {
    io.stdout.write(INIT_USAGE)
    return EXIT.ok
  }
  const repo = resolve(io.cwd, values.repo ?? '.')
  // Nothing is written outside a git checkout: a mistyped --repo must not become a folder.
  const problem = folderProblem(repo) ?? (await notRepository(repo, io.env))
  if (problem !== null) {
    io.stderr.write(`oracle-gate init: ${logText(problem)}\n`)
    return EXIT.error
  }
  const target = resolve(repo, values.policy ?? DEFAULT_POLICY_PATH)
  if (existsSync(target) && !values.force) {
    io.stderr.write(`oracle-gate init: ${target} exists; pass --force to overwrite\n`)
    return EXIT.error
  }
  const ins = await inspectRepository(repo, io.env)
  await mkdir(dirname(target), { recursive: true })
  await writeFile(target, renderInspected(ins))
  const ledger = resolve(repo, STARTER_LEDGER_PATH)
  if (!existsSync(ledger)) {
    await mkdir(dirname(ledger), { recursive: true })
    await writeFile(ledger, EMPTY_LEDGER)
  }
  io.stderr.write(summary(target, ins))
  return EXIT.ok
}

/** Why `dir` is not a git checkout (git says where its repository is), or null. */
async function notRepository(dir: string, env: NodeJS.ProcessEnv): Promise<string | null> {
  const git = new Git(dir, env)
  try {
    await git.commonDir()
    return null
  } catch {
    return `not a git repository: ${dir}`
  } finally {
    await git.close().catch(() => undefined)
  }
}

/** What init took from the project's configuration, and what the maintainer must add. */
function notes(ins: Inspection): string {
  const out: string[] = []
  const source = ins.pytestSource
  if (source?.by === 'pytest')
    out.push(
      `pytest's configuration asked of pytest (${source.python}): rootdir ${source.rootdir}, ${ins.pytest?.file ?? 'no configuration file'}${ins.pytest?.ignore?.length ? `, ignoring ${ins.pytest.ignore.join(' ')}` : ''}`
    )
  if (source?.by === 'files')
    out.push(
      `pytest could not be asked (${source.why}): its configuration was read from the files (${ins.pytest?.file ?? 'none found: pytest defaults'})`
    )
  if (ins.pytest?.file && ins.pytest.testpaths.length > 0)
    out.push(`tests selected by ${ins.pytest.file}'s testpaths: ${ins.pytest.testpaths.join(' ')}`)
  if (ins.jsConfig !== null) out.push(`tests selected by ${ins.jsConfig}`)
  if (ins.dataFiles.length > 0)
    out.push(
      `named like tests but defining none (data: protected, left out of the run by the suite command; the voting globs stay): ${ins.dataFiles.join(', ')}`
    )
  const ciEnv = Object.keys(ins.ci?.env ?? {})
  if (ins.ci !== null && ciEnv.length > 0)
    out.push(`suite.env from the CI workflow (${ins.ci.source}): ${ciEnv.join(', ')}`)
  if (ins.project.kind === 'node' && ins.project.runner === 'jest' && !ins.jestJunit)
    out.push(
      'jest-junit is NOT a dependency: add it as a devDependency (the policy says how) and commit the lockfile with the policy, or every run leaves no report'
    )
  // init proposes no seeds corpus: only the tests' own generators count here.
  const strength = fixtureStrengthNote(ins.fixtures, ins.propertyLibrary, undefined)
  if (strength !== null) out.push(strength)
  return out.map(l => `${logText(l)}\n`).join('')
}

function summary(target: string, ins: Inspection): string {
  const tests =
    ins.testFiles.length === 0
      ? 'no tracked test files: the voting plane is a placeholder (oracle/properties/**)'
      : `${ins.testFiles.length} test file(s) vote: ${ins.voting.join(', ')}`
  return (
    `wrote ${target} (detected: ${describeProject(ins.project)})\n${tests}\n` +
    (ins.fallback ? `${ins.fallback.wanted} is not installed: using ${ins.fallback.used}\n` : '') +
    notes(ins) +
    'Next: oracle-gate doctor (runs the suite 3 times), then commit the policy and ledger in a PR of their own: the gate reads them from the merge base.\n'
  )
}
