"""Verification: does decompiled source compile back to the same bytecode?

`verify_source(original, source)` compiles `source` with the interpreter that made `original`'s
bytecode (in-process when that is the running interpreter, otherwise in a subprocess of the
matching CPython) and compares the code objects after normalization, recursively: instruction
names and resolved arguments (jump targets as instruction indices), names, constants, flags,
argument counts, exception tables and nested code objects; offsets and line numbers are ignored.
The comparison itself is the C++ core's (src/core/equivalence.cpp), shared with `uncompile verify`.

Each code object of the original gets a verdict at one of three levels: *decompiled* (the source
does not compile), *recompiles* (it compiles to different bytecode; `first_difference` says where),
*equivalent*. A function decompiled on its own (a `def` statement) is recompiled as a module and
its counterpart found there by name and qualified name. When that is not equivalent, it is tried
again inside as much of the place it was compiled in as its bytecode depends on
(src/verify/recompile_context.h): its enclosing classes and functions by their qualified name
(nested functions' qualified names and name mangling depend on them), a function binding its
free variables (a closure), a class for the `__class__` cell (a method using super()), and
`import NAME` for the modules it calls into (3.11+ compiles `mod.f()` differently when `mod` is
imported). The decompiled source itself is not changed.

The interpreter of version X.Y is `UNCOMPILE_PYTHON_X_Y` when set, else `pythonX.Y` on PATH, else
the newest `$(pyenv root)/versions/X.Y.N/bin/python`.
"""
import os
import struct
import subprocess
import sys
import types
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _core
from ._bridge import marshal_code
from .errors import RecompileError

__all__ = ["CodeVerdict", "Recompiler", "VerifyResult", "verify_source"]

Original = Union[types.CodeType, bytes, bytearray, memoryview, Any]


@dataclass(frozen=True)
class CodeVerdict:
    """The verdict on one code object of the original."""

    qualname: str
    equivalent: bool
    first_difference: Optional[str]  # a sentence (the refusal's reason when not decompiled); None when equivalent
    firstlineno: int = 0
    decompiled: bool = True  # False: the decompiler refused it (its body is a stub that raises)
    recompiles: bool = True  # False: the source as a whole does not compile

    @property
    def level(self) -> str:
        """'equivalent', 'recompiles', 'decompiled' or 'not decompiled'."""
        if not self.decompiled:
            return "not decompiled"
        if not self.recompiles:
            return "decompiled"
        return "equivalent" if self.equivalent else "recompiles"

    def __str__(self) -> str:
        text = "%s (line %d): %s" % (self.qualname, self.firstlineno, self.level)
        return text if self.equivalent else "%s: %s" % (text, self.first_difference)


@dataclass(frozen=True)
class VerifyResult:
    """The outcome of verifying one piece of decompiled source against the original bytecode."""

    equivalent: bool  # every code object is equivalent
    recompiles: bool  # the source compiles with the original's interpreter
    verdicts: List[CodeVerdict] = field(default_factory=list)
    version: str = ""  # the CPython version that made (and recompiled) the bytecode
    compile_error: Optional[str] = None  # "SyntaxError: ..." when the source does not compile

    def __str__(self) -> str:
        same = sum(v.equivalent for v in self.verdicts)
        if self.equivalent:
            head = "equivalent (CPython %s): %d of %d code objects" % (self.version, same, len(self.verdicts))
        elif not self.recompiles:
            head = "does not recompile (CPython %s): %s" % (self.version, self.compile_error)
        else:
            head = "NOT equivalent (CPython %s): %d of %d code objects equivalent" % (self.version, same, len(self.verdicts))
        return "\n".join([head] + ["  " + str(v) for v in self.verdicts])


# ---- recompiling -------------------------------------------------------------------------------

_SCRIPT_NAMESPACE: Dict[str, Any] = {}  # the recompile script, executed once for in-process use


def _recompile_here(source: str, filename: str, flags: int) -> bytes:
    if not _SCRIPT_NAMESPACE:
        namespace: Dict[str, Any] = {"__name__": "uncompile._recompile_script"}
        exec(compile(_core.RECOMPILE_SCRIPT, "<uncompile recompile script>", "exec", dont_inherit=True), namespace)
        _SCRIPT_NAMESPACE.update(namespace)
    return _SCRIPT_NAMESPACE["recompile"](source, filename, flags)


class Recompiler:
    """A worker process of CPython `version` that compiles sources on request.

    One worker serves any number of `recompile` calls; pass it to `verify_source(...,
    recompiler=...)` when verifying many pieces of source. A worker that dies is restarted once
    per request. Use it as a context manager, or call `close()`.
    """

    def __init__(self, version: str, python: Optional[str] = None):
        self.version = version
        self.python = python or find_interpreter(version)
        self._proc: Optional[subprocess.Popen] = None

    def _start(self) -> subprocess.Popen:
        proc = subprocess.Popen([self.python, "-I", "-c", _core.RECOMPILE_SCRIPT, self.version, "--serve"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None
        hello = proc.stdout.readline()
        if hello != b"ready\n":
            proc.kill()
            _, err = proc.communicate()
            if hello.startswith(b"V"):
                raise RecompileError("%s is Python %s, not %s" % (self.python, hello[1:].decode().strip(), self.version))
            raise RecompileError("%s failed to start: %s" % (self.python, err.decode("utf-8", "replace")[-2000:]))
        return proc

    def recompile(self, source: str, filename: str, flags: int = 0) -> bytes:
        """b"M" + marshal data of the module, or b"E" + the compile error (see recompile_script.h)."""
        request = _request(source, filename, flags)
        for attempt in (1, 2):
            if self._proc is None or self._proc.poll() is not None:
                self._proc = self._start()
            try:
                return _exchange(self._proc, request)
            except (OSError, EOFError) as e:
                self.close()
                if attempt == 2:
                    raise RecompileError("Python %s worker (%s) died while compiling: %s" % (self.version, self.python, e))
        raise AssertionError("unreachable")

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is not None:
            try:
                proc.stdin.close()  # type: ignore[union-attr]
                proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                proc.kill()
                proc.wait()
            for stream in (proc.stdout, proc.stderr):
                if stream is not None:
                    stream.close()

    def __enter__(self) -> "Recompiler":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


def _request(source: str, filename: str, flags: int) -> bytes:
    body = source.encode("utf-8", "surrogatepass")
    name = filename.encode("utf-8", "surrogatepass")
    return struct.pack("<III", flags & 0xFFFFFFFF, len(name), len(body)) + name + body


def _read_exactly(stream: Any, n: int) -> bytes:
    data = stream.read(n)
    if len(data) != n:
        raise EOFError("the worker closed its output")
    return data


def _exchange(proc: subprocess.Popen, request: bytes) -> bytes:
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(request)
    proc.stdin.flush()
    (length,) = struct.unpack("<I", _read_exactly(proc.stdout, 4))
    return _read_exactly(proc.stdout, length)


def find_interpreter(version: str) -> str:
    """The CPython `version` ("3.8") executable; RecompileError naming the version when there is none."""
    return _core.find_interpreter(version)


# ---- verifying ---------------------------------------------------------------------------------

class _Subject:
    """The original bytecode as the core takes it, and what recompiling needs to know about it."""

    def __init__(self, original: Original, version: Optional[str]):
        self.live: Optional[types.CodeType] = None
        if isinstance(original, (bytes, bytearray, memoryview)):
            self.data, self.version_arg, self.placeholders = bytes(original), version or "", []
        else:
            from .core import _code_of
            code = original if isinstance(original, types.CodeType) else _code_of(original)
            marshalled = marshal_code(code)
            self.live = code
            self.data, self.version_arg, self.placeholders = marshalled.data, marshalled.version, marshalled.placeholders
        info = _core.code_info(self.data, self.version_arg, self.placeholders)
        self.version: str = info["version"]
        self.filename: str = info["filename"]
        self.is_module = info["name"] == "<module>"
        # A function is compiled under its module's __future__ imports, which its source does not show.
        self.flags: int = 0 if self.is_module else info["flags"]


def verify_source(original: Original, source: str, *, version: Optional[str] = None,
                  recompiler: Optional[Recompiler] = None) -> VerifyResult:
    """Recompile `source` with the interpreter of `original`'s version and compare code objects.

    `original` is a code object (or a function, method, generator... carrying one) of the running
    interpreter, or bytes: a whole .pyc file, or, with `version` ("3.12"), bare marshal data of
    that version. A module's code object is compared with `source` compiled as a module (same
    filename); any other code object with its counterpart, found by name and qualified name, in
    `source` compiled as a module. When `source` is a `DecompiledSource`, code objects it lists in
    `.failures` are marked not decompiled.

    Never raises because the output differs; raises RecompileError when the interpreter of that
    version is missing or dies, BadBytecodeError / UnsupportedVersionError on bad input.
    """
    subject = _Subject(original, version)
    if recompiler is not None and recompiler.version != subject.version:
        raise ValueError("recompiler is for Python %s, the bytecode is %s" % (recompiler.version, subject.version))
    refused = _refusals(source)
    result = _verify_text(subject, str(source), recompiler, refused)
    if result.equivalent:
        return result
    # Source that is the function alone (what decompile() gives) compiles differently outside the
    # place the original was compiled in: try it there (free variables, a class, imported modules).
    text = _core.source_in_context(subject.data, subject.version_arg, subject.placeholders, str(source))
    if text == str(source):
        return result
    in_context = _verify_text(subject, text, recompiler, refused)
    return in_context if in_context.recompiles else result


def _verify_text(subject: "_Subject", text: str, recompiler: Optional[Recompiler],
                 refused: Dict[Tuple[str, int], str]) -> VerifyResult:
    if subject.version == "%d.%d" % sys.version_info[:2] and recompiler is None:
        reply = _recompile_here(text, subject.filename, subject.flags)
    elif recompiler is not None:
        reply = recompiler.recompile(text, subject.filename, subject.flags)
    else:
        with Recompiler(subject.version) as one_shot:
            reply = one_shot.recompile(text, subject.filename, subject.flags)
    if reply[:1] == b"E":
        error = reply[1:].decode("utf-8", "replace")
        rows = _core.compare_marshal(subject.data, subject.data if subject.version_arg else _module_part(subject.data),
                                     subject.version_arg, subject.placeholders)
        verdicts = [CodeVerdict(q, False, "does not recompile: " + error, line, _refusal(q, line, refused) is None, False)
                    for q, _, _, line in rows]
        return VerifyResult(False, False, verdicts, subject.version, error)
    rows = _core.compare_marshal(subject.data, reply[1:], subject.version_arg, subject.placeholders)
    verdicts = []
    for qualname, same, difference, line in rows:
        reason = _refusal(qualname, line, refused)
        if reason is not None:
            same, difference = False, reason
        verdicts.append(CodeVerdict(qualname, same, difference, line, reason is None, True))
    return VerifyResult(all(v.equivalent for v in verdicts), True, verdicts, subject.version)


def _module_part(pyc: bytes) -> bytes:
    return pyc[16:]  # the marshal data after a .pyc's 16-byte header (PEP 552)


def _refusals(source: str) -> Dict[Tuple[str, int], str]:
    return {(f.qualname, f.firstlineno): f.reason for f in getattr(source, "failures", ())}


def _refusal(qualname: str, line: int, refused: Dict[Tuple[str, int], str]) -> Optional[str]:
    """Why the decompiler refused this code object, or None. It names code objects by co_qualname,
    which 3.8-3.10 lack (co_name there)."""
    for (q, l), reason in refused.items():
        if l == line and (q == qualname or qualname.endswith("." + q)):
            return reason
    return None


def _merge(results: Sequence[VerifyResult]) -> VerifyResult:
    """One result for several verifications of the same source (a class's methods, ...)."""
    verdicts = [v for r in results for v in r.verdicts]
    errors = [r.compile_error for r in results if r.compile_error]
    return VerifyResult(all(r.equivalent for r in results), all(r.recompiles for r in results), verdicts,
                        results[0].version if results else "", errors[0] if errors else None)
