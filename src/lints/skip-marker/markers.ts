// What counts as a suppression in Go and Java, matched on masked code (comments and string
// contents blanked, see mask.ts), and the timeouts of every language. Each pattern names the
// marker as a reader would write it. JS/TS and Python markers: script.ts and python.ts,
// on the syntax tree.
import type { Node } from 'web-tree-sitter'
import type { Family as Lang } from '../../lang.js'

export interface MarkerHit {
  /** The marker as written, e.g. `pytest.mark.skip`, `it.only`, `@Disabled`. */
  label: string
  /** `.only` and friends silence every other test: no ledger row can cover them. */
  silencesOthers: boolean
  column: number
}

/** The exports of a helper module that carry a marker: export name → that marker. */
export type HelperExports = ReadonlyMap<string, { label: string; only: boolean }>

interface Pattern {
  re: RegExp
  label: (m: RegExpExecArray) => string
  silencesOthers?: boolean
}

const SUPPRESSIONS: Readonly<Record<Lang, readonly Pattern[]>> = {
  // JS/TS and Python suppressions are read off the syntax tree (script.ts, python.ts).
  python: [],
  js: [],
  go: [{ re: /\b[A-Za-z_]\w*\.(Skipf|SkipNow|Skip)\s*\(/g, label: m => `t.${m[1]}` }],
  java: [{ re: /@\s*(Disabled\w*|Ignore)\b/g, label: m => `@${m[1]}` }]
}

/** Suppression markers on one masked line. */
export function suppressionsIn(line: string, lang: Lang): MarkerHit[] {
  const hits: MarkerHit[] = []
  for (const pattern of SUPPRESSIONS[lang]) {
    pattern.re.lastIndex = 0
    for (let m = pattern.re.exec(line); m !== null; m = pattern.re.exec(line)) {
      const label = pattern.label(m)
      const silencesOthers = pattern.silencesOthers ?? /\.only$|\{ only:/.test(label)
      if (!hits.some(h => h.label === label))
        hits.push({ label, silencesOthers, column: m.index + 1 })
    }
  }
  return hits
}

/** A timeout setting; `value` is Infinity when it disables the limit (deadline=None). */
export interface TimeoutHit {
  /** Values of one kind are compared with each other (units differ between kinds). */
  kind: 'timeout' | 'deadline' | 'testTimeout' | 'hookTimeout' | 'mocha'
  label: string
  value: number
  column: number
}

/** The framework default when the base file sets none: growing past it is a raise too. */
export const TIMEOUT_DEFAULTS: Readonly<Partial<Record<TimeoutHit['kind'], number>>> = {
  deadline: 200, // hypothesis, milliseconds
  testTimeout: 5000, // jest and vitest, milliseconds
  hookTimeout: 10000, // vitest, milliseconds
  mocha: 2000 // mocha, milliseconds
}

interface TimeoutPattern {
  re: RegExp
  kind: TimeoutHit['kind']
  label: string
  /** Values meaning "no limit". */
  unlimited?: RegExp
}

const NUMBER = '(None|null|Infinity|\\d[\\d_]*(?:\\.\\d+)?)'

const TIMEOUTS: Readonly<Record<Lang, readonly TimeoutPattern[]>> = {
  python: [
    {
      re: new RegExp(`\\bmark\\.timeout\\s*\\(\\s*${NUMBER}`, 'g'),
      kind: 'timeout',
      label: 'pytest.mark.timeout'
    },
    {
      re: new RegExp(`\\btimeout\\s*=\\s*${NUMBER}`, 'g'),
      kind: 'timeout',
      label: 'timeout=',
      unlimited: /^None$/
    },
    {
      re: new RegExp(`\\bdeadline\\s*=\\s*${NUMBER}`, 'g'),
      kind: 'deadline',
      label: 'deadline=',
      unlimited: /^None$/
    }
  ],
  js: [
    {
      re: new RegExp(`\\b(?:jest|vi)\\s*\\.\\s*setTimeout\\s*\\(\\s*${NUMBER}`, 'g'),
      kind: 'testTimeout',
      label: 'setTimeout(',
      unlimited: /^Infinity$/
    },
    {
      re: new RegExp(`\\btestTimeout\\s*:\\s*${NUMBER}`, 'g'),
      kind: 'testTimeout',
      label: 'testTimeout:',
      unlimited: /^Infinity$/
    },
    {
      re: new RegExp(`\\bhookTimeout\\s*:\\s*${NUMBER}`, 'g'),
      kind: 'hookTimeout',
      label: 'hookTimeout:',
      unlimited: /^Infinity$/
    },
    {
      re: new RegExp(`(?<![\\w$])timeout\\s*:\\s*${NUMBER}`, 'g'),
      kind: 'timeout',
      label: 'timeout:',
      unlimited: /^Infinity$/
    },
    {
      re: new RegExp(`\\bthis\\s*\\.\\s*timeout\\s*\\(\\s*${NUMBER}`, 'g'),
      kind: 'mocha',
      label: 'this.timeout(',
      unlimited: /^0$/
    }
  ],
  go: [],
  java: [
    {
      re: new RegExp(`@\\s*Timeout\\s*\\(\\s*(?:value\\s*=\\s*)?${NUMBER}`, 'g'),
      kind: 'timeout',
      label: '@Timeout'
    },
    { re: new RegExp(`\\btimeout\\s*=\\s*${NUMBER}`, 'g'), kind: 'timeout', label: 'timeout =' }
  ]
}

export function timeoutsIn(line: string, lang: Lang): TimeoutHit[] {
  const hits: TimeoutHit[] = []
  for (const pattern of TIMEOUTS[lang]) {
    pattern.re.lastIndex = 0
    for (let m = pattern.re.exec(line); m !== null; m = pattern.re.exec(line)) {
      const raw = m[1]!
      const value = pattern.unlimited?.test(raw) ? Infinity : Number(raw.replace(/_/g, ''))
      // `null`/`None` where it does not mean "unlimited" is not a number we can compare.
      if (Number.isNaN(value)) continue
      hits.push({ kind: pattern.kind, label: pattern.label, value, column: m.index + 1 })
    }
  }
  return hits
}

/** Markers by 1-based line, one per label on a line. */
export function addHit(hits: Map<number, MarkerHit[]>, line: number, hit: MarkerHit): void {
  const list = hits.get(line)
  if (list === undefined) hits.set(line, [hit])
  else if (!list.some(h => h.label === hit.label)) list.push(hit)
}

/**
 * What the Python and the JS/TS marker readers share: the file's resolver (resolve/), the
 * markers found so far by line, and whether the file is a production helper module.
 */
export abstract class MarkerReader<V, R extends { valueOf(node: Node | null): unknown }> {
  protected readonly hits = new Map<number, MarkerHit[]>()

  protected constructor(
    protected readonly root: Node,
    protected readonly production: boolean,
    protected readonly resolver: R
  ) {}

  protected valueOf(node: Node | null): V | undefined {
    return this.resolver.valueOf(node) as V | undefined
  }

  protected add(line: number, hit: MarkerHit): void {
    addHit(this.hits, line, hit)
  }
}
