"""Bytecode reading and disassembly for any CPython 3.8-3.13, through the C++ core.

Accepts a code object (or anything carrying one: function, method, generator, ...), the bytes of a
.pyc file, or the path of a .pyc file.
"""
import os
import types
from dataclasses import dataclass
from typing import Any, List, Optional, Tuple, Union

from . import _core
from ._bridge import marshal_code

Source = Union[types.CodeType, bytes, str, "os.PathLike[str]", Any]


@dataclass(frozen=True)
class Instruction:
    """One instruction, with the same meaning as `dis.Instruction` of the version that made it."""

    offset: int
    opname: str
    arg: Optional[int]
    argval: str  # canonical text of the resolved argument ("-" without one)
    argrepr: str  # the human-readable form, like dis's argrepr
    jump_target: Optional[int]
    line: Optional[int]
    end_line: Optional[int]
    column: Optional[int]
    end_column: Optional[int]


@dataclass(frozen=True)
class ExceptionTableEntry:
    start: int
    end: int
    target: int
    depth: int
    lasti: bool


@dataclass(frozen=True)
class CodeListing:
    """The decoded instructions of one code object."""

    name: str
    qualname: str
    filename: str
    firstlineno: int
    version: str
    instructions: Tuple[Instruction, ...]
    exception_table: Tuple[ExceptionTableEntry, ...]


def _as_input(source: Source) -> Tuple[bytes, str, list]:
    """(data, version, placeholders); version '' means `data` is a whole .pyc file."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), "", []
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as f:
            return f.read(), "", []
    code = source if isinstance(source, types.CodeType) else _code_of(source)
    marshalled = marshal_code(code)
    return marshalled.data, marshalled.version, marshalled.placeholders


def _code_of(obj: Any) -> types.CodeType:
    for attr in ("__code__", "gi_code", "cr_code", "ag_code"):
        code = getattr(obj, attr, None)
        if isinstance(code, types.CodeType):
            return code
    func = getattr(obj, "__func__", None)
    if func is not None:
        return _code_of(func)
    raise TypeError("expected a code object, a function, .pyc bytes or a .pyc path, not %s" % type(obj).__name__)


def disassemble(source: Source, format: str = "human") -> str:
    """A listing of `source` and every code object nested in it.

    format: "human" (readable) or "records" (the canonical lines the tests compare with `dis`).
    """
    data, version, placeholders = _as_input(source)
    return _core.disassemble(data, version, placeholders, format)


def instructions(source: Source) -> List[CodeListing]:
    """Every code object in `source`, depth-first (the outermost first), with its instructions."""
    data, version, placeholders = _as_input(source)
    listings = []
    for code in _core.code_records(data, version, placeholders):
        listings.append(CodeListing(
            name=code["name"], qualname=code["qualname"], filename=code["filename"],
            firstlineno=code["firstlineno"], version=code["version"],
            instructions=tuple(Instruction(*row) for row in code["instructions"]),
            exception_table=tuple(ExceptionTableEntry(*row) for row in code["exception_table"]),
        ))
    return listings


def pyc_version(data: bytes) -> str:
    """The CPython version ("3.12") that wrote a .pyc file, from its header."""
    return _core.pyc_version(bytes(data))
