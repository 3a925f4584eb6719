// Entry of the `oracle-gate` command (bundled as dist/cli.js).
import { main } from './cli/main.js'

main(process.argv.slice(2)).then(
  code => {
    process.exitCode = code
  },
  (error: unknown) => {
    process.stderr.write(`oracle-gate: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 4
  }
)
