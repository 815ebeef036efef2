#!/usr/bin/env python3
"""Reference ("oracle") disassembly records for checking the native `uncompile dis` output.

Run this file with the CPython interpreter whose bytecode is being checked (3.8 - 3.13). It
compiles every ``*.py`` under a source tree with that interpreter, writes each result as a real
``.pyc`` and, beside it, the canonical records that ``dis`` gives for it.  The native CLI reads
the ``.pyc`` (``uncompile dis --format=records FILE.pyc``) and must print exactly the same text.

Usage:
    python tools/dis_oracle.py --src-root LIBDIR --out OUTDIR [--limit N] [--shard K/M]

Output in OUTDIR, for every source file that compiles (``a/b/c.py`` -> ``a__b__c``):
    a__b__c.pyc        16-byte header (magic, flags 0, mtime, size) + marshal.dumps(code)
    a__b__c.expected   canonical records of every code object in the file
    index.txt          one pair basename a line (``index.K-of-M.txt`` for a ``--shard K/M`` run,
                       so that shards may share OUTDIR)
    skipped.txt        ``relpath<TAB>reason`` of the files that were skipped
                       (``skipped.K-of-M.txt`` for a shard)

``--limit N`` keeps the first N files of the sorted list; ``--shard K/M`` then keeps those whose
index in that list is K modulo M.  So M shards with the same limit cover the unsharded run.

Records, one block per code object, depth-first pre-order (a code object, then the code objects
among its constants, also those inside tuples, in order, and inside frozensets, sorted by their
canonical text):
    code <canon(qualname)> <co_firstlineno>
    exc <start> <end> <target> <depth> <lasti 0/1>            (3.11+, one per exception entry)
    <offset> <opname> <arg|-> <argval|-> <line|->[ <lineno> <end_lineno> <col> <end_col>]
The four position fields are present on 3.11+ only; any of them may be ``-``.

Pure standard library; runs unchanged on CPython 3.8 - 3.13.
"""
import argparse
import dis
import importlib.util
import marshal
import os
import struct
import sys
import types
import warnings

PY = sys.version_info[:2]

if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)

# Deeply nested constant tuples and code objects recurse here; be generous.
sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))

_CODE_TYPE = type((lambda: None).__code__)
_CALLABLE_TYPES = (type, types.FunctionType, types.BuiltinFunctionType, types.MethodType)

_JUMP_OPS = set(dis.hasjrel) | set(dis.hasjabs) | set(getattr(dis, "hasjump", ()))


# ----------------------------------------------------------------------------------------------
# canonical text of values


def _escape(codepoints, prefix):
    out = []
    for c in codepoints:
        if 0x20 <= c <= 0x7E and c != 0x22 and c != 0x5C:
            out.append(chr(c))
        else:
            out.append("\\%s{%X}" % (prefix, c))
    return "".join(out)


def canon(v):
    if v is None:
        return "None"
    if v is True:
        return "True"
    if v is False:
        return "False"
    if v is Ellipsis:
        return "..."
    t = type(v)
    if t is int:
        return str(v)
    if t is float:
        return repr(v)
    if t is complex:
        return "complex(%s, %s)" % (repr(v.real), repr(v.imag))
    if t is str:
        return 's"' + _escape(map(ord, v), "u") + '"'
    if t is bytes:
        return 'b"' + _escape(v, "x") + '"'
    if t is tuple:
        return "(" + ", ".join(canon(x) for x in v) + ")"
    if t is list:
        return "[" + ", ".join(canon(x) for x in v) + "]"
    if t is dict:
        return "{" + ", ".join(canon(k) + ": " + canon(x) for k, x in v.items()) + "}"
    if t is frozenset:
        return "frozenset{" + ", ".join(sorted(canon(x) for x in v)) + "}"
    if t is set:
        return "set{" + ", ".join(sorted(canon(x) for x in v)) + "}"
    if t is _CODE_TYPE:
        return "<code " + v.co_name + ">"
    # Subclasses of the plain types (not produced by marshal, but be safe).
    if isinstance(v, bool):
        return "True" if v else "False"
    if isinstance(v, int):
        return str(int(v))
    if isinstance(v, float):
        return repr(float(v))
    if isinstance(v, str):
        return canon(str(v))
    if isinstance(v, bytes):
        return canon(bytes(v))
    if isinstance(v, tuple):
        return canon(tuple(v))
    # StopIteration (the class), str/repr/ascii (CONVERT_VALUE / FORMAT_VALUE argvals), ...
    if isinstance(v, _CALLABLE_TYPES):
        name = getattr(v, "__name__", None)
        if isinstance(name, str):
            return name
    return "<" + t.__name__ + ">"


def _opt(v):
    return "-" if v is None else str(v)


# ----------------------------------------------------------------------------------------------
# records of one code object


def _line_table(code):
    """offset -> line for 3.8 - 3.10 (3.11+ takes the line from instr.positions)."""
    table = {}
    n = len(code.co_code)
    if PY >= (3, 10):
        # The line of the co_lines() range that holds the offset (the first such range).
        for start, end, line in code.co_lines():
            for off in range(start, min(end, n), 2):
                if off not in table:
                    table[off] = line
    else:
        # The latest line start at or before the offset.
        starts = sorted(dis.findlinestarts(code))
        cur = None
        k = 0
        for off in range(0, n, 2):
            while k < len(starts) and starts[k][0] <= off:
                cur = starts[k][1]
                k += 1
            table[off] = cur
    return table


def code_records(code, out):
    qualname = code.co_qualname if PY >= (3, 11) else code.co_name
    out.append("code %s %d" % (canon(qualname), code.co_firstlineno))
    if PY >= (3, 11):
        for e in dis._parse_exception_table(code):
            out.append("exc %d %d %d %d %d" % (e.start, e.end, e.target, e.depth, 1 if e.lasti else 0))
        lines = None
    else:
        lines = _line_table(code)
    for ins in dis.get_instructions(code):
        if ins.arg is None:
            arg = "-"
            argval = "-"
        else:
            arg = str(ins.arg)
            if ins.opcode in _JUMP_OPS and isinstance(ins.argval, int):
                argval = str(ins.argval)
            elif type(ins.argval).__name__ == "_Unknown" and ins.opcode in dis.hasconst:
                # 3.11's dis resolves only LOAD_CONST and leaves e.g. KW_NAMES as a sentinel;
                # compare the constant it names instead.
                argval = canon(code.co_consts[ins.arg])
            else:
                argval = canon(ins.argval)
        if lines is None:
            p = ins.positions
            fields = [
                str(ins.offset), ins.opname, arg, argval, _opt(p.lineno),
                _opt(p.lineno), _opt(p.end_lineno), _opt(p.col_offset), _opt(p.end_col_offset),
            ]
        else:
            fields = [str(ins.offset), ins.opname, arg, argval, _opt(lines.get(ins.offset))]
        out.append(" ".join(fields))


def walk_const(c, out, count):
    t = type(c)
    if t is _CODE_TYPE:
        walk_code(c, out, count)
    elif t is tuple:
        for x in c:
            walk_const(x, out, count)
    elif t is frozenset:
        for x in sorted(c, key=canon):
            walk_const(x, out, count)


def walk_code(code, out, count):
    count[0] += 1
    code_records(code, out)
    for c in code.co_consts:
        walk_const(c, out, count)


# ----------------------------------------------------------------------------------------------
# driver


def list_sources(root):
    found = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "site-packages" and d != "__pycache__")
        for fn in filenames:
            if fn.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, fn), root)
                found.append(rel.replace(os.sep, "/"))
    found.sort()
    return found


def pyc_bytes(code, mtime, size):
    header = importlib.util.MAGIC_NUMBER + struct.pack("<III", 0, mtime & 0xFFFFFFFF, size & 0xFFFFFFFF)
    return header + marshal.dumps(code)


def process_file(root, rel, outdir):
    """Returns (basename, number of code objects); raises on any failure."""
    path = os.path.join(root, *rel.split("/"))
    with open(path, "rb") as f:
        source = f.read()
    st = os.stat(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = compile(source, path, "exec", dont_inherit=True)
    data = pyc_bytes(code, int(st.st_mtime), len(source))
    # Describe what the native reader will see: the code object as loaded back from the .pyc.
    code = marshal.loads(data[16:])
    out = []
    count = [0]
    walk_code(code, out, count)
    text = "\n".join(out) + "\n"
    base = rel[:-3].replace("/", "__")
    with open(os.path.join(outdir, base + ".pyc"), "wb") as f:
        f.write(data)
    with open(os.path.join(outdir, base + ".expected"), "wb") as f:
        f.write(text.encode("utf-8", "surrogatepass"))
    return base, count[0]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src-root", required=True, help="directory tree of .py files (e.g. the stdlib)")
    ap.add_argument("--out", required=True, help="output directory (created)")
    ap.add_argument("--limit", type=int, default=None, help="keep only the first N files")
    ap.add_argument("--shard", default=None, help="K/M: only files whose sorted index %% M == K")
    args = ap.parse_args(argv)

    shard_k, shard_m = 0, 1
    if args.shard:
        try:
            k, m = args.shard.split("/")
            shard_k, shard_m = int(k), int(m)
        except ValueError:
            ap.error("--shard must look like K/M")
        if shard_m < 1 or not 0 <= shard_k < shard_m:
            ap.error("--shard K/M needs 0 <= K < M")

    root = os.path.abspath(args.src_root)
    outdir = os.path.abspath(args.out)
    os.makedirs(outdir, exist_ok=True)  # shards may race to create it

    sources = list_sources(root)
    if args.limit is not None:
        sources = sources[: max(args.limit, 0)]
    mine = [rel for i, rel in enumerate(sources) if i % shard_m == shard_k]

    suffix = "" if shard_m == 1 and args.shard is None else ".%d-of-%d" % (shard_k, shard_m)
    compiled = []
    skipped = []
    n_code = 0
    for rel in mine:
        try:
            base, n = process_file(root, rel, outdir)
        except (KeyboardInterrupt, MemoryError):
            raise
        except BaseException as e:  # SyntaxError, ValueError, UnicodeDecodeError, RecursionError, ...
            msg = str(e).replace("\n", " ").replace("\t", " ")[:200]
            skipped.append("%s\t%s: %s" % (rel, type(e).__name__, msg))
            continue
        compiled.append(base)
        n_code += n

    with open(os.path.join(outdir, "index%s.txt" % suffix), "w") as f:
        f.write("".join(b + "\n" for b in compiled))
    with open(os.path.join(outdir, "skipped%s.txt" % suffix), "w", encoding="utf-8", errors="backslashreplace") as f:
        f.write("".join(s + "\n" for s in skipped))

    print(
        "dis_oracle python=%d.%d shard=%d/%d files=%d compiled=%d skipped=%d code_objects=%d"
        % (PY[0], PY[1], shard_k, shard_m, len(mine), len(compiled), len(skipped), n_code)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
