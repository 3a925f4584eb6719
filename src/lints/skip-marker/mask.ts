// Blanks comments and the contents of string literals with spaces, keeping every offset and
// newline, so that marker patterns and bracket matching see only code: a `@pytest.mark.skip`
// inside a docstring or `it.skip` in a comment is not a suppression. A small lexer per
// language family, not a parser: it only has to know where strings and comments end.

import type { Family as Lang } from '../../lang.js'

export function maskCode(text: string, lang: Lang): string {
  const out = text.split('')
  const blank = (from: number, to: number): void => {
    for (let k = from; k < to && k < out.length; k++) if (out[k] !== '\n') out[k] = ' '
  }
  /** Scans a quoted literal opened at `start` (after the opening quote(s)); returns the index after it. */
  const quoted = (start: number, close: string, escapes: boolean, multiline: boolean): number => {
    let k = start
    while (k < text.length) {
      if (escapes && text[k] === '\\') {
        k += 2
        continue
      }
      if (text.startsWith(close, k)) {
        blank(start, k)
        return k + close.length
      }
      // An unterminated one-line literal ends at the line end, so one typo cannot mask the file.
      if (!multiline && text[k] === '\n') break
      k++
    }
    blank(start, k)
    return k
  }

  // JS templates nest code (`${...}`), so track brace depth per open template.
  const templates: number[] = []
  let braces = 0
  let lastCode = ''
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    const next = text[i + 1]
    if (lang === 'python') {
      if (c === '#') {
        const end = lineEnd(text, i)
        blank(i, end)
        i = end
        continue
      }
      if (c === '"' || c === "'") {
        const triple = text.startsWith(c.repeat(3), i)
        const open = triple ? 3 : 1
        i = quoted(i + open, c.repeat(open), true, triple)
        continue
      }
      i++
      continue
    }
    // C-like families.
    if (c === '/' && next === '/') {
      const end = lineEnd(text, i)
      blank(i, end)
      i = end
      continue
    }
    if (c === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2)
      const stop = end === -1 ? text.length : end + 2
      blank(i, stop)
      i = stop
      continue
    }
    if (lang === 'java' && text.startsWith('"""', i)) {
      i = quoted(i + 3, '"""', true, true)
      continue
    }
    if (c === '"' || c === "'") {
      i = quoted(i + 1, c, true, false)
      lastCode = c
      continue
    }
    if (c === '`' && lang === 'go') {
      i = quoted(i + 1, '`', false, true)
      lastCode = c
      continue
    }
    if (lang === 'js') {
      if (
        c === '`' ||
        (c === '}' && templates.length > 0 && templates[templates.length - 1] === braces)
      ) {
        if (c === '}') templates.pop()
        // Template text runs to the closing backtick or to the next `${`.
        let k = i + 1
        while (k < text.length && text[k] !== '`' && !(text[k] === '$' && text[k + 1] === '{')) {
          k += text[k] === '\\' ? 2 : 1
        }
        blank(i + 1, k)
        if (text[k] === '$') {
          templates.push(braces)
          i = k + 2
        } else {
          i = k + 1
        }
        lastCode = '`'
        continue
      }
      if (c === '{') braces++
      if (c === '}') braces--
      if (c === '/' && regexAllowedAfter(lastCode)) {
        i = regexLiteral(text, i, blank)
        lastCode = '/'
        continue
      }
    }
    if (!/\s/.test(c)) lastCode = /[\w$]/.test(c) ? wordBefore(text, i + 1) : c
    i++
  }
  return out.join('')
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
