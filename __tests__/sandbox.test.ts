// Containment end to end (docs/replay.md, Containment), on real runners in real temporary
// repositories: a grandchild in a new session that rewrites the report after the runner
// exited, a product looking for signs that it is measured, a head reaching for the other
// side's worktree, honest patches with background work, test ids holding the cwd, and a
// sandbox that is required but missing. Each attack is shown working where nothing
// contains it (a naive run, or the gate with sandbox: off) before the sandbox stops it.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import { findBwrap, shapedSignals } from '../src/exec/sandbox.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { linkRunner, linkSetup, naiveRun, SUITE_COMMANDS } from './helpers/runners.js'

const PY = pythonWithPytest()
// The interpreter itself, not a launcher: a pyenv shim needs tools a narrowed PATH lacks.
const REAL_PY = execFileSync(PY, ['-c', 'import sys; print(sys.executable)'], {
  encoding: 'utf8'
}).trim()
const repos: TestRepo[] = []
const dirs: string[] = []
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

const failures = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.level === 'failure').map(r => r.rule)

function judge(repo: TestRepo, env: NodeJS.ProcessEnv = process.env): Promise<Scorecard> {
  return check({
    repoDir: repo.dir,
    base: 'main',
    head: 'agent',
    today: '2026-06-01',
    log: memoryLogger(),
    env
  })
}

// oracle-reach would see some of these products in the diff; it is off, standing in for
// code it cannot parse, so that containment alone must hold.
function policy(command: string, extra = '', suite = ''): string {
  return `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/props/**]
lints:
  oracle-reach: off
suite:
  command: ${JSON.stringify(command)}
  timeout: 120
  reruns: 0
${suite}${extra}`
}

const CALC_PY = 'def absval(x):\n    return x  # bug: negatives stay negative\n'
const FIXED_PY = 'def absval(x):\n    return -x if x < 0 else x\n'
const PROPS_PY = `from app import calc


def test_abs_non_negative():
    for x in (-3, 0, 4):
        assert calc.absval(x) >= 0


def test_abs_keeps_positives():
    assert calc.absval(5) == 5
`

function pytestRepo(
  prefix: string,
  command: string,
  files: Record<string, string>,
  opts: { extra?: string; suite?: string; base?: Record<string, string> } = {}
): TestRepo {
  const repo = new TestRepo(prefix)
  repos.push(repo)
  repo.write({
    '.gitignore': '.naive-junit.xml\n__pycache__/\n',
    '.github/oracle-gate.yml': policy(command, opts.extra, opts.suite),
    'oracle/run.sh': `exec ${REAL_PY} -m pytest oracle/props -q -s -p no:cacheprovider --junitxml="$1"\n`,
    'pytest.ini': '[pytest]\npythonpath = .\n',
    'app/__init__.py': '',
    'app/calc.py': CALC_PY,
    'oracle/props/test_calc.py': PROPS_PY,
    ...opts.base
  })
  repo.commit('base')
  repo.branch('agent').write(files).commit('agent patch')
  return repo
}

// A wrapper script names no runner the gate knows, so no canary: the report and the exit
// status are all the gate has, as with any runner it does not know.
const WRAPPED = 'bash oracle/run.sh {junit}'

/**
 * The bug stays. At exit the product starts a grandchild in a new session (holding the
 * runner's output open), makes the runner exit 0, and the grandchild waits until the
 * runner is gone and then takes the failures out of the report (found in the runner's argv).
 */
const REWRITER_PY = `import atexit
import os
import subprocess
import sys


def absval(x):
    return x  # bug: negatives stay negative


_LATER = r'''
import os, re, sys, time
path, parent = sys.argv[1], int(sys.argv[2])
while os.path.exists("/proc/%d" % parent):
    time.sleep(0.02)
time.sleep(0.2)
text = open(path).read()
text = re.sub(r"<failure.*?</failure>", "", text, flags=re.S)
text = re.sub(r'failures="\\\\d+"', 'failures="0"', text)
open(path, "w").write(text)
'''


def _leave_behind():
    for arg in sys.argv:
        if arg.startswith("--junitxml="):
            path = arg.split("=", 1)[1]
            subprocess.Popen([sys.executable, "-c", _LATER, path, str(os.getpid())], start_new_session=True)
            os._exit(0)


atexit.register(_leave_behind)
`

describe('a grandchild in a new session rewrites the report after the runner exited', () => {
  it('works on a naive run and through the gate without a sandbox; the sandbox ends it with the runner', async () => {
    const head = { 'app/calc.py': REWRITER_PY }
    const repo = pytestRepo('og-box-setsid-', WRAPPED, head)
    // Still buggy...
    const out = execFileSync(PY, ['-c', 'from app.calc import absval; print(absval(-3))'], {
      cwd: repo.dir,
      encoding: 'utf8'
    })
    expect(out.trim()).toBe('-3')
    // ...yet a naive run exits 0 and its report is green once the grandchild is done.
    const junit = join(repo.dir, '.naive-junit.xml')
    const naive = naiveRun(repo, WRAPPED, junit)
    expect(naive.status).toBe(0)
    const xml = readFileSync(junit, 'utf8')
    expect(xml).toMatch(/<testcase/)
    expect(xml).not.toMatch(/<failure/)

    // The gate without a sandbox merges the bug.
    const open = await judge(
      pytestRepo('og-box-setsid-', WRAPPED, head, { extra: 'sandbox: off\n' })
    )
    expect(open.sandbox).toMatchObject({ kind: 'none', contained: false, why: 'sandbox: off' })
    expect(open.verdict).toBe('merge')
    expect(open.reasons.map(r => r.message).join('\n')).toMatch(
      /runs not contained \(sandbox: off\)/
    )

    // With the sandbox (the default, auto) the grandchild ends with the runner.
    const boxed = await judge(repo)
    expect(boxed.sandbox).toEqual({
      kind: 'bwrap',
      contained: true,
      shaped: shapedSignals(process.getuid?.() === 0 ? 'host' : 'disk')
    })
    expect(boxed.verdict).toBe('product')
    expect(failures(boxed)).toEqual(['oracle-failed'])
    expect(boxed.runs.map(r => r.exit_code)).toEqual([1, 0])
  })
})

/** Everything a product can see that might tell the gate's run from a developer's. */
const FINGERPRINT_PY = `import json
import os
import re
import tempfile

WORDS = re.compile(r"oracle|gate|wt-|-tmp|junit-|base|head", re.I)


def fingerprint():
    cwd = os.getcwd()
    tmp = tempfile.gettempdir()
    seen = {
        "cwd_name": os.path.basename(cwd),
        "tmp": tmp,
        "home": os.environ.get("HOME"),
        "gate_vars": sorted(k for k in os.environ if WORDS.search(k)),
        "cwd_words": [p for p in cwd.split("/") if WORDS.search(p)],
        "tmp_words": [p for p in tmp.split("/") if WORDS.search(p)],
        "tmp_entries": [e for e in os.listdir(tmp) if WORDS.search(e)],
        "parent_entries": [e for e in os.listdir(os.path.dirname(cwd)) if WORDS.search(e)],
    }
    print("FINGERPRINT " + json.dumps(seen, sort_keys=True), flush=True)


def absval(x):
    return -x if x < 0 else x
`
const FINGERPRINT_TEST = `from app import calc


def test_fingerprint():
    calc.fingerprint()
`

describe('a product looking for signs that it is measured', () => {
  it('sees in the gate run what it sees in a developer run', async () => {
    // The repository's own folder holds nothing with those words (the prefix is neutral).
    const repo = pytestRepo(
      'og-box-fp-',
      WRAPPED,
      { 'app/calc.py': FINGERPRINT_PY },
      {
        base: {
          'app/calc.py': FINGERPRINT_PY.replace('return -x if x < 0 else x', 'return x'),
          'oracle/props/test_fp.py': FINGERPRINT_TEST
        }
      }
    )
    // A developer's shell: no temp folder of its own, no gate variables.
    const devEnv = { ...process.env }
    for (const k of Object.keys(devEnv)) if (/^ORACLE_GATE_|^TMPDIR$/.test(k)) delete devEnv[k]
    const dev = execFileSync(
      'bash',
      ['-c', `${PY} -m pytest oracle/props -q -s -p no:cacheprovider`],
      {
        cwd: repo.dir,
        encoding: 'utf8',
        env: devEnv
      }
    )
    type Seen = Record<string, unknown>
    const seen = (text: string): Seen[] =>
      [...text.matchAll(/FINGERPRINT (\{.*\})/g)].map(m => JSON.parse(m[1] ?? '') as Seen)
    // What the machine's shared folders hold is the machine's, not the run's: compared
    // separately (the gate's run must show none of those words there at all).
    const own = ({ tmp_entries: _t, parent_entries: _p, ...rest }: Seen): Seen => rest
    const [developer] = seen(dev)
    expect(developer).toBeDefined()

    const card = await judge(repo, devEnv)
    expect(card.sandbox?.contained).toBe(true)
    expect(card.verdict).toBe('merge')
    const gate = card.runs.flatMap(r => seen(r.log_tail ?? ''))
    expect(gate).toHaveLength(2) // one per side
    for (const observed of gate) {
      expect(own(observed)).toEqual(own(developer ?? {}))
      expect(observed).toMatchObject({
        cwd_words: [],
        tmp_words: [],
        tmp_entries: [],
        parent_entries: []
      })
      expect(String(observed.gate_vars)).not.toMatch(/ORACLE|GATE/)
    }
  })
})

/** Looks for other checkouts of the project (the other side's) and writes into them. */
const REACHER_PY = `import glob
import os


def reach():
    mine = os.path.realpath(os.getcwd())
    found = set()
    roots = [os.path.dirname(mine), tempfile_dir(), "/tmp"]
    for root in roots:
        for cand in glob.glob(os.path.join(root, "*")) + glob.glob(os.path.join(root, "*", "*")):
            if os.path.exists(os.path.join(cand, "app", "calc.py")) and os.path.realpath(cand) != mine:
                found.add(os.path.realpath(cand))
    for pid in os.listdir("/proc"):
        try:
            cwd = os.path.realpath(os.readlink("/proc/%s/cwd" % pid))
        except OSError:
            continue
        if cwd != mine and os.path.exists(os.path.join(cwd, "app", "calc.py")):
            found.add(cwd)
    wrote = 0
    for other in found:
        try:
            with open(os.path.join(other, "REACHED"), "w") as f:
                f.write("head was here")
            wrote += 1
        except OSError:
            pass
    print("REACHED %d of %d" % (wrote, len(found)), flush=True)


def tempfile_dir():
    import tempfile
    return tempfile.gettempdir()


def absval(x):
    reach()
    return -x if x < 0 else x
`

describe("a head that writes into the other side's worktree", () => {
  const reached = (card: Scorecard): string =>
    card.runs.find(r => r.side === 'head')?.log_tail?.match(/REACHED \d+ of \d+/)?.[0] ?? ''

  it('reaches it without a sandbox, and cannot with parallel sides in separate sandboxes', async () => {
    // Without a sandbox: the gate runs the sides one after the other (parallel is refused),
    // and still the base's worktree is there to write into.
    const head = { 'app/calc.py': REACHER_PY }
    const parallel = '  parallel: true\n'
    const open = await judge(
      pytestRepo('og-box-reach-', WRAPPED, head, { extra: 'sandbox: off\n', suite: parallel })
    )
    expect(reached(open)).toMatch(/^REACHED [1-9]\d* of [1-9]/)
    expect(open.reasons.map(r => r.message).join('\n')).toMatch(
      /suite\.parallel asks the sides to overlap, but without a sandbox .* they ran one after the other/
    )

    // In separate sandboxes the sides run at once, and the head finds nothing.
    const boxed = await judge(pytestRepo('og-box-reach-', WRAPPED, head, { suite: parallel }))
    expect(boxed.sandbox?.contained).toBe(true)
    expect(reached(boxed)).toBe('REACHED 0 of 0')
    expect(boxed.verdict).toBe('merge')
  })
})

describe('honest patches with background work', () => {
  const token = `og-bg-${process.pid}-${Date.now()}`
  const BACKGROUND_PY = `import subprocess
import threading
import time

_done = []


def start_worker():
    threading.Thread(target=lambda: (time.sleep(0.1), _done.append(1)), daemon=False).start()
    subprocess.Popen(["sleep", "300", "${token}"], start_new_session=True)


def absval(x):
    start_worker()
    return -x if x < 0 else x
`
  const alive = (): boolean =>
    readdirSync('/proc').some(pid => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(token)
      } catch {
        return false
      }
    })

  it('merge, and nothing they started outlives the run', async () => {
    const card = await judge(pytestRepo('og-box-bg-', WRAPPED, { 'app/calc.py': BACKGROUND_PY }))
    expect(card.sandbox?.contained).toBe(true)
    expect(failures(card)).toEqual([])
    expect(card.verdict).toBe('merge')
    expect(alive()).toBe(false)
  })
})

// --- vitest: a test id holding the working directory ----------------------------------

const CALC_JS = 'export function absval(x) {\n  return x // bug\n}\n'
const FIXED_JS = 'export function absval(x) {\n  return x < 0 ? -x : x\n}\n'
const PROPS_JS = `import { expect, test } from 'vitest'
import { absval } from '../../lib/calc.mjs'

test('is non-negative', () => {
  for (const x of [-3, 0, 4]) expect(absval(x)).toBeGreaterThanOrEqual(0)
})
test(\`resolves against \${process.cwd()}\`, () => expect(absval(5)).toBe(5))
`

function vitestRepo(extra: string): TestRepo {
  const repo = new TestRepo('og-box-cwd-')
  repos.push(repo)
  const command = SUITE_COMMANDS.vitest('oracle/props')
  repo.write({
    '.gitignore': 'node_modules/\n',
    '.github/oracle-gate.yml': policy(
      command,
      extra,
      `  setup: ${JSON.stringify(linkSetup('vitest'))}\n`
    ),
    'package.json': '{"type": "module"}\n',
    'lib/calc.mjs': CALC_JS,
    'oracle/props/calc.test.ts': PROPS_JS
  })
  repo.commit('base')
  repo.branch('agent').write({ 'lib/calc.mjs': FIXED_JS }).commit('agent fix')
  linkRunner(repo, 'vitest')
  return repo
}

describe('a test id holding the cwd', () => {
  for (const [how, extra, contained] of [
    ['mounted at one path by the sandbox', '', true],
    ['moved to one path without it', 'sandbox: off\n', false]
  ] as const) {
    it(`matches on both sides: ${how}`, async () => {
      const card = await judge(vitestRepo(extra))
      expect(card.sandbox?.contained).toBe(contained)
      expect(failures(card)).toEqual([])
      expect(card.verdict).toBe('merge')
      expect(card.transitions.vanished).toEqual([])
      expect(card.transitions.pass_to_pass).toBe(1)
    })
  }
})

describe('sandbox: required', () => {
  /** A PATH with what the gate and the suite need, and no bwrap. */
  function pathWithoutBwrap(): string {
    const bin = mkdtempSync(join(tmpdir(), 'og-box-path-'))
    dirs.push(bin)
    for (const tool of ['git', 'bash', 'sh', 'env', 'sleep', 'cat', 'ls']) {
      const at = execFileSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim()
      symlinkSync(at, join(bin, tool))
    }
    // The suite's python, by its real path (a pyenv shim would need pyenv on PATH).
    symlinkSync(REAL_PY, join(bin, 'python3'))
    return bin
  }

  it('without bwrap is a gate error; auto runs uncontained and says so', async () => {
    const PATH = pathWithoutBwrap()
    expect(findBwrap(PATH)).toBeNull()
    const env = { ...process.env, PATH }
    const required = await judge(
      pytestRepo(
        'og-box-req-',
        WRAPPED,
        { 'app/calc.py': FIXED_PY },
        { extra: 'sandbox: required\n' }
      ),
      env
    )
    expect(required.verdict).toBe('error')
    expect(required.reasons.map(r => r.message).join('\n')).toMatch(
      /sandbox: required, but bubblewrap \(bwrap\) is not on PATH/
    )

    const auto = await judge(pytestRepo('og-box-req-', WRAPPED, { 'app/calc.py': FIXED_PY }), env)
    expect(auto.sandbox, JSON.stringify(auto.reasons)).toEqual({
      kind: 'none',
      contained: false,
      why: 'bubblewrap (bwrap) is not on PATH'
    })
    expect(auto.verdict).toBe('merge')
    expect(auto.reasons.map(r => r.message).join('\n')).toMatch(/runs not contained/)
  })
})
