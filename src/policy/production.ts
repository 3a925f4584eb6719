// The production plane (`planes.production`) and whose dependencies the vote uses
// (`dependencies`): with a production plane, the head's vote sees the head's production
// code and the merge base's everything else (docs/instrument.md, "The production plane").
// Pure functions: what a path is, whose version of it the vote uses, and the globs `init`
// proposes from a repository's layout.
import type { Policy } from './types.js'

/**
 * Dependency manifests and lockfiles, by file name in any folder: what an install reads.
 * `dependencies: base` takes them from the merge base even inside production paths.
 */
const MANIFEST =
  /(?:^|\/)(?:package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|bun\.lockb?|\.npmrc|\.yarnrc(?:\.yml)?|pyproject\.toml|setup\.py|setup\.cfg|requirements[^/]*\.txt|constraints[^/]*\.txt|Pipfile(?:\.lock)?|poetry\.lock|uv\.lock|pdm\.lock|go\.mod|go\.sum|Cargo\.toml|Cargo\.lock|Gemfile(?:\.lock)?)$/i

/** Build settings a production change may depend on (named as a likely cause of a red vote). */
const BUILD_CONFIG =
  /(?:^|\/)(?:tsconfig[^/]*\.json|jsconfig[^/]*\.json|babel\.config\.[^/]+|\.babelrc(?:\.[^/]+)?|[^/]*\.config\.(?:js|cjs|mjs|ts|cts|mts)|Makefile|CMakeLists\.txt|build\.gradle(?:\.kts)?|pom\.xml|tox\.ini|noxfile\.py|MANIFEST\.in)$/i

/** Is the path a dependency manifest or lockfile (any folder)? */
export function isManifest(path: string): boolean {
  return MANIFEST.test(path)
}

/** Is the path a manifest or a build setting a production change may need (a likely cause)? */
export function isBuildInput(path: string): boolean {
  return MANIFEST.test(path) || BUILD_CONFIG.test(path)
}

/** `dependencies` as it applies: `base` by default with a production plane, else `head`. */
export function dependencySource(policy: Pick<Policy, 'dependencies' | 'planes'>): 'base' | 'head' {
  return policy.dependencies ?? (policy.planes.production !== undefined ? 'base' : 'head')
}

/**
 * Whose version of a path the vote uses, apart from the instrument (always the merge
 * base's): the head's for production paths, the merge base's for everything else. A
 * manifest or lockfile follows `dependencies`. Without a production plane every path is
 * the head's (today's behaviour), except manifests under an explicit `dependencies: base`.
 */
export function headVersionCounts(
  policy: Pick<Policy, 'dependencies' | 'planes'>,
  isProduction: (path: string) => boolean
): (path: string) => boolean {
  const deps = dependencySource(policy)
  const hasProduction = policy.planes.production !== undefined
  return path => {
    if (isManifest(path)) return deps === 'head'
    return !hasProduction || isProduction(path)
  }
}

/** Top-level folders that hold production code in common layouts. */
const CODE_DIRS = ['src', 'lib', 'app', 'pkg', 'cmd', 'internal']
/** Folders that hold tests, never production. */
const TEST_DIRS = new Set(['tests', 'test', '__tests__', 'spec', 'testing', 'oracle', 'e2e'])
/** Root files that configure or build, not production code. */
const ROOT_TOOLING =
  /^(?:setup\.py|conftest\.py|noxfile\.py|fabfile\.py|tasks\.py|dodo\.py|[^/]*\.config\.[^/]+|\.[^/]*)$/i
const ROOT_CODE = /^[^/]+\.(?:py|js|mjs|cjs|ts|mts|cts|jsx|tsx)$/

/**
 * The production globs `init` proposes from the tracked files: the common code folders
 * (`src/**`, `lib/**`, …), Python package folders at the root (a folder with an
 * `__init__.py`), `packages/<name>/src/**` of a monorepo, `**\/*.go` in a Go module,
 * and root code files that are not tooling. Test files and test folders are left out.
 * Empty when nothing looks like production code (init then leaves the key out).
 */
export function layoutProduction(
  files: readonly string[],
  isTest: (path: string) => boolean
): string[] {
  const globs = new Set<string>()
  const top = (f: string): string => f.slice(0, f.indexOf('/'))
  for (const f of files) {
    if (isTest(f)) continue
    const slash = f.indexOf('/')
    if (slash < 0) {
      if (ROOT_CODE.test(f) && !ROOT_TOOLING.test(f)) globs.add(f)
      if (f === 'go.mod') globs.add('**/*.go')
      continue
    }
    const dir = top(f)
    if (TEST_DIRS.has(dir.toLowerCase())) continue
    if (CODE_DIRS.includes(dir)) globs.add(`${dir}/**`)
    else if (f === `${dir}/__init__.py`) globs.add(`${dir}/**`)
    const mono = /^(packages|apps|libs)\/([^/]+)\/(src|lib)\//.exec(f)
    if (mono) globs.add(`${mono[1]}/*/${mono[3]}/**`)
  }
  return [...globs].sort()
}
