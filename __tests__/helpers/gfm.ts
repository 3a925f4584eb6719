// GitHub-flavoured rendering of the gate's Markdown with Debian's cmark-gfm and the
// extensions GitHub enables (--unsafe passes raw HTML through, as GitHub does before its own
// sanitiser, so HTML from the head shows up here), and the checks every hostile-input test
// makes on the HTML: no element the head could have supplied. Tests fail loudly when
// cmark-gfm is missing (.ci/run installs it): a skipped rendering test proves nothing.
import { execFileSync } from 'node:child_process'

const EXTENSIONS = ['table', 'autolink', 'strikethrough', 'tagfilter']

export function renderGfm(markdown: string): string {
  try {
    return execFileSync('cmark-gfm', ['--unsafe', ...EXTENSIONS.flatMap(e => ['--extension', e])], {
      input: markdown,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024
    })
  } catch (error) {
    throw new Error(
      `cmark-gfm failed (apt-get install -y cmark-gfm): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error }
    )
  }
}

/** The elements the card itself writes; anything else in the HTML came from somewhere else. */
const CARD_TAGS = new Set([
  // The card's own bullet lists (markdown.ts: the evidence section's uncovered lines and
  // survivors, each head-written part in a code span).
  'ul',
  'li',
  'p',
  'h2',
  'h3',
  'strong',
  'em',
  'code',
  'pre',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
  'details',
  'summary',
  'sub',
  'blockquote',
  'br'
])

/** Every tag name in the HTML that the card does not write itself (img, a, h1, script...). */
export function foreignTags(html: string): string[] {
  const names = [...html.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9]*)/g)].map(m =>
    (m[1] ?? '').toLowerCase()
  )
  return [...new Set(names.filter(n => !CARD_TAGS.has(n)))]
}

/** Texts of the headings, to compare with the card's own section titles. */
export function headings(html: string): string[] {
  return [...html.matchAll(/<h([1-6])>(.*?)<\/h\1>/g)].map(m => m[2] ?? '')
}

/** Rendered lines (blocks) that start like the verdict line but are not the card's heading. */
export function fakeVerdictBlocks(html: string): string[] {
  return html
    .split('\n')
    .filter(line =>
      /^<(p|h[1-6]|li|blockquote|td|th)>\s*(✅|❌|⛔|⚪|💥)?\s*oracle-gate:/.test(line)
    )
    .filter(line => !/^<h2>(✅|❌|⛔|⚪|💥) oracle-gate: <code>[a-z-]+<\/code><\/h2>$/.test(line))
}
