// Streaming JUnit XML reader. Reports from big suites run to hundreds of megabytes, so the
// file is fed to a SAX parser chunk by chunk and only the attributes the gate needs are
// kept: no DOM, no failure bodies, no captured output.
//
// The report is written by the head's code, so it is read as hostile: only a regular file
// (never a FIFO, a device or a socket, opened non-blocking and without following a final
// symlink, so opening cannot hang), only inside the run's folder, under a deadline, with
// <testsuite> nesting and the number of cases capped, and each suite held once with a
// reference to its parent, so memory stays linear in the report. A limit that is hit is a
// ReportError naming the limit, which makes the side's vote red.
import { constants, createReadStream } from 'node:fs'
import { lstat, open, readdir, realpath, type FileHandle } from 'node:fs/promises'
import { dirname, join, relative, isAbsolute } from 'node:path'
import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { HTML_ENTITIES } from './entities.js'

export type Outcome = 'passed' | 'failed' | 'error' | 'skipped'

/** One <testcase> as the report wrote it, before it gets a canonical id. */
export interface RawCase {
  classname: string
  name: string
  /** `file` (or `filepath`) of the testcase, else of the nearest enclosing testsuite. */
  file?: string
  line?: number
  /** Names of the enclosing <testsuite> elements, outermost first (shared between cases). */
  suites: readonly string[]
  outcome: Outcome
  /** Surefire's flakyFailure/flakyError: the runner itself saw it fail, then pass. */
  flaky: boolean
  /** Short failure/error/skip message, for the card. */
  message?: string
}

export interface Report {
  cases: RawCase[]
  /** Files read (one, or the XML files of a report directory). */
  files: string[]
}

export class ReportError extends Error {
  constructor(
    message: string,
    readonly file: string
  ) {
    super(message)
    this.name = 'ReportError'
  }
}

/** Outcomes from best to worst: two reports of one test keep the worse. */
export const OUTCOME_RANK: Readonly<Record<Outcome, number>> = {
  passed: 0,
  skipped: 1,
  failed: 2,
  error: 3
}
const MESSAGE_CHARS = 300
/** Distinct class names and files kept for sharing; beyond this they are simply kept. */
const MAX_INTERNED = 100_000

export interface ReportLimits {
  /** The run's folder: the report (after symlinks) must be inside it. Default: its folder. */
  root?: string
  /** Reading and parsing every file of the report must end within this many ms. */
  deadlineMs?: number
  /** Deepest <testsuite> nesting accepted. */
  maxDepth?: number
  /** Most <testcase> elements accepted, over all files. */
  maxCases?: number
}

export const REPORT_LIMITS: Readonly<Required<Omit<ReportLimits, 'root'>>> = {
  deadlineMs: 300_000,
  maxDepth: 64,
  maxCases: 400_000
}

/**
 * Reads a report file, or every XML file of a report directory (Surefire writes one
 * TEST-*.xml per class; when such files exist only they are read, since the directory
 * also holds other XML). Throws ReportError when nothing readable is there or a limit is hit.
 */
export async function readReport(path: string, limits: ReportLimits = {}): Promise<Report> {
  const info = await lstat(path).catch(() => null)
  if (info === null) throw new ReportError(`no report at ${path}`, path)
  const root = limits.root ?? dirname(path)
  const target = await insideRoot(path, root)
  const budget = new Budget(path, { ...REPORT_LIMITS, ...limits })
  let files = [path]
  if ((await lstat(target)).isDirectory()) {
    const names = (await readdir(target)).filter(n => n.endsWith('.xml')).sort()
    const surefire = names.filter(n => n.startsWith('TEST-'))
    files = (surefire.length > 0 ? surefire : names).map(n => join(path, n))
    if (files.length === 0)
      throw new ReportError(`report directory ${path} holds no .xml file`, path)
  }
  const cases: RawCase[] = []
  for (const file of files) {
    const real = await insideRoot(file, root)
    for (const c of await parseFile(real, budget)) cases.push(c)
  }
  return { cases, files }
}

/** The real path of `path`, which must lie inside `root` (both with symlinks resolved). */
async function insideRoot(path: string, root: string): Promise<string> {
  const [real, realRoot] = await Promise.all([
    realpath(path).catch(() => null),
    realpath(root).catch(() => root)
  ])
  if (real === null) throw new ReportError(`no report at ${path} (a dangling link?)`, path)
  const rel = relative(realRoot, real)
  if (rel.startsWith('..') || isAbsolute(rel))
    throw new ReportError(
      `the report ${path} leads out of the run's folder (to ${real}); it is not read`,
      path
    )
  return real
}

/** What the kind of a non-regular file is called in a message. */
function kindOf(info: {
  isFIFO(): boolean
  isSocket(): boolean
  isCharacterDevice(): boolean
  isBlockDevice(): boolean
  isDirectory(): boolean
  isSymbolicLink(): boolean
}): string {
  if (info.isFIFO()) return 'a FIFO'
  if (info.isSocket()) return 'a socket'
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device'
  if (info.isDirectory()) return 'a directory'
  if (info.isSymbolicLink()) return 'a symbolic link'
  return 'not a regular file'
}

/** Opens a regular file without blocking (a FIFO would) and without following a link. */
async function openRegular(file: string): Promise<FileHandle> {
  const before = await lstat(file)
  if (!before.isFile())
    throw new ReportError(`the report ${file} is ${kindOf(before)}, not a regular file`, file)
  let handle: FileHandle
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW)
  } catch (error) {
    throw new ReportError(
      `cannot open the report ${file}: ${error instanceof Error ? error.message : String(error)}`,
      file
    )
  }
  // Checked again on the open file: it may have been swapped since the lstat.
  const after = await handle.stat()
  if (!after.isFile()) {
    await handle.close()
    throw new ReportError(`the report ${file} is ${kindOf(after)}, not a regular file`, file)
  }
  return handle
}

/** The limits shared by all files of one report: one deadline, one case count. */
class Budget {
  readonly deadline: number
  cases = 0
  constructor(
    readonly path: string,
    readonly limits: Required<Omit<ReportLimits, 'root'>>
  ) {
    this.deadline = Date.now() + limits.deadlineMs
  }
}

export async function parseFile(
  file: string,
  budget: Budget = new Budget(file, REPORT_LIMITS)
): Promise<RawCase[]> {
  const handle = await openRegular(file)
  try {
    return await parseOpen(handle, file, budget)
  } finally {
    await handle.close().catch(() => undefined)
  }
}

function parseOpen(handle: FileHandle, file: string, budget: Budget): Promise<RawCase[]> {
  return new Promise((resolve, reject) => {
    const stream = createReadStream('', {
      fd: handle.fd,
      autoClose: false,
      encoding: 'utf8',
      highWaterMark: 1 << 20
    })
    let failed = false
    const fail = (message: string): void => {
      if (failed) return
      failed = true
      clearTimeout(timer)
      stream.destroy()
      reject(new ReportError(`unreadable report ${file}: ${message}`, file))
    }
    const remaining = Math.max(0, budget.deadline - Date.now())
    const limit = budget.limits.deadlineMs
    const timer = setTimeout(
      () =>
        fail(
          `reading and parsing took longer than the limit of ${limit >= 1000 ? `${Math.round(limit / 1000)} s` : `${limit} ms`}`
        ),
      remaining
    )
    const collector = new Collector(budget, fail)
    const parser = collector.parser()
    stream.on('data', chunk => {
      if (failed) return
      try {
        parser.write(chunk as string)
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error))
      }
    })
    stream.on('error', error => fail(error.message))
    stream.on('end', () => {
      if (failed) return
      try {
        parser.close()
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error))
        return
      }
      if (failed) return
      clearTimeout(timer)
      if (!collector.sawRoot) fail('no <testsuites> or <testsuite> root element')
      else resolve(collector.cases)
    })
  })
}

/** Parses report text (tests and small inputs). */
export function parseText(text: string, file = '<text>', limits: ReportLimits = {}): RawCase[] {
  const collector = new Collector(new Budget(file, { ...REPORT_LIMITS, ...limits }), message => {
    throw new ReportError(`unreadable report ${file}: ${message}`, file)
  })
  collector.parser().write(text).close()
  if (!collector.sawRoot)
    throw new ReportError(
      `unreadable report ${file}: no <testsuites> or <testsuite> root element`,
      file
    )
  return collector.cases
}

/** One open <testsuite>: its name and a reference to its parent, never a copy of the chain. */
interface Frame {
  name: string
  parent: Frame | null
  depth: number
  file?: string
  /** The chain of names, outermost first, built once when a case first needs it. */
  names?: readonly string[]
}

const ROOT_FRAME: Frame = { name: '', parent: null, depth: 0, names: [] }

function namesOf(frame: Frame): readonly string[] {
  if (frame.names) return frame.names
  const names: string[] = []
  for (let f: Frame | null = frame; f !== null && f.depth > 0; f = f.parent) names.push(f.name)
  frame.names = names.reverse()
  return frame.names
}

class Collector {
  readonly cases: RawCase[] = []
  sawRoot = false
  private frame: Frame = ROOT_FRAME
  private current: RawCase | null = null
  /** Class names and files repeat for every case of a module: each is kept once. */
  private readonly strings = new Map<string, string>()

  constructor(
    private readonly budget: Budget,
    private readonly fail: (message: string) => void
  ) {}

  parser(): SaxesParser {
    const parser = new SaxesParser({ position: false })
    // Reporters copy assertion messages into attributes; some escape them with HTML
    // entities that XML does not define. Known ones are decoded, unknown ones kept as text.
    Object.assign(parser.ENTITIES, HTML_ENTITIES)
    parser.on('error', error => {
      if (/undefined entity/.test(error.message)) return
      this.fail(error.message)
    })
    parser.on('opentag', tag => this.open(tag as SaxesTagPlain))
    parser.on('closetag', tag => this.close(tag.name))
    return parser
  }

  private open(tag: SaxesTagPlain): void {
    const a = tag.attributes
    switch (tag.name) {
      case 'testsuites':
        this.sawRoot = true
        break
      case 'testsuite': {
        this.sawRoot = true
        const parent = this.frame
        if (parent.depth >= this.budget.limits.maxDepth) {
          this.fail(
            `<testsuite> elements nested more than ${this.budget.limits.maxDepth} deep (the limit)`
          )
          return
        }
        // The outermost <testsuite> of a single-suite file is still a named suite; a
        // runner's root name ("pytest", "jest tests") is dropped later by the id mapping.
        const frame: Frame = { name: flat(a.name ?? ''), parent, depth: parent.depth + 1 }
        const file = a.file ?? a.filepath ?? parent.file
        if (file) frame.file = file
        this.frame = frame
        break
      }
      case 'testcase': {
        const frame = this.frame
        if (++this.budget.cases > this.budget.limits.maxCases) {
          this.fail(`more than ${this.budget.limits.maxCases} <testcase> elements (the limit)`)
          return
        }
        const open: RawCase = {
          classname: this.intern(a.classname ?? a.class ?? ''),
          name: flat(a.name ?? ''),
          suites: namesOf(frame),
          outcome: 'passed',
          flaky: false
        }
        const file = a.file ?? a.filepath ?? frame.file
        if (file) open.file = this.intern(file)
        const line = Number.parseInt(a.line ?? a.lineno ?? '', 10)
        if (Number.isFinite(line)) open.line = line
        this.current = open
        break
      }
      case 'failure':
      case 'error':
      case 'skipped':
      case 'rerunFailure':
      case 'rerunError':
      case 'flakyFailure':
      case 'flakyError': {
        const c = this.current
        if (c === null) break
        if (tag.name.startsWith('flaky')) {
          c.flaky = true
          break
        }
        const outcome: Outcome =
          tag.name === 'skipped' ? 'skipped' : /rror$/.test(tag.name) ? 'error' : 'failed'
        if (OUTCOME_RANK[outcome] > OUTCOME_RANK[c.outcome]) {
          c.outcome = outcome
          const message = a.message ?? a.type
          if (message) c.message = flat(message.slice(0, MESSAGE_CHARS))
        }
        break
      }
      default:
        break
    }
  }

  private intern(value: string): string {
    const known = this.strings.get(value)
    if (known !== undefined) return known
    const copy = flat(value)
    if (this.strings.size < MAX_INTERNED) this.strings.set(copy, copy)
    return copy
  }

  private close(name: string): void {
    if (name === 'testsuite') this.frame = this.frame.parent ?? ROOT_FRAME
    else if (name === 'testcase' && this.current !== null) {
      this.cases.push(this.current)
      this.current = null
    }
  }
}

/**
 * A copy that does not share memory with the parser's input: V8 keeps an attribute value as
 * a slice of the 1 MB chunk it came from, which would keep every chunk of a large report.
 */
function flat(value: string): string {
  return value.length < 13 ? value : Buffer.from(value, 'utf8').toString('utf8')
}
