# Evidence (docs/evidence.md "How they run"): every mutant of a pytest head in one session
# of the runner, not one process each. Loaded by path beside the outcome reporter, and
# active only when the watch plan carries `schemata` (a mutation session; never the vote).
#
# Mutant schemata: each changed file holding mutants compiles (from its bytes on disk, as
# the outcome reporter makes every checkout module compile) with the statement of each
# mutant k replaced by `if k in <active>: <the mutated statement> else: <the original>`.
# `<active>` is a set that is a constant of the code object (put there after compiling, in
# place of a placeholder string): no name is added to the module's globals or co_names. Only
# a statement inside a function body can be switched after import; a mutant whose statement
# runs at import (module or class level, a def's own header) is sent back `per_process`, and
# the gate runs it the one-process-per-mutant way.
#
# The session's test loop is replaced: for each mutant, the active index is set and only
# the tests it names (node ids) run, each on its own (all fixtures torn down after it), in
# the order given, stopping at the first that fails; then one `mutant` record goes out with
# each test's case names and outcome (the outcome stream's rules), and the index is reset.
# Before each mutant the budget is checked; past it the rest are sent `not_run`. Hypothesis
# tests skip their shrink and explain phases (quick_failures): a kill needs a failure, not
# the smallest one. A one-by-one mutant run (`schemata.one`) gets only that.
import ast
import os
import sys
import time

import pytest

def install(channel, plan, common):
    schemata = plan.get("schemata")
    if not isinstance(schemata, dict) or not isinstance(schemata.get("mutants"), list):
        return None
    root = plan.get("root") or os.getcwd()
    if schemata.get("one"):
        # A mutant run of its own (the file on disk is the mutant): only the quick failures.
        return _Quick()
    return _Session(channel, root, schemata, common)


# ------------------------------------------------------------------------- quick failures


def quick_failures(items):
    """A mutant asks whether a test fails, not for the smallest failing example: the
    Hypothesis tests' shrink and explain phases are dropped. Both start only once a
    failure is found, so no test's outcome changes; a failing property stops at its first
    failing example instead of shrinking it (seconds on a property suite)."""
    hypothesis = sys.modules.get("hypothesis")
    settings = getattr(hypothesis, "settings", None)
    if settings is None:
        return
    slow = ("shrink", "explain")
    try:
        default = settings.default
        fewer = [p for p in default.phases if p.name not in slow]
        settings.register_profile("gate-mutants", parent=default, phases=fewer)
        settings.load_profile("gate-mutants")
    except Exception:  # noqa: BLE001 - an unknown Hypothesis: tests run as they are
        pass
    for item in items:
        test = getattr(item, "obj", None)
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is None:
            continue
        try:
            fewer = [p for p in own.phases if p.name not in slow]
            test._hypothesis_internal_use_settings = settings(own, phases=fewer)
        except Exception:  # noqa: BLE001
            pass


def no_patch(item):
    """Hypothesis writes a patch of each failing example into the worktree when the report
    is made, importing libcst to do it (a second and more per mutant): forgotten first."""
    item.__dict__.pop("_hypothesis_failing_examples", None)


class _Quick:
    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_finish(self, session):
        quick_failures(session.items)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        no_patch(item)


# ------------------------------------------------------------------------- the switch


def _offset_position(text, offset):
    """(line, UTF-8 column) of a code point offset, as the syntax tree gives positions."""
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, len(text[start:offset].encode("utf-8"))


def _span(node):
    return (node.lineno, node.col_offset), (node.end_lineno, node.end_col_offset)


def _innermost(tree, first, last):
    """The innermost statement holding positions first..last, and whether a function
    (def or lambda) strictly encloses it; (None, False) when none does."""
    found, in_function = None, False
    stack = [(tree, False)]
    while stack:
        node, inside = stack.pop()
        for child in ast.iter_child_nodes(node):
            if not hasattr(child, "lineno"):
                stack.append((child, inside))
                continue
            start, end = _span(child)
            if not (start <= first and last <= end):
                continue
            if isinstance(child, ast.stmt):
                found, in_function = child, inside
            funcs = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            stack.append((child, inside or isinstance(child, funcs)))
    return found, in_function


def switch_of(text, mutant):
    """(original statement, mutated statement) for one mutant of `text`, or the reason it
    cannot be switched inside one compiled module."""
    try:
        start, end = int(mutant["start"]), int(mutant["end"])
        replacement, original = str(mutant["replacement"]), str(mutant["original"])
    except (KeyError, TypeError, ValueError):
        return "not a mutant the session can read"
    if not (0 <= start <= end <= len(text)) or text[start:end] != original:
        return "the file is not the text the mutant was made from"
    mutated = text[:start] + replacement + text[end:]
    try:
        tree = ast.parse(text)
        other = ast.parse(mutated)
    except (SyntaxError, ValueError):
        return "the file or its mutant does not parse"
    first = _offset_position(text, start)
    stmt, in_function = _innermost(tree, first, _offset_position(text, end))
    if stmt is None or not in_function:
        return "its statement runs at import"
    # The mutated statement: the innermost one around the replacement, starting where the
    # original does (a removed call is a `pass` there, of another kind).
    twin, _ = _innermost(other, first, _offset_position(mutated, start + len(replacement)))
    if twin is None or (twin.lineno, twin.col_offset) != (stmt.lineno, stmt.col_offset):
        return "its mutated statement was not found"
    return stmt, twin


class _Switcher(ast.NodeTransformer):
    """Wraps each switched statement, innermost first, in `if k in <active>:`."""

    def __init__(self, switches, placeholder):
        self.switches = switches
        self.placeholder = placeholder

    def generic_visit(self, node):
        node = super().generic_visit(node)
        for k, twin in self.switches.get(id(node), []):
            # `k in <active>`: a comparison, which the compiler never folds (a subscript
            # of the placeholder string would be folded to its character).
            active = ast.Constant(self.placeholder)
            test = ast.Compare(left=ast.Constant(k), ops=[ast.In()], comparators=[active])
            wrapped = ast.If(test=test, body=[twin], orelse=[node])
            for n in (wrapped, test, active, test.left):
                ast.copy_location(n, node)
            node = wrapped
        return node


def switched_code(data, path, mutants, active, swap):
    """The code of one file with its switchable mutants in: (code, the switched ks), or
    None when none of them could be switched; `mutants` are (k, mutant) pairs."""
    try:
        text = data.decode("utf-8")
        tree = compile(data, path, "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (UnicodeDecodeError, SyntaxError, ValueError):
        return None
    by_position = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            by_position[(type(node), node.lineno, node.col_offset, node.end_lineno)] = node
    switches = {}
    done = []
    for k, mutant in mutants:
        made = switch_of(text, mutant)
        if isinstance(made, str):
            continue
        stmt, twin = made
        key = (type(stmt), stmt.lineno, stmt.col_offset, stmt.end_lineno)
        target = by_position.get(key)
        if target is None:
            continue
        switches.setdefault(id(target), []).append((k, twin))
        done.append(k)
    if not done:
        return None
    placeholder = "\0gate-active-" + os.urandom(8).hex()
    tree = ast.fix_missing_locations(_Switcher(switches, placeholder).visit(tree))
    code = compile(tree, path, "exec", dont_inherit=True)
    return swap(code, placeholder, active), done


# ------------------------------------------------------------------------- the session


class _Session:
    """The compile hook and the test loop of one mutation session."""

    def __init__(self, channel, root, schemata, common):
        self.channel = channel
        self.common = common
        self.active = set()
        self.budget = float(schemata.get("budget_s") or 0)
        self.mutants = []
        self.files = {}
        for m in schemata["mutants"]:
            if not isinstance(m, dict) or not isinstance(m.get("path"), str):
                continue
            k = int(m.get("k", -1))
            self.mutants.append((k, m))
            real = os.path.realpath(os.path.join(root, m["path"]))
            self.files.setdefault(real, []).append((k, m))
        # The statement kind of each mutant decided now, from the file on disk.
        self.why = {}
        for real, pairs in self.files.items():
            try:
                with open(real, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError):
                text = None
            for k, m in pairs:
                made = "the file cannot be read" if text is None else switch_of(text, m)
                if isinstance(made, str):
                    self.why[k] = made
        self.switched = set()
        self.outcome = None
        self._hook()

    def _hook(self):
        from importlib import _bootstrap_external as external

        previous = external.SourceLoader.get_code
        session = self

        def get_code(loader, fullname):
            path = loader.get_filename(fullname)
            try:
                pairs = session.files.get(os.path.realpath(path))
            except (TypeError, ValueError, OSError):
                pairs = None
            if pairs:
                common = session.common

                # Registered with the guard (probe_guard.py), as the coverage probes are.
                def swap(code, placeholder, active, rel=pairs[0][1]["path"]):
                    return common.guard.swap(common.swap_constant, code, placeholder, active, rel)

                made = switched_code(loader.get_data(path), path, pairs, session.active, swap)
                if made is not None:
                    session.switched.update(made[1])
                    return made[0]
            return previous(loader, fullname)

        external.SourceLoader.get_code = get_code

    def _fields(self, item):
        return self.common.junit_fields(item.nodeid, getattr(item, "location", None), item.config)

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_makereport(self, item, call):
        no_patch(item)

    def pytest_runtest_logreport(self, report):
        # The outcome stream's rules (pytest_outcomes._Stream): the worst of the phases.
        if self.outcome is None:
            return
        outcome = self.common.phase_outcome(report)
        rank = self.common.rank
        if outcome is not None and rank[outcome] >= rank[self.outcome[0]]:
            self.outcome[0] = outcome

    def _run(self, item):
        self.outcome = ["passed"]
        try:
            item.ihook.pytest_runtest_protocol(item=item, nextitem=None)
            return self.outcome[0]
        finally:
            self.outcome = None

    def _one(self, k, mutant, items):
        self.active.add(k)
        cases = []
        try:
            for nodeid in mutant.get("tests") or []:
                item = items.get(nodeid)
                if item is None:
                    continue
                outcome = self._run(item)
                cases.append(dict(self._fields(item), outcome=outcome))
                if outcome in ("failed", "error"):
                    break
        finally:
            self.active.clear()
        if k in self.switched:
            self.channel.send("mutant", index=k, cases=cases)
        else:
            # Its module was never compiled with the switch (not imported, or imported by
            # another loader): the tests ran the original.
            self.channel.send("mutant", index=k, per_process="its module was not compiled here")

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session):
        quick_failures(session.items)
        items = {item.nodeid: item for item in session.items}
        deadline = time.monotonic() + self.budget
        for k, mutant in self.mutants:
            if k in self.why:
                self.channel.send("mutant", index=k, per_process=self.why[k])
            elif time.monotonic() >= deadline:
                self.channel.send("mutant", index=k, not_run="budget")
            else:
                self._one(k, mutant, items)
        return True
