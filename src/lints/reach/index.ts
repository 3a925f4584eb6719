// `oracle-reach`: production code the patch adds may not reach into the test runner, the
// gate or the instrument. The locked tests import the product, so its code runs inside the
// voting process, where it could patch the framework, read the runner's markers, inspect
// its callers, hijack the process, read the oracle's files, make comparisons lie or
// special-case a locked case. No gate can stop code in the same process from lying; this
// lint makes every such line visible and blocking in the diff. I/O here (git reads, one
// parse per file); the detectors are pure (python.ts, script.ts, paths.ts, cases.ts).
import type { Node, Tree } from 'web-tree-sitter'
import type { GateContext } from '../../context.js'
import { GateError } from '../../errors.js'
import { instrumentView } from '../../instrument/view.js'
import type { Level, Reason } from '../../types.js'
import { readBlobs } from '../blobs.js'
import type { LintInput } from '../registry.js'
import { MAX_ADDED_TEXT_BYTES, type LargeFile } from '../view.js'
import { languageOf, parserFor, type LanguageId } from '../parsers.js'
import { allowList, entryPoints } from './allow.js'
import {
  constructs,
  echoFindings,
  fixtureCases,
  testCases,
  type Construct,
  type LockedCase
} from './cases.js'
import { instrumentNames } from './paths.js'
import { detectPython } from './python.js'
import { detectScript } from './script.js'
import { touchingLines } from './syntax.js'
import type { Finding, ReachCategory } from './types.js'

/** Findings reported per file before a summary reason takes over. */
const PER_FILE_CAP = 20
/** Fixture files larger than this are not read for locked cases. */
const MAX_FIXTURE_BYTES = 4 * 1024 * 1024

/** Why each category is a reach: the static rule's and the run-time rule's (reach-events.ts). */
export const WHY: Record<ReachCategory, string> = {
  framework:
    'production code must not import, reach or patch the test framework or the assertion library: the voting tests run in the same process and would judge a framework the patch rewrote',
  markers:
    'production code must not behave differently under a test runner or the gate: the tests would measure a branch production never takes',
  introspection:
    "production code must not read its callers' frames, the call stack or the heap: that is how code finds the test that calls it and its expected value",
  process:
    "production code must not end, rewire or outlive the runner's process: exit hooks, exit codes and signal handlers can hide a failing run or rewrite its report",
  instrument:
    "production code must not name the instrument's files (tests, fixtures, seeds, ledger, policy): reading them echoes the expected answers, writing them rewrites the oracle",
  comparison:
    'production code must not make comparisons lie: a value that equals anything, or a patched built-in, passes every assertion',
  echo: 'production code must not special-case the inputs and expected output of a locked test or fixture: fix the code so the case passes for the reason the test states'
}

export const ADVICE =
  'if this is a real need, list the path and category under lints.reach_allow in the policy (a reviewed PR of its own)'

interface Parsed {
  path: string
  language: LanguageId
  findings: Finding[]
  constructs: Construct[]
}

/** The lint as the registry runs it (`lints.oracle-reach` already mapped to a level). */
export async function oracleReach(input: LintInput, level: Level): Promise<Reason[]> {
  const { ctx, view } = input
  const files = input.files.production.map(r => r.path)
  if (files.length === 0) return []
  const started = Date.now()
  const added = await view.added()
  const large = new Set<string>()
  for (const p of files) if (await view.isLarge(p)) large.add(p)
  const written = files.filter(p => large.has(p) || (added.get(p)?.size ?? 0) > 0)
  if (written.length === 0) return []
  const baseTree = [...(await ctx.trees.get(ctx.mergeBase)).values()]
    .filter(e => e.type === 'blob')
    .map(e => e.path)
  const isInstrument = await instrumentPredicate(ctx)
  const names = instrumentNames(baseTree, isInstrument)
  const texts = await view.textsAt(
    ctx.head,
    written.filter(p => !large.has(p))
  )
  const parsed: Parsed[] = []
  const notices: Reason[] = []
  for (const path of written) {
    const language = languageOf(path)
    if (language === undefined) continue
    if (large.has(path)) {
      const file = await view.largeFile(path)
      if (file.unread > 0) notices.push(unreadNotice(file))
      parsed.push(await parseAdded(path, language, file.lines, names))
      continue
    }
    const text = texts.get(path)
    if (text === undefined) continue
    // Only subtrees that touch an added line are walked; names are still resolved through
    // the whole file's imports.
    const within = touchingLines([...(added.get(path)?.keys() ?? [])].sort((a, b) => a - b))
    const tree = await view.tree(ctx.head, path, text, language)
    parsed.push(detect(path, language, tree.rootNode, names, within))
  }
  const onAdded = (path: string, start: number, end: number): number | undefined => {
    const lines = added.get(path)
    for (let l = start; l <= end; l++) if (lines?.has(l)) return l
    return undefined
  }
  // Locked cases are read only when a construct the patch added could echo one.
  const echoCandidates = parsed.some(p =>
    p.constructs.some(c => c.constants.some(k => added.get(p.path)?.has(k.line)))
  )
  const cases = echoCandidates ? await lockedCases(ctx, baseTree, isInstrument) : []
  for (const p of parsed) p.findings.push(...echoFindings(p.constructs, cases))

  const allowed = allowList(ctx.policy.lints.reach_allow, ctx.policy.case_insensitive)
  const isEntry = entryPoints(
    await ctx.git.showText(ctx.mergeBase, 'package.json'),
    await ctx.git.showText(ctx.mergeBase, 'pyproject.toml')
  )
  const reasons: Reason[] = [...notices]
  let waived = 0
  for (const p of parsed) {
    const seen = new Set<string>()
    const kept: Reason[] = []
    for (const f of p.findings.sort((a, b) => a.start - b.start)) {
      const line = onAdded(p.path, f.start, f.end)
      if (line === undefined || seen.has(`${f.category}\0${line}`)) continue
      seen.add(`${f.category}\0${line}`)
      if (allowed(p.path, f.category)) {
        waived++
        continue
      }
      const soft =
        f.mainOnly === true
          ? 'main'
          : f.entryPointHabit === true && isEntry(p.path)
            ? 'entry'
            : undefined
      kept.push(reasonOf(p.path, line, f, soft === undefined ? level : 'notice', soft))
    }
    reasons.push(...kept.slice(0, PER_FILE_CAP))
    if (kept.length > PER_FILE_CAP) {
      reasons.push({
        rule: 'oracle-reach',
        level,
        path: p.path,
        message: `${kept.length - PER_FILE_CAP} more oracle-reach finding(s) in this file`
      })
    }
  }
  ctx.log.info(
    `oracle-reach: ${parsed.length} production file(s) parsed, ${cases.length} locked case(s) read, ${reasons.length} finding(s), ${waived} allowed by lints.reach_allow; ${Date.now() - started} ms`
  )
  return reasons
}

/**
 * What a finding says is built from the head's code (names, keys): control, bidirectional
 * and line-separator characters become `?` and the text is cut short before it is printed.
 */
export function printable(text: string, max = 240): string {
  const clean = text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g,
    '?'
  )
  return clean.length > max ? `${clean.slice(0, max)}…` : clean
}

const SOFTENED = {
  entry: 'allowed in a command-line entry point; make sure the locked tests never import this file',
  main: 'allowed: it runs only when the file is run as a program, never when a test imports it'
} as const

function reasonOf(
  path: string,
  line: number,
  f: Finding,
  level: Level,
  soft: keyof typeof SOFTENED | undefined
): Reason {
  const what = printable(f.what)
  const message =
    soft !== undefined
      ? `${what} [${f.category}]: ${SOFTENED[soft]}`
      : `${what} [${f.category}]: ${WHY[f.category]}; ${ADVICE}`
  return { rule: 'oracle-reach', level, path, line, message }
}

function detect(
  path: string,
  language: LanguageId,
  root: Node,
  names: (value: string) => string | undefined,
  within?: (node: Node) => boolean
): Parsed {
  return {
    path,
    language,
    findings: (language === 'python' ? detectPython : detectScript)(root, {
      instrumentName: names,
      within
    }),
    constructs: constructs(root, language, within)
  }
}

/** Lines of added text parsed together from a large file (a run of them, cut at this size). */
const RANGE_BYTES = 1024 * 1024

/**
 * A large production file, by its added lines alone: each run of consecutive added lines
 * (cut at RANGE_BYTES) is parsed on its own and its findings moved to the file's lines.
 * Names are resolved within the run only: the file's own imports are not read.
 */
async function parseAdded(
  path: string,
  language: LanguageId,
  lines: ReadonlyMap<number, string>,
  names: (value: string) => string | undefined
): Promise<Parsed> {
  const out: Parsed = { path, language, findings: [], constructs: [] }
  for (const { first, text } of addedRanges(lines)) {
    const part = await withTree(path, language, text, tree =>
      detect(path, language, tree.rootNode, names)
    )
    const shift = first - 1
    for (const f of part.findings)
      out.findings.push({ ...f, start: f.start + shift, end: f.end + shift })
    for (const c of part.constructs)
      out.constructs.push({
        start: c.start + shift,
        end: c.end + shift,
        constants: c.constants.map(k => ({ ...k, line: k.line + shift }))
      })
  }
  return out
}

/** Runs of consecutive added lines, each at most RANGE_BYTES of text (a longer run is cut). */
export function addedRanges(
  lines: ReadonlyMap<number, string>
): Array<{ first: number; text: string }> {
  const ranges: Array<{ first: number; text: string }> = []
  let first = 0
  let next = 0
  let parts: string[] = []
  let bytes = 0
  const flush = (): void => {
    if (parts.length > 0) ranges.push({ first, text: parts.join('\n') })
    parts = []
    bytes = 0
  }
  for (const line of [...lines.keys()].sort((a, b) => a - b)) {
    const text = lines.get(line) ?? ''
    if (line !== next || bytes + text.length > RANGE_BYTES) {
      flush()
      first = line
    }
    parts.push(text)
    bytes += text.length + 1
    next = line + 1
  }
  flush()
  return ranges
}

function unreadNotice(file: LargeFile): Reason {
  const mib = (n: number): string => (n / 1024 / 1024).toFixed(1)
  return {
    rule: 'oracle-reach',
    level: 'notice',
    path: file.path,
    message: `${mib(file.unread)} MiB of the text added to this ${mib(file.size)} MiB file was not read: the lints read up to ${MAX_ADDED_TEXT_BYTES / 1024 / 1024} MiB of added text per large file (the limit)`
  }
}

async function withTree<T>(
  path: string,
  language: LanguageId,
  text: string,
  fn: (tree: Tree) => T
): Promise<T> {
  const parser = await parserFor(language)
  const tree = parser.parse(text)
  if (tree === null) throw new GateError(`tree-sitter could not parse ${path}`, { path })
  try {
    return fn(tree)
  } finally {
    tree.delete()
  }
}

/**
 * Instrument files by the merge base's policy (protected, voting, named by the policy,
 * reached by an instrument symlink, fixtures): the instrument stage's view, handed over
 * in the context (built here only when the lints run on their own).
 */
async function instrumentPredicate(ctx: GateContext): Promise<(path: string) => boolean> {
  return (ctx.instrument ?? (await instrumentView(ctx))).isOracle
}

const FIXTURE_FILE = /\.(json|jsonl|ndjson|csv|tsv)$/i

/** Every locked case of the merge base: voting test assertions and golden fixture rows. */
async function lockedCases(
  ctx: GateContext,
  baseTree: readonly string[],
  isInstrument: (path: string) => boolean
): Promise<LockedCase[]> {
  const { planes } = ctx
  const tests = baseTree.filter(p => languageOf(p) !== undefined && planes.planeOf(p) === 'voting')
  const fixtures = baseTree.filter(
    p => FIXTURE_FILE.test(p) && isInstrument(p) && p !== ctx.policy.ledger
  )
  const blobs = await readBlobs(ctx.git, ctx.mergeBase, [...tests, ...fixtures])
  const cases: LockedCase[] = []
  for (const path of tests) {
    const bytes = blobs.get(path)
    const language = languageOf(path)
    if (bytes === undefined || language === undefined) continue
    cases.push(
      ...(await withTree(path, language, bytes.toString('utf8'), tree =>
        testCases(tree.rootNode, language, path)
      ))
    )
  }
  for (const path of fixtures) {
    const bytes = blobs.get(path)
    if (bytes !== undefined && bytes.length <= MAX_FIXTURE_BYTES)
      cases.push(...fixtureCases(path, bytes.toString('utf8')))
  }
  return cases
}
