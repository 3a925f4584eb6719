// The one sanitiser for untrusted text. Paths, test ids, failure messages and suite output
// come from the head, so wherever the gate prints them they are hostile: in Markdown (the
// card, the job summary, the check run) they must not add a heading, an image, a link, raw
// HTML or a fake verdict line; in logs (the action's stdout, the CLI's stderr) they must not
// break a line, move the cursor or become a workflow command. Every writer goes through
// these functions; none of them trusts its caller to have cleaned the text first.

/** Line breaks by any name: CommonMark's (\n, \r), Unicode's (U+2028, U+2029, NEL), \v, \f. */
const LINE_BREAK = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g
/**
 * Characters that are invisible or rewrite what is shown: C0 and C1 controls (ESC starts
 * terminal escapes), DEL, zero-width and bidirectional controls (Trojan Source).
 */
const INVISIBLE =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g

function hex(code: number, width: number): string {
  return code.toString(16).padStart(width, '0')
}

/** `\x1b`, `\u2028`: how a log shows a character that must not act. */
function visibleEscape(ch: string): string {
  const code = ch.codePointAt(0) ?? 0
  if (ch === '\n') return '\\n'
  if (ch === '\r') return '\\r'
  return code <= 0xff ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`
}

/**
 * One log line from untrusted text: line breaks and invisible characters become visible
 * escapes, so the text cannot start a new line (a workflow command, a fake summary) or
 * drive the terminal. Tabs stay.
 */
export function logText(text: string): string {
  return String(text)
    .replace(/\r\n/g, '\n')
    .replace(LINE_BREAK, visibleEscape)
    .replace(INVISIBLE, visibleEscape)
}

/** Workflow-command syntax the runner acts on: `::cmd::` after leading space, `##[cmd]` anywhere. */
export function mayBeWorkflowCommand(line: string): boolean {
  return /^\s*::/.test(line) || line.includes('##[')
}

/**
 * Lines for an Actions log that the runner never reads as commands: the (already single
 * line) text, wrapped in `::stop-commands::TOKEN` … `::TOKEN::` when it looks like one.
 * The token is fresh per block, so text printed earlier cannot guess it.
 */
export function fencedLogLines(text: string, token: () => string): string[] {
  const line = logText(text)
  if (!mayBeWorkflowCommand(line)) return [line]
  const t = token()
  return [`::stop-commands::${t}`, line, `::${t}::`]
}

/** Plain text for places GitHub shows as text (annotation messages): invisibles visible. */
export function plainText(text: string): string {
  return String(text)
    .replace(/\r\n?/g, '\n')
    .replace(/[\v\f\u0085\u2028\u2029]/g, visibleEscape)
    .replace(INVISIBLE, visibleEscape)
}

// ---------------------------------------------------------------------------------------
// Markdown

/** Inline characters with Markdown meaning; `&<>` become entities instead. */
const MD_INLINE = /[\\`*_~[\]!|]/g
const HTML_CHARS: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' }
/** Tokens a GitHub renderer links on its own: URLs, www., e-mail, @mentions, #refs. */
const LINKY = /@|:\/\/|(^|[^\w])www\.|#\d/i

/** Single line, invisibles shown as U+XXXX (a backslash escape would be Markdown). */
function oneLine(text: string): string {
  return String(text)
    .replace(LINE_BREAK, ' ')
    .replace(/\t/g, ' ')
    .replace(INVISIBLE, ch => `U+${hex(ch.codePointAt(0) ?? 0, 4).toUpperCase()}`)
}

function escapeInline(token: string): string {
  return token.replace(/[&<>]/g, ch => HTML_CHARS[ch] ?? ch).replace(MD_INLINE, ch => `\\${ch}`)
}

/** A line that starts with a block marker (#, >, -, +, *, =, |, 1.) loses its power. */
function neutraliseLeading(text: string): string {
  return text
    .replace(/^[ ]+/, '')
    .replace(/^([#+\-=])/, '\\$1')
    .replace(/^(\d+)([.)])/, '$1\\$2')
}

/**
 * Untrusted text as inline Markdown, fit for a paragraph, a list item or a table cell: one
 * line, `&<>` as entities, every inline marker backslash-escaped, and tokens a renderer
 * would turn into links (URLs, www., e-mail, mentions, issue refs) shown as code spans.
 * `cell` (default) escapes `|` inside those code spans the way GFM tables require.
 */
export function mdText(text: string, options: { cell?: boolean } = {}): string {
  const cell = options.cell ?? true
  const parts = oneLine(text).split(/( +)/)
  const out = parts
    .map(part =>
      part.trim() === '' ? part : LINKY.test(part) ? codeSpan(part, cell) : escapeInline(part)
    )
    .join('')
  return neutraliseLeading(out)
}

/**
 * Text that quotes code between backticks (a mutation "`<` → `<=`", a reason naming a key):
 * each quoted piece a code span of its own, the rest as text; both escaped, nothing of it
 * markup. An unpaired backtick stays text.
 */
export function mdQuoted(text: string, options: { cell?: boolean } = {}): string {
  const cell = options.cell ?? true
  return oneLine(text)
    .split(/(`[^`]*`)/)
    .map(part =>
      part.length >= 2 && part.startsWith('`') && part.endsWith('`')
        ? codeSpan(part.slice(1, -1), cell)
        : // The spaces around the pieces stay; mdText would drop a leading one.
          part.replace(/\S(?:.*\S)?/s, t => mdText(t, { cell }))
    )
    .join('')
}

/** A code span for a table cell: `|` escaped as GFM tables require, inside spans too. */
export function mdCellCode(text: string): string {
  return codeSpan(oneLine(text), true)
}

/** A code span outside tables (lists, paragraphs). */
export function mdCode(text: string): string {
  return codeSpan(oneLine(text), false)
}

function longestRun(text: string, ch: string): number {
  let longest = 0
  let run = 0
  for (const c of text) {
    run = c === ch ? run + 1 : 0
    if (run > longest) longest = run
  }
  return longest
}

function codeSpan(text: string, cell: boolean): string {
  if (text === '') return '` `'
  const body = cell ? text.replace(/\|/g, '\\|') : text
  const fence = '`'.repeat(longestRun(body, '`') + 1)
  // A space on each side keeps a leading or trailing backtick out of the fence; the
  // renderer strips one space on each side when both are there.
  const pad = body.startsWith('`') || body.endsWith('`') || /^ .* $/.test(body) ? ' ' : ''
  return `${fence}${pad}${body}${pad}${fence}`
}

/**
 * A fenced code block holding untrusted text (a log tail): the fence is longer than any
 * run of backticks or tildes inside, so no line of the text can close it; line endings are
 * \n, and invisible characters (ESC, bidi controls) are shown as U+XXXX.
 */
export function mdFence(text: string): string {
  const body = String(text)
    .replace(LINE_BREAK, '\n')
    .replace(INVISIBLE, ch => `U+${hex(ch.codePointAt(0) ?? 0, 4).toUpperCase()}`)
  const fence = '`'.repeat(Math.max(3, longestRun(body, '`') + 1, longestRun(body, '~') + 1))
  return `${fence}\n${body}${body.endsWith('\n') ? '' : '\n'}${fence}`
}
