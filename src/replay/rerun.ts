// Flaky or failing? A voting test that fails is run again, up to `suite.reruns` times, and
// every outcome is kept: a test whose runs disagree is a flake (scored by transitions.ts),
// one that fails every time is failing.
import { canonicalId, FileIndex, type IdContext } from './ids.js'
import {
  detectRunner,
  selectingCommand,
  selectionArgs,
  type RunnerKind,
  type RunnerSetting
} from './runners.js'
import type { Observation } from './transitions.js'
import { OUTCOME_RANK, type Report } from './junit.js'

/**
 * One run's report as {id → observation}. Two entries with the same id in one run (two
 * tests whose names collapse to one id) keep the worse outcome: one run, one vote. Such ids
 * are added to `duplicates` when given, so the card can list them.
 */
export function observe(
  report: Report,
  ctx: IdContext,
  duplicates?: Set<string>
): Map<string, Observation> {
  const index = new FileIndex(ctx)
  const out = new Map<string, Observation>()
  for (const c of report.cases) {
    const { id, file, provisional } = canonicalId(c, ctx, index)
    const prior = out.get(id)
    if (prior) {
      duplicates?.add(id)
      const [was] = prior.outcomes
      if (was !== undefined && OUTCOME_RANK[c.outcome] > OUTCOME_RANK[was]) {
        prior.outcomes = [c.outcome]
        if (c.message) prior.message = c.message
      }
      prior.runnerFlaky ||= c.flaky
      continue
    }
    const o: Observation = { id, file, outcomes: [c.outcome], runnerFlaky: c.flaky }
    if (provisional) o.provisional = true
    // pytest writes 0-based lines; everyone else who writes them is 1-based.
    if (c.line !== undefined && file !== null) o.line = file.endsWith('.py') ? c.line + 1 : c.line
    if (c.message) o.message = c.message
    out.set(id, o)
  }
  return out
}

/** How a rerun's outcomes are merged into the first run's observations. */
export interface MergeMode {
  /** The ids the rerun was for; null when every outcome counts (the old behaviour). */
  targets: ReadonlySet<string> | null
  /** The rerun selected the targets: what else it reports as skipped was filtered out, not run. */
  selecting: boolean
  /**
   * Outcomes of tests the rerun was not for go to `incidental` instead of `outcomes` (the
   * base: a whole-suite rerun must not turn an unrelated test into a flake of the oracle).
   */
  incidental: boolean
}

/** Appends a rerun's outcomes to the first run's observations. */
export function merge(
  into: Map<string, Observation>,
  rerun: ReadonlyMap<string, Observation>,
  mode: MergeMode = { targets: null, selecting: false, incidental: false }
): void {
  for (const [id, o] of rerun) {
    const targeted = mode.targets === null || mode.targets.has(id)
    // A selecting rerun reports the tests its filter left out as skipped: not an outcome.
    if (!targeted && mode.selecting && o.outcomes.every(x => x === 'skipped')) continue
    const prior = into.get(id)
    if (prior && !targeted && mode.incidental) {
      ;(prior.incidental ??= []).push(...o.outcomes)
    } else if (prior) {
      prior.outcomes.push(...o.outcomes)
      prior.runnerFlaky ||= o.runnerFlaky
    } else if (targeted || !mode.incidental) {
      into.set(id, { ...o, outcomes: [...o.outcomes] })
    }
  }
}

export interface RerunPlan {
  /** Command line for reruns. */
  command: string
  /** True when the command selects tests through {tests}; otherwise the whole suite runs. */
  selects: boolean
  /** The runner whose `{tests}` form the selection takes (null: canonical ids as they are). */
  runner?: RunnerKind | null
}

/**
 * `rerun_command`, else the suite command when it has {tests}, else the suite command of a
 * known runner rewritten to select (runners.ts), else the whole suite.
 */
export function rerunPlan(suite: {
  command: string
  rerun_command?: string
  runner?: RunnerSetting
}): RerunPlan {
  const command = suite.rerun_command ?? suite.command
  const runner = detectRunner(suite.runner ? suite : { command })
  if (command.includes('{tests}')) return { command, selects: true, runner }
  if (suite.rerun_command !== undefined) return { command, selects: false, runner }
  const rewritten = runner ? selectingCommand(command, runner) : null
  if (rewritten !== null) return { command: rewritten, selects: true, runner }
  return { command, selects: false, runner }
}

/** The words {tests} becomes for a rerun of these canonical ids. */
export function rerunArgs(plan: RerunPlan, ids: readonly string[]): string[] {
  return selectionArgs(plan.runner ?? null, ids)
}

/** Tests that still need another run: failing in every run so far, and allowed to be rerun. */
export function rerunTargets(
  results: ReadonlyMap<string, Observation>,
  eligible: (o: Observation) => boolean
): string[] {
  const targets: string[] = []
  for (const o of results.values()) {
    if (!eligible(o)) continue
    // A collection error names a module, not a test: no runner can select it.
    if (o.id.endsWith('::<collection>')) continue
    if (o.outcomes.every(x => x === 'failed' || x === 'error')) targets.push(o.id)
  }
  return targets.sort()
}

/**
 * Runs reruns until no target is left or `reruns` are spent. `run` performs one rerun
 * (selected tests, or the whole suite when `tests` is null) and returns its report, or
 * null when it produced none (which adds no evidence either way).
 */
export async function rerunFailures(options: {
  results: Map<string, Observation>
  reruns: number
  plan: RerunPlan
  eligible: (o: Observation) => boolean
  ids: () => Promise<IdContext>
  run: (attempt: number, tests: readonly string[] | null) => Promise<Report | null>
  /** See MergeMode.incidental (true on the base). */
  incidental?: boolean
}): Promise<number> {
  let done = 0
  for (let attempt = 1; attempt <= options.reruns; attempt++) {
    const targets = rerunTargets(options.results, options.eligible)
    if (targets.length === 0) break
    const report = await options.run(attempt, options.plan.selects ? targets : null)
    done++
    if (report === null) continue
    merge(options.results, observe(report, await options.ids()), {
      targets: new Set(targets),
      selecting: options.plan.selects,
      incidental: options.incidental ?? false
    })
  }
  return done
}
