// Streaming JUnit XML reader. Reports from big suites run to hundreds of megabytes, so the
// file is fed to a SAX parser chunk by chunk and only the attributes the gate needs are
// kept: no DOM, no failure bodies, no captured output.
import { createReadStream } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
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

const RANK: Record<Outcome, number> = { passed: 0, skipped: 1, failed: 2, error: 3 }
const MESSAGE_CHARS = 300

/**
 * Reads a report file, or every XML file of a report directory (Surefire writes one
 * TEST-*.xml per class; when such files exist only they are read, since the directory
 * also holds other XML). Throws ReportError when nothing readable is there.
 */
export async function readReport(path: string): Promise<Report> {
  const info = await stat(path).catch(() => null)
  if (info === null) throw new ReportError(`no report at ${path}`, path)
  let files = [path]
  if (info.isDirectory()) {
    const names = (await readdir(path)).filter(n => n.endsWith('.xml')).sort()
    const surefire = names.filter(n => n.startsWith('TEST-'))
    files = (surefire.length > 0 ? surefire : names).map(n => join(path, n))
    if (files.length === 0)
      throw new ReportError(`report directory ${path} holds no .xml file`, path)
  }
  const cases: RawCase[] = []
  for (const file of files) {
    for (const c of await parseFile(file)) cases.push(c)
  }
  return { cases, files }
}

export function parseFile(file: string): Promise<RawCase[]> {
  return new Promise((resolve, reject) => {
    const collector = new Collector()
    const stream = createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })
    let failed = false
    const fail = (message: string): void => {
      if (failed) return
      failed = true
      stream.destroy()
      reject(new ReportError(`unreadable report ${file}: ${message}`, file))
    }
    const parser = collector.parser(fail)
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
      if (!collector.sawRoot) fail('no <testsuites> or <testsuite> root element')
      else resolve(collector.cases)
    })
  })
}

/** Parses report text (tests and small inputs). */
export function parseText(text: string, file = '<text>'): RawCase[] {
  const collector = new Collector()
  const parser = collector.parser(message => {
    throw new ReportError(`unreadable report ${file}: ${message}`, file)
  })
  parser.write(text).close()
  if (!collector.sawRoot)
    throw new ReportError(
      `unreadable report ${file}: no <testsuites> or <testsuite> root element`,
      file
    )
  return collector.cases
}

interface Frame {
  names: readonly string[]
  file?: string
}

interface OpenCase {
  classname: string
  name: string
  file?: string
  line?: number
  suites: readonly string[]
  outcome: Outcome
  flaky: boolean
  message?: string
}

class Collector {
  readonly cases: RawCase[] = []
  sawRoot = false
  private readonly frames: Frame[] = [{ names: [] }]
  private current: OpenCase | null = null

  parser(fail: (message: string) => void): SaxesParser {
    const parser = new SaxesParser({ position: false })
    // Reporters copy assertion messages into attributes; some escape them with HTML
    // entities that XML does not define. Known ones are decoded, unknown ones kept as text.
    Object.assign(parser.ENTITIES, HTML_ENTITIES)
    parser.on('error', error => {
      if (/undefined entity/.test(error.message)) return
      fail(error.message)
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
        const parent = this.frames[this.frames.length - 1] ?? { names: [] }
        // The outermost <testsuite> of a single-suite file is still a named suite; a
        // runner's root name ("pytest", "jest tests") is dropped later by the id mapping.
        const frame: Frame = { names: [...parent.names, a.name ?? ''] }
        const file = a.file ?? a.filepath ?? parent.file
        if (file) frame.file = file
        this.frames.push(frame)
        break
      }
      case 'testcase': {
        const frame = this.frames[this.frames.length - 1] ?? { names: [] }
        const open: OpenCase = {
          classname: a.classname ?? a.class ?? '',
          name: a.name ?? '',
          suites: frame.names,
          outcome: 'passed',
          flaky: false
        }
        const file = a.file ?? a.filepath ?? frame.file
        if (file) open.file = file
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
        if (RANK[outcome] > RANK[c.outcome]) {
          c.outcome = outcome
          const message = a.message ?? a.type
          if (message) c.message = message.slice(0, MESSAGE_CHARS)
        }
        break
      }
      default:
        break
    }
  }

  private close(name: string): void {
    if (name === 'testsuite') this.frames.pop()
    else if (name === 'testcase' && this.current !== null) {
      this.cases.push(this.current)
      this.current = null
    }
  }
}
