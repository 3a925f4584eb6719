// Small helpers shared by the benchmark figures: repos in a temp dir, timing, a Python
// with pytest, medians. Nothing here runs at import.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, writeFileSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

export const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'bench',
  GIT_AUTHOR_EMAIL: 'bench@example.invalid',
  GIT_COMMITTER_NAME: 'bench',
  GIT_COMMITTER_EMAIL: 'bench@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1'
}

export function tempDir(prefix) {
  return mkdtempSync(join(tmpdir(), prefix))
}

export function git(dir, ...args) {
  return execFileSync('git', args, { cwd: dir, env: GIT_ENV, encoding: 'utf8', maxBuffer: 1 << 30 })
}

export function writeFiles(dir, files) {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
}

export function initRepo(dir) {
  git(dir, 'init', '-q', '-b', 'main')
  git(dir, 'config', 'commit.gpgsign', 'false')
  // No automatic gc in the background of a measurement (git starts one after big commits).
  git(dir, 'config', 'gc.auto', '0')
}

/** Packs the objects, as in a clone: a runner's checkout never holds 40,000 loose objects. */
export function pack(dir) {
  git(dir, 'gc', '-q')
}

export function commitAll(dir, message) {
  git(dir, 'add', '-A')
  git(dir, 'commit', '-q', '--allow-empty', '-m', message)
}

/** Seconds a command takes (wall clock), with its exit status. */
export function timeCommand(cmd, args, options = {}) {
  const started = process.hrtime.bigint()
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30, ...options })
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  return { seconds, status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** Seconds until the child has written `lines` complete lines (stdout and stderr together). */
export function timeToOutputLines(cmd, args, options = {}, lines = 1) {
  return new Promise(resolve => {
    const started = process.hrtime.bigint()
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options })
    let seen = 0
    let done = false
    const finish = () => {
      if (done) return
      done = true
      resolve(Number(process.hrtime.bigint() - started) / 1e9)
    }
    const count = data => {
      for (const byte of data) if (byte === 10 && ++seen >= lines) return finish()
    }
    child.stdout.on('data', count)
    child.stderr.on('data', count)
    child.on('close', finish)
  })
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
}

/** A directory with python/python3 pointing at an interpreter that has pytest+hypothesis. */
export function pythonShims() {
  for (const candidate of [
    process.env.ORACLE_GATE_TEST_PYTHON,
    'python3',
    '/usr/bin/python3'
  ].filter(Boolean)) {
    const r = spawnSync(
      candidate,
      ['-c', 'import pytest, hypothesis, sys; print(sys.executable)'],
      { encoding: 'utf8' }
    )
    if (r.status === 0) {
      const dir = tempDir('og-bench-bin-')
      symlinkSync(r.stdout.trim(), join(dir, 'python3'))
      symlinkSync(r.stdout.trim(), join(dir, 'python'))
      return dir
    }
  }
  throw new Error('bench: needs python3 with pytest and hypothesis')
}
