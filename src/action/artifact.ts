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
import { validateScorecard } from '../verdict/scorecard-schema.js'
import { formatIssue } from '../schema.js'
import { shortSha } from '../json.js'

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

/**
 * The artifact against the published scorecard schema (verdict/scorecard.schema.json), and
 * every reason's rule a rule of this gate; anything else is a gate error, not a guess.
 */
export function parseArtifactCard(json: unknown, path: string): Scorecard {
  const bad = (what: string): never => {
    throw new GateError(`the scorecard artifact ${path} is not an oracle-gate scorecard: ${what}`, {
      rule: 'config-invalid',
      path
    })
  }
  if (!isObj(json)) return bad('not an object')
  if (json.schema !== SCORECARD_SCHEMA) return bad(`schema is ${JSON.stringify(json.schema)}`)
  const issues = validateScorecard(json)
  if (issues.length > 0) {
    const more = issues.length > 3 ? ` and ${issues.length - 3} more` : ''
    bad(`${issues.slice(0, 3).map(formatIssue).join('; ')}${more}`)
  }
  const card = json as unknown as Scorecard
  const unknown = card.reasons.find(r => !(r.rule in RULE_VERDICT))
  if (unknown) bad(`reasons: unknown rule ${JSON.stringify(unknown.rule)}`)
  return card
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
        `the artifact judged head ${shortSha(card.head) || '?'} from merge base ${shortSha(card.base) || '?'}, but this PR is head ${shortSha(ctx.head)} from merge base ${shortSha(ctx.mergeBase)}: its test results do not apply`,
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
