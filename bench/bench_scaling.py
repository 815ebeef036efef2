"""Benchmark: how decompiling one function grows with its length (no super-linear blow-up).

    python bench/bench_scaling.py [--versions 3.8,3.12] [--sizes 100,400] [--repeat 5]

For each CPython 3.8-3.13 that is installed (found like `uncompile verify` finds it), functions of
one shape repeated N times (a run of asserts, of `if`s, an if/else chain, an elif chain, try/except
statements, with statements, for loops with a break, ifs that return, ifs that raise) are compiled
by that interpreter and decompiled through `uncompile._core.decompile` (marshal parsing included),
each the best of --repeat calls. The table gives, per shape and version, the time at each size and
the growth from the smallest size to the largest against the growth of the size: 1.0 is linear,
and a decompiler quadratic in the length shows the size ratio itself (4.0 from 100 to 400).
Every output is checked to recompile to an equivalent function (uncompile.verify), so a shape that
gets faster by going wrong shows up.

Real code has such functions: test functions of hundreds of asserts (sympy's test_query.py),
parsers' elif chains of hundreds of branches, generated code.
"""
import argparse
import marshal
import subprocess
import sys
import time
from typing import Callable, Dict, List, Optional

from uncompile import _core
from uncompile.errors import RecompileError
from uncompile.verify import Recompiler, find_interpreter, verify_source

VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]

# Each shape: the lines of its i-th repetition, in a function `f(x, y, z)`.
SHAPES: Dict[str, Callable[[int], List[str]]] = {
    "asserts": lambda i: ["assert ask(Q.finite(x + %d), Q.positive(y)) is None" % i],
    "ifs": lambda i: ["if x == %d:" % i, "    y = g(%d)" % i],
    "if/else": lambda i: ["if x == %d:" % i, "    y = g(%d)" % i, "else:", "    z = h(%d)" % i],
    "elif chain": lambda i: [("if" if i == 0 else "elif") + " x == %d:" % i, "    y = g(%d)" % i],
    "try/except": lambda i: ["try:", "    y = g(%d)" % i, "except ValueError:", "    z = h(%d)" % i],
    "with": lambda i: ["with g(%d) as y:" % i, "    z = h(y)"],
    "for/break": lambda i: ["for a in g(%d):" % i, "    if a:", "        break", "    z = h(a)"],
    "if return": lambda i: ["if x == %d:" % i, "    return g(%d)" % i],
    "if raise": lambda i: ["if x == %d:" % i, "    raise E(%d)" % i],
}

COMPILE = r'''
import marshal, sys
code = compile(sys.stdin.read(), "<scaling>", "exec")
f = next(c for c in code.co_consts if hasattr(c, "co_code"))
sys.stdout.buffer.write(marshal.dumps(f))
'''


def source(shape: str, n: int) -> str:
    lines = ["def f(x, y, z):"]
    for i in range(n):
        lines += ["    " + line for line in SHAPES[shape](i)]
    lines.append("    return y")
    return "\n".join(lines) + "\n"


def compiled(python: str, text: str) -> bytes:
    return subprocess.run([python, "-I", "-c", COMPILE], input=text.encode(), capture_output=True, check=True).stdout


def best_time(data: bytes, version: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        _core.decompile(data, version, [])
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", default=",".join(VERSIONS), help="comma-separated, e.g. 3.8,3.12")
    parser.add_argument("--sizes", default="100,400", help="repetitions of each shape, smallest first")
    parser.add_argument("--repeat", type=int, default=5, help="calls per function; its time is the fastest")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="comma-separated, of: " + ", ".join(SHAPES))
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",")]
    shapes = args.shapes.split(",")
    header = "| shape | version | " + " | ".join("ms at %d" % n for n in sizes) + " | growth / size growth | equivalent |"
    print(header)
    print("|---|---|" + "---:|" * len(sizes) + "---:|---|")
    worst = 0.0
    for version in args.versions.split(","):
        try:
            python = find_interpreter(version)
        except RecompileError:
            print("| (Python %s not installed: skipped) |" % version)
            continue
        recompiler = Recompiler(version)
        try:
            for shape in shapes:
                times, equivalent = [], True
                for n in sizes:
                    data = compiled(python, source(shape, n))
                    times.append(best_time(data, version, args.repeat))
                    text, failures = _core.decompile(data, version, [])
                    equivalent &= not failures and verify_source(data, text, version=version, recompiler=recompiler).equivalent
                growth = (times[-1] / times[0]) / (sizes[-1] / sizes[0])
                worst = max(worst, growth)
                print("| %s | %s | %s | %.1f | %s |" % (shape, version, " | ".join("%.1f" % (t * 1e3) for t in times),
                                                        growth, "yes" if equivalent else "NO"))
                sys.stdout.flush()
        finally:
            recompiler.close()
    print("\nworst growth against the size's: %.1f (1.0 linear, %.1f quadratic)" % (worst, sizes[-1] / sizes[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
