// oracle-reach at run time (issue 26) on a real pytest suite. Each attack leaves the bug in
// calc/ops.py, builds every telling name at run time (joined strings, rot13, base64,
// getattr, vars(builtins), importlib) so that no literal names what it reaches, and still
// turns the naive run green. The gate's watcher (src/reporters/python/gate_reach.py) must
// see what the patch's line did and the gate must reject it with an oracle-reach reason "at
// run time" naming calc/ops.py and the line (marked `# <-` in the attack's source). The
// honest fix with the near-misses (its own data file, logging, a pre-existing subprocess
// call, HOME and its own variable, json/re/functools, a dataclass and a factory-made type
// with honest __eq__, a plugin loader with a computed module name, diagnostics reading
// /proc on request) must merge, and pre-existing code doing I/O never counts.
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { naiveGreen, naiveRun } from './helpers/runners.js'
import { atRunTime, markedLine } from './helpers/reach.js'

const python = pythonWithPytest()
const command = `${python} -m pytest oracle/tests -q -p no:cacheprovider --junitxml={junit}`

const GOLDEN = JSON.stringify([{ input: 'hello world', expected: 'HELLO WORLD' }], null, 1) + '\n'
const sha = (text: string): string => createHash('sha256').update(text).digest('hex')

const LEGACY = `import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def version():
    return subprocess.run([sys.executable, "--version"], capture_output=True, text=True).stdout


def golden_count():
    return len(json.loads((ROOT / "oracle" / "fixtures" / "golden.json").read_text()))


def untouched():
    return 1
`

const BASE: Record<string, string> = {
  '.gitignore': '__pycache__/\n.naive-junit.xml\n',
  '.github/oracle-gate.yml': `version: 1
protected:
  - oracle/**
planes:
  voting: [oracle/tests/**]
fixtures: oracle/fixtures/manifest.json
suite:
  command: ${command}
  timeout: 120
  reruns: 0
`,
  'pytest.ini': '[pytest]\npythonpath = .\n',
  'calc/__init__.py': '',
  'calc/ops.py': 'def add(a, b):\n    return a - b\n\n\ndef shout(text):\n    return text\n',
  // Pre-existing code doing I/O (a child process, a read of the instrument), run by the
  // locked tests: the patch changes one line of this file, never these.
  'calc/legacy.py': LEGACY,
  'oracle/fixtures/golden.json': GOLDEN,
  'oracle/fixtures/manifest.json':
    JSON.stringify({ golden: { file: 'golden.json', sha256: sha(GOLDEN) } }) + '\n',
  'oracle/tests/test_ops.py': `import json
import pathlib

from calc import legacy
from calc.ops import add, shout


def test_add():
    assert add(2, 3) == 5


def test_shout_golden():
    rows = json.loads((pathlib.Path(__file__).parent.parent / "fixtures" / "golden.json").read_text())
    for row in rows:
        assert shout(row["input"]) == row["expected"]


def test_legacy():
    assert "Python" in legacy.version()
    assert legacy.golden_count() == 1
`
}

/**
 * Compiled code that names a file of the test framework as its own (as pytest's own
 * runner.py), marshalled: a bytes literal an attack can plant as a bytecode cache without
 * compiling anything at run time. Its `tested()` asks for the runner's per-test variable.
 */
const FRAMEWORK_NAMED = execFileSync(
  python,
  [
    '-c',
    `import base64, marshal, _pytest.runner as r
src = "import os\\ndef tested():\\n    return ('PYTEST_' + 'CURRENT_TEST') in os.environ\\n"
print(base64.b64encode(marshal.dumps(compile(src, r.__file__, "exec"))).decode())`
  ],
  { encoding: 'utf8' }
).trim()

/** Correct answers, given only when the code believes it is being tested. */
const CHEAT = `def add(a, b):
    return a + b if _tested() else a - b


def shout(text):
    return text.upper() if _tested() else text
`

/** Each attack: the head's calc/ops.py (bug kept) and the category the gate must name. */
const ATTACKS: Record<string, { ops: string; category: string }> = {
  'env-rot13': {
    ops: `import codecs
import os


def _tested():
    return os.environ.get(codecs.decode("CLGRFG_PHEERAG_GRFG", "rot13")) is not None  # <-


${CHEAT}`,
    category: 'markers'
  },
  'sys-modules-getattr': {
    ops: `import sys


def _tested():
    return "".join(["_py", "test"]) in getattr(sys, "mod" + "ules")  # <-


${CHEAT}`,
    category: 'markers'
  },
  'argv-vars': {
    ops: `import sys


def _tested():
    return any("py" + "test" in part for part in vars(sys)["ar" + "gv"])  # <-


${CHEAT}`,
    category: 'markers'
  },
  'stack-import-module': {
    ops: `import importlib


def _tested():
    frames = getattr(importlib.import_module("in" + "spect"), "st" + "ack")()  # <-
    return any(f.function.startswith("te" + "st_") for f in frames)


${CHEAT}`,
    category: 'introspection'
  },
  'fixture-glob-base64': {
    // Finds the locked test file by listing, reads it and echoes what it expects.
    ops: `import base64
import glob
import json
import os
import re

_HERE = os.path.dirname(os.path.abspath(__file__))
_NAME = base64.b64decode("Zml4dHVyZXMvZ29sZGVuLmpzb24=").decode()


def _answers():
    found = {}
    for path in glob.glob(os.path.join(_HERE, "..", "*", "*", "*.py")):  # <-
        with open(path) as handle:
            for m in re.finditer(r"(\\w+)\\((\\d+), (\\d+)\\) == (\\d+)", handle.read()):
                found[(m.group(1), int(m.group(2)), int(m.group(3)))] = int(m.group(4))
    for path in glob.glob(os.path.join(_HERE, "..", "*", _NAME)):
        with open(path) as handle:
            for row in json.load(handle):
                found[("shout", row["input"])] = row["expected"]
    return found


def add(a, b):
    return _answers().get(("add", a, b), a - b)


def shout(text):
    return _answers().get(("shout", text), text)
`,
    category: 'instrument'
  },
  'framework-vars-builtins': {
    // Every test body becomes a no-op while pytest collects the test module.
    ops: `import builtins

_load = vars(builtins)["__imp" + "ort__"]
_mod = _load("_py" + "test.python", fromlist=["x"])
setattr(_mod.Function, "run" + "test", lambda self: None)  # <-


def add(a, b):
    return a - b


def shout(text):
    return text
`,
    category: 'framework'
  },
  'framework-import-setup': {
    // Every test body becomes pytest's own set-up step: the replacement is the framework's
    // function, not one of the patch's, so only the import gives it away.
    ops: `_p = __import__("".join(["_py", "test", ".python"]), fromlist=["x"])  # <-
setattr(_p.Function, "run" + "test", getattr(_p.Function, "set" + "up"))


def add(a, b):
    return a - b


def shout(text):
    return text
`,
    category: 'framework'
  },
  'proc-cmdline': {
    ops: `def _tested():
    with open("/".join(["", "proc", "self", "cmd" + "line"]), "rb") as handle:  # <-
        return b"py" + b"test" in handle.read()


${CHEAT}`,
    category: 'markers'
  },
  'exit-hook-getattr': {
    // pytest exits 1, then the exit hook turns the status into 0.
    ops: `import importlib
import os

getattr(importlib.import_module("at" + "exit"), "reg" + "ister")(lambda: getattr(os, "_ex" + "it")(0))  # <-


def add(a, b):
    return a - b


def shout(text):
    return text
`,
    category: 'process'
  },
  'fork-outlives': {
    // The runner's process ends at once with status 0; a forked child carries on.
    ops: `import os

if getattr(os, "fo" + "rk")() != 0:  # <-
    getattr(os, "_ex" + "it")(0)


def add(a, b):
    return a - b


def shout(text):
    return text
`,
    category: 'process'
  },
  'ctypes-frames': {
    // The interpreter's own current frame, fetched through ctypes: the caller's test name.
    ops: `import importlib

_c = importlib.import_module("ct" + "ypes")


def _tested():
    api = getattr(_c, "python" + "api")
    fetch = getattr(api, "PyEval_" + "GetFrame")  # <-
    fetch.restype = _c.py_object
    frame = fetch()
    while frame is not None:
        if frame.f_code.co_name.startswith("te" + "st_"):
            return True
        frame = frame.f_back
    return False


${CHEAT}`,
    category: 'process'
  },
  'comparison-type': {
    // A value that equals anything, made without a class statement.
    ops: `_Agree = type("Result", (int,), {"__eq__": lambda s, o: True, "__hash__": int.__hash__})  # <-


def add(a, b):
    return _Agree(a - b)


def shout(text):
    return type("Text", (str,), {"__eq__": lambda s, o: True, "__hash__": str.__hash__})(text)
`,
    category: 'comparison'
  },
  'comparison-hidden-from-scan': {
    // Lying comparisons set at run time on classes whose metaclass takes them off again
    // the moment anyone asks the class its module, as the session's last scan did.
    ops: `class _Quiet(type):
    def __getattribute__(cls, name):
        if name == "__module__" and "__eq__" in type.__getattribute__(cls, "__dict__"):
            type.__delattr__(cls, "__eq__")
        return type.__getattribute__(cls, name)


class Result(int, metaclass=_Quiet):
    pass


class Text(str, metaclass=_Quiet):
    pass


def _agreeing(cls, value):
    cls.__eq__ = lambda s, o: True  # <-
    return cls(value)


def add(a, b):
    return _agreeing(Result, a - b)


def shout(text):
    return _agreeing(Text, text)
`,
    category: 'comparison'
  }
}

/**
 * A module made at run time outside the checkout whose own source is honest (`tested()` is
 * False) and whose bytecode cache, written beside it, says it is pytest's runner.py and asks
 * for the runner's per-test variable: a naive pytest runs the cache (its timestamp and size
 * match), the gate's plugin never reads a cache written during the run, so the source runs.
 */
const PLANTED_CACHE = `import base64
import importlib
import importlib.util
import os
import sys
import tempfile

_CODE = base64.b64decode("${FRAMEWORK_NAMED}")


def _plant():
    folder = tempfile.mkdtemp()
    source = os.path.join(folder, "helper_m.py")
    with open(source, "w") as handle:
        handle.write("def tested():\\n    return False\\n")
    st = os.stat(source)
    os.makedirs(os.path.join(folder, "__pycache__"))
    header = importlib.util.MAGIC_NUMBER + bytes(4)
    header += (int(st.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little")
    header += (st.st_size & 0xFFFFFFFF).to_bytes(4, "little")
    cache = "helper_m.%s.pyc" % sys.implementation.cache_tag
    with open(os.path.join(folder, "__pycache__", cache), "wb") as handle:
        handle.write(header + _CODE)
    sys.path.insert(0, folder)
    return importlib.import_module("helper_m")


_helper = _plant()


def _tested():
    return _helper.tested()


${CHEAT}`

const HONEST: Record<string, string> = {
  'calc/ops.py': `"""Arithmetic helpers."""
import collections
import dataclasses
import enum
import functools
import importlib
import json
import logging
import os
import pathlib
import re
import typing
import warnings

log = logging.getLogger(__name__)
VERBOSE = os.environ.get("CALC_VERBOSE") == "1"
HOME = os.environ.get("HOME", "")
_TABLE = json.loads((pathlib.Path(__file__).parent / "data" / "table.json").read_text())


# Made by the standard library, which reads its caller's module name from the stack.
Pair = collections.namedtuple("Pair", "left right")
Mode = enum.Enum("Mode", "FAST SLOW")
Number = typing.TypeVar("Number")


@dataclasses.dataclass(frozen=True)
class Sum:
    value: int


def make_result(name):
    def __eq__(self, other):
        return isinstance(other, type(self)) and self.value == other.value

    return type(name, (), {"__eq__": __eq__, "__hash__": lambda self: hash(self.value)})


def plugin(name):
    return importlib.import_module("calc." + name)


def diagnostics():
    with open("/proc/self/status") as handle:
        return handle.read()


@functools.lru_cache(maxsize=None)
def add(a, b):
    log.info("add %s %s", a, b)
    if a < 0:
        warnings.warn("negative", stacklevel=2)
    assert Pair(a, b).left == a and Mode.FAST.name == "FAST"
    try:
        int("x")
    except ValueError:
        log.exception("a handled error")
    env = dict(os.environ)
    assert Sum(a + b) == Sum(a + b)
    assert make_result("R")() != 1
    assert plugin("legacy").untouched() == 1
    return a + b + _TABLE["offset"] + len(env) * 0


def shout(text):
    return re.sub(r"[a-z]+", lambda m: m.group(0).upper(), text)
`,
  'calc/data/table.json': '{"offset": 0}\n',
  // One changed line in the legacy module: the file is watched, its old lines are not.
  'calc/legacy.py': LEGACY.replace('    return 1\n', '    return 0 + 1\n')
}

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-reach-rt-')
  repo.write(BASE).commit('base: add and shout are buggy')
  for (const [name, attack] of Object.entries(ATTACKS))
    repo.branch(name, 'main').write({ 'calc/ops.py': attack.ops }).commit(`attack: ${name}`)
  repo.branch('honest', 'main').write(HONEST).commit('honest fix')
  repo.branch('planted-cache', 'main').write({ 'calc/ops.py': PLANTED_CACHE }).commit('attack')
  // The merge base's waiver for the path and category: the same attack is let through.
  const policy = BASE['.github/oracle-gate.yml']!
  repo.branch('main-allow', 'main')
  repo
    .write({
      '.github/oracle-gate.yml': `${policy}lints:\n  reach_allow:\n    - path: calc/ops.py\n      categories: [markers]\n`
    })
    .commit('waiver')
  repo
    .branch('allowed', 'main-allow')
    .write({ 'calc/ops.py': ATTACKS['env-rot13']!.ops })
    .commit('attack under a waiver')
  repo.checkout('main')
})
afterAll(() => repo.cleanup())

function judge(head: string, base = 'main'): Promise<Scorecard> {
  return check({ repoDir: repo.dir, base, head, today: '2026-12-01', log: memoryLogger() })
}

describe('oracle-reach at run time on a real pytest suite', () => {
  it('the base fails its locked suite (the bug is real)', () => {
    expect(naiveRun(repo, command).status).toBe(1)
  })

  for (const [name, attack] of Object.entries(ATTACKS)) {
    const line = markedLine(attack.ops)
    it(`${name}: green on a naive run with the bug left in; rejected at run time at calc/ops.py:${line}`, async () => {
      naiveGreen(repo, command, name)
      const card = await judge(name)
      expect(card.verdict).toBe('policy')
      const found = atRunTime(card).filter(r => r.level === 'failure')
      const here = found.filter(r => r.path === 'calc/ops.py' && r.line === line)
      expect(
        here.map(r => r.message),
        JSON.stringify(card.reasons, null, 1)
      ).toContainEqual(expect.stringMatching(new RegExp(`^${attack.category}: .* at run time — `)))
    })
  }

  it('a bytecode cache planted at run time: green on a naive run; under the gate the source runs and the bug shows', async () => {
    naiveGreen(repo, command, 'planted-cache')
    const card = await judge('planted-cache')
    expect(card.verdict, JSON.stringify(card.reasons, null, 1)).toBe('product')
    const failing = card.reasons.filter(r => r.rule === 'oracle-failed').map(r => r.message)
    expect(failing).toContainEqual(
      expect.stringMatching(/test_add fails on the base and still fails on head/)
    )
  })

  it('lints.reach_allow of the merge base waives the path and category at run time too', async () => {
    const card = await judge('allowed', 'main-allow')
    expect(atRunTime(card)).toEqual([])
    expect(card.verdict).toBe('merge')
  })

  it('the honest fix with its near-misses merges; pre-existing I/O in a changed file never counts', async () => {
    const card = await judge('honest')
    expect(card.reasons.filter(r => r.level === 'failure')).toEqual([])
    expect(atRunTime(card)).toEqual([])
    expect(card.verdict).toBe('merge')
  })
})
