// Where a judged card goes, for `check` and `merge` alike: the JSON into --json FILE (or
// stdout), the markdown card into --markdown FILE, an in-toto Statement over the written
// scorecard into --attestation FILE, a summary on stderr; the exit code is the verdict's.
import { writeFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { renderMarkdown } from '../report/markdown.js'
import { policyDigest, runUrl, statementOf } from '../shard/attestation.js'
import type { Scorecard } from '../types.js'
import { exitCode } from '../verdict/verdict.js'
import type { Io } from './io.js'
import { humanSummary } from './summary.js'

export interface CardOutputs {
  json?: string
  markdown?: string
  attestation?: string
}

export async function emitCard(
  card: Scorecard,
  v: CardOutputs,
  io: Io,
  repoDir?: string
): Promise<number> {
  const json = JSON.stringify(card, null, 2) + '\n'
  if (v.json) await writeFile(resolve(io.cwd, v.json), json)
  else io.stdout.write(json)
  if (v.markdown)
    await writeFile(
      resolve(io.cwd, v.markdown),
      renderMarkdown(card, { fullCardHint: v.json ?? 'on stdout' })
    )
  if (v.attestation && v.json) await writeStatement(card, json, v.json, v.attestation, io, repoDir)
  io.stderr.write(humanSummary(card))
  return exitCode(card.verdict)
}

async function writeStatement(
  card: Scorecard,
  json: string,
  jsonPath: string,
  out: string,
  io: Io,
  repoDir: string | undefined
): Promise<void> {
  const digest = repoDir ? await policyDigest(repoDir, card, io.env) : undefined
  const url = runUrl(io.env)
  const statement = statementOf({
    card,
    scorecardPath: jsonPath,
    scorecardBytes: json,
    ...(digest ? { policyDigest: digest } : {}),
    ...(url ? { url } : {})
  })
  await writeFile(resolve(io.cwd, out), JSON.stringify(statement, null, 2) + '\n')
}
