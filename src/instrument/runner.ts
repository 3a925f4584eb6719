// Runner configuration: files that change how the voting tests are collected or reported
// without being tests themselves. One table, documented in docs/instrument.md; a change to
// an entry is `runner-tampered`, and the head worktree gets the base's version before its
// suite runs (see overlay.ts).
import type { Policy } from '../policy/types.js'
import { compileGlobs, normalisePath } from '../writeset/planes.js'
import { goModTestDirectives, iniSections, packageTestFields, tomlSections } from './sections.js'

/**
 * Where an entry counts. `voting-ancestor`: the file's directory is the repository root or
 * an ancestor (or the directory) of a voting test at the merge base — that is where pytest
 * looks for conftest.py and ini files, and where JS runners look for their config.
 * `anywhere`: any directory (interpreter start-up hooks on sys.path, policy globs).
 */
export type RunnerScope = 'voting-ancestor' | 'anywhere'

export interface RunnerEntry {
  /** File-name globs (basename), or for policy entries a repository path glob. */
  names: readonly string[]
  scope: RunnerScope
  /** Which part of the file is runner configuration; absent = the whole file. */
  part?: { label: string; extract: (text: string | null) => string | null; marker: RegExp }
  why: string
}

/** The built-in table. Keep docs/instrument.md in step with it. */
export const RUNNER_TABLE: readonly RunnerEntry[] = [
  {
    names: ['conftest.py'],
    scope: 'voting-ancestor',
    why: 'pytest loads conftest.py from the rootdir and every ancestor of a collected test; its hooks can deselect tests or rewrite outcomes'
  },
  {
    names: ['pytest.ini', '.pytest.ini', 'tox.ini'],
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
    names: [
      'jest.config.*',
      'vitest.config.*',
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
    names: ['package.json'],
    scope: 'voting-ancestor',
    part: {
      label: 'test fields (scripts.test*, jest, mocha, vitest, ava, ...)',
      extract: packageTestFields,
      marker:
        /"(pre|post)?test[^"]*"\s*:|"(jest|mocha|vitest|ava|tap|c8|nyc|jest-junit|playwright|jasmine)"\s*:/
    },
    why: "package.json's test scripts and runner keys decide how the JavaScript suite runs"
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

/**
 * Compiles the table for one policy and one set of voting-test paths (at the merge base).
 * Pure: no I/O, so the same matcher serves detection and the overlay.
 */
export function compileRunnerMatcher(policy: Policy, votingPaths: Iterable<string>): RunnerMatcher {
  const fold = (s: string): string => (policy.case_insensitive ? s.toLowerCase() : s)
  const ancestors = new Set<string>([''])
  for (const path of votingPaths) {
    const parts = fold(normalisePath(path)).split('/')
    for (let i = 1; i < parts.length; i++) ancestors.add(parts.slice(0, i).join('/'))
  }
  const nocase = policy.case_insensitive
  const compiled = RUNNER_TABLE.map(entry => ({ entry, match: compileGlobs(entry.names, nocase) }))
  // Most changed paths are no runner file at all: one union test turns them away.
  const anyName = compileGlobs(
    RUNNER_TABLE.flatMap(e => e.names),
    nocase
  )
  const policyEntry: RunnerEntry = {
    names: policy.runner_config,
    scope: 'anywhere',
    why: 'listed under runner_config in the policy'
  }
  const policyMatch = compileGlobs(policy.runner_config, nocase)
  return {
    entryFor(path: string): RunnerEntry | null {
      const p = normalisePath(path)
      if (policyMatch(p)) return policyEntry
      const slash = p.lastIndexOf('/')
      const base = p.slice(slash + 1)
      if (!anyName(base)) return null
      const dir = fold(slash < 0 ? '' : p.slice(0, slash))
      for (const { entry, match } of compiled) {
        if (!match(base)) continue
        if (entry.scope === 'anywhere' || ancestors.has(dir)) return entry
      }
      return null
    }
  }
}

/** 1-based line of the first line matching the entry's marker, for annotations. */
export function markerLine(entry: RunnerEntry, text: string | null): number | undefined {
  if (text === null || entry.part === undefined) return undefined
  const lines = text.split(/\r?\n/)
  const index = lines.findIndex(l => entry.part?.marker.test(l))
  return index < 0 ? undefined : index + 1
}
