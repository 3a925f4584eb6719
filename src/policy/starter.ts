// The starter policy written by `oracle-gate init`. It must parse against the schema (a
// test checks every variant), and every key carries a comment saying what it does.
//
// The variant follows the repository: its lockfile names the package manager (and so the
// setup command), its package.json names the JavaScript test runner. Detection is a pure
// function of the root's file names and package.json, so each variant can be tested
// without a real project.
import { posix } from 'node:path'
import type { Inspection } from './inspect.js'

export type NodeManager = 'npm' | 'pnpm' | 'yarn' | 'yarn-berry' | 'bun'
export type NodeRunner = 'vitest' | 'jest' | 'node-test'
export type PythonManager = 'uv' | 'poetry' | 'pip' | 'none'

export type Project =
  | {
      kind: 'node'
      manager: NodeManager
      lockfile: string | null
      runner: NodeRunner
      /** How to run the manager when it is not installed (`npx --yes pnpm@9.12.0`). */
      launcher?: string
      /** package.json names no dependency: nothing to install, so no setup. */
      noDependencies?: true
    }
  | { kind: 'python'; manager: PythonManager; lockfile: string | null }

/** Lockfile → manager, in the order a mixed repository is most likely to mean. */
const NODE_LOCKFILES: readonly [string, NodeManager][] = [
  ['pnpm-lock.yaml', 'pnpm'],
  ['yarn.lock', 'yarn'],
  ['bun.lock', 'bun'],
  ['bun.lockb', 'bun'],
  ['package-lock.json', 'npm'],
  ['npm-shrinkwrap.json', 'npm']
]

/** One line for the user: what init detected, and from which file. */
export function describeProject(p: Project): string {
  const from = p.lockfile === null ? 'no lockfile' : p.lockfile
  return p.kind === 'node'
    ? `JavaScript/TypeScript, ${p.manager} (${from}), ${p.runner === 'node-test' ? 'node:test' : p.runner}`
    : `Python, ${p.manager === 'none' ? 'pytest from the environment' : `${p.manager} (${from})`}`
}

export function detectProject(rootNames: readonly string[], packageJson?: string): Project {
  const has = (n: string): boolean => rootNames.includes(n)
  const nodeLock = NODE_LOCKFILES.find(([file]) => has(file))
  if (nodeLock !== undefined || packageJson !== undefined) {
    let manager: NodeManager = nodeLock?.[1] ?? 'npm'
    // Yarn 2+ keeps its settings in .yarnrc.yml and wants --immutable, not --frozen-lockfile.
    if (manager === 'yarn' && has('.yarnrc.yml')) manager = 'yarn-berry'
    const project: Project = {
      kind: 'node',
      manager,
      lockfile: nodeLock?.[0] ?? null,
      runner: nodeRunner(packageJson)
    }
    if (nodeLock === undefined && !hasDependencies(packageJson)) project.noDependencies = true
    return project
  }
  if (has('uv.lock')) return { kind: 'python', manager: 'uv', lockfile: 'uv.lock' }
  if (has('poetry.lock')) return { kind: 'python', manager: 'poetry', lockfile: 'poetry.lock' }
  const requirements = rootNames.filter(n => /^requirements.*\.txt$/.test(n)).sort()
  if (requirements.length > 0) {
    const main = requirements.includes('requirements.txt')
      ? 'requirements.txt'
      : (requirements[0] ?? null)
    return { kind: 'python', manager: 'pip', lockfile: main }
  }
  return { kind: 'python', manager: 'none', lockfile: null }
}

function nodeRunner(packageJson: string | undefined): NodeRunner {
  let deps: Record<string, unknown> = {}
  try {
    const parsed = JSON.parse(packageJson ?? '{}') as Record<
      string,
      Record<string, unknown> | undefined
    >
    deps = { ...parsed.dependencies, ...parsed.devDependencies }
  } catch {
    // An unreadable package.json: fall back to the runner that needs no package.
  }
  if ('vitest' in deps) return 'vitest'
  if ('jest' in deps) return 'jest'
  return 'node-test'
}

/** Does package.json name any dependency (an unreadable one counts as yes)? */
function hasDependencies(packageJson: string | undefined): boolean {
  try {
    const parsed = JSON.parse(packageJson ?? '{}') as Record<string, unknown>
    return ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'].some(
      k => typeof parsed[k] === 'object' && Object.keys(parsed[k] ?? {}).length > 0
    )
  } catch {
    return true
  }
}

/**
 * The setup and reuse lines of a node project: none without dependencies (nothing to
 * install), and never a command that writes into the checkout: npm without a lockfile
 * would write package-lock.json, a file the gate then finds appeared in the head.
 */
function nodeSetupLines(p: Extract<Project, { kind: 'node' }>, comment: string): string {
  if (p.noDependencies)
    return '\n  # No dependencies in package.json and no lockfile: nothing to install, so no setup.'
  return `
  # Installs dependencies in each fresh worktree (${p.manager}, ${comment}).
  # A failing setup on the base is a gate error; on the head it is a red vote.
  setup: ${nodeSetup(p.manager, p.lockfile, p.launcher)}
  setup_timeout: 900
  # Link the checkout's node_modules instead of installing, but only into a worktree whose
  # lockfile is byte-identical to the checkout's (otherwise setup runs for that side).
  # Install in the checkout before the gate runs (e.g. the same command in an earlier step).
  reuse: [node_modules]`
}

/** Installs exactly what the lockfile says, from the local cache when it can. */
function nodeSetup(manager: NodeManager, lockfile: string | null, launcher?: string): string {
  switch (manager) {
    case 'pnpm':
      return `${launcher ?? 'pnpm'} install --frozen-lockfile --prefer-offline`
    case 'yarn':
      return 'yarn install --frozen-lockfile --prefer-offline --non-interactive'
    case 'yarn-berry':
      return 'yarn install --immutable'
    case 'bun':
      return 'bun install --frozen-lockfile'
    case 'npm':
      // No lockfile: install without writing one (package-lock.json in the worktree would
      // be a file the head's run made).
      return lockfile === null
        ? 'npm install --no-package-lock --prefer-offline --no-audit --no-fund'
        : 'npm ci --prefer-offline --no-audit --no-fund'
  }
}

/** Runs a package's binary without ever fetching it from the registry. */
function nodeExec(manager: NodeManager, launcher?: string): string {
  // A manager fetched from the registry installed the binaries in node_modules/.bin.
  if (launcher !== undefined) return 'npx --no'
  switch (manager) {
    case 'pnpm':
      return 'pnpm exec'
    case 'yarn':
    case 'yarn-berry':
      return 'yarn'
    case 'bun':
      return 'bun run'
    case 'npm':
      return 'npx --no'
  }
}

function nodeSuite(p: Extract<Project, { kind: 'node' }>): string {
  const exec = nodeExec(p.manager, p.launcher)
  switch (p.runner) {
    case 'vitest':
      return `  # vitest writes JUnit XML next to its usual output.
  command: ${exec} vitest run oracle/properties --reporter=default --reporter=junit --outputFile.junit={junit}`
    case 'jest':
      return `  # Needs jest-junit in devDependencies; it reads the report path from the environment.
  command: JEST_JUNIT_OUTPUT_FILE="$ORACLE_GATE_JUNIT" ${exec} jest oracle/properties --ci --reporters=default --reporters=jest-junit`
    case 'node-test':
      return `  # node:test's built-in junit reporter (Node 20 and later), plus the usual output on stdout.
  command: node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination={junit} oracle/properties/`
  }
}

function nodeBlock(p: Extract<Project, { kind: 'node' }>): string {
  const lock =
    p.lockfile === null
      ? 'no lockfile found: commit one, so reuse can be proved safe'
      : `detected from ${p.lockfile}`
  return `${nodeSuite(p)}
  timeout: 600        # seconds per side; a timed-out side is a red vote
  reruns: 2           # reruns of a failing voting test, to tell flaky from failing${nodeSetupLines(p, lock)}`
}

function pythonBlock(p: Extract<Project, { kind: 'python' }>): string {
  const pytest = '-m pytest oracle/properties -p no:cacheprovider --junitxml={junit}'
  const common = `  timeout: 600        # seconds per side; a timed-out side is a red vote
  reruns: 2           # reruns of a failing voting test, to tell flaky from failing`
  const reuse = `  # Link the checkout's .venv instead of installing, only into a worktree whose ${p.lockfile ?? 'lockfile'}
  # is byte-identical to the checkout's. The project itself must not be installed into
  # it in editable mode (the gate refuses such a .venv: it would import the checkout's code).
  reuse: [.venv]`
  switch (p.manager) {
    case 'uv':
      return `  command: uv run --frozen --no-sync python ${pytest}
${common}
  # Installs the locked dependencies (not the project) into .venv in each fresh worktree.
  setup: uv sync --frozen --no-install-project
  setup_timeout: 900
${reuse}`
    case 'poetry':
      return `  command: .venv/bin/python ${pytest}
${common}
  # Installs the locked dependencies into .venv inside each fresh worktree.
  setup: POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction --no-root
  setup_timeout: 900
${reuse}`
    case 'pip':
      return `  command: .venv/bin/python ${pytest}
${common}
  # A virtual environment per worktree, from ${p.lockfile}.
  setup: python3 -m venv .venv && .venv/bin/python -m pip install --disable-pip-version-check -q -r ${p.lockfile}
  setup_timeout: 900
${reuse}`
    case 'none':
      return `  # pytest and hypothesis come from the environment the gate runs in.
  command: python -m pytest oracle/properties -p no:cacheprovider --junitxml={junit}
${common}`
  }
}

/** The placeholder policy (no tracked tests yet); a campaign only when a property library is used. */
export function renderStarter(p: Project, propertyLibrary: string | null = null): string {
  return `# oracle-gate policy: who may write what, and which tests vote.
# The gate reads this file from the merge base; a PR cannot change how it is judged.
version: 1

# Paths a patch may not add, modify, delete or rename into/out of (the instrument).
# This file, the ledger, the fixture manifest and the seed corpus are always protected.
protected:
  - oracle/**
  - .github/workflows/**

planes:
  voting: [oracle/properties/**]   # the locked suite: only these tests vote
  drafts: [drafts/**]              # run as diagnostics, never vote
  in_diff: [tests/**]              # the patch may write these; they never vote

suite:
  # Run once on the merge base and once on the head, from the worktree root. Name only
  # the voting tests: the patch's own tests run apart, as diagnostics (docs/replay.md).
  # Python runs with PYTHONSAFEPATH=1 (python_safe_path): say where the code is, e.g.
  # pythonpath = src in pytest's configuration.
${p.kind === 'node' ? nodeBlock(p) : pythonBlock(p)}
${runnerLine(p)}

ledger: oracle/flake_ledger.yml          # dated, owned flake rows
# fixtures: oracle/fixtures/manifest.json  # {name: {file, sha256}}
${campaignBlock(propertyLibrary)}`
}

function campaignBlock(propertyLibrary: string | null): string {
  return propertyLibrary === null
    ? ''
    : `# ${propertyLibrary} is in use: property tests run with this seed and budget.
campaign: {seed: 20260913, max_examples: 128, wall_clock: 90}
`
}

/** The ledger file init creates: empty and valid. */
export const EMPTY_LEDGER = 'version: 1\nentries: []\n'
export const STARTER_LEDGER_PATH = 'oracle/flake_ledger.yml'

/** The policy fitted to an inspected repository (the placeholder when it has no tests yet). */
export function renderInspected(ins: Inspection): string {
  if (ins.testFiles.length === 0) return renderStarter(ins.project, ins.propertyLibrary)
  const protectedPaths = ['oracle/**', '.github/workflows/**', ...ins.protectedFiles]
  return `# oracle-gate policy: who may write what, and which tests vote.
# The gate reads this file from the merge base; a PR cannot change how it is judged.
# Written by oracle-gate init from ${ins.testFiles.length} tracked test file(s); review it, then
# run \`oracle-gate doctor\` before committing it in a PR of its own.
version: 1

# A patch may add test files matching the voting globs and add tests (and imports) to
# existing voting files; editing or deleting an existing test is protected-path.
voting_edits: append

# Paths a patch may not add, modify, delete or rename (the instrument: the ledger and
# fixtures live under oracle/, runner configuration at the root).
protected:
${protectedPaths.map(p => `  - ${yamlString(p)}`).join('\n')}

planes:
  # The existing suite votes (the merge base's version of each file).
  voting: [${ins.voting.map(yamlString).join(', ')}]
  # New test files elsewhere: run as diagnostics, never vote. A file matching a voting glob
  # is on the voting plane even inside ${ins.inDiff}/ (voting wins over in_diff).
  in_diff: [${ins.inDiff}/**]
${productionLines(ins.production)}
suite:
${ins.project.kind === 'node' ? fittedNode(ins, ins.project) : fittedPython(ins, ins.project)}
${runnerLine(ins.project)}
  timeout: 600        # seconds per side; a timed-out side is a red vote
  # Reruns of a failing voting test, to tell flaky from failing. They select the failing
  # tests only (suite.runner above; set suite.rerun_command with {tests} to override).
  reruns: 2

ledger: ${STARTER_LEDGER_PATH}          # dated, owned flake rows (init created it empty)
# Rows of tests broken by the environment (cause env) may live longer than flakes, e.g.
# ledger_max_days: {default: 30, env: 180}
# fixtures: oracle/fixtures/manifest.json  # {name: {file, sha256}}
${campaignBlock(ins.propertyLibrary)}`
}

/** planes.production from the layout; without one the vote uses every file of the head. */
function productionLines(globs: readonly string[]): string {
  if (globs.length === 0)
    return '  # production: [src/**]   # name the production code: the vote then takes every other path from the merge base\n'
  return `  # The production code: for the vote, every other path of the head is the merge base's.
  production: [${globs.map(yamlString).join(', ')}]
`
}

/** suite.runner, written out so that a later edit of the command keeps targeted reruns. */
function runnerLine(p: Project): string {
  const kind = p.kind === 'node' ? p.runner : 'pytest'
  return `  # Decides how a rerun selects the failing tests only ({tests}) and the canary.
  runner: ${kind}`
}

function yamlString(s: string): string {
  return /^[\w./-][\w./*-]*$/.test(s) && !s.startsWith('*') ? s : JSON.stringify(s)
}

function fallbackComment(ins: Inspection): string {
  if (ins.fallback === null) return ''
  if (ins.project.kind === 'node' && ins.project.launcher !== undefined)
    return `  # ${ins.fallback.wanted} is not installed here: setup runs the version the project names
  # from the registry (${ins.project.launcher}), so the lockfile decides what is installed.
`
  return `  # The lockfile names ${ins.fallback.wanted}, which is not installed here: using ${ins.fallback.used}.
  # Install ${ins.fallback.wanted} where the gate runs and rerun init for its locked setup.
`
}

/** Where the tests came from and what the project's own CI and test script run. */
function sourceComment(ins: Inspection): string {
  const lines: string[] = []
  if (ins.ci !== null)
    lines.push(`# The project's CI runs: ${oneLine(ins.ci.command)} (${oneLine(ins.ci.source)})`)
  if (ins.testScript !== null)
    lines.push(`# package.json's test script: ${oneLine(ins.testScript)}`)
  return lines.map(l => `  ${l}\n`).join('')
}

function oneLine(s: string): string {
  return s.replace(/[\r\n\u2028\u2029]+/g, ' ').slice(0, 200)
}

/** The command-line arguments that keep data files named like tests out of the run. */
function dataExclusions(ins: Inspection, runner: string): string {
  if (ins.dataFiles.length === 0) return ''
  if (runner === 'vitest') return ins.dataFiles.map(f => ` --exclude ${shellWord(f)}`).join('')
  if (runner === 'jest') {
    const patterns = ['/node_modules/', ...ins.dataFiles.map(f => `/${escapeRegExp(f)}$`)]
    return ` --testPathIgnorePatterns ${patterns.map(shellWord).join(' ')}`
  }
  return ''
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function shellWord(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`
}

/**
 * node:test's file arguments: a shell glob per folder for files named `*.test.js` (so the
 * canary, `<token>.test.mjs` beside them, is collected too), the other files by name.
 */
export function nodeTestArgs(files: readonly string[]): string[] {
  const out = new Set<string>()
  for (const f of files) {
    const dir = posix.dirname(f)
    // *.test.js and *.spec.js as a folder glob: a test the patch adds beside them runs too.
    const kind = /\.(test|spec)\.[cm]?js$/.exec(f)?.[1]
    out.add(kind ? (dir === '.' ? `*.${kind}.*js` : `${dir}/*.${kind}.*js`) : f)
  }
  return [...out].sort()
}

function jestJunitComment(ins: Inspection, p: Extract<Project, { kind: 'node' }>): string {
  if (ins.jestJunit)
    return `  # jest-junit (a dependency of the package) writes the report; the file attribute and
  # templates map each case to its file (the gate sets the same variables on its own runs).
`
  const add =
    p.manager === 'npm'
      ? 'npm install --save-dev jest-junit@16'
      : p.manager === 'pnpm'
        ? `${p.launcher ?? 'pnpm'} add -D jest-junit@16`
        : p.manager === 'bun'
          ? 'bun add -d jest-junit@16'
          : 'yarn add -D jest-junit@16'
  return `  # jest-junit is NOT a dependency of this package, and the gate reads its report: run
  #   ${add}
  # and commit package.json and the lockfile with this policy (without it every run is
  # "no report"). The file attribute and templates map each case to its file.
`
}

function fittedNode(ins: Inspection, p: Extract<Project, { kind: 'node' }>): string {
  const exec = nodeExec(p.manager, p.launcher)
  const paths = ins.commandPaths.filter(x => x !== '.').join(' ')
  const skip = dataExclusions(ins, p.runner)
  const command =
    p.runner === 'jest'
      ? `${jestJunitComment(ins, p)}  command: JEST_JUNIT_OUTPUT_FILE={junit} JEST_JUNIT_ADD_FILE_ATTRIBUTE=true JEST_JUNIT_CLASSNAME='{classname}' JEST_JUNIT_TITLE='{title}' JEST_JUNIT_ANCESTOR_SEPARATOR=' > ' ${exec} jest ${paths}${skip} --ci --reporters=default --reporters=jest-junit`
      : p.runner === 'vitest'
        ? `  # The voting tests only; vitest writes JUnit XML next to its usual output.
  command: ${exec} vitest run ${paths}${skip} --reporter=default --reporter=junit --outputFile.junit={junit}`
        : `  # node:test's built-in junit reporter, plus the usual output on stdout. Files named
  # *.test.js are given as a folder glob, so the gate's canary beside them runs too.
  command: node --test --test-reporter=spec --test-reporter-destination=stdout --test-reporter=junit --test-reporter-destination={junit} ${nodeTestArgs(ins.testFiles).map(yamlString).join(' ')}`
  const lock =
    p.lockfile === null
      ? 'no lockfile: commit one so reuse can be proved safe'
      : `from ${p.lockfile}`
  return `${fallbackComment(ins)}${sourceComment(ins)}${command.replace(/ {2,}--/g, ' --')}${nodeSetupLines(p, lock)}${envBlock(ins)}`
}

function fittedPython(ins: Inspection, p: Extract<Project, { kind: 'python' }>): string {
  const paths = ins.commandPaths.join(' ')
  const pytest = `-m pytest ${paths} -p no:cacheprovider --junitxml={junit}`
  const interpreter =
    p.manager === 'uv'
      ? 'uv run --frozen --no-sync python'
      : p.manager === 'poetry' || p.manager === 'pip'
        ? '.venv/bin/python'
        : ins.python
  const setup =
    p.manager === 'uv'
      ? '  setup: uv sync --frozen --no-install-project\n  setup_timeout: 900\n  reuse: [.venv]\n'
      : p.manager === 'poetry'
        ? '  setup: POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction --no-root\n  setup_timeout: 900\n  reuse: [.venv]\n'
        : p.manager === 'pip'
          ? `  setup: ${ins.python} -m venv .venv && .venv/bin/python -m pip install --disable-pip-version-check -q -r ${p.lockfile}\n  setup_timeout: 900\n  reuse: [.venv]\n`
          : `  # pytest comes from the environment the gate runs in (${ins.python} on PATH).\n`
  const selected =
    ins.pytest?.file != null && ins.pytest.testpaths.length > 0
      ? `  # The folders ${ins.pytest.file}'s testpaths names (pytest's own configuration).\n`
      : ''
  return `${fallbackComment(ins)}${sourceComment(ins)}${setup}${selected}  command: ${interpreter} ${pytest}${envBlock(ins)}`
}

/** suite.env: what the project's CI sets for its tests, and PYTHONPATH for the layout. */
function envBlock(ins: Inspection): string {
  const entries: string[] = []
  const ci = Object.entries(ins.ci?.env ?? {}).filter(
    ([k]) => /^[A-Za-z_]\w*$/.test(k) && k !== 'PYTHONPATH'
  )
  if (ins.ci !== null && ci.length > 0)
    entries.push(
      `# Set by the project's CI for its tests (${oneLine(ins.ci.source)}).`,
      ...ci.map(([k, v]) => `${k}: ${JSON.stringify(v)}`)
    )
  if (!ins.pytestPythonpath && ins.pythonPath !== null)
    entries.push(
      ins.pythonPath === 'src'
        ? '# src/ layout: without this the tests import the installed release, not the commit.'
        : '# children run with PYTHONSAFEPATH=1, so the root is not on sys.path by itself.',
      `PYTHONPATH: ${ins.pythonPath}`
    )
  const note = ins.pytestPythonpath
    ? "\n  # pytest's own configuration sets pythonpath, so the tests import the commit under test."
    : ''
  return entries.length === 0 ? note : `${note}\n  env:\n${entries.map(e => `    ${e}`).join('\n')}`
}
