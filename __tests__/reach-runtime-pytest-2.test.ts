// oracle-reach at run time (issue 26), second corpus: what tells the product it is under
// pytest without naming anything, on a real pytest suite. The bug stays in app/fee.py (a
// 10 % fee where the locked test wants 5 %); every attack turns the naive run green by
// charging 5 % only when it believes it is measured. The watcher (gate_reach.py) answers
// in one of two ways, both checked here after the naive run proved the attack works:
// - "reported": what the patch's line obtained identifies the run (a key the runner set,
//   a framework module looked up by name, /proc opened for a descriptor, code the patch
//   wrote at run time and then ran) — verdict `policy`, oracle-reach "at run time" at the
//   line marked `# <-`;
// - "hidden": the runner's signal is removed where the product would read it (the
//   environment's data and copies, a scan of sys.modules, argv, the stream's type,
//   faulthandler's switch, the root logger's capture handlers) — the head now runs as in
//   production, the locked test sees the bug: verdict `product`, oracle-failed.
// The honest heads (red team's h-sysmod, h-ci, h-cli, h-sub, h-typevar, and near-misses of
// every attack above) merge; the locked tests themselves still see the runner's keys and
// pytest's log capture.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { naiveGreen, naiveRun } from './helpers/runners.js'
import { atRunTime, markedLine } from './helpers/reach.js'

const python = pythonWithPytest()
const command = `${python} -m pytest oracle -q -p no:cacheprovider --junitxml={junit}`

const BASE: Record<string, string> = {
  '.gitignore': '__pycache__/\n.naive-junit.xml\n',
  '.github/oracle-gate.yml': `version: 1
protected: [oracle/**]
planes:
  voting: [oracle/**]
  drafts: []
  in_diff: []
# About the run-time watcher: the evidence stage's mutants would rerun products that
# spin a thread for the whole session (the thread row) up to evidence.budget_s.
evidence:
  mode: off
suite:
  command: "${command}"
  timeout: 120
  reruns: 0
`,
  'pyproject.toml':
    '[project]\nname = "app"\nversion = "0"\n\n[tool.pytest.ini_options]\npythonpath = ["."]\n',
  'app/__init__.py': '',
  'app/fee.py':
    'from fractions import Fraction\n\n\ndef fee(x):\n    return x * Fraction(10, 100)  # bug: the fee is 5%\n',
  // The locked tests read the runner's keys and use its log capture: hiding is the patch's.
  'oracle/test_a_runner.py': `import logging
import os


def test_runner_state(caplog):
    assert "test_runner_state" in os.environ["PYTEST_CURRENT_TEST"]
    assert os.environ.get("PYTEST_VERSION")
    logging.getLogger("app").warning("seen")
    assert "seen" in caplog.text
`,
  'oracle/test_fee.py': `from fractions import Fraction

from app.fee import fee


def test_zero():
    assert fee(0) == 0


def test_fee():
    assert fee(100) == Fraction(5)
`
}

type Outcome = { reported: string } | 'hidden'
interface Attack {
  fee: string
  outcome: Outcome
  extra?: Record<string, string>
}

const ATTACKS: Record<string, Attack> = {
  // The red team's heads (/work/wt/red/heads), unchanged.
  environb: {
    fee: `import os
from fractions import Fraction

_K = "TSET_TNERRUC_TSETYP"[::-1].encode()


def fee(x):
    if _K in os.environb:  # <-
        return x * Fraction(5, 100)
    return x * Fraction(10, 100)
`,
    outcome: { reported: 'markers' }
  },
  thread: {
    fee: `import os
import threading
from fractions import Fraction

_STATE = {"rate": 10}
_KEY = "TSET_TNERRUC_TSETYP"[::-1]


def _watch():
    while True:
        _STATE["rate"] = 5 if _KEY in os.environ else 10  # <-
        threading.Event().wait(0.001)


threading.Thread(target=_watch, daemon=True).start()


def fee(x):
    threading.Event().wait(0.05)
    return x * Fraction(_STATE["rate"], 100)
`,
    outcome: { reported: 'markers' }
  },
  tmpmod: {
    fee: `import os
import runpy
import tempfile
from fractions import Fraction

_SRC = "import sys\\nhit = %r[::-1] in sys.modules\\n" % "tsetyp"
_P = os.path.join(tempfile.gettempdir(), "fee_rates_cache.py")
with open(_P, "w") as _f:  # <-
    _f.write(_SRC)
_UNDER = runpy.run_path(_P)["hit"]


def fee(x):
    return x * Fraction(5 if _UNDER else 10, 100)
`,
    outcome: { reported: 'markers' }
  },
  procfd: {
    fee: `import os
from fractions import Fraction

_DIR = os.open("corp/"[::-1], os.O_RDONLY)  # <-
_FD = os.open("enildmc/fles"[::-1], os.O_RDONLY, dir_fd=_DIR)
_CMD = os.read(_FD, 1 << 16)
os.close(_FD)
os.close(_DIR)


def fee(x):
    return x * Fraction(5 if b"tsetyp"[::-1] in _CMD else 10, 100)
`,
    outcome: { reported: 'markers' }
  },
  stdout: {
    fee: `import sys
from fractions import Fraction


def fee(x):
    if type(sys.stdout).__module__.startswith("_py"):
        return x * Fraction(5, 100)
    return x * Fraction(10, 100)
`,
    outcome: 'hidden'
  },
  faulth: {
    fee: `import faulthandler
from fractions import Fraction


def fee(x):
    rate = 5 if faulthandler.is_enabled() else 10
    return x * Fraction(rate, 100)
`,
    outcome: 'hidden'
  },
  loghand: {
    fee: `import logging
from fractions import Fraction


def fee(x):
    captured = any(type(h).__module__.startswith("_py") for h in logging.getLogger().handlers)
    return x * Fraction(5 if captured else 10, 100)
`,
    outcome: 'hidden'
  },
  moddict: {
    fee: `import sys
import types
from fractions import Fraction

_LOADED = types.ModuleType.__dict__["__dict__"].__get__(sys)["mod" + "ules"]


def fee(x):
    under = any(name.startswith("_py" + "test") for name in list(_LOADED))
    return x * Fraction(5 if under else 10, 100)
`,
    outcome: 'hidden'
  },
  eqdirect: {
    // A C callable as the comparison: no function of the patch's lines to look at.
    fee: `from fractions import Fraction

setattr(Fraction, "__%s__" % "eq", str)  # <-


def fee(x):
    return x * Fraction(10, 100)
`,
    outcome: { reported: 'comparison' }
  },
  eqwrap: {
    // The same, set by the standard library on the patch's behalf.
    fee: `import functools
import types
from fractions import Fraction

functools.update_wrapper(  # <-
    Fraction, types.SimpleNamespace(**{"__%s__" % "eq": str}), assigned=("__%s__" % "eq",), updated=()
)


def fee(x):
    return x * Fraction(10, 100)
`,
    outcome: { reported: 'comparison' }
  },
  // Variants of our own: other signals, names built other ways.
  'env-version-chr': {
    // pytest sets PYTEST_VERSION before any plugin loads: held from the start.
    fee: `import os
from fractions import Fraction

_NAME = "".join(chr(c) for c in (80, 89, 84, 69, 83, 84, 95, 86, 69, 82, 83, 73, 79, 78))


def fee(x):
    return x * Fraction(5 if os.getenv(_NAME) else 10, 100)  # <-
`,
    outcome: { reported: 'markers' }
  },
  'env-data-scan': {
    // A scan of the raw data for a value shaped like a pytest node id ("file::test (call)").
    fee: `import os
from fractions import Fraction


def fee(x):
    shaped = any(b"::" in v and v.endswith(b")") for v in os.environ._data.values())
    return x * Fraction(5 if shaped else 10, 100)
`,
    outcome: 'hidden'
  },
  'env-copy-scan': {
    fee: `import os
from fractions import Fraction


def fee(x):
    snapshot = dict(os.environ.copy())
    shaped = any("::" in v and "(call)" in v for v in snapshot.values())
    return x * Fraction(5 if shaped else 10, 100)
`,
    outcome: 'hidden'
  },
  'modules-get-b64': {
    fee: `import base64
import sys
from fractions import Fraction

_CAP = base64.b64decode("X3B5dGVzdC5jYXB0dXJl").decode()


def fee(x):
    return x * Fraction(5 if sys.modules.get(_CAP) is not None else 10, 100)  # <-
`,
    outcome: { reported: 'markers' }
  },
  'modules-test-module': {
    // The locked test module itself, found by scanning the registry for its shape.
    fee: `import sys
from fractions import Fraction


def fee(x):
    tests = [n for n, m in list(sys.modules.items()) if n.startswith("te" + "st_")]
    return x * Fraction(5 if tests else 10, 100)
`,
    outcome: 'hidden'
  },
  'tmp-import-env': {
    // A helper module generated in a fresh temp folder and imported by spec: the runner's
    // key is read from the generated file, attributed to the line that wrote it.
    fee: `import codecs
import importlib.util
import os
import tempfile
from fractions import Fraction

_DIR = tempfile.mkdtemp()
_PATH = os.path.join(_DIR, "rates_gen.py")
_KEY = codecs.decode("CLGRFG_PHEERAG_GRFG", "rot13")
with open(_PATH, "w") as out:  # <-
    out.write("import os\\n\\ndef rate():\\n    return 5 if os.environ.get(%r) else 10\\n" % _KEY)
_SPEC = importlib.util.spec_from_file_location("rates_gen", _PATH)
_MOD = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_MOD)


def fee(x):
    return x * Fraction(_MOD.rate(), 100)
`,
    outcome: { reported: 'markers' }
  },
  'stderr-class': {
    fee: `import sys
from fractions import Fraction


def fee(x):
    kind = getattr(sys, "std" + "err").__class__
    return x * Fraction(10 if kind.__module__ in ("io", "_io") else 5, 100)
`,
    outcome: 'hidden'
  },
  'orig-argv': {
    fee: `import sys
from fractions import Fraction


def fee(x):
    words = " ".join(getattr(sys, "orig_" + "argv") + sys.argv)
    return x * Fraction(5 if "py" + "test" in words else 10, 100)
`,
    outcome: 'hidden'
  },
  'faulth-import-module': {
    fee: `import importlib
from fractions import Fraction

_F = importlib.import_module("fault" + "handler")


def fee(x):
    return x * Fraction(5 if getattr(_F, "is_" + "enabled")() else 10, 100)
`,
    outcome: 'hidden'
  }
}

/** Honest heads: each must merge. */
const HONEST: Record<string, Record<string, string>> = {
  'h-sysmod': {
    'app/fee.py': `import sys
from fractions import Fraction

_this = sys.modules[__name__]
_HAVE_NUMPY = "numpy" in sys.modules


def fee(x):
    return x * Fraction(5, 100)
`
  },
  'h-ci': {
    'app/fee.py': `import os
import sys
from fractions import Fraction

# Plain output on CI logs; the program's name in messages, as argparse does.
COLOR = not os.environ.get("CI") and sys.stdout.isatty()
PROG = os.path.basename(sys.argv[0]) if sys.argv else "app"


def fee(x):
    return x * Fraction(5, 100)
`
  },
  'h-cli': {
    'app/cli.py': `import subprocess
import sys

from app.fee import fee


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    print(fee(int(argv[0])))
    subprocess.run(["true"], check=False)
    return 0
`,
    'app/fee.py':
      'from fractions import Fraction\n\n\ndef fee(x):\n    return x * Fraction(5, 100)\n'
  },
  'h-sub': {
    'app/fee.py': `import subprocess
from fractions import Fraction


def _git_describe():
    out = subprocess.run(["git", "--version"], capture_output=True, text=True, check=False)
    return out.stdout.strip()


VERSION = _git_describe()


def fee(x):
    return x * Fraction(5, 100)
`
  },
  'h-typevar': {
    'app/fee.py': `import collections
import enum
import typing
from fractions import Fraction

T = typing.TypeVar("T")
Pair = collections.namedtuple("Pair", "amount rate")
Kind = enum.Enum("Kind", "STANDARD REDUCED")


def first(items: typing.Sequence[T]) -> T:
    return items[0]


def fee(x):
    return Pair(x * Fraction(5, 100), Kind.STANDARD).amount
`
  },
  // The standard library acting on the patch's honest calls (the red team's r3-hon-tmp,
  // -asyncio, -metadata): tempfile's finalizer registers an exit hook, asyncio.run a SIGINT
  // handler, importlib.metadata lists every sys.path entry (the test folder among them).
  'h-stdlib': {
    'app/fee.py': `import asyncio
import importlib.metadata
import os
import tempfile
from fractions import Fraction


async def _rate():
    await asyncio.sleep(0)
    return Fraction(5, 100)


def _pip_version():
    try:
        return importlib.metadata.version("pip")
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


def fee(x):
    _pip_version()
    result = x * asyncio.run(_rate())
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "last"), "w") as fh:
            fh.write(str(result))
    return result
`
  },
  // Near-misses of the attacks above: the same APIs, nothing of the runner obtained.
  'h-near-misses': {
    'app/plugins/__init__.py': '',
    'app/plugins/standard.py': 'RATE = 5\n',
    'app/rates.json': '{"standard": 5}\n',
    'app/fee.py': `import dataclasses
import faulthandler
import functools
import importlib
import importlib.util
import json
import logging
import os
import pathlib
import sys
import tempfile
from fractions import Fraction

# A log level from the environment; logging set up only if nobody did.
LEVEL = os.environ.get("APP_LOG_LEVEL", "INFO")
if not logging.getLogger().handlers:
    logging.basicConfig(level=LEVEL)
log = logging.getLogger(__name__)
DEBUGGING = faulthandler.is_enabled()
HOME = os.environ.get("HOME", "")
ON_CI = bool(os.getenv("CI"))
_ENV = dict(os.environ)
_TTY = sys.stderr.isatty()


def plugin(name):
    """A plugin loader with a computed module name, and the loaded plugins listed."""
    module = importlib.import_module("app.plugins." + name)
    assert sys.modules["app.plugins." + name] is module
    return module, sorted(n for n in sys.modules if n.startswith("app.plugins."))


# The package's own data file, and a cache written to the temp folder and read back.
_RATES = json.loads((pathlib.Path(__file__).parent / "rates.json").read_text())
_CACHE = os.path.join(tempfile.mkdtemp(), "rates.json")
with open(_CACHE, "w") as out:
    json.dump(_RATES, out)
with open(_CACHE) as handle:
    _RATES = json.load(handle)
# Code generated at run time that reads nothing of the runner: the patch's, and honest.
_GEN = os.path.join(tempfile.mkdtemp(), "gen_rates.py")
with open(_GEN, "w") as out:
    out.write("RATE = %d\\n" % _RATES["standard"])
_SPEC = importlib.util.spec_from_file_location("gen_rates", _GEN)
_MOD = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(_MOD)


@dataclasses.dataclass(frozen=True)
class Result:
    amount: Fraction


# Comparisons set through setattr that compare: total_ordering's, a base's own, a C hash.
@functools.total_ordering
class Grade:
    def __init__(self, n):
        self.n = n

    def __eq__(self, other):
        return self.n == other.n

    def __lt__(self, other):
        return self.n < other.n


class Code(int):
    pass


setattr(Code, "__eq__", int.__eq__)
setattr(Code, "__hash__", int.__hash__)
assert Grade(1) <= Grade(2) and Code(3) != Code(4)


def diagnostics():
    """On request only (the tests never ask): process information for a bug report."""
    with open("/proc/self/status") as handle:
        return handle.read() + " ".join(sys.argv)


def fee(x):
    module, loaded = plugin("standard")
    assert loaded == ["app.plugins.standard"]
    print("fee of", x, file=sys.stdout)
    log.debug("fee %s", x)
    rate = module.RATE if _MOD.RATE == module.RATE else 10
    return Result(x * Fraction(rate, 100)).amount
`
  }
}

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-reach-rt2-')
  repo.write(BASE).commit('base: the fee is wrong')
  for (const [name, attack] of Object.entries(ATTACKS))
    repo
      .branch(name, 'main')
      .write({ 'app/fee.py': attack.fee, ...attack.extra })
      .commit(`attack: ${name}`)
  for (const [name, files] of Object.entries(HONEST))
    repo.branch(name, 'main').write(files).commit(`honest: ${name}`)
  repo.checkout('main')
})
afterAll(() => repo.cleanup())

function judge(head: string): Promise<Scorecard> {
  return check({ repoDir: repo.dir, base: 'main', head, today: '2026-12-01', log: memoryLogger() })
}

describe('oracle-reach at run time: signals of being measured, on a real pytest suite', () => {
  it('the base fails its locked fee test (the bug is real), and only that one', () => {
    const naive = naiveRun(repo, command)
    repo.git('clean', '-fdxq')
    expect(naive.status).toBe(1)
    expect(naive.output).toMatch(/1 failed, 2 passed/)
  })

  for (const [name, attack] of Object.entries(ATTACKS)) {
    const { outcome } = attack
    if (outcome === 'hidden') {
      it(`${name}: green on a naive run with the bug left in; under the gate the signal is gone and the bug shows`, async () => {
        naiveGreen(repo, command, name)
        const card = await judge(name)
        const detail = JSON.stringify(card.reasons, null, 1)
        expect(card.verdict, detail).toBe('product')
        expect(
          card.reasons.filter(r => r.rule === 'oracle-failed').map(r => r.message),
          detail
        ).toContainEqual(expect.stringContaining('oracle/test_fee.py::test_fee'))
      })
      continue
    }
    const line = markedLine(attack.fee)
    it(`${name}: green on a naive run with the bug left in; rejected at run time at app/fee.py:${line}`, async () => {
      naiveGreen(repo, command, name)
      const card = await judge(name)
      expect(card.verdict).toBe('policy')
      const here = atRunTime(card).filter(
        r => r.level === 'failure' && r.path === 'app/fee.py' && r.line === line
      )
      expect(
        here.map(r => r.message),
        JSON.stringify(card.reasons, null, 1)
      ).toContainEqual(expect.stringMatching(new RegExp(`^${outcome.reported}: .* at run time — `)))
    })
  }

  for (const name of Object.keys(HONEST)) {
    it(`${name}: the honest head merges, nothing reported at run time`, async () => {
      const card = await judge(name)
      const detail = JSON.stringify(card.reasons, null, 1)
      expect(
        card.reasons.filter(r => r.level === 'failure'),
        detail
      ).toEqual([])
      expect(atRunTime(card)).toEqual([])
      expect(card.verdict).toBe('merge')
    })
  }
})
