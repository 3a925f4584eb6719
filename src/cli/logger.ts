import type { Logger } from '../types.js'

/** Progress on stderr, so stdout stays the scorecard JSON. */
export function stderrLogger(
  stream: NodeJS.WritableStream = process.stderr,
  verbose = true
): Logger {
  return {
    info: message => {
      if (verbose) stream.write(`  ${message}\n`)
    },
    warning: message => stream.write(`warning: ${message}\n`),
    group: async (name, fn) => {
      if (verbose) stream.write(`▸ ${name}\n`)
      return fn()
    }
  }
}
