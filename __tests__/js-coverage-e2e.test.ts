// JavaScript and TypeScript diff coverage end to end (docs/evidence.md): real node:test,
// vitest and jest suites in temporary repositories, one coverage run each through the
// replay's runSuite. A fix whose changed line the tests run is covered; an added branch no
// test runs is uncovered, at the head's line numbers (TypeScript through the runner's
// source map: its type-only lines shift every generated line, so a reading without the map
// would name other lines); lines with no code (a lone brace) are neither.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { GateContext } from '../src/context.js'
import { jsCoverage } from '../src/evidence/js-coverage.js'
import type { LineCoverage } from '../src/evidence/types.js'
import { containRuns } from '../src/replay/contain.js'
import type { FidelitySpec } from '../src/replay/fidelity.js'
import { contextFor } from './helpers/setup-fixture.js'
import { policyYaml, TestRepo } from './helpers/repo.js'
import { linkRunner, packageDir, SUITE_COMMANDS } from './helpers/runners.js'

const repos: TestRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** The base's fee: the bug (1 over 100) and no check of a negative total. */
const FEE_TS_BASE = `/** Delivery fee rules. */
export interface Order {
  total: number
  express?: boolean
}

export type Money = number

export function fee(order: Order): Money {
  const total: number = order.total
  if (total > 100) {
    return 1
  }
  return order.express === true ? 9 : 5
}
`
/** The head's: the fix, and a branch no test runs. */
const FEE_TS_HEAD = FEE_TS_BASE.replace(
  '    return 1\n  }\n',
  "    return 0\n  }\n  if (total < 0) {\n    throw new RangeError('negative total')\n  }\n"
)
/** The same in plain JavaScript (ES modules), for node:test. */
const FEE_JS_BASE = `// Delivery fee rules.
export function fee(order) {
  const total = order.total
  if (total > 100) {
    return 1
  }
  return order.express === true ? 9 : 5
}
`
const FEE_JS_HEAD = FEE_JS_BASE.replace(
  '    return 1\n  }\n',
  "    return 0\n  }\n  if (total < 0) {\n    throw new RangeError('negative total')\n  }\n"
)

/** 1-based number of the one line of `text` holding `snippet`. */
function lineOf(text: string, snippet: string): number {
  const lines = text.split('\n')
  const found = lines.flatMap((l, i) => (l.includes(snippet) ? [i + 1] : []))
  if (found.length !== 1) throw new Error(`${snippet}: ${found.length} lines`)
  return found[0] ?? 0
}

/** The head's changed lines of the fee file (what `git diff -U0` says was added). */
function changedLines(text: string): number[] {
  const first = lineOf(text, 'return 0')
  // return 0, `}`, if (total < 0) {, throw, `}`
  return [first, first + 1, first + 2, first + 3, first + 4]
}

interface Judged {
  coverage: LineCoverage
  text: string
  path: string
}

async function measure(
  repo: TestRepo,
  command: string,
  path: string,
  text: string,
  contained = false,
  lines = changedLines(text)
): Promise<Judged> {
  repo.commit('base')
  repo.write({ [path]: text })
  const head = repo.commit('head: the fix, and a new branch')
  const ctx: GateContext = contextFor(
    repo,
    policyYaml(contained ? 'sandbox: required\n' : '').replace(
      /command: .*/,
      `command: ${JSON.stringify(command)}`
    ),
    {
      mergeBase: head,
      head
    }
  )
  dirs.push(ctx.tempDir)
  if (contained) {
    ctx.containment = await containRuns(ctx, noInstrument())
  }
  const log = join(mkdtempSync(join(tmpdir(), 'og-jscov-log-')), 'coverage.log')
  dirs.push(join(log, '..'))
  const coverage = await jsCoverage(ctx, {
    worktree: repo.dir,
    changed: [{ path, lines }],
    log
  })
  await ctx.git.close()
  return { coverage, text, path }
}

function noInstrument(): FidelitySpec {
  return {
    files: new Map(),
    sections: new Map(),
    deep: ['oracle'],
    shallow: [],
    watched: () => null,
    like: '0'.repeat(40)
  }
}

/** The fix's line and the new condition ran; the throw did not; the braces hold no code. */
function expectFixCoveredBranchNot({ coverage, text, path }: Judged): void {
  const at = (s: string): number => lineOf(text, s)
  expect(coverage.problems).toBeUndefined()
  expect([...(coverage.covered.get(path) ?? [])].sort((a, b) => a - b)).toEqual([
    at('return 0'),
    at('if (total < 0)')
  ])
  expect([...(coverage.executable?.get(path) ?? [])].sort((a, b) => a - b)).toEqual([
    at('return 0'),
    at('if (total < 0)'),
    at('throw new RangeError')
  ])
}

const PROPS_NODE = `import { test } from 'node:test'
import assert from 'node:assert/strict'
import { fee } from '../../lib/fee.mjs'
test('free over 100', () => assert.equal(fee({ total: 200 }), 0))
test('five below', () => assert.equal(fee({ total: 10 }), 5))
`
const PROPS_TS = (runner: 'vitest' | 'jest'): string => `${
  runner === 'vitest' ? "import { expect, test } from 'vitest'\n" : ''
}import { fee } from '../../lib/fee'
test('free over 100', () => expect(fee({ total: 200 })).toBe(0))
test('five below', () => expect(fee({ total: 10 })).toBe(5))
`

function nodeRepo(): TestRepo {
  const repo = new TestRepo('og-jscov-')
  repos.push(repo)
  return repo.write({
    'package.json': '{"type": "module"}\n',
    'lib/fee.mjs': FEE_JS_BASE,
    'oracle/props/fee.test.mjs': PROPS_NODE
  })
}

function vitestRepo(): TestRepo {
  const repo = new TestRepo('og-jscov-')
  repos.push(repo)
  repo.write({
    '.gitignore': 'node_modules/\n',
    'package.json': '{"type": "module"}\n',
    'lib/fee.ts': FEE_TS_BASE,
    'oracle/props/fee.test.ts': PROPS_TS('vitest')
  })
  linkRunner(repo, 'vitest')
  return repo
}

/** jest with a TypeScript transform of the repository's own (tsc, inline source map). */
const TS_TRANSFORM = `const ts = require('typescript')
module.exports = {
  process(src, filename) {
    const out = ts.transpileModule(src, {
      fileName: filename,
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2020, inlineSourceMap: true, inlineSources: true }
    })
    return { code: out.outputText }
  }
}
`

function jestRepo(): TestRepo {
  const repo = new TestRepo('og-jscov-')
  repos.push(repo)
  repo.write({
    '.gitignore': 'node_modules/\n',
    'package.json': '{}\n',
    'jest.config.cjs': `module.exports = { testEnvironment: 'node', transform: { '\\\\.ts$': '<rootDir>/ts-transform.cjs' }, moduleFileExtensions: ['ts', 'js'], testMatch: ['<rootDir>/oracle/**/*.test.ts'] }\n`,
    'ts-transform.cjs': TS_TRANSFORM,
    'lib/fee.ts': FEE_TS_BASE,
    'oracle/props/fee.test.ts': PROPS_TS('jest'),
    // A second file, so jest runs its workers (child processes) rather than in band.
    'oracle/props/more.test.ts': PROPS_TS('jest').replace(/free over 100/, 'more: free')
  })
  linkRunner(repo, 'jest')
  repo.symlink('node_modules/typescript', packageDir('typescript'))
  return repo
}

describe('JavaScript diff coverage through V8, real runners', () => {
  it('node:test (plain ES modules): the fix covered, the new branch not, braces neither', async () => {
    const judged = await measure(
      nodeRepo(),
      SUITE_COMMANDS.nodeTest('oracle/props/'),
      'lib/fee.mjs',
      FEE_JS_HEAD
    )
    expectFixCoveredBranchNot(judged)
  })

  it('vitest on TypeScript (forked pool, stopped by SIGTERM): mapped back to the head’s lines', async () => {
    const judged = await measure(
      vitestRepo(),
      SUITE_COMMANDS.vitest('oracle/props'),
      'lib/fee.ts',
      FEE_TS_HEAD
    )
    expectFixCoveredBranchNot(judged)
  })

  it('vitest on TypeScript inside the sandbox: the run path inside maps back to the worktree', async () => {
    const judged = await measure(
      vitestRepo(),
      SUITE_COMMANDS.vitest('oracle/props'),
      'lib/fee.ts',
      FEE_TS_HEAD,
      true
    )
    expectFixCoveredBranchNot(judged)
  })

  it('vitest in worker threads (terminated: no exit handler runs): V8’s thread dumps and the texts kept at compile time', async () => {
    const judged = await measure(
      vitestRepo(),
      `${SUITE_COMMANDS.vitest('oracle/props')} --pool=threads`,
      'lib/fee.ts',
      FEE_TS_HEAD
    )
    expectFixCoveredBranchNot(judged)
  })

  it('node:test: a changed file no test imports has its code lines uncovered, its comment not counted', async () => {
    const repo = nodeRepo().write({ 'lib/unused.mjs': '// not imported\nexport const x = 1\n' })
    const judged = await measure(
      repo,
      SUITE_COMMANDS.nodeTest('oracle/props/'),
      'lib/unused.mjs',
      '// not imported\nexport const x = 2\nexport const y = 3\n',
      false,
      [1, 2, 3]
    )
    expect(judged.coverage.problems).toBeUndefined()
    expect(judged.coverage.covered.get('lib/unused.mjs')).toEqual(new Set())
    expect(judged.coverage.executable?.get('lib/unused.mjs')).toEqual(new Set([2, 3]))
  })

  it('jest with a TypeScript transform in two workers: mapped back to the head’s lines', async () => {
    const judged = await measure(
      jestRepo(),
      `${SUITE_COMMANDS.jest('oracle/props')} --maxWorkers=2`,
      'lib/fee.ts',
      FEE_TS_HEAD
    )
    // jest SIGKILLs a worker one second after telling it to end; on a loaded machine its
    // take can be cut off. Then the card says so, and no line is claimed that did not run.
    const { problems } = judged.coverage
    if (problems === undefined) return expectFixCoveredBranchNot(judged)
    expect(problems).toEqual([expect.stringMatching(/Node processes .* ended before writing/)])
    const ran = [lineOf(FEE_TS_HEAD, 'return 0'), lineOf(FEE_TS_HEAD, 'if (total < 0)')]
    for (const line of judged.coverage.covered.get('lib/fee.ts') ?? []) expect(ran).toContain(line)
  })

  it('jest in band (one process, its texts read at exit): the same lines', async () => {
    const judged = await measure(
      jestRepo(),
      `${SUITE_COMMANDS.jest('oracle/props')} --runInBand`,
      'lib/fee.ts',
      FEE_TS_HEAD
    )
    expectFixCoveredBranchNot(judged)
  })

  it('a head that litters the coverage folder (a FIFO, a link, garbage): refused by name, no hang, its real lines still measured', async () => {
    const litter = `import { execFileSync } from 'node:child_process'
import { symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { test } from 'node:test'
const dir = process.env.NODE_V8_COVERAGE
test('litters', () => {
  if (!dir) return
  execFileSync('mkfifo', [join(dir, 'coverage-999-1-0.json')])
  writeFileSync(join(dir, 'coverage-998-1-0.json'), 'not json')
  symlinkSync('/etc/passwd', join(dir, 'coverage-997-1-0.json'))
})
`
    const repo = nodeRepo().write({ 'oracle/props/litter.test.mjs': litter })
    const judged = await measure(
      repo,
      SUITE_COMMANDS.nodeTest('oracle/props/'),
      'lib/fee.mjs',
      FEE_JS_HEAD
    )
    expect(judged.coverage.problems?.sort()).toEqual(
      ['997', '998', '999'].map(
        pid =>
          `a coverage file was not V8's (unreadable, too big or of another shape): coverage-${pid}-1-0.json`
      )
    )
    expectFixCoveredBranchNot({ ...judged, coverage: { ...judged.coverage, problems: undefined } })
  })

  it('a head that removes the coverage folder at exit: its lines are not claimed, nothing throws', async () => {
    const remover = `import { rmSync } from 'node:fs'
import { dirname } from 'node:path'
import { test } from 'node:test'
import { fee } from '../../lib/fee.mjs'
test('removes', () => {
  fee({ total: 200 })
  process.on('exit', () => rmSync(dirname(process.env.NODE_V8_COVERAGE ?? '/nonexistent/x'), { recursive: true, force: true }))
})
`
    const repo = nodeRepo().write({ 'oracle/props/fee.test.mjs': remover })
    const { coverage } = await measure(
      repo,
      SUITE_COMMANDS.nodeTest('oracle/props/'),
      'lib/fee.mjs',
      FEE_JS_HEAD
    )
    // The child's coverage is gone with the folder (V8 recreates it for the parent's dump):
    // the line the test ran is not claimed, and nothing throws.
    expect(coverage.covered.get('lib/fee.mjs')).toEqual(new Set())
    expect(coverage.executable?.get('lib/fee.mjs')?.has(lineOf(FEE_JS_HEAD, 'return 0'))).toBe(true)
  })
})
