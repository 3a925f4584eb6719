// Evidence end to end through check() (src/gate.ts) on real vitest (TypeScript), jest
// (TypeScript through a transform, two workers) and node:test (ES modules) suites in
// temporary repositories. The base's fee() is wrong (1 over 100 instead of 0) and its
// locked test says so. Heads, per runner:
// - `fix`: the fix; its changed line runs under the voting tests and its mutant dies;
// - `branch`: the fix plus a branch for negative totals that no voting test runs. Green on
//   a naive run, so only evidence tells: the throw's line is uncovered and named with the
//   head's line number, and the new condition's mutant (`<` → `<=`) survives, named;
// - `weak` (against a base whose only locked test checks the result's type, under
//   enforce): the fix is covered, but its mutant survives, so `weak-evidence` is `product`.
// Coverage comes from the head's vote itself (no extra run; the log says so), TypeScript
// mapped back through the runner's source map. evidence.mode is set in every policy. The
// card's Evidence section is rendered with cmark-gfm.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { renderMarkdown } from '../src/report/markdown.js'
import type { Scorecard } from '../src/types.js'
import { renderGfm } from './helpers/gfm.js'
import { memoryLogger } from './helpers/logger.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, linkSetup, naiveRun, packageDir, SUITE_COMMANDS } from './helpers/runners.js'

const BASE_TS = `/** Delivery fee rules. */
export interface Order {
  total: number
  express?: boolean
}

export function fee(order: Order): number {
  const total: number = order.total
  if (total > 100) {
    return 1
  }
  return order.express === true ? 9 : 5
}
`
const BASE_JS = BASE_TS.replace(/^export interface[^}]*}\n\n/m, '')
  .replace('(order: Order): number', '(order)')
  .replace('const total: number', 'const total')

const fixOf = (base: string): string => base.replace('return 1\n', 'return 0\n')
const branchOf = (base: string): string =>
  fixOf(base).replace(
    '    return 0\n  }\n',
    "    return 0\n  }\n  if (total < 0) {\n    throw new RangeError('negative total')\n  }\n"
  )

/** 1-based number of the one line of `text` holding `snippet`. */
function lineOf(text: string, snippet: string): number {
  const found = text.split('\n').flatMap((l, i) => (l.includes(snippet) ? [i + 1] : []))
  if (found.length !== 1) throw new Error(`${snippet}: ${found.length} lines`)
  return found[0] ?? 0
}

interface Runner {
  name: string
  command: string
  setup: string
  /** The production file and its base text. */
  file: string
  base: string
  files: Record<string, string>
  /** The locked tests: strong (the base fails them) or weak (a type check only). */
  tests: (weak: boolean) => Record<string, string>
  link: (repo: TestRepo) => void
  /** A command of the same suite whose test processes the vote's watcher does not reach. */
  unreached?: string
}

const tsImport = (runner: 'vitest' | 'jest'): string =>
  `${runner === 'vitest' ? "import { expect, test } from 'vitest'\n" : ''}import { fee } from '../lib/fee'\n`
const STRONG = `test('free over 100', () => expect(fee({ total: 200 })).toBe(0))
test('five below', () => expect(fee({ total: 10 })).toBe(5))
`
const WEAK = `test('fee is a number', () => expect(typeof fee({ total: 200 })).toBe('number'))\n`

/**
 * jest's TypeScript transform of the repository's own (esbuild, inline source map). Not tsc:
 * a worker that loads the typescript compiler holds tens of thousands of functions, and
 * taking their coverage took 230–280 ms against 65–135 ms here, close to the half second
 * jest gives a worker to exit on a loaded machine (where it was once seen cut off).
 */
const TS_TRANSFORM = `const { transformSync } = require('esbuild')
module.exports = {
  process(src, filename) {
    const out = transformSync(src, { loader: 'ts', format: 'cjs', target: 'es2020', sourcemap: 'inline', sourcefile: filename })
    return { code: out.code }
  }
}
`

const RUNNERS: Runner[] = [
  {
    name: 'vitest (TypeScript, forked pool)',
    command: SUITE_COMMANDS.vitest('oracle'),
    setup: linkSetup('vitest'),
    // Worker threads: the watcher runs in processes only, so the extra run measures.
    unreached: `${SUITE_COMMANDS.vitest('oracle')} --pool=threads`,
    file: 'lib/fee.ts',
    base: BASE_TS,
    files: { 'package.json': '{"type": "module"}\n' },
    tests: weak => ({ 'oracle/fee.test.ts': tsImport('vitest') + (weak ? WEAK : STRONG) }),
    link: repo => linkRunner(repo, 'vitest')
  },
  {
    name: 'jest (TypeScript through esbuild, two workers)',
    // Two workers asked for: on two cores jest would otherwise run in band.
    command: `${SUITE_COMMANDS.jest('oracle')} --maxWorkers=2`,
    setup: `${linkSetup('jest')} && ln -sfn ${packageDir('esbuild')} node_modules/esbuild`,
    file: 'lib/fee.ts',
    base: BASE_TS,
    files: {
      'package.json': '{}\n',
      'jest.config.cjs': `module.exports = { testEnvironment: 'node', transform: { '\\\\.ts$': '<rootDir>/ts-transform.cjs' }, moduleFileExtensions: ['ts', 'js'], testMatch: ['<rootDir>/oracle/**/*.test.ts'] }\n`,
      'ts-transform.cjs': TS_TRANSFORM
    },
    // Two files, so jest runs its workers (child processes) rather than in band.
    tests: weak => ({
      'oracle/fee.test.ts': tsImport('jest') + (weak ? WEAK : STRONG),
      'oracle/more.test.ts': `${tsImport('jest')}test('a fee', () => expect(fee({ total: 50 })).toBeGreaterThan(0))\n`
    }),
    link: repo => {
      linkRunner(repo, 'jest')
      repo.symlink('node_modules/esbuild', packageDir('esbuild'))
    }
  },
  {
    name: 'node:test (ES modules)',
    command: SUITE_COMMANDS.nodeTest('oracle/'),
    setup: '',
    file: 'lib/fee.mjs',
    base: BASE_JS,
    files: { 'package.json': '{"type": "module"}\n' },
    tests: weak => ({
      'oracle/fee.test.mjs': `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fee } from '../lib/fee.mjs'
${
  weak
    ? "test('fee is a number', () => assert.equal(typeof fee({ total: 200 }), 'number'))\n"
    : "test('free over 100', () => assert.equal(fee({ total: 200 }), 0))\ntest('five below', () => assert.equal(fee({ total: 10 }), 5))\n"
}`
    }),
    link: () => {}
  }
]

function policy(r: Runner, mode: string, command = r.command, more = ''): string {
  return `version: 1${more}
protected:
  - oracle/**
planes:
  voting: [oracle/**]
suite:
  command: ${JSON.stringify(command)}
  timeout: 180
  reruns: 0
${r.setup ? `  setup: ${JSON.stringify(r.setup)}\n` : ''}evidence:
  mode: ${mode}
`
}

/** The run-time reach watcher off: the watcher then only relays and measures coverage. */
const NO_REACH = '\nlints:\n  oracle-reach: off'

function buildRepo(r: Runner): TestRepo {
  const repo = new TestRepo('og-evidence-js-')
  repo
    .write({
      '.gitignore': 'node_modules/\n.naive-junit.xml\n',
      '.github/oracle-gate.yml': policy(r, 'report'),
      [r.file]: r.base,
      ...r.files,
      ...r.tests(false)
    })
    .commit('base: fee is wrong')
  repo
    .branch('fix', 'main')
    .write({ [r.file]: fixOf(r.base) })
    .commit('fix')
  repo
    .branch('branch', 'main')
    .write({ [r.file]: branchOf(r.base) })
    .commit('fix and a branch')
  repo
    .branch('main-weak', 'main')
    .write({ '.github/oracle-gate.yml': policy(r, 'enforce'), ...r.tests(true) })
    .commit('a weak oracle, evidence enforced')
  repo
    .branch('weak', 'main-weak')
    .write({ [r.file]: fixOf(r.base) })
    .commit('fix')
  repo
    .branch('main-noreach', 'main')
    .write({ '.github/oracle-gate.yml': policy(r, 'report', r.command, NO_REACH) })
    .commit('coverage without the reach watcher')
  repo
    .branch('fix-noreach', 'main-noreach')
    .write({ [r.file]: fixOf(r.base) })
    .commit('fix')
  if (r.unreached !== undefined) {
    repo
      .branch('main-unreached', 'main')
      .write({ '.github/oracle-gate.yml': policy(r, 'report', r.unreached) })
      .commit('worker threads')
    repo
      .branch('branch-unreached', 'main-unreached')
      .write({ [r.file]: branchOf(r.base) })
      .commit('b')
  }
  repo.checkout('main')
  r.link(repo)
  return repo
}

const survivors = (card: Scorecard): string[] =>
  (card.evidence?.mutants ?? [])
    .filter(m => m.killed_by === null && m.not_run === undefined)
    .map(m => `${m.path}:${m.line} ${m.mutation}`)

for (const r of RUNNERS) {
  describe(`evidence on a real ${r.name} suite`, () => {
    let repo: TestRepo
    let log: string[] = []
    const judge = (head: string, base: string): Promise<Scorecard> => {
      const logger = memoryLogger()
      log = logger.lines
      return check({ repoDir: repo.dir, base, head, today: '2026-12-01', log: logger })
    }
    const inVote = (): string[] => log.filter(l => /coverage measured in the head's vote/.test(l))
    beforeAll(() => {
      repo = buildRepo(r)
    })
    afterAll(() => repo.cleanup())

    it('the base fails its locked tests; the head with the untested branch is green on a naive run', () => {
      expect(naiveRun(repo, r.command).status).toBe(1)
      repo.checkout('branch')
      try {
        const naive = naiveRun(repo, r.command)
        expect(naive.status, naive.output).toBe(0)
      } finally {
        repo.checkout('main')
      }
    })

    it('the fix: its changed line runs under the voting tests (in the vote, no extra run) and its mutant is killed', async () => {
      const card = await judge('fix', 'main')
      expect(card.verdict).toBe('merge')
      const line = lineOf(fixOf(r.base), 'return 0')
      expect(card.evidence).toMatchObject({ changed_lines: 1, covered_lines: 1, uncovered: [] })
      expect(card.evidence?.problems).toBeUndefined()
      expect(card.evidence?.mutants).toEqual([
        expect.objectContaining({
          path: r.file,
          line,
          killed_by: expect.stringMatching(/free over 100/)
        })
      ])
      expect(inVote()).toHaveLength(1)
    })

    it('the fix plus a branch no voting test runs: the throw uncovered at the head’s line, the new condition’s mutant a survivor', async () => {
      const card = await judge('branch', 'main')
      const head = branchOf(r.base)
      const at = (s: string): number => lineOf(head, s)
      expect(card.verdict).toBe('merge')
      expect(card.evidence?.uncovered).toEqual([
        { path: r.file, lines: [at('throw new RangeError')] }
      ])
      expect(card.evidence?.covered_lines).toBe(2)
      expect(survivors(card)).toEqual([`${r.file}:${at('if (total < 0)')} \`<\` → \`<=\``])
      const notice = card.reasons.find(
        r => r.rule === 'weak-evidence' && /no passing/.test(r.message)
      )
      expect(notice).toMatchObject({
        level: 'notice',
        path: r.file,
        line: at('throw new RangeError')
      })
      expect(inVote()).toHaveLength(1)
      // The card (cmark-gfm): the figures, the survivor named once, the uncovered line.
      const html = renderGfm(renderMarkdown(card))
      const section = html.slice(html.indexOf('<h3>Evidence</h3>'))
      const survivor = `${r.file}:${at('if (total < 0)')}`
      expect(section).toContain(
        `2 of 3 changed lines run under the locked tests; 1 of 2 mutants killed; survivor <code>${survivor}</code> <code>&lt;</code> → <code>&lt;=</code>.`
      )
      expect(section.split(survivor)).toHaveLength(2)
      expect(section).toContain(`<code>${r.file}</code> line ${at('throw new RangeError')}`)
    })

    it('a weak oracle (a type check only) under enforce: the fix covered, its mutant survives, weak-evidence is product', async () => {
      const card = await judge('weak', 'main-weak')
      const line = lineOf(fixOf(r.base), 'return 0')
      expect(card.evidence).toMatchObject({ changed_lines: 1, covered_lines: 1 })
      expect(survivors(card)).toEqual([expect.stringMatching(new RegExp(`^${r.file}:${line} `))])
      expect(card.verdict).toBe('product')
      const failure = card.reasons.find(x => x.rule === 'weak-evidence' && x.level === 'failure')
      expect(failure).toMatchObject({ path: r.file, line })
      expect(failure?.message).toMatch(/kill 0 of 1 mutants/)
    })

    it('the reach watcher off: coverage is still measured in the vote, the children’s records relayed', async () => {
      const card = await judge('fix-noreach', 'main-noreach')
      expect(card.verdict).toBe('merge')
      expect(card.evidence).toMatchObject({ changed_lines: 1, covered_lines: 1, uncovered: [] })
      expect(card.evidence?.mutants).toEqual([
        expect.objectContaining({ killed_by: expect.any(String) })
      ])
      expect(log).toContain('watch plan: 1 production file(s) of the patch, for coverage')
      expect(inVote()).toHaveLength(1)
    })

    if (r.unreached !== undefined)
      it('test processes the vote’s watcher does not reach (worker threads): the one extra run measures the same lines', async () => {
        const card = await judge('branch-unreached', 'main-unreached')
        const at = (s: string): number => lineOf(branchOf(r.base), s)
        expect(card.verdict, JSON.stringify(card.reasons)).toBe('merge')
        expect(card.evidence?.uncovered).toEqual([
          { path: r.file, lines: [at('throw new RangeError')] }
        ])
        expect(card.evidence?.covered_lines).toBe(2)
        expect(inVote()).toEqual([])
      })
  })
}
