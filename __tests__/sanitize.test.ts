// The sanitiser on its own: each hostile string rendered by cmark-gfm (GitHub's extensions)
// must come out as text, never as an element; log lines must stay one line and never be a
// workflow command. The card and the bundled CLI/action get the same strings end to end in
// hostile-output.test.ts.
import { describe, expect, it } from 'vitest'
import {
  fencedLogLines,
  logText,
  mayBeWorkflowCommand,
  mdCellCode,
  mdCode,
  mdFence,
  mdQuoted,
  mdText,
  plainText
} from '../src/report/sanitize.js'
import { foreignTags, headings, renderGfm } from './helpers/gfm.js'

export const HOSTILE = [
  '<img src=x onerror=alert(1)>',
  '<h2>✅ oracle-gate: merge</h2>',
  '![pixel](https://evil.example/p.png)',
  '[click](https://evil.example)',
  'see https://evil.example/x and www.evil.example and mail a@evil.example',
  '<https://evil.example>',
  '# ✅ oracle-gate: `merge`',
  '> quoted',
  '- item',
  '1. item',
  '| a | b |',
  '`code` ``two`` ```three```',
  '**bold** _em_ ~~strike~~',
  '&lt;img src=x&gt; &amp;',
  'line1\n## ✅ oracle-gate: merge\nline3',
  'a\u2028## ✅ oracle-gate: merge\u2029b',
  'a\r## heading\rb',
  '\u001b[2J\u001b[31mred\u001b[0m',
  '::error file=x.py::forged',
  '::add-mask::secret',
  '::stop-commands::abc',
  '##[error]forged',
  'evil\u202Egnp.exe',
  '<script>alert(1)</script>',
  '<details open><summary>x</summary>'
]

function renderedParagraph(md: string): string {
  return renderGfm(`text: ${md}\n`)
}

describe('mdQuoted', () => {
  it.each(HOSTILE)('renders %j, quoted or not, as text and code, no element, one table cell', s => {
    for (const text of [s, `mutant \`${s}\` → \`1\` survived`]) {
      const html = renderGfm(`| a | b |\n|---|---|\n| ${mdQuoted(text)} | x |\n`)
      expect(foreignTags(html)).toEqual([])
      expect(headings(html)).toEqual([])
      expect(html.match(/<td>/g)).toHaveLength(2)
    }
  })

  it('makes each backtick-quoted piece a code span of its own, the rest text', () => {
    const html = renderedParagraph(
      mdQuoted('mutant `<` → `a | b` survived; a lone ` stays', { cell: false })
    )
    expect(html).toContain('mutant <code>&lt;</code> → <code>a | b</code> survived; a lone ` stays')
    const cell = renderGfm(`| a |\n|---|\n| ${mdQuoted('key `x|y` here')} |\n`)
    expect(cell).toContain('<td>key <code>x|y</code> here</td>')
  })
})

describe('mdText', () => {
  it.each(HOSTILE)('renders %j as plain text, no element', s => {
    const html = renderedParagraph(mdText(s, { cell: false }))
    expect(foreignTags(html)).toEqual([])
    expect(headings(html)).toEqual([])
    expect(html.trim().split('\n')).toHaveLength(1)
  })

  it.each(HOSTILE)('keeps a table intact with %j in a cell', s => {
    const md = `| a | b |\n|---|---|\n| ${mdText(s)} | ${mdCellCode(s)} |\n`
    const html = renderGfm(md)
    expect(foreignTags(html)).toEqual([])
    expect(html.match(/<td>/g)).toHaveLength(2)
    expect(html.match(/<tr>/g)).toHaveLength(2)
  })

  it('keeps the text readable: entities for &<>, the words themselves', () => {
    const html = renderedParagraph(mdText('<b>x</b> & y'))
    expect(html).toContain('&lt;b&gt;x&lt;/b&gt; &amp; y')
  })

  it('shows URLs and e-mail addresses as code, not links', () => {
    const html = renderedParagraph(
      mdText('go to https://evil.example or a@b.example', { cell: false })
    )
    expect(html).toContain('<code>https://evil.example</code>')
    expect(html).toContain('<code>a@b.example</code>')
  })

  it('neutralises a leading block marker even as the first thing on a line', () => {
    for (const s of [
      '# h',
      '## ✅ oracle-gate: merge',
      '- x',
      '+ x',
      '1. x',
      '> q',
      '=== ',
      '    code'
    ]) {
      const html = renderGfm(`${mdText(s, { cell: false })}\n`)
      expect(html, s).toMatch(/^<p>/)
      expect(foreignTags(html), s).toEqual([])
    }
  })
})

describe('code spans', () => {
  it('are fenced longer than any backtick run and show the text exactly', () => {
    const s = 'a ``` b ` c'
    const html = renderGfm(`x ${mdCode(s)}\n`)
    expect(html).toContain('<code>a ``` b ` c</code>')
  })

  it('keep leading and trailing backticks', () => {
    expect(renderGfm(`x ${mdCode('`x`')}\n`)).toContain('<code>`x`</code>')
  })

  it('escape pipes inside a table cell so the row keeps its columns', () => {
    const html = renderGfm(`| a | b |\n|---|---|\n| ${mdCellCode('x|y')} | z |\n`)
    expect(html).toContain('<td><code>x|y</code></td>')
  })
})

describe('mdFence', () => {
  it('cannot be closed from inside, whatever runs of backticks or tildes it holds', () => {
    const tail = 'out\n```\n# ✅ oracle-gate: merge\n~~~~~\n````````\n<img src=x>\nend'
    const html = renderGfm(`before\n\n${mdFence(tail)}\n\nafter\n`)
    expect(foreignTags(html)).toEqual([])
    expect(headings(html)).toEqual([])
    expect(html).toContain('&lt;img src=x&gt;')
    expect(html.match(/<pre>/g)).toHaveLength(1)
    expect(html).toMatch(/<p>after<\/p>\s*$/)
  })

  it('treats a lone CR as a line end and shows ESC', () => {
    const fenced = mdFence('a\r```\rb\u001b[31m')
    expect(fenced).not.toContain('\r')
    expect(fenced).toContain('U+001B[31m')
    expect(renderGfm(`${fenced}\n\nafter\n`)).toMatch(/<p>after<\/p>\s*$/)
  })
})

describe('logs', () => {
  it('make line breaks, line separators and control characters visible', () => {
    expect(logText('a\nb\r\nc\u2028d\u2029e\u001b[2Jf\u0007g\u202eh\tt')).toBe(
      'a\\nb\\nc\\u2028d\\u2029e\\x1b[2Jf\\x07g\\u202eh\tt'
    )
  })

  it('recognise both workflow-command syntaxes the runner reads', () => {
    expect(mayBeWorkflowCommand('::error::x')).toBe(true)
    expect(mayBeWorkflowCommand('   ::add-mask::x')).toBe(true)
    expect(mayBeWorkflowCommand('text ##[error]x')).toBe(true)
    expect(mayBeWorkflowCommand('a :: b')).toBe(false)
  })

  it('wrap a line that may be a command in stop-commands with a fresh token', () => {
    let n = 0
    const token = (): string => `tok${++n}`
    expect(fencedLogLines('plain text', token)).toEqual(['plain text'])
    expect(fencedLogLines('::error::x\n::warning::y', token)).toEqual([
      '::stop-commands::tok1',
      '::error::x\\n::warning::y',
      '::tok1::'
    ])
    expect(fencedLogLines('see ##[group]x', token)[0]).toBe('::stop-commands::tok2')
  })

  it('plain text keeps its lines but shows ESC', () => {
    expect(plainText('a\nb\u001b[1m')).toBe('a\nb\\x1b[1m')
  })
})
