// The one process wrapper for everything the gate runs from the policy (setup, suite,
// reruns, seeds): own process group so a timeout kills the whole tree, output to a log
// file with a tail kept in memory for the card, optional stdin and captured stdout.
import { spawn } from 'node:child_process'
import { createWriteStream, existsSync } from 'node:fs'

export interface ShellRun {
  command: string
  cwd: string
  env: NodeJS.ProcessEnv
  timeoutSec: number
  /** Combined stdout/stderr go here (stdout too unless captureStdout). */
  logFile: string
  /** Fed to the child's stdin, then closed. Without it stdin is empty. */
  input?: string
  /** Keep stdout in memory (for protocols like the seeds batch), log only stderr. */
  captureStdout?: boolean
  /** A pipe at the child's descriptor 3, read into this (the outcome stream, replay/stream.ts). */
  onStream?: (chunk: Buffer) => void
}

export interface ShellResult {
  exitCode: number | null
  signal: NodeJS.Signals | null
  timedOut: boolean
  durationMs: number
  /** Last lines of output, for the scorecard. */
  tail: string
  /** First lines of output when there was more than the tail holds ('' otherwise). */
  head: string
  stdout: string
}

const TAIL_BYTES = 4000
const HEAD_BYTES = 1500
const KILL_GRACE_MS = 2000

/** bash when present (the contract says bash -c), POSIX sh otherwise. */
export function shell(): string {
  return existsSync('/bin/bash')
    ? '/bin/bash'
    : existsSync('/usr/bin/bash')
      ? '/usr/bin/bash'
      : '/bin/sh'
}

export function runShell(run: ShellRun): Promise<ShellResult> {
  return new Promise((resolve, reject) => {
    const started = Date.now()
    const log = createWriteStream(run.logFile, { flags: 'a' })
    let tail = ''
    let head = ''
    let total = 0
    const chunks: Buffer[] = []
    const keep = (data: Buffer): void => {
      log.write(data)
      const text = data.toString('utf8')
      total += text.length
      if (head.length < HEAD_BYTES) head = (head + text).slice(0, HEAD_BYTES)
      tail = (tail + text).slice(-TAIL_BYTES)
    }
    const child = spawn(shell(), ['-c', run.command], {
      cwd: run.cwd,
      env: run.env,
      detached: true, // own process group: kill(-pid) reaches grandchildren
      stdio: run.onStream ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe']
    })
    if (run.onStream) child.stdio[3]?.on('data', run.onStream)
    child.stdout.on('data', (d: Buffer) => (run.captureStdout ? chunks.push(d) : keep(d)))
    child.stderr.on('data', keep)
    child.stdin.on('error', () => undefined) // a child that exits without reading stdin
    child.stdin.end(run.input ?? '')

    let timedOut = false
    let killTimer: NodeJS.Timeout | undefined
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child.pid, 'SIGTERM')
      killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS)
    }, run.timeoutSec * 1000)

    child.on('error', error => {
      clearTimeout(timer)
      log.end()
      reject(error)
    })
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (killTimer) clearTimeout(killTimer)
      // Anything the suite left running in its group (servers, watchers) goes too.
      killGroup(child.pid, 'SIGKILL')
      log.end(() =>
        resolve({
          exitCode: code,
          signal,
          timedOut,
          durationMs: Date.now() - started,
          tail: tail.trimEnd(),
          head:
            total > TAIL_BYTES
              ? head.slice(0, head.lastIndexOf('\n') + 1 || head.length).trimEnd()
              : '',
          stdout: Buffer.concat(chunks).toString('utf8')
        })
      )
    })
  })
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}
