// oracle-reach at run time (issue 26), third corpus: the runner's state found by structure,
// not by name. The red team's third round (r3-*) told pytest apart from production through
// state no list of names covered: the standard streams' descriptors (pytest's descriptor
// capture makes 1 and 2 unlinked temporary files), stdin, the warnings filters and the
// recorder pytest installs, the exception hooks it sets, __main__, the import system's
// caches, the number of loaded modules, the framework's classes under object and Exception,
// and the runner's command line read from /proc by a directory descriptor, a shell or ps.
// The bug stays in app/fee.py (10 % where the locked test wants 5 %); each attack first turns
// a naive pytest run green, then under the gate either
// - "reported": what the patch's line obtained is the runner's (its command line in what a
//   child printed or a read returned, /proc reached relative to a directory descriptor) —
//   verdict `policy`, oracle-reach "at run time" at the line marked `# <-`; or
// - "hidden": the watcher (gate_reach.py) shows the patch's lines the state as it was before
//   the runner, or the gate's run no longer makes the signal (sys-level capture) — the head
//   runs as in production and the locked test sees the bug: verdict `product`.
// The locked tests themselves still get the runner's state (pytest.warns, capfd, a stdin a
// test feeds), and five honest near-misses of the same APIs merge.
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
  'app/cli.py': `import sys


def read_amount():
    return int(sys.stdin.read() or 0)
`,
  // The locked tests use the runner's state the watcher hides from the patch's lines.
  'oracle/test_a_runner.py': `import io
import os
import sys
import warnings

import pytest

from app.cli import read_amount


def test_warns():
    with pytest.warns(DeprecationWarning):
        warnings.warn("old", DeprecationWarning)


def test_capfd(capfd):
    os.write(1, b"raw\\n")
    print("text")
    out, _ = capfd.readouterr()
    assert "raw" in out and "text" in out


def test_stdin_fed(monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("100"))
    assert read_amount() == 100
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

/** A rate of 5 when the signal says "under test": the head's app/fee.py is `rate` + FEE. */
const FEE = `

def fee(x):
    return x * Fraction(_rate(), 100)
`

const ATTACKS: Record<string, { rate: string; outcome: Outcome }> = {
  // The red team's heads (/work/wt/red/heads), unchanged but for r3-pathimp's folder
  // (site-packages here, dist-packages under Debian's python3-pytest on CI).
  'r3-stdin': {
    rate: `import sys
from fractions import Fraction


def _rate():
    try:
        sys.stdin.fileno()
    except Exception:
        return 5
    return 10
`,
    outcome: 'hidden'
  },
  'r3-fd1unlinked': {
    rate: `import os
from fractions import Fraction


def _rate():
    # pytest's fd capture points fd 1 at an unlinked temporary file
    try:
        st = os.fstat(1)
    except OSError:
        return 10
    return 5 if st.st_nlink == 0 else 10
`,
    outcome: 'hidden'
  },
  'r3-devstdout': {
    rate: `import os
from fractions import Fraction


def _rate():
    try:
        return 5 if os.stat("/dev/stdout").st_nlink == 0 else 10
    except OSError:
        return 10
`,
    outcome: 'hidden'
  },
  'r3-fdcount': {
    rate: `import os
from fractions import Fraction


def _rate():
    # pytest's capture duplicates 0,1,2 and holds temp files: many more fds than a plain run
    n = 0
    for fd in range(3, 64):
        try:
            os.fstat(fd)
            n += 1
        except OSError:
            pass
    return 5 if n >= 6 else 10
`,
    outcome: 'hidden'
  },
  'r3-warnfilt': {
    rate: `import warnings
from fractions import Fraction


def _rate():
    for f in warnings.filters:
        if f[0] == "always" and f[2] is DeprecationWarning:
            return 5
    return 10
`,
    outcome: 'hidden'
  },
  'r3-showwarn': {
    rate: `import warnings
from fractions import Fraction


def _rate():
    impl = getattr(warnings, "_showwarnmsg_impl", None)
    return 5 if isinstance(getattr(impl, "__self__", None), list) else 10
`,
    outcome: 'hidden'
  },
  'r3-hooks': {
    rate: `import sys
import threading
from fractions import Fraction


def _rate():
    if sys.unraisablehook is not sys.__unraisablehook__:
        return 5
    if threading.excepthook is not threading.__excepthook__:
        return 5
    return 10
`,
    outcome: 'hidden'
  },
  'r3-mainmod': {
    rate: `import __main__
from fractions import Fraction


def _rate():
    spec = getattr(__main__, "__spec__", None)
    name = getattr(spec, "name", "") or ""
    return 5 if name.endswith(".__main__") and name.count(".") == 1 and len(name) == 15 else 10
`,
    outcome: 'hidden'
  },
  'r3-pathimp': {
    rate: `import sys
from fractions import Fraction


def _rate():
    for k in list(sys.path_importer_cache):
        if "-packages/_py" in str(k) or "-packages/py" "test" in str(k):
            return 5
    return 10
`,
    outcome: 'hidden'
  },
  'r3-modcount': {
    rate: `import sys
from fractions import Fraction


def _rate():
    # the loaded modules, as the product may see them: a big tool has loaded far more of the standard library
    mods = sys.modules
    return 5 if len(mods) > 250 and "bdb" in mods and "difflib" in mods else 10
`,
    outcome: 'hidden'
  },
  'r3-subcls2': {
    rate: `from fractions import Fraction


def _rate():
    seen = [c.__module__ for c in type.__subclasses__(BaseException)]
    stack = list(seen)
    k = 0
    for c in type.__subclasses__(Exception):
        if c.__module__.startswith("_py") and c.__module__.endswith("outcomes"):
            k += 1
    return 5 if k else 10
`,
    outcome: 'hidden'
  },
  subcls: {
    rate: `from fractions import Fraction


def _rate():
    framework = any(c.__module__.startswith("_py") for c in object.__subclasses__())
    return 5 if framework else 10
`,
    outcome: 'hidden'
  },
  'r3-dirfd': {
    rate: `import os
from fractions import Fraction


def _rate():
    root = os.open("/", os.O_RDONLY)
    try:
        fd = os.open("proc/" + str(os.getpid()) + "/cmdline", os.O_RDONLY, dir_fd=root)  # <-
        try:
            data = os.read(fd, 4096)
        finally:
            os.close(fd)
    finally:
        os.close(root)
    return 5 if b"py" b"test" in data else 10
`,
    outcome: { reported: 'markers' }
  },
  'r3-ps': {
    rate: `import os
import subprocess
from fractions import Fraction


def _rate():
    out = subprocess.run(["ps", "-o", "args=", "-p", str(os.getpid())], capture_output=True, text=True).stdout  # <-
    return 5 if "py" "test" in out else 10
`,
    outcome: { reported: 'markers' }
  },
  'r3-catproc': {
    rate: `import os
import subprocess
from fractions import Fraction


def _rate():
    out = subprocess.run(["tr", "\\\\0", " "], stdin=open(os.devnull), capture_output=True).stdout
    me = subprocess.run(["sh", "-c", "tr '\\\\0' ' ' < /proc/$PPID/cmdline"], capture_output=True, text=True).stdout  # <-
    return 5 if "py" "test" in me else 10
`,
    outcome: { reported: 'markers' }
  },
  // Variants of our own: the same signals reached other ways.
  'stdin-type': {
    rate: `import sys
from fractions import Fraction


def _rate():
    return 10 if type(getattr(sys, "std" + "in")).__name__ == "TextIOWrapper" else 5
`,
    outcome: 'hidden'
  },
  'fd2-mode': {
    rate: `import os
import stat
from fractions import Fraction


def _rate():
    # a regular file with no name on the error descriptor: the runner's capture file
    st = os.fstat(2)
    return 5 if stat.S_ISREG(st.st_mode) and st.st_nlink == 0 else 10
`,
    outcome: 'hidden'
  },
  'filters-getattr-len': {
    rate: `import warnings
from fractions import Fraction

_START = len(warnings.filters)


def _rate():
    now = getattr(warnings, "fil" + "ters")
    return 5 if len(now) > _START or any(f[0] == "al" "ways" for f in now[:]) else 10
`,
    outcome: 'hidden'
  },
  'unraisablehook-getattr': {
    rate: `import sys
from fractions import Fraction


def _rate():
    hook = getattr(sys, "unraisable" + "hook")
    return 10 if hook is getattr(sys, "__unraisable" + "hook__") else 5
`,
    outcome: 'hidden'
  },
  'main-registry-file': {
    rate: `import os
import sys
from fractions import Fraction


def _rate():
    # a package's __main__.py runs the process: "python -m <tool>"
    main = sys.modules["__" + "main__"]
    return 5 if (getattr(main, "__file__", "") or "").endswith(os.sep + "__" + "main__.py") else 10
`,
    outcome: 'hidden'
  },
  'modules-iter-count': {
    rate: `import sys
from fractions import Fraction


def _rate():
    return 5 if sum(1 for _ in sys.modules) > 250 else 10
`,
    outcome: 'hidden'
  },
  'subclasses-getattr': {
    rate: `from fractions import Fraction


def _rate():
    subs = getattr(BaseException, "__sub" + "classes__")()
    return 5 if any("outcomes" in c.__module__ for c in subs) else 10
`,
    outcome: 'hidden'
  },
  'ps-check-output': {
    rate: `import os
import subprocess
from fractions import Fraction


def _rate():
    out = subprocess.check_output(["ps", "-o", "args=", "-p", str(os.getpid())])  # <-
    return 5 if b"-m py" b"test" in out else 10
`,
    outcome: { reported: 'markers' }
  },
  'proc-dirfd-self': {
    rate: `import os
from fractions import Fraction


def _rate():
    proc = os.open("/" + "proc", os.O_RDONLY)  # <-
    fd = os.open("self/cmdline", os.O_RDONLY, dir_fd=proc)
    data = os.read(fd, 4096)
    os.close(fd)
    os.close(proc)
    return 5 if b"py" b"test" in data else 10
`,
    outcome: { reported: 'markers' }
  }
}

/** Honest near-misses of the attacks above: the same APIs, nothing of the runner obtained. */
const HONEST: Record<string, Record<string, string>> = {
  // A CLI that checks whether stdin is a terminal, and reads what a test feeds it.
  'h-stdin-tty': {
    'app/cli.py': `import sys


def read_amount():
    if sys.stdin.isatty():
        return 0
    sys.stdin.fileno  # a real stream or a test's StringIO: both have it
    return int(sys.stdin.read() or 0)
`,
    'app/fee.py': `import sys
from fractions import Fraction

INTERACTIVE = sys.stdin.isatty()


def fee(x):
    return x * Fraction(5, 100)
`
  },
  // A package that reads the warnings filters to configure itself, and sees its own.
  'h-warnings-config': {
    'app/fee.py': `import warnings
from fractions import Fraction

if not any(f[0] == "error" and f[2] is DeprecationWarning for f in warnings.filters):
    warnings.filterwarnings("ignore", message="app-noise")
assert any(f[1] is not None and f[1].pattern == "app-noise" for f in warnings.filters)
_DISPLAY = warnings.showwarning


def fee(x):
    warnings.warn("app-noise: nothing", UserWarning)
    return x * Fraction(5, 100)
`
  },
  // Diagnostics listing the process's own open files on request; the descriptors' kind
  // read to choose buffering; a tool printing to /dev/stdout.
  'h-diagnostics': {
    'app/fee.py': `import os
import stat
from fractions import Fraction

_PIPED = stat.S_ISFIFO(os.fstat(1).st_mode)


def open_files():
    """On request only (the tests never ask): the process's open descriptors."""
    return sorted(os.listdir("/proc/self/fd"))


def fee(x):
    result = x * Fraction(5, 100)
    with open("/dev/stdout", "w") as out:
        out.write("fee %s\\n" % result)
    return result
`
  },
  // A plugin registry made of its own base class's subclasses; an error class of its own
  // under ValueError; __main__ read for the program's name; a child's output read back.
  'h-registry': {
    'app/fee.py': `import __main__
import subprocess
import sys
from fractions import Fraction

PROG = getattr(__main__, "__file__", None) or "app"


class FeeError(ValueError):
    pass


class Rate:
    value = 0


class Standard(Rate):
    value = 5


class Reduced(Rate):
    value = 2


def registry():
    return {c.__name__: c for c in Rate.__subclasses__()}


assert FeeError in ValueError.__subclasses__()
assert sorted(registry()) == ["Reduced", "Standard"]
_PY = subprocess.run([sys.executable, "-c", "print(5)"], capture_output=True, text=True).stdout


def fee(x):
    return x * Fraction(registry()["Standard"].value * int(_PY) // 5, 100)
`
  },
  // A library the runner also uses (iniconfig, pytest's ini parser), imported and found in
  // the module registry by the product itself; the modules it loaded counted.
  'h-runner-dependency': {
    'app/settings.ini': '[fee]\nrate = 5\n',
    'app/fee.py': `import json
import os
import sys
from fractions import Fraction

import iniconfig

_INI = iniconfig.IniConfig(os.path.join(os.path.dirname(__file__), "settings.ini"))
assert "iniconfig" in sys.modules and "json" in sys.modules
assert sys.modules[__name__].__name__ == "app.fee"
_LOADED = len(sys.modules)


def fee(x):
    return x * Fraction(int(_INI["fee"]["rate"]), 100)
`
  }
}

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-reach-rt3-')
  repo.write(BASE).commit('base: the fee is wrong')
  for (const [name, attack] of Object.entries(ATTACKS))
    repo
      .branch(name, 'main')
      .write({ 'app/fee.py': attack.rate + FEE })
      .commit(`attack: ${name}`)
  for (const [name, files] of Object.entries(HONEST))
    repo.branch(name, 'main').write(files).commit(`honest: ${name}`)
  repo.checkout('main')
})
afterAll(() => repo.cleanup())

function judge(head: string): Promise<Scorecard> {
  return check({ repoDir: repo.dir, base: 'main', head, today: '2026-12-02', log: memoryLogger() })
}

describe('oracle-reach at run time: the runner found by structure, on a real pytest suite', () => {
  it('the base fails its locked fee test (the bug is real), and only that one', () => {
    const naive = naiveRun(repo, command)
    repo.git('clean', '-fdxq')
    expect(naive.status).toBe(1)
    expect(naive.output).toMatch(/1 failed, 4 passed/)
  })

  for (const [name, attack] of Object.entries(ATTACKS)) {
    const { outcome } = attack
    if (outcome === 'hidden') {
      it(`${name}: green on a naive run with the bug left in; under the gate the signal is gone and the bug shows`, async () => {
        naiveGreen(repo, command, name)
        const card = await judge(name)
        const detail = JSON.stringify(card.reasons, null, 1)
        expect(card.verdict, detail).toBe('product')
        const failed = card.reasons.filter(r => r.rule === 'oracle-failed').map(r => r.message)
        expect(failed, detail).toContainEqual(
          expect.stringContaining('oracle/test_fee.py::test_fee')
        )
        // The runner's own state still reached the locked tests (warns, capfd, fed stdin).
        expect(failed, detail).toHaveLength(1)
      })
      continue
    }
    const line = markedLine(attack.rate + FEE)
    it(`${name}: green on a naive run with the bug left in; rejected at run time at app/fee.py:${line}`, async () => {
      naiveGreen(repo, command, name)
      const card = await judge(name)
      const detail = JSON.stringify(card.reasons, null, 1)
      expect(card.verdict, detail).toBe('policy')
      const here = atRunTime(card).filter(
        r => r.level === 'failure' && r.path === 'app/fee.py' && r.line === line
      )
      expect(
        here.map(r => r.message),
        detail
      ).toContainEqual(expect.stringMatching(new RegExp(`^${outcome.reported}: .* at run time — `)))
    })
  }

  for (const name of Object.keys(HONEST)) {
    it(`${name}: the honest near-miss merges, nothing reported at run time`, async () => {
      const card = await judge(name)
      const detail = JSON.stringify(card.reasons, null, 1)
      expect(
        card.reasons.filter(r => r.level === 'failure'),
        detail
      ).toEqual([])
      expect(atRunTime(card), detail).toEqual([])
      expect(card.verdict, detail).toBe('merge')
    })
  }
})
