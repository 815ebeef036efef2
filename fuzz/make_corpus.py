"""Write seed inputs for fuzz_reader into a directory, for the interpreter that runs this script.

    python make_corpus.py OUTDIR [MAX_BYTES]

Run it once under each CPython 3.8-3.13. It writes small .pyc files (timestamp- and hash-based)
compiled from snippets and from a few small stdlib modules, and bare marshal seeds: one selector
byte (minor - 8, which fuzz_reader reads as data[0] % 6) followed by marshal.dumps(code).
Generated files belong under fuzz/corpus-work/, which git ignores.
"""
import importlib.util
import marshal
import os
import sys
import textwrap

SNIPPETS = {
    "basic": """
        x = 1
        y = x + 2 * 3 - 4 // 5 % 6 ** 7
        print(x, y, sep="")
    """,
    "try_except": """
        def f(a):
            try:
                return 1 / a
            except ZeroDivisionError as e:
                print("zero", e)
            except (TypeError, ValueError):
                raise
            else:
                pass
            finally:
                print("done")
    """,
    "comprehensions": """
        def f(xs):
            a = [x * 2 for x in xs if x]
            b = {x: y for x, y in zip(xs, xs) if x != y}
            c = {x for x in xs for y in range(x)}
            d = list(x for x in xs)
            return a, b, c, d
    """,
    "fstrings": """
        def f(name, width, value):
            return f"{name!r:>{width}} {value:.3f} {value!s} {value!a} {{literal}} {name=}"
    """,
    "async": """
        import asyncio
        async def g(it):
            async with it as x:
                async for y in x:
                    await asyncio.sleep(y)
                    yield y
        async def h():
            return [z async for z in g(None)]
    """,
    "numbers": """
        BIG = 123456789012345678901234567890123456789
        NEG = -98765432109876543210987654321
        HUGE = 2 ** 300
        F = (0.1, 1e300, 1e-300, -0.0, 3.141592653589793, 1e16, float("inf"))
        C = (1j, 2.5 - 3j, -1j, 1e300j)
        FS = frozenset({1, 2, "a", b"b", (1, 2)})
        def f(x):
            return x in {1, 2, 3} or x in frozenset({"x", "y"}) or x == 1.5 + 2j
    """,
    "nested": """
        def outer(a, /, b, *args, c=1, **kw):
            z = 0
            def middle(d):
                nonlocal z
                def inner():
                    return a + b + c + d + z
                z += 1
                return inner
            return middle
        class K:
            attr = 1
            def method(self):
                return super().method() + self.attr
            @property
            def p(self):
                return lambda q: q + 1
    """,
    "control": """
        def f(n):
            total = 0
            for i in range(n):
                if i % 3 == 0:
                    continue
                elif i > 100:
                    break
                while total < i:
                    total += 1
            else:
                total -= 1
            with open("x") as fh, open("y") as gh:
                total += len(fh.read() + gh.read())
            global G
            G = total
            a, *b, c = range(5)
            if (m := n) is not None:
                del a
            assert total, "msg"
            return total if total else None
    """,
    "strings": """
        S = ("plain", "quote'", 'dq"', "tab\\t nl\\n", "\\u00e9\\u4e2d\\U0001f600", "\\x00\\x7f",
             b"bytes\\x00\\xff", r"raw\\d", "a" * 40, ("nested", ("tuple",)), None, True, False, ...)
        D = {"k": [1, 2], 3: {4, 5}}
    """,
    "generators": """
        def gen(x):
            y = yield x
            yield from range(y)
            return y
        def deco(f):
            return f
        @deco
        def decorated(*a, **k):
            return gen(*a, **k)
    """,
}

SNIPPETS_310 = {
    "match": """
        def f(cmd):
            match cmd:
                case [x, y, *rest]:
                    return x
                case {"k": v, **kw}:
                    return v
                case Point(x=0, y=yy) | Point(x=yy, y=0):
                    return yy
                case str() as s if s:
                    return s
                case 1 | 2 | None:
                    return 0
                case _:
                    return -1
    """,
}

SNIPPETS_311 = {
    "except_star": """
        def f():
            try:
                raise ExceptionGroup("g", [ValueError(1)])
            except* ValueError as e:
                print(e)
            except* TypeError:
                pass
    """,
}

SNIPPETS_312 = {
    "type_params": """
        type Alias[T] = list[T]
        def first[T](xs: list[T]) -> T:
            return xs[0]
        class Box[T]:
            def get(self) -> T: ...
    """,
}

STDLIB = ["colorsys", "bisect", "keyword", "fnmatch", "glob", "stat", "copy", "shlex", "textwrap",
          "numbers", "this", "heapq", "string", "reprlib", "opcode"]


def pyc_bytes(code, hash_based, source=b""):
    from importlib import _bootstrap_external as be
    if hash_based:
        import importlib.util as iu
        return bytes(be._code_to_hash_pyc(code, iu.source_hash(source), checked=True))
    return bytes(be._code_to_timestamp_pyc(code, 0, len(source)))


def main():
    out_dir = sys.argv[1]
    max_bytes = int(sys.argv[2]) if len(sys.argv) > 2 else 65536
    os.makedirs(out_dir, exist_ok=True)
    minor = sys.version_info[1]
    tag = "%d.%d" % sys.version_info[:2]
    snippets = dict(SNIPPETS)
    if minor >= 10:
        snippets.update(SNIPPETS_310)
    if minor >= 11:
        snippets.update(SNIPPETS_311)
    if minor >= 12:
        snippets.update(SNIPPETS_312)

    sources = [(name, textwrap.dedent(text).lstrip()) for name, text in snippets.items()]
    for mod in STDLIB:
        spec = importlib.util.find_spec(mod)
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        with open(spec.origin, "rb") as fh:
            sources.append(("stdlib_" + mod, fh.read()))

    written = 0
    for i, (name, source) in enumerate(sources):
        src_bytes = source.encode() if isinstance(source, str) else source
        code = compile(src_bytes, "<%s>" % name, "exec", dont_inherit=True)
        data = pyc_bytes(code, hash_based=(i % 4 == 3), source=src_bytes)
        if len(data) > max_bytes:
            continue
        with open(os.path.join(out_dir, "%s_%s.pyc" % (tag, name)), "wb") as fh:
            fh.write(data)
        bare = bytes([minor - 8]) + marshal.dumps(code)
        with open(os.path.join(out_dir, "%s_%s.marshal" % (tag, name)), "wb") as fh:
            fh.write(bare)
        written += 2
    print("%s: wrote %d seeds to %s" % (tag, written, out_dir))


if __name__ == "__main__":
    main()
