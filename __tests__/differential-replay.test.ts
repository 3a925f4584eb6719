// The differential replay's plain process (src/reporters/python/diff_replay.py), run by a
// real Python on a real module, as the gate runs it: what the replayed code sees is a plain
// program's world (no test framework loaded, a neutral argv, the recorded environment,
// working folder and module data, put back after each call), its prints cannot reach the
// gate's answers, and arguments that would load the test framework or the instrument are
// refused instead of imported. The outcome's encoding (gate_diff.encode), shared by the
// recorder and the replay, never calls the product's __eq__, __repr__ or __hash__.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseReplay, ROUNDS, type Answer } from '../src/replay/differential.js'
import { pythonWithPytest } from './helpers/python.js'

const python = pythonWithPytest()
const reporters = join(import.meta.dirname, '..', 'src', 'reporters', 'python')
const script = join(reporters, 'diff_replay.py')

const MODULE = `import json
import os
import sys

STATE = 1


def world():
    framework = sorted(
        n for n in sys.modules if n.partition(".")[0] in ("pytest", "_pytest", "pluggy", "hypothesis")
    )
    return json.dumps({"framework": framework, "argv": sys.argv, "x": os.environ.get("APP_X"),
                       "home": os.environ.get("HOME"), "state": STATE, "cwd": os.getcwd()})


def state():
    return STATE


def noisy():
    print("noise on stdout")
    os.write(1, b"more noise on fd 1\\n")
    return 1


def boom():
    raise ValueError("no")


def echo(value):
    return repr(value)
`

let dir: string
let root: string
const pickles: Record<string, string> = {}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'og-diff-replay-'))
  root = join(dir, 'project')
  mkdirSync(join(root, 'oracle'), { recursive: true })
  mkdirSync(join(root, 'work'))
  writeFileSync(join(root, 'mod.py'), MODULE)
  writeFileSync(join(root, 'oracle', '__init__.py'), '')
  writeFileSync(join(root, 'oracle', 'helper.py'), 'class Thing:\n    pass\n')
  // The pickles a recorder would have sent, made by the same Python.
  const made = spawnSync(
    python,
    [
      '-c',
      `import base64, json, pickle, sys
sys.path.insert(0, ${JSON.stringify(root)})
import _pytest.python_api
from oracle.helper import Thing
b = lambda v: base64.b64encode(pickle.dumps(v, protocol=4)).decode()
print(json.dumps({"none": b(((), {})), "skip": b(((_pytest.python_api.ApproxScalar,), {})),
                  "thing": b(((Thing(),), {})), "glob": b({"mod": {"STATE": 3}})}))`
    ],
    { encoding: 'utf8' }
  )
  expect(made.status, made.stderr).toBe(0)
  Object.assign(pickles, JSON.parse(made.stdout) as Record<string, string>)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function call(name: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    mod: 'mod',
    owner: '',
    name,
    args: pickles.none,
    glob: '',
    cwd: root,
    env: { set: {}, unset: [] },
    ...over
  }
}

function replay(calls: Record<string, unknown>[]): Map<number, Answer> {
  const request = {
    nonce: 'nonce-1',
    root,
    path: [root],
    env: { HOME: '/home/someone', PATH: process.env.PATH ?? '/usr/bin' },
    instrument: ['oracle'],
    rounds: ROUNDS,
    order: calls.map((_, i) => i),
    calls
  }
  const run = spawnSync(python, [script], {
    input: JSON.stringify(request),
    cwd: root,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin', PYTEST_CURRENT_TEST: 'x.py::t (call)' }
  })
  expect(run.status, run.stderr).toBe(0)
  return parseReplay(run.stdout, 'nonce-1', calls.length)
}

const value = (answer: Answer | undefined): unknown => {
  if (answer === undefined || !('outs' in answer))
    throw new Error(`no outcome: ${JSON.stringify(answer)}`)
  const node = JSON.parse(answer.outs[0] as string) as [string, unknown]
  return node[0] === 'str' ? JSON.parse(node[1] as string) : node
}

describe('diff_replay.py: a plain process replaying recorded calls', () => {
  it('runs the call in a plain world: no test framework, neutral argv, the recorded env, cwd and module data', () => {
    const answers = replay([
      call('world', {
        env: { set: { APP_X: '7' }, unset: ['HOME'] },
        glob: pickles.glob,
        cwd: join(root, 'work')
      }),
      call('state'),
      call('world')
    ])
    expect(value(answers.get(0))).toEqual({
      framework: [],
      argv: [''],
      x: '7',
      home: null,
      state: 3,
      cwd: join(root, 'work')
    })
    // The module data and the environment are put back after the call.
    expect(value(answers.get(1))).toEqual(['int', '1'])
    expect(value(answers.get(2))).toMatchObject({ x: null, home: '/home/someone', state: 1 })
  })

  it('keeps the product’s prints out of its answers, and encodes an exception by its class', () => {
    const answers = replay([call('noisy'), call('boom')])
    expect(value(answers.get(0))).toEqual(['int', '1'])
    expect(answers.get(1)).toEqual({
      outs: Array.from({ length: ROUNDS }, () => '["raise","builtins.ValueError"]')
    })
  })

  it('refuses arguments that would import the test framework or the instrument; a missing module is not checked', () => {
    const answers = replay([
      call('echo', { args: pickles.skip }),
      call('echo', { args: pickles.thing }),
      call('fee', { mod: 'gone.module' })
    ])
    expect(answers.get(0)).toEqual({ skip: 'refused' })
    expect(answers.get(1)).toEqual({ skip: 'refused' })
    expect(answers.get(2)).toEqual({ skip: 'import' })
  })
})

const ENCODE = `import decimal, importlib.util, json, sys
spec = importlib.util.spec_from_file_location("gate_diff", sys.argv[1])
gate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gate)


class Hostile:
    def __init__(self, n):
        self.n = n

    def __eq__(self, other):
        raise AssertionError("__eq__ called")

    def __hash__(self):
        raise AssertionError("__hash__ called")

    def __repr__(self):
        raise AssertionError("__repr__ called")


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self):
        self.a = 1


class Loud(int):
    def __repr__(self):
        raise AssertionError("__repr__ called")


loop = []
loop.append(loop)
values = {
    "hostile": Hostile(3),
    "hostile_set": [Hostile(1), {"k": Hostile(2)}],
    "slots": Slotted(),
    "int_subclass": Loud(7),
    "decimal": decimal.Decimal("1.50"),
    "cycle": loop,
    "set": {3, 1, 2},
    "generator": (i for i in range(3)),
    "huge": list(range(100000)),
}
print(json.dumps({k: gate.encode(v) for k, v in values.items()}))
`

describe('gate_diff.encode: the outcome without the product’s methods', () => {
  it('encodes objects by class and state, never calling __eq__, __hash__ or __repr__', () => {
    const run = spawnSync(python, ['-c', ENCODE, join(reporters, 'gate_diff.py')], {
      encoding: 'utf8'
    })
    expect(run.status, run.stderr).toBe(0)
    const out = JSON.parse(run.stdout) as Record<string, string | null>
    const parsed = (k: string): unknown => JSON.parse(out[k] as string)
    expect(parsed('hostile')).toEqual([
      'object',
      '__main__.Hostile',
      [
        [
          ['str', 'n'],
          ['int', '3']
        ]
      ]
    ])
    expect(out.hostile_set).toContain('__main__.Hostile')
    expect(parsed('slots')).toEqual([
      'object',
      '__main__.Slotted',
      [
        ['a', ['int', '1']],
        ['b', ['unset']]
      ]
    ])
    expect(parsed('int_subclass')).toEqual(['object', '__main__.Loud', ['int', '7'], []])
    expect(parsed('decimal')).toEqual(['object', 'decimal.Decimal', ['repr', "Decimal('1.50')"]])
    expect(parsed('cycle')).toEqual(['list', [['cycle']]])
    expect(parsed('set')).toEqual([
      'set',
      [
        ['int', '1'],
        ['int', '2'],
        ['int', '3']
      ]
    ])
    // Known only by its address, or too big to compare: no outcome, the call is not recorded.
    expect(out.generator).toBeNull()
    expect(out.huge).toBeNull()
  })
})
