# Differential replay, the replaying half (issue 26; gate_diff.py records). A plain Python
# process, not a test runner: nothing of pytest, pluggy or hypothesis is imported here, and
# what the recorded calls unpickle may not bring them in (a test module, the framework). It
# imports the head's modules from the head's checkout and calls each recorded call again,
# with the recorded environment, working folder and module data, and encodes the outcome
# the same way the vote's recorder did (gate_diff.encode). The gate (src/replay/differential.ts)
# starts it twice, in the vote's containment, the calls in two orders, each call `rounds`
# times: a call whose outcomes disagree among themselves is nondeterministic and dropped.
#
# Input: one JSON document on stdin. Output: JSON lines with the run's nonce on a duplicate
# of the stdout the gate reads; the product's own prints go to stderr (the log). The module
# sources are compiled from their bytes on disk, never from a bytecode cache the head's
# code could have planted during the vote.
import base64
import importlib
import importlib.util
import io
import json
import os
import pickle
import signal
import sys

_FRAMEWORK = ("pytest", "_pytest", "pluggy", "hypothesis", "_hypothesis_pytestplugin", "xdist",
              "py", "iniconfig")
# Longest one call may run here (the vote's call returned): then its outcome is a timeout.
CALL_SECONDS = 10


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.dont_write_bytecode = True
    request = json.loads(sys.stdin.buffer.read().decode("utf-8"))
    out = _private_stdout()
    encode = _encoder(here)
    root = request["root"]
    _fresh_code(root)
    sys.argv[:] = [""]
    sys.path[:0] = [p for p in request.get("path") or [] if isinstance(p, str)]
    replay = _Replay(request, encode, out)
    for index in request["order"]:
        replay.call(request["calls"][index], index)
    out.write(json.dumps({"k": request["nonce"], "end": replay.sent}) + "\n")
    out.flush()


def _private_stdout():
    """The gate's stdout on a descriptor of its own; fd 1 becomes the log (stderr), stdin empty."""
    fd = os.dup(1)
    os.set_inheritable(fd, False)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return io.TextIOWrapper(io.FileIO(fd, "w"), encoding="utf-8", newline="\n")


def _encoder(here):
    spec = importlib.util.spec_from_file_location("gate_diff", os.path.join(here, "gate_diff.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.encode


def _fresh_code(root):
    """The checkout's modules compile from their bytes on disk (pytest_outcomes._fresh_code,
    without the pytest half: this process never loads pytest)."""
    from importlib import _bootstrap_external as external

    cached = external.SourceLoader.get_code

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        if path.endswith(".py") and os.path.realpath(path).startswith(root + os.sep):
            return self.source_to_code(self.get_data(path), path)
        return cached(self, fullname)

    external.SourceLoader.get_code = get_code


class _Refused(Exception):
    pass


class _Unpickler(pickle.Unpickler):
    """Arguments may name the product's classes and the standard library's, never the test
    framework's or the instrument's (importing a test module would import pytest here)."""

    def __init__(self, data, instrument):
        super().__init__(io.BytesIO(data))
        self.instrument = instrument

    def find_class(self, module, name):
        if module.partition(".")[0] in _FRAMEWORK:
            raise _Refused(module)
        spec = importlib.util.find_spec(module)
        origin = getattr(spec, "origin", None) or ""
        real = os.path.realpath(origin) if origin else ""
        if any(real == i or real.startswith(i + os.sep) for i in self.instrument):
            raise _Refused(module)
        return super().find_class(module, name)


class _Timeout(BaseException):
    pass


def _alarm(signum, frame):
    raise _Timeout()


class _Replay:
    def __init__(self, request, encode, out):
        self.nonce = request["nonce"]
        self.env = request.get("env") or {}
        self.rounds = max(1, int(request.get("rounds") or 1))
        root = request["root"]
        self.instrument = [os.path.realpath(os.path.join(root, p))
                           for p in request.get("instrument") or []]
        self.encode = encode
        self.out = out
        self.sent = 0
        self.home = os.getcwd()

    def send(self, **fields):
        fields["k"] = self.nonce
        self.out.write(json.dumps(fields) + "\n")
        self.out.flush()
        self.sent += 1

    def call(self, call, index):
        """One recorded call, `rounds` times: its outcomes, or why it was not replayed."""
        try:
            target = self.target(call)
            state = self.unpickle(call.get("glob"))
            self.unpickle(call.get("args"))
        except _Refused:
            return self.send(id=index, skip="refused")
        except Exception:  # noqa: BLE001 - the module or the arguments do not load here
            return self.send(id=index, skip="import")
        outs = [self.once(call, target, state) for _ in range(self.rounds)]
        if None in outs:
            return self.send(id=index, skip="cwd")
        self.send(id=index, outs=outs)

    def target(self, call):
        module = importlib.import_module(call["mod"])
        owner = module
        for part in call["owner"].split(".") if call.get("owner") else []:
            owner = vars(owner)[part]
        value = vars(owner)[call["name"]]
        if isinstance(value, (staticmethod, classmethod)):
            value = value.__func__
        return value

    def unpickle(self, text):
        """The recorded value, made afresh (a call may change what it is given); None if none."""
        if not text:
            return None
        return _Unpickler(base64.b64decode(text), self.instrument).load()

    def once(self, call, target, state):
        """One call in the recorded world: its outcome's text (as the recorder's), the world
        put back; None when the recorded working folder is gone."""
        saved = self.enter(call, state)
        if saved is None:
            return None
        try:
            args, kwargs = self.unpickle(call.get("args")) or ((), {})
            signal.signal(signal.SIGALRM, _alarm)
            signal.setitimer(signal.ITIMER_REAL, CALL_SECONDS)
            try:
                result = target(*args, **kwargs)
            except _Timeout:
                return _text(["timeout"])
            except BaseException as exc:  # noqa: BLE001 - the call's own outcome
                return _text(["raise", _class_name(type(exc))])
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            found = self.encode(result)
            return _text(["unencodable"]) if found is None else found
        finally:
            self.leave(saved)

    def enter(self, call, state):
        env = dict(self.env)
        delta = call.get("env") or {}
        env.update(delta.get("set") or {})
        for key in delta.get("unset") or []:
            env.pop(key, None)
        try:
            os.chdir(call.get("cwd") or self.home)
        except OSError:
            return None
        before = dict(os.environ)
        os.environ.clear()
        os.environ.update(env)
        touched = []
        for name, values in (state or {}).items():
            module = sys.modules.get(name) or importlib.import_module(name)
            for key, value in values.items():
                owner_name, _, attr = key.rpartition(".")
                owner = vars(module)[owner_name] if owner_name else module
                touched.append((owner, attr, vars(owner).get(attr, _MISSING)))
                setattr(owner, attr, value)
        return before, touched

    def leave(self, saved):
        before, touched = saved
        for owner, attr, value in reversed(touched):
            if value is _MISSING:
                delattr(owner, attr)
            else:
                setattr(owner, attr, value)
        os.environ.clear()
        os.environ.update(before)
        os.chdir(self.home)


_MISSING = object()


def _text(node):
    return json.dumps(node, separators=(",", ":"))


def _class_name(cls):
    module = type.__dict__["__module__"].__get__(cls)
    return "%s.%s" % (module, type.__dict__["__qualname__"].__get__(cls))


if __name__ == "__main__":
    main()
