// Runner configuration: files that change how the voting tests are collected or reported
// without being tests themselves. One table, documented in docs/instrument.md; a change to
// an entry is `runner-tampered`, and the head worktree gets the base's version before its
// suite runs (see overlay.ts). Besides the static table, some entries come from the merge
// base itself (loading.ts): setup files its configuration names, modules a head-added
// file would shadow, .gitattributes lines over instrument paths.
import type { Policy } from '../policy/types.js'
import { compileGlobs, normalisePath } from '../writeset/planes.js'
import { shadowedModule, type ModuleIndex } from './loading.js'
import {
  gitattributesFor,
  goModTestDirectives,
  iniSections,
  npmrcCodeSettings,
  packageTestFields,
  tomlSections,
  tsconfigResolution
} from './sections.js'

/**
 * Where an entry counts. `voting-ancestor`: the file's directory is the repository root or
 * an ancestor (or the directory) of a voting test at the merge base — that is where pytest
 * looks for ini files, and where JS runners look for their config. `voting-tree`: that, or
 * at or below a voting test's directory, or at or below a directory the suite command
 * collects (where pytest loads conftest.py from). `anywhere`: any directory.
 */
export type RunnerScope = 'voting-ancestor' | 'voting-tree' | 'anywhere'

export interface RunnerEntry {
  /** File-name globs (basename), matched case-insensitively. */
  names: readonly string[]
  /** Repository path globs instead of names (case-insensitive), e.g. any *.dist-info folder. */
  paths?: readonly string[]
  scope: RunnerScope
  /** Which part of the file is runner configuration; absent = the whole file. */
  part?: { label: string; extract: (text: string | null) => string | null; marker: RegExp }
  /**
   * Counts only when the head adds the path (it is absent at the merge base). The matcher
   * returns such entries only for paths the base lacks, so callers need not filter.
   */
  addedOnly?: boolean
  why: string
}

/** The built-in table. Keep docs/instrument.md in step with it. */
export const RUNNER_TABLE: readonly RunnerEntry[] = [
  {
    names: ['conftest.py'],
    scope: 'voting-tree',
    why: 'pytest loads conftest.py from the rootdir and every ancestor of a collected test; its hooks can deselect tests or rewrite outcomes'
  },
  {
    names: ['pytest.ini', '.pytest.ini', 'pytest.toml', '.pytest.toml', 'tox.ini'],
    scope: 'voting-ancestor',
    why: 'pytest ini file: addopts, markers, testpaths and plugins change what is collected and how it is reported'
  },
  {
    names: ['setup.cfg'],
    scope: 'voting-ancestor',
    part: {
      label: '[tool:pytest] section',
      extract: t => iniSections(t, s => s === 'tool:pytest'),
      marker: /^\s*\[tool:pytest\]/
    },
    why: "setup.cfg's [tool:pytest] section is pytest configuration"
  },
  {
    names: ['pyproject.toml'],
    scope: 'voting-ancestor',
    part: {
      label: '[tool.pytest...] section',
      extract: t => tomlSections(t, 'tool.pytest'),
      marker: /tool\.pytest|^\s*pytest\s*[.=]/
    },
    why: "pyproject.toml's [tool.pytest.ini_options] is pytest configuration (dependencies elsewhere in the file are not)"
  },
  {
    names: ['sitecustomize.py', 'usercustomize.py', '*.pth'],
    scope: 'anywhere',
    why: 'Python runs these at interpreter start-up when they are on sys.path, before any test'
  },
  {
    names: [],
    paths: ['**/*.dist-info/**', '**/*.egg-info/**'],
    scope: 'anywhere',
    why: 'distribution metadata: its entry points register pytest plugins (pytest11) that load into the voting run'
  },
  {
    names: ['*.pyc', '*.pyo'],
    paths: ['**/__pycache__/**'],
    scope: 'anywhere',
    why: 'committed bytecode: Python loads a .pyc instead of the source it claims to be compiled from, so the code that runs is not the code in the diff'
  },
  {
    names: [
      'jest.config.*',
      'vitest.config.*',
      'vite.config.*',
      'vitest.workspace.*',
      'playwright.config.*',
      '.mocharc',
      '.mocharc.*',
      'ava.config.*',
      'karma.conf.*',
      'cypress.config.*'
    ],
    scope: 'voting-ancestor',
    why: 'JavaScript test-runner configuration: collection, setup files, reporters'
  },
  {
    names: [],
    paths: ['**/__mocks__/**'],
    scope: 'anywhere',
    why: "jest's and vitest's manual mocks: a __mocks__ folder beside node_modules (or in a root) replaces a package for every test without a call, one beside a module replaces it wherever a test mocks it; the runner's rule makes them test doubles, not product"
  },
  {
    names: ['babel.config.*', '.babelrc', '.babelrc.*'],
    scope: 'anywhere',
    why: "babel configuration: jest's default transform (babel-jest) runs its plugins over every test and module it loads"
  },
  {
    names: ['.env', '.env.local', '.env.test', '.env.test.local'],
    scope: 'voting-ancestor',
    why: 'vite and vitest load these into the test process (mode "test")'
  },
  {
    names: ['tsconfig*.json', 'jsconfig*.json'],
    scope: 'anywhere',
    part: {
      label:
        'module-resolution options (paths, baseUrl, rootDirs, customConditions, moduleSuffixes, extends, references, ...)',
      extract: tsconfigResolution,
      marker:
        /"(paths|baseUrl|rootDirs|customConditions|moduleSuffixes|moduleResolution|extends|references|typeRoots|allowJs|jsxImportSource)"\s*:/
    },
    why: 'these options decide which file an import loads for TypeScript-aware runners (a target bump does not)'
  },
  {
    names: ['.npmrc'],
    scope: 'voting-ancestor',
    part: {
      label: 'code-running settings (node-options, script-shell, ...)',
      extract: npmrcCodeSettings,
      marker:
        /^\s*(node[-_]options|script[-_]shell|shell|onload[-_]script|init[-_]module|ignore[-_]scripts|node[-_]gyp|git|userconfig|globalconfig|prefix)\s*=/i
    },
    why: "npm applies these to every script it runs, the suite's included (node-options preloads code into every Node process)"
  },
  {
    names: ['package.json'],
    scope: 'voting-ancestor',
    part: {
      label:
        'test fields (scripts.test*, install lifecycle scripts, jest, vitest, babel, imports, exports, ...)',
      extract: packageTestFields,
      marker:
        /"(pre|post)?test[^"]*"\s*:|"(preinstall|install|postinstall|preprepare|prepare|postprepare|prepublish|prepack|postpack)"\s*:|"(jest|mocha|vitest|ava|tap|c8|nyc|jest-junit|playwright|jasmine|babel|imports|exports)"\s*:/
    },
    why: "package.json's test and install scripts, runner and babel keys, and imports/exports conditions decide how the JavaScript suite runs and what it loads"
  },
  {
    names: ['go.mod'],
    scope: 'voting-ancestor',
    part: {
      label: 'go/toolchain/godebug directives',
      extract: goModTestDirectives,
      marker: /^\s*(go|toolchain|godebug)\b/
    },
    why: "go.mod's go, toolchain and godebug directives change how go test builds and runs tests (require/replace do not count)"
  },
  {
    names: ['.rspec'],
    scope: 'voting-ancestor',
    why: 'RSpec reads default command-line options (requires, formatters, filters) from .rspec'
  }
]

export interface RunnerMatcher {
  /** The entry governing a path, or null when the path is not runner configuration. */
  entryFor(path: string): RunnerEntry | null
}

/** What the merge base adds to the static table (all optional; see loading.ts). */
export interface RunnerInputs {
  /** Directories ("" = root) the suite command collects: conftest.py there is loaded. */
  collected?: readonly string[]
  /** Setup files the base's jest/vitest configuration names: path → the config naming it. */
  setupFiles?: ReadonlyMap<string, string>
  /** The base's modules, for shadowing (stdlib, test dependencies, another extension). */
  modules?: ModuleIndex
  /** True when the pattern matches an instrument, fixture or runner path of the base. */
  watched?: (pattern: RegExp) => boolean
}

/**
 * Compiles the table for one policy and one set of voting-test paths (at the merge base).
 * Pure: no I/O, so the same matcher serves detection and the overlay. Names always match
 * case-insensitively: on a case-insensitive checkout `Conftest.py` is conftest.py.
 */
export function compileRunnerMatcher(
  policy: Policy,
  votingPaths: Iterable<string>,
  inputs: RunnerInputs = {}
): RunnerMatcher {
  const fold = (s: string): string => s.toLowerCase()
  const ancestors = new Set<string>([''])
  const votingDirs = new Set<string>()
  for (const path of votingPaths) {
    const parts = fold(normalisePath(path)).split('/')
    for (let i = 1; i < parts.length; i++) ancestors.add(parts.slice(0, i).join('/'))
    votingDirs.add(parts.slice(0, -1).join('/'))
  }
  const trees = [...votingDirs, ...(inputs.collected ?? []).map(d => fold(normalisePath(d)))]
  const inTree = (dir: string): boolean =>
    ancestors.has(dir) || trees.some(t => t === '' || dir === t || dir.startsWith(`${t}/`))
  const compiled = RUNNER_TABLE.map(entry => ({
    entry,
    name: compileGlobs(entry.names, true),
    path: compileGlobs(entry.paths ?? [], true)
  }))
  // Most changed paths are no runner file at all: one union test turns them away.
  const anyName = compileGlobs(
    RUNNER_TABLE.flatMap(e => e.names),
    true
  )
  const anyPath = compileGlobs(
    RUNNER_TABLE.flatMap(e => e.paths ?? []),
    true
  )
  const policyEntry: RunnerEntry = {
    names: policy.runner_config,
    scope: 'anywhere',
    why: 'listed under runner_config in the policy'
  }
  const policyMatch = compileGlobs(policy.runner_config, true)
  const setupFiles = new Map([...(inputs.setupFiles ?? [])].map(([p, c]) => [fold(p), c]))
  const inScope = (scope: RunnerScope, dir: string): boolean =>
    scope === 'anywhere' || (scope === 'voting-tree' ? inTree(dir) : ancestors.has(dir))
  return {
    entryFor(path: string): RunnerEntry | null {
      const p = normalisePath(path)
      if (policyMatch(p)) return policyEntry
      const lower = fold(p)
      const config = setupFiles.get(lower)
      if (config !== undefined) return setupFileEntry(config)
      const slash = p.lastIndexOf('/')
      const base = p.slice(slash + 1)
      const dir = fold(slash < 0 ? '' : p.slice(0, slash))
      if (anyName(base) || anyPath(p)) {
        for (const { entry, name, path: pathMatch } of compiled) {
          if ((name(base) || pathMatch(p)) && inScope(entry.scope, dir)) return entry
        }
      }
      if (fold(base) === '.gitattributes' && inputs.watched !== undefined)
        return gitattributesEntry(slash < 0 ? '' : p.slice(0, slash), inputs.watched)
      if (inputs.modules !== undefined) {
        const shadow = shadowedModule(p, inputs.modules)
        if (shadow !== null) return { names: [], scope: 'anywhere', addedOnly: true, why: shadow }
      }
      return null
    }
  }
}

function setupFileEntry(config: string): RunnerEntry {
  return {
    names: [],
    scope: 'anywhere',
    why: `the merge base's ${config} names it as a setup file: it runs inside the voting run before the tests`
  }
}

function gitattributesEntry(dir: string, watched: (pattern: RegExp) => boolean): RunnerEntry {
  return {
    names: ['.gitattributes'],
    scope: 'anywhere',
    part: {
      label:
        'lines over instrument, fixture or runner paths (eol, text, encoding, filter, diff, ...)',
      extract: gitattributesFor(dir, watched),
      marker: /\b(text|eol|crlf|encoding|filter|ident|diff|merge|binary)\b/
    },
    why: 'checkout attributes change the bytes written for those paths (line endings, encodings, filter drivers), so the worktree would hold another oracle than git does'
  }
}

/** 1-based line of the first line matching the entry's marker, for annotations. */
export function markerLine(entry: RunnerEntry, text: string | null): number | undefined {
  if (text === null || entry.part === undefined) return undefined
  const lines = text.split(/\r?\n/)
  const index = lines.findIndex(l => entry.part?.marker.test(l))
  return index < 0 ? undefined : index + 1
}
