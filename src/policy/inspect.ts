// What `oracle-gate init` learns from a repository before writing its policy: the test files
// git tracks (per runner), the layout of the code they import, the tools actually installed
// and whether a property library is in use. The starter that ignored all this put the real
// suite on a plane that never votes (issue 15). Detection is a pure function of the tracked
// file list, a file reader and the PATH, so every shape can be tested without a project.
import { fixtureFiles } from './fixture-strength.js'
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs'
import { delimiter, join, posix } from 'node:path'
import { layoutProduction } from './production.js'
import picomatch from 'picomatch'
import { Git } from '../git/git.js'
import {
  askPytest,
  askRunner,
  repositoryPython,
  type PytestAnswer,
  type RunnerAnswer
} from './ask-runner.js'
import { ciProposal, type CiProposal } from './ci.js'
import { definesNoTest, jestCollection, vitestCollection } from './js-config.js'
import {
  configFromAnswer,
  globRegExp,
  pytestConfigArgs,
  readPytestConfig,
  type PytestConfig
} from './pytest-config.js'
import { detectProject, type Project } from './starter.js'

export type TestKind = 'pytest' | 'js'

export interface Inspection {
  project: Project
  /** Tracked test files, sorted. */
  testFiles: string[]
  /** Voting globs covering exactly those files' folders or name patterns. */
  voting: string[]
  /** Paths the suite command names (test folders, or the folders holding tests beside code). */
  commandPaths: string[]
  /** The folder for new agent tests (outside the voting globs). */
  inDiff: string
  /** Python interpreter name found on PATH. */
  python: 'python3' | 'python'
  /** Python: the directory to put on PYTHONPATH ('src' for a src/ layout, '.' for a root one), or null. */
  pythonPath: string | null
  /** Python: the base's pytest configuration already sets pythonpath. */
  pytestPythonpath: boolean
  /** A lockfile's tool that is not installed, and what init falls back to. */
  fallback: { wanted: string; used: string } | null
  /** hypothesis / fast-check in use. */
  propertyLibrary: string | null
  /** Root files protected besides the instrument folder (conftest.py, runner configs). */
  protectedFiles: string[]
  /** pytest's configuration (Python projects), the source of testpaths and name patterns. */
  pytest: PytestConfig | null
  /** Where `pytest` came from: pytest itself (which python), or the files read statically and why. */
  pytestSource:
    { by: 'pytest'; python: string; rootdir: string } | { by: 'files'; why: string } | null
  /** The runner configuration file the JS test files were selected by, if any. */
  jsConfig: string | null
  /** Files named like tests that define none (data): protected, left out of the run. */
  dataFiles: string[]
  /** Data files beside or under the tests: what fixture tests compare with (fixture-strength.ts). */
  fixtures: string[]
  /** jest: jest-junit is a dependency of the package. */
  jestJunit: boolean
  /** The package's own test script. */
  testScript: string | null
  /** The CI workflow's test step: its environment and command. */
  ci: CiProposal | null
  /** planes.production globs from the layout (src/policy/production.ts); empty: none found. */
  production: string[]
}

const DEDICATED_DIRS = new Set(['tests', 'test', '__tests__', 'spec', 'testing'])
const PYTEST_FILE = /(^|\/)(test_[^/]*|[^/]*_test)\.py$/
const JS_TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/
const JS_FILE = /\.[cm]?[jt]sx?$/
const RUNNER_CONFIGS =
  /^(conftest\.py|pytest\.ini|tox\.ini|setup\.cfg|(vitest|jest|vite)\.config\.[cm]?[jt]s|jest\.config\.json)$/

export function isTestFile(path: string, kind: TestKind): boolean {
  if (path.split('/').includes('node_modules')) return false
  if (kind === 'pytest') return PYTEST_FILE.test(path)
  return JS_TEST_FILE.test(path) || (path.includes('__tests__/') && JS_FILE.test(path))
}

/** Voting globs and command paths for a set of test files. */
export function votingGlobs(files: readonly string[]): { voting: string[]; paths: string[] } {
  const voting = new Set<string>()
  const paths = new Set<string>()
  for (const file of files) {
    const parts = file.split('/')
    const dedicated = parts.slice(0, -1).findIndex(p => DEDICATED_DIRS.has(p))
    if (dedicated >= 0) {
      const dir = parts.slice(0, dedicated + 1).join('/')
      voting.add(`${dir}/**`)
      paths.add(dir)
      continue
    }
    // Tests beside the code: a name pattern, so the code next to them stays off the plane.
    const base = parts[parts.length - 1] ?? file
    const pattern = /^test_.*\.py$/.test(base)
      ? 'test_*.py'
      : /_test\.py$/.test(base)
        ? '*_test.py'
        : base.replace(/^.*?\.(test|spec)\./, '*.$1.')
    const top = parts.length > 1 ? (parts[0] ?? '.') : '.'
    voting.add(top === '.' ? pattern : `${top}/**/${pattern}`)
    paths.add(top)
  }
  return { voting: [...voting].sort(), paths: [...paths].sort() }
}

/** True when `name` is an executable file in one of PATH's directories. */
export function onPath(name: string, path: string | undefined): boolean {
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir === '') continue
    try {
      accessSync(join(dir, name), constants.X_OK)
      return true
    } catch {
      // not here
    }
  }
  return false
}

export interface InspectInput {
  files: readonly string[]
  /** Names at the repository root, tracked or not (a lockfile not yet committed counts). */
  rootNames?: readonly string[]
  read(path: string): string | null
  has(tool: string): boolean
  /** What the project's runner said it collects, when it could be asked. */
  answer?: RunnerAnswer | null
  /** What pytest said of its configuration, or why it could not be asked. */
  pytest?: PytestAnswer | string
}

export function inspect(input: InspectInput): Inspection {
  const rootNames = [
    ...new Set([...input.files.filter(f => !f.includes('/')), ...(input.rootNames ?? [])])
  ]
  const pkg = input.read('package.json') ?? undefined
  let project = detectProject(rootNames, pkg)
  const fallback = toolFallback(project, input.has, input.read)
  if (fallback !== null) project = fallback.project
  const asked = typeof input.pytest === 'object' ? input.pytest : null
  const pytest =
    project.kind !== 'python'
      ? null
      : asked !== null
        ? configFromAnswer(asked)
        : readPytestConfig(input.read)
  const pytestSource: Inspection['pytestSource'] =
    project.kind !== 'python'
      ? null
      : asked !== null
        ? { by: 'pytest', python: asked.python, rootdir: asked.rootdir }
        : { by: 'files', why: typeof input.pytest === 'string' ? input.pytest : 'not asked' }
  const selected = selectTests(project, pytest, input)
  const withTests = input.answer?.withTests ?? null
  const dataFiles =
    withTests !== null
      ? selected.files.filter(f => !withTests.includes(f))
      : project.kind === 'node'
        ? selected.files.filter(f => {
            const text = input.read(f)
            return text !== null && definesNoTest(text)
          })
        : []
  const testFiles = selected.files.filter(f => !dataFiles.includes(f))
  // A data file under a voting glob keeps the glob (a test the patch adds beside it votes):
  // the data file is protected and the run leaves it out (starter.ts dataExclusions).
  const globs = votingGlobs(testFiles)
  const voting = globs.voting
  const paths =
    pytest !== null && pytest.testpaths.length > 0 ? [...pytest.testpaths].sort() : globs.paths
  const python = input.has('python3') || !input.has('python') ? 'python3' : 'python'
  const pkgJson = packageJson(pkg)
  return {
    project,
    testFiles,
    voting,
    commandPaths: paths,
    inDiff: 'agent-tests',
    python,
    pythonPath: project.kind === 'python' ? pythonPathFor(input.files) : null,
    pytestPythonpath: pytest?.pythonpath ?? false,
    fallback: fallback?.note ?? null,
    propertyLibrary: propertyLibrary(project, input),
    protectedFiles: [...rootNames.filter(n => RUNNER_CONFIGS.test(n)), ...dataFiles].sort(),
    production: layoutProduction(
      input.files,
      f => isTestFile(f, project.kind === 'python' ? 'pytest' : 'js') || isTestFile(f, 'js')
    ),
    pytest,
    pytestSource,
    jsConfig: selected.source,
    dataFiles,
    fixtures: fixtureFiles(input.files, testFiles),
    jestJunit: 'jest-junit' in pkgJson.deps,
    testScript: pkgJson.testScript,
    ci: ciProposal(
      input.files
        .filter(f => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f))
        .map(path => ({ path, text: input.read(path) ?? '' }))
    )
  }
}

/** The tracked files the runner collects, by its own configuration where it has one. */
function selectTests(
  project: Project,
  pytest: PytestConfig | null,
  input: InspectInput
): { files: string[]; source: string | null } {
  if (project.kind === 'python') {
    const config = pytest ?? readPytestConfig(input.read)
    const names = config.pythonFiles.map(globRegExp)
    const under = config.testpaths.map(t =>
      /[*?[]/.test(t)
        ? picomatch(`${t.replace(/\/$/, '')}{,/**}`)
        : (f: string) => f === t || f.startsWith(`${t.replace(/\/$/, '')}/`)
    )
    const ignored = (config.ignore ?? []).map(i =>
      /[*?[]/.test(i)
        ? picomatch(i)
        : (f: string) => f === i || f.startsWith(`${i.replace(/\/$/, '')}/`)
    )
    const files = input.files.filter(
      f =>
        f.endsWith('.py') &&
        !f.split('/').includes('node_modules') &&
        names.some(n => n.test(posix.basename(f))) &&
        (under.length === 0 || under.some(u => u(f))) &&
        !ignored.some(i => i(f))
    )
    return { files: files.sort(), source: config.file }
  }
  if (input.answer) {
    const collected = new Set(input.answer.collected)
    return { files: input.files.filter(f => collected.has(f)).sort(), source: input.answer.by }
  }
  const collection =
    project.runner === 'vitest'
      ? vitestCollection(input.read)
      : project.runner === 'jest'
        ? jestCollection(input.read)
        : null
  const files = input.files.filter(
    f => isTestFile(f, 'js') && (collection === null || collection.collects(f))
  )
  return { files: files.sort(), source: collection?.source ?? null }
}

function packageJson(text: string | undefined): {
  deps: Record<string, unknown>
  testScript: string | null
} {
  try {
    const parsed = JSON.parse(text ?? '{}') as {
      dependencies?: Record<string, unknown>
      devDependencies?: Record<string, unknown>
      scripts?: Record<string, unknown>
    }
    const test = parsed.scripts?.test
    return {
      deps: { ...parsed.dependencies, ...parsed.devDependencies },
      testScript: typeof test === 'string' ? test : null
    }
  } catch {
    return { deps: {}, testScript: null }
  }
}

/** 'src' for a src/ layout (src/<pkg>/__init__.py), '.' when packages sit at the root. */
export function pythonPathFor(files: readonly string[]): string | null {
  if (files.some(f => /^src\/[^/]+\/__init__\.py$/.test(f) || /^src\/[^/]+\.py$/.test(f)))
    return 'src'
  const rootPackage = files.some(f => {
    const m = /^([^/]+)\/__init__\.py$/.exec(f)
    return m !== null && !DEDICATED_DIRS.has(m[1] ?? '')
  })
  return rootPackage ? '.' : null
}

function toolFallback(
  project: Project,
  has: (tool: string) => boolean,
  read: (path: string) => string | null
): { project: Project; note: { wanted: string; used: string } } | null {
  if (project.kind === 'python' && (project.manager === 'uv' || project.manager === 'poetry')) {
    if (has(project.manager)) return null
    return {
      project: { kind: 'python', manager: 'none', lockfile: project.lockfile },
      note: { wanted: project.manager, used: 'pytest from the environment' }
    }
  }
  if (project.kind === 'node' && project.manager !== 'npm') {
    const tool = project.manager === 'yarn-berry' ? 'yarn' : project.manager
    if (has(tool)) return null
    // pnpm from the registry, at the version the project names: the lockfile stays the
    // source of truth (a lockfile-less npm install resolves anew, or fails on peers).
    if (project.manager === 'pnpm' && has('npx')) {
      const launcher = `npx --yes pnpm@${pnpmVersion(read)}`
      return { project: { ...project, launcher }, note: { wanted: tool, used: launcher } }
    }
    return {
      project: { ...project, manager: 'npm', lockfile: null },
      note: { wanted: tool, used: 'npm' }
    }
  }
  return null
}

/** packageManager's pnpm version, else the major the lockfile format implies. */
export function pnpmVersion(read: (path: string) => string | null): string {
  try {
    const named = (JSON.parse(read('package.json') ?? '{}') as { packageManager?: unknown })
      .packageManager
    const m = typeof named === 'string' ? /^pnpm@(\d+\.\d+\.\d+[\w.-]*)/.exec(named) : null
    if (m?.[1] !== undefined) return m[1]
  } catch {
    // fall through to the lockfile
  }
  const lock = /^lockfileVersion:\s*['"]?(\d+)/m.exec(read('pnpm-lock.yaml') ?? '')?.[1]
  return lock === '5' ? '7' : lock === '6' ? '8' : '9'
}

function propertyLibrary(project: Project, input: InspectInput): string | null {
  if (project.kind === 'node')
    return /"fast-check"/.test(input.read('package.json') ?? '') ? 'fast-check' : null
  const declared = ['pyproject.toml', 'requirements.txt', 'requirements-dev.txt', 'setup.cfg']
    .map(f => input.read(f) ?? '')
    .join('\n')
  if (/hypothesis/i.test(declared)) return 'hypothesis'
  const imports = input.files
    .filter(f => isTestFile(f, 'pytest') || posix.basename(f) === 'conftest.py')
    .slice(0, 200)
    .some(f => /^\s*(from|import)\s+hypothesis\b/m.test(input.read(f) ?? ''))
  return imports ? 'hypothesis' : null
}

/** Inspects a checkout: tracked files (git ls-files), their text, and the PATH. */
export async function inspectRepository(
  repoDir: string,
  env: NodeJS.ProcessEnv
): Promise<Inspection> {
  // Through the hardened git wrapper (no repository hooks, config or pager apply); not a
  // git checkout: nothing tracked, the placeholder starter.
  const files = await new Git(repoDir, env).indexFiles(repoDir).catch(() => [] as string[])
  const read = (p: string): string | null => {
    try {
      return readFileSync(join(repoDir, p), 'utf8')
    } catch {
      return null
    }
  }
  let rootNames: string[] = []
  try {
    rootNames = readdirSync(repoDir)
  } catch {
    // A missing directory: nothing found.
  }
  const input = { files, rootNames, read, has: (tool: string) => onPath(tool, env.PATH) }
  const first = inspect(input)
  if (first.project.kind === 'python') {
    const python = repositoryPython(repoDir, first.python)
    const args = pytestConfigArgs(first.ci?.command)
    return inspect({ ...input, pytest: await askPytest(repoDir, python, args, env) })
  }
  const answer = await askRunner(repoDir, first.project, env)
  return answer === null ? first : inspect({ ...input, answer })
}
