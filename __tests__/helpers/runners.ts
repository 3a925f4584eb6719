// Real JavaScript runners for end-to-end tests on temporary repositories, with no network:
// the runner packages are this project's own devDependencies, linked into the temporary
// repository's node_modules (ignored by git there, as an install would leave them).
// Attack tests use these to show an attack working on a naive run before the gate sees it.
import { execFileSync, spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { expect } from 'vitest'
import type { TestRepo } from './repo.js'

const require = createRequire(import.meta.url)

/** Folder of an installed package of this project (vitest, jest, jest-junit, ...). */
export function packageDir(name: string): string {
  return dirname(require.resolve(`${name}/package.json`))
}

/** The packages each runner needs linked into a temporary repository. */
export const RUNNER_PACKAGES = {
  vitest: ['vitest'],
  jest: ['jest', 'jest-junit']
} as const

/**
 * Links the runner's packages into `repo/node_modules` (not committed: the caller's
 * .gitignore should list node_modules/; this writes one if the repo has none staged).
 */
export function linkRunner(repo: TestRepo, runner: keyof typeof RUNNER_PACKAGES): void {
  for (const name of RUNNER_PACKAGES[runner])
    repo.symlink(join('node_modules', name), packageDir(name))
}

/**
 * Suite commands that write a JUnit report to {junit}, run from the worktree root. The
 * node_modules these use is the one linked by linkRunner (reuse it in the policy with
 * `suite.reuse: [node_modules]`, or link it again in `suite.setup`).
 */
export const SUITE_COMMANDS = {
  vitest: (paths: string): string =>
    `node node_modules/vitest/vitest.mjs run ${paths} --reporter=junit --outputFile.junit={junit}`,
  jest: (paths: string): string =>
    `JEST_JUNIT_OUTPUT_FILE={junit} JEST_JUNIT_ADD_FILE_ATTRIBUTE=true node node_modules/jest/bin/jest.js ${paths} --ci --reporters=jest-junit`,
  nodeTest: (paths: string): string =>
    `${process.execPath} --test --test-reporter=junit --test-reporter-destination={junit} ${paths}`,
  pytest: (python: string, paths: string): string =>
    `${python} -m pytest ${paths} -q -p no:cacheprovider --junitxml={junit}`
} as const

/** A setup command that links the runner's packages into a fresh worktree. */
export function linkSetup(runner: keyof typeof RUNNER_PACKAGES): string {
  return [
    'mkdir -p node_modules',
    ...RUNNER_PACKAGES[runner].map(name => `ln -sfn ${packageDir(name)} node_modules/${name}`)
  ].join(' && ')
}

/**
 * Runs a command line naively in the repository's checkout (what a plain CI job would do):
 * the exit status and the output, for the "the attack works without the gate" half of an
 * attack test.
 */
export function naiveRun(
  repo: TestRepo,
  command: string,
  junit = join(repo.dir, '.naive-junit.xml')
): { status: number | null; output: string } {
  const line = command.replaceAll('{junit}', junit)
  const result = spawnSync('bash', ['-c', line], {
    cwd: repo.dir,
    encoding: 'utf8',
    env: { ...process.env, ORACLE_GATE_JUNIT: junit },
    maxBuffer: 1 << 28
  })
  return { status: result.status, output: `${result.stdout}${result.stderr}` }
}

/** True when git would list nothing untracked or modified (the naive run left no trace). */
export function cleanTree(repo: TestRepo): boolean {
  return execFileSync('git', ['status', '--porcelain'], { cwd: repo.dir, encoding: 'utf8' }) === ''
}

/** The attack's first proof: `branch` checked out, its naive run is green (the bug still in
 * place), then the checkout is cleaned and back on main. */
export function naiveGreen(repo: TestRepo, command: string, branch: string): void {
  repo.checkout(branch)
  try {
    const naive = naiveRun(repo, command)
    expect(naive.status, naive.output).toBe(0)
  } finally {
    repo.git('clean', '-fdxq')
    repo.checkout('main')
  }
}
