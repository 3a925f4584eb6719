// Checkout fidelity (issue 12): the instrument on disk must stay the merge base's through
// the overlay, setup and every run; and PYTHONSAFEPATH keeps a module the head adds at
// the root from shadowing what the locked tests import. Real repositories, real runners:
// each attack is first shown green on a naive run with the bug still in.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { TreeEntry } from '../src/git/git.js'
import { RUNNER_TABLE } from '../src/instrument/runner.js'
import { blobId, checkFidelity, foldCollisions, type FidelitySpec } from '../src/replay/fidelity.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, linkSetup, naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const PY = pythonWithPytest()

const repos: TestRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

async function judge(repo: TestRepo): Promise<Scorecard> {
  const card = await check({ repoDir: repo.dir, base: 'main', head: 'agent', log: memoryLogger() })
  expect(repo.git('worktree', 'list').trim().split('\n')).toHaveLength(1)
  return card
}

const failing = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.level === 'failure').map(r => r.rule)

function repoWith(
  base: Record<string, string>,
  head: Record<string, string>,
  before?: (r: TestRepo) => void
): TestRepo {
  const repo = new TestRepo()
  repos.push(repo)
  repo.write(base)
  before?.(repo)
  repo.commit('base')
  repo.branch('agent')
  repo.write(head)
  repo.commit('agent patch')
  return repo
}

// ------------------------------------------------- pytest: a setup step rewrites a fixture

const RECEIPT = `def receipt(amounts):
    return ";".join(str(a) for a in amounts)  # bug: negative amounts are printed as-is
`
const RECEIPT_FIXED = `def receipt(amounts):
    return ";".join(str(max(a, 0)) for a in amounts)
`
const GOLDEN_ORACLE = `from pathlib import Path

from app.receipt import receipt

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "receipt.txt"


def test_receipt_matches_the_golden_file():
    assert receipt([3, -2, 5]) == GOLDEN.read_text().strip()
`
const BUILD = 'mkdir -p build && echo built > build/stamp.txt\n'
const PYTEST = SUITE_COMMANDS.pytest(PY, 'oracle/properties')

function pytestPolicy(extra = ''): string {
  return `version: 1
# The instrument's write is stopped by the sandbox's read-only mount first; these tests
# show the fidelity check behind it, so they run without one (docs/replay.md, Containment).
sandbox: off
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
  in_diff: [tests/**]
suite:
  command: ${PYTEST}
  setup: sh scripts/build.sh
  timeout: 120
  reruns: 1
${extra}`
}

const pytestBase = (extra = ''): Record<string, string> => ({
  '.github/oracle-gate.yml': pytestPolicy(extra),
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'scripts/build.sh': BUILD,
  'app/__init__.py': '',
  'app/receipt.py': RECEIPT,
  'oracle/fixtures/receipt.txt': '3;0;5\n',
  'oracle/properties/test_receipt.py': GOLDEN_ORACLE
})

describe('checkout fidelity: setup and runs cannot rewrite the instrument', () => {
  it('a setup step that rewrites the golden fixture: green naively, oracle-digest (setup) at the gate', async () => {
    const repo = repoWith(pytestBase(), {
      // The head's own build script (not instrument) "regenerates" the golden file.
      'scripts/build.sh': `${BUILD}${PY} -c "import sys; sys.path.insert(0, '.'); from app.receipt import receipt; open('oracle/fixtures/receipt.txt', 'w').write(receipt([3, -2, 5]))"\n`
    })
    const naive = naiveRun(repo, `sh scripts/build.sh && ${PYTEST}`)
    expect(naive.status).toBe(0)
    expect(naive.output).toMatch(/1 passed/)
    repo.git('checkout', '--', '.') // the naive run rewrote the checkout's fixture

    const card = await judge(repo)
    expect(card.verdict).toBe('policy')
    expect(failing(card)).toEqual(['oracle-digest'])
    const reason = card.reasons.find(r => r.rule === 'oracle-digest')
    expect(reason?.path).toBe('oracle/fixtures/receipt.txt')
    expect(reason?.message).toContain('head worktree after setup')
    expect(reason?.message).toContain("differs from the merge base's blob")
  })

  it('near miss: an honest fix whose setup writes more build output elsewhere merges', async () => {
    const repo = repoWith(pytestBase(), {
      'app/receipt.py': RECEIPT_FIXED,
      'scripts/build.sh': `${BUILD}mkdir -p build/assets && echo css > build/assets/site.css\n`
    })
    const card = await judge(repo)
    expect(failing(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(card.transitions.fail_to_pass).toEqual([
      'oracle/properties/test_receipt.py::test_receipt_matches_the_golden_file'
    ])
  })

  it('a product that adds a conftest.py to the voting folder during the run: oracle-digest (run) names it', async () => {
    // On import the head's product drops a conftest.py that turns failures into passes;
    // the first run still fails, the rerun would pass.
    const repo = repoWith(pytestBase(), {
      'app/receipt.py': `${RECEIPT}
from pathlib import Path as _P

_P(__file__).resolve().parents[1].joinpath("oracle/properties/conftest.py").write_text(
    "import pytest\\n\\n@pytest.hookimpl(hookwrapper=True)\\ndef pytest_runtest_makereport(item, call):\\n    outcome = yield\\n    outcome.get_result().outcome = 'passed'\\n"
)
`
    })
    const naive = naiveRun(repo, `${PYTEST}; ${PYTEST}`)
    expect(naive.status).toBe(0)
    expect(naive.output).toMatch(/1 failed[\s\S]*1 passed/)
    repo.remove('oracle/properties/conftest.py')

    const card = await judge(repo)
    expect(card.verdict).toBe('policy')
    const reason = card.reasons.find(r => r.rule === 'oracle-digest')
    expect(reason?.path).toBe('oracle/properties/conftest.py')
    expect(reason?.message).toContain('head worktree after a run of the suite')
    expect(reason?.message).toContain('appeared')
  })
})

// ------------------------------------------------- vitest: the product rewrites a fixture

const TAX = `export function tax(amount) {
  return Math.round(amount * 0.2) // bug: a negative amount is taxed
}
`
const TAX_ORACLE = `import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'
import { tax } from '../../src/tax.js'

test('taxes match the golden table', () => {
  const golden = JSON.parse(readFileSync(new URL('../fixtures/tax.json', import.meta.url), 'utf8'))
  for (const [amount, expected] of golden) expect(tax(amount)).toBe(expected)
})
`
const VITEST = SUITE_COMMANDS.vitest('oracle/properties')

const vitestBase = (): Record<string, string> => ({
  '.gitignore': 'node_modules/\nbuild/\n',
  'package.json': '{"name": "tax", "private": true, "type": "module"}\n',
  '.github/oracle-gate.yml': `version: 1
# The instrument's write is stopped by the sandbox's read-only mount first; these tests
# show the fidelity check behind it, so they run without one (docs/replay.md, Containment).
sandbox: off
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
suite:
  command: ${VITEST}
  setup: ${linkSetup('vitest')}
  timeout: 120
  reruns: 0
`,
  'src/tax.js': TAX,
  'oracle/fixtures/tax.json': '[[100, 20], [-50, 0]]\n',
  'oracle/properties/tax.test.js': TAX_ORACLE
})

describe('checkout fidelity with vitest', () => {
  it('a product that rewrites the golden table when imported: green naively, oracle-digest (run)', async () => {
    const repo = repoWith(
      vitestBase(),
      {
        'src/tax.js': `import { writeFileSync } from 'node:fs'
${TAX}
writeFileSync(new URL('../oracle/fixtures/tax.json', import.meta.url), JSON.stringify([[100, 20], [-50, -10]]))
`
      },
      r => linkRunner(r, 'vitest')
    )
    const naive = naiveRun(repo, VITEST)
    expect(naive.status).toBe(0)
    repo.git('checkout', '--', '.')

    const card = await judge(repo)
    expect(card.verdict).toBe('policy')
    // The fidelity check finds the rewritten table; the node watcher (issue 26) also names
    // the patch's line that wrote it, at run time.
    expect(failing(card)).toEqual(['oracle-digest', 'oracle-reach'])
    const reason = card.reasons.find(r => r.rule === 'oracle-digest')
    expect(reason?.path).toBe('oracle/fixtures/tax.json')
    expect(reason?.message).toContain('head worktree after a run of the suite')
    const reach = card.reasons.find(r => r.rule === 'oracle-reach')
    expect(reach?.message).toMatch(/at run time/)
    expect(reach?.path).not.toMatch(/^oracle\//)
  })

  it('near miss: an honest fix that writes a cache file outside the instrument merges', async () => {
    const repo = repoWith(
      vitestBase(),
      {
        'src/tax.js': `import { mkdirSync, writeFileSync } from 'node:fs'

export function tax(amount) {
  return amount < 0 ? 0 : Math.round(amount * 0.2)
}

mkdirSync(new URL('../build/', import.meta.url), { recursive: true })
writeFileSync(new URL('../build/tax-cache.json', import.meta.url), '{}')
`
      },
      r => linkRunner(r, 'vitest')
    )
    const card = await judge(repo)
    expect(failing(card)).toEqual([])
    expect(card.verdict).toBe('merge')
  })
})

// ------------------------------------------------- PYTHONSAFEPATH

const AVERAGE = `def average_fee(fees):
    return sum(fees) // len(fees)  # bug: floor division
`
// The locked test appends src/ to sys.path: with the current directory first on sys.path
// (python -m pytest), a fees.py at the root is imported instead of the product.
const AVERAGE_ORACLE = `import sys
from fractions import Fraction
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[2] / "src"))

from fees import average_fee  # noqa: E402


def test_average_is_exact():
    assert average_fee([1, 2]) == Fraction(3, 2)
`

describe('PYTHONSAFEPATH', () => {
  // The head leaves the product as it is and adds a stand-in at the root that the locked
  // test picks up through the current directory; what ships (src/fees.py) keeps the bug.
  const shadowed = (mark: string, extra = ''): TestRepo =>
    repoWith(
      {
        '.github/oracle-gate.yml': `version: 1
# The instrument's write is stopped by the sandbox's read-only mount first; these tests
# show the fidelity check behind it, so they run without one (docs/replay.md, Containment).
sandbox: off
protected: [oracle/**]
planes:
  voting: [oracle/properties/**]
suite:
  command: ${PYTEST}
  timeout: 120
  reruns: 0
${extra}`,
        'src/fees.py': AVERAGE,
        'oracle/properties/test_average.py': AVERAGE_ORACLE
      },
      {
        'fees.py': `from fractions import Fraction\n\nopen(${JSON.stringify(mark)}, "w").write("loaded")\n\n\ndef average_fee(fees):\n    return Fraction(sum(fees), len(fees))\n`
      }
    )

  it('a head-added root module that shadows what the locked test imports is not loaded', async () => {
    const mark = join(mkdtempSync(join(tmpdir(), 'og-mark-')), 'loaded')
    dirs.push(join(mark, '..'))
    const repo = shadowed(mark)
    const naive = naiveRun(repo, PYTEST)
    expect(naive.status).toBe(0)
    expect(existsSync(mark)).toBe(true)
    rmSync(mark)

    const card = await judge(repo)
    expect(existsSync(mark)).toBe(false)
    expect(card.verdict).toBe('product')
    expect(failing(card)).toEqual(['oracle-failed'])
  })

  it('with suite.python_safe_path: false the current directory is on sys.path again (the switch is what closes it)', async () => {
    const mark = join(mkdtempSync(join(tmpdir(), 'og-mark-')), 'loaded')
    dirs.push(join(mark, '..'))
    const repo = shadowed(mark, '  python_safe_path: false\n')
    const card = await judge(repo)
    expect(existsSync(mark)).toBe(true)
    expect(card.verdict).toBe('merge')
  })
})

// ------------------------------------------------- pure parts

describe('fidelity helpers', () => {
  it('blobId hashes bytes as git does, without filters', () => {
    const repo = repoWith({ 'a.txt': 'hello\r\n' }, {})
    expect(blobId(Buffer.from('hello\r\n'), '0'.repeat(40))).toBe(
      repo.git('rev-parse', 'main:a.txt').trim()
    )
  })

  it('checkFidelity on a real checkout: filtered bytes, a changed mode, a missing file, an appeared file, a section part', async () => {
    const repo = repoWith(
      {
        '.gitattributes': 'oracle/fixtures/*.txt text eol=crlf\n',
        'oracle/fixtures/a.txt': 'one\ntwo\n',
        'oracle/run.sh': 'echo run\n',
        'oracle/gone.txt': 'x\n',
        'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n'
      },
      {}
    )
    const entries = new Map(
      repo
        .git('ls-tree', '-r', 'main')
        .trim()
        .split('\n')
        .map(line => {
          const [meta = '', path = ''] = line.split('\t')
          const [mode = '', , sha = ''] = meta.split(' ')
          return [path, { mode, sha }] as const
        })
    )
    const pyproject = RUNNER_TABLE.find(e => e.names.includes('pyproject.toml'))
    if (!pyproject?.part) throw new Error('no pyproject entry')
    const files = new Map([...entries].filter(([p]) => p.startsWith('oracle/')))
    const spec: FidelitySpec = {
      files,
      sections: new Map([
        [
          'pyproject.toml',
          {
            entry: pyproject,
            part:
              pyproject.part.extract(readFileSync(join(repo.dir, 'pyproject.toml'), 'utf8')) ?? ''
          }
        ]
      ]),
      deep: ['oracle'],
      shallow: [''],
      watched: p => (p.startsWith('oracle/') ? 'file' : p === 'pyproject.toml' ? pyproject : null),
      like: '0'.repeat(40)
    }
    // A fresh checkout applies eol=crlf: the file on disk is not the blob.
    rmSync(join(repo.dir, 'oracle/fixtures/a.txt'))
    repo.git('checkout', '--', 'oracle/fixtures/a.txt')
    expect(readFileSync(join(repo.dir, 'oracle/fixtures/a.txt'), 'utf8')).toBe('one\r\ntwo\r\n')
    const first = await checkFidelity(spec, repo.dir, { side: 'head', moment: 'overlay' })
    expect(
      first.map(r => [r.path, r.message.includes('head worktree after the instrument overlay')])
    ).toEqual([['oracle/fixtures/a.txt', true]])
    writeFileSync(join(repo.dir, 'oracle/fixtures/a.txt'), 'one\ntwo\n')
    chmodSync(join(repo.dir, 'oracle/run.sh'), 0o755)
    rmSync(join(repo.dir, 'oracle/gone.txt'))
    writeFileSync(join(repo.dir, 'oracle/new_conftest.py'), '')
    writeFileSync(
      join(repo.dir, 'pyproject.toml'),
      '[project]\nname = "y"\n\n[tool.pytest.ini_options]\naddopts = "-q -p no:x"\n'
    )
    const later = await checkFidelity(spec, repo.dir, { side: 'base', moment: 'run' })
    expect(later.map(r => [r.path, r.message.replace(/.*: \S+ /, '')])).toEqual([
      ['oracle/gone.txt', expect.stringMatching(/^is missing/)],
      ['oracle/run.sh', expect.stringMatching(/^has mode 100755, not 100644/)],
      ['pyproject.toml', expect.stringMatching(/^has a different \[tool.pytest/)],
      ['oracle/new_conftest.py', expect.stringMatching(/^appeared/)]
    ])
    expect(later.every(r => r.message.startsWith('base worktree after a run of the suite'))).toBe(
      true
    )
    // A dependency change outside the runner part is fine.
    writeFileSync(
      join(repo.dir, 'pyproject.toml'),
      '[project]\nname = "z"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n'
    )
    const quiet = await checkFidelity(spec, repo.dir, { side: 'base', moment: 'run' })
    expect(quiet.map(r => r.path)).not.toContain('pyproject.toml')
  })

  it('foldCollisions: a head path that is an instrument path on macOS is named; a new product file is not', () => {
    const entry = (path: string): [string, TreeEntry] => [
      path,
      { path, mode: '100644', type: 'blob', sha: '0'.repeat(40) }
    ]
    const base = new Map([entry('oracle/properties/test_x.py'), entry('src/app.py')])
    const head = new Map([
      ...base,
      entry('Oracle/properties/conftest.py'),
      entry('oracle/properties/TEST_X.py'),
      entry('src/new.py'),
      entry('Src/other.py')
    ])
    const spec: Pick<FidelitySpec, 'files' | 'watched'> = {
      files: new Map([['oracle/properties/test_x.py', { mode: '100644', sha: '0'.repeat(40) }]]),
      watched: p => (p.startsWith('oracle/') ? 'file' : null)
    }
    const reasons = foldCollisions(spec as FidelitySpec, base, head)
    expect(reasons.map(r => r.path)).toEqual([
      'Oracle/properties/conftest.py',
      'oracle/properties/TEST_X.py'
    ])
    expect(reasons.every(r => r.rule === 'oracle-digest' && r.level === 'failure')).toBe(true)
    expect(reasons[0]?.message).toContain('oracle/properties/conftest.py on a case-insensitive')
  })
})
