# The gate's pytest reporter: streams each test's outcome, as pytest's own JUnit writer
# would record it, to a descriptor the gate holds, the moment the test's teardown is over.
# What the product does later (a thread at interpreter shutdown, an atexit hook rewriting
# the report) cannot take back what was sent. Loaded through PYTEST_PLUGINS from outside the
# repository; at import it takes its settings out of the environment, its folder out of
# PYTHONPATH and sys.path, and moves the descriptor to a close-on-exec number, so nothing of
# it is left for the code under test to find (docs/replay.md "Outcome stream"). It also
# makes the checkout's modules compile from their bytes on disk, never from a bytecode cache.
import json
import os
import random
import sys
import types

_VAR = "TEST_OUTCOME_STREAM"
_HERE = os.path.dirname(os.path.abspath(__file__))
_NAME = os.path.splitext(os.path.basename(__file__))[0]


def _strip_list(var, item, sep):
    value = os.environ.get(var)
    if value is None:
        return
    kept = [part for part in value.split(sep) if part and part != item]
    if kept:
        os.environ[var] = sep.join(kept)
    else:
        del os.environ[var]


def _take_channel():
    spec = os.environ.pop(_VAR, None)
    _strip_list("PYTEST_PLUGINS", _NAME, ",")
    _strip_list("PYTHONPATH", _HERE, os.pathsep)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != _HERE]
    if not spec:
        return None, None
    fd_text, _, rest = spec.partition(":")
    nonce, _, watch_fd = rest.partition(":")
    fd = int(fd_text)
    try:
        import fcntl

        moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 100 + random.randrange(800))
        os.close(fd)
        fd = moved
    except (ImportError, OSError):
        pass
    return _Channel(fd, nonce), _read_watch(watch_fd)


def _read_watch(fd_text):
    """The watch plan (src/replay/watch.ts), read to its end from the pipe it came on and
    closed: once read, nothing is left in the pipe for anyone else. None when none was fed
    or it cannot be read (a second session of the same run finds the pipe empty)."""
    if not fd_text:
        return None
    fd = int(fd_text)
    chunks = []
    try:
        while True:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    except OSError:
        return None
    finally:
        try:
            os.close(fd)
        except OSError:
            pass
    try:
        plan = json.loads(b"".join(chunks).decode("utf-8"))
    except ValueError:
        return None
    return plan if isinstance(plan, dict) and plan.get("v") == 1 else None


class _Channel:
    def __init__(self, fd, nonce):
        self.fd = fd
        self.nonce = nonce

    def send(self, kind, **fields):
        fields["k"] = self.nonce
        fields["t"] = kind
        data = (json.dumps(fields) + "\n").encode("utf-8", "surrogateescape")
        while data:
            try:
                written = os.write(self.fd, data)
            except OSError:
                return
            data = data[written:]


_RANK = {"passed": 0, "skipped": 1, "failed": 2, "error": 3}


def junit_fields(nodeid, location, config):
    """The classname and name pytest's JUnit report gives a test (and, under xunit1, its
    file and line): what the outcome stream and every watcher call the test."""
    from _pytest.junitxml import bin_xml_escape, mangle_test_address

    names = mangle_test_address(nodeid)
    classnames = names[:-1]
    prefix = getattr(config.option, "junitprefix", None)
    if prefix:
        classnames.insert(0, prefix)
    fields = {"classname": ".".join(classnames), "name": bin_xml_escape(names[-1])}
    if config.getini("junit_family") == "xunit1" and location:
        fields["file"] = location[0]
        if location[1] is not None:
            fields["line"] = location[1]
    return fields


def phase_outcome(report):
    """What one phase's report says of its test, or None (a passed setup or teardown)."""
    if report.passed and report.when == "call":
        return "passed"
    if report.failed:
        if report.when != "call":
            return "error"
        return "skipped" if hasattr(report, "wasxfail") else "failed"
    if report.skipped:
        return "skipped"
    return None


def swap_constant(code, placeholder, value):
    """`code` with the placeholder string constant replaced by `value`, in nested code too
    (the watchers' compiled-in probe arrays and mutant switches)."""
    consts = tuple(
        value
        if type(c) is str and c == placeholder
        else swap_constant(c, placeholder, value)
        if isinstance(c, type(code))
        else c
        for c in code.co_consts
    )
    return code.replace(co_consts=consts)


def _interpreter_folders():
    """The interpreter's own folders (sys.prefix and its kin: the standard library,
    site-packages, a virtual environment), each ending in a separator, for a prefix test of
    a plainly written path: what the sandbox mounts read-only."""
    prefixes = {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    return tuple(
        os.path.normpath(p).rstrip(os.sep) + os.sep for p in prefixes if isinstance(p, str) and p
    )


def _real_paths(root):
    """A path with every symbolic link resolved (os.path.realpath), the answers for the
    interpreter's own folders kept for the process: how this plugin and the watchers
    compare a module's or a code object's file with the checkout's. realpath walks every
    component of the path (about 36 µs a path here; a watched run resolves some 1,300, most
    of them in the standard library's and site-packages' folders); kept, such a file costs
    one lstat of its own name (a name that is a link goes to realpath again from its
    folder's answer). Only folders under the interpreter's prefixes (sys.prefix and the
    rest: the standard library, site-packages, a virtual environment), written plainly
    (no `.`, `..` or doubled separator) and outside the checkout (`root`) are kept: the
    sandbox mounts those read-only, so no run can swap one for a link after its answer was
    kept. A folder the product can write (its /tmp, the checkout) could be, and a file of
    the checkout read through it would then pass for one outside: every other path goes to
    realpath whole, every time."""
    folders = {}
    realpath, split, join, islink = os.path.realpath, os.path.split, os.path.join, os.path.islink
    normpath = os.path.normpath
    kept = _interpreter_folders()
    checkout = (root, root + os.sep)

    def keeps(folder):
        inside = folder == checkout[0] or folder.startswith(checkout[1])
        return not inside and (folder + os.sep).startswith(kept) and normpath(folder) == folder

    def real(path):
        if type(path) is not str or not path.startswith(os.sep):
            return realpath(path)
        folder, name = split(path)
        if name in ("", ".", ".."):
            return realpath(path)
        known = folders.get(folder)
        if known is None:
            if not keeps(folder):
                return realpath(path)
            known = folders[folder] = realpath(folder)
        full = join(known, name)
        return realpath(full) if islink(full) else full

    return real


# What every watcher (gate_*.py) is handed besides the channel and the plan: one way of
# naming a test, of reading a phase's outcome (the outcome stream's) and of resolving a
# path (`real`: the plugin's own _real_paths once the watchers load).
_COMMON = types.SimpleNamespace(
    junit_fields=junit_fields,
    phase_outcome=phase_outcome,
    rank=_RANK,
    swap_constant=swap_constant,
    real=os.path.realpath,
)


class _Stream:
    """Per test (nodeid): the worst outcome of its phases, sent when the teardown ends."""

    def __init__(self, channel, config):
        self.channel = channel
        self.config = config
        self.suite = config.getini("junit_suite_name")
        self.open = {}
        self.sent = 0

    def case(self, report, outcome):
        fields = junit_fields(report.nodeid, getattr(report, "location", None), self.config)
        fields.update(suites=[self.suite], outcome=outcome)
        self.sent += 1
        self.channel.send("case", **fields)

    def pytest_sessionstart(self, session):
        self.channel.send("start", runner="pytest", watch=_WATCH is not None)

    def pytest_runtest_logreport(self, report):
        outcome = phase_outcome(report)
        key = report.nodeid
        if outcome is not None:
            held = self.open.get(key, (None, "passed"))[1]
            if _RANK[outcome] >= _RANK[held]:
                held = outcome
            self.open[key] = (report, held)
        if report.when == "teardown":
            first, held = self.open.pop(key, (report, "passed"))
            self.case(first, held)

    def pytest_collectreport(self, report):
        if not report.passed:
            self.case(report, "error" if report.failed else "skipped")

    def pytest_internalerror(self, excrepr):
        self.sent += 1
        self.channel.send(
            "case", classname="pytest", name="internal", suites=[self.suite], outcome="error"
        )

    def pytest_sessionfinish(self, session, exitstatus):
        for report, held in self.open.values():
            self.case(report, held)
        self.open.clear()
        self.channel.send("end", count=self.sent, status=int(exitstatus))


def _inside(path, root, real):
    try:
        return real(path).startswith(root + os.sep)
    except (TypeError, ValueError, OSError):
        return False


def _fresh_code(root, real):
    """The checkout's modules run from their bytes on disk, never from a bytecode cache.

    A cache is trusted on the source's mtime and size alone, and where caches live can be
    changed at run time (sys.pycache_prefix, importlib's own settings): product code could
    otherwise plant compiled test code that does not match the merge base's test file the
    gate checked, or compiled code for an installed module. Done here, when pytest imports
    the plugin, before any conftest, test or product module. Modules outside the checkout
    (the installed packages) keep their ordinary caches, read where and as the interpreter
    would have read them when the run started (_startup_cache), and pytest does not
    rewrite them (_rewrite_tests_only).
    """
    sys.dont_write_bytecode = True
    startup = _startup_cache()
    _rewrite_tests_only(root, real)
    from importlib import _bootstrap_external as external

    cached = external.SourceLoader.get_code

    def get_code(self, fullname):
        # Every source file, whatever its suffix (SourceFileLoader loads any path it is
        # given): a loader's file named mod.txt is a module as much as mod.py.
        path = self.get_filename(fullname)
        if not isinstance(path, str):
            return cached(self, fullname)
        code = None if _inside(path, root, real) else startup(path)
        return code if code is not None else self.source_to_code(self.get_data(path), path)

    external.SourceLoader.get_code = get_code


def _startup_cache():
    """The code in Python's own cache of a source file, found and checked with what the
    interpreter had when the run started (the cache folder, the tag, the optimisation
    level, the magic number, marshal, open and stat taken now): a timestamp cache whose
    time and size match the source's, or a checked hash cache whose hash does; anything
    else (none, stale, an unchecked hash, unreadable) is None, and the source compiles.
    Nothing importlib holds at run time (its _PYCACHE, cache_from_source, its readers) nor
    sys.pycache_prefix moved at run time changes which file is read, and a cache written
    (or touched) since the plugin loaded is never read: every folder a run can write outside the
    checkout (its /tmp and HOME) is its own and fresh, so such a cache is the run's doing,
    the product's or a test's (a module made at run time with a cache beside it whose code
    names another file)."""
    import _imp
    import marshal
    import time
    from importlib import _bootstrap_external as external

    prefix, tag = sys.pycache_prefix, sys.implementation.cache_tag
    level = sys.flags.optimize
    suffix = ".%s%s.pyc" % (tag, ".opt-%d" % level if level else "")
    magic, raw_magic = external.MAGIC_NUMBER, external._RAW_MAGIC_NUMBER
    loads, read, stat, source_hash = marshal.loads, open, os.stat, _imp.source_hash
    # What the interpreter's own loader does to code from a cache (_compile_bytecode): its
    # file becomes the source's path, whatever the cache says (a cache planted at run time
    # naming pytest's own runner.py would make its frames read as the framework's).
    fix_filename = _imp._fix_co_filename
    join, split, absolute, code_type = os.path.join, os.path.split, os.path.abspath, types.CodeType
    started, fstat = time.time(), os.fstat
    # The interpreter's own folders (read-only in the sandbox): their caches are what was
    # installed. A cache anywhere else must name one file throughout, as a compile does:
    # the fix above renames only the code objects that name the file the outermost names.
    normpath, installed = os.path.normpath, _interpreter_folders()

    def uniform(code, name):
        for const in code.co_consts:
            if type(const) is code_type and (
                const.co_filename != name or not uniform(const, name)
            ):
                return False
        return True

    def location(path):
        folder, name = split(path)
        base, _, rest = name.rpartition(".")
        stem = base or rest  # as cache_from_source names a file without a suffix
        if prefix is None:
            return join(folder, "__pycache__", stem + suffix)
        return join(prefix, absolute(folder).lstrip(os.sep), stem + suffix)

    def fresh(data, path):
        flags = int.from_bytes(data[4:8], "little")
        if flags == 0:
            st = stat(path)
            return (int.from_bytes(data[8:12], "little") == int(st.st_mtime) & 0xFFFFFFFF
                    and int.from_bytes(data[12:16], "little") == st.st_size & 0xFFFFFFFF)
        if flags == 3:  # a hash cache checked against the source
            with read(path, "rb") as source:
                return data[8:16] == source_hash(raw_magic, source.read())
        return False

    def code(path):
        try:
            with read(location(path), "rb") as cache:
                # The inode's change time, not its modification time: os.utime can set the
                # latter back; any write, link or utime sets the former to now.
                if fstat(cache.fileno()).st_ctime >= started:
                    return None
                data = cache.read()
            if data[:4] != magic or not fresh(data, path):
                return None
            found = loads(memoryview(data)[16:])
            if type(found) is not code_type:
                return None
            if not normpath(path).startswith(installed) and not uniform(found, found.co_filename):
                return None
            fix_filename(found, path)
        except (OSError, ValueError, EOFError, TypeError):
            return None
        return found

    return code if tag is not None else (lambda path: None)


def _rewrite_tests_only(root, real):
    """pytest rewrites every module of an installed plugin's distribution for its own
    asserts' messages, and keeps the result in a cache of its own beside the source that
    the gate's runs never write (no bytecode is written, and the sandbox holds
    site-packages read-only): on a machine where pytest had not run outside the gate, each
    of its pytest processes rewrote all of Hypothesis again (0.8 s of a 1.5 s collection on
    the demo). So a module outside the checkout is rewritten only when pytest would rewrite
    it as a test: a conftest, a path on the command line, a file named like a test
    (pytester's inner tests in a temporary folder). Every other one imports as Python
    imports it; an assert there still raises, with a plain message. Under `python -O`
    pytest's rewriting is what keeps those asserts at all, and nothing changes. pytest's own
    cache is never read: the checkout's modules and the tests outside it are rewritten from
    their bytes in every run."""
    from pathlib import PurePath

    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    rewrite._read_pyc = lambda *args, **kwargs: None
    should_rewrite = getattr(rewrite.AssertionRewritingHook, "_should_rewrite", None)
    try:
        from _pytest.pathlib import absolutepath, fnmatch_ex
    except ImportError:
        should_rewrite = None
    if should_rewrite is None:
        return  # another pytest: it decides what to rewrite, as without the gate

    def named_as_test(hook, fn):
        # pytest's own first three reasons to rewrite a file; another pytest: as it decides.
        try:
            if os.path.basename(fn) == "conftest.py":
                return True
            if hook.session is not None and hook.session.isinitpath(absolutepath(fn)):
                return True
            return any(fnmatch_ex(pattern, PurePath(fn)) for pattern in hook.fnpats)
        except Exception:  # noqa: BLE001
            return True

    def _should_rewrite(self, name, fn, state):
        if sys.flags.optimize or _inside(fn, root, real) or named_as_test(self, fn):
            return should_rewrite(self, name, fn, state)
        return False

    rewrite.AssertionRewritingHook._should_rewrite = _should_rewrite


def _by_path(name):
    import importlib.util

    spec = importlib.util.spec_from_file_location(name, os.path.join(_HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The plan key each watcher acts on: its install() returns None when the plan lacks it, so
# such a watcher is not even compiled (they compile from source in every head run, and
# gate_reach.py alone is about 1,000 lines). A watcher not named here is always loaded.
_NEEDS = {
    "gate_reach": "reach",
    "gate_cover": "cover",
    "gate_mutate": "schemata",
    "gate_diff": "diff",
    "gate_plugins": "lines",
}


def _load_watchers(channel, plan, real):
    """The watchers beside this module (gate_*.py: run-time reach, coverage, mutants) that
    the plan asks for, each handed the channel and the plan before any product module is
    imported. Loaded by path, so the folder never goes back on sys.path; each returns an
    optional pytest plugin object."""
    plugins = []
    # The evidence watchers' instruments are registered with one guard (probe_guard.py).
    # `own`: the threads in a frame walk of a watcher's own, whose events every watcher's
    # hook passes (gate_reach.py _enter).
    own = set()
    evidence = plan.get("cover") or plan.get("schemata")
    guard = _by_path("probe_guard").Guard(channel, plan, own) if evidence else None
    # `module`: a watcher beside this one, compiled once per run whoever asks first (the
    # differential recorder reads the run-time watcher's test of the gate's keys).
    loaded = {}

    def module(name):
        if name not in loaded:
            loaded[name] = _by_path(name)
        return loaded[name]

    common = types.SimpleNamespace(
        **{**vars(_COMMON), "real": real}, guard=guard, own=own, module=module
    )
    for name in sorted(os.listdir(_HERE)):
        if not (name.startswith("gate_") and name.endswith(".py")):
            continue
        need = _NEEDS.get(name[:-3])
        if need is not None and not plan.get(need):
            continue
        plugin = module(name[:-3]).install(channel, plan, common)
        if plugin is not None:
            plugins.append(plugin)
    return plugins


def _system_capture():
    """pytest's capture at the level of sys.stdout/stderr instead of descriptors 1 and 2,
    for a run the run-time reach watcher watches. Descriptor capture points 1 and 2 at
    unlinked temporary files and holds copies of 0, 1 and 2: a product can tell it is
    measured by os.fstat(1).st_nlink, /dev/stdout or a count of open descriptors, which no
    audit event shows. With sys capture the descriptors stay the gate's pipes, as in any
    production run under the gate; the tests' captured output (capsys, capfd, the report)
    is kept. Set on the early options before the capture plugin starts (tryfirst wrapper
    around its pytest_load_initial_conftests); `-s` and tee-sys are left as they are."""
    import pytest

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_load_initial_conftests(early_config):
        options = early_config.known_args_namespace
        if getattr(options, "capture", None) == "fd":
            options.capture = "sys"
        yield

    return pytest_load_initial_conftests


_CHANNEL, _WATCH = _take_channel()
_WATCHERS = []
if _CHANNEL is not None:
    _ROOT = os.path.realpath(os.getcwd())
    _REAL = _real_paths(_ROOT)
    _fresh_code(_ROOT, _REAL)
    if _WATCH is not None:
        _WATCHERS = _load_watchers(_CHANNEL, _WATCH, _REAL)
    if _WATCH is not None and _WATCH.get("reach"):
        pytest_load_initial_conftests = _system_capture()


def pytest_configure(config):
    # Out of sys.modules once pytest holds the plugin: code that scans the loaded modules
    # (Hypothesis draws constants from every local module's source) must not see this one.
    sys.modules.pop(__name__, None)
    if _CHANNEL is not None and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Stream(_CHANNEL, config), _NAME + "-stream")
        for index, plugin in enumerate(_WATCHERS):
            config.pluginmanager.register(plugin, "%s-watch-%d" % (_NAME, index))
