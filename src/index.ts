// Entry of the action (bundled as dist/index.js). run() turns every failure into a card;
// anything that still escapes (a broken runner environment) fails the step, never passes it.
import * as core from '@actions/core'
import { run } from './action/main.js'

run().catch((error: unknown) =>
  core.setFailed(`oracle-gate failed: ${error instanceof Error ? error.message : String(error)}`)
)
