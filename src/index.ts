// Entry of the action (bundled as dist/index.js). It names itself in the log at once, then
// loads the rest (the toolkit, Octokit, the gate: most of the bundle's bytes) as a separate
// chunk. run() turns every failure into a card; anything that still escapes (a broken
// runner environment, a chunk that cannot load) fails the step, never passes it.
import { VERSION } from './version.js'

process.stdout.write(`oracle-gate ${VERSION}\n`)
try {
  const [{ run }, { readEnvironment }] = await Promise.all([
    import('./action/main.js'),
    import('./action/environment.js')
  ])
  await run(readEnvironment())
} catch (error) {
  const message = error instanceof Error ? error.message : String(error)
  // The workflow command core.setFailed would write, without needing the toolkit loaded.
  process.stdout.write(
    `::error::oracle-gate failed: ${message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}\n`
  )
  process.exitCode = 1
}
