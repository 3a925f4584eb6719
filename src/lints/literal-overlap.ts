// `literal-overlap`: a test the patch adds or changes contains a string literal that the
// same patch adds to production code. A test written in the same turn as the code, holding
// the code's own strings, checks the code against a copy of itself.
//
// "Added by the patch" means: in a changed production file at head, in none of
// - the merge-base version of that file (parsed, so escapes and quoting do not matter),
// - the merge-base text of any non-test file the patch changes, deletes or renames (a
//   literal moved from one file to another),
// - any non-test file of the merge base (a fixed-string `git grep`: a literal both code and
//   test took from a spec, a README or an untouched module).
// "In a test the patch adds or changes" means: a literal of a changed test file at head
// that the merge-base version of that test file did not already hold.
import { byCodeUnit } from '../json.js'
import type { Git } from '../git/git.js'
import type { Level, Reason } from '../types.js'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { basePath, type LintFiles, type Role } from './files.js'
import { eligible, findOverlaps, valuesFoundIn, type Located, type Overlap } from './overlap.js'
import { MAX_LINT_BLOB_BYTES } from './blobs.js'
import { candidateIndex, mayHoldOverlap } from './prefilter.js'
import type { FileFacts, Literal } from './extract.js'
import type { LintInput } from './registry.js'
import type { SourceFacts } from './source.js'

/** Shared literals listed per test file; the rest are counted. */
const LIST_CAP = 5
/**
 * Candidate literals searched in the whole merge base. git grep tries its fixed strings
 * one by one (3,000 of them over 5,000 files take seconds), so past this many the rest
 * count as new: a patch with that many copied literals is rarely a false alarm.
 */
const GREP_CAP = 100

export async function literalOverlap(input: LintInput, level: Level): Promise<Reason[]> {
  const { ctx, files } = input
  if (files.tests.length === 0 || files.production.length === 0) return []
  const min = ctx.policy.lints.literal_min_length
  const paired = await pairedLiterals(input, min)
  if (paired.overlaps.length === 0) return []
  return toReasons(await newOverlaps(input, paired, min), level, min)
}

interface Paired {
  overlaps: Overlap[]
  /** Merge-base text of the non-test files the patch changes, by base path. */
  changedBase: Map<string, string>
}

/**
 * The test literals that contain a production literal, before asking whether either is
 * new. Cheapest order: tests first (usually fewer), production only if a test literal
 * exists and then only the files the prefilter lets through.
 */
async function pairedLiterals(input: LintInput, min: number): Promise<Paired> {
  const { ctx, files, facts } = input
  const allow = new Set(ctx.policy.lints.literal_allow)
  const located = (map: Map<string, FileFacts>, role: 'test' | 'production'): Located[] => {
    const out: Located[] = []
    for (const [path, f] of map) {
      for (const l of valuesOf(f, role))
        if (eligible(l.value, min, allow)) out.push({ value: l.value, path, line: l.line })
    }
    return out
  }
  const testPaths = files.tests.map(r => r.path)
  const testLiterals = located(await facts.at(ctx.head, testPaths, 'test'), 'test')
  if (testLiterals.length === 0) return { overlaps: [], changedBase: new Map() }
  const baseOfPath = new Map<string, string>()
  for (const row of files.production) {
    const old = basePath(row)
    if (old !== undefined) baseOfPath.set(row.path, old)
  }
  // Which production files are worth parsing: those whose text may spell a literal that
  // some test literal contains, and that the file's own base text does not already hold
  // (such a value is dropped later, as found in the base of a changed file). See
  // prefilter.ts: a file left out holds no literal that could survive, so the overlaps
  // and every later step come out the same as with every file parsed.
  const changedBase = await changedBaseTexts(input, files.roleOf)
  const index = candidateIndex(
    testLiterals.map(l => l.value),
    min
  )
  const productionLiterals = located(
    await facts.at(
      ctx.head,
      files.production.map(r => r.path),
      'production',
      (path, language, text) => {
        const old = baseOfPath.get(path)
        const base = old === undefined ? undefined : changedBase.get(old)
        return mayHoldOverlap(text, language === 'python', index, base)
      }
    ),
    'production'
  )
  return { overlaps: findOverlaps(productionLiterals, testLiterals, min), changedBase }
}

/**
 * The overlaps whose production literal the patch adds and whose test literal is new.
 * Each step drops overlaps by its own test, so their order changes nothing but the cost:
 * the raw-text one first, then the parses (base versions only of the files that take part
 * in an overlap), then git grep.
 */
async function newOverlaps(
  { ctx, files, facts }: LintInput,
  { overlaps: paired, changedBase }: Paired,
  min: number
): Promise<Overlap[]> {
  const changed = valuesFoundIn(productionValues(paired), [...changedBase.values()], min)
  let overlaps = paired.filter(o => !changed.has(o.production.value))
  if (overlaps.length === 0) return []
  const { mergeBase } = ctx
  overlaps = await dropBaseValues(
    overlaps,
    o => o.production,
    files.production,
    mergeBase,
    facts,
    'production',
    min
  )
  overlaps = await dropBaseValues(overlaps, o => o.test, files.tests, mergeBase, facts, 'test', min)
  if (overlaps.length === 0) return []
  const values = productionValues(overlaps)
  if (values.length > GREP_CAP) {
    ctx.log.info(
      `literal-overlap: ${values.length} candidate literals; only the first ${GREP_CAP} are searched in the whole merge base (git grep slows down per pattern)`
    )
  }
  const inBase = await foundInBase(
    ctx.git,
    mergeBase,
    values.slice(0, GREP_CAP),
    files.roleOf,
    ctx.tempDir,
    min
  )
  return overlaps.filter(o => !inBase.has(o.production.value))
}

/** A file's literal values; a test's regular expressions count too (see FileFacts.patterns). */
function valuesOf(facts: FileFacts, role: 'test' | 'production'): Literal[] {
  return role === 'test' ? [...facts.literals, ...facts.patterns] : facts.literals
}

function productionValues(overlaps: Overlap[]): string[] {
  return [...new Set(overlaps.map(o => o.production.value))]
}

/**
 * The merge-base text of every non-test file the patch changes, deletes or renames, by its
 * base path: a value found there (as raw text) is not new, but moved or kept. One batch
 * read, whatever the number of files; binary files are left out, and so are files too
 * large to read (generated data: a value moved out of one is counted as new, a false
 * alarm at worst).
 */
async function changedBaseTexts(
  { ctx, view }: LintInput,
  roleOf: (path: string) => Role
): Promise<Map<string, string>> {
  const paths = new Set<string>()
  for (const row of ctx.writeSet) {
    const old = basePath(row)
    if (old !== undefined && roleOf(old) !== 'test') paths.add(old)
  }
  const sizes = await view.sizesAt(ctx.mergeBase, [...paths])
  const readable = [...sizes].filter(([, size]) => size <= MAX_LINT_BLOB_BYTES).map(([p]) => p)
  const texts = new Map<string, string>()
  for (const [path, text] of await view.textsAt(ctx.mergeBase, readable))
    if (!text.includes('\0')) texts.set(path, text)
  return texts
}

/**
 * Drops overlaps whose literal (taken by `side`) the base version of its own file holds.
 * A base version is parsed only when the prefilter finds it may hold one of the file's
 * values (a literal equal to a value is a literal the value contains): in a pull request
 * that changes a literal, the old file usually spells nothing close to the new one.
 */
async function dropBaseValues(
  overlaps: Overlap[],
  side: (o: Overlap) => Located,
  rows: LintFiles['tests'],
  mergeBase: string,
  facts: SourceFacts,
  role: 'test' | 'production',
  min: number
): Promise<Overlap[]> {
  const involved = new Map<string, string[]>()
  for (const o of overlaps) {
    const { path, value } = side(o)
    const list = involved.get(path)
    if (list) list.push(value)
    else involved.set(path, [value])
  }
  const baseOf = new Map<string, string>()
  const wanted = new Map<string, string[]>()
  for (const row of rows) {
    const old = basePath(row)
    const values = involved.get(row.path)
    if (old === undefined || values === undefined) continue
    baseOf.set(row.path, old)
    wanted.set(old, [...(wanted.get(old) ?? []), ...values])
  }
  // A test's regular expressions are not spelled after a quote, so the prefilter (which
  // looks only there) is for production files alone.
  const base = await facts.at(
    mergeBase,
    [...wanted.keys()],
    role,
    role === 'test'
      ? undefined
      : (path, language, text) =>
          mayHoldOverlap(text, language === 'python', candidateIndex(wanted.get(path) ?? [], min))
  )
  const valuesAt = new Map<string, Set<string>>()
  for (const [path, old] of baseOf) {
    const f = base.get(old)
    if (f) valuesAt.set(path, new Set(valuesOf(f, role).map(l => l.value)))
  }
  return overlaps.filter(o => !valuesAt.get(side(o).path)?.has(side(o).value))
}

/**
 * The values found verbatim in any non-test file of the merge base (a literal that code
 * and test both took from a spec, a README, another module). One `git grep` prints
 * the lines holding any of them (not -o: that reports only the leftmost of overlapping
 * matches); which values each line holds is then decided here, with the same index.
 */
async function foundInBase(
  git: Git,
  rev: string,
  values: string[],
  roleOf: (path: string) => Role,
  tempDir: string,
  min: number
): Promise<Set<string>> {
  const found = new Set<string>()
  // A line-oriented search cannot find a multi-line value; such a value counts as new.
  const searchable = values.filter(v => !v.includes('\n') && !v.includes('\r') && !v.includes('\0'))
  if (searchable.length === 0) return found
  const patterns = join(tempDir, 'literal-overlap.patterns')
  await writeFile(patterns, searchable.join('\n') + '\n')
  const prefix = `${rev}:`
  const lines: string[] = []
  for (const record of (await git.grepLines(rev, patterns)).split('\n')) {
    const nul = record.indexOf('\0')
    if (nul < 0) continue
    const path = record.slice(prefix.length, nul)
    if (roleOf(path) !== 'test') lines.push(record.slice(nul + 1))
  }
  return valuesFoundIn(searchable, lines, min)
}

function toReasons(overlaps: Overlap[], level: Level, min: number): Reason[] {
  const byTest = new Map<string, Overlap[]>()
  for (const o of overlaps) {
    const list = byTest.get(o.test.path)
    if (list) list.push(o)
    else byTest.set(o.test.path, [o])
  }
  const reasons: Reason[] = []
  for (const [path, list] of [...byTest].sort(([a], [b]) => byCodeUnit(a, b))) {
    list.sort((a, b) => a.test.line - b.test.line)
    const shown = list
      .slice(0, LIST_CAP)
      .map(
        o =>
          `${quote(o.production.value)} (test line ${o.test.line}; ${o.production.path}:${o.production.line})`
      )
    const more = list.length > LIST_CAP ? `, and ${list.length - LIST_CAP} more` : ''
    reasons.push({
      rule: 'literal-overlap',
      level,
      path,
      line: (list[0] as Overlap).test.line,
      message:
        `test repeats ${list.length} string literal(s) that this patch adds to production code: ` +
        `${shown.join('; ')}${more}. A test that restates the patch's own strings checks the code ` +
        `against a copy of itself: derive the expected value independently (a spec, a fixture, a ` +
        `property), or list a deliberate shared constant in lints.literal_allow ` +
        `(literals shorter than ${min} characters are ignored).`
    })
  }
  return reasons
}

function quote(value: string): string {
  const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value
  return JSON.stringify(shown)
}
