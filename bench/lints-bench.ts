// A reusable measurement for bench/: builds a throw-away repository whose head changes
// `files` source files (a mix of Python, JavaScript, TypeScript and TSX, production and
// tests, some tests repeating production literals and some importing an LLM client), runs
// the lints on it and reports the wall-clock time. Not used by the gate itself.
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { runFacts, type GateContext } from '../src/context.js'
import { Git } from '../src/git/git.js'
import { parsePolicy } from '../src/policy/load.js'
import { EMPTY_LEDGER } from '../src/ledger/index.js'
import { runLints } from '../src/lints/index.js'
import type { LintKey } from '../src/lints/registry.js'
import type { Logger, Reason } from '../src/types.js'
import { classifyChange } from '../src/writeset/classify.js'
import type { ClassifiedRow } from '../src/writeset/index.js'

export interface LintBenchResult {
  files: number
  bytes: number
  lint_ms: number
  /** CPU time of this process during the lint (user + system): wall time minus waiting. */
  lint_cpu_ms: number
  reasons: number
  failures: number
  log: string[]
}

const POLICY = `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  drafts: []
  in_diff: [tests/**]
suite:
  command: "true"
`

const EXTENSIONS = ['py', 'js', 'ts', 'tsx'] as const

/**
 * `copyEvery`: one test file in that many (counted over all files) repeats the literals of
 * the production file before it; 0 for none. The default (10) makes half the test files
 * copy, the worst case: every such file's base version is parsed too.
 */
export async function benchmarkLints(
  files = 5000,
  copyEvery = 10,
  packed = true,
  lints: LintKey[] = ['judge-import', 'literal-overlap']
): Promise<LintBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'og-lint-bench-'))
  const git = (...args: string[]): string =>
    execFileSync('git', args, {
      cwd: dir,
      encoding: 'utf8',
      maxBuffer: 1 << 30,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'b',
        GIT_AUTHOR_EMAIL: 'b@example.invalid',
        GIT_COMMITTER_NAME: 'b',
        GIT_COMMITTER_EMAIL: 'b@example.invalid'
      }
    })
  try {
    git('init', '-q', '-b', 'main')
    // No automatic gc in the background of the measurement (it starts after large commits).
    git('config', 'gc.auto', '0')
    const paths = Array.from({ length: files }, (_, i) => pathOf(i))
    let bytes = 0
    const writeAll = (version: number): void => {
      for (const [i, path] of paths.entries()) {
        const text = sourceOf(path, i, version, copyEvery)
        if (version === 1) bytes += Buffer.byteLength(text)
        mkdirSync(dirname(join(dir, path)), { recursive: true })
        writeFileSync(join(dir, path), text)
      }
      git('add', '-A')
      git('commit', '-q', '-m', `v${version}`)
    }
    writeAll(0)
    const mergeBase = git('rev-parse', 'HEAD').trim()
    writeAll(1)
    const head = git('rev-parse', 'HEAD').trim()
    // A checkout on a runner comes from a clone, whose objects are packed; 20,000 loose
    // objects would measure the file system instead of the lints.
    if (packed) git('gc', '-q')

    const policy = parsePolicy(POLICY, '.github/oracle-gate.yml')
    const repoGit = new Git(dir, process.env)
    const facts = runFacts(repoGit, policy)
    const { planes } = facts
    const writeSet: ClassifiedRow[] = paths.map(path => ({
      path,
      status: 'modified',
      plane: planes.planeOf(path),
      action: 'continue',
      classification: classifyChange(
        { path, status: 'modified' },
        { planes, ungovernedTest: policy.lints['ungoverned-test'] }
      )
    }))
    const lines: string[] = []
    const log: Logger = {
      info: m => void lines.push(m),
      warning: m => void lines.push(m),
      group: (_n, fn) => fn()
    }
    const tempDir = join(dir, '.tmp')
    mkdirSync(tempDir)
    const ctx: GateContext = {
      ...facts,
      repoDir: dir,
      git: repoGit,
      policy,
      mergeBase,
      head,
      today: '2026-01-01',
      log,
      writeSet,
      childEnv: {},
      tempDir
    }
    const started = performance.now()
    const cpu = process.cpuUsage()
    const reasons: Reason[] = await runLints(ctx, EMPTY_LEDGER, lints)
    const lint_ms = Math.round(performance.now() - started)
    const used = process.cpuUsage(cpu)
    const lint_cpu_ms = Math.round((used.user + used.system) / 1000)
    return {
      files,
      bytes,
      lint_ms,
      lint_cpu_ms,
      reasons: reasons.length,
      failures: reasons.filter(r => r.level === 'failure').length,
      log: lines
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Every fifth file a test; languages in turn. */
function pathOf(i: number): string {
  const ext = EXTENSIONS[i % EXTENSIONS.length] as string
  const isTest = i % 5 === 0
  const dir = `pkg${Math.floor(i / 100)}`
  if (!isTest) return `src/${dir}/mod${i}.${ext}`
  return ext === 'py' ? `tests/${dir}/test_mod${i}.py` : `src/${dir}/mod${i}.test.${ext}`
}

/** About 3 KB of code with a dozen literals; version 1 adds a literal per function. */
function sourceOf(path: string, i: number, version: number, copyEvery: number): string {
  const isTest = path.includes('test')
  const py = path.endsWith('.py')
  const out: string[] = []
  if (isTest && i % 50 === 0) out.push(py ? 'import openai' : "import OpenAI from 'openai'")
  for (let f = 0; f < 20; f++) {
    // Tests repeat the added literal of the production file just before them (one in ten).
    const literal =
      isTest && copyEvery > 0 && i % copyEvery === 0
        ? `added message ${i - 1} ${f} v${version}`
        : `message ${i} ${f} v${version}`
    if (py) {
      out.push(
        `def f${f}(x):\n    """Function ${f} of module ${i}."""\n    if x > ${f}:\n        raise ValueError(f"bad {x} in f${f}")`
      )
      out.push(`    return {"key_${f}": "${literal}", "n": x + ${f}}\n`)
    } else {
      out.push(
        `/** Function ${f} of module ${i}. */\nexport function f${f}(x${path.endsWith('.js') ? '' : ': number'}) {`
      )
      out.push(
        `  if (x > ${f}) throw new Error(\`bad \${x} in f${f}\`)\n  return { key${f}: '${literal}', n: x + ${f} }\n}\n`
      )
    }
  }
  return out.join('\n')
}
