// The breadth of oracle-reach's patterns, on snippets parsed with the shipped grammars: every
// row of an attack table must give a finding of its category, and every honest snippet
// must give none. The real-runner tests (reach-pytest, reach-js) show one attack per
// category working and being caught; these show the spellings around each.
import { describe, expect, it } from 'vitest'
import { parserFor, type LanguageId } from '../src/lints/parsers.js'
import { instrumentNames } from '../src/lints/reach/paths.js'
import { detectPython } from '../src/lints/reach/python.js'
import { detectScript } from '../src/lints/reach/script.js'
import type { ReachCategory } from '../src/lints/reach/types.js'

const INSTRUMENT = instrumentNames(
  [
    'oracle/fixtures/golden.json',
    'oracle/tests/test_ops.py',
    '.github/oracle-gate.yml',
    'src/app.py',
    'data/config.json',
    'src/config.json',
    'oracle/config.json'
  ],
  p => p.startsWith('oracle/') || p === '.github/oracle-gate.yml'
)

async function categories(language: LanguageId, code: string): Promise<ReachCategory[]> {
  const tree = (await parserFor(language)).parse(code)!
  try {
    const detect = language === 'python' ? detectPython : detectScript
    return [...new Set(detect(tree.rootNode, { instrumentName: INSTRUMENT }).map(f => f.category))]
  } finally {
    tree.delete()
  }
}

const PY_ATTACKS: Array<[ReachCategory, string]> = [
  ['framework', 'import pytest'],
  ['framework', 'from _pytest import runner'],
  ['framework', 'import hypothesis.strategies as st'],
  ['framework', 'from unittest import mock'],
  ['framework', 'import pytest_asyncio'],
  ['framework', 'import importlib\nimportlib.import_module("pluggy")'],
  ['framework', '__import__("pytest")'],
  ['framework', 'import builtins\nbuiltins.__import__("_pytest.runner")'],
  ['framework', 'import sys\nsys.modules["json"] = fake'],
  ['framework', 'import sys\nsys.meta_path.insert(0, Finder())'],
  ['markers', 'import os\nx = os.environ["PYTEST_CURRENT_TEST"]'],
  ['markers', 'import os\nseed = os.getenv("ORACLE_GATE_SEED")'],
  ['markers', 'from os import environ as e\nw = e.get("PYTEST_XDIST_WORKER")'],
  ['markers', 'import sys\nif "pytest" in sys.modules:\n    pass'],
  ['markers', 'import sys\nt = any("pytest" in a for a in sys.argv)'],
  ['markers', 'import sys\nm = sys.modules.get("_pytest")'],
  ['markers', 'import os\nk = [k for k in os.environ if k.startswith("PYTEST")]'],
  ['markers', 'import sys\nxml = [a for a in sys.argv if a.startswith("--junitxml")]'],
  ['introspection', 'import inspect\ns = inspect.stack()'],
  ['introspection', 'import inspect as i\nf = i.getouterframes(i.currentframe())'],
  ['introspection', 'import sys\nf = sys._getframe(1)'],
  ['introspection', 'import sys\nf = getattr(sys, "_getframe")(1)'],
  ['introspection', 'from sys import _getframe as g'],
  ['introspection', 'import gc\no = gc.get_objects()'],
  ['introspection', 'import gc\nr = gc.get_referrers(x)'],
  ['introspection', 'import traceback\ns = traceback.extract_stack()'],
  ['introspection', 'v = frame.f_back.f_locals["expected"]'],
  ['introspection', 'import sys\nsys.settrace(tracer)'],
  ['process', 'import os\nos._exit(0)'],
  ['process', 'import sys\nsys.excepthook = lambda *a: None'],
  ['process', 'import sys\nsetattr(sys, "excepthook", hook)'],
  ['process', 'import atexit\natexit.register(flush)'],
  ['process', 'import atexit\n@atexit.register\ndef bye():\n    pass'],
  ['process', 'import signal\nsignal.signal(signal.SIGTERM, handler)'],
  ['process', 'import os\nos.kill(os.getpid(), 9)'],
  ['process', 'import os\nos.execv("/bin/true", ["true"])'],
  ['process', 'import threading\nthreading.excepthook = hook'],
  ['process', 'import sys, io\nsys.stdout = io.StringIO()'],
  ['process', 'import sys\nsys.exit(0)'],
  ['process', 'raise SystemExit(0)'],
  ['instrument', 'f = open("oracle/fixtures/golden.json")'],
  ['instrument', 'f = open("fixtures/golden.json")'],
  ['instrument', 'p = Path("oracle") / "fixtures" / "golden.json"'],
  ['instrument', 'import os\np = os.path.join(ROOT, "oracle", "tests")'],
  ['instrument', 'p = f"{root}/oracle/fixtures/golden.json"'],
  ['instrument', 'p = ".github/oracle-gate.yml"'],
  ['instrument', 'p = "golden.json"'],
  ['instrument', 'p = "/home/runner/work/repo/oracle/tests/test_ops.py"'],
  ['comparison', 'class A:\n    def __eq__(self, other):\n        return True'],
  ['comparison', 'class A:\n    def __ne__(self, other):\n        return False'],
  ['comparison', 'class A:\n    __eq__ = lambda self, other: True'],
  ['comparison', 'class A:\n    def __contains__(self, item):\n        return True'],
  ['comparison', 'class A(type):\n    def __instancecheck__(cls, inst):\n        return True'],
  [
    'comparison',
    'class A(str):\n    def __eq__(self, other):\n        return self.lower() == other.lower()'
  ],
  ['comparison', 'class A(int):\n    def __lt__(self, other):\n        return int(self) < other'],
  ['comparison', 'import builtins\nbuiltins.isinstance = lambda *a: True'],
  ['comparison', 'import operator\noperator.eq = lambda a, b: True'],
  ['comparison', 'import builtins\nsetattr(builtins, "len", fake)'],
  ['comparison', '__builtins__["print"] = quiet'],
  ['comparison', 'import math\nmath.isclose = lambda *a, **k: True']
]

const PY_HONEST = [
  '"""Run with pytest -q; PYTEST_CURRENT_TEST is set by pytest."""\n# import pytest\n',
  'RUNNERS = ["pytest", "unittest", "nose"]\n',
  'import subprocess\nsubprocess.run(["pytest", "-q"])\n',
  'import os\nhome = os.environ.get("HOME")\nenv = os.environ.get("NODE_ENV", "production")\n',
  'import doctest\nif __name__ == "__main__":\n    doctest.testmod()\n',
  'class P:\n    def __eq__(self, other):\n        return isinstance(other, P) and self.x == other.x\n    def __ne__(self, other):\n        return not self == other\n',
  'class P:\n    def __eq__(self, other):\n        if self is other:\n            return True\n        return NotImplemented if not isinstance(other, P) else self.key() == other.key()\n',
  'import traceback, logging\ntry:\n    run()\nexcept Exception:\n    logging.error(traceback.format_exc())\n',
  'f = open("data/config.json")\ng = open("config.json")\n',
  'name = "oracle"\n',
  'import signal\nDEFAULT = signal.SIGTERM\n',
  'import os\nos.kill(child.pid, 15)\n',
  'import sys\n_, _, tb = sys.exc_info()\nname = tb.tb_frame.f_code.co_name\n',
  'import sys\nout = sys.stdout\nout.write("hi")\n'
]

const JS_ATTACKS: Array<[ReachCategory, string]> = [
  ['framework', "import { vi } from 'vitest'"],
  ['framework', "const j = require('@jest/globals')"],
  ['framework', "const t = await import('node:test')"],
  ['framework', "import chai from 'chai'"],
  ['framework', "import fc from 'fast-check'"],
  [
    'framework',
    "const localRequire = createRequire(import.meta.url)\nconst v = localRequire('vitest')"
  ],
  ['framework', "const j = module.require('jest-circus')"],
  ['framework', "export * from 'jest-circus'"],
  ['framework', 'expect.extend({ toBe: () => ({ pass: true }) })'],
  ['framework', 'const e = globalThis.expect'],
  ['framework', 'function shadow(expect) {}\nexpect.extend({})'],
  ['framework', 'function f() { const vi = 1 }\nvi.fn()'],
  ['framework', "const underJest = typeof jest !== 'undefined'"],
  ['framework', "const m = globalThis[Symbol.for('$$jest-matchers-object')]"],
  ['framework', "import assert from 'node:assert'\nassert.deepStrictEqual = () => {}"],
  ['framework', "import { strict } from 'assert'\nstrict.equal = () => {}"],
  ['framework', "const a = require('assert/strict')\na.ok = () => {}"],
  ['framework', "import * as assert from 'node:assert'\nObject.assign(assert, { equal() {} })"],
  ['framework', "Object.defineProperty(require('assert'), 'equal', { value() {} })"],
  ['framework', 'export const result = { asymmetricMatch: () => true }'],
  ['framework', "const w = globalThis['__vitest_worker__']"],
  ['markers', 'const v = process.env.VITEST'],
  ['markers', "const w = process.env['JEST_WORKER_ID']"],
  ['markers', 'const { NODE_TEST_CONTEXT } = process.env'],
  ['markers', 'const j = globalThis.process.env.ORACLE_GATE_JUNIT'],
  ['markers', "import { env } from 'node:process'\nconst id = env.VITEST_POOL_ID"],
  ['markers', "const t = 'JEST_WORKER_ID' in process.env"],
  ['markers', "const t = process.argv.some(a => a.includes('vitest'))"],
  ['markers', "const t = Object.keys(require.cache).some(k => k.endsWith('/jest'))"],
  ['markers', "function f() {\n  if (process.env.NODE_ENV === 'test') return 5\n  return g()\n}"],
  ['markers', "const v = process.env.NODE_ENV === 'test' ? 5 : compute()"],
  ['markers', "const out = argv.find(a => a.startsWith('--test-reporter-destination'))"],
  ['introspection', 'const s = new Error().stack'],
  ['introspection', 'const s = (new Error()).stack'],
  ['introspection', 'const s = Error().stack'],
  ['introspection', 'Error.prepareStackTrace = (e, frames) => frames'],
  ['introspection', 'const o = {}\nError.captureStackTrace(o)'],
  ['introspection', 'function f() { return arguments.callee }'],
  ['introspection', 'function f() { return f.caller }'],
  ['introspection', "import inspector from 'node:inspector'"],
  ['introspection', "import v8 from 'node:v8'\nv8.getHeapSnapshot()"],
  ['process', 'process.exit(0)'],
  ['process', 'process.reallyExit(0)'],
  ['process', "process.on('exit', () => {})"],
  ['process', "process.once('beforeExit', flush)"],
  ['process', "process.on('uncaughtException', ignore)"],
  ['process', "process.kill(process.pid, 'SIGKILL')"],
  ['process', 'process.kill(process.ppid)'],
  ['process', 'process.exitCode = 0'],
  ['process', 'process.stdout.write = () => true'],
  ['process', "import { exit } from 'node:process'\nexit(0)"],
  ['process', "process.removeAllListeners('exit')"],
  ['process', "process.on('SIGTERM', stop)"],
  ['comparison', 'class A { valueOf() { return 42 } }'],
  ['comparison', 'const o = { [Symbol.toPrimitive]() { return 5 } }'],
  ['comparison', 'class A { static [Symbol.hasInstance]() { return true } }'],
  ['comparison', 'const o = { valueOf: () => 5 }'],
  ['comparison', 'Object.prototype.equals = () => true'],
  ['comparison', 'Array.prototype.includes = () => true'],
  ['comparison', "Object.defineProperty(Array.prototype, 'x', { value: 1 })"],
  ['comparison', 'Object.is = () => true'],
  ['comparison', 'JSON.stringify = () => "{}"'],
  ['comparison', 'globalThis.Object.keys = () => []'],
  ['comparison', 'class N extends Number { valueOf() { return this.x } }'],
  ['instrument', "const rows = JSON.parse(readFileSync('oracle/fixtures/golden.json', 'utf8'))"],
  ['instrument', "const p = path.join(root, 'oracle', 'fixtures', 'golden.json')"],
  ['instrument', 'const p = `${root}/oracle/tests/test_ops.py`']
]

const JS_HONEST = [
  "import assert from 'node:assert'\nassert(x > 0, 'x must be positive')\nassert.equal(typeof x, 'number')\n",
  "if (process.env.NODE_ENV !== 'test') console.warn('deprecated')\n",
  "function warn(m) {\n  if (process.env.NODE_ENV === 'test') return\n  console.warn(m)\n}\n",
  'try {\n  run()\n} catch (err) {\n  log(err.stack)\n}\n',
  'class MyError extends Error {\n  constructor(m) {\n    super(m)\n    Error.captureStackTrace(this, MyError)\n  }\n}\n',
  'class Cents { valueOf() { return this.cents } toString() { return "Cents" } }\n',
  "process.kill(child.pid, 'SIGTERM')\n",
  'const expect = makeExpect()\nexpect.value = 1\n',
  'function check(expect) {\n  expect.calls = 0\n  for (const jest of list) jest.run()\n}\n',
  "// import { vi } from 'vitest'\n/** Tested with vitest; reads no VITEST marker. */\nexport const x = 1\n",
  "const runners = ['vitest', 'jest', 'mocha']\n",
  'const mode = process.env.NODE_ENV\nconst home = process.env.HOME\n',
  'const keys = Object.keys(obj)\nconst arr = Array.prototype.slice.call(args)\n',
  "const cfg = readFileSync('data/config.json', 'utf8')\n",
  "const word = 'oracle'\n",
  'const ok = a === b\nconst o = { value: 5, toJSON() { return 5 } }\n'
]

// Names spelt from constant parts (issue 26): the resolver folds the building, so each is
// the literal name the table above already catches.
const PY_BUILT: Array<[ReachCategory, string]> = [
  ['framework', 'import importlib\nm = importlib.import_module("".join(["py", "test"]))'],
  [
    'framework',
    'import importlib\nm = importlib.import_module("-".join(["_py", "test"]).replace("-", ""))'
  ],
  ['framework', '__import__("tsetyp"[::-1])'],
  ['framework', '__import__("PYTEST".lower())'],
  ['framework', 'import codecs\n__import__(codecs.decode("clgrfg", "rot13"))'],
  ['framework', 'import base64\n__import__(base64.b64decode("cHl0ZXN0").decode())'],
  ['framework', '__import__(bytes.fromhex("707974657374").decode())'],
  ['framework', '__import__("".join(map(chr, [112, 121, 116, 101, 115, 116])))'],
  ['framework', '__import__(chr(112) + "ytest")'],
  ['framework', 'p = "py"\n__import__(f"{p}test")'],
  ['framework', '__import__("%stest" % "py")'],
  ['framework', '__import__("{}{}".format("py", "test"))'],
  ['framework', 'vars(__builtins__)["__import__"]("pytest")'],
  ['framework', 'globals()["__builtins__"]["__import__"]("pytest")'],
  ['markers', 'import os\nx = os.environ["PYTEST_" + "CURRENT_TEST"]'],
  ['markers', 'import os\nx = os.environ.get("_".join(["PYTEST", "CURRENT", "TEST"]))'],
  ['markers', 'import os\nx = getattr(os, "environ").get("TSET_TNERRUC_TSETYP"[::-1])'],
  ['introspection', 'import sys\nf = getattr(sys, "_get" + "frame")(1)'],
  ['introspection', 'import sys\nf = vars(sys)["_getframe"](1)'],
  ['introspection', 'import sys\nf = sys.__dict__["".join(["_get", "frame"])](1)'],
  [
    'introspection',
    'import importlib\ni = importlib.import_module("tcepsni"[::-1])\ns = i.stack()'
  ],
  ['process', 'import os\ngetattr(os, "_" + "exit")(0)'],
  ['comparison', 'import builtins\nsetattr(builtins, "le" + "n", fake)'],
  ['comparison', 'Any = type("Any", (), {"__eq__": lambda s, o: True})'],
  ['comparison', 'Any = type("Any", (object,), {"__" + "eq__": lambda self, other: True})()'],
  ['comparison', 'Lie = type("Lie", (int,), {"__eq__": lambda s, o: s.real == s.real})'],
  ['comparison', 'Lie = type("Lie", (), {"__class__": property(lambda s: float)})']
]

const PY_BUILT_HONEST = [
  'name = "".join(["py", "test"])\nprint(name)\n',
  'label = "{}-{}".format("fee", "table")\n',
  'import base64\ntoken = base64.b64decode(raw).decode()\n',
  'word = "abc"[::-1]\n',
  'import os\nhome = os.environ["HO" + "ME"]\n',
  'Point = type("Point", (), {"x": 0, "__repr__": lambda s: "Point"})\n',
  'Key = type("Key", (), {"__eq__": lambda s, o: s.k == o.k, "__hash__": lambda s: hash(s.k)})\n'
]

describe('oracle-reach patterns: names built from constants (Python)', () => {
  for (const [category, code] of PY_BUILT) {
    it(`${category}: ${code.split('\n').pop()}`, async () => {
      expect(await categories('python', code)).toContain(category)
    })
  }
  for (const code of PY_BUILT_HONEST) {
    it(`honest: ${code.split('\n')[0]}`, async () => {
      expect(await categories('python', code)).toEqual([])
    })
  }
})

describe('oracle-reach patterns (Python)', () => {
  for (const [category, code] of PY_ATTACKS) {
    it(`${category}: ${code.split('\n').pop()}`, async () => {
      expect(await categories('python', code)).toContain(category)
    })
  }
  for (const code of PY_HONEST) {
    it(`honest: ${code.split('\n')[0]}`, async () => {
      expect(await categories('python', code)).toEqual([])
    })
  }
})

const JS_BUILT: Array<[ReachCategory, string]> = [
  ['framework', "const m = require(['vi', 'test'].join(''))"],
  ['framework', "const m = await import('tsetiv'.split('').reverse().join(''))"],
  ['framework', 'const m = require(String.fromCharCode(118, 105, 116, 101, 115, 116))'],
  ['framework', "const m = require(atob('dml0ZXN0'))"],
  ['framework', "const m = require(Buffer.from('6a657374', 'hex').toString())"],
  ['framework', "const p = 'vi'\nconst m = require(`${p}test`)"],
  ['framework', "const m = require('VITEST'.toLowerCase())"],
  ['markers', "const on = process.env['VI' + 'TEST']"],
  ['markers', "const on = process.env[['VI', 'TEST'].join('')]"],
  ['markers', "const on = Reflect.get(process.env, 'JEST_' + 'WORKER_ID')"],
  ['framework', "const w = globalThis[atob('X192aXRlc3Rfd29ya2VyX18=')]"],
  ['comparison', "Object[['i', 's'].join('')] = () => true"],
  ['process', "process[['ex', 'it'].join('')](0)"]
]

const JS_BUILT_HONEST = [
  "const label = ['fee', 'table'].join('-')\n",
  'const token = atob(input)\n',
  'const name = `${first} ${last}`\n',
  "const mode = process.env['NODE_' + 'ENV']\n",
  "const word = 'abc'.split('').reverse().join('')\n"
]

describe('oracle-reach patterns: names built from constants (JavaScript, TypeScript)', () => {
  for (const [category, code] of JS_BUILT) {
    it(`${category}: ${code.split('\n').pop()}`, async () => {
      expect(await categories('javascript', code)).toContain(category)
      expect(await categories('typescript', code)).toContain(category)
    })
  }
  for (const code of JS_BUILT_HONEST) {
    it(`honest: ${code.split('\n')[0]}`, async () => {
      expect(await categories('javascript', code)).toEqual([])
    })
  }
})

describe('oracle-reach patterns (JavaScript, TypeScript)', () => {
  for (const [category, code] of JS_ATTACKS) {
    it(`${category}: ${code.split('\n').pop()}`, async () => {
      expect(await categories('javascript', code)).toContain(category)
      expect(await categories('typescript', code)).toContain(category)
    })
  }
  for (const code of JS_HONEST) {
    it(`honest: ${code.split('\n')[0]}`, async () => {
      expect(await categories('javascript', code)).toEqual([])
      expect(await categories('tsx', code)).toEqual([])
    })
  }
  it('TypeScript spellings: casts and non-null assertions do not hide a name', async () => {
    expect(await categories('typescript', 'const v = (process as any).env!.VITEST')).toContain(
      'markers'
    )
    expect(
      await categories('typescript', "const e = (globalThis as any)[Symbol.for('expect-global')]")
    ).toContain('framework')
  })
})
