// The evidence stage's pure parts (src/evidence/): the arid-line table that takes out of the
// changed lines what cannot run, the scorecard block and its reasons (notices in report,
// weak-evidence failures under enforce, at and just past each threshold), and the card's
// Evidence section at a glance, rendered with cmark-gfm, hostile head strings included;
// what an `instrument` record voids (coverage, a session's answers) and how a one-by-one
// mutant run's plan follows a removal of several lines.
// The cards here are made by hand: they test the report, not the mutation (the lead adds
// assertions on real mutants when D's mutants.ts and mutate.ts are merged).
import { describe, expect, it } from 'vitest'
import { aridLines, changedLines, languageOf } from '../src/evidence/changed.js'
import type { GateContext } from '../src/context.js'
import { GateError } from '../src/errors.js'
import { toAnnotations } from '../src/github/checks.js'
import {
  evidenceCard,
  evidenceReasons,
  evidenceStage,
  killFigures,
  mergeCoverage,
  passingVoting
} from '../src/evidence/index.js'
import { instrumentReads, reachVoid, voids } from '../src/evidence/instrument.js'
import { shiftedPlan } from '../src/evidence/mutate.js'
import { pyCoverage } from '../src/evidence/py-coverage.js'
import { mutantWatch, readSession } from '../src/evidence/schemata.js'
import type { MutantOutcome } from '../src/evidence/types.js'
import type { SuiteRun } from '../src/replay/run.js'
import type { EvidenceSettings } from '../src/policy/types.js'
import { evidenceGlance } from '../src/report/glance.js'
import { renderMarkdown } from '../src/report/markdown.js'
import type { EvidenceCard, Scorecard } from '../src/types.js'
import { emptyScorecard, finalize } from '../src/verdict/scorecard.js'
import { foreignTags, renderGfm } from './helpers/gfm.js'
import { memoryLogger } from './helpers/logger.js'

const arid = (path: string, text: string): number[] =>
  [...aridLines(path, text)].sort((a, b) => a - b)

describe('arid lines (docs/evidence.md "Changed lines")', () => {
  it('Python: blank, comments, docstrings, imports, else/finally, closing brackets', () => {
    const text = [
      '"""Module docstring',
      'over two lines."""',
      'import os',
      'from a import (',
      '    b,',
      ')',
      '# a comment',
      '',
      'def f(x):',
      '    """One line."""',
      '    try:',
      '        y = g(',
      '            x,',
      '        )',
      '    finally:',
      '        pass',
      '    if y:',
      '        return 1',
      '    else:',
      '        return 2',
      'S = """text',
      'inside',
      '"""',
      'T = 1'
    ].join('\n')
    expect(arid('m.py', text)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 10, 14, 15, 19, 22, 23])
    // Kept: def, try (it has a line event), the call and its argument, pass, if, the
    // returns, the assignment that opens a string, and the code after it.
  })

  it('JavaScript and TypeScript: comments, imports, re-exports, type-only declarations', () => {
    const text = [
      "import { a } from './a.js'",
      'import {',
      '  b,',
      "} from './b.js'",
      "export { c } from './c.js'",
      '// comment',
      '/* block',
      '   comment */',
      'export interface Shape {',
      '  width: number',
      '}',
      'type Id = string',
      'export function area(s: Shape): number {',
      '  return s.width * 2',
      '}',
      "const x = 'y'"
    ].join('\n')
    expect(arid('s.ts', text)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 15])
  })

  it('other languages: blank lines only', () => {
    expect(arid('a.go', 'package a\n\n// c\nfunc F() {}\n')).toEqual([2, 5])
    expect(languageOf('x.mts')).toBe('js')
    expect(languageOf('x.pyi')).toBe('python')
    expect(languageOf('x.rs')).toBe('other')
    expect(arid('types.d.ts', 'export declare const a: number\nexport {}\n')).toEqual([1, 2, 3])
    expect(arid('m.pyi', 'def f(x: int) -> int: ...\n')).toEqual([1, 2])
  })

  it('changedLines: the watch plan’s ranges minus arid lines; unreadable files keep theirs', () => {
    const texts: Record<string, string> = {
      'a.py': 'import os\n\nX = 1\n# c\nY = 2\n',
      'b.py': '# only a comment\n'
    }
    const out = changedLines(
      { 'a.py': [[1, 5]], 'b.py': [[1, 1]], 'gone.py': [[2, 3]] },
      p => texts[p] ?? null
    )
    expect(out).toEqual([
      { path: 'a.py', lines: [3, 5] },
      { path: 'gone.py', lines: [2, 3] }
    ])
  })
})

const settings = (over: Partial<EvidenceSettings> = {}): EvidenceSettings => ({
  mode: 'report',
  min_coverage: 0.8,
  min_kill_ratio: 0.6,
  budget_s: 120,
  ...over
})

const mutant = (line: number, killed: string | null, notRun?: string): MutantOutcome => ({
  path: 'fee.py',
  line,
  mutation: '`<` → `<=`',
  start: 0,
  end: 1,
  replacement: '<=',
  killed_by: killed,
  ...(notRun ? { not_run: notRun } : {})
})

describe('the scorecard block and its reasons', () => {
  const changed = [{ path: 'fee.py', lines: [1, 2, 3, 4, 5] }]
  const coverage = { covered: new Map([['fee.py', new Set([1, 2, 3, 4])]]) }

  it('counts covered and uncovered lines and keeps mutants as run', () => {
    const card = evidenceCard(settings(), changed, coverage, [
      mutant(1, 't::a'),
      mutant(2, null),
      mutant(3, null, 'budget')
    ])
    expect(card).toMatchObject({
      changed_lines: 5,
      covered_lines: 4,
      uncovered: [{ path: 'fee.py', lines: [5] }],
      budget_s: 120
    })
    expect(card.mutants.map(m => m.killed_by)).toEqual(['t::a', null, null])
    expect(card.mutants[2]?.not_run).toBe('budget')
    // A mutant not run is neither killed nor counted.
    expect(killFigures(card)).toEqual({ run: 2, killed: 1 })
  })

  it('report: notices for each uncovered range and survivor, never a failure', () => {
    const card = evidenceCard(settings(), changed, coverage, [mutant(2, null)])
    const reasons = evidenceReasons(settings({ min_coverage: 1, min_kill_ratio: 1 }), card)
    expect(reasons.map(r => [r.level, r.path, r.line])).toEqual([
      ['notice', 'fee.py', 5],
      ['notice', 'fee.py', 2]
    ])
  })

  it('enforce: at the threshold is no failure; just below names the uncovered lines', () => {
    const card = evidenceCard(settings(), changed, coverage, [])
    const at = evidenceReasons(settings({ mode: 'enforce', min_coverage: 0.8 }), card)
    expect(at.filter(r => r.level === 'failure')).toEqual([])
    const below = evidenceReasons(settings({ mode: 'enforce', min_coverage: 0.81 }), card)
    const [failure] = below.filter(r => r.level === 'failure')
    expect(failure).toMatchObject({ rule: 'weak-evidence', path: 'fee.py', line: 5 })
    expect(failure?.message).toMatch(
      /run 4 of the patch's 5 changed lines \(80 %.*81 %.*fee\.py line 5$/
    )
  })

  it('enforce: mutants made but none judged is weak evidence; report says nothing of it', () => {
    const full = { covered: new Map([['fee.py', new Set([1, 2, 3, 4, 5])]]) }
    const unloaded = 'the mutant stopped t.py from loading (a collection error): no test judged it'
    const card = evidenceCard(settings(), changed, full, [
      mutant(1, null, unloaded),
      mutant(2, null, 'budget')
    ])
    const [failure] = evidenceReasons(settings({ mode: 'enforce' }), card).filter(
      r => r.level === 'failure'
    )
    expect(failure).toMatchObject({ rule: 'weak-evidence', path: 'fee.py', line: 1 })
    expect(failure?.message).toMatch(/none of the 2 mutant\(s\).*stopped t\.py from loading/)
    expect(evidenceReasons(settings(), card).filter(r => r.level === 'failure')).toEqual([])
    // Near miss: one judged and killed is evidence; no mutant at all asks for none.
    const judged = evidenceCard(settings(), changed, full, [
      mutant(1, 't::a'),
      mutant(2, null, 'budget')
    ])
    expect(
      evidenceReasons(settings({ mode: 'enforce' }), judged).filter(r => r.level === 'failure')
    ).toEqual([])
    const none = evidenceCard(settings(), changed, full, [])
    expect(
      evidenceReasons(settings({ mode: 'enforce' }), none).filter(r => r.level === 'failure')
    ).toEqual([])
  })

  it('enforce: the kill ratio counts mutants run to their end and names the survivors', () => {
    const full = { covered: new Map([['fee.py', new Set([1, 2, 3, 4, 5])]]) }
    const outcomes = [mutant(1, 't::a'), mutant(2, null), mutant(3, null, 'budget')]
    const card = evidenceCard(settings(), changed, full, outcomes)
    const half = evidenceReasons(settings({ mode: 'enforce', min_kill_ratio: 0.5 }), card)
    expect(half.filter(r => r.level === 'failure')).toEqual([])
    const more = evidenceReasons(settings({ mode: 'enforce', min_kill_ratio: 0.6 }), card)
    const [failure] = more.filter(r => r.level === 'failure')
    expect(failure).toMatchObject({ path: 'fee.py', line: 2 })
    expect(failure?.message).toMatch(/kill 1 of 2 mutants .*survivors: fee\.py:2 `<` → `<=`$/)
  })

  it('lines the measure knows hold no code (JS: `executable`) count neither way', () => {
    const js = [{ path: 'a.ts', lines: [1, 2, 3, 4] }]
    const card = evidenceCard(
      settings(),
      js,
      {
        covered: new Map([['a.ts', new Set([1])]]),
        executable: new Map([['a.ts', new Set([1, 3])]])
      },
      []
    )
    expect(card).toMatchObject({
      changed_lines: 2,
      covered_lines: 1,
      uncovered: [{ path: 'a.ts', lines: [3] }]
    })
  })

  it('no changed lines, no mutants: nothing to fail', () => {
    const card = evidenceCard(settings(), [], { covered: new Map() }, [])
    expect(evidenceReasons(settings({ mode: 'enforce', min_coverage: 1 }), card)).toEqual([])
  })

  it('merges the languages’ coverage and their problems', () => {
    const merged = mergeCoverage([
      {
        covered: new Map([['a.py', new Set([1])]]),
        byTest: new Map([['a.py', new Map([[1, ['t']]])]])
      },
      { covered: new Map(), problems: ['b.ts: not built'] }
    ])
    expect([...merged.covered.keys()]).toEqual(['a.py'])
    expect(merged.byTest?.get('a.py')?.get(1)).toEqual(['t'])
    expect(merged.problems).toEqual(['b.ts: not built'])
  })

  it('only voting tests that passed every time they ran count as covering', () => {
    const obs = (id: string, outcomes: ('passed' | 'failed')[], file = 'oracle/t.py') => ({
      id,
      file,
      outcomes,
      runnerFlaky: false
    })
    const results = new Map([
      ['a', obs('a', ['passed'])],
      ['b', obs('b', ['failed', 'passed'])],
      ['c', obs('c', ['passed'], 'drafts/t.py')]
    ])
    const votes = (o: { file: string | null }): boolean => o.file?.startsWith('oracle/') ?? false
    expect([...passingVoting(results, votes)]).toEqual(['a'])
  })
})

describe('the stage’s own failures', () => {
  const ctx = (mode: EvidenceSettings['mode']): GateContext =>
    ({
      policy: { path: 'p.yml', evidence: settings({ mode }) },
      log: memoryLogger()
    }) as unknown as GateContext
  const input = {
    worktree: '/nowhere',
    head: { side: 'head', run: {}, results: new Map() },
    votes: () => true,
    ids: () => Promise.reject(new Error('not used')),
    unavailable: 'a shard runs part of the vote'
  } as unknown as Parameters<typeof evidenceStage>[1]

  it('off: nothing at all, not even for a run it could not measure', async () => {
    expect(await evidenceStage(ctx('off'), input)).toEqual({ reasons: [] })
  })

  it('report: a notice and skipped_reason, never a failure', async () => {
    const out = await evidenceStage(ctx('report'), input)
    expect(out.evidence?.skipped_reason).toMatch(/evidence stage failed: a shard runs part/)
    expect(out.reasons.map(r => r.level)).toEqual(['notice'])
  })

  it('enforce: a gate error (fail closed)', async () => {
    await expect(evidenceStage(ctx('enforce'), input)).rejects.toThrow(GateError)
  })
})

describe('annotations', () => {
  it('each uncovered range and survivor becomes a notice annotation at its line', () => {
    const card = evidenceCard(
      settings(),
      [{ path: 'fee.py', lines: [3, 4, 9] }],
      { covered: new Map([['fee.py', new Set([3])]]) },
      [mutant(3, null)]
    )
    const { annotations } = toAnnotations(evidenceReasons(settings(), card))
    expect(annotations.map(a => [a.path, a.start_line, a.annotation_level, a.title])).toEqual([
      ['fee.py', 4, 'notice', 'oracle-gate: weak-evidence'],
      ['fee.py', 9, 'notice', 'oracle-gate: weak-evidence'],
      ['fee.py', 3, 'notice', 'oracle-gate: weak-evidence']
    ])
  })
})

function cardWith(evidence: EvidenceCard): Scorecard {
  const card = emptyScorecard({ version: '0.1.0', today: '2026-12-01', policyPath: 'p.yml' })
  card.base = 'a'.repeat(40)
  card.head = 'b'.repeat(40)
  card.evidence = evidence
  return finalize(card)
}

describe('the card’s Evidence section', () => {
  const mutants = [
    ...Array.from({ length: 9 }, (_, i) => ({
      path: 'fee.py',
      line: 20 + i,
      mutation: '`+` → `-`',
      killed_by: 'oracle/t.py::test_fee'
    })),
    { path: 'fee.py', line: 31, mutation: '`<` → `<=`', killed_by: null }
  ]

  it('reads as the issue asks, at a glance', () => {
    const card = cardWith({
      changed_lines: 14,
      covered_lines: 12,
      uncovered: [{ path: 'fee.py', lines: [40, 41] }],
      mutants,
      budget_s: 120
    })
    expect(evidenceGlance(card)?.figures).toBe(
      '12 of 14 changed lines run under the locked tests; 9 of 10 mutants killed'
    )
    const md = renderMarkdown(card)
    expect(md).toContain('### Evidence')
    const html = renderGfm(md)
    expect(html).toContain(
      '12 of 14 changed lines run under the locked tests; 9 of 10 mutants killed; survivor <code>fee.py:31</code> <code>&lt;</code> → <code>&lt;=</code>.'
    )
    expect(html).toContain('<code>fee.py</code> lines 40–41')
  })

  it('shows nothing when evidence is off, and why when it was skipped', () => {
    expect(renderMarkdown(cardWith(undefined as unknown as EvidenceCard))).not.toContain(
      '### Evidence'
    )
    const skipped = cardWith({
      changed_lines: 3,
      covered_lines: 0,
      uncovered: [],
      mutants: [],
      budget_s: 120,
      skipped_reason: 'the head has no results (its vote is red)'
    })
    expect(renderGfm(renderMarkdown(skipped))).toContain(
      'Not measured: the head has no results (its vote is red)'
    )
  })

  it('hostile paths and mutations from the head stay text', () => {
    const evil = 'x.py<img src=x onerror=alert(1)>[link](https://evil.example) @admin'
    const card = cardWith({
      changed_lines: 2,
      covered_lines: 1,
      uncovered: [{ path: evil, lines: [1] }],
      mutants: [
        {
          path: evil,
          line: 2,
          mutation: '<b>bold</b><img src=y onerror=alert(2)>\n## h',
          killed_by: null
        },
        {
          path: evil,
          line: 3,
          mutation: '`</code><img src=z>` → `` ` ``<i>x</i>`',
          killed_by: null
        }
      ],
      budget_s: 120,
      problems: [`${evil}: no coverage`]
    })
    const html = renderGfm(renderMarkdown(card))
    expect(foreignTags(html).filter(t => t !== 'ul' && t !== 'li')).toEqual([])
    expect(html).not.toContain('<h2>h')
  })
})

describe('what the product reached of the instrument (instrument.ts, probe_guard.py records)', () => {
  const read = (files: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    t: 'instrument',
    path: 'app/fee.py',
    line: 6,
    what: 'the code object of fee read (.__code__), which holds the gate\u0007s `instrument`',
    files,
    ...extra
  })

  it('names the files, or every file; other records and bad shapes void nothing', () => {
    const reads = instrumentReads([
      read(['app/fee.py']),
      { t: 'cover', path: 'app/tax.py', lines: [1] },
      { t: 'instrument', files: 'app/tax.py' }
    ])
    expect([...reads.files]).toEqual(['app/fee.py'])
    expect(reads.all).toBe(false)
    expect(voids(reads, 'app/fee.py')).toBe(true)
    expect(voids(reads, 'app/tax.py')).toBe(false)
    // Printed on the card: control characters and backticks of the head's names replaced.
    expect(reads.why).toEqual([
      "app/fee.py:6: the code object of fee read (.__code__), which holds the gate?s 'instrument'"
    ])
    expect(voids(instrumentReads([read(['*'])]), 'app/tax.py')).toBe(true)
  })

  it('pyCoverage: a voided file counts no line, named as such; the others count as before', () => {
    const watched = {
      sessions: 1,
      dropped: 0,
      events: [
        { t: 'cover', path: 'app/fee.py', lines: [5, 6], classname: 'oracle.test_fee', name: 't' },
        { t: 'cover', path: 'app/tax.py', lines: [2], classname: 'oracle.test_fee', name: 't' },
        read(['app/fee.py'])
      ]
    }
    const changed = [
      { path: 'app/fee.py', lines: [5, 6] },
      { path: 'app/tax.py', lines: [2] }
    ]
    const coverage = pyCoverage({
      watched,
      changed,
      idOf: () => 'oracle/test_fee.py::t',
      passing: new Set(['oracle/test_fee.py::t'])
    })
    expect([...coverage.covered.keys()]).toEqual(['app/tax.py'])
    expect(coverage.problems).toBeUndefined()
    expect(coverage.voided?.[0]).toMatch(
      /^app\/fee\.py: the product reached the gate's coverage probes \(app\/fee\.py:6: /
    )
    const card = evidenceCard(settings({ mode: 'enforce' }), changed, coverage, [])
    expect(card).toMatchObject({ changed_lines: 3, covered_lines: 1 })
    expect(card.uncovered).toEqual([{ path: 'app/fee.py', lines: [5, 6] }])
    expect(
      evidenceReasons(settings({ mode: 'enforce' }), card).some(r => r.level === 'failure')
    ).toBe(true)
  })

  it("readSession: a reached switch makes that file's mutants not run; others keep their answers", () => {
    const run = {
      result: { exitCode: 0, signal: null, timedOut: false, stdout: '', stderr: '' },
      report: null,
      stream: {
        state: 'read' as const,
        cases: [],
        started: 1,
        ended: 1,
        problems: [],
        dropped: 0,
        watched: 1,
        events: [
          read(['app/fee.py']),
          { t: 'mutant', index: 0, cases: [{ classname: 'c', name: 'a', outcome: 'failed' }] },
          { t: 'mutant', index: 1, cases: [{ classname: 'c', name: 'b', outcome: 'passed' }] }
        ]
      }
    }
    const planned = [
      { k: 0, path: 'app/fee.py' },
      { k: 1, path: 'app/tax.py' }
    ]
    const said = readSession(run as unknown as SuiteRun, planned, 60)
    expect(said.get(0)).toEqual({
      notRun: expect.stringMatching(
        /^the product reached the gate's mutant switches \(app\/fee\.py:6/
      )
    })
    expect(said.get(1)).toMatchObject({ cases: [{ name: 'b', outcome: 'passed' }] })
  })

  it("mutantWatch: a mutant run keeps the vote's lines, instrument and reach, never coverage or the differential recording", () => {
    const vote = {
      lines: { 'app/fee.py': [[7, 8]] as [number, number][] },
      instrument: ['tests'],
      reach: true,
      cover: true,
      diff: true,
      open: ['app/plugin.py']
    }
    expect(mutantWatch(vote)).toEqual({ ...vote, cover: false, diff: false })
    expect(vote.diff).toBe(true)
    expect(mutantWatch(null)).toBeNull()
    expect(mutantWatch(undefined)).toBeNull()
  })

  it('shiftedPlan: lines after a removal of several lines move up; a one-line mutant moves none', () => {
    const text = 'a = 1\nf(\n    2,\n)\nb = 2\nc = 3\n'
    const plan = {
      lines: {
        'app/x.py': [
          [1, 1],
          [2, 4],
          [5, 6]
        ] as [number, number][],
        'app/y.py': [[3, 3]] as [number, number][]
      },
      instrument: [],
      reach: true,
      cover: false
    }
    const start = text.indexOf('f(')
    const end = text.indexOf(')\n') + 1
    const removal = {
      path: 'app/x.py',
      line: 2,
      mutation: 'removed',
      start,
      end,
      replacement: 'pass'
    }
    expect(shiftedPlan(plan, removal, text)?.lines).toEqual({
      'app/x.py': [
        [1, 1],
        [2, 2],
        [3, 4]
      ],
      'app/y.py': [[3, 3]]
    })
    const swap = {
      path: 'app/x.py',
      line: 5,
      mutation: '1→2',
      start: 12,
      end: 13,
      replacement: '2'
    }
    expect(shiftedPlan(plan, swap, text)).toBe(plan)
    expect(shiftedPlan(null, swap, text)).toBeNull()
  })

  it("reachVoid: a reach of the patch's lines voids a mutant run; a comparison, a waived file, a line off the plan do not", () => {
    const plan = {
      lines: { 'app/fee.py': [[7, 8]] as [number, number][] },
      instrument: [],
      reach: true,
      cover: false
    }
    const reach = (category: string, line = 7): Record<string, unknown> => ({
      t: 'reach',
      category,
      what: 'environment read of PYTEST_CURRENT_TEST',
      path: 'app/fee.py',
      line
    })
    const none = (): boolean => false
    expect(reachVoid([reach('markers')], plan, none)).toMatch(
      /^the patch's lines reached the runner's state during the mutant run \(app\/fee\.py:7: markers: /
    )
    expect(reachVoid([reach('comparison')], plan, none)).toBeNull()
    expect(reachVoid([reach('markers', 30)], plan, none)).toBeNull()
    expect(reachVoid([reach('markers')], plan, () => true)).toBeNull()
    expect(reachVoid([reach('markers')], null, none)).toBeNull()
  })
})
