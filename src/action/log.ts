// The action's log. Its stdout is read by the runner, which acts on any line that is a
// workflow command (`::add-mask::`, `::error::`, `::stop-commands::`, `##[...]`), and many
// messages carry head text (paths, test names, errors). So every message is one line with
// control characters made visible, and a line that could be read as a command is printed
// between `::stop-commands::TOKEN` and `::TOKEN::` with a fresh random token. Warnings and
// errors go through the toolkit, which escapes their data; they are made one line too.
// One wrapper, applied where the environment is read, so no caller can bypass it.
import { randomBytes } from 'node:crypto'
import { fencedLogLines, logText } from '../report/sanitize.js'
import type { Toolkit } from './environment.js'

function token(): string {
  return `oracle-gate-${randomBytes(16).toString('hex')}`
}

/** The same toolkit, with every message made safe for the runner's command parser. */
export function safeToolkit(toolkit: Toolkit): Toolkit {
  // Every method delegated by name (a spread would drop the methods of a class instance).
  return {
    setSecret: secret => toolkit.setSecret(secret),
    setOutput: (name, value) => toolkit.setOutput(name, value),
    writeSummary: markdown => toolkit.writeSummary(markdown),
    info: message => {
      for (const line of fencedLogLines(message, token)) toolkit.info(line)
    },
    warning: (message, properties) => toolkit.warning(logText(message), properties),
    error: (message, properties) => toolkit.error(logText(message), properties),
    notice: (message, properties) => toolkit.notice(logText(message), properties),
    group: (name, fn) => toolkit.group(logText(name), fn),
    setFailed: message => toolkit.setFailed(logText(message))
  }
}
