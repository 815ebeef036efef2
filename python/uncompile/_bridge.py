"""Moves a live code object into the C++ core: marshal data plus the version that wrote it.

Bytecode rewriters (PyTorch's Dynamo among them) put arbitrary objects into co_consts, which
marshal refuses. Those constants are written as None and listed as placeholders, which the core
puts back as named stand-ins; the objects themselves stay here, keyed by the same names.
"""
import marshal
import sys
import types
from typing import Any, Dict, List, NamedTuple, Set, Tuple

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


def _code_values(code: types.CodeType) -> Set[int]:
    """Indexes of code constants that `code` loads as values, not to make a function of them
    (LOAD_CONST, then MAKE_FUNCTION, with the qualified name between them before 3.11): Dynamo
    passes a nested function's code to its own helper to rebuild the function. No source spells a
    code object, so such a constant is a stand-in global, like constants marshal cannot write."""
    if not any(isinstance(c, types.CodeType) for c in code.co_consts):
        return set()
    import dis
    ins = [i for i in dis.get_instructions(code) if i.opname != "CACHE"]
    out = set()
    for k, i in enumerate(ins):
        if i.opname != "LOAD_CONST" or not isinstance(i.argval, types.CodeType):
            continue
        after = ins[k + 1:k + 3]
        makes = bool(after) and after[0].opname == "MAKE_FUNCTION" or (
            len(after) == 2 and after[0].opname == "LOAD_CONST" and isinstance(after[0].argval, str) and
            after[1].opname == "MAKE_FUNCTION")
        if not makes:
            out.add(i.arg)
    return out


def _without_unmarshallable(code: types.CodeType, path: Tuple[int, ...], placeholders: List[PlaceholderSpec],
                            constants: Dict[str, Any], prefix: str, code_values: bool = False) -> types.CodeType:
    consts = list(code.co_consts)
    changed = False
    as_values = _code_values(code) if code_values else set()
    for index, value in enumerate(consts):
        if isinstance(value, types.CodeType) and index not in as_values:
            replacement = _without_unmarshallable(value, path + (index,), placeholders, constants, prefix, code_values)
        elif index not in as_values and _marshallable(value):
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


def marshal_code(code: types.CodeType, prefix: str = "__uncompile_const_", code_values: bool = False) -> MarshalledCode:
    """Marshal `code` for the core, replacing constants marshal cannot write by placeholders named
    `prefix` + a number; with `code_values`, also code constants loaded as values (rewritten code)."""
    version = "%d.%d" % sys.version_info[:2]
    if not code_values:  # (code constants loaded as values are found by the walk below)
        try:
            return MarshalledCode(marshal.dumps(code), version, [], {})
        except ValueError:
            pass
    placeholders: List[PlaceholderSpec] = []
    constants: Dict[str, Any] = {}
    cleaned = _without_unmarshallable(code, (), placeholders, constants, prefix, code_values)
    return MarshalledCode(marshal.dumps(cleaned), version, placeholders, constants)
