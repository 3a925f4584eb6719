// What `oracle-gate init` learns from a repository before writing its policy: the test files
// git tracks (per runner), the layout of the code they import, the tools actually installed
// and whether a property library is in use. The starter that ignored all this put the real
// suite on a plane that never votes (issue 15). Detection is a pure function of the tracked
// file list, a file reader and the PATH, so every shape can be tested without a project.
import { accessSync, constants, readdirSync, readFileSync } from 'node:fs'
import { delimiter, join, posix } from 'node:path'
import { Git } from '../git/git.js'
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
}

export function inspect(input: InspectInput): Inspection {
  const rootNames = [
    ...new Set([...input.files.filter(f => !f.includes('/')), ...(input.rootNames ?? [])])
  ]
  const pkg = input.read('package.json') ?? undefined
  let project = detectProject(rootNames, pkg)
  const fallback = toolFallback(project, input.has)
  if (fallback !== null) project = fallback.project
  const kind: TestKind = project.kind === 'python' ? 'pytest' : 'js'
  const testFiles = input.files.filter(f => isTestFile(f, kind)).sort()
  const { voting, paths } = votingGlobs(testFiles)
  const python = input.has('python3') || !input.has('python') ? 'python3' : 'python'
  return {
    project,
    testFiles,
    voting,
    commandPaths: paths,
    inDiff: 'agent-tests',
    python,
    pythonPath: project.kind === 'python' ? pythonPathFor(input.files) : null,
    pytestPythonpath: pytestSetsPythonpath(input.read),
    fallback: fallback?.note ?? null,
    propertyLibrary: propertyLibrary(project, input),
    protectedFiles: rootNames.filter(n => RUNNER_CONFIGS.test(n)).sort()
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

function pytestSetsPythonpath(read: (p: string) => string | null): boolean {
  for (const file of ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini']) {
    const text = read(file)
    if (text !== null && /^\s*pythonpath\s*=/m.test(text)) return true
  }
  return false
}

function toolFallback(
  project: Project,
  has: (tool: string) => boolean
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
    return {
      project: { ...project, manager: 'npm', lockfile: null },
      note: { wanted: tool, used: 'npm' }
    }
  }
  return null
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
  const files = await new Git(repoDir).indexFiles(repoDir).catch(() => [] as string[])
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
  return inspect({ files, rootNames, read, has: tool => onPath(tool, env.PATH) })
}
