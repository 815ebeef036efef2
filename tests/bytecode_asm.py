"""A tiny assembler for the running interpreter (3.11+): builds code objects instruction by
instruction, so tests can exercise shapes that no source compiles to (what bytecode rewriters such
as PyTorch's Dynamo emit: stack shuffles, values carried across `del`, jumps into loops).

    code = assemble(template, [("LOAD_FAST", "x"), ("RETURN_VALUE", None)])

Arguments are given by value: names for *_FAST/*_GLOBAL/*_ATTR/*_NAME, Python objects for
LOAD_CONST, labels (strings in a ("label", name) pseudo-instruction) for jumps.
"""
import dis
import opcode
import sys
import types

_CACHES = getattr(opcode, "_inline_cache_entries", None)


def _cache_count(op):
    if _CACHES is None:
        return 0
    if isinstance(_CACHES, dict):  # 3.13
        return _CACHES.get(dis.opname[op], 0)
    return _CACHES[op]


def _varint(value, start=False):
    """An exception-table number: 6-bit chunks, most significant first, 0x40 = more follow, 0x80
    marks the first number of an entry."""
    chunks = [value & 63]
    value >>= 6
    while value:
        chunks.append(value & 63)
        value >>= 6
    chunks.reverse()
    out = bytearray(c | (64 if k < len(chunks) - 1 else 0) for k, c in enumerate(chunks))
    if start:
        out[0] |= 128
    return bytes(out)


def assemble(template: types.CodeType, program, *, argcount=None, exception_table=()):
    """Returns `template` with its bytecode replaced by `program` (a list of (opname, arg)).

    exception_table: (start label, end label, handler label, stack depth, lasti) per entry, in any
    order; the range is [start, end)."""
    assert sys.version_info >= (3, 11), "the test assembler writes 3.11+ bytecode"
    consts = list(template.co_consts)
    names = list(template.co_names)
    varnames = list(template.co_varnames)

    def index(table, value):
        for k, v in enumerate(table):
            if type(v) is type(value) and v == value or v is value:
                return k
        table.append(value)
        return len(table) - 1

    # First pass: sizes (no EXTENDED_ARG support: keep programs small).
    labels, offset, sized = {}, 0, []
    for opname, arg in program:
        if opname == "label":
            labels[arg] = offset
            continue
        op = dis.opmap[opname]
        sized.append((offset, opname, op, arg))
        offset += 2 * (1 + _cache_count(op))
    out = bytearray()
    for offset, opname, op, arg in sized:
        if op in dis.hasjrel:
            target = labels[arg]
            after = offset + 2 * (1 + _cache_count(op))
            value = (after - target) // 2 if "BACKWARD" in opname else (target - after) // 2
        elif op == dis.opmap["LOAD_GLOBAL"]:
            name, push_null = arg if isinstance(arg, tuple) else (arg, False)
            value = (index(names, name) << 1) | int(push_null)
        elif op == dis.opmap.get("LOAD_ATTR") and sys.version_info >= (3, 12):
            name, method = arg if isinstance(arg, tuple) else (arg, False)
            value = (index(names, name) << 1) | int(method)
        elif op in dis.hasconst:
            value = index(consts, arg)
        elif op in dis.haslocal:  # a name, or a slot number as is (3.11+: a cell's slot too)
            value = arg if isinstance(arg, int) else index(varnames, arg)
        elif op in dis.hasname:
            value = index(names, arg)
        else:
            value = 0 if arg is None else arg
        assert 0 <= value < 256, (opname, arg)
        out += bytes([op, value]) + bytes(2 * _cache_count(op))
    table = bytearray()
    # (CPython's tables are sorted by start: the interpreter stops scanning at the first entry that
    # starts past the offset.)
    for start, end, target, depth, lasti in sorted(exception_table, key=lambda entry: labels[entry[0]]):
        table += _varint(labels[start] // 2, True) + _varint((labels[end] - labels[start]) // 2)
        table += _varint(labels[target] // 2) + _varint(depth << 1 | int(lasti))
    return template.replace(co_code=bytes(out), co_consts=tuple(consts), co_names=tuple(names),
                            co_varnames=tuple(varnames), co_nlocals=len(varnames),
                            co_stacksize=max(template.co_stacksize, 16),
                            co_linetable=b"", co_exceptiontable=bytes(table),
                            **({} if argcount is None else {"co_argcount": argcount}))
