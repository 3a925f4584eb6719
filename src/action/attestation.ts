// The output `attestation`: an in-toto Statement (test-result predicate, src/shard/
// attestation.ts) over the scorecard.json the step wrote, beside it as
// scorecard.intoto.json, for the workflow's actions/attest step to sign. Empty when the
// scorecard could not be read back (the subject must be the file's exact bytes).
import { readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { GateError, errorMessage } from '../errors.js'
import { policyDigest, runUrl, statementOf } from '../shard/attestation.js'
import type { Scorecard } from '../types.js'
import type { RunnerEnvironment } from './environment.js'

export async function writeAttestation(
  environment: RunnerEnvironment,
  card: Scorecard,
  scorecardPath: string
): Promise<string> {
  try {
    const bytes = await readFile(scorecardPath)
    const inputs = environment.inputs
    const digest =
      inputs instanceof GateError
        ? undefined
        : await policyDigest(inputs.workdir, card, environment.env)
    const url = runUrl(environment.env)
    const statement = statementOf({
      card,
      scorecardPath,
      scorecardBytes: bytes,
      ...(digest ? { policyDigest: digest } : {}),
      ...(url ? { url } : {})
    })
    const path = join(dirname(scorecardPath), 'scorecard.intoto.json')
    await writeFile(path, JSON.stringify(statement, null, 2) + '\n')
    return path
  } catch (error) {
    environment.toolkit.warning(`could not write the attestation: ${errorMessage(error)}`)
    return ''
  }
}
