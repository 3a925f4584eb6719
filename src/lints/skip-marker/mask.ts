// Blanks comments and the contents of string literals with spaces, keeping every offset and
// newline, so that marker patterns and bracket matching see only code: a `@pytest.mark.skip`
// inside a docstring or `it.skip` in a comment is not a suppression. A small lexer per
// language family, not a parser: it only has to know where strings and comments end.

import type { Family as Lang } from '../../lang.js'

export function maskCode(text: string, lang: Lang): string {
  return new Masker(text, lang).run()
}

/** One pass over a text; each step consumes one token (a comment, a literal, a character). */
class Masker {
  private readonly out: string[]
  /** JS templates nest code (`${...}`): the brace depth at which each open one resumes. */
  private readonly templates: number[] = []
  private braces = 0
  private lastCode = ''
  private i = 0

  constructor(
    private readonly text: string,
    private readonly lang: Lang
  ) {
    this.out = text.split('')
  }

  run(): string {
    while (this.i < this.text.length) {
      if (this.lang === 'python') this.pythonStep()
      else this.cLikeStep()
    }
    return this.out.join('')
  }

  private blank(from: number, to: number): void {
    for (let k = from; k < to && k < this.out.length; k++)
      if (this.out[k] !== '\n') this.out[k] = ' '
  }

  /** Scans a quoted literal opened at `start` (after the opening quote(s)); returns the index after it. */
  private quoted(start: number, close: string, escapes: boolean, multiline: boolean): number {
    const { text } = this
    let k = start
    while (k < text.length) {
      if (escapes && text[k] === '\\') {
        k += 2
        continue
      }
      if (text.startsWith(close, k)) {
        this.blank(start, k)
        return k + close.length
      }
      // An unterminated one-line literal ends at the line end, so one typo cannot mask the file.
      if (!multiline && text[k] === '\n') break
      k++
    }
    this.blank(start, k)
    return k
  }

  private pythonStep(): void {
    const { text, i } = this
    const c = text[i]!
    if (c === '#') {
      const end = lineEnd(text, i)
      this.blank(i, end)
      this.i = end
    } else if (c === '"' || c === "'") {
      const triple = text.startsWith(c.repeat(3), i)
      const open = triple ? 3 : 1
      this.i = this.quoted(i + open, c.repeat(open), true, triple)
    } else {
      this.i++
    }
  }

  /** JS/TS, Go and Java: comments, quotes, raw and text blocks, then JS's own tokens. */
  private cLikeStep(): void {
    const { text, i, lang } = this
    const c = text[i]!
    const next = text[i + 1]
    if (c === '/' && next === '/') {
      const end = lineEnd(text, i)
      this.blank(i, end)
      this.i = end
    } else if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end === -1 ? text.length : end + 2
      this.blank(i, stop)
      this.i = stop
    } else if (lang === 'java' && text.startsWith('"""', i)) {
      this.i = this.quoted(i + 3, '"""', true, true)
    } else if (c === '"' || c === "'") {
      this.i = this.quoted(i + 1, c, true, false)
      this.lastCode = c
    } else if (c === '`' && lang === 'go') {
      this.i = this.quoted(i + 1, '`', false, true)
      this.lastCode = c
    } else if (lang !== 'js' || !this.scriptToken(c)) {
      if (!/\s/.test(c)) this.lastCode = /[\w$]/.test(c) ? wordBefore(text, i + 1) : c
      this.i++
    }
  }

  /** Template text and regular expressions; braces are counted. False: an ordinary character. */
  private scriptToken(c: string): boolean {
    const { text, i, templates } = this
    if (
      c === '`' ||
      (c === '}' && templates.length > 0 && templates[templates.length - 1] === this.braces)
    ) {
      if (c === '}') templates.pop()
      // Template text runs to the closing backtick or to the next `${`.
      let k = i + 1
      while (k < text.length && text[k] !== '`' && !(text[k] === '$' && text[k + 1] === '{')) {
        k += text[k] === '\\' ? 2 : 1
      }
      this.blank(i + 1, k)
      if (text[k] === '$') {
        templates.push(this.braces)
        this.i = k + 2
      } else {
        this.i = k + 1
      }
      this.lastCode = '`'
      return true
    }
    if (c === '{') this.braces++
    if (c === '}') this.braces--
    if (c === '/' && regexAllowedAfter(this.lastCode)) {
      this.i = regexLiteral(text, i, (from, to) => this.blank(from, to))
      this.lastCode = '/'
      return true
    }
    return false
  }
}

function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from)
  return end === -1 ? text.length : end
}

function wordBefore(text: string, end: number): string {
  let start = end
  while (start > 0 && /[\w$]/.test(text[start - 1]!)) start--
  return text.slice(start, end)
}

/** A `/` starts a regex after an operator, an opening bracket or a keyword, not after a value. */
function regexAllowedAfter(last: string): boolean {
  if (last === '') return true
  if (/^[\w$]+$/.test(last))
    return /^(?:return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/.test(
      last
    )
  return !/[)\]}`'"]/.test(last)
}

function regexLiteral(
  text: string,
  start: number,
  blank: (from: number, to: number) => void
): number {
  let k = start + 1
  let inClass = false
  while (k < text.length && text[k] !== '\n') {
    const c = text[k]
    if (c === '\\') {
      k += 2
      continue
    }
    if (c === '[') inClass = true
    else if (c === ']') inClass = false
    else if (c === '/' && !inClass) {
      blank(start + 1, k)
      return k + 1
    }
    k++
  }
  // Not a regex after all (a division at the end of a line): leave the text alone.
  return start + 1
}
