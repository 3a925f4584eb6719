// Entry of the `oracle-gate` command (bundled as dist/cli.js). --version answers without
// loading the gate; everything else loads it as a separate chunk.
import { logText } from './report/sanitize.js'
import { EXIT } from './cli/io.js'
import { VERSION } from './version.js'

const argv = process.argv.slice(2)
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v' || argv[0] === 'version')) {
  process.stdout.write(`${VERSION}\n`)
} else {
  try {
    const { main } = await import('./cli/main.js')
    process.exitCode = await main(argv)
  } catch (error) {
    // The message may quote hostile input: one line, control characters made visible.
    process.stderr.write(
      `oracle-gate: ${logText(error instanceof Error ? error.message : String(error))}\n`
    )
    process.exitCode = EXIT.error
  }
}
