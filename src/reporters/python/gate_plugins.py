# Runner configuration by what pytest does, not by file name (docs/instrument.md "Plugins
# the runner registers"): a module the merge base's conftest names in `pytest_plugins` (a
# package shipping its pytest helpers, `app/testing.py`) is production code by its path,
# yet pytest loads it as configuration of the run: its hooks see every test item (one can
# swap `item.obj` for a no-op) and its fixtures hand the locked tests their values. So the
# plugin manager itself is asked, once the runner registered everything: every hook
# implementation and every fixture whose code is in a production file the patch changed,
# and every plugin module the patch changed that registers any, is sent to the gate as a
# `plugin` record naming the file and the line of the hook or fixture; the gate makes it
# `runner-tampered` (src/replay/reach-events.ts). A production module the plugin imports,
# whose code registers nothing, is not runner configuration and is never reported.
import inspect
import os


def install(channel, plan, common=None):
    # Every plan with lines of the patch: a hook from a changed production file is runner
    # configuration whatever else the plan asks.
    if not plan.get("lines"):
        return None
    return _Plugins(channel, plan, common.real if common is not None else os.path.realpath)


def _code_of(func):
    """The code object of a hook or fixture function (bound method, wrapped), or None."""
    try:
        func = inspect.unwrap(func)
    except ValueError:
        pass
    func = getattr(func, "__func__", func)
    code = getattr(func, "__code__", None)
    return code if hasattr(code, "co_filename") else None


def _naming_line(path, ranges, name):
    """The first of the patch's lines in a file that holds `name`, else its first line."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            text = handle.read().splitlines()
    except OSError:
        text = []
    for first, last in ranges:
        for line in range(first, last + 1):
            if name and line <= len(text) and name in text[line - 1]:
                return line
    return ranges[0][0]


class _Plugins:
    def __init__(self, channel, plan, real):
        self.channel = channel
        self.resolve = real
        # A code object's file name -> its real path, for the session: every plugin pytest
        # registers rescans every hook (pytest_plugin_registered), and resolving the same
        # few hundred files each time was most of this watcher's cost.
        self.reals = {}
        root = real(plan.get("root") or os.getcwd())
        self.changed = {}
        for rel, ranges in (plan.get("lines") or {}).items():
            self.changed[real(os.path.join(root, rel))] = (rel, [tuple(r) for r in ranges])
        self.sent = set()

    def _real(self, path):
        known = self.reals.get(path)
        if known is None:
            known = self.reals[path] = self.resolve(path)
        return known

    def _send(self, rel, line, what, changed):
        key = (rel, line, what)
        if key in self.sent:
            return
        self.sent.add(key)
        self.channel.send("plugin", path=rel, line=line, what=what, changed=changed)

    def _function(self, func, what):
        """Reports a hook or fixture whose code is in a changed production file, and
        whether the patch's lines are inside it (the reason names that one first)."""
        code = _code_of(func)
        if code is None:
            return
        known = self.changed.get(self._real(code.co_filename))
        if known is None:
            return
        rel, ranges = known
        first = code.co_firstlineno
        last = max([line for _, _, line in code.co_lines() if line is not None] + [first])
        changed = any(a <= last and b >= first for a, b in ranges)
        self._send(rel, first, what, changed)

    def _module(self, plugin, impls):
        """A changed plugin module that registers hooks defined elsewhere (imported into
        it): the change is the registration, named at the patch's first line there."""
        path = getattr(plugin, "__file__", None)
        known = self.changed.get(self._real(path)) if isinstance(path, str) else None
        if known is None:
            return
        for impl in impls:
            code = _code_of(impl.function)
            if code is not None and self._real(code.co_filename) != self._real(path):
                name = getattr(impl.function, "__name__", "")
                line = _naming_line(path, known[1], name)
                self._send(known[0], line, "hook %s (imported)" % (name or "?"), True)
                return

    def _scan(self, manager, plugin=None):
        """Every hook implementation the manager holds, or only those of `plugin`, the one
        just registered (a plugin's hooks are all added when it registers; a hook added to
        the manager any other way is found by the full scans after collection and at the
        session's end). One full scan per registration cost the demo's head run a tenth of
        its suite's time."""
        if plugin is None:
            callers = [getattr(manager.hook, name, None) for name in dir(manager.hook)]
        else:
            callers = manager.get_hookcallers(plugin) or ()
        by_plugin = {}
        for caller in callers:
            if not hasattr(caller, "get_hookimpls"):
                continue
            for impl in caller.get_hookimpls():
                if plugin is not None and impl.plugin is not plugin:
                    continue
                self._function(impl.function, "hook %s" % caller.name)
                by_plugin.setdefault(id(impl.plugin), (impl.plugin, []))[1].append(impl)
        for owner, impls in by_plugin.values():
            self._module(owner, impls)

    def _fixtures(self, session):
        defs = getattr(getattr(session, "_fixturemanager", None), "_arg2fixturedefs", None)
        for name, fixtures in (defs or {}).items():
            for fixture in fixtures:
                self._function(getattr(fixture, "func", None), "fixture %s" % name)

    def pytest_plugin_registered(self, plugin, manager):
        # Historic: called for every plugin registered before this one, too.
        self._scan(manager, plugin)

    def pytest_collection_finish(self, session):
        self._scan(session.config.pluginmanager)
        self._fixtures(session)

    def pytest_sessionfinish(self, session, exitstatus):
        self._scan(session.config.pluginmanager)
        self._fixtures(session)
