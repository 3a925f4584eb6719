# Run-time oracle-reach (issue 26): while the vote runs, the interpreter reports what the
# patch's own lines did, however the names were built. Loaded by pytest_outcomes.py (by
# path, never on sys.path or in sys.modules) before any conftest or product module, with
# the gate's channel and the watch plan (src/replay/watch.ts). It installs an audit hook
# (PEP 578: it cannot be removed) and, where the interpreter raises no event (environment
# reads of the runner's keys, the module registry and import hooks, the debugger switches,
# imports of modules already loaded, comparisons set through setattr), wrappers over the
# objects the product would read. Where an honest program reads the same state (a scan of
# the environment or of sys.modules, argv, the stream's type, faulthandler, the root
# logger's handlers), the runner's part is removed for the patch's lines instead: they see
# the process as production would, and a head that needed the signal fails its tests. Code
# the patch wrote at run time and then ran is that line's. An event is the patch's when the stack holds a frame on one of the patch's lines
# (the innermost such frame is "the line") and no test framework, logging or warnings
# frame, nor the body of a module outside the checkout being imported, stands between it
# and the event. Each (path, line, what) is sent once, as a `reach` record the gate turns
# into an oracle-reach reason (src/replay/reach-events.ts). Cheap for everything else: an
# event is looked at only when its name and argument could be a reach; the stack is walked
# only then. docs/lints.md "At run time" lists what is watched and what is not.
import _thread
import builtins
import operator
import os
import sys
from collections.abc import MutableMapping

_CODE = type((lambda: None).__code__)
_FUNCTION = type(lambda: None)
_METHOD = type((lambda: None).__get__(0))
# The built-in types' own getters, so that judging a value never asks the value (a product
# object's __getattr__ answering any name) and costs no exception for the many that are
# not functions.
_FUNC_OF = {_METHOD: _METHOD.__dict__["__func__"],
            classmethod: classmethod.__dict__["__func__"],
            staticmethod: staticmethod.__dict__["__func__"]}
_CODE_OF = _FUNCTION.__dict__["__code__"].__get__
_QUALNAME_OF = _FUNCTION.__dict__["__qualname__"].__get__

_MODULE = type(builtins)  # the module type, before the watcher gives sys a class of its own
# type's own __subclasses__, taken before the watcher wraps it (_wrap_subclasses): the scan
# walks every class through it, and through the wrapper each call judged its caller again
# (some 2,000 frame checks a scan on the bench's suite).
_SUBCLASSES = type.__dict__["__subclasses__"]
# An object's address as object's own hash gives it (CPython: the address rotated, one
# value per live object), for sets of objects by identity: id() raises an audit event
# (builtins.id) that every hook of the process is called for, some 30,000 a scan's worth.
_ADDRESS = object.__hash__
# A class's and a module's own attributes through the built-in types' getters, so that the
# scan reading them runs no code of the product's (a metaclass's __getattribute__ reading
# `__module__`, a module class's): such code, run inside the scan, could take a lying
# comparison off the class just before its namespace is read.
_TYPE_DICT = type.__dict__["__dict__"].__get__
_TYPE_MODULE = type.__dict__["__module__"].__get__
_TYPE_QUALNAME = type.__dict__["__qualname__"].__get__
_MODULE_DICT = _MODULE.__dict__["__dict__"].__get__

# Keys judged by name, reported (not hidden) when a patch line reads one: the gate's own, if
# the policy exposes them (suite.expose_env), and keys named for the runner that the suite's
# command itself hands the process (`PYTEST_ADDOPTS=... pytest`), which started with them.
# Every other key is judged by who set it (_Watch._wrap_environ): CI, HOME, the product's
# own are the product's environment.
_MARKER_PREFIXES = ("ORACLE_GATE_", "TEST_OUTCOME_STREAM", "PYTEST_", "_PYTEST")
# A child waited for is ordinary (git, a compiler); one still running when the session
# ends outlives it (subprocess.Popen is judged then). A fork or an exec never is.
_PROCESS = {
    "os.system": "os.system",
    "os.fork": "os.fork",
    "os.forkpty": "os.forkpty",
    "os.kill": "a signal sent (os.kill)",
    "os.killpg": "a signal sent (os.killpg)",
    "os.exec": "os.exec*",
    "os.posix_spawn": "os.posix_spawn",
    "os.spawn": "os.spawn*",
    "pty.spawn": "pty.spawn",
    "signal.pthread_kill": "signal.pthread_kill",
    "os.putenv": "the process environment written (os.putenv)",
    "os.unsetenv": "the process environment written (os.unsetenv)",
    "ctypes.dlopen": "a native library loaded (ctypes)",
    "ctypes.dlsym": "a native symbol looked up (ctypes)",
    "ctypes.call_function": "a native function called (ctypes)",
}
_SPAWNS = ("os.posix_spawn", "os.spawn", "os.fork")


def _own_child(args):
    """A signal to a live child of this very process (the worker of a pool the product
    started, closed by its `with`): the product's own process, not the runner's. Any other
    target (this process, its parent, a group, every process, a pid gone) is judged."""
    try:
        pid = args[0]
        if type(pid) is not int or pid <= 0 or pid == os.getpid():
            return False
        with open("/proc/%d/stat" % pid, "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return int(fields[1]) == os.getpid()
    except Exception:  # noqa: BLE001 - unreadable: judged as any other signal
        return False
_INTROSPECTION = {
    "sys._getframe": "the call stack read (sys._getframe)",
    "sys._current_frames": "every thread's stack read (sys._current_frames)",
    "gc.get_objects": "the heap walked (gc.get_objects)",
    "gc.get_referrers": "the heap walked (gc.get_referrers)",
    "gc.get_referents": "the heap walked (gc.get_referents)",
    "sys.addaudithook": "an audit hook installed",
    "sys.setprofile": "a profiler installed",
    "sys.settrace": "a tracer installed",
    "ctypes.cdata": "memory read at an address (ctypes)",
    "ctypes.addressof": "an object's address taken (ctypes)",
    "ctypes.string_at": "memory read at an address (ctypes)",
    "ctypes.wstring_at": "memory read at an address (ctypes)",
    "marshal.loads": "code loaded from bytes (marshal)",
    "code.__new__": "a code object built at run time",
    "function.__new__": "a function built from a code object",
}
# Read through an attribute of a frame or generator: the way to a caller's frame.
_FRAME_ATTRS = ("tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back")
_COMPARISON = ("__eq__", "__ne__", "__hash__", "__lt__", "__le__", "__gt__", "__ge__",
               "__bool__", "__instancecheck__", "__subclasscheck__", "__contains__")
# Read from the sys module by the product: the runner's state, not the program's.
_SYS_WATCHED = {
    "meta_path": "the import hooks read (sys.meta_path)",
    "path_hooks": "the import hooks read (sys.path_hooks)",
    "gettrace": "the debugger switch read (sys.gettrace)",
    "getprofile": "the profiler switch read (sys.getprofile)",
    "__dict__": "the sys module's namespace read",
    "_xoptions": "the interpreter's options read (sys._xoptions)",
}
# Set on sys by the runner (pytest's capture, its exception and debugger hooks).
_SYS_HELD = ("stdin", "unraisablehook", "excepthook", "displayhook", "breakpointhook")
_LISTINGS = ("os.listdir", "os.scandir", "os.walk", "glob.glob", "glob.glob/2")
_COPIES = ("os.symlink", "os.link", "shutil.copyfile", "os.rename")
# The only events the hook looks at; every other returns at once.
_LOOKED_AT = (
    frozenset(("open", "import", "object.__getattr__", "compile", "exec"))
    | frozenset(_LISTINGS)
    | frozenset(_COPIES)
    | frozenset(_PROCESS)
    | frozenset(("subprocess.Popen",))
    | frozenset(_INTROSPECTION)
)


def install(channel, plan, common=None):
    if not plan.get("reach"):
        return None
    watch = _Watch(channel, plan, common.real if common is not None else os.path.realpath,
                   common.own if common is not None else set())
    watch.wrap()
    watch.loaded.update(_loaded_after_startup())  # with what the watcher itself imported
    sys.addaudithook(watch.hook)
    return _Plugin(watch)


class _Plugin:
    """What no audit event shows, looked for at a few points of the session: the report's
    path (known once pytest has parsed its options), and the test framework's, the
    built-ins' and any class's attributes replaced by a function of the patch's lines (a
    framework method rewritten, a comparison that lies, made without a class statement)."""

    EVERY = 100

    def __init__(self, watch):
        self.watch = watch
        self.tests = 0

    def pytest_configure(self, config):
        self.watch.runner_known(config)
        xml = getattr(config.option, "xmlpath", None)
        if xml:
            self.watch.reports.append(os.path.abspath(xml))

    def pytest_collection_finish(self, session):
        self.watch.scan()

    def pytest_runtest_logfinish(self, nodeid, location):
        self.tests += 1
        if self.tests % self.EVERY == 0:
            self.watch.scan()

    def pytest_sessionfinish(self, session, exitstatus):
        self.watch.scan()
        self.watch.survivors()


def _under(path, dirs):
    return any(path == d or path.startswith(d + os.sep) for d in dirs)


def _library_dirs(real):
    """The standard library's folders, and the installed packages' (site-packages)."""
    import sysconfig

    paths = sysconfig.get_paths()
    lib = tuple({real(paths[k]) for k in ("stdlib", "platstdlib") if paths.get(k)})
    site = tuple({real(paths[k]) for k in ("purelib", "platlib") if paths.get(k)})
    return lib, site


def _top_folder(module, real):
    """A top-level module's folder (a package's) or file (a lone module's), or None."""
    path = getattr(module, "__file__", None)
    if not isinstance(path, str):
        return None
    path = real(path)
    return os.path.dirname(path) if os.path.basename(path).startswith("__init__.") else path


def _distribution_tops(dist, real):
    """The top-level folders and modules an installed distribution's files hold (from its
    RECORD); none where its metadata cannot be read."""
    try:
        tops = {str(f).replace(os.sep, "/").split("/")[0] for f in dist.files or ()}
        return {real(str(dist.locate_file(top))) for top in tops
                if top not in ("..", "__pycache__") and not top.endswith((".dist-info", ".data"))}
    except (OSError, ValueError, TypeError, AttributeError):
        return set()


def _loaded_after_startup():
    """The names of the modules loaded once the interpreter's start-up (site, the .pth
    files, sitecustomize) was over. sys.modules keeps load order: the import system moves
    a module to the end once its body ran, so site comes after all it loaded."""
    names = list(sys.modules)
    return names[names.index("site") + 1:] if "site" in names else names


def _machinery(real):
    """The import system's code, by identity: the file names the code objects of the
    frozen bootstrap modules carry, and the importlib package's folder (metadata,
    resources, util), taken from the module objects themselves."""
    import importlib
    from importlib import _bootstrap, _bootstrap_external

    names = {_bootstrap._find_and_load.__code__.co_filename,
             _bootstrap_external.FileFinder.find_spec.__code__.co_filename}
    return tuple(names) + (os.path.dirname(real(importlib.__file__)),)


class _Watch:
    def __init__(self, channel, plan, real, own):
        self.channel = channel
        self.real = real
        self.root = real(plan.get("root") or os.getcwd())
        self.lines = {}
        for rel, ranges in (plan.get("lines") or {}).items():
            self.lines[real(os.path.join(self.root, rel))] = (rel, [tuple(r) for r in ranges])
        self.instrument = [real(os.path.join(self.root, p)) for p in plan.get("instrument") or []]
        # Files waived for markers (lints.reach_allow): the runner's state is not hidden there.
        self.open = set(plan.get("open") or [])
        self.reports = []
        # co_filename -> ("patch", rel, ranges) | ("written", rel, line) | ("framework",) |
        # ("stop",) | ("import",) | ("other",) | ("root",)
        self.files = {}
        self.sent = set()
        # id -> (namespace's owner, its values as the last scan judged them): the scan
        # judges again only the namespaces whose values changed (_unchanged). `recoded`
        # counts the functions given the patch's code (code_set); `recoded_at`, its count
        # when each of the last two scans began.
        self.judged = {}
        self.recoded = 0
        self.recoded_at = (0, 0)
        self.busy = set()
        # The threads now in a frame walk of the gate's own (_enter), shared with every
        # watcher of the run (pytest_outcomes.py): their hooks pass its events.
        self.own = own
        self.here = os.path.dirname(self.real(__file__))
        # The modules loaded once start-up was over: the runner's, its plugins' and theirs
        # (later: those loaded with no frame of the checkout on the stack, hook()).
        self.loaded = set(_loaded_after_startup())
        self.imported = set()  # names the patch's modules imported themselves
        self.roots = self._framework_roots(self.loaded)
        self.runner = ()  # the runner's and its plugins' folders (pytest_configure)
        self.runner_names = frozenset()
        self.runs = {}  # file -> is it in one of the runner's folders
        self.stops = self._stops()
        self.machinery = _machinery(real)
        import inspect
        import traceback

        self.readers = (self.real(inspect.__file__), self.real(traceback.__file__))
        import subprocess

        self.subprocess = self.real(subprocess.__file__)
        self.children = []
        self.held = {}  # the runner's environment keys, held apart (_wrap_environ)
        self.written = {}  # real path -> (rel, line) of the patch's line that wrote it
        self.registry = sys.modules
        self.main = sys.modules.get("__main__")
        self.neutral_main = _neutral_main()

    # ---------------------------------------------------------------- attribution

    def _framework_roots(self, names):
        """The folders (a package's, or a lone module's file) of the modules loaded since
        start-up that are neither the standard library's nor the checkout's nor the gate's:
        the runner, the plugins it loaded through their entry points, and what they use."""
        lib, site = _library_dirs(self.real)
        roots = set()
        for name in names:
            folder = _top_folder(sys.modules.get(name.partition(".")[0]), self.real)
            if folder is None or _under(folder, (self.root, self.here)):
                continue
            if _under(folder, lib) and not _under(folder, site):
                continue
            roots.add(folder)
        return tuple(sorted(roots))

    def _stops(self):
        """Folders whose frames are not the patch's doing besides the framework's: the
        gate's reporters, and the standard library's logging and warnings (they read the
        stack)."""
        import logging
        import warnings

        real = self.real
        return (self.here, os.path.dirname(real(logging.__file__)), real(warnings.__file__))

    def runner_known(self, config):
        """Once pytest has loaded its plugins: the runner's own folders, found from the
        objects it runs with (its plugin modules, its plugin manager's classes, what its
        __main__ holds) and the files of the distributions its entry-point plugins came
        from (Hypothesis's plugin brings the hypothesis package). An import of one of these
        is an import of the test framework."""
        manager = config.pluginmanager
        objects = [p for p in manager.get_plugins() if isinstance(p, _MODULE)]
        objects += list(type(manager).__mro__)
        objects += list(vars(sys.modules.get("__main__") or sys).values())
        folders = set()
        for obj in objects:
            module = obj if isinstance(obj, _MODULE) else self.registry.get(
                getattr(obj, "__module__", None) or "")
            name = getattr(module, "__name__", None)
            if isinstance(name, str):
                folders.add(_top_folder(self.registry.get(name.partition(".")[0]), self.real))
        for _, dist in manager.list_plugin_distinfo():
            folders.update(_distribution_tops(dist, self.real))
        lib, site = _library_dirs(self.real)
        self.runner = tuple(sorted(
            f for f in folders
            if f and not _under(f, (self.root, self.here)) and (_under(f, site) or not _under(f, lib))
        ))
        self.roots = tuple(sorted(set(self.roots) | set(self.runner)))
        self.runner_names = frozenset(
            os.path.splitext(os.path.basename(f))[0] for f in self.runner)
        self.files.clear()
        self.runs.clear()
        self.judged.clear()

    def framework_module(self, name):
        """Is the module of this name (loaded or not) the runner's: its top-level module's
        file in one of the runner's folders?"""
        if not isinstance(name, str) or not name or name == "__main__":
            return False  # __main__ is the runner's, handed as a neutral one (main_hidden)
        top = name.partition(".")[0]
        module = self.registry.get(top)
        path = getattr(module, "__file__", None) if module is not None else None
        if isinstance(path, str):
            return self.runner_file(path)
        return module is None and top in self.runner_names

    def runner_file(self, path):
        known = self.runs.get(path)
        if known is None:
            known = self.runs[path] = _under(self.real(path), self.runner)
        return known

    def _kind(self, filename):
        known = self.files.get(filename)
        if known is not None:
            return known
        real = self.real(filename) if filename and not filename.startswith("<") else filename
        if real in self.written:
            known = ("written",) + self.written[real]
        elif real in self.lines:
            rel, ranges = self.lines[real]
            known = ("patch", rel, ranges)
        elif filename in self.machinery or _under(real, self.machinery):
            known = ("import",)
        elif _under(real, self.roots):
            known = ("framework",)
        elif _under(real, self.stops):
            known = ("stop",)
        elif real.startswith(self.root + os.sep):
            known = ("root",)
        else:
            known = ("other",)
        self.files[filename] = known
        return known

    def line_of(self, frame, immediate=False):
        """The patch's (path, line) the event comes from, or None. `immediate`: only the
        frame that raised it counts; "stack": between it and the patch's frame only the
        checkout's code and the standard library's stack readers (inspect, traceback) may
        stand (namedtuple, enum, typing read their caller's module name, honestly)."""
        while frame is not None:
            code = frame.f_code
            kind = self._kind(code.co_filename)
            if kind[0] == "written":
                return kind[1], kind[2]
            if kind[0] == "patch":
                n = frame.f_lineno
                for first, last in kind[2]:
                    if first <= n <= last:
                        return kind[1], n
            if immediate is True or kind[0] in ("stop", "framework"):
                return None
            if immediate == "listing" and kind[0] == "import":
                return None
            if kind[0] in ("other", "import") and (
                code.co_name == "<module>"
                or (immediate == "stack" and self.real(code.co_filename) not in self.readers)
            ):
                return None
            frame = frame.f_back
        return None

    def note(self, category, what, depth=2, immediate=False):
        """Report what the caller (`depth` frames up) did if it is one of the patch's lines;
        the (path, line) found, or None."""
        at = self.patch_line(depth + 1, immediate)
        if at is not None:
            self._send(category, what, at)
        return at

    def _enter(self):
        """Marks this thread as in a frame walk of the watcher's own (sys._getframe, the
        frames' f_code, f_lineno, f_back, the file names' kinds: no product code runs in
        one), for this watcher's hook and every other's: the events it raises are the
        gate's. Without it the evidence guard (probe_guard.py) judged each of the some
        30,000 frame reads of this watcher in the demo's head run, as many instructions as
        the suite's own tests took. What _leave takes back (None: already inside one)."""
        me = _ident()
        if me in self.own:
            return None
        self.own.add(me)
        return me

    def _leave(self, entered):
        if entered is not None:
            self.own.discard(entered)

    def hides_here(self, depth):
        """hides() of the frame `depth` up alone (a read through the sys module's
        properties), with the cheap test first: most reads are not from the patch's files."""
        entered = self._enter()
        try:
            filename = sys._getframe(depth).f_code.co_filename
        except ValueError:
            return False
        finally:
            self._leave(entered)
        if self._kind(filename)[0] not in ("patch", "written"):
            return False
        return self.hides(self.patch_line(depth + 1, immediate=True))

    def hides(self, at):
        """Is the runner's state hidden from this line of the patch (not waived)?"""
        return at is not None and at[0] not in self.open

    def patch_line(self, depth=2, immediate=False):
        entered = self._enter()
        try:
            return self.line_of(sys._getframe(depth), immediate)
        except ValueError:
            return None
        finally:
            self._leave(entered)

    # ---------------------------------------------------------------- the audit hook

    def hook(self, event, args):
        """The audit hook: every event of the process comes here (some 300,000 in a suite of
        a few hundred tests), so the cheapest test comes first. Only the events of
        _LOOKED_AT are looked at; a read of an audited attribute (a function's __code__,
        which inspect, Hypothesis and the scan read by the thousand) only when it is a way
        to a frame; the stack is walked only past those."""
        if event not in _LOOKED_AT:
            if event == "object.__setattr__" and len(args) > 2 and args[1] == "__code__":
                self.code_set(args[2])
            return
        if event == "object.__getattr__" and not (len(args) > 1 and args[1] in _FRAME_ATTRS):
            return
        # In this function itself: sys._getframe(1) below is the frame that raised the event.
        me = _ident()
        if me in self.busy or me in self.own:
            return
        self.busy.add(me)
        try:
            if event == "open" and _for_writing(args):
                self._wrote(args[0], sys._getframe(1))
            elif event == "import" and not self._from_checkout(sys._getframe(1)):
                self.loaded.add(args[0])
            found = self.classify(event, args)
            if found is not None:
                self._judge(found, sys._getframe(1))
        except Exception:  # noqa: BLE001 - the hook must never break the run it watches
            pass
        finally:
            self.busy.discard(me)

    # Said outright (tracing stays off in the hook, as without it): the interpreter looks
    # `__cantrace__` up on every hook for every event, and on a bound method a missing one
    # is an AttributeError formatted and thrown away each time, some 4,500 instructions an
    # event, a third of the watcher's cost on the bench's suite (BENCHMARKS.md).
    hook.__cantrace__ = False

    def _judge(self, found, frame):
        """Sends what classify() found when a frame of the patch's lines raised it (a
        process the patch starts: kept until the session's end, survivors())."""
        category, what, mode = found
        entered = self._enter()
        try:
            if mode == "spawn" and self._within_popen(frame) is not None:
                return  # the spawn of a subprocess.Popen: judged as that
            at = self.line_of(frame, mode if mode in (True, "stack", "listing") else False)
            child = self._within_popen(frame) if at is not None and mode == "popen" else None
        finally:
            self._leave(entered)
        if at is None:
            return
        if mode != "popen":
            self._send(category, what, at)
        elif child is not None:
            self.children.append((child, what, at))

    def code_set(self, code):
        """A function given new code (Hypothesis does it for every wrapper it makes): when
        the code is the patch's, a function the scan already judged may now be the patch's,
        and the next scans judge everything anew (_scan)."""
        me = _ident()
        if me in self.busy:
            return
        self.busy.add(me)
        try:
            if type(code) is _CODE and self._kind(code.co_filename)[0] in ("patch", "written"):
                self.recoded += 1
        except Exception:  # noqa: BLE001 - the hook must never break the run it watches
            self.recoded += 1
        finally:
            self.busy.discard(me)

    def classify(self, event, args):
        """(category, what, immediate) of an event that could be a reach, else None."""
        if event == "subprocess.Popen":
            return "process", "a child process still running when the session ended", "popen"
        if event in _PROCESS:
            if event == "os.kill" and _own_child(args):
                return None
            return "process", _PROCESS[event], "spawn" if event in _SPAWNS else False
        if event in _INTROSPECTION:
            reads = event in ("sys._getframe", "sys._current_frames")
            return "introspection", _INTROSPECTION[event], "stack" if reads else False
        if event == "open":
            return self.opened(args[0], "open of ")
        if event in _LISTINGS:
            found = self.opened(args[0] if args and args[0] is not None else ".", "listing of ")
            # The import system lists every sys.path entry (importlib.metadata looking for a
            # distribution, a finder filling its cache): a listing it makes is not the
            # patch's, whatever path the runner put on sys.path. An open still counts.
            return found and (found[0], found[1], "listing")
        if event in _COPIES:
            return self.opened(args[0], event + " of ")
        if event == "import":
            name = args[0]
            if self.framework_module(name):
                return "framework", "import of the test framework's module " + str(name), False
            return None
        if event == "object.__getattr__":
            if len(args) > 1 and args[1] in _FRAME_ATTRS:
                return "introspection", "a frame reached through ." + args[1], True
            return None
        if event == "compile":
            return "introspection", "code compiled from a string built at run time", True
        if event == "exec":
            return "introspection", "exec of a code object at run time", True
        return None

    def opened(self, path, verb):
        if isinstance(path, int):
            return None
        try:
            text = os.fsdecode(path)
        except (TypeError, ValueError):
            return None
        full = os.path.abspath(text)
        if _relative_proc(text, full):
            # Relative to a directory descriptor of / or /proc (dir_fd): no such file here.
            return "markers", verb + "process metadata %s (relative to a directory)" % text, False
        if full.startswith(("/proc/", "/dev/fd")) or full == "/proc":
            parts = full.split("/")
            who = parts[2] if len(parts) > 2 else ""
            # /proc itself: a directory descriptor to open self/... relative to (dir_fd).
            if who in ("", "self", "thread-self") or who.isdigit() or full.startswith("/dev/fd"):
                return "markers", verb + "process metadata " + full, False
            return None
        if full in self.reports:
            return "instrument", verb + "the runner's report", False
        if not full.startswith(self.root + os.sep) and full != self.root:
            return None
        real = self.real(full)
        for inst in self.instrument:
            if real == inst or real.startswith(inst + os.sep):
                rel = os.path.relpath(real, self.root)
                return "instrument", verb + "the instrument's " + rel, False
        return None

    def _wrote(self, path, frame):
        """A file the patch's line writes: code later run from it is the patch's, that line's
        (a module made at run time in $TMPDIR and imported or run)."""
        if isinstance(path, int):
            return
        at = self.line_of(frame)
        if at is None:
            return
        try:
            real = self.real(os.path.abspath(os.fsdecode(path)))
        except (TypeError, ValueError):
            return
        self.written[real] = at
        self.files.clear()
        self.judged.clear()

    def _from_checkout(self, frame):
        """Does the stack hold a frame of the checkout (a test, a fixture, the product)?"""
        while frame is not None:
            if self._kind(frame.f_code.co_filename)[0] in ("patch", "root", "written"):
                return True
            frame = frame.f_back
        return False

    def _within_popen(self, frame):
        """The subprocess.Popen being built on this stack, if any."""
        while frame is not None:
            code = frame.f_code
            if code.co_name == "__init__" and self.real(code.co_filename) == self.subprocess:
                return frame.f_locals.get("self")
            frame = frame.f_back
        return None

    def survivors(self):
        """The patch's children still running: they outlive the session."""
        for child, what, at in self.children:
            try:
                running = child.poll() is None
            except Exception:  # noqa: BLE001
                running = False
            if running:
                self._send("process", what, at)

    # ---------------------------------------------------------------- replaced attributes

    def scan(self):
        me = _ident()
        self.busy.add(me)
        try:
            self._scan()
        except Exception:  # noqa: BLE001 - never break the run it watches
            pass
        finally:
            self.busy.discard(me)

    def _scan(self):
        # A function given new code since the scan before last (the event comes just before
        # the code is set, and another thread may scan in between): judge everything anew.
        now = self.recoded
        if now != self.recoded_at[0]:
            self.judged.clear()
        self.recoded_at = (self.recoded_at[1], now)
        for name, module in list(self.registry.items()):
            if module is None or not self.framework_module(name) or self._unchanged(module):
                continue
            for attr, value in list(_namespace(module).items()):
                self._replaced(value, "framework",
                               "%s.%s of the test framework replaced" % (name, attr))
        if not self._unchanged(builtins):
            for attr, value in list(_namespace(builtins).items()):
                self._replaced(value, "comparison", "the built-in %s replaced" % attr)
        owners = {}  # a module name -> True (the framework's) or the name, for this scan
        for cls in _classes():
            name = _module_name(cls)
            owner = owners.get(name) if type(name) is str else None
            if owner is None:
                owner = True if self.owned_class(cls) else str(name)
                if type(name) is str:
                    owners[name] = owner
            if owner is True:
                if not self._unchanged(cls):
                    for attr, value in list(_TYPE_DICT(cls).items()):
                        self._replaced(value, "framework", "%s.%s of the test framework "
                                       "replaced" % (_TYPE_QUALNAME(cls), attr))
            elif owner == "builtins":
                if not self._unchanged(cls):
                    for attr, value in list(_TYPE_DICT(cls).items()):
                        self._lying(cls, attr, value)
            else:
                namespace = _TYPE_DICT(cls)
                for attr in _COMPARISON:
                    if attr in namespace:
                        self._lying(cls, attr, namespace[attr])

    def _unchanged(self, owner):
        """Does the namespace of the test framework's module or class, of the built-ins or of
        a built-in class hold the very values the last scan judged (by identity)? Only
        those are kept between scans (they live for the session anyway), never the
        product's own classes, whose comparisons alone are judged, every scan. A function
        given the patch's code (f.__code__ = ...; an audit event) has the next two scans
        judge everything (_scan), and a file the patch wrote, the next one (_wrote)."""
        values = tuple(_namespace(owner).values())
        key = _ADDRESS(owner)
        last = self.judged.get(key)
        self.judged[key] = (owner, values)
        return (last is not None and last[0] is owner and len(last[1]) == len(values)
                and all(map(operator.is_, last[1], values)))

    def _replaced(self, value, category, what):
        try:
            at = self._defined_at(value)
        except Exception:  # noqa: BLE001 - one value it cannot read never stops the scan
            return
        if at is not None:
            self._send(category, what, at)

    def _lying(self, cls, attr, value):
        """A comparison dunder of the patch's lines not written in the class's body (set
        later, or handed to type()) that never reads the value it compares with."""
        try:
            at = self._defined_at(value)
        except Exception:  # noqa: BLE001 - one value it cannot read never stops the scan
            return
        func = _function_of(value)  # a function whenever `at` is not None
        if at is None or _QUALNAME_OF(func) == "%s.%s" % (_TYPE_QUALNAME(cls), attr):
            return
        if _reads_other(_CODE_OF(func)):
            return
        self._send("comparison", "%s of %s made at run time, ignoring what it compares with" % (
            attr, _TYPE_QUALNAME(cls)), at)

    def _defined_at(self, value):
        func = _function_of(value)
        if func is None:
            return None
        code = _CODE_OF(func)
        kind = self._kind(code.co_filename)
        if kind[0] == "written":
            return kind[1], kind[2]
        if kind[0] != "patch":
            return None
        for _, _, line in code.co_lines():
            if line is not None and any(a <= line <= b for a, b in kind[2]):
                return kind[1], line
        return None

    def _send(self, category, what, at):
        key = (at[0], at[1], what)
        if key not in self.sent:
            self.sent.add(key)
            self.channel.send("reach", category=category, what=what[:300], path=at[0],
                              line=at[1])

    # ---------------------------------------------------------------- wrappers

    def wrap(self):
        self._wrap_environ()
        self._wrap_sys()
        self._wrap_switches()
        self._wrap_warnings()
        import threading

        _with_properties(threading, {"excepthook": self.held_by_runner(
            vars(threading), "excepthook")})
        self._wrap_setattr()
        self._wrap_subclasses()
        self._wrap_imports()
        self._wrap_process()

    def _wrap_environ(self):
        """The keys the runner sets in this process are held apart from the environment's
        data: those present at load that the process was not started with (pytest's
        PYTEST_VERSION), and any a frame of the test framework writes with no frame of the
        checkout on the stack (PYTEST_CURRENT_TEST per test phase). The framework and the
        tests read them back, children inherit them (putenv), but os.environ, os.environb,
        their _data and every copy or scan lack them, as in production; a patch line asking
        for one by name is told it is not set, and is reported. A key the gate's caller, a
        test, a fixture or a plugin sets is the product's environment, as any other."""
        watch = self
        base = type(os.environ)
        held = self.held
        started = _started_keys()
        if started is not None:
            for key in list(os.environ._data):
                if key not in started:
                    held[os.fsdecode(key)] = os.fsdecode(os.environ._data.pop(key))

        class _Environ(base):
            def __getitem__(self, key):
                name = _key_name(key)
                if name in held:
                    if watch.hides(watch.note(
                            "markers", "environment read of %s, which the runner set" % name)):
                        raise KeyError(key)
                    value = held[name]
                    return value if isinstance(key, str) else os.fsencode(value)
                if _marker(name):
                    watch.note("markers", "environment read of " + name)
                return base.__getitem__(self, key)

            def __setitem__(self, key, value):
                name = _key_name(key)
                if name in held or (
                    self.encodekey(key) not in self._data and watch.runner_frames(2)
                ):
                    os.putenv(name, os.fsdecode(value))
                    held[name] = os.fsdecode(value)
                    return
                base.__setitem__(self, key, value)

            def __delitem__(self, key):
                name = _key_name(key)
                if name in held:
                    del held[name]
                    os.unsetenv(name)
                    return
                base.__delitem__(self, key)

            def __iter__(self):
                keys = base.__iter__(self)
                if watch.busy and _ident() in watch.busy:
                    return keys
                # The gate's own keys (suite.expose_env) never reach a copy the patch makes.
                entered = watch._enter()
                try:
                    mine = watch.line_of(sys._getframe(1)) is not None
                finally:
                    watch._leave(entered)
                return (k for k in list(keys) if not _marker(_key_name(k))) if mine else keys

        _Environ.__name__ = _Environ.__qualname__ = base.__name__
        _Environ.__module__ = base.__module__
        os.environ.__class__ = _Environ
        if isinstance(getattr(os, "environb", None), base):
            os.environb.__class__ = _Environ

    def runner_frames(self, depth):
        """Is the caller (`depth` frames up) the test framework itself: a framework frame on
        the stack and no frame of the checkout (a test, a fixture, the product)?"""
        entered = self._enter()
        try:
            frame = sys._getframe(depth)
            framework = False
            while frame is not None:
                kind = self._kind(frame.f_code.co_filename)[0]
                if kind in ("patch", "root", "written"):
                    return False
                if kind in ("stop", "framework"):
                    framework = True
                frame = frame.f_back
            return framework
        except ValueError:
            return False
        finally:
            self._leave(entered)

    def _wrap_sys(self):
        """Reads of the sys module's state. The module registry a patch line reads is a view
        without the test framework's and the instrument's modules (a look-up of one is
        reported; a scan just does not find them); the command line it reads while it is
        still the runner's is a neutral one; the standard streams the runner replaced read
        as the type the process started with. The import hooks, the debugger switches and
        the raw namespace are reported when a patch line reads them."""
        watch = self
        base = type(sys)
        raw = base.__dict__["__dict__"].__get__(sys)
        view = _Registry(self)
        namespace = {}
        at_load = {name: raw.get(name) for name in ("argv", "orig_argv", "stdout", "stderr")}
        neutral = {"argv": lambda: [""], "orig_argv": lambda: [sys.executable]}
        streams = {name: _stream_type(type(at_load[name])) for name in ("stdout", "stderr")
                   if at_load[name] is not None}

        def modules():
            def get(module):
                return view if watch.hides_here(2) else watch.registry

            def put(module, value):
                watch.registry = value
                raw["modules"] = view

            return property(get, put)

        def calm(name):
            def get(module):
                value = raw[name]
                # The command line while it is still the runner's; a stream once replaced.
                runners = (value is at_load[name]) == (name in neutral)
                if not runners or not watch.hides_here(2):
                    return value
                return neutral[name]() if name in neutral else streams[name](value)

            def put(module, value):
                raw[name] = value

            return property(get, put)

        def watched(name, what):
            def get(module):
                watch.note("markers", what, immediate=True)
                if name == "__dict__":
                    return raw
                return raw[name]

            def put(module, value):
                raw[name] = value

            return property(get, None if name == "__dict__" else put)

        def importers(module):
            cache = raw["path_importer_cache"]
            if not watch.hides_here(2):
                return cache
            return {k: v for k, v in list(cache.items()) if not watch.runner_path(k)}

        def set_importers(module, value):
            raw["path_importer_cache"] = value

        for name, what in _SYS_WATCHED.items():
            if name == "__dict__" or name in raw:
                namespace[name] = watched(name, what)
        namespace["modules"] = modules()
        namespace["path_importer_cache"] = property(importers, set_importers)
        for name in _SYS_HELD:
            if name in raw:
                namespace[name] = self.held_by_runner(raw, name)
        for name in at_load:
            if name in raw and (name in neutral or name in streams):
                namespace[name] = calm(name)
        namespace["__module__"] = base.__module__
        namespace["__qualname__"] = base.__qualname__

        # The import system makes every new module as type(sys)(name): those stay plain.
        def __new__(cls, *args, **kwargs):
            module = base.__new__(base)
            base.__init__(module, *args, **kwargs)
            return module

        namespace["__new__"] = __new__
        sys.__class__ = type(base.__name__, (base,), namespace)
        raw["modules"] = view

    def held_by_runner(self, raw, name):
        """A property over `raw[name]` (a module's namespace): a value the runner set (a
        framework frame and none of the checkout's on the stack: pytest's capture of
        stdin, its unraisable and thread exception hooks, its warnings recorder) reads,
        from a patch line, as the value when the watcher loaded; one a test, a fixture or
        the product set reads as set. Every other reader sees the value as it is."""
        watch = self
        at_load = raw.get(name)
        set_by = {}

        def get(module):
            value = raw[name]
            if value is not at_load and set_by.get("runner") is value and watch.hides_here(2):
                return at_load
            return value

        def put(module, value):
            raw[name] = value
            # The value at load reads as itself whoever set it back (the runner restores
            # its hooks after every test): the stack is walked only for another one.
            runner = value is not at_load and watch.runner_frames(2)
            set_by["runner"] = value if runner else None

        return property(get, put)

    def runner_path(self, path):
        """A folder of the import system's caches the runner's import made: the framework's,
        the gate's, the instrument's."""
        if not isinstance(path, str):
            return False
        kind = self._kind(path)[0]
        if kind in ("framework", "stop"):
            return True
        return kind == "root" and _under(self.real(path), self.instrument)

    def owned(self, name, module):
        """Is this module the test framework's or the instrument's (a test module)?"""
        if self.framework_module(name):
            return True
        path = getattr(module, "__file__", None)
        if not isinstance(path, str):
            return False
        kind = self._kind(path)[0]
        if kind != "root":
            return False
        real = self.real(path)
        return any(real == i or real.startswith(i + os.sep) for i in self.instrument)

    def _wrap_switches(self):
        """The switches the runner turns on after the watcher loaded read, from a patch
        line, as the process started: faulthandler's state, and the root logger's handlers
        without the ones the test framework installed (its capture handlers)."""
        import faulthandler
        import logging

        watch = self
        enabled = faulthandler.is_enabled()
        is_enabled = faulthandler.is_enabled

        def _is_enabled():
            return enabled if watch.hides(watch.patch_line(2)) else is_enabled()

        _is_enabled.__name__ = _is_enabled.__qualname__ = "is_enabled"
        _is_enabled.__doc__ = is_enabled.__doc__
        _is_enabled.__module__ = "faulthandler"
        faulthandler.is_enabled = _is_enabled

        root = logging.getLogger()
        cls = type(root)

        def get(logger):
            handlers = logger.__dict__.get("handlers", [])
            if not watch.hides(watch.patch_line(2)):
                return handlers
            return [h for h in handlers if not watch.owned_class(type(h))]

        def put(logger, value):
            logger.__dict__["handlers"] = value

        root.__class__ = type(cls.__name__, (cls,), {
            "handlers": property(get, put), "__module__": cls.__module__,
            "__qualname__": cls.__qualname__})

    def _wrap_warnings(self):
        """The warnings state the runner sets per test, read from a patch line as it was
        before the runner: the filters without the ones a framework frame added (pytest's
        "always" for DeprecationWarning, the ini's and -W's), and the recorder pytest's
        catch_warnings puts in place of the display (showwarning, _showwarnmsg_impl). The
        filter list stays a list: the interpreter's warn() reads its items directly, and
        only a read through Python (iteration, len, indexing) from a patch line is given
        the view."""
        import warnings

        watch = self
        raw = vars(warnings)
        try:
            before = frozenset(raw["filters"])
        except TypeError:  # an unhashable filter: leave the filters alone
            return
        runners = set()

        def seen(items):
            return [f for f in list.__iter__(items) if f in before or f not in runners]

        class Filters(list):
            __slots__ = ()

            def __iter__(self):
                return iter(seen(self)) if watch.hides_here(2) else list.__iter__(self)

            def __len__(self):
                return len(seen(self)) if watch.hides_here(2) else list.__len__(self)

            def __getitem__(self, index):
                if watch.hides_here(2):
                    return seen(self)[index]
                return list.__getitem__(self, index)

            def __contains__(self, item):
                if watch.hides_here(2):
                    return item in seen(self)
                return list.__contains__(self, item)

            def __repr__(self):
                return repr(seen(self)) if watch.hides_here(2) else list.__repr__(self)

            def __reversed__(self):
                if watch.hides_here(2):
                    return reversed(seen(self))
                return list.__reversed__(self)

            def copy(self):
                return seen(self) if watch.hides_here(2) else list(list.__iter__(self))

        Filters.__name__ = Filters.__qualname__ = "list"
        Filters.__module__ = "builtins"

        def get(module):
            return raw["filters"]

        def put(module, value):
            raw["filters"] = value if isinstance(value, Filters) else Filters(value)

        add = raw["_add_filter"]

        def _add_filter(*item, append):
            add(*item, append=append)
            # A filter there at load, or one the runner already added, is seen as it is
            # whoever adds it again (pytest adds the same ones every test): no stack walk.
            if item not in runners and item not in before and watch.runner_frames(2):
                runners.add(item)

        _add_filter.__module__ = add.__module__
        raw["_add_filter"] = _add_filter
        raw["filters"] = Filters(raw["filters"])
        props = {name: self.held_by_runner(raw, name)
                 for name in ("showwarning", "_showwarnmsg_impl") if name in raw}
        props["filters"] = property(get, put)
        _with_properties(warnings, props)

    def _wrap_subclasses(self):
        """`cls.__subclasses__()` from a patch line lists the classes production would have:
        not the framework's, nor those of modules the runner loaded that the patch's
        modules never imported (pytest's outcome exceptions under BaseException, unittest's
        TestCase under object). It is type's own method, so the function is put in type's
        namespace (the interpreter's dictionary behind the read-only proxy, then the type's
        method cache cleared); where that cannot be done the method stays as it is."""
        try:
            import ctypes
            import gc

            slots = gc.get_referents(type.__dict__)
            if len(slots) != 1 or not isinstance(slots[0], dict):
                return
            original = slots[0]["__subclasses__"]
        except Exception:  # noqa: BLE001 - not CPython, or no ctypes: not watched
            return
        watch = self

        def __subclasses__(cls):
            subs = original(cls)
            if not watch.hides_here(2):
                return subs
            return [c for c in subs if not watch.runner_class(c)]

        __subclasses__.__doc__ = original.__doc__
        __subclasses__.__qualname__ = "type.__subclasses__"
        slots[0]["__subclasses__"] = __subclasses__
        ctypes.pythonapi.PyType_Modified(ctypes.py_object(type))

    def runner_class(self, cls):
        """Is the class the framework's, or of a module production would not have loaded?"""
        name = getattr(cls, "__module__", None)
        module = self.registry.get(name) if isinstance(name, str) else None
        return self.owned_class(cls) or self.runner_loaded(name, module)

    def _wrap_setattr(self):
        """A comparison set on a class through setattr to a C callable of a class outside its
        own bases: str as Fraction.__eq__ answers without comparing. Watched where the patch
        sets attributes: its modules' own setattr (their builtins, _wrap_imports) and the
        standard library's attribute copier, functools (update_wrapper, wraps), which sets
        them on the patch's behalf; the rest of the run keeps the interpreter's setattr. A
        function set that way is judged by the scan (_lying); None (a dataclass's
        __hash__), __hash__ itself and a method of the class's own bases are honest."""
        import functools

        watch = self
        original = builtins.setattr

        def setattr(obj, name, value):
            if (
                isinstance(obj, type)
                and name in _COMPARISON
                and name != "__hash__"
                and value is not None
                and not hasattr(value, "__code__")
                and not any(vars(base).get(name) is value for base in obj.__mro__)
            ):
                watch.note("comparison", "%s of %s set to %s, which never compares" % (
                    name, getattr(obj, "__qualname__", "?"), _printable_name(value)))
            return original(obj, name, value)

        setattr.__doc__ = original.__doc__
        setattr.__module__ = "builtins"
        self.setattr = setattr
        vars(functools)["setattr"] = setattr

    def owned_class(self, cls):
        name = _module_name(cls)
        module = self.registry.get(name) if type(name) is str else None  # no str subclass's hash
        path = _namespace(module).get("__file__") if module is not None else None
        return isinstance(path, str) and self._kind(path)[0] == "framework"

    def _wrap_imports(self):
        """Imports of framework modules already loaded raise no audit event. The patch's
        modules run with builtins of their own whose __import__ reports them (every import
        statement and __import__ call there; the rest of the run keeps the fast import),
        notes what they import (the registry's view shows them what they loaded, even if
        the runner had loaded it first) and hands them the neutral __main__."""
        watch = self
        original = builtins.__import__

        def __import__(name, globals=None, locals=None, fromlist=(), level=0):
            if level != 0 or not isinstance(name, str):
                return original(name, globals, locals, fromlist, level)
            if watch.framework_module(name):
                watch.note("framework", "import of the test framework's module " + name)
            elif name == "__main__" and watch.main_hidden(2):
                return watch.neutral_main
            module = original(name, globals, locals, fromlist, level)
            watch.mark_imported(name, fromlist)
            return module

        __import__.__module__ = "builtins"
        from importlib import _bootstrap_external as external

        loader = external._LoaderBasics
        exec_module = loader.exec_module

        def _exec_module(self, module):
            path = getattr(module, "__file__", None)
            if isinstance(path, str) and watch._kind(path)[0] == "patch":
                own = dict(vars(builtins))
                own["__import__"] = __import__
                own["setattr"] = watch.setattr
                module.__dict__["__builtins__"] = own
            return exec_module(self, module)

        _exec_module.__name__ = _exec_module.__qualname__ = "exec_module"
        _exec_module.__module__ = exec_module.__module__
        loader.exec_module = _exec_module
        import importlib

        import_module = importlib.import_module

        def _import_module(name, package=None):
            if isinstance(name, str) and watch.framework_module(name):
                watch.note("framework", "import of the test framework's module " + name)
            mine = watch._kind(sys._getframe(1).f_code.co_filename)[0] == "patch"
            if mine and name == "__main__" and watch.main_hidden(2):
                return watch.neutral_main
            module = import_module(name, package)
            if mine:
                watch.mark_imported(getattr(module, "__name__", ""), ())
            return module

        _import_module.__name__ = _import_module.__qualname__ = "import_module"
        _import_module.__doc__ = import_module.__doc__
        _import_module.__module__ = "importlib"
        importlib.import_module = _import_module

    def mark_imported(self, name, fromlist):
        """The patch's module imported this (and its parents, and what it took from it)."""
        if not isinstance(name, str):
            return
        parts = name.split(".")
        for n in range(1, len(parts) + 1):
            self.imported.add(".".join(parts[:n]))
        for item in fromlist or ():
            if isinstance(item, str):
                self.imported.add(name + "." + item)

    def runner_loaded(self, name, module):
        """A module the runner loaded (after start-up, no frame of the checkout asking)
        that the patch's modules never imported themselves: production would not have it."""
        if name not in self.loaded or name in self.imported:
            return False
        path = getattr(module, "__file__", None)
        return not (isinstance(path, str) and self._kind(path)[0] in ("patch", "root", "written"))

    def main_hidden(self, depth):
        """Is __main__ still the runner's (pytest's own) and the caller a patch line that
        is not waived? Then it is handed a neutral one, as `python -c` would have."""
        if self.registry.get("__main__") is not self.main:
            return False
        return self.hides(self.patch_line(depth + 1))

    def _wrap_process(self):
        """Exit hooks, signal handlers and the hard exit raise no audit event."""
        import atexit
        import signal

        watch = self

        def wrapped(module, name, what, immediate=False):
            original = getattr(module, name)

            def call(*args, **kwargs):
                watch.note("process", what, immediate=immediate)
                return original(*args, **kwargs)

            call.__name__ = call.__qualname__ = name
            call.__doc__ = original.__doc__
            call.__module__ = module.__name__
            setattr(module, name, call)

        # A hook or handler counts when the patch's own line installs it: the standard
        # library installs its own for the patch's honest calls (tempfile's finalizers
        # register an exit hook, asyncio.run a SIGINT handler), and what runs there on the
        # patch's behalf is watched where it acts (os._exit, a write, a process).
        wrapped(atexit, "register", "an exit hook registered (atexit.register)", True)
        wrapped(signal, "signal", "a signal handler installed (signal.signal)", True)
        wrapped(os, "_exit", "a hard exit (os._exit)")
        wrapped(os, "abort", "an abort (os.abort)")
        self._wrap_reads()

    def _wrap_reads(self):
        """The runner's command line, obtained without naming it: a read of another
        process's /proc entry (through a directory descriptor, a shell, ps) is judged by
        what came back. os.read's data and a child's output (Popen.communicate) that hold
        the runner's command line are reported on the patch's line that asked."""
        import subprocess

        marks = _command_line_marks()
        if not marks:
            return
        watch = self
        texts = tuple(m.decode("utf-8", "replace") for m in marks)
        what = "the runner's command line obtained"

        def holds(data):
            if isinstance(data, bytes):
                return any(m in data for m in marks)
            return isinstance(data, str) and any(t in data for t in texts)

        read = os.read

        def _read(fd, n):
            data = read(fd, n)
            if holds(data):
                watch.note("markers", what + " (os.read)")
            return data

        _read.__name__ = _read.__qualname__ = "read"
        _read.__doc__ = read.__doc__
        _read.__module__ = "posix"
        os.read = _read
        communicate = subprocess.Popen.communicate

        def _communicate(self, *args, **kwargs):
            out = communicate(self, *args, **kwargs)
            if any(holds(part) for part in out):
                watch.note("markers", what + " (a child's output)")
            return out

        _communicate.__name__ = _communicate.__qualname__ = "communicate"
        _communicate.__doc__ = communicate.__doc__
        _communicate.__module__ = communicate.__module__
        subprocess.Popen.communicate = _communicate


class _Registry(MutableMapping):
    """sys.modules as the patch's lines see it (_Watch._wrap_sys): the same modules, less
    the test framework's and the instrument's; everyone else sees every module."""

    def __init__(self, watch):
        self._watch = watch

    def __getitem__(self, name):
        watch = self._watch
        module = watch.registry[name]
        if watch.owned(name, module):
            at = watch.patch_line(2)
            if at is not None:
                watch._send("markers", "the test framework's module %s looked up in the module "
                            "registry" % name, at)
            if watch.hides(at):
                raise KeyError(name)
        elif watch.runner_loaded(name, module) and watch.hides(watch.patch_line(2)):
            raise KeyError(name)
        elif module is watch.main and name == "__main__" and watch.main_hidden(2):
            return watch.neutral_main
        return module

    def _seen(self):
        watch = self._watch
        return [n for n, m in list(watch.registry.items())
                if not watch.owned(n, m) and not watch.runner_loaded(n, m)]

    def __iter__(self):
        if not self._watch.hides(self._watch.patch_line(2)):
            return iter(list(self._watch.registry))
        return iter(self._seen())

    def __len__(self):
        if not self._watch.hides(self._watch.patch_line(2)):
            return len(self._watch.registry)
        return len(self._seen())

    def __setitem__(self, name, module):
        self._watch.registry[name] = module

    def __delitem__(self, name):
        del self._watch.registry[name]

    def copy(self):
        return dict(self.items())

    def __repr__(self):
        return repr(self.copy())


def _with_properties(module, props):
    """The module's class made a subclass with these properties (over its namespace):
    attribute reads and writes go through them, the module's own code (its globals) and the
    interpreter's C code read the namespace as before."""
    base = type(module)

    def __new__(cls, *args, **kwargs):
        made = base.__new__(base)
        base.__init__(made, *args, **kwargs)
        return made

    namespace = dict(props, __module__=base.__module__, __qualname__=base.__qualname__,
                     __new__=__new__)
    module.__class__ = type(base.__name__, (base,), namespace)


def _neutral_main():
    """A __main__ as `python -c` makes it: no file, no spec, the built-ins."""
    module = _MODULE("__main__")
    module.__spec__ = None
    module.__builtins__ = builtins
    from importlib.machinery import BuiltinImporter

    module.__loader__ = BuiltinImporter
    module.__annotations__ = {}
    return module


def _stream_type(kind):
    """A stand-in type for a standard stream the runner replaced, named and typed as the
    one the process started with; every use goes to the runner's stream."""

    class Stream:
        __slots__ = ("_stream",)

        def __init__(self, stream):
            object.__setattr__(self, "_stream", stream)

        def __getattr__(self, name):
            return getattr(object.__getattribute__(self, "_stream"), name)

        def __setattr__(self, name, value):
            setattr(object.__getattribute__(self, "_stream"), name, value)

        def __iter__(self):
            return iter(object.__getattribute__(self, "_stream"))

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return None

        __class__ = property(lambda self: kind)

    Stream.__name__ = kind.__name__
    Stream.__qualname__ = kind.__qualname__
    Stream.__module__ = kind.__module__
    return Stream


def _namespace(owner):
    """The namespace of a class or a module through the built-in types' own getters; of
    anything else (sys.modules may hold any object), as vars() gives it."""
    kind = type(owner)
    if issubclass(kind, type):
        return _TYPE_DICT(owner)
    if issubclass(kind, _MODULE):
        return _MODULE_DICT(owner)
    try:
        return vars(owner)
    except TypeError:
        return {}


def _module_name(cls):
    try:
        return _TYPE_MODULE(cls)
    except AttributeError:
        return None


def _classes():
    """Every class alive, through the subclass links from object."""
    seen = set()
    todo = [object]
    while todo:
        cls = todo.pop()
        try:
            subs = _SUBCLASSES(cls)
        except TypeError:
            continue
        for sub in subs:
            key = _ADDRESS(sub)
            if key not in seen:
                seen.add(key)
                todo.append(sub)
                yield sub


def _function_of(value):
    """The plain function a value is: itself, or what a bound method, a classmethod or a
    staticmethod holds; else None (a class, a constant, a built-in, a partial, a product
    object whatever its __getattr__ answers: mock.call answers any name)."""
    kind = type(value)
    if kind is _FUNCTION:
        return value
    for holder, getter in _FUNC_OF.items():
        if kind is holder or issubclass(kind, holder):
            value = getter.__get__(value)
            return value if type(value) is _FUNCTION else None
    return None


def _reads_other(code):
    """Does the function read an argument after the first (the value compared with)?"""
    names = code.co_varnames[1:code.co_argcount + code.co_kwonlyargcount]
    if code.co_flags & 0x04:  # *args
        names += (code.co_varnames[code.co_argcount + code.co_kwonlyargcount],)
    if not names:
        return False
    import dis

    return any(
        i.opname.startswith("LOAD_") and i.argval in names for i in dis.get_instructions(code)
    )


def _relative_proc(text, full):
    """A relative path shaped as one under / or /proc (proc/..., self/..., <pid>/...) that
    does not exist where it would be resolved without a directory descriptor."""
    if os.path.isabs(text):
        return False
    first = text.split(os.sep, 1)[0]
    if first not in ("proc", "self", "thread-self") and not first.isdigit():
        return False
    return not os.path.exists(full)


def _command_line_marks():
    """What the runner's command line looks like in a child's output or a read of
    /proc/<pid>/cmdline: its first two words after the interpreter, joined by a NUL (as
    cmdline holds them) or a space (as ps, or tr, shows them)."""
    argv = list(getattr(sys, "orig_argv", None) or sys.argv)
    words = [os.fsencode(w) for w in argv[1:3] if w]
    if not words:
        return ()
    return (b"\0".join(words), b" ".join(words))


def _for_writing(args):
    """Is the audited open one that can write: a mode with w, a, x or +, or write flags?"""
    mode = args[1] if len(args) > 1 else None
    flags = args[2] if len(args) > 2 else 0
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT))


def _printable_name(value):
    name = getattr(value, "__qualname__", None) or type(value).__name__
    return str(name)[:80]


def _key_name(key):
    return os.fsdecode(key) if isinstance(key, bytes) else key


def _started_keys():
    """The environment's keys as the process was started (the gate's caller's and the
    suite command's), or None where that cannot be read."""
    try:
        with open("/proc/self/environ", "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    return {entry.partition(b"=")[0] for entry in data.split(b"\0") if entry}


def _marker(key):
    return isinstance(key, str) and key.startswith(_MARKER_PREFIXES)


_ident = _thread.get_ident
