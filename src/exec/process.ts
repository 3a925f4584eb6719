// The one process wrapper for everything the gate runs from the policy (setup, suite,
// reruns, seeds): own process group so a timeout kills the whole tree, output to a log
// file with a tail kept in memory for the card, optional stdin and captured stdout.
// Output is decoded per stream with a StringDecoder (a character split across chunks stays
// whole), captured stdout is capped (a child cannot fill the gate's memory) and the
// timeout is clamped to what a timer can hold (a larger delay fires at once).
import { spawn } from 'node:child_process'
import { createWriteStream, existsSync } from 'node:fs'
import { StringDecoder } from 'node:string_decoder'
import { constants } from 'node:os'

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
  /** An argv the shell runs under (the sandbox, src/exec/sandbox.ts); absent: run directly. */
  wrap?: readonly string[]
  /** A pipe at the child's descriptor 3, read into this (the outcome stream, replay/stream.ts). */
  onStream?: (chunk: Buffer) => void
  /**
   * Bytes at the child's descriptor 4, a pipe closed once they are written (the watch plan
   * the gate's reporter reads when it loads, replay/watch.ts); needs onStream.
   */
  feed?: Buffer
  /**
   * Called once the child is spawned (its handlers set): work that should not hold back the
   * spawn (the gate's lints, the head's worktree) starts then. Should it throw, the child's
   * group is killed and the run rejects with that error once the child has closed.
   */
  onSpawn?: () => void
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
  /** Why the wrapper stopped the run (captured stdout over its limit), when it did. */
  failure?: string
}

/** Captured stdout beyond this many bytes kills the run: a protocol stream, not a dump. */
export const MAX_CAPTURE_BYTES = 64 * 1024 * 1024

/** The longest delay setTimeout holds (2^31-1 ms, ~24.8 days); a larger one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** The timer delay for a timeout in seconds, clamped to [1 ms, MAX_TIMER_MS]. */
export function timerDelay(timeoutSec: number): number {
  const ms = timeoutSec * 1000
  if (Number.isNaN(ms)) return MAX_TIMER_MS
  return Math.max(1, Math.min(MAX_TIMER_MS, Math.ceil(ms)))
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
    const out = new OutputTail()
    const captured = new Capture()
    const [bin = shell(), ...args] = [...(run.wrap ?? []), shell(), '-c', run.command]
    const child = spawn(bin, args, {
      cwd: run.cwd,
      env: run.env,
      detached: true, // own process group: kill(-pid) reaches grandchildren
      stdio: ['pipe', 'pipe', 'pipe', ...extraPipes(run)]
    })
    if (run.onStream) child.stdio[3]?.on('data', run.onStream)
    feed(child.stdio[4], run.feed)
    const stdoutText = new StringDecoder('utf8')
    const stderrText = new StringDecoder('utf8')
    child.stdout.on('data', (d: Buffer) => {
      if (!run.captureStdout) return keep(log, out, d, stdoutText)
      if (!captured.add(d)) killGroup(child.pid, 'SIGKILL')
    })
    child.stderr.on('data', (d: Buffer) => keep(log, out, d, stderrText))
    child.stdin.on('error', () => undefined) // a child that exits without reading stdin
    child.stdin.end(run.input ?? '')

    let timedOut = false
    let killTimer: NodeJS.Timeout | undefined
    const timer = setTimeout(() => {
      timedOut = true
      killGroup(child.pid, 'SIGTERM')
      killTimer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), KILL_GRACE_MS)
    }, timerDelay(run.timeoutSec))

    child.on('error', error => {
      clearTimeout(timer)
      log.end()
      reject(error)
    })
    let notified: { error: unknown } | undefined
    child.on('close', (closeCode, closeSignal) => {
      // A wrapper (the sandbox) exits 128+n for a command killed by signal n: say so.
      const [code, signal] = run.wrap ? unwrapped(closeCode, closeSignal) : [closeCode, closeSignal]
      clearTimeout(timer)
      if (killTimer) clearTimeout(killTimer)
      // Anything the suite left running in its group (servers, watchers) goes too.
      killGroup(child.pid, 'SIGKILL')
      if (notified !== undefined) {
        log.end(() => reject(notified?.error))
        return
      }
      out.add(stdoutText.end() + stderrText.end())
      const failure = captured.overflowed
        ? `captured stdout exceeded the ${MAX_CAPTURE_BYTES / 1024 / 1024} MiB limit (MAX_CAPTURE_BYTES); the process group was killed and its stdout discarded`
        : undefined
      if (failure !== undefined) out.add(`\noracle-gate: ${failure}\n`)
      log.end(() =>
        resolve({
          exitCode: code,
          signal,
          timedOut,
          durationMs: Date.now() - started,
          ...out.result(),
          stdout: captured.text(),
          ...(failure === undefined ? {} : { failure })
        })
      )
    })
    if (run.onSpawn === undefined || child.pid === undefined) return
    try {
      run.onSpawn()
    } catch (error) {
      notified = { error }
      killGroup(child.pid, 'SIGKILL')
    }
  })
}

/** The stream's pipe at descriptor 3 and the feed's at 4, when asked for. */
function extraPipes(run: ShellRun): 'pipe'[] {
  if (!run.onStream) return []
  return run.feed ? ['pipe', 'pipe'] : ['pipe']
}

/** Writes the feed and closes the pipe; a child that never reads it is no error. */
function feed(pipe: unknown, data: Buffer | undefined): void {
  if (data === undefined || pipe === null || typeof pipe !== 'object') return
  const w = pipe as NodeJS.WritableStream & { on: (e: string, f: () => void) => void }
  w.on('error', () => undefined)
  w.end(data)
}

function keep(
  log: NodeJS.WritableStream,
  out: OutputTail,
  data: Buffer,
  decoder: StringDecoder
): void {
  log.write(data)
  out.add(decoder.write(data))
}

/** The first and last characters of a run's output, for the card. */
class OutputTail {
  private tail = ''
  private head = ''
  private total = 0

  add(text: string): void {
    this.total += text.length
    if (this.head.length < HEAD_BYTES) this.head = (this.head + text).slice(0, HEAD_BYTES)
    this.tail = (this.tail + text).slice(-TAIL_BYTES)
  }

  result(): { tail: string; head: string } {
    const head = this.head
    return {
      tail: this.tail.trimEnd(),
      head:
        this.total > TAIL_BYTES
          ? head.slice(0, head.lastIndexOf('\n') + 1 || head.length).trimEnd()
          : ''
    }
  }
}

/** Captured stdout, up to MAX_CAPTURE_BYTES; past it nothing is kept. */
class Capture {
  private chunks: Buffer[] = []
  private bytes = 0
  overflowed = false

  /** False once the limit is passed (the caller stops the child). */
  add(data: Buffer): boolean {
    if (this.overflowed) return false
    this.bytes += data.length
    if (this.bytes > MAX_CAPTURE_BYTES) {
      this.overflowed = true
      this.chunks = []
      return false
    }
    this.chunks.push(data)
    return true
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8')
  }
}

/** The exit of a command run under a wrapper that reports signal n as status 128+n. */
function unwrapped(
  code: number | null,
  signal: NodeJS.Signals | null
): [number | null, NodeJS.Signals | null] {
  if (code === null || code <= 128) return [code, signal]
  const name = Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0]
  return name ? [null, name as NodeJS.Signals] : [code, signal]
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (pid === undefined) return
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}
