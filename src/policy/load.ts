// Policy loading: YAML text → JSON Schema validation → frozen, defaulted settings.
// Every error names the file, the line:column from the YAML node, the key path and what
// was expected, so a maintainer can fix the policy without guessing.
import { LineCounter, parseDocument, type Document } from 'yaml'
import { GateError } from '../errors.js'
import type { Policy } from './types.js'
import { validatePolicyObject, type SchemaIssue } from './validate.js'
import { findNode, keyOffset } from './yaml-position.js'
import { documentValue } from './yaml-value.js'

export const DEFAULT_POLICY_PATH = '.github/oracle-gate.yml'

export interface PolicyProblem {
  file: string
  line: number
  column: number
  key: string
  message: string
}

export function formatProblem(p: PolicyProblem): string {
  const key = p.key === '' ? '(top level)' : p.key
  return `${p.file}:${p.line}:${p.column}: ${key}: ${p.message}`
}

export class PolicyError extends GateError {
  readonly problems: PolicyProblem[]
  constructor(problems: PolicyProblem[]) {
    const first = problems[0]
    super(
      `invalid policy: ${problems.map(formatProblem).join('; ')}`,
      first === undefined
        ? { rule: 'config-invalid' }
        : { rule: 'config-invalid', path: first.file, line: first.line }
    )
    this.problems = problems
  }
}

/** A policy is a page of YAML; anything near this size is not one (and YAML parsing is costly). */
export const MAX_POLICY_CHARS = 1_000_000

/** Parses and validates policy text. Throws PolicyError naming file, line, column and key. */
export function parsePolicy(text: string, file: string): Policy {
  try {
    return parsePolicyText(text, file)
  } catch (error) {
    if (error instanceof PolicyError) throw error
    // Whatever the text makes the parser or the validator do (nesting deep enough to
    // exhaust the stack, say), it is a problem of this file, not an internal error.
    const message = error instanceof Error ? error.message : String(error)
    throw new PolicyError([
      { file, line: 1, column: 1, key: '', message: `cannot read the policy: ${message}` }
    ])
  }
}

function parsePolicyText(text: string, file: string): Policy {
  if (text.length > MAX_POLICY_CHARS) {
    throw new PolicyError([
      {
        file,
        line: 1,
        column: 1,
        key: '',
        message: `the policy is ${text.length} characters, more than the ${MAX_POLICY_CHARS} the gate reads (the limit)`
      }
    ])
  }
  const lineCounter = new LineCounter()
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true })
  if (doc.errors.length > 0) {
    throw new PolicyError(
      doc.errors.map(e => {
        const [line, column] = positionOf(lineCounter, e.pos[0])
        return { file, line, column, key: '', message: `YAML syntax: ${e.message.split('\n')[0]}` }
      })
    )
  }
  const read = documentValue(doc, lineCounter)
  if (!read.ok)
    throw new PolicyError([{ file, line: read.line, column: 1, key: '', message: read.message }])
  const value = read.value
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new PolicyError([
      {
        file,
        line: 1,
        column: 1,
        key: '',
        message: 'expected a mapping with at least version, planes and suite'
      }
    ])
  }
  const issues = [...validatePolicyObject(value)]
  if (issues.length === 0) issues.push(...negatedGlobs(value as RawPolicy))
  if (issues.length > 0) {
    throw new PolicyError(issues.map(issue => locate(issue, doc, lineCounter, file)))
  }
  return freeze(toPolicy(value as RawPolicy, file))
}

/** Glob lists where a leading `!` would be read by picomatch as "everything but". */
const GLOB_LISTS: readonly (readonly string[])[] = [
  ['protected'],
  ['planes', 'voting'],
  ['planes', 'drafts'],
  ['planes', 'in_diff'],
  ['planes', 'production'],
  ['runner_config'],
  ['test_patterns']
]

/**
 * A glob that starts with `!` matches every path the rest does not: `voting: ["!docs/**"]`
 * makes every other file a voting test. Lists here are unions, so a negation cannot mean
 * "except" either; it is refused with its position rather than guessed at.
 */
export function negatedGlobs(raw: RawPolicy): SchemaIssue[] {
  const issues: SchemaIssue[] = []
  for (const keys of GLOB_LISTS) {
    let node: unknown = raw
    for (const k of keys) node = (node as Record<string, unknown> | undefined)?.[k]
    if (!Array.isArray(node)) continue
    node.forEach((glob: unknown, i) => {
      if (typeof glob === 'string' && /^\s*!/.test(glob))
        issues.push({
          path: [...keys, String(i)],
          message: `negated glob "${glob}": a leading "!" matches every path the rest does not, and a list here is a union (no "except"); list what the plane holds instead`
        })
    })
  }
  return issues
}

function positionOf(lc: LineCounter, offset: number): [number, number] {
  const pos = lc.linePos(offset)
  return [pos.line, pos.col]
}

/** Maps a schema issue's JSON pointer back to the YAML node that caused it. */
function locate(issue: SchemaIssue, doc: Document, lc: LineCounter, file: string): PolicyProblem {
  const segments = issue.path
  const keyPath = segments.join('.')
  const found = findNode(doc, segments)
  // An unknown key is reported at the key itself, not at its parent.
  const offset =
    (issue.unknownKey !== undefined ? keyOffset(found.node, issue.unknownKey) : undefined) ??
    found.offset
  const [line, column] = positionOf(lc, offset)
  const fullKey =
    issue.unknownKey === undefined
      ? keyPath
      : keyPath === ''
        ? issue.unknownKey
        : `${keyPath}.${issue.unknownKey}`
  return { file, line, column, key: fullKey, message: issue.message }
}

type RawPolicy = Omit<Policy, 'path'>

function toPolicy(raw: RawPolicy, file: string): Policy {
  // The validator applied the schema's defaults (src/policy/schema.json is their one home),
  // absent blocks included, so only the file's path is added.
  return { ...raw, path: file }
}

/** Freezes a value and everything inside it. */
export function freeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) freeze(child)
    Object.freeze(value)
  }
  return value
}
