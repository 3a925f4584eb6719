// Differential replay (issue 26, docs/lints.md "Behaves differently under the runner"), on a
// real pytest suite through check(). The bug stays in app/fee.py (a 10 % fee where the
// locked test wants 5 %); each attack charges 5 % only when some signal says it runs under
// a test runner, a signal the run-time watcher (gate_reach.py) does not name: the red team's
// heads (/work/wt/red/heads r3-*, unchanged) and three of this file's own (stdout's name,
// CPU time spent, heap blocks). Each is first green on a naive pytest run with the bug in
// place, then rejected: the vote recorded fee(100) == Fraction(5), a plain Python process
// called fee(100) again and got Fraction(10), verdict `policy` with oracle-reach "at run
// time: behaves differently under the test runner" at fee's line. The red-team heads whose
// signal the watcher now hides (HIDDEN) answer as in production in the vote and are
// `product` on the locked test's failure instead; a head whose call ends
// the plain process is a gate error. The honest heads merge: the plain fix, and near-misses
// whose outcome depends on what the test set up (an environment variable through
// monkeypatch, a setting the test changed, a class's registry, a file in tmp_path, a test
// double by monkeypatch or unittest.mock), on chance or the clock (dropped as
// nondeterministic), a class-based API, prints and logs, a Hypothesis property, an
// lru_cache, and a recursion as deep as the interpreter allows without the recorder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { check } from '../src/gate.js'
import type { Scorecard } from '../src/types.js'
import { memoryLogger } from './helpers/logger.js'
import { pythonWithPytest } from './helpers/python.js'
import { TestRepo } from './helpers/repo.js'
import { naiveGreen, naiveRun } from './helpers/runners.js'
import { atRunTime } from './helpers/reach.js'

const python = pythonWithPytest()
const command = `${python} -m pytest oracle -q -p no:cacheprovider --junitxml={junit}`

const TOOLS = `import functools
import logging
import os
import random
import time

from app import settings

log = logging.getLogger(__name__)


def greeting(name):
    return os.environ.get("APP_GREETING", "hello") + " " + name


def scaled(x):
    return x * settings.RATE


def read_number(path):
    with open(path) as handle:
        return int(handle.read()) + 1


def jitter():
    return random.random()


def stamp():
    return "t-%f" % time.time()


class Counter:
    def __init__(self):
        self.items = []

    def add(self, n):
        self.items.append(n)
        return len(self.items)

    def total(self):
        return sum(self.items)

    @staticmethod
    def zero():
        return 0


class Registry:
    entries = {}

    @classmethod
    def register(cls, name, value):
        cls.entries[name] = value

    @classmethod
    def lookup(cls, name):
        return cls.entries[name]


def shout(text):
    print(text.upper())
    log.warning("shouted %s", text)
    return text.upper()


def double(x):
    return x + x


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


@functools.lru_cache(maxsize=None)
def table(n):
    return sum(range(n + 1))


def _source():
    return 1


def from_source():
    return _source()
`

const BASE: Record<string, string> = {
  '.gitignore': '__pycache__/\n.naive-junit.xml\n.hypothesis/\n',
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
  'app/settings.py': 'RATE = 1\n',
  'app/tools.py': TOOLS,
  'app/fee.py':
    'from fractions import Fraction\n\n\ndef fee(x):\n    return x * Fraction(10, 100)  # bug: the fee is 5%\n',
  'oracle/test_fee.py': `from fractions import Fraction

from app.fee import fee


def test_zero():
    assert fee(0) == 0


def test_fee():
    assert fee(100) == Fraction(5)
`,
  'oracle/test_tools.py': `from unittest import mock

from hypothesis import given, strategies as st

from app import settings, tools


def test_env(monkeypatch):
    monkeypatch.setenv("APP_GREETING", "hi")
    assert tools.greeting("bob") == "hi bob"


def test_setting():
    settings.RATE = 3
    try:
        assert tools.scaled(100) == 300
    finally:
        settings.RATE = 1


def test_file(tmp_path):
    path = tmp_path / "n.txt"
    path.write_text("41")
    assert tools.read_number(str(path)) == 42


def test_chance_and_clock():
    assert 0 <= tools.jitter() < 1
    assert tools.stamp().startswith("t-")


def test_class():
    counter = tools.Counter()
    counter.add(2)
    counter.add(3)
    assert counter.total() == 5
    assert tools.Counter.zero() == 0


def test_class_state():
    tools.Registry.register("a", 3)
    assert tools.Registry.lookup("a") == 3


def test_prints(capsys):
    assert tools.shout("x") == "X"
    assert "X" in capsys.readouterr().out


@given(st.integers(-1000, 1000))
def test_property(x):
    assert tools.double(x) == 2 * x


def test_recursion():
    assert tools.depth(900) == 900


def test_cache():
    assert tools.table(10) == 55
    assert tools.table.cache_info().currsize >= 1


def test_double(monkeypatch):
    monkeypatch.setattr(tools, "_source", lambda: 7)
    assert tools.from_source() == 7


def test_mock():
    with mock.patch.object(tools, "_source", return_value=9):
        assert tools.from_source() == 9
`
}

/** Heads that tell the runner by a signal the watcher does not name: fee.py as a whole. The
 * red team's third-round heads among them (r3-*) were written against a watcher that showed
 * patch lines the runner's own state; the run-time watcher now shows most of it as it was
 * before the runner (docs/lints.md, "At run time"), so those answer as in production and
 * fail the locked test: HIDDEN below. The rest reach the differential. */
const SIGNALS: Record<string, string> = {
  'r3-stdin': `import sys
from fractions import Fraction


def _rate():
    try:
        sys.stdin.fileno()
    except Exception:
        return 5
    return 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-fd1unlinked': `import os
from fractions import Fraction


def _rate():
    # pytest's fd capture points fd 1 at an unlinked temporary file
    try:
        st = os.fstat(1)
    except OSError:
        return 10
    return 5 if st.st_nlink == 0 else 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-devstdout': `import os
from fractions import Fraction


def _rate():
    try:
        return 5 if os.stat("/dev/stdout").st_nlink == 0 else 10
    except OSError:
        return 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-warnfilt': `import warnings
from fractions import Fraction


def _rate():
    for f in warnings.filters:
        if f[0] == "always" and f[2] is DeprecationWarning:
            return 5
    return 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-showwarn': `import warnings
from fractions import Fraction


def _rate():
    impl = getattr(warnings, "_showwarnmsg_impl", None)
    return 5 if isinstance(getattr(impl, "__self__", None), list) else 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-hooks': `import sys
import threading
from fractions import Fraction


def _rate():
    if sys.unraisablehook is not sys.__unraisablehook__:
        return 5
    if threading.excepthook is not threading.__excepthook__:
        return 5
    return 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-mainmod': `import __main__
from fractions import Fraction


def _rate():
    spec = getattr(__main__, "__spec__", None)
    name = getattr(spec, "name", "") or ""
    return 5 if name.endswith(".__main__") and name.count(".") == 1 and len(name) == 15 else 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-pathimp': `import sys
from fractions import Fraction


def _rate():
    for k in list(sys.path_importer_cache):
        if "site-packages/_py" in str(k) or "site-packages/py" "test" in str(k):
            return 5
    return 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-modcount': `import sys
from fractions import Fraction


def _rate():
    # the loaded modules, as the product may see them: a big tool has loaded far more of the standard library
    mods = sys.modules
    return 5 if len(mods) > 250 and "bdb" in mods and "difflib" in mods else 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-rss': `import resource
from fractions import Fraction


def _rate():
    return 5 if resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 22000 else 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-fdcount': `import os
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


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'r3-subcls2': `from fractions import Fraction


def _rate():
    seen = [c.__module__ for c in type.__subclasses__(BaseException)]
    stack = list(seen)
    k = 0
    for c in type.__subclasses__(Exception):
        if c.__module__.startswith("_py") and c.__module__.endswith("outcomes"):
            k += 1
    return 5 if k else 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'own-stdout-name': `import sys
from fractions import Fraction


def _rate():
    # pytest's capture replaces sys.stdout with a stream over its own temporary file
    return 5 if getattr(sys.stdout, "name", None) != "<stdout>" else 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'own-cputime': `import time
from fractions import Fraction


def _rate():
    # a test runner has spent far more CPU time starting up than a program has
    return 5 if time.process_time() > 0.15 else 10


def fee(x):
    return x * Fraction(_rate(), 100)
`,
  'own-blocks': `import sys
from fractions import Fraction


def _rate():
    # the heap of a process that loaded a test framework holds many more blocks
    return 5 if sys.getallocatedblocks() > 120000 else 10


def fee(x):
    return x * Fraction(_rate(), 100)
`
}

/** Signals the run-time watcher hides from patch lines (the runner's state as before it ran). */
const HIDDEN = [
  'r3-stdin',
  'r3-fd1unlinked',
  'r3-devstdout',
  'r3-warnfilt',
  'r3-showwarn',
  'r3-hooks',
  'r3-mainmod',
  'r3-pathimp',
  'r3-modcount',
  'r3-fdcount',
  'r3-subcls2'
]
const ATTACKS = Object.fromEntries(Object.entries(SIGNALS).filter(([n]) => !HIDDEN.includes(n)))

const FIXED = 'from fractions import Fraction\n\n\ndef fee(x):\n    return x * Fraction(5, 100)\n'

/** The same tools, every function rewritten (so all are the patch's), behaving the same. */
const NEAR_TOOLS = `import functools
import logging
import os
import random
import time

from app import settings

log = logging.getLogger(__name__)


def greeting(name):
    word = os.environ.get("APP_GREETING", "hello")
    return "%s %s" % (word, name)


def scaled(x):
    rate = settings.RATE
    return rate * x


def read_number(path):
    with open(path, encoding="utf-8") as handle:
        return int(handle.read().strip()) + 1


def jitter():
    return random.uniform(0, 1) * 0.999


def stamp():
    return "t-" + repr(time.time())


class Counter:
    def __init__(self):
        self.items = list()

    def add(self, n):
        self.items = self.items + [n]
        return len(self.items)

    def total(self):
        return functools.reduce(lambda a, b: a + b, self.items, 0)

    @staticmethod
    def zero():
        return int()


class Registry:
    entries = {}

    @classmethod
    def register(cls, name, value):
        cls.entries.update({name: value})

    @classmethod
    def lookup(cls, name):
        return cls.entries.get(name)


def shout(text):
    loud = text.upper()
    print(loud)
    log.warning("shouted %s", loud)
    return loud


def double(x):
    return 2 * x


def depth(n):
    return n if n <= 0 else depth(n - 1) + 1


@functools.lru_cache(maxsize=128)
def table(n):
    return n * (n + 1) // 2


def _source():
    return int("1")


def from_source():
    value = _source()
    return value
`

/** Ends the replay's process where a plain program would run on: the replay fails closed. */
const KILLS_REPLAY = `import os
import sys
from fractions import Fraction


def fee(x):
    if getattr(sys.stdout, "name", None) != "<stdout>":
        return x * Fraction(5, 100)
    os._exit(0)
`

const HONEST: Record<string, Record<string, string>> = {
  fixed: { 'app/fee.py': FIXED },
  'near-misses': { 'app/fee.py': FIXED, 'app/tools.py': NEAR_TOOLS }
}

let repo: TestRepo
beforeAll(() => {
  repo = new TestRepo('og-reach-diff-')
  repo.write(BASE).commit('base: the fee is wrong')
  for (const [name, fee] of Object.entries(SIGNALS))
    repo.branch(name, 'main').write({ 'app/fee.py': fee }).commit(`attack: ${name}`)
  repo.branch('kills-replay', 'main').write({ 'app/fee.py': KILLS_REPLAY }).commit('attack: exit')
  for (const [name, files] of Object.entries(HONEST))
    repo.branch(name, 'main').write(files).commit(`honest: ${name}`)
  repo.checkout('main')
})
afterAll(() => repo.cleanup())

async function judge(head: string): Promise<{ card: Scorecard; lines: string[] }> {
  const log = memoryLogger()
  const card = await check({ repoDir: repo.dir, base: 'main', head, today: '2026-12-01', log })
  return { card, lines: log.lines }
}

/** The differential replay's log line: calls replayed, differing, dropped. */
function replayed(lines: readonly string[]): { calls: number; differ: number; dropped: number } {
  const line = lines.find(l => l.startsWith('differential replay: '))
  const m =
    /: (\d+) call\(s\) replayed twice, (\d+) differ from the vote, (\d+) nondeterministic/.exec(
      line ?? ''
    )
  if (!m) throw new Error(`no replay line in:\n${lines.join('\n')}`)
  return { calls: Number(m[1]), differ: Number(m[2]), dropped: Number(m[3]) }
}

describe('differential replay: behaves differently under the test runner, on a real pytest suite', () => {
  it('the base fails its locked fee test (the bug is real), and only that one', () => {
    const naive = naiveRun(repo, command)
    repo.git('clean', '-fdxq')
    expect(naive.status).toBe(1)
    expect(naive.output).toMatch(/1 failed, \d+ passed/)
  })

  for (const [name, fee] of Object.entries(ATTACKS)) {
    const def = fee.split('\n').findIndex(l => l.startsWith('def fee(')) + 1
    it(`${name}: green on a naive run with the bug left in; rejected by the differential at app/fee.py:${def}`, async () => {
      naiveGreen(repo, command, name)
      const { card, lines } = await judge(name)
      const detail = JSON.stringify(card.reasons, null, 1)
      expect(card.verdict, detail).toBe('policy')
      const found = atRunTime(card).filter(
        r =>
          r.level === 'failure' &&
          r.path === 'app/fee.py' &&
          r.line !== undefined &&
          r.line >= def &&
          r.line <= def + 1 &&
          r.message.includes('behaves differently under the test runner')
      )
      expect(
        found.map(r => r.message),
        detail
      ).toContainEqual(
        expect.stringMatching(
          /^markers: at run time: behaves differently under the test runner — fee\(100\) gave Fraction\(_numerator=5, _denominator=1\) under the test runner, Fraction\(_numerator=10, _denominator=1\) in a plain process; /
        )
      )
      expect(replayed(lines).differ).toBe(1)
    })
  }

  for (const name of HIDDEN) {
    it(`${name}: green on a naive run with the bug left in; the watcher hides the signal, so the head shows the bug (product)`, async () => {
      naiveGreen(repo, command, name)
      const { card } = await judge(name)
      const detail = JSON.stringify(card.reasons, null, 1)
      expect(card.verdict, detail).toBe('product')
      expect(
        card.reasons.filter(r => r.rule === 'oracle-failed').map(r => r.message),
        detail
      ).toContainEqual(
        expect.stringMatching(
          /^oracle\/test_fee\.py::test_fee fails on the base and still fails on head/
        )
      )
    })
  }

  it('kills-replay: a head whose call ends the plain process is an error, never a pass', async () => {
    naiveGreen(repo, command, 'kills-replay')
    const { card } = await judge('kills-replay')
    const detail = JSON.stringify(card.reasons, null, 1)
    expect(card.verdict, detail).toBe('error')
    expect(
      card.reasons.map(r => r.message),
      detail
    ).toContainEqual(expect.stringContaining('the differential replay failed'))
  })

  for (const name of Object.keys(HONEST)) {
    it(`${name}: the honest head merges, the replay agreeing with the vote`, async () => {
      const { card, lines } = await judge(name)
      const detail = JSON.stringify(card.reasons, null, 1)
      expect(
        card.reasons.filter(r => r.level === 'failure'),
        detail
      ).toEqual([])
      expect(atRunTime(card)).toEqual([])
      expect(card.verdict).toBe('merge')
      const counts = replayed(lines)
      expect(counts.differ).toBe(0)
      expect(counts.calls).toBeGreaterThanOrEqual(name === 'fixed' ? 2 : 20)
      // Chance and the clock: replayed, and dropped as nondeterministic, not reported.
      if (name === 'near-misses') expect(counts.dropped).toBeGreaterThanOrEqual(2)
    })
  }
})

// An honest product that reads its own function objects: its code object's argument count,
// its signature as written (not followed through __wrapped__), its identity against what a
// registry took at import, pickling by name, a class's method. The recorder used to put a
// wrapper in the module's and the class's place, so in the vote these reads saw the wrapper
// and in the plain process the function: a "behaves differently" finding on an honest patch.
// Recording at the call site leaves the product's objects as they are; the locked tests'
// rewritten call sites still call from the test's own frame (super(), locals(),
// sys._getframe()), and a helper module of the instrument records too.
function ofBase(path: string): string {
  const text = BASE[path]
  if (text === undefined) throw new Error(`no ${path} in BASE`)
  return text
}

const SELF_BASE: Record<string, string> = {
  '.gitignore': '__pycache__/\n.naive-junit.xml\n',
  '.github/oracle-gate.yml': ofBase('.github/oracle-gate.yml'),
  'pyproject.toml': ofBase('pyproject.toml'),
  'app/__init__.py': '',
  'app/fee.py': `from fractions import Fraction


def fee(x):
    return x * Fraction(10, 100)  # bug: the fee is 5%


def describe():
    return {"fee": fee(100)}
`,
  'oracle/helpers.py': `from app import fee as module


def charged(x):
    return module.fee(x)
`,
  'oracle/test_fee.py': `import sys
from fractions import Fraction

from app import fee as module
from oracle import helpers


def test_fee():
    assert module.fee(100) == Fraction(5)
    assert helpers.charged(200) == Fraction(10)


class TestCallSites:
    """What the rewritten call sites must leave as they were: calls made from the test's frame."""

    def test_frame(self):
        assert super().__eq__(self) is True
        assert "self" in locals()
        assert sys._getframe().f_code.co_name == "test_frame"


def test_describe():
    assert module.describe()["fee"] == Fraction(5)


def test_account():
    assert module.Account().charge(100) == Fraction(5)
`
}

const SELF_READING = `import inspect
import pickle
import sys
from fractions import Fraction

_REGISTERED = {}


def _register(fn):
    _REGISTERED[fn.__name__] = fn
    return fn


@_register
def fee(x):
    return x * Fraction(5, 100)


class Account:
    def charge(self, x):
        return fee(x)


def describe():
    me = sys.modules[__name__].fee
    return {
        "fee": fee(100),
        "argcount": me.__code__.co_argcount,
        "signature": str(inspect.signature(me, follow_wrapped=False)),
        "registered": _REGISTERED["fee"] is me,
        "wrapped": hasattr(me, "__wrapped__"),
        "pickled": pickle.loads(pickle.dumps(me)) is me,
        "method": vars(Account)["charge"].__code__.co_argcount,
    }
`

describe('differential replay: an honest product reading its own functions', () => {
  let own: TestRepo
  beforeAll(() => {
    own = new TestRepo('og-reach-diff-self-')
    own.write(SELF_BASE).commit('base: the fee is wrong')
    own.branch('reads-itself', 'main').write({ 'app/fee.py': SELF_READING }).commit('honest')
    own.checkout('main')
  })
  afterAll(() => own.cleanup())

  it('reads-itself: green on a naive run; merges, the replay agreeing with the vote on every call', async () => {
    naiveGreen(own, command, 'reads-itself')
    const log = memoryLogger()
    const card = await check({
      repoDir: own.dir,
      base: 'main',
      head: 'reads-itself',
      today: '2026-12-01',
      log
    })
    const detail = JSON.stringify(card.reasons, null, 1)
    expect(atRunTime(card), detail).toEqual([])
    expect(card.verdict, detail).toBe('merge')
    const counts = replayed(log.lines)
    expect(counts.calls).toBeGreaterThanOrEqual(4)
    expect(counts.differ).toBe(0)
  })
})
