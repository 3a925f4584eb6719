import { logText } from '../report/sanitize.js'
import type { Logger } from '../types.js'

/**
 * Progress on stderr, so stdout stays the scorecard JSON. Messages carry head text (paths,
 * test names, errors), so each is one line with control characters made visible.
 */
export function stderrLogger(
  stream: NodeJS.WritableStream = process.stderr,
  verbose = true
): Logger {
  return {
    info: message => {
      if (verbose) stream.write(`  ${logText(message)}\n`)
    },
    warning: message => stream.write(`warning: ${logText(message)}\n`),
    group: async (name, fn) => {
      if (verbose) stream.write(`▸ ${logText(name)}\n`)
      return fn()
    }
  }
}
