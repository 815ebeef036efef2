"""Checks decompiled source against the original bytecode; run it with the interpreter that made
the bytecode (3.8-3.13, stdlib only).

    python roundtrip_check.py ORIGINAL.pyc DECOMPILED.py     -> prints JSON per code object

Code objects are compared after normalization: instruction names and resolved arguments (jump
targets as instruction indices, constants by type and value, nested code recursively), names,
argument counts and flags; offsets, line numbers and positions are ignored (a 3.13 class body's
__firstlineno__ too).
"""
import dis
import json
import marshal
import sys
import types

IGNORED = {"NOP", "EXTENDED_ARG", "CACHE", "RESUME"}


def const_key(value):
    if isinstance(value, types.CodeType):
        return ("code", value.co_name)
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, complex):
        return ("complex", repr(value))
    if isinstance(value, (tuple, frozenset)):
        items = [const_key(v) for v in value]
        return (type(value).__name__, tuple(sorted(items, key=repr) if isinstance(value, frozenset) else items))
    return (type(value).__name__, repr(value))


def instructions(code):
    kept = [i for i in dis.get_instructions(code) if i.opname not in IGNORED]
    index = {i.offset: n for n, i in enumerate(kept)}
    rows = []
    for i in kept:
        if i.opcode in dis.hasjrel or i.opcode in dis.hasjabs:
            target = min((o for o in index if o >= i.argval), default=None)
            arg = ("jump", index.get(target))
        elif i.opcode in dis.hasconst:
            arg = const_key(i.argval)
        else:
            arg = repr(i.argval)
        rows.append((i.opname, arg))
    # 3.13+ class bodies store their first line as __firstlineno__: a line number, ignored.
    for n in range(len(kept) - 1):
        if (kept[n].opname == "LOAD_CONST" and kept[n + 1].opname == "STORE_NAME" and
                kept[n + 1].argval == "__firstlineno__" and kept[n].argval == code.co_firstlineno):
            rows[n] = ("LOAD_CONST", ("line", "co_firstlineno"))
    return rows


def shape(code):
    return (code.co_name, code.co_argcount, code.co_posonlyargcount, code.co_kwonlyargcount,
            code.co_flags & ~0x20000000, code.co_varnames, code.co_freevars, code.co_cellvars)


def nested(code):
    return [c for c in code.co_consts if isinstance(c, types.CodeType)]


def compare(a, b, path, out):
    qual = getattr(a, "co_qualname", a.co_name)
    diff = None
    if shape(a) != shape(b):
        diff = "signature or flags differ: %r != %r" % (shape(a), shape(b))
    else:
        ia, ib = instructions(a), instructions(b)
        if ia != ib:
            k = next((n for n, (x, y) in enumerate(zip(ia, ib)) if x != y), min(len(ia), len(ib)))
            diff = "instruction %d: %r != %r" % (k, ia[k] if k < len(ia) else None, ib[k] if k < len(ib) else None)
    out.append({"qualname": qual, "firstlineno": a.co_firstlineno,
                "level": "equivalent" if diff is None else "recompiles", "difference": diff})
    na, nb = nested(a), nested(b)
    for k, child in enumerate(na):
        if k < len(nb) and nb[k].co_name == child.co_name:
            compare(child, nb[k], path + (k,), out)
        else:
            out.append({"qualname": getattr(child, "co_qualname", child.co_name), "firstlineno": child.co_firstlineno,
                        "level": "recompiles", "difference": "no matching nested code object"})


def main():
    with open(sys.argv[1], "rb") as f:
        original = marshal.loads(f.read()[16:])
    with open(sys.argv[2], encoding="utf-8") as f:
        source = f.read()
    try:
        recompiled = compile(source, original.co_filename, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as e:
        print(json.dumps({"verdicts": [{"qualname": "<module>", "firstlineno": 1, "level": "failed",
                                        "difference": "does not compile: %s" % e}]}))
        return
    out = []
    compare(original, recompiled, (), out)
    print(json.dumps({"verdicts": out}))


if __name__ == "__main__":
    main()
