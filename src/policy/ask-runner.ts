// Asks the project's own runner which files it collects (issue 25), when the checkout has it
// installed: `vitest list --json --filesOnly` (every collected file) and `vitest list --json`
// (the files that define a test: the rest is data named like a test, path-to-regexp's
// cases.spec.ts), `jest --listTests --json`. A configuration computed at run time is then
// read as the runner reads it. Runs through the one process wrapper (own process group,
// scrubbed environment, a timeout); any failure falls back to reading the configuration
// statically (js-config.ts).
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import { childEnv } from '../exec/env.js'
import { runShell } from '../exec/process.js'
import type { Project } from './starter.js'

export interface RunnerAnswer {
  /** What was asked, for init's summary and the policy's comment. */
  by: string
  /** Repository-relative files the runner collects. */
  collected: string[]
  /** Of those, the files that define at least one test (null: the runner was not asked). */
  withTests: string[] | null
}

const TIMEOUT_SEC = 120

export async function askRunner(
  repoDir: string,
  project: Project,
  env: NodeJS.ProcessEnv
): Promise<RunnerAnswer | null> {
  if (project.kind !== 'node' || project.runner === 'node-test') return null
  const bin = join(repoDir, 'node_modules', '.bin', project.runner)
  if (!existsSync(bin)) return null
  const temp = await mkdtemp(join(tmpdir(), 'oracle-gate-init-'))
  try {
    const ask = (args: string): Promise<string[] | null> =>
      listed(repoDir, `node_modules/.bin/${project.runner} ${args}`, env, join(temp, 'ask.log'))
    if (project.runner === 'jest') {
      const collected = await ask('--listTests --json')
      return collected && { by: 'jest --listTests', collected, withTests: null }
    }
    const collected = await ask('list --json --filesOnly')
    const withTests = collected && (await ask('list --json'))
    return collected && withTests && { by: 'vitest list', collected, withTests }
  } finally {
    await rm(temp, { recursive: true, force: true }).catch(() => undefined)
  }
}

/** The files a listing command prints as JSON (strings or {file}), repository-relative. */
async function listed(
  repoDir: string,
  command: string,
  env: NodeJS.ProcessEnv,
  logFile: string
): Promise<string[] | null> {
  try {
    const result = await runShell({
      command,
      cwd: repoDir,
      env: childEnv(env, { CI: 'true' }),
      timeoutSec: TIMEOUT_SEC,
      logFile,
      captureStdout: true
    })
    if (result.exitCode !== 0) return null
    return filesOf(result.stdout, repoDir)
  } catch {
    return null
  }
}

/** Pure: a listing's JSON → sorted, unique, repository-relative paths inside the checkout. */
export function filesOf(stdout: string, repoDir: string): string[] | null {
  const start = stdout.indexOf('[')
  if (start < 0) return null
  let parsed: unknown
  try {
    parsed = JSON.parse(stdout.slice(start))
  } catch {
    return null
  }
  if (!Array.isArray(parsed)) return null
  const files = new Set<string>()
  for (const entry of parsed) {
    const abs =
      typeof entry === 'string'
        ? entry
        : typeof (entry as { file?: unknown } | null)?.file === 'string'
          ? (entry as { file: string }).file
          : null
    if (abs === null) continue
    const rel = relative(repoDir, abs).split('\\').join('/')
    if (rel !== '' && !rel.startsWith('..')) files.add(rel)
  }
  return [...files].sort()
}

/** What pytest itself says of its configuration (rootdir, inifile, the collection rules). */
export interface PytestAnswer {
  /** The interpreter asked (the repository's venv, else the python on PATH). */
  python: string
  /** Repository-relative; '.' for the repository itself. */
  rootdir: string
  /** Repository-relative configuration file, or null (pytest's defaults). */
  inifile: string | null
  /** Repository-relative, as pytest resolves them (empty when pytest would not use them). */
  testpaths: string[]
  pythonFiles: string[]
  pythonClasses: string[]
  pythonFunctions: string[]
  pythonpath: boolean
  /** Repository-relative paths and globs pytest's options ignore (addopts --ignore, …). */
  ignore: string[]
}

/** A line of its own the answer is printed on: conftests may print too. */
const PYTEST_MARK = '@@oracle-gate-pytest@@'

/**
 * Run with `python -I -c`: no current directory or PYTHONPATH on sys.path, so a module of
 * the repository cannot stand in for pytest. A plugin answers at pytest_cmdline_main, after
 * pytest parsed its configuration (ini/toml/cfg, addopts, -c, --rootdir, initial
 * conftests) and before any collection, and ends the run there.
 */
const PYTEST_ASK = `
import json, sys
import pytest
class Ask:
    @pytest.hookimpl(tryfirst=True)
    def pytest_cmdline_main(self, config):
        def ini(name):
            try:
                value = config.getini(name)
            except Exception:
                return []
            return [str(v) for v in value] if isinstance(value, (list, tuple)) else value
        testpaths = ini("testpaths")
        used = config.invocation_params.dir == config.rootpath
        print("${PYTEST_MARK}" + json.dumps({
            "rootdir": str(config.rootpath),
            "inifile": str(config.inipath) if config.inipath else None,
            "testpaths": testpaths if used else [],
            "python_files": ini("python_files"),
            "python_classes": ini("python_classes"),
            "python_functions": ini("python_functions"),
            "pythonpath": bool(ini("pythonpath")),
            "ignore": [str(p) for p in (config.getoption("ignore") or [])]
                + [str(p) for p in (config.getoption("ignore_glob") or [])],
        }), flush=True)
        return 0
sys.exit(pytest.main(sys.argv[1:], plugins=[Ask()]))
`

/** The repository's own interpreter (a venv at the root), else `fallback` from PATH. */
export function repositoryPython(repoDir: string, fallback: string): string {
  for (const venv of ['.venv', 'venv']) {
    const bin = join(repoDir, venv, 'bin', 'python')
    if (existsSync(bin)) return bin
  }
  return fallback
}

/**
 * Asks pytest for its configuration, with `args` (the CI's pytest options: -c, --rootdir,
 * -o). The answer, or why pytest could not be asked (init then reads the files itself).
 */
export async function askPytest(
  repoDir: string,
  python: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv
): Promise<PytestAnswer | string> {
  const temp = await mkdtemp(join(tmpdir(), 'oracle-gate-init-'))
  try {
    const quoted = [python, '-I', '-c', PYTEST_ASK, ...args].map(shellQuoted).join(' ')
    const result = await runShell({
      command: quoted,
      cwd: repoDir,
      env: childEnv(env, { CI: 'true' }),
      timeoutSec: TIMEOUT_SEC,
      logFile: join(temp, 'ask.log'),
      captureStdout: true
    })
    const line = result.stdout.split('\n').find(l => l.startsWith(PYTEST_MARK))
    if (line === undefined) {
      const why = result.timedOut ? 'timed out' : `exit ${result.exitCode ?? result.signal}`
      return `${python} could not run pytest (${why})`
    }
    return pytestAnswer(line.slice(PYTEST_MARK.length), repoDir, python)
  } catch (error) {
    return `pytest could not be asked: ${error instanceof Error ? error.message : String(error)}`
  } finally {
    await rm(temp, { recursive: true, force: true }).catch(() => undefined)
  }
}

function shellQuoted(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`
}

/** Pure: the plugin's JSON → repository-relative settings, or why it is unusable. */
export function pytestAnswer(json: string, repoDir: string, python: string): PytestAnswer | string {
  let raw: Record<string, unknown>
  try {
    raw = JSON.parse(json) as Record<string, unknown>
  } catch {
    return 'pytest answered something that is not JSON'
  }
  const strings = (v: unknown): string[] =>
    Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []
  const rel = (p: string): string => relative(repoDir, p).split('\\').join('/') || '.'
  if (typeof raw.rootdir !== 'string') return 'pytest named no rootdir'
  const rootdir = rel(raw.rootdir)
  const fromRoot = (p: string): string => rel(join(raw.rootdir as string, p))
  return {
    python,
    rootdir,
    inifile: typeof raw.inifile === 'string' ? rel(raw.inifile) : null,
    testpaths: strings(raw.testpaths).map(fromRoot),
    pythonFiles: strings(raw.python_files),
    pythonClasses: strings(raw.python_classes),
    pythonFunctions: strings(raw.python_functions),
    pythonpath: raw.pythonpath === true,
    ignore: strings(raw.ignore).map(p => rel(resolve(repoDir, p)))
  }
}
