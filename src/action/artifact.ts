// Report mode's input: the scorecard a pull_request run uploaded, plus that run's event
// file. The run that wrote it executed the patch, so the artifact is read as a claim: only
// its test results are taken, only for the commits this run re-derived itself, and figures
// that contradict a passing result are turned back into the reasons they imply.
import { readFile, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { GateContext } from '../context.js'
import { GateError, errorMessage } from '../errors.js'
import { isRecord as isObj } from '../json.js'
import type { ReplayOutcome } from '../replay/index.js'
import type { Reason, Scorecard } from '../types.js'
import { RULE_VERDICT } from '../verdict/verdict.js'
import { SCORECARD_SCHEMA } from '../verdict/scorecard.js'

const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024

export interface Artifact {
  card: Scorecard
  scorecardPath: string
  /** The pull_request payload the test run saw (its event.json), when present. */
  event: unknown
}

/** `path` is scorecard.json or the folder holding it; event.json is read beside it. */
export async function readArtifact(path: string): Promise<Artifact> {
  if (!path)
    throw new GateError(
      'mode: report needs the input scorecard: the downloaded artifact (scorecard.json or its folder)',
      { rule: 'config-invalid' }
    )
  let scorecardPath = path
  try {
    if ((await stat(path)).isDirectory()) scorecardPath = join(path, 'scorecard.json')
  } catch (error) {
    throw new GateError(`cannot read the scorecard artifact ${path}: ${errorMessage(error)}`, {
      rule: 'config-invalid',
      path
    })
  }
  const card = parseArtifactCard(await readJson(scorecardPath), scorecardPath)
  const eventPath = join(dirname(scorecardPath), 'event.json')
  let event: unknown = null
  try {
    event = await readJson(eventPath)
  } catch {
    // Absent is allowed when the workflow_run payload names the PR itself (same-repo PRs).
  }
  return { card, scorecardPath, event }
}

async function readJson(path: string): Promise<unknown> {
  try {
    const size = (await stat(path)).size
    if (size > MAX_ARTIFACT_BYTES) throw new Error(`${size} bytes, more than ${MAX_ARTIFACT_BYTES}`)
    return JSON.parse(await readFile(path, 'utf8')) as unknown
  } catch (error) {
    throw new GateError(`cannot read ${path}: ${errorMessage(error)}`, {
      rule: 'config-invalid',
      path
    })
  }
}

const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every(x => typeof x === 'string')
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0

/** Shape check of the fields report mode uses; anything else is a gate error, not a guess. */
export function parseArtifactCard(json: unknown, path: string): Scorecard {
  const bad = (what: string): never => {
    throw new GateError(`the scorecard artifact ${path} is not an oracle-gate scorecard: ${what}`, {
      rule: 'config-invalid',
      path
    })
  }
  if (!isObj(json)) return bad('not an object')
  if (json.schema !== SCORECARD_SCHEMA) return bad(`schema is ${JSON.stringify(json.schema)}`)
  const { votes, transitions: t, seeds } = json
  if (typeof json.base !== 'string' || typeof json.head !== 'string') bad('base/head missing')
  if (
    !Array.isArray(json.reasons) ||
    !json.reasons.every(
      r =>
        isObj(r) &&
        typeof r.rule === 'string' &&
        typeof r.message === 'string' &&
        r.rule in RULE_VERDICT
    )
  )
    bad('reasons')
  if (
    !isObj(votes) ||
    !isCount(votes.passed) ||
    !isCount(votes.failed) ||
    !isCount(votes.frozen) ||
    !isCount(votes.drafts) ||
    !isObj(votes.by_class)
  )
    bad('votes')
  if (
    !isObj(t) ||
    !isStrings(t.fail_to_pass) ||
    !isStrings(t.pass_to_fail) ||
    !isStrings(t.fail_to_fail) ||
    !isCount(t.pass_to_pass) ||
    !isStrings(t.vanished)
  )
    bad('transitions')
  if (
    !isObj(seeds) ||
    !isCount(seeds.oracle_hits) ||
    !isCount(seeds.raw_fail_to_pass) ||
    !isStrings(seeds.hit_ids)
  )
    bad('seeds')
  if (!Array.isArray(json.flakes) || !Array.isArray(json.runs) || !isObj(json.diagnostics))
    bad('flakes/runs/diagnostics')
  return json as unknown as Scorecard
}

/** Rules whose reasons are test results (or the test run's own failure to decide). */
function isTestResult(reason: Reason): boolean {
  const verdict = RULE_VERDICT[reason.rule]
  return verdict === 'product' || verdict === 'no-vote' || verdict === 'error'
}

/**
 * The replay stage of report mode: the artifact's results, accepted only when the artifact
 * judged exactly this head from exactly this merge base.
 */
export function replayFromArtifact(
  artifact: Artifact
): (ctx: GateContext) => Promise<ReplayOutcome> {
  return async ctx => {
    const { card } = artifact
    if (card.head !== ctx.head || card.base !== ctx.mergeBase) {
      throw new GateError(
        `the artifact judged head ${card.head.slice(0, 12) || '?'} from merge base ${card.base.slice(0, 12) || '?'}, but this PR is head ${ctx.head.slice(0, 12)} from merge base ${ctx.mergeBase.slice(0, 12)}: its test results do not apply`,
        { path: artifact.scorecardPath }
      )
    }
    ctx.log.info(
      `test results from the artifact: ${card.votes.passed} passed, ${card.votes.failed} failed, ${card.transitions.fail_to_pass.length} hit(s)`
    )
    return {
      reasons: [
        ...card.reasons
          .filter(isTestResult)
          .map(r => ({ ...r, message: `(test run) ${r.message}` })),
        ...impliedReasons(card)
      ],
      votes: card.votes,
      transitions: card.transitions,
      seeds: card.seeds,
      flakes: card.flakes,
      runs: card.runs,
      diagnostics: card.diagnostics
    }
  }
}

/** Reasons the figures imply but the artifact's reason list lacks (a truncated or edited card). */
export function impliedReasons(card: Scorecard): Reason[] {
  const has = (rule: Reason['rule']): boolean =>
    card.reasons.some(r => r.rule === rule && r.level === 'failure')
  const out: Reason[] = []
  const add = (rule: Reason['rule'], message: string): void =>
    void out.push({ rule, message: `(from the artifact's figures) ${message}`, level: 'failure' })
  const t = card.transitions
  if (card.votes.passed + card.votes.failed === 0 && !has('empty-vote'))
    add('empty-vote', 'no voting test ran')
  if (t.pass_to_fail.length > 0 && !has('regression'))
    add('regression', `${t.pass_to_fail.length} voting test(s) pass on base and fail on head`)
  if (t.vanished.length > 0 && !has('vanished-oracle'))
    add('vanished-oracle', `${t.vanished.length} voting test(s) vanished on head`)
  if (
    card.votes.failed > 0 &&
    !card.reasons.some(r => r.level === 'failure' && RULE_VERDICT[r.rule] === 'product')
  ) {
    add('oracle-failed', `${card.votes.failed} voting test(s) fail on head`)
  }
  return out
}
