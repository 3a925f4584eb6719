# Evidence (docs/evidence.md "What the product can reach"): the coverage probes
# (gate_cover.py) and the mutant switches (gate_mutate.py) are constants of the product's
# own code objects, which its code can read and write once it holds one. Python raises an
# audit event whenever code obtains a code object (a function's __code__, a frame's f_code,
# a generator's gi_code ...), a frame (sys._getframe, f_back, tb_frame, gi_frame ...: the
# test framework's and the gate's frames lead to the gate's objects through their locals),
# or walks the heap (gc, ctypes). This guard watches those events and, when one of the
# patch's lines obtained such a thing, sends one `instrument` record: the gate then counts
# nothing those instruments measured (the files' lines uncovered, their mutants not run).
#
# Judged by what the patch's line obtained, not by the API: a code object that holds an
# instrument (not any code object), a frame outside the patch's own files, the heap. The
# line that obtained it is the innermost frame that is not a hand-over of the standard
# library (dis hands code objects out, inspect frames; code compiled from a string is its
# caller's): inspect.signature, functools.wraps, dataclasses or typing reading a changed
# function keep what they read, and the patch's line gets a signature, not the code.
import os
import sys
import _thread

_CODE_ATTRS = frozenset(("__code__", "f_code", "gi_code", "cr_code", "ag_code"))
_FRAME_ATTRS = frozenset(("f_back", "tb_frame", "gi_frame", "cr_frame", "ag_frame"))
_HEAP = {
    "gc.get_objects": "the heap walked (gc.get_objects)",
    "gc.get_referrers": "the heap walked (gc.get_referrers)",
    "gc.get_referents": "the heap walked (gc.get_referents)",
    "sys._current_frames": "every thread's stack read (sys._current_frames)",
    "ctypes.cdata": "memory read at an address (ctypes)",
    "ctypes.string_at": "memory read at an address (ctypes)",
}


class Guard:
    def __init__(self, channel, plan, own=None):
        self.channel = channel
        # The threads now running a frame walk of the gate's own (the run-time watcher's,
        # gate_reach.py _enter; this guard's judging): shared by the run's watchers, whose
        # hooks pass the events raised there. Nearly every frame and code object read of a
        # watched run is one of them (the demo's: some 75,000 of 77,000), and judging each
        # cost as much as the suite's own tests.
        self.own = own if own is not None else set()
        root = plan.get("root") or os.getcwd()
        self.lines = {}
        for rel, ranges in (plan.get("lines") or {}).items():
            pairs = [tuple(r) for r in ranges if isinstance(r, (list, tuple)) and len(r) == 2]
            self.lines[os.path.realpath(os.path.join(root, rel))] = (rel, pairs)
        # id(code) -> (code, repository path of its instrument): the instrumented code
        # objects, held so that an id is never another object's.
        self.code = {}
        self.roles = {}
        self.busy = set()
        self.sent = set()
        self.hooked = False
        import dis
        import inspect

        self.dis = os.path.realpath(dis.__file__)
        self.inspect = os.path.realpath(inspect.__file__)

    def swap(self, swap, code, placeholder, value, path):
        """swap(code, placeholder, value), the result's code objects that hold `value`
        registered as `path`'s instrument; the audit hook installed on first use."""
        out = swap(code, placeholder, value)
        self._register(out, value, path)
        if not self.hooked:
            self.hooked = True
            sys.addaudithook(self.hook)
        return out

    def _register(self, code, value, path):
        held = False
        for c in code.co_consts:
            if c is value:
                held = True
            elif isinstance(c, type(code)) and self._register(c, value, path):
                held = True
        if held:
            self.code[id(code)] = (code, path)
        return held

    # ---------------------------------------------------------------- the audit hook

    def hook(self, event, args):
        if event == "object.__getattr__":
            name = args[1] if len(args) > 1 else None
            if name not in _CODE_ATTRS and name not in _FRAME_ATTRS:
                return
        elif event != "sys._getframe" and event not in _HEAP:
            return
        me = _thread.get_ident()
        if me in self.busy or me in self.own:
            return
        self.busy.add(me)
        self.own.add(me)
        try:
            self._judge(event, args)
        except Exception:  # noqa: BLE001 - the guard must never break the run it watches
            pass
        finally:
            self.own.discard(me)
            self.busy.discard(me)

    # The interpreter's look-up of it per event finds it (gate_reach.py _Watch.hook).
    hook.__cantrace__ = False

    def _judge(self, event, args):
        # What was obtained first (most events hand out nothing of the gate's: a code object
        # without an instrument, the patch's own frame), then who obtained it (one frame
        # looked at: most events are the runner's or the watchers' own). The event's frame
        # is two up: this method, the hook.
        name = args[1] if event == "object.__getattr__" else None
        if event in _HEAP:
            what, files = _HEAP[event], ["*"]
        elif event == "sys._getframe":
            got = args[0] if args else None
            what, files = self._frame(got, "the call stack read (sys._getframe)")
        elif name in _FRAME_ATTRS:
            got = getattr(args[0], name, None)
            what, files = self._frame(got, "a frame reached through ." + name)
        else:
            code = getattr(args[0], name, None)
            held = self.code.get(id(code))
            if held is None or held[0] is not code:
                return
            what = "the code object of %s read (.%s), which holds the gate's instrument"
            qualname = str(getattr(code, "co_qualname", code.co_name))[:80]
            what, files = what % (qualname, name), [held[1]]
        if what is None:
            return
        at = self._reader(sys._getframe(2), frames=name not in _CODE_ATTRS)
        if at is not None:
            self._send(at, what, files)

    def _frame(self, got, what):
        """A frame obtained: the patch's own frames are harmless, any other leads on."""
        if got is not None and self._kind(got.f_code.co_filename) is None:
            return what, ["*"]
        return None, None

    def _reader(self, frame, frames):
        """The patch's (path, line) that obtained what the event hands out, or None: the
        innermost frame past the standard library's hand-overs (dis always; inspect when
        frames are handed out) and code compiled from a string."""
        while frame is not None:
            code = frame.f_code
            role = self._role(code.co_filename)
            if role == "dis" or role == "string" or (frames and role == "inspect"):
                frame = frame.f_back
                continue
            if role == "inspect" and code.co_name in ("getmembers", "_getmembers"):
                frame = frame.f_back
                continue
            if role is None or role == "inspect":
                return None
            n = frame.f_lineno
            if any(first <= n <= last for first, last in role[1]):
                return role[0], n
            return None
        return None

    def _role(self, filename):
        """What a file's frames are to the reader, decided once per file name (most events
        are the runner's or the watchers' own, and a realpath per event cost seconds):
        "dis", "inspect", "string" (code compiled from a string), the patch's (path, ranges),
        or None (anything else)."""
        if filename in self.roles:
            return self.roles[filename]
        if not filename or filename.startswith("<"):
            role = "string" if filename else None
        else:
            real = os.path.realpath(filename)
            role = "dis" if real == self.dis else "inspect" if real == self.inspect else None
            role = role or self.lines.get(real)
        self.roles[filename] = role
        return role

    def _kind(self, filename):
        """(repository path, ranges) when the file is one of the patch's, else None."""
        role = self._role(filename)
        return role if isinstance(role, tuple) else None

    def _send(self, at, what, files):
        key = (at[0], at[1], what)
        if key in self.sent:
            return
        self.sent.add(key)
        self.channel.send("instrument", path=at[0], line=at[1], what=what[:300], files=files)
