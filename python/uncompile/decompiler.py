"""`uncompile.decompile`: Python source from bytecode, through the C++ core."""
import functools
import importlib.util
import inspect
import os
import types
from dataclasses import dataclass
from typing import Any, Optional, Tuple

from . import _core
from .core import _as_input


@dataclass(frozen=True)
class DecompileFailure:
    """A code object the decompiler could not express; its body was replaced by a stub that raises."""

    qualname: str
    firstlineno: int
    reason: str


class DecompiledSource(str):
    """The decompiled source text (a `str`), with what went wrong and, on request, the verification."""

    failures: Tuple[DecompileFailure, ...]
    verification: Optional[Any]

    def __new__(cls, text: str, failures: Tuple[DecompileFailure, ...] = (), verification: Any = None):
        obj = super().__new__(cls, text)
        obj.failures = failures
        obj.verification = verification
        return obj


def _unwrap(obj: Any) -> Any:
    """The object whose bytecode a user means: the function behind wrappers and bound methods."""
    seen = set()
    while id(obj) not in seen:
        seen.add(id(obj))
        if isinstance(obj, functools.partial):
            obj = obj.func
        elif isinstance(obj, (classmethod, staticmethod)):
            obj = obj.__func__
        elif isinstance(obj, types.MethodType):
            obj = obj.__func__
        elif hasattr(obj, "__wrapped__") and not isinstance(obj, types.FunctionType):
            obj = obj.__wrapped__
        else:
            break
    return obj


def _module_pyc(module: types.ModuleType) -> str:
    spec = getattr(module, "__spec__", None)
    origin = getattr(spec, "origin", None) or getattr(module, "__file__", None)
    if not origin:
        raise TypeError("module %s has no source file to decompile" % module.__name__)
    if origin.endswith(".pyc"):
        return origin
    cached = getattr(spec, "cached", None) or importlib.util.cache_from_source(origin)
    if not os.path.exists(cached):
        import py_compile
        cached = py_compile.compile(origin, cfile=cached, doraise=True)
    return cached


def _decompile_one(source: Any) -> DecompiledSource:
    data, version, placeholders = _as_input(source)
    text, failures = _core.decompile(data, version, placeholders)
    return DecompiledSource(text, tuple(DecompileFailure(*f) for f in failures))


def decompile(obj: Any, *, verify: bool = False) -> DecompiledSource:
    """Python source for `obj`'s bytecode.

    `obj` may be a function, bound method, functools.partial / lru_cache / other `__wrapped__`
    wrapper, a callable object, a class (each method defined in its body), a module (its .pyc), a
    code object, or the bytes or path of a .pyc file. Code objects the decompiler cannot express
    yet get a body that raises and are listed in `.failures`; nothing is guessed.

    verify=True recompiles the source with the interpreter that made the bytecode and compares the
    code objects (see `uncompile.verify`); the `uncompile.verify.VerifyResult` is in
    `.verification`. Output that is not equivalent is reported there, never raised; a missing
    interpreter of that version raises RecompileError.
    """
    target = _unwrap(obj)
    if isinstance(target, types.ModuleType):
        target = _module_pyc(target)
    if inspect.isclass(target):
        return _decompile_class(target, verify)
    if isinstance(target, (types.CodeType, bytes, bytearray, memoryview, str, os.PathLike)) or hasattr(target, "__code__"):
        subject = target
    elif callable(target) and hasattr(type(target), "__call__") and hasattr(type(target).__call__, "__code__"):
        subject = type(target).__call__
    else:
        subject = target
    result = _decompile_one(subject)
    if verify:
        from .verify import verify_source
        if isinstance(subject, (str, os.PathLike)):
            with open(subject, "rb") as f:
                subject = f.read()
        result.verification = verify_source(subject, result)
    return result


def _decompile_class(cls: type, verify: bool = False) -> DecompiledSource:
    """A class statement with each function of its body decompiled (class attributes that are not
    functions are not in any bytecode of the class object and are left out). With `verify`, each
    method is verified against the recompiled class statement."""
    parts = []
    failures = []
    functions = []
    for name, member in vars(cls).items():
        func = _unwrap(member)
        if isinstance(func, types.FunctionType):
            one = _decompile_one(func.__code__)
            failures.extend(one.failures)
            functions.append(func)
            prefix = "@classmethod\n" if isinstance(member, classmethod) else "@staticmethod\n" if isinstance(member, staticmethod) else ""
            parts.append(prefix + str(one))
    bases = ", ".join(b.__qualname__ for b in cls.__bases__ if b is not object)
    body = "\n".join(parts) or "pass\n"
    # (Not line by line: a docstring's later lines are part of its value.)
    text = "class %s%s:\n%s" % (cls.__name__, "(%s)" % bases if bases else "", _core.indent_source(body, "    "))
    result = DecompiledSource(text, tuple(failures))
    if verify:
        from .verify import _merge, verify_source
        result.verification = _merge([verify_source(func.__code__, result) for func in functions])
    return result
