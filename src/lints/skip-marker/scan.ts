// Pure core of the skip-marker rule: the suppressions and raised timeouts a file's added
// lines introduce, each mapped to the test it silences. "Introduce" means new for that
// test: a marker the base already had on the same test (a reformatted or moved line) is
// not the patch's doing.
import type { Family as Lang } from '../../lang.js'
import { maskCode } from './mask.js'
import { suppressionsIn, timeoutsIn, TIMEOUT_DEFAULTS, type TimeoutHit } from './markers.js'
import { unitFinder, type TestUnit } from './units.js'

export interface Finding {
  line: number
  /** The marker as written, e.g. `pytest.mark.skip`, or `timeout= 5 → 60`. */
  label: string
  unit: TestUnit
  silencesOthers: boolean
}

/**
 * @param path head path (canonical ids use it)
 * @param headText file at head
 * @param baseText file at the merge base (its previous path when renamed), null when new
 * @param added head line numbers the diff adds
 */
/**
 * A cheap superset of every marker and timeout pattern, tried on the raw added lines before
 * a file is read and lexed: most changed test files add no marker at all.
 */
const MAYBE =
  /skip|xfail|expectedfailure|only|todo|fails|runif|\bx(?:it|test|describe|context|specify)\b|\bf(?:it|describe|context)\b|disabled|ignore|timeout|deadline/i

export function mayHoldMarker(lines: Iterable<string>): boolean {
  for (const line of lines) if (MAYBE.test(line)) return true
  return false
}

export function scanFile(
  path: string,
  lang: Lang,
  headText: string,
  baseText: string | null,
  added: Iterable<number>
): Finding[] {
  const head = analyse(path, lang, headText)
  const base = baseText === null ? undefined : analyse(path, lang, baseText)
  const before = new Set<string>()
  const baseTimeouts = new Map<TimeoutHit['kind'], number>()
  if (base) {
    for (let line = 1; line <= base.lines.length; line++) {
      const masked = base.lines[line - 1]!
      const hits = suppressionsIn(masked, lang)
      if (hits.length > 0) {
        const id = base.unitAt(line).ids[0]
        for (const hit of hits) before.add(`${id}\0${hit.label}`)
      }
      for (const t of timeoutsIn(masked, lang))
        baseTimeouts.set(t.kind, Math.max(baseTimeouts.get(t.kind) ?? -Infinity, t.value))
    }
  }
  const findings: Finding[] = []
  for (const line of [...added].sort((a, b) => a - b)) {
    const masked = head.lines[line - 1]
    if (masked === undefined) continue
    const hits = suppressionsIn(masked, lang)
    const raised = timeoutsIn(masked, lang).filter(t => {
      // Compared with the largest value of the same kind in the base file, else the
      // framework's default; a kind with neither (a bare timeout=) is a new bound, not a raise.
      const baseline = baseTimeouts.get(t.kind) ?? TIMEOUT_DEFAULTS[t.kind]
      return baseline !== undefined && t.value > baseline
    })
    if (hits.length === 0 && raised.length === 0) continue
    const unit = head.unitAt(line)
    for (const hit of hits) {
      if (before.has(`${unit.ids[0]}\0${hit.label}`)) continue
      findings.push({ line, label: hit.label, unit, silencesOthers: hit.silencesOthers })
    }
    for (const t of raised) {
      const baseline = baseTimeouts.get(t.kind) ?? TIMEOUT_DEFAULTS[t.kind]!
      findings.push({
        line,
        label: `${t.label} raised ${show(baseline)} → ${show(t.value)}`,
        unit,
        silencesOthers: false
      })
    }
  }
  return findings
}

function analyse(
  path: string,
  lang: Lang,
  text: string
): { lines: string[]; unitAt: (line: number) => TestUnit } {
  const masked = maskCode(text, lang)
  return { lines: masked.split('\n'), unitAt: unitFinder(path, text, masked, lang) }
}

function show(value: number): string {
  return value === Infinity ? 'no limit' : String(value)
}
