// Everything the step itself reports: the scorecard file (for upload as an artifact), the
// outputs, the job summary, and, when no check run carries the verdict, the step's own
// ::error annotations. The step fails unless the verdict is merge.
import type { AnnotationProperties } from '@actions/core'
import { copyFile, mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { errorMessage } from '../errors.js'
import { renderMarkdown } from '../report/markdown.js'
import type { Reason, Scorecard } from '../types.js'
import type { RunnerEnvironment, Toolkit } from './environment.js'
import { logText, mdText } from '../report/sanitize.js'

/** GitHub shows at most 10 error annotations per step; core.setFailed uses one of them. */
const STEP_ERROR_ANNOTATIONS = 9
const STEP_WARNING_ANNOTATIONS = 10
/** The job summary may hold 1 MiB per step. */
const JOB_SUMMARY_MAX_CHARS = 1_000_000

export interface CardFiles {
  dir: string
  scorecard: string
  event?: string
}

/** Writes scorecard.json (and a copy of the event payload, which report mode reads) to dir. */
export async function writeCardFiles(
  toolkit: Toolkit,
  card: Scorecard,
  dir: string,
  eventPath: string | undefined
): Promise<CardFiles> {
  await mkdir(dir, { recursive: true })
  const scorecard = join(dir, 'scorecard.json')
  await writeFile(scorecard, JSON.stringify(card, null, 2) + '\n')
  const files: CardFiles = { dir, scorecard }
  if (eventPath) {
    try {
      const event = join(dir, 'event.json')
      await copyFile(eventPath, event)
      files.event = event
    } catch (error) {
      toolkit.warning(
        `could not copy the event payload next to the scorecard: ${errorMessage(error)}`
      )
    }
  }
  return files
}

export function setOutputs(toolkit: Toolkit, card: Scorecard, scorecardPath: string): void {
  toolkit.setOutput('verdict', card.verdict)
  toolkit.setOutput('merge', card.merge ? 'true' : 'false')
  toolkit.setOutput(
    'oracle-hits',
    String(card.seeds.oracle_hits + card.transitions.fail_to_pass.length)
  )
  toolkit.setOutput('scorecard', scorecardPath)
}

export async function writeJobSummary(
  environment: Pick<RunnerEnvironment, 'paths' | 'toolkit'>,
  card: Scorecard,
  note: string | null,
  scorecardPath: string
): Promise<void> {
  if (!environment.paths.stepSummary) return
  const prefix = note ? `> [!WARNING]\n> ${mdText(note, { cell: false })}\n\n` : ''
  const markdown = renderMarkdown(card, {
    maxChars: JOB_SUMMARY_MAX_CHARS - prefix.length,
    fullCardHint: `\`${scorecardPath}\` on the runner`
  })
  await environment.toolkit.writeSummary(prefix + markdown)
}

/** The reasons worth a step annotation, most important first (the card is already sorted). */
export function stepAnnotations(reasons: readonly Reason[]): {
  errors: Reason[]
  warnings: Reason[]
} {
  return {
    errors: reasons.filter(r => r.level === 'failure').slice(0, STEP_ERROR_ANNOTATIONS),
    warnings: reasons.filter(r => r.level === 'warning').slice(0, STEP_WARNING_ANNOTATIONS)
  }
}

/** ::error / ::warning lines: the only annotations a read-only token can still make. */
export function annotateStep(toolkit: Toolkit, card: Scorecard): void {
  const { errors, warnings } = stepAnnotations(card.reasons)
  const props = (r: Reason): AnnotationProperties => ({
    title: `oracle-gate: ${r.rule}`,
    ...(r.path ? { file: logText(r.path) } : {}),
    ...(r.path && r.line ? { startLine: r.line } : {})
  })
  for (const r of errors) toolkit.error(r.message, props(r))
  for (const r of warnings) toolkit.warning(r.message, props(r))
}
