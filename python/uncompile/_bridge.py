"""Moves a live code object into the C++ core: marshal data plus the version that wrote it.

Bytecode rewriters (PyTorch's Dynamo among them) put arbitrary objects into co_consts, which
marshal refuses. Those constants are written as None and listed as placeholders, which the core
puts back as named stand-ins; the objects themselves stay here, keyed by the same names.
"""
import marshal
import sys
import types
from typing import Any, Dict, List, NamedTuple, Tuple

PlaceholderSpec = Tuple[List[int], int, str]


class MarshalledCode(NamedTuple):
    data: bytes
    version: str
    placeholders: List[PlaceholderSpec]
    constants: Dict[str, Any]  # placeholder name -> the original object


def _marshallable(value: Any) -> bool:
    try:
        marshal.dumps(value)
    except (ValueError, TypeError, RecursionError):
        return False
    return True


def _without_unmarshallable(code: types.CodeType, path: Tuple[int, ...], placeholders: List[PlaceholderSpec],
                            constants: Dict[str, Any], prefix: str) -> types.CodeType:
    consts = list(code.co_consts)
    changed = False
    for index, value in enumerate(consts):
        if isinstance(value, types.CodeType):
            replacement = _without_unmarshallable(value, path + (index,), placeholders, constants, prefix)
        elif _marshallable(value):
            continue
        else:
            name = "%s%d" % (prefix, len(placeholders))
            placeholders.append((list(path), index, name))
            constants[name] = value
            replacement = None
        if replacement is not value:
            consts[index] = replacement
            changed = True
    return code.replace(co_consts=tuple(consts)) if changed else code


def marshal_code(code: types.CodeType, prefix: str = "__uncompile_const_") -> MarshalledCode:
    """Marshal `code` for the core, replacing constants marshal cannot write by placeholders named
    `prefix` + a number."""
    version = "%d.%d" % sys.version_info[:2]
    try:
        return MarshalledCode(marshal.dumps(code), version, [], {})
    except ValueError:
        pass
    placeholders: List[PlaceholderSpec] = []
    constants: Dict[str, Any] = {}
    cleaned = _without_unmarshallable(code, (), placeholders, constants, prefix)
    return MarshalledCode(marshal.dumps(cleaned), version, placeholders, constants)
