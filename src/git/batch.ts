// One long-lived `git cat-file --batch` (or `--batch-check`) process per run instead of a
// process per read: a git process costs a fork of the gate's process and git's start-up
// (5–10 ms on a busy 2-core runner), and a run reads dozens to thousands of objects. The
// protocol answers requests in the order they were written, so reads are pipelined: each
// read writes its line and queues its answer; the parser hands answers out in order.
//
// What a line cannot carry is never sent as a line: git reads the request up to the
// newline and drops a carriage return before it, so a name holding a newline or ending in
// a carriage return would ask for another object. Git.ts resolves such names to an object
// id with a process of their own and asks by id.
import type { ChildProcess } from 'node:child_process'
import { GateError } from '../errors.js'

/** What `--batch-check` says of a found object. */
export interface ObjectInfo {
  oid: string
  type: string
  size: number
}

/** A found object: its header and, from `--batch`, its bytes. */
export interface ObjectAnswer extends ObjectInfo {
  bytes: Buffer | null
}

/** Which protocol: `batch` answers with the bytes, `check` with the header only. */
export type BatchMode = 'batch' | 'check'

interface Pending {
  request: string
  resolve: (answer: ObjectAnswer | null) => void
  reject: (error: Error) => void
}

/** `<oid> <type> <size>`: anything else that is not "<request> missing" breaks the protocol. */
const HEADER = /^([0-9a-f]{40}|[0-9a-f]{64}) ([a-z]+) (\d+)$/

/** How long close() lets git finish before it is killed. */
const CLOSE_GRACE_MS = 2000

/** Whether a request can be sent as one line of the batch protocol. */
export function sendableAsLine(request: string): boolean {
  return !request.includes('\n') && !request.endsWith('\r') && !request.includes('\0')
}

/**
 * A `git cat-file --batch[-check]` child, started by the first read. While no read is
 * pending the child does not keep Node's event loop alive, so an owner that forgets
 * close() cannot hang its process (git ends on the end of its input when Node exits);
 * owners still close it when their run ends.
 */
export class CatFile {
  private child: ChildProcess | undefined
  private readonly queue: Pending[] = []
  private readonly parser: AnswerParser
  private failed: GateError | undefined
  private closed = false
  private stderr = ''
  private exited: Promise<void> | undefined

  constructor(
    private readonly mode: BatchMode,
    private readonly start: () => ChildProcess,
    private readonly where: string
  ) {
    this.parser = new AnswerParser(mode, () => this.queue[0]?.request, this.answered)
  }

  /** The object a request names (an object id or `rev:path`), or null when there is none. */
  read(request: string): Promise<ObjectAnswer | null> {
    if (!sendableAsLine(request))
      return Promise.reject(
        new GateError(`${this.command()}: cannot send ${JSON.stringify(request)} as a line`)
      )
    if (this.closed)
      return Promise.reject(
        new GateError(`${this.command()} in ${this.where}: read after the run ended`)
      )
    if (this.failed) return Promise.reject(this.failed)
    const child = this.child ?? this.spawn()
    return new Promise((resolve, reject) => {
      this.queue.push({ request, resolve, reject })
      if (this.queue.length === 1) setRef(child, true)
      child.stdin?.write(`${request}\n`)
    })
  }

  /** Ends the child: its input closed, then killed if it has not exited in a grace period. */
  async close(): Promise<void> {
    this.closed = true
    const child = this.child
    if (child === undefined || this.exited === undefined) return
    // Waited for, the child keeps the process alive again: an idle, unreferenced child
    // would let Node exit here with the run half closed.
    setRef(child, true)
    child.stdin?.end()
    const timer = setTimeout(() => child.kill('SIGKILL'), CLOSE_GRACE_MS)
    timer.unref()
    await this.exited
    clearTimeout(timer)
  }

  /** The process id while the child runs (for the owner's logs), else undefined. */
  get pid(): number | undefined {
    return this.child?.exitCode === null ? this.child.pid : undefined
  }

  private spawn(): ChildProcess {
    const child = this.start()
    this.child = child
    this.exited = new Promise(resolve => child.once('close', () => resolve()))
    child.stdout?.on('data', (chunk: Buffer) => {
      try {
        this.parser.push(chunk)
      } catch (error) {
        this.fail(error instanceof GateError ? error : new GateError(String(error)))
        child.kill('SIGKILL')
      }
    })
    child.stderr?.on('data', (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString('utf8')).slice(-4000)
    })
    child.stdin?.on('error', () => undefined) // the exit below says why
    child.on('error', error =>
      this.fail(new GateError(`${this.command()} could not run in ${this.where}: ${error.message}`))
    )
    child.on('close', (code, signal) => {
      if (this.queue.length === 0 && this.closed) return
      const detail =
        this.stderr.trim().split('\n').slice(-3).join(' / ') || `exit ${code ?? signal}`
      this.fail(new GateError(`${this.command()} ended in ${this.where}: ${detail}`))
    })
    setRef(child, false)
    return child
  }

  private readonly answered = (answer: ObjectAnswer | null): void => {
    const pending = this.queue.shift()
    if (pending === undefined) throw new GateError(`${this.command()}: an answer nobody asked for`)
    if (this.queue.length === 0 && this.child) setRef(this.child, false)
    pending.resolve(answer)
  }

  /** Every pending and later read fails with `error` (fail closed: no read is guessed). */
  private fail(error: GateError): void {
    this.failed ??= error
    for (const pending of this.queue.splice(0)) pending.reject(this.failed)
  }

  private command(): string {
    return `git cat-file --batch${this.mode === 'check' ? '-check' : ''}`
  }
}

/** Whether the child (and its pipes) keep Node's event loop alive. */
function setRef(child: ChildProcess, on: boolean): void {
  for (const handle of [child, child.stdin, child.stdout, child.stderr] as unknown[]) {
    const h = handle as { ref?: () => void; unref?: () => void } | null
    if (on) h?.ref?.()
    else h?.unref?.()
  }
}

/**
 * The answer stream, cut into answers: a header line, then (`batch`, a found object) the
 * size's bytes and a newline. Chunks are kept as they came and joined once per answer, so
 * a large blob costs one copy.
 */
class AnswerParser {
  private parts: Buffer[] = []
  private have = 0
  /** While reading an object's bytes: its header and how many bytes (with the newline). */
  private body: { info: ObjectInfo; need: number } | undefined

  constructor(
    private readonly mode: BatchMode,
    private readonly expected: () => string | undefined,
    private readonly emit: (answer: ObjectAnswer | null) => void
  ) {}

  push(chunk: Buffer): void {
    let rest = chunk
    while (rest.length > 0)
      rest = this.body ? this.takeBody(rest, this.body) : this.takeHeader(rest)
  }

  private takeHeader(chunk: Buffer): Buffer {
    const eol = chunk.indexOf(0x0a)
    if (eol < 0) {
      this.keep(chunk)
      return Buffer.alloc(0)
    }
    this.keep(chunk.subarray(0, eol))
    const header = this.joined().toString('utf8')
    this.onHeader(header)
    return chunk.subarray(eol + 1)
  }

  private onHeader(header: string): void {
    const request = this.expected()
    if (request === undefined) throw new GateError(`git cat-file: unexpected output "${header}"`)
    if (header === `${request} missing` || header === `${request} ambiguous`) {
      this.emit(null)
      return
    }
    const match = HEADER.exec(header)
    if (!match) throw new GateError(`git cat-file: unexpected answer "${header}" to "${request}"`)
    const info = { oid: match[1] ?? '', type: match[2] ?? '', size: Number(match[3]) }
    if (!Number.isSafeInteger(info.size)) throw new GateError(`git cat-file: size in "${header}"`)
    if (this.mode === 'check') this.emit({ ...info, bytes: null })
    else this.body = { info, need: info.size + 1 }
  }

  private takeBody(chunk: Buffer, body: { info: ObjectInfo; need: number }): Buffer {
    const take = Math.min(body.need - this.have, chunk.length)
    this.keep(chunk.subarray(0, take))
    if (this.have === body.need) {
      const bytes = this.joined()
      if (bytes[body.info.size] !== 0x0a)
        throw new GateError(`git cat-file: ${body.info.oid} does not end where its size says`)
      this.body = undefined
      this.emit({ ...body.info, bytes: bytes.subarray(0, body.info.size) })
    }
    return chunk.subarray(take)
  }

  private keep(part: Buffer): void {
    this.parts.push(part)
    this.have += part.length
  }

  /** The kept parts as one buffer of their own (never a view of a chunk), then forgotten. */
  private joined(): Buffer {
    const out = Buffer.concat(this.parts, this.have)
    this.parts = []
    this.have = 0
    return out
  }
}
