"""Code objects backed by dumped files: verified decompiled code, or Dynamo's own bytecode with
its line table pointed at a listing in the dumped file. Either way the instructions that run are
ones we have checked, so results cannot change; only filenames and line numbers move.
"""
import dis
import keyword
import sys
import types
from typing import Dict, Iterator, List, Optional, Tuple

_IGNORED_OPS = {"CACHE", "NOP", "EXTENDED_ARG", "RESUME"}


def _normal_instructions(code: types.CodeType) -> List[tuple]:
    """(opname, argument) per instruction; jump targets as instruction indices, no offsets or lines."""
    instrs = [i for i in dis.get_instructions(code) if i.opname not in _IGNORED_OPS]
    index_of = {ins.offset: n for n, ins in enumerate(instrs)}
    out = []
    for ins in instrs:
        if ins.opcode in dis.hasjrel or ins.opcode in dis.hasjabs:
            out.append((ins.opname, index_of.get(ins.argval, ins.argval)))
        elif isinstance(ins.argval, types.CodeType):
            out.append((ins.opname, "<code %s>" % ins.argval.co_name))
        else:
            out.append((ins.opname, _const_key(ins.argval)))
    return out


def _const_key(value: object) -> object:
    if isinstance(value, (tuple, frozenset)):
        return (type(value).__name__,) + tuple(_const_key(v) for v in value)
    if isinstance(value, float) and value != value:
        return ("nan",)
    return (type(value).__name__, repr(value))


def _const_keys(code: types.CodeType) -> List[object]:
    return [("code",) if isinstance(c, types.CodeType) else _const_key(c) for c in code.co_consts]


def same_code(a: types.CodeType, b: types.CodeType) -> bool:
    """Normalized structural equality: instructions, names, flags, argument counts, nested code."""
    fields = ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_flags", "co_names",
              "co_varnames", "co_freevars", "co_cellvars", "co_name")
    if any(getattr(a, f) != getattr(b, f) for f in fields):
        return False
    # The same bytes with the same constants decode to the same instructions (the names they use
    # are compared above): decoding them (dis) costs far more than this. Nested code: below.
    if (a.co_code != b.co_code or _const_keys(a) != _const_keys(b)) and _normal_instructions(a) != _normal_instructions(b):
        return False
    nested_a = [c for c in a.co_consts if isinstance(c, types.CodeType)]
    nested_b = [c for c in b.co_consts if isinstance(c, types.CodeType)]
    return len(nested_a) == len(nested_b) and all(same_code(x, y) for x, y in zip(nested_a, nested_b))


# Globals Dynamo installs for its own code (compiled graphs, resume functions, module aliases) and
# never rebinds while that code runs.
DYNAMO_GLOBAL_PREFIXES = ("__compiled_fn_", "__resume_at_", "__import_")


def _installed_by_dynamo(name: str) -> bool:
    return name.startswith(DYNAMO_GLOBAL_PREFIXES)


def verify_equivalent(target: types.CodeType, source: str, candidate: Optional[types.CodeType],
                      constants: Optional[Dict[str, object]] = None) -> Tuple[bool, str]:
    """Whether `candidate` (compiled from `source`) may run in place of `target`: (ok, how or why not).

    Equivalent bytecode (uncompile.verify and our strict structural comparison agree), or else the
    same operations on the same values in the same order on every path (uncompile._value_flow),
    which is what decompiled Dynamo code can reach: it names values Dynamo kept on the stack.
    `constants`: globals the source loads in place of constants marshal cannot write.
    """
    if candidate is None:
        return False, "decompiled source does not define %s" % target.co_name
    try:
        # The structural comparison is cheap and fails first for Dynamo's code (temporaries); the
        # verifier (and its import) only runs when it passes.
        strict = same_code(target, candidate)
        if strict:
            from ..verify import verify_source
            strict = bool(getattr(verify_source(target, source), "equivalent", False))
    except Exception as exc:  # a verifier failure is "not verified", never a crash
        return False, "uncompile.verify failed: %s" % exc
    if strict:
        return True, "equivalent bytecode"
    from .._value_flow import same_value_flow
    try:
        ok, why = same_value_flow(target, candidate, _installed_by_dynamo, constants or {})
    except Exception as exc:  # a checker failure is "not verified", never a crash
        return False, "value-flow check failed: %s: %s" % (type(exc).__name__, exc)
    if ok:
        return True, "same value flow"
    return False, "not equivalent (%s)" % why


def identifier_for(name: str) -> str:
    """The name the decompiler gives the def of a code object whose name is no identifier (Dynamo's
    transformed code of a lambda, `<lambda>` -> `_lambda_`; its resume functions,
    `torch_dynamo_resume_in_<lambda>_at_3`): each character an identifier cannot hold becomes `_`."""
    out = "".join(ch if (ch.isascii() and ch.isalnum()) or ch == "_" or ord(ch) >= 0x80 else "_" for ch in name)
    if not out or out[0] in "0123456789" or keyword.iskeyword(out):
        out = "_" + out
    return out


def find_code_for(module_code: types.CodeType, target: types.CodeType) -> Optional[types.CodeType]:
    """The code object compiled from the decompiled source of `target`, named as `target` is."""
    found = find_code(module_code, target.co_name)
    if found is None and not target.co_name.isidentifier():
        found = find_code(module_code, identifier_for(target.co_name))
        if found is not None:
            found = found.replace(co_name=target.co_name)
            if hasattr(target, "co_qualname"):
                found = found.replace(co_qualname=target.co_qualname)
    return found


def find_code(module_code: types.CodeType, name: str) -> Optional[types.CodeType]:
    """The first code object called `name` nested (depth-first) in `module_code`."""
    for const in module_code.co_consts:
        if isinstance(const, types.CodeType):
            if const.co_name == name:
                return const
            found = find_code(const, name)
            if found is not None:
                return found
    return None


def listing_lines(code: types.CodeType) -> List[Tuple[int, str]]:
    """(offset, text) per instruction; the text is a valid Python expression statement, so a
    debugger accepts a breakpoint on its line."""
    rows = []
    for ins in dis.get_instructions(code):
        if ins.opname == "CACHE":
            continue
        arg = _short_argrepr(ins, code)
        rows.append((ins.offset, "%s(%r)  # offset %d" % (ins.opname, arg, ins.offset) if arg
                     else "%s()  # offset %d" % (ins.opname, ins.offset)))
    return rows


_LITERALS = (int, float, complex, str, bytes, bool, type(None), type(Ellipsis), types.CodeType)
_MAX_ARGREPR = 120


def _short_argrepr(ins: dis.Instruction, code: types.CodeType) -> str:
    """The argument as the listing shows it. Dynamo's constants can be any object (a module's
    globals dict, a tensor): such a one is named by its type, and any long text is cut, so that a
    listing line stays a line."""
    value = ins.argval
    if ins.opname == "KW_NAMES" and ins.arg is not None and ins.arg < len(code.co_consts):
        # 3.11's dis resolves only LOAD_CONST's constant; KW_NAMES's names would read <_Unknown>
        value = code.co_consts[ins.arg]
        if isinstance(value, tuple) and all(isinstance(v, str) for v in value):
            return _cut(repr(value))
    if ins.opcode in dis.hasconst and not (isinstance(value, _LITERALS) or
                                           (isinstance(value, (tuple, frozenset)) and all(isinstance(v, _LITERALS) for v in value))):
        return "<%s object>" % type(value).__name__
    return _cut(ins.argrepr if ins.argrepr else ("" if ins.arg is None else str(ins.arg)))


def _cut(arg: str) -> str:
    return arg if len(arg) <= _MAX_ARGREPR else arg[:_MAX_ARGREPR - 3] + "..."


def _svarint(value: int) -> bytes:
    value = (-value << 1) | 1 if value < 0 else value << 1
    out = bytearray()
    while value >= 64:
        out.append(0x40 | (value & 0x3F))
        value >>= 6
    out.append(value)
    return bytes(out)


def _location_table(units_and_lines: Iterator[Tuple[int, int]], firstlineno: int) -> bytes:
    """A 3.11+ co_linetable with "no column" entries: each (code units, line) pair."""
    table = bytearray()
    previous = firstlineno
    for units, line in units_and_lines:
        while units > 0:
            chunk = min(units, 8)
            table.append(0x80 | (13 << 3) | (chunk - 1))
            table += _svarint(line - previous)
            previous = line
            units -= chunk
    return bytes(table)


def retarget(code: types.CodeType, filename: str, first_listing_line: int) -> Optional[types.CodeType]:
    """`code` unchanged but for its filename and line table: instruction k of the listing written
    at `first_listing_line` maps to line first_listing_line + k. None where unsupported."""
    if not ((3, 11) <= sys.version_info[:2] <= (3, 13)):
        return None
    rows = listing_lines(code)
    offsets = [offset for offset, _ in rows] + [len(code.co_code)]
    spans = [((offsets[k + 1] - offsets[k]) // 2, first_listing_line + k) for k in range(len(rows))]
    firstlineno = first_listing_line - 1
    try:
        return code.replace(co_filename=filename, co_firstlineno=firstlineno,
                            co_linetable=_location_table(iter(spans), firstlineno))
    except (ValueError, TypeError):
        return None
