// The action's log. Its stdout is read by the runner, which acts on any line that is a
// workflow command (`::add-mask::`, `::error::`, `::stop-commands::`, `##[...]`), and many
// messages carry head text (paths, test names, errors). So every message is one line with
// control characters made visible, and a line that could be read as a command is printed
// between `::stop-commands::TOKEN` and `::TOKEN::` with a fresh random token. Warnings and
// errors go through the toolkit, which escapes their data; they are made one line too.
import * as core from '@actions/core'
import { randomBytes } from 'node:crypto'
import { fencedLogLines, logText } from '../report/sanitize.js'
import type { Logger } from '../types.js'

function token(): string {
  return `oracle-gate-${randomBytes(16).toString('hex')}`
}

/** Lines of untrusted text, each safe for the runner's command parser. */
export function safeInfo(message: string, write: (line: string) => void = core.info): void {
  for (const line of fencedLogLines(message, token)) write(line)
}

export function safeWarning(message: string, properties?: core.AnnotationProperties): void {
  core.warning(logText(message), properties)
}

export function safeError(message: string, properties?: core.AnnotationProperties): void {
  core.error(logText(message), properties)
}

export function safeNotice(message: string, properties?: core.AnnotationProperties): void {
  core.notice(logText(message), properties)
}

export function safeSetFailed(message: string): void {
  core.setFailed(logText(message))
}

export const actionsLogger: Logger = {
  info: message => safeInfo(message),
  warning: message => safeWarning(message),
  group: (name, fn) => core.group(logText(name), fn)
}
