// The seed corpus: replayed once per side through the contract's batch protocol (JSON
// Lines in, {id, ok} lines out). A hit fails on base and passes on head; a seed that passes
// on base and fails on head is a regression. Corpus and command come from the merge base.
import type { GateContext } from '../context.js'
import { GateError } from '../errors.js'
import { runShell, type ShellResult } from '../exec/process.js'
import { isRecord } from '../json.js'
import type { SeedSettings } from '../policy/types.js'
import type { Reason, SeedSummary } from '../types.js'
import { formatIssue, schemaValidator } from '../schema.js'
import validateCorpus from '../generated/seeds.mjs'
import { keepDistinct, payloadDistance } from './simhash.js'

export interface Seed {
  id: string
  property: string
  payload: unknown
}

export interface SeedRun {
  /** id → ok, for the seeds the command answered. */
  answers: Map<string, boolean>
  result: ShellResult
}

/** Reads the corpus text (from the merge base): one {property, seeds} object or a list. */
export function parseCorpus(text: string, path: string): Seed[] {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new GateError(
      `seed corpus ${path} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      {
        rule: 'config-invalid',
        path
      }
    )
  }
  const groups = Array.isArray(data) ? data : [data]
  const validate = schemaValidator(validateCorpus)
  const seeds: Seed[] = []
  const seen = new Set<string>()
  groups.forEach((group: unknown, g) => {
    const where = Array.isArray(data) ? `[${g}]` : ''
    const [issue] = validate(group)
    if (issue) {
      throw new GateError(
        `seed corpus ${path}${where} must be {"property": NAME, "seeds": [{"id", "payload"}, ...]}: ${formatIssue(issue)}`,
        { rule: 'config-invalid', path }
      )
    }
    const { property, seeds: listed } = group as {
      property: string
      seeds: Array<{ id: string | number; payload: unknown }>
    }
    for (const seed of listed) {
      const id = String(seed.id)
      if (seen.has(id))
        throw new GateError(`seed corpus ${path}: seed id "${id}" appears twice`, {
          rule: 'config-invalid',
          path
        })
      seen.add(id)
      seeds.push({ id, property, payload: seed.payload })
    }
  })
  return seeds
}

export function seedLines(seeds: readonly Seed[]): string {
  return seeds
    .map(s => `${JSON.stringify({ id: s.id, property: s.property, payload: s.payload })}\n`)
    .join('')
}

/** {id, ok} lines; anything else on stdout (a stray print) is ignored, not trusted. */
export function parseAnswers(stdout: string): Map<string, boolean> {
  const answers = new Map<string, boolean>()
  for (const line of stdout.split('\n')) {
    const text = line.trim()
    if (!text.startsWith('{')) continue
    try {
      const answer = JSON.parse(text) as unknown
      if (
        isRecord(answer) &&
        (typeof answer.id === 'string' || typeof answer.id === 'number') &&
        typeof answer.ok === 'boolean'
      ) {
        answers.set(String(answer.id), answer.ok)
      }
    } catch {
      // not an answer line
    }
  }
  return answers
}

export async function runSeeds(
  settings: SeedSettings,
  worktree: string,
  seeds: readonly Seed[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  /** The sandbox's argv prefix, when runs are contained (src/exec/sandbox.ts). */
  wrap?: readonly string[]
): Promise<SeedRun> {
  const result = await runShell({
    command: settings.command,
    cwd: worktree,
    env,
    ...(wrap ? { wrap } : {}),
    timeoutSec: settings.timeout,
    logFile,
    input: seedLines(seeds),
    captureStdout: true
  })
  return { answers: parseAnswers(result.stdout), result }
}

export interface SeedScore {
  summary: SeedSummary
  reasons: Reason[]
}

/**
 * Hits and regressions. A seed the base did not answer is never a hit (its failure was not
 * observed); a seed the head did not answer is never a pass.
 */
export function scoreSeeds(
  seeds: readonly Seed[],
  base: ReadonlyMap<string, boolean>,
  head: ReadonlyMap<string, boolean>,
  settings: SeedSettings
): SeedScore {
  const reasons: Reason[] = []
  const order = new Intl.Collator('en', { numeric: true })
  const hits = seeds
    .filter(s => base.get(s.id) === false && head.get(s.id) === true)
    .sort((a, b) => order.compare(a.id, b.id))
  const regressions = seeds
    .filter(s => base.get(s.id) === true && head.get(s.id) !== true)
    .map(s => s.id)

  if (settings.distance === 'sha256') {
    reasons.push({
      rule: 'diagnostic',
      message:
        'seeds.distance is sha256: digest distances of distinct payloads are ~128 bits, so min_distance filters nothing; use simhash',
      path: settings.corpus,
      level: 'warning'
    })
  }
  const kept = keepDistinct(
    hits,
    s => s.payload,
    settings.min_distance,
    payloadDistance(settings.distance)
  )

  if (regressions.length > 0) {
    const shown = regressions.slice(0, 10).join(', ')
    const more = regressions.length > 10 ? ` and ${regressions.length - 10} more` : ''
    reasons.push({
      rule: 'seed-regression',
      message: `${regressions.length} seed(s) pass on the base and fail (or go unanswered) on head: ${shown}${more}`,
      path: settings.corpus,
      level: 'failure'
    })
  }
  if (kept.length < settings.min_hits) {
    reasons.push({
      rule: 'insufficient-hits',
      message: `${kept.length} distinct seed hit(s) (of ${hits.length} fail-to-pass, min_distance ${settings.min_distance}); the policy asks for ${settings.min_hits}`,
      path: settings.corpus,
      level: 'failure'
    })
  }
  return {
    summary: {
      oracle_hits: kept.length,
      raw_fail_to_pass: hits.length,
      min_distance: settings.min_distance,
      hit_ids: kept.map(s => s.id)
    },
    reasons
  }
}

/** Reads and parses the corpus at the merge base; a missing corpus is a policy error. */
export async function loadCorpus(ctx: GateContext, settings: SeedSettings): Promise<Seed[]> {
  const text = await ctx.git.showText(ctx.mergeBase, settings.corpus)
  if (text === null) {
    throw new GateError(`seed corpus ${settings.corpus} does not exist at the merge base`, {
      rule: 'config-invalid',
      path: settings.corpus
    })
  }
  return parseCorpus(text, settings.corpus)
}
