# Evidence (docs/evidence.md): which of the patch's changed lines each test runs on the
# head. Loaded by path beside the outcome reporter (pytest_outcomes.py), before any conftest
# or product module, and active only when the watch plan asks for coverage (`cover`): no
# variable, file or name of its own is visible to the product. Only the watched files are
# traced: the global trace function answers None for every frame of another file (one dict
# look-up per call), and a watched file's local tracer keeps only its changed lines. Each
# test's lines go out on the gate's channel as `cover` records under the test's JUnit
# classname and name, the same the outcome stream gives its `case`, so the gate maps both
# to one canonical id; lines run while importing and collecting go out without one, and
# lines run between tests or after them count for nothing.
# A product that installs its own tracer (sys.settrace) replaces this one: its lines then
# look uncovered, which under enforce is the safe direction.
import os
import sys
import threading

import pytest


def install(channel, plan):
    if not plan.get("cover"):
        return None
    watched = _watched(plan)
    if not watched:
        return None
    return _Cover(channel, plan.get("root") or os.getcwd(), watched)


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


class _Cover:
    """The tracer and the pytest plugin: the current test's lines, sent at its end."""

    def __init__(self, channel, root, watched):
        self.channel = channel
        self.watched = watched
        self.known = {}
        self.current = {}
        self.outside = {}
        self.bucket = self.outside
        self.outside_open = True
        self.names = None
        tracer = self._tracer()
        sys.settrace(tracer)
        threading.settrace(tracer)

    def _lines_of(self, filename):
        entry = self.known.get(filename)
        if entry is None:
            try:
                real = os.path.realpath(filename)
            except (TypeError, ValueError, OSError):
                real = None
            entry = self.watched.get(real, False)
            self.known[filename] = entry
        return entry

    def _tracer(self):
        # The global trace function runs at every call: for a file that is not watched it
        # does one look-up in a dict of the names already seen, and returns None; in a
        # watched file, only functions holding a changed line get a local tracer.
        known = self.known
        lines_of = self._lines_of
        codes = {}

        def trace(frame, event, arg):
            code = frame.f_code
            entry = known.get(code.co_filename)
            if entry is None:
                entry = lines_of(code.co_filename)
            if not entry:
                return None
            local = codes.get(code)
            if local is None:
                local = codes[code] = self._local(code, *entry)
            return local or None

        return trace

    def _local(self, code, path, changed):
        # False for a function that holds none of the changed lines (its nested functions
        # are code objects of their own).
        try:
            lines = {line for _, _, line in code.co_lines() if line is not None}
        except AttributeError:
            lines = changed
        if not lines & changed:
            return False

        def local(frame, event, arg):
            if event == "line" and frame.f_lineno in changed:
                self.bucket.setdefault(path, set()).add(frame.f_lineno)
            return local

        return local

    def _names(self, item):
        """The classname and name the outcome stream gives this test (_Stream.case)."""
        from _pytest.junitxml import bin_xml_escape, mangle_test_address

        names = mangle_test_address(item.nodeid)
        classnames = names[:-1]
        prefix = getattr(item.config.option, "junitprefix", None)
        if prefix:
            classnames.insert(0, prefix)
        fields = {"classname": ".".join(classnames), "name": bin_xml_escape(names[-1])}
        location = getattr(item, "location", None)
        if item.config.getini("junit_family") == "xunit1" and location:
            fields["file"] = location[0]
            if location[1] is not None:
                fields["line"] = location[1]
        return fields

    def _send(self, bucket, fields):
        for path in sorted(bucket):
            self.channel.send("cover", path=path, lines=sorted(bucket[path]), **fields)

    # First, so that a plugin running the protocol itself (and stopping the hook) does not
    # hide the test; if one still does, its lines fall between tests and count for nothing.
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item, nextitem):
        self.current = {}
        self.bucket = self.current
        self.names = self._names(item)

    def pytest_collection_finish(self, session):
        # From here on, lines run outside a test (between tests, at the session's end) are
        # nobody's: only imports and collection count without a test.
        self.outside_open = False
        self.bucket = {}

    def pytest_runtest_logfinish(self, nodeid, location):
        if self.names is not None:
            self._send(self.current, self.names)
        self.bucket = self.outside if self.outside_open else {}
        self.current = {}
        self.names = None

    def pytest_sessionfinish(self, session, exitstatus):
        self._send(self.outside, {})
        self.outside.clear()
