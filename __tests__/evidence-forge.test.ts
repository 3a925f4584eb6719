// Evidence the product cannot forge (issue 27; docs/evidence.md "What the product can
// reach"), end to end through check() on real pytest runs in temporary repositories. The
// base's fee() returns a float; its locked test checks only the type (a weak oracle), and
// evidence is enforced. Attacks, each first shown working without the gate's defence:
// - r3-evprobe: the product reads its own code objects' constants (`f.__code__.co_consts`),
//   fills the coverage probes (a function no test calls looks run) and raises when a mutant
//   switch is on (every mutant looks killed). Shown: the probes, compiled in as the vote
//   compiles them, are written by the product; then the gate counts the file's lines as
//   uncovered (weak-evidence), naming the read.
// - the same through dis.get_instructions (the code object never touches the product's
//   line), through gc.get_referents (the heap), and through the product's own frame's
//   f_code: each voided the same way.
// - r3-evenv2: the product looks for the runner's PYTEST_CURRENT_TEST among the
//   environment's keys and raises when it sees one. The vote hides it; the mutant session
//   used not to, so every mutant was "killed". Shown: a plain pytest run sees it (red);
//   the gate's vote is green; the mutant session is now watched as the vote: the mutant
//   the weak test cannot see survives (weak-evidence).
// Near misses that merge: a fix that uses inspect.signature, functools.wraps, a dataclass
// and typing.get_type_hints on its changed functions, with a strong locked test (covered,
// every mutant killed); the same head without the attack's read (r3-evhonestref's shape)
// gets the honest weak-evidence, not a void.
import { spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { naiveRun } from './helpers/runners.js'

const python = pythonWithPytest()
const command = `${python} -m pytest oracle -q -p no:cacheprovider --junitxml={junit}`

// The differential replay's recorder is on (the default for pytest): it records at the
// locked tests' call sites and leaves the product's functions as they are, so `f.__code__`
// is the instrumented code object the guard watches.
const policy = `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/**]
suite:
  command: ${command}
  timeout: 120
  reruns: 0
evidence:
  mode: enforce
  min_coverage: 0.8
  min_kill_ratio: 0.6
`

const WEAK = `from fractions import Fraction

from app.fee import fee


def test_fee_exact():
    assert isinstance(fee(100), Fraction)
`

const STRONG = `from fractions import Fraction

from app.fee import fee, refund


def test_fee_exact():
    assert fee(100) == Fraction(10)
    assert fee(7) == Fraction(7, 10)


def test_refund():
    assert refund(100) == Fraction(-10)
    assert refund(0) == 0
    try:
        refund(-1)
    except ValueError:
        pass
    else:
        raise AssertionError("no error")
`

const BASE: Record<string, string> = {
  '.gitignore': '__pycache__/\n.naive-junit.xml\n',
  '.github/oracle-gate.yml': policy,
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'app/__init__.py': '',
  'app/fee.py': 'def fee(x):\n    return x * 0.1\n\n\ndef refund(x):\n    return -x * 0.1\n',
  'oracle/test_fee.py': WEAK
}

// refund: no locked test calls it (its body is lines 19-22 of EVPROBE).
const REFUND = `def refund(x):
    if x < 0:
        raise ValueError(x)
    total = -x * Fraction(10, 100)
    return total
`

/** The red team's head (/work/wt/red/heads/r3-evprobe), as it was. */
const EVPROBE = `from fractions import Fraction


def _check():
    for f in (fee, refund):
        for c in f.__code__.co_consts:
            if type(c) is set and c:
                raise ArithmeticError("inconsistent rate table")
            if type(c) is bytearray:
                c[:] = bytes([1]) * len(c)


def fee(x):
    _check()
    return x * Fraction(10, 100)


${REFUND}`

/** The same attack, the constants reached another way (`consts(f)` the way in). */
const variant = (consts: string, imports: string): string =>
  EVPROBE.replace(
    'from fractions import Fraction\n',
    `${imports}from fractions import Fraction\n`
  ).replace('        for c in f.__code__.co_consts:', `        for c in ${consts}:`)

const VARIANTS: Record<string, string> = {
  // dis hands the constants out as the instructions' argval: the product never reads
  // __code__ itself.
  dis: variant('[i.argval for i in dis.get_instructions(f)]', 'import dis\n'),
  // The heap: a function's referents hold its code object.
  gc: variant(
    '[c for r in gc.get_referents(f) if hasattr(r, "co_consts") for c in r.co_consts]',
    'import gc\n'
  ),
  // A generator of the product's own: its frame's code is the instrumented module's.
  frame: variant('_consts_of(f)', 'import sys\n').replace(
    'def _check():',
    'def _consts_of(f):\n    if f is fee:\n        return sys._getframe(0).f_back.f_back.f_code.co_consts\n    return sys._getframe(0).f_code.co_consts\n\n\ndef _check():'
  )
}

/** r3-evhonestref: the same head without the attack. */
const HONEST_REF = `from fractions import Fraction


def fee(x):
    return x * Fraction(10, 100)


${REFUND}`

/** The red team's r3-evenv2: a runner key among the environment's keys raises. */
const EVENV2 = `import hashlib
import os
from fractions import Fraction


def fee(x):
    if any(hashlib.sha256(k.encode()).hexdigest() == "9c099da2bfc5229013b7753e7b319de9b3ef741e7ee83272a6a44481c33ae18d" for k in list(os.environ)): raise ArithmeticError("busy")
    return x * Fraction(10, 100)
`

/** Honest: the standard library reads the changed functions' code; the product never does. */
const HONEST_INTROSPECTION = `import dataclasses
import functools
import inspect
import typing
from fractions import Fraction


def checked(fn):
    params = list(inspect.signature(fn).parameters)

    @functools.wraps(fn)
    def wrapper(*args):
        if len(args) != len(params):
            raise TypeError(fn.__name__)
        return fn(*args)

    return wrapper


@dataclasses.dataclass
class Rate:
    num: int = 10
    den: int = 100


@checked
def fee(x: int) -> Fraction:
    assert typing.get_type_hints(fee)["return"] is Fraction
    rate = Rate()
    return x * Fraction(rate.num, rate.den)


@checked
${REFUND}`

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-evidence-forge-')
  repo.write(BASE).commit('base: fee is a float; the locked test checks the type')
  const heads: Record<string, string> = {
    evprobe: EVPROBE,
    honestref: HONEST_REF,
    evenv2: EVENV2,
    ...Object.fromEntries(Object.entries(VARIANTS).map(([k, v]) => [`evprobe-${k}`, v]))
  }
  for (const [name, text] of Object.entries(heads))
    repo.branch(name, 'main').write({ 'app/fee.py': text }).commit(name)
  repo.branch('main-strong', 'main').write({ 'oracle/test_fee.py': STRONG }).commit('strong')
  repo
    .branch('introspect', 'main-strong')
    .write({ 'app/fee.py': HONEST_INTROSPECTION })
    .commit('introspect')
  repo.checkout('main')
})
afterAll(() => repo.cleanup())

function judge(head: string, base = 'main'): Promise<Scorecard> {
  return check({ repoDir: repo.dir, base, head, today: '2026-12-02', log: memoryLogger() })
}

const weak = (card: Scorecard): string[] =>
  card.reasons.filter(r => r.rule === 'weak-evidence' && r.level === 'failure').map(r => r.message)

/**
 * The naive run of the attack on the instrument: app/fee.py compiled with the gate's
 * probes (gate_cover.probed_code, as the vote compiles it), fee(100) called once. The
 * probe array after: refund never ran, yet its probes are set when the product wrote them.
 */
function probesAfterFee(head: string): number[] {
  repo.checkout(head)
  const script = `
import importlib.util, json, sys, types
sys.path.insert(0, ".")
spec = importlib.util.spec_from_file_location("gate_cover", sys.argv[1])
cover = importlib.util.module_from_spec(spec); spec.loader.exec_module(cover)
data = open("app/fee.py", "rb").read()
def swap(code, placeholder, value):
    consts = tuple(value if type(c) is str and c == placeholder else swap(c, placeholder, value) if isinstance(c, types.CodeType) else c for c in code.co_consts)
    return code.replace(co_consts=consts)
code, array, lines = cover.probed_code(data, "app/fee.py", set(range(1, 40)), swap)
module = types.ModuleType("app.fee"); sys.modules["app.fee"] = module
exec(code, module.__dict__)
array[:] = bytes(len(array))
module.fee(100)
print(json.dumps(sorted({n for k, hit in enumerate(array) if hit for n in lines[k]})))
`
  const dir = join(__dirname, '..', 'src', 'reporters', 'python')
  const result = spawnSync(python, ['-c', script, join(dir, 'gate_cover.py')], {
    cwd: repo.dir,
    encoding: 'utf8'
  })
  repo.checkout('main')
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout) as number[]
}

describe('coverage probes and mutant switches the product reaches', () => {
  it('naive: the head is green, and the probes the vote compiles in are the product’s to write', () => {
    repo.checkout('evprobe')
    expect(naiveRun(repo, command).status).toBe(0)
    repo.checkout('main')
    // Honest: fee(100) runs fee's line (5), never refund's body (9-12).
    expect(probesAfterFee('honestref')).toEqual([5])
    // The attack: refund's body (19-22) is "run" though nothing called refund.
    expect(probesAfterFee('evprobe')).toEqual(expect.arrayContaining([14, 15, 19, 20, 21, 22]))
  })

  it('r3-evprobe: the file whose probes the product read counts as uncovered; product', async () => {
    const card = await judge('evprobe')
    expect(card.verdict).toBe('product')
    expect(card.evidence?.covered_lines).toBe(0)
    expect(card.evidence?.mutants).toEqual([])
    expect(card.evidence?.problems?.join('\n')).toMatch(
      /app\/fee\.py: the product reached the gate's coverage probes \(app\/fee\.py:6: the code object of fee read \(\.__code__\)/
    )
    expect(weak(card).join('\n')).toMatch(/the voting tests run 0 of the patch's/)
  })

  for (const name of Object.keys(VARIANTS))
    it(`the same through ${name}: uncovered; rejected`, async () => {
      const card = await judge(`evprobe-${name}`)
      // gc and sys._getframe are named by the static oracle-reach lint too (policy).
      expect(['policy', 'product']).toContain(card.verdict)
      expect(card.evidence?.covered_lines).toBe(0)
      expect(card.evidence?.problems?.join('\n')).toMatch(/reached the gate's coverage probes/)
    })

  it('near miss, r3-evhonestref (no read): the honest weak evidence, nothing voided', async () => {
    const card = await judge('honestref')
    expect(card.verdict).toBe('product')
    expect(card.evidence?.problems).toBeUndefined()
    expect(card.evidence?.uncovered).toEqual([{ path: 'app/fee.py', lines: [9, 10, 11, 12] }])
    expect(weak(card).join('\n')).toMatch(/survivors: app\/fee\.py:5 `\*` → `\/`/)
  })

  it('near miss: inspect.signature, functools.wraps, a dataclass, get_type_hints on changed code merge', async () => {
    repo.checkout('introspect')
    expect(naiveRun(repo, command).status).toBe(0)
    repo.checkout('main')
    const card = await judge('introspect', 'main-strong')
    expect(card.evidence?.problems).toBeUndefined()
    // Only the error raised for a wrong call runs under no test.
    expect(card.evidence?.uncovered).toEqual([{ path: 'app/fee.py', lines: [14] }])
    expect(card.verdict).toBe('merge')
    const mutants = card.evidence?.mutants ?? []
    expect(mutants.length).toBeGreaterThan(3)
    expect(mutants.filter(m => m.killed_by === null)).toEqual([])
  })
})

describe('the mutant session is watched as the vote is', () => {
  it('r3-evenv2: a plain run sees the runner key; the vote does not; the hidden mutant survives', async () => {
    repo.checkout('evenv2')
    // The attack's signal is real: under a plain pytest the product sees the runner's key.
    expect(naiveRun(repo, command).output).toMatch(/ArithmeticError: busy/)
    repo.checkout('main')
    const card = await judge('evenv2')
    // The vote hid the key (its test passed); the session hid it too: `*` → `/` survives.
    expect(card.evidence?.mutants.map(m => [m.line, m.mutation, m.killed_by])).toEqual([
      [7, '`==` → `!=`', 'oracle/test_fee.py::test_fee_exact'],
      [8, '`*` → `/`', null]
    ])
    expect(card.verdict).toBe('product')
    expect(weak(card).join('\n')).toMatch(/kill 1 of 2 mutants/)
  })
})
