# Differential replay, the recording half (issue 26, docs/lints.md "Behaves differently
# under the runner"). The run-time watcher (gate_reach.py) names what the patch's lines did;
# a signal of being under test that it does not name (the stdin's type, fd 1 being the
# runner's capture file, the warnings filters, the number of loaded modules, ...) still
# changes what the product returns. Whatever the signal, it is absent outside the runner. So
# this module records what the patch's functions returned when a locked test called them,
# and the gate calls them again in a plain process (diff_replay.py) and compares.
#
# Recorded at the call site, never by replacing the product's objects: a product that reads
# its own function (`fee.__code__`, inspect.signature, identity with what a registry took at
# import, pickling by name, `__wrapped__`, a class's methods) must read in the vote what it
# reads in the plain process, or an honest patch would "behave differently". Only the
# instrument (the merge base's locked tests, their conftests and helpers) is compiled
# differently: each call expression `f(args)` of its modules becomes `pick(f)(args)`, an AST
# pass after pytest's assertion rewriting (rewrite_asserts) or, for an instrument module
# pytest does not rewrite, in the source loader. Positions are the original call's, so
# tracebacks and assertion messages are unchanged. `pick` returns `f` itself unless `f` is
# one of the patch's functions (by identity, or a bound method of one): then a recording
# callable whose frame pytest hides (__tracebackhide__). So the call is still made from the
# test's frame (super(), locals(), sys._getframe() called by a test see the test), the cost
# is one lookup per call the tests make, and nothing of the product changes. The patch's
# functions are found where a module of the checkout finishes executing
# (_LoaderBasics.exec_module): the functions and plain methods a changed file defines.
#
# A call is recorded when no test double is active (monkeypatch.setattr/setitem other than
# the environment, unittest.mock.patch: the replay carries the checkout's module data, not
# a patched library), and the arguments pickle; it is dropped if, while it ran, it opened a
# file other than by importing, listed a folder or started a process (an audit hook: the
# plain process would not find the test's files). What the replay cannot carry is the
# world outside the call's arguments, the checkout's module data, the environment and the
# working folder; these three exclusions are where a call depends on that world. Calls a
# test makes only through other code (map(f, xs), a framework calling a callback) are not
# call expressions of the instrument and are not recorded. Caps below keep a property test
# with thousands of examples cheap. Each record goes out on the gate's channel as `diff`.
#
# The outcome's encoding (encode) never calls the product's __eq__, __repr__ or __hash__:
# plain types by value, containers recursively, any other object by its class and its
# __dict__ and slots read through the base descriptors. The replay uses the same function.
import ast
import base64
import functools
import json
import os
import pickle
import sys
import time
import types

import _thread

# The caps, in one place: calls recorded per function, in all, and the pickled size of a
# call's arguments or of the module state it carries.
PER_FUNCTION = 20
TOTAL = 400
MAX_PICKLE = 64 << 10
# Nodes one encoding may hold: beyond, the value is not compared (and the call not recorded).
MAX_NODES = 4000
# Seconds the recording may add to the vote in all; past them nothing more is recorded.
BUDGET_S = 2.0
# Events that make a call depend on the world outside the process (not replayable).
_WORLD = frozenset((
    "open", "os.listdir", "os.scandir", "glob.glob", "os.walk", "subprocess.Popen",
    "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "pty.spawn",
    "socket.connect", "socket.bind", "socket.getaddrinfo", "shutil.rmtree", "os.remove",
    "os.rename", "os.mkdir",
))
_FRAMEWORK = ("pytest", "_pytest", "pluggy", "hypothesis", "_hypothesis_pytestplugin", "xdist")
# Functions never wrapped: generators and coroutines (their outcome is not a value).
_SKIPPED_CO = 0x20 | 0x80 | 0x200  # generator, coroutine, async generator


# The name the instrument's call sites find `pick` under: no source can spell it (as
# pytest's own "@py_assert" names), so no test's name is shadowed.
_PICK = "@gate_call"
# Where the rewritten modules import it from: pytest's rewrite module, loaded in every vote.
_HOLDER = "_pytest.assertion.rewrite"


def install(channel, plan, common=None):
    if not plan.get("diff"):
        return None
    recorder = _Recorder(channel, plan, common)
    recorder.hook()
    sys.addaudithook(recorder.audit)
    return _Plugin(recorder)


class _Plugin:
    """Test doubles made through pytest's monkeypatch are watched once pytest is loaded."""

    def __init__(self, recorder):
        self.recorder = recorder

    def pytest_configure(self, config):
        try:
            self.recorder.watch_doubles()
        except Exception:  # noqa: BLE001 - never break the run it watches
            pass

    def pytest_sessionfinish(self, session, exitstatus):
        self.recorder.finish()


def _real(path):
    return os.path.realpath(path)


class _Recorder:
    def __init__(self, channel, plan, common=None):
        self.channel = channel
        # The plugin's resolver, folders kept (pytest_outcomes.py _real_paths).
        self.real = common.real if common is not None else _real
        self.root = _real(plan.get("root") or os.getcwd())
        self.changed = {}  # real path -> repository path
        self.ranges = {}  # repository path -> the patch's [first, last] lines
        for rel, ranges in (plan.get("lines") or {}).items():
            self.changed[_real(os.path.join(self.root, rel))] = rel
            self.ranges[rel] = [(int(r[0]), int(r[1])) for r in ranges]
        self.instrument = tuple(
            _real(os.path.join(self.root, p)) for p in plan.get("instrument") or []
        )
        # id of a patch function (as its module or class holds it) -> its `at`; a function
        # leaves it at its cap, all leave at the run's: then a call costs one lookup.
        self.table = {}
        self.counts = {}  # "module:qualname" -> calls recorded
        self.total = 0
        self.spent = 0.0
        self.skipped = {"args": 0, "doubles": 0, "state": 0, "world": 0, "outcome": 0}
        self.active = {}  # thread -> [tainted flags of the recorded calls running there]
        self.states = {}  # module name -> (module, {name: encoding}, {name: id}) after import
        self.patchers = []
        self.mocks = [0, False]  # active patches, counting installed
        self.base_env = None
        self.marker = _reach_marker(common)
        space = {"_record": self.record}
        # A name of no file: the run-time watcher walks through it as through a library frame.
        exec(compile(_CALLERS, "<decorator>", "exec"), space)  # noqa: S102 - our own constant
        self.pick = _picker(self.table, space["plain"], space["bound"])

    # ------------------------------------------------------------------ import

    def hook(self):
        from importlib import _bootstrap_external as external

        loader = external._LoaderBasics
        exec_module = loader.exec_module
        recorder = self

        def _exec_module(self, module):
            exec_module(self, module)
            try:
                recorder.loaded(module)
            except Exception:  # noqa: BLE001 - never break the import it watches
                pass

        _exec_module.__name__ = _exec_module.__qualname__ = "exec_module"
        _exec_module.__module__ = exec_module.__module__
        loader.exec_module = _exec_module
        self._hook_sources(external.SourceLoader)
        holder = sys.modules.get(_HOLDER)
        if holder is not None:
            self._hook_rewrite(holder)

    def _hook_sources(self, loader):
        """An instrument module pytest does not rewrite (a helper the tests import, or all of
        them under --assert=plain) gets the call sites' pass when compiled from source."""
        previous = loader.get_code
        recorder = self

        def get_code(self, fullname):
            path = self.get_filename(fullname)
            if path.endswith(".py") and recorder._in_instrument(recorder.real(path)):
                code = recorder.compiled(self.get_data(path), path)
                if code is not None:
                    return code
            return previous(self, fullname)

        get_code.__name__ = get_code.__qualname__ = "get_code"
        get_code.__module__ = previous.__module__
        loader.get_code = get_code

    def compiled(self, data, path):
        """The instrument module's code with its call sites picked; None if it does not
        parse (the ordinary compile then reports the error)."""
        try:
            tree = compile(data, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        except (SyntaxError, ValueError):
            return None
        return compile(self._picked(tree), path, "exec", dont_inherit=True)

    def _hook_rewrite(self, holder):
        """pytest's assertion rewriting of test modules and conftests: our pass after its."""
        previous = getattr(holder, "rewrite_asserts", None)
        if previous is None or getattr(holder, _PICK, None) is not None:
            return
        setattr(holder, _PICK, self.pick)
        recorder = self

        def rewrite_asserts(mod, source, module_path=None, config=None):
            previous(mod, source, module_path, config)
            if module_path is not None and recorder._in_instrument(
                recorder.real(str(module_path))
            ):
                recorder._picked(mod)

        rewrite_asserts.__doc__ = previous.__doc__
        holder.rewrite_asserts = rewrite_asserts

    def _picked(self, tree):
        holder = sys.modules.get(_HOLDER)
        if holder is None:
            return tree
        setattr(holder, _PICK, self.pick)
        _CallSites(tree).visit(tree)
        _import_pick(tree)
        return tree

    def loaded(self, module):
        if module.__name__ == "unittest.mock":
            self.watch_mocks(module)
            return
        if module.__name__ == _HOLDER:
            self._hook_rewrite(module)
            return
        path = getattr(module, "__file__", None)
        if not isinstance(path, str):
            return
        real = self.real(path)
        if not real.startswith(self.root + os.sep) or self._in_instrument(real):
            return
        rel = self.changed.get(real)
        if rel is not None:
            self._collect_module(module, real, rel)
        self.states[module.__name__] = (module,) + _state(module)

    def _in_instrument(self, real):
        return any(real == i or real.startswith(i + os.sep) for i in self.instrument)

    def _collect_module(self, module, real, rel):
        """The patch's functions of a changed module, by identity; nothing of it changed."""
        for name, value in list(vars(module).items()):
            if isinstance(value, type) and value.__module__ == module.__name__:
                self._collect_class(module, value, real, rel)
                continue
            fn = _own_function(value, real)
            # One entry per function, whatever the names it has (an alias stays one).
            if fn is not None and id(value) not in self.table:
                self._note(value, fn, (module.__name__, "", name, "function"), rel)

    def _collect_class(self, module, cls, real, rel):
        for name, value in list(vars(cls).items()):
            if _dunder(name):
                continue
            if isinstance(value, staticmethod):
                kind, inner = "static", value.__func__
            elif isinstance(value, classmethod):
                kind, inner = "class", value.__func__
            else:
                kind, inner = "method", value
            fn = _own_function(inner, real)
            if fn is not None and id(inner) not in self.table:
                self._note(inner, fn, (module.__name__, cls.__qualname__, name, kind), rel)

    def _note(self, target, fn, where, rel):
        line = _nearest(fn.__code__, self.ranges.get(rel, []))
        key = where[0] + ":" + (where[1] + "." if where[1] else "") + where[2]
        # The table holds the function: its id names no other object while the run lasts.
        self.table[id(target)] = (rel, line, key) + where + (id(target), target)

    # ------------------------------------------------------------------ a call

    def record(self, at, target, args, kwargs):
        __tracebackhide__ = True  # noqa: F841 - pytest's report shows the test and the product
        rel, line, key = at[:3]
        self.counts[key] = self.counts.get(key, 0) + 1
        self.total += 1
        if self.counts[key] >= PER_FUNCTION:
            self.table.pop(at[7], None)
        started = time.perf_counter()
        try:
            fields = self._before(args, kwargs)
        except Exception:  # noqa: BLE001 - the recorder never changes what the test sees
            fields = None
        self._spend(started)
        flags = self.active.setdefault(_thread.get_ident(), [])
        flags.append(False)
        try:
            result = target(*args, **kwargs)
        except BaseException as exc:
            started = time.perf_counter()
            self._after(flags, fields, lambda: ["raise", _class_name(type(exc))], at)
            self._spend(started)
            raise
        started = time.perf_counter()
        self._after(flags, fields, lambda: _encoded_or_none(result), at)
        self._spend(started)
        return result

    def _spend(self, started):
        """The recorder's own time counted; past the budget or the total cap, all off."""
        self.spent += time.perf_counter() - started
        if self.total >= TOTAL or self.spent >= BUDGET_S:
            self.table.clear()

    def _before(self, args, kwargs):
        """What the replay needs of the call, taken before it runs; None if not replayable."""
        if self._doubles():
            self.skipped["doubles"] += 1
            return None
        try:
            blob = pickle.dumps((args, kwargs), protocol=4)
            shown = _encode((list(args), kwargs))
        except Exception:  # noqa: BLE001 - an argument that does not pickle: not recorded
            self.skipped["args"] += 1
            return None
        state = self._state_delta()
        if blob is None or len(blob) > MAX_PICKLE or state is None:
            self.skipped["args" if state is not None else "state"] += 1
            return None
        return {"args": _b64(blob), "shown": shown, "glob": state, "cwd": os.getcwd(),
                "env": self._env_delta()}

    def _after(self, flags, fields, outcome, at):
        tainted = flags.pop()
        try:
            self._send(tainted, fields, outcome, at)
        except Exception:  # noqa: BLE001 - the recorder never changes what the test sees
            pass

    def _send(self, tainted, fields, outcome, at):
        if fields is None:
            return
        if tainted:
            self.skipped["world"] += 1
            return
        try:
            outcome = outcome()
        except Exception:  # noqa: BLE001
            outcome = None
        if outcome is None:
            self.skipped["outcome"] += 1
            return
        rel, line, key, module, owner, name, kind = at[:7]
        self.channel.send("diff", path=rel, line=line, mod=module, owner=owner, name=name,
                          form=kind, out=json.dumps(outcome, separators=(",", ":")), **fields)

    def audit(self, event, args):
        if not self.active or event not in _WORLD:
            return
        flags = self.active.get(_thread.get_ident())
        if not flags or flags[-1]:
            return
        if event == "open" and _importing(sys._getframe(1)):
            return
        for i in range(len(flags)):
            flags[i] = True

    # The interpreter's look-up of it per event finds it (gate_reach.py _Watch.hook).
    audit.__cantrace__ = False

    # ------------------------------------------------------------------ the call's world

    def _env_delta(self):
        """The environment at the call less the runner's keys (the run-time watcher holds
        those apart from os.environ's data already), as a change to the first call's."""
        env = {}
        for key, value in os.environ._data.items():
            name, text = os.fsdecode(key), os.fsdecode(value)
            if not self.marker(name):
                env[name] = text
        if self.base_env is None:
            self.base_env = env
            self.channel.send("diffenv", env=env, exe=sys.executable, path=self._paths())
        base = self.base_env
        return {"set": {k: v for k, v in env.items() if base.get(k) != v},
                "unset": sorted(k for k in base if k not in env)}

    def _paths(self):
        """The checkout's folders on sys.path (the instrument's are the runner's doing)."""
        out = []
        for path in sys.path:
            real = self.real(path or ".") if isinstance(path, str) else ""
            inside = real == self.root or real.startswith(self.root + os.sep)
            if inside and not self._in_instrument(real) and path not in out:
                out.append(path)
        return out

    def _state_delta(self):
        """The checkout's module and class data the tests changed since import, pickled (""
        for none); None when a function or class there was replaced (a test double by hand)."""
        delta = {}
        for name, (module, data, ids) in list(self.states.items()):
            current = dict(_data_of(module))
            for key, ident in ids.items():
                if id(current.get(key)) != ident:
                    return None
            for key, value in current.items():
                if key in ids or not _is_data(value):
                    continue
                try:
                    now = json.dumps(_encode(value))
                except _Unencodable:
                    continue
                if data.get(key) != now:
                    delta.setdefault(name, {})[key] = value
        if not delta:
            return ""
        try:
            blob = pickle.dumps(delta, protocol=4)
        except Exception:  # noqa: BLE001
            return None
        return _b64(blob) if len(blob) <= MAX_PICKLE else None

    def watch_doubles(self):
        """Remember every monkeypatch that patched something; count unittest.mock patches."""
        try:
            from _pytest.monkeypatch import MonkeyPatch
        except ImportError:
            MonkeyPatch = None
        patchers = self.patchers
        if MonkeyPatch is not None:
            for name in ("setattr", "delattr", "setitem", "delitem"):
                _note_patcher(MonkeyPatch, name, patchers)
        mock = sys.modules.get("unittest.mock")
        if mock is not None:
            self.watch_mocks(mock)

    def watch_mocks(self, mock):
        """Count the unittest.mock patches active; done once, when the module is first
        imported (or at once if it already was): never imported here for nothing."""
        if self.mocks[1]:
            return
        self.mocks[1] = True
        counter = self.mocks
        enter, leave = mock._patch.__enter__, mock._patch.__exit__

        def __enter__(patch):
            counter[0] += 1
            return enter(patch)

        def __exit__(patch, *exc):
            counter[0] = max(0, counter[0] - 1)
            return leave(patch, *exc)

        mock._patch.__enter__, mock._patch.__exit__ = __enter__, __exit__

    def _doubles(self):
        if self.mocks[0] > 0:
            return True
        environ = (os.environ, getattr(os, "environb", None))
        # A monkeypatch undone (each test's, at its end) is forgotten until it patches again.
        self.patchers[:] = [p for p in self.patchers
                            if getattr(p, "_setattr", None) or getattr(p, "_setitem", None)]
        for patcher in self.patchers:
            for entry in getattr(patcher, "_setattr", None) or []:
                if not _framework_object(entry[0]):
                    return True
            for entry in getattr(patcher, "_setitem", None) or []:
                if not any(entry[0] is e for e in environ):
                    return True
        return False

    def finish(self):
        self.channel.send("diffend", recorded=self.total, skipped=dict(self.skipped))


# The recording callables `pick` hands a call site, compiled under a name of no file. A call
# of a function the test holds (plain) or of a bound method (bound: its __self__ the first
# argument, as the replay passes it). Positional-only, so no keyword of the call collides.
_CALLERS = """
def plain(at, target, /, *args, **kwargs):
    __tracebackhide__ = True
    return _record(at, target, args, kwargs)


def bound(at, method, /, *args, **kwargs):
    __tracebackhide__ = True
    return _record(at, method.__func__, (method.__self__,) + args, kwargs)
"""


def _picker(table, plain, bound):
    """The call sites' `pick(f)`: `f` itself unless it is a patch function or a bound method
    of one. By identity (id, never hash or ==: the product's __hash__ is not called)."""
    get = table.get
    method = types.MethodType
    partial = functools.partial

    def pick(f):
        at = get(id(f))
        if at is not None:
            return partial(plain, at, f)
        if type(f) is method:
            at = get(id(f.__func__))
            if at is not None:
                return partial(bound, at, f)
        return f

    return pick


class _CallSites(ast.NodeTransformer):
    """`f(args)` -> `pick(f)(args)` at the call's own position. Left alone: the assertion
    rewriter's own calls (on the helper modules it imports under "@" names, which no source
    can spell: `@pytest_ar._saferepr(...)`; its temporaries, `@py_assert1(x)`, are the test's
    calls and are picked), and a call of a name the module binds nowhere (`len(x)`,
    `isinstance(...)`: a builtin, never a patch function; unless a star import may bind it)."""

    def __init__(self, tree):
        self.helpers = frozenset(
            alias.asname for node in tree.body if isinstance(node, ast.Import)
            for alias in node.names if (alias.asname or "").startswith("@")
        )
        self.bound = _bound_names(tree)

    def visit_Call(self, node):
        self.generic_visit(node)
        func = node.func
        if _root(func) in self.helpers:
            return node
        if isinstance(func, ast.Name) and self.bound is not None and func.id not in self.bound:
            return node
        name = ast.copy_location(ast.Name(id=_PICK, ctx=ast.Load()), func)
        node.func = ast.copy_location(ast.Call(func=name, args=[func], keywords=[]), func)
        return node


def _bound_names(tree):
    """Every name the module binds in any scope; None if a star import may bind any."""
    bound = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound.add(node.id)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    return None
                bound.add(alias.asname or alias.name.partition(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            bound.update(node.names)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
    return bound


def _root(func):
    """The name an expression such as `a.b[c].d` starts from, if any."""
    while isinstance(func, (ast.Attribute, ast.Call, ast.Subscript)):
        func = func.func if isinstance(func, ast.Call) else func.value
    return func.id if isinstance(func, ast.Name) else None


def _import_pick(tree):
    """`from _pytest.assertion.rewrite import @gate_call`, after the docstring and the
    __future__ imports (where pytest puts its own)."""
    body = tree.body
    at = 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        at = 1
    while at < len(body) and isinstance(body[at], ast.ImportFrom) \
            and body[at].module == "__future__":
        at += 1
    line = body[at].lineno if at < len(body) else 1
    node = ast.ImportFrom(module=_HOLDER, names=[ast.alias(name=_PICK)], level=0)
    for each in (node, node.names[0]):
        each.lineno, each.col_offset, each.end_lineno, each.end_col_offset = line, 0, line, 0
    body.insert(at, node)


def _note_patcher(cls, name, patchers):
    original = getattr(cls, name)

    def patched(self, *args, **kwargs):
        if not any(p is self for p in patchers):
            patchers.append(self)
        return original(self, *args, **kwargs)

    patched.__name__ = patched.__qualname__ = name
    patched.__doc__ = original.__doc__
    setattr(cls, name, patched)


def _framework_object(obj):
    """Is what a monkeypatch patched the test framework's own (pytest's tmp_path set-up)?"""
    if isinstance(obj, types.ModuleType):
        name = obj.__name__
    else:
        name = getattr(obj if isinstance(obj, type) else type(obj), "__module__", "")
    return str(name).partition(".")[0] in _FRAMEWORK


def _own_function(value, real):
    """The function of this file that `value` is or wraps (a decorator's __wrapped__ chain,
    functools.lru_cache), if it is a plain one (no generator or coroutine); else None."""
    seen = 0
    fn = value
    while not isinstance(fn, types.FunctionType) and seen < 8:
        fn = getattr(fn, "__wrapped__", None) if callable(fn) else None
        if fn is None:
            return None
        seen += 1
    if not isinstance(fn, types.FunctionType):
        return None
    code = fn.__code__
    if code.co_flags & _SKIPPED_CO or not callable(value):
        return None
    if code.co_filename != real and _real(code.co_filename) != real:
        return None
    return fn


def _importing(frame):
    """Is the import system on this stack (an import opening the module's source)?"""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _reach_marker(common):
    """The run-time watcher's own test of a key named for the runner or the gate, from
    gate_reach.py beside this file: the run's copy when the watchers are loaded together
    (compiled once), else loaded by path (its names only; nothing installed)."""
    if common is not None and hasattr(common, "module"):
        return common.module("gate_reach")._marker
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    spec = importlib.util.spec_from_file_location("gate_reach", os.path.join(here, "gate_reach.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module._marker


def _nearest(code, ranges):
    """The patch's line a finding about this function names: its first changed line at or
    after the def (its body's), else the changed line of the file nearest the def."""
    first = code.co_firstlineno
    last = max((line for _, _, line in code.co_lines() if line is not None), default=first)
    lines = [n for a, b in ranges for n in (a, b)]
    inside = [max(a, first) for a, b in ranges if b >= first and a <= last]
    if inside:
        return min(inside)
    return min(lines, key=lambda n: abs(n - first)) if lines else first


def _state(module):
    """A module's data and its classes' (encoded), and the identity of everything else,
    right after import."""
    data, ids = {}, {}
    for key, value in _data_of(module):
        if not _is_data(value):
            ids[key] = id(value)
            continue
        try:
            data[key] = json.dumps(_encode(value))
        except _Unencodable:
            pass
    return data, ids


def _data_of(module):
    """(name, value) of a module's namespace, and ("Class.name", value) of the classes it
    defines, the object protocol's names left out."""
    space = vars(module)
    for attr, value in list(space.items()):
        if _dunder(attr):
            continue
        yield attr, value
        if isinstance(value, type) and value.__module__ == module.__name__:
            for name, member in list(vars(value).items()):
                if not _dunder(name):
                    yield "%s.%s" % (attr, name), member


def _dunder(name):
    return name.startswith("__") and name.endswith("__")


def _is_data(value):
    """A value a test can set that the replay must carry: not code, a module or a descriptor."""
    return not (callable(value) or isinstance(value, types.ModuleType)
                or hasattr(type(value), "__get__"))


def _b64(blob):
    return base64.b64encode(blob).decode("ascii")


# ---------------------------------------------------------------------- the encoding


class _Unencodable(Exception):
    pass


def _encoded_or_none(value):
    try:
        return _encode(value)
    except _Unencodable:
        return None
    except Exception:  # noqa: BLE001 - a hostile object: not compared
        return None


def encode(value):
    """The outcome's canonical text (the replay compares these), or None if it has none."""
    found = _encoded_or_none(value)
    return None if found is None else json.dumps(found, separators=(",", ":"))


def _class_name(cls):
    module = type.__dict__["__module__"].__get__(cls)
    return "%s.%s" % (module, type.__dict__["__qualname__"].__get__(cls))


_SCALARS = {type(None): "none", bool: "bool", int: "int", float: "float", complex: "complex",
            str: "str", bytes: "bytes", bytearray: "bytearray"}
_SEQUENCES = {list: "list", tuple: "tuple"}
_SETS = {set: "set", frozenset: "frozenset"}


def _encode(value):
    return _Encoder().walk(value)


class _Encoder:
    def __init__(self):
        self.left = MAX_NODES
        self.path = set()

    def walk(self, value):
        self.left -= 1
        if self.left < 0:
            raise _Unencodable("too big")
        cls = type(value)
        if cls in _SCALARS:
            return [_SCALARS[cls], _scalar(cls, value)]
        if isinstance(value, type):
            return ["type", _class_name(value)]
        if cls is types.FunctionType or cls is types.BuiltinFunctionType:
            return ["function", str(getattr(value, "__module__", "")), str(value.__qualname__)]
        if cls is types.ModuleType:
            return ["module", str(value.__name__)]
        if id(value) in self.path:
            return ["cycle"]
        self.path.add(id(value))
        try:
            return self.compound(cls, value)
        finally:
            self.path.discard(id(value))

    def compound(self, cls, value):
        if cls in _SEQUENCES:
            return [_SEQUENCES[cls], [self.walk(v) for v in value]]
        if cls is dict:
            return ["dict", self.pairs(dict.items(value))]
        if cls in _SETS:
            return [_SETS[cls], sorted((self.walk(v) for v in value), key=_order)]
        return self.instance(cls, value)

    def pairs(self, items):
        return sorted(([self.walk(k), self.walk(v)] for k, v in list(items)), key=_order)

    def instance(self, cls, value):
        """Any other object: its class, the builtin it extends, its __dict__ and slots."""
        out = ["object", _class_name(cls)]
        for base in cls.__mro__:
            if base in _SCALARS:
                out.append([_SCALARS[base], _scalar(base, value)])
            elif base in _SEQUENCES:
                out.append([self.walk(v) for v in _SEQUENCES_ITER[base](value)])
            elif base is dict:
                out.append(self.pairs(dict.items(value)))
            elif base in _SETS:
                out.append(sorted((self.walk(v) for v in _SETS_ITER[base](value)), key=_order))
            if base in _SCALARS or base in _SEQUENCES or base is dict or base in _SETS:
                break
        if isinstance(value, BaseException):
            out.append(self.walk(list(BaseException.args.__get__(value))))
        try:
            space = object.__getattribute__(value, "__dict__")
        except AttributeError:
            space = None
        if type(space) is dict:
            out.append(self.pairs(dict.items(space)))
        slots = self.slots(cls, value)
        if slots:
            out.append(slots)
        if space is None and not slots and len(out) == 2:
            out.append(self.opaque(cls, value))
        return out

    def slots(self, cls, value):
        found = []
        for base in cls.__mro__:
            names = vars(base).get("__slots__", ())
            for name in [names] if isinstance(names, str) else names:
                member = vars(base).get(name)
                if type(member) is not types.MemberDescriptorType:
                    continue
                try:
                    found.append([name, self.walk(member.__get__(value, cls))])
                except AttributeError:
                    found.append([name, ["unset"]])
        return found

    def opaque(self, cls, value):
        """A C object of no state Python can see (Decimal, datetime): its type's own repr,
        never the product's (a repr written in Python) and never one naming an address."""
        method = getattr(cls, "__repr__", None)
        if isinstance(method, types.FunctionType):
            raise _Unencodable("a repr of Python code")
        text = method(value)
        if not isinstance(text, str) or " at 0x" in text:
            raise _Unencodable("an object known by its address")
        return ["repr", text]


_SEQUENCES_ITER = {list: list.__iter__, tuple: tuple.__iter__}
_SETS_ITER = {set: set.__iter__, frozenset: frozenset.__iter__}


def _scalar(cls, value):
    if cls is type(None):
        return None
    if cls in (bytes, bytearray):
        return cls.hex(value)
    if cls is bool:
        return bool(int.__index__(value))
    try:
        return cls.__repr__(value) if cls is not str else str.__str__(value)
    except ValueError:  # an int past the digits limit
        return "%s:%x" % (cls.__name__, int.__index__(value))


def _order(node):
    return json.dumps(node, separators=(",", ":"))
