# Evidence (docs/evidence.md): which of the patch's changed lines each test runs on the
# head. Loaded by path beside the outcome reporter (pytest_outcomes.py), before any conftest
# or product module, and active only when the watch plan asks for coverage (`cover`).
#
# No tracer: the changed production files are compiled with probes. The outcome reporter
# already makes every checkout module compile from its bytes on disk (_fresh_code); this
# module wraps that loader once more, and for a watched file parses the bytes, puts one
# probe before each statement holding a changed line (at the head of a handler's or a
# case's body for its header), and compiles the tree. A probe is `<array>[k] = 1`: one store
# into a bytearray that is a constant of the code object (put there after compiling, in
# place of a placeholder string), so no name is added to the module's globals or to any
# co_names, and the source on disk, linecache, inspect and tracebacks see the original text
# at its original lines. Every other file compiles as before and pays nothing.
#
# Between tests the arrays are drained: a test's probes go out on the gate's channel as
# `cover` records under the test's JUnit classname and name, the same the outcome stream
# gives its `case`, so the gate maps both to one canonical id; probes hit while importing
# and collecting go out without a test, and those hit between tests or after them count for
# nothing. A line counts as run when the statement it belongs to starts (for a compound
# statement, its header's lines): a continuation line of a statement that started is run.
import ast
import os

import pytest


def install(channel, plan, common):
    if not plan.get("cover"):
        return None
    watched = _watched(plan)
    if not watched:
        return None
    return _Cover(channel, watched, common)


def _watched(plan):
    """Real path of each watched file → (its repository path, the set of its changed lines)."""
    root = plan.get("root") or os.getcwd()
    out = {}
    for path, ranges in (plan.get("lines") or {}).items():
        lines = set()
        for pair in ranges:
            try:
                first, last = int(pair[0]), int(pair[1])
            except (TypeError, ValueError, IndexError):
                continue
            lines.update(range(first, last + 1))
        if lines:
            out[os.path.realpath(os.path.join(root, path))] = (path, lines)
    return out


# ------------------------------------------------------------------------- the probes

_BODIES = ("body", "orelse", "finalbody")
_NOT_HEADER = frozenset(_BODIES + ("handlers", "cases", "type_comment"))


def _max_line(node):
    """The last line of any node under `node` (a list of nodes, a node or nothing)."""
    if isinstance(node, list):
        return max((_max_line(n) for n in node), default=0)
    if not isinstance(node, ast.AST):
        return 0
    return max((getattr(n, "end_lineno", None) or 0 for n in ast.walk(node)), default=0)


def _own_lines(stmt):
    """The lines a statement runs when it starts: a simple one's all, a compound one's header."""
    start = min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", [])])
    if not any(isinstance(getattr(stmt, f, None), list) for f in _BODIES + ("cases",)):
        return range(start, (stmt.end_lineno or stmt.lineno) + 1)
    # The keyword's own line too: a decorated `class C:` has no field on it.
    end = stmt.lineno
    for field, value in ast.iter_fields(stmt):
        if field not in _NOT_HEADER:
            end = max(end, _max_line(value))
    return range(start, end + 1)


def _is_docstring(stmt):
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )


def _is_future(stmt):
    return isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"


class _Prober:
    """Puts the probes into one parsed file; `lines[k]` are the changed lines of probe k."""

    def __init__(self, changed, placeholder):
        self.changed = changed
        self.placeholder = placeholder
        self.lines = []

    def probe(self, lines, at):
        hit = sorted(set(lines) & self.changed)
        if not hit:
            return []
        self.lines.append(hit)
        k = len(self.lines) - 1
        target = ast.Subscript(
            value=ast.Constant(self.placeholder), slice=ast.Constant(k), ctx=ast.Store()
        )
        node = ast.Assign(targets=[target], value=ast.Constant(1))
        for n in ast.walk(node):
            n.lineno = n.end_lineno = at.lineno
            n.col_offset = n.end_col_offset = at.col_offset
        return [node]

    def body(self, stmts, header=(), at=None, doc=False, module=False):
        """A statement list with its probes, `header` lines probed first (a handler's)."""
        out = []
        keep = 0
        # A docstring, and at module level `from __future__` imports, stay first.
        if doc and stmts and _is_docstring(stmts[0]):
            keep = 1
        while module and keep < len(stmts) and _is_future(stmts[keep]):
            keep += 1
        out.extend(stmts[:keep])
        if header and at is not None:
            out.extend(self.probe(header, at))
        for stmt in stmts[keep:]:
            out.extend(self.probe(_own_lines(stmt), stmt))
            self.nested(stmt)
            out.append(stmt)
        return out

    def nested(self, stmt):
        for field in _BODIES:
            value = getattr(stmt, field, None)
            if isinstance(value, list) and value:
                docs = field == "body" and isinstance(
                    stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
                )
                setattr(stmt, field, self.body(value, doc=docs))
        for handler in getattr(stmt, "handlers", None) or []:
            end = max(handler.lineno, _max_line([handler.type]))
            handler.body = self.body(handler.body, range(handler.lineno, end + 1), handler)
        for case in getattr(stmt, "cases", None) or []:
            first = case.pattern.lineno
            end = max(first, _max_line([case.pattern, case.guard]))
            case.body = self.body(case.body, range(first, end + 1), case.pattern)


def probed_code(data, path, changed, swap):
    """The code of a watched file's bytes with its probes: (code, array, lines per probe);
    None when the file does not parse (the ordinary compile then reports the error)."""
    placeholder = "\0gate-probe-" + os.urandom(8).hex()
    try:
        tree = compile(data, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (SyntaxError, ValueError):
        return None
    prober = _Prober(changed, placeholder)
    tree.body = prober.body(tree.body, doc=True, module=True)
    if not prober.lines:
        return None
    code = compile(tree, path, "exec", dont_inherit=True)
    array = bytearray(len(prober.lines))
    return swap(code, placeholder, array), array, prober.lines


# ------------------------------------------------------------------------- the plugin


class _Cover:
    """The compile hook and the pytest plugin: the current test's probes, sent at its end."""

    def __init__(self, channel, watched, common):
        self.channel = channel
        self.common = common
        self.watched = watched
        # (repository path, array, lines per probe) of each compiled watched module.
        self.probed = []
        self.outside = {}
        self.bucket = self.outside
        self.current = {}
        self.names = None
        self._hook()

    def _hook(self):
        from importlib import _bootstrap_external as external

        previous = external.SourceLoader.get_code
        watched = self.watched
        probed = self.probed
        common = self.common

        def get_code(loader, fullname):
            path = loader.get_filename(fullname)
            try:
                entry = watched.get(os.path.realpath(path))
            except (TypeError, ValueError, OSError):
                entry = None
            if entry is not None:
                # The probes are registered with the guard (probe_guard.py): a patch line
                # that obtains a code object holding them voids what they measured.
                def swap(code, placeholder, array, rel=entry[0]):
                    return common.guard.swap(common.swap_constant, code, placeholder, array, rel)

                made = probed_code(loader.get_data(path), path, entry[1], swap)
                if made is not None:
                    probed.append((entry[0], made[1], made[2]))
                    return made[0]
            return previous(loader, fullname)

        external.SourceLoader.get_code = get_code

    def _drain(self, bucket):
        """The probes hit since the last drain, into `bucket` (path → lines); all reset."""
        for path, array, lines in self.probed:
            at = array.find(1)
            if at < 0:
                continue
            into = bucket.setdefault(path, set())
            while at >= 0:
                into.update(lines[at])
                at = array.find(1, at + 1)
            array[:] = bytes(len(array))

    def _names(self, item):
        """The classname and name the outcome stream gives this test (_Stream.case)."""
        return self.common.junit_fields(item.nodeid, getattr(item, "location", None), item.config)

    def _send(self, bucket, fields):
        for path in sorted(bucket):
            if bucket[path]:
                self.channel.send("cover", path=path, lines=sorted(bucket[path]), **fields)

    # First, so that a plugin running the protocol itself (and stopping the hook) does not
    # hide the test; if one still does, its lines fall between tests and count for nothing.
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self._drain(self.bucket)
        self.current = {}
        self.bucket = self.current
        self.names = self._names(item)

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_finish(self, session):
        # From here on, lines run outside a test (between tests, at the session's end) are
        # nobody's: only imports and collection count without a test.
        self._drain(self.bucket)
        self.bucket = {}

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logfinish(self, nodeid, location):
        self._drain(self.bucket)
        if self.names is not None:
            self._send(self.current, self.names)
        self.bucket = {}
        self.current = {}
        self.names = None

    def pytest_sessionfinish(self, session, exitstatus):
        self._drain(self.bucket)
        self._send(self.outside, {})
        self.outside.clear()
