import { chmodSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../src/cli/main.js'
import { parsePolicy } from '../src/policy/load.js'
import { inspectRepository } from '../src/policy/inspect.js'
import {
  detectProject,
  renderInspected,
  renderStarter,
  type Project
} from '../src/policy/starter.js'
import { detectRunner } from '../src/replay/runners.js'
import { TestRepo } from './helpers/repo.js'

const FILE = '.github/oracle-gate.yml'
const VITEST = JSON.stringify({ devDependencies: { vitest: '4.1.12' } })
const JEST = JSON.stringify({ devDependencies: { jest: '30.0.0', 'jest-junit': '16.0.0' } })

const cases: {
  files: string[]
  pkg?: string
  project: Project
  setup?: string
  command: RegExp
}[] = [
  {
    files: ['package.json', 'package-lock.json'],
    pkg: VITEST,
    project: { kind: 'node', manager: 'npm', lockfile: 'package-lock.json', runner: 'vitest' },
    setup: 'npm ci --prefer-offline --no-audit --no-fund',
    command: /^npx --no vitest run oracle\/properties .*--outputFile\.junit=\{junit\}$/
  },
  {
    files: ['package.json', 'npm-shrinkwrap.json'],
    pkg: '{}',
    project: { kind: 'node', manager: 'npm', lockfile: 'npm-shrinkwrap.json', runner: 'node-test' },
    setup: 'npm ci --prefer-offline --no-audit --no-fund',
    command:
      /^node --test .*--test-reporter=junit --test-reporter-destination=\{junit\} oracle\/properties\/$/
  },
  {
    files: ['package.json'],
    pkg: JEST,
    project: { kind: 'node', manager: 'npm', lockfile: null, runner: 'jest' },
    setup: 'npm install --no-package-lock --prefer-offline --no-audit --no-fund',
    command: /JEST_JUNIT_OUTPUT_FILE="\$ORACLE_GATE_JUNIT" npx --no jest .*--reporters=jest-junit$/
  },
  {
    files: ['package.json', 'pnpm-lock.yaml', 'package-lock.json'],
    pkg: VITEST,
    project: { kind: 'node', manager: 'pnpm', lockfile: 'pnpm-lock.yaml', runner: 'vitest' },
    setup: 'pnpm install --frozen-lockfile --prefer-offline',
    command: /^pnpm exec vitest run/
  },
  {
    files: ['package.json', 'yarn.lock'],
    pkg: JEST,
    project: { kind: 'node', manager: 'yarn', lockfile: 'yarn.lock', runner: 'jest' },
    setup: 'yarn install --frozen-lockfile --prefer-offline --non-interactive',
    command: /yarn jest/
  },
  {
    files: ['package.json', 'yarn.lock', '.yarnrc.yml'],
    pkg: VITEST,
    project: { kind: 'node', manager: 'yarn-berry', lockfile: 'yarn.lock', runner: 'vitest' },
    setup: 'yarn install --immutable',
    command: /^yarn vitest run/
  },
  {
    files: ['package.json', 'bun.lock'],
    pkg: 'not json',
    project: { kind: 'node', manager: 'bun', lockfile: 'bun.lock', runner: 'node-test' },
    setup: 'bun install --frozen-lockfile',
    command: /^node --test/
  },
  {
    files: ['pyproject.toml', 'uv.lock'],
    project: { kind: 'python', manager: 'uv', lockfile: 'uv.lock' },
    setup: 'uv sync --frozen --no-install-project',
    command:
      /^uv run --frozen --no-sync python -m pytest oracle\/properties .*--junitxml=\{junit\}$/
  },
  {
    files: ['pyproject.toml', 'poetry.lock'],
    project: { kind: 'python', manager: 'poetry', lockfile: 'poetry.lock' },
    setup: 'POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction --no-root',
    command: /^\.venv\/bin\/python -m pytest/
  },
  {
    files: ['requirements-dev.txt', 'requirements.txt'],
    project: { kind: 'python', manager: 'pip', lockfile: 'requirements.txt' },
    setup:
      'python3 -m venv .venv && .venv/bin/python -m pip install --disable-pip-version-check -q -r requirements.txt',
    command: /^\.venv\/bin\/python -m pytest/
  },
  {
    files: ['setup.py'],
    project: { kind: 'python', manager: 'none', lockfile: null },
    command: /^python -m pytest oracle\/properties/
  }
]

describe('the starter policy', () => {
  for (const c of cases) {
    const label =
      c.project.kind === 'node'
        ? `${c.project.manager}/${c.project.runner}`
        : `python/${c.project.manager}`
    it(`detects ${label} from ${c.files.join(', ')} and writes a policy the schema accepts`, () => {
      const project = detectProject(c.files, c.pkg)
      expect(project).toEqual(c.project)
      const policy = parsePolicy(renderStarter(project), FILE)
      expect(policy.suite.command).toMatch(c.command)
      expect(policy.suite.setup).toBe(c.setup)
      if (c.setup === undefined) expect(policy.suite.reuse).toEqual([])
      else
        expect(policy.suite.reuse).toEqual([c.project.kind === 'node' ? 'node_modules' : '.venv'])
      expect(policy.planes.voting).toEqual(['oracle/properties/**'])
      // The runner is written out, and it is the one the command names (no change of
      // meaning, but an edited command keeps its targeted reruns).
      const kind = c.project.kind === 'node' ? c.project.runner : 'pytest'
      expect(policy.suite.runner).toBe(kind)
      expect(detectRunner({ command: policy.suite.command })).toBe(kind)
    })
  }

  // The empty repository's Python starter asks pytest: __tests__/init-runner.test.ts (e2e).
  it('reads the repository root: a pnpm lockfile with pnpm on the PATH', async () => {
    const repo = new TestRepo()
    cleanups.push(() => repo.cleanup())
    repo.write({
      'package.json': VITEST,
      'pnpm-lock.yaml': 'lockfileVersion: 9\n',
      'bin/pnpm': '#!/bin/sh\n'
    })
    chmodSync(join(repo.dir, 'bin/pnpm'), 0o755)
    const env = { PATH: join(repo.dir, 'bin') }
    expect(
      parsePolicy(renderInspected(await inspectRepository(repo.dir, env)), FILE).suite.setup
    ).toBe('pnpm install --frozen-lockfile --prefer-offline')
  })
})

const cleanups: (() => void)[] = []
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.()
})

describe('oracle-gate init', () => {
  it('writes the variant it detects and says which', async () => {
    const repo = new TestRepo()
    cleanups.push(() => repo.cleanup())
    repo.write({ 'package.json': VITEST, 'package-lock.json': '{}' })
    const err = new PassThrough()
    let said = ''
    err.on('data', d => (said += String(d)))
    const io = { stdout: new PassThrough(), stderr: err, cwd: repo.dir, env: {} }
    expect(await main(['init'], io)).toBe(0)
    const text = readFileSync(join(repo.dir, FILE), 'utf8')
    expect(parsePolicy(text, FILE).suite.setup).toBe('npm ci --prefer-offline --no-audit --no-fund')
    expect(said).toContain('detected: JavaScript/TypeScript, npm (package-lock.json), vitest')
  })
})
