// Where each line of a JavaScript or TypeScript text starts as code: the column of its first
// character that is neither blank, nor a comment, nor only closing the line before (`}`,
// `)`, `]`, `;`, `,`). That character is the line's probe: V8 block coverage says the line
// ran when the innermost range around it ran (v8.ts). A line with no such character (blank,
// a comment, a lone `})`) has no probe and is neither covered nor uncovered. A small
// scanner, not a parser: strings, template literals (with `${}` inside) and comments are
// followed so a `/*` in a string does not start a comment; a regex literal holding `/*` or
// a quote can mislead it for the rest of that line. Pure.

const CLOSERS = new Set(['}', ')', ']', ';', ','])

/**
 * TypeScript that compiles to nothing: a declaration of a type, an interface, an ambient
 * declaration, a type-only import or export. A transform's wrapper can map onto such a
 * line (the first line often), so it is no probe even when a segment names it.
 */
const TYPE_ONLY =
  /^(export\s+)?(declare\s|interface\s|type\s+[\w$]+\s*[<=]|import\s+type\s|type\s*\{)/

type Mode = 'code' | 'block' | 'line' | "'" | '"' | '`'

/** Scanner state carried from line to line: the mode and the `${` depth stack. */
interface ScanState {
  mode: Mode
  /** For each open `${` of a template: the brace depth inside it when it opened. */
  templates: number[]
  depth: number
}

/** The probe column (UTF-16) of each line, index 0 for line 1; null for no probe. */
export function lineProbes(text: string): (number | null)[] {
  const state: ScanState = { mode: 'code', templates: [], depth: 0 }
  return text.split('\n').map(line => {
    const probe = probeOfLine(line, state)
    return probe !== null && TYPE_ONLY.test(line.slice(probe)) ? null : probe
  })
}

function probeOfLine(line: string, state: ScanState): number | null {
  let probe: number | null = null
  // A template literal going on from the line before: its text is part of a statement.
  if (state.mode === '`') {
    const first = line.search(/\S/)
    if (first >= 0) probe = first
  }
  if (state.mode === 'line') state.mode = 'code'
  for (let i = 0; i < line.length; i++) {
    const c = line[i] ?? ''
    const next = line[i + 1] ?? ''
    if (state.mode === 'code') {
      if (c === '/' && next === '/') {
        state.mode = 'line'
        break
      }
      if (c === '/' && next === '*') {
        state.mode = 'block'
        i++
        continue
      }
      if (probe === null && !/\s/.test(c) && !CLOSERS.has(c)) probe = i
      codeChar(c, state)
    } else if (state.mode === 'block') {
      if (c === '*' && next === '/') {
        state.mode = 'code'
        i++
      }
    } else if (state.mode === '`') {
      if (c === '\\') i++
      else if (c === '`') state.mode = 'code'
      else if (c === '$' && next === '{') {
        state.templates.push(state.depth)
        state.mode = 'code'
        i++
      }
    } else if (state.mode === "'" || state.mode === '"') {
      if (c === '\\') i++
      else if (c === state.mode) state.mode = 'code'
    }
  }
  // A quote left open at the end of a line is an error or a continuation: start afresh.
  if (state.mode === "'" || state.mode === '"') state.mode = 'code'
  return probe
}

/** A character of code: quotes open strings, braces count, a `}` may close a `${`. */
function codeChar(c: string, state: ScanState): void {
  if (c === "'" || c === '"' || c === '`') state.mode = c
  else if (c === '{') state.depth++
  else if (c === '}') {
    const open = state.templates[state.templates.length - 1]
    if (open !== undefined && open === state.depth) {
      state.templates.pop()
      state.mode = '`'
    } else state.depth--
  }
}
