"""Differential test of the decompiler on random programs: the decompiled code must do what the
original does.

    python tools/program_fuzz.py [--versions 3.8,...,3.13] [--seed N] [--modules M] [--functions F] [--keep DIR] [--cli PATH]

Writes random modules of functions (nested if/elif/else, for/while with break, continue and else,
try/except/else/finally, with, return inside any of them, raise, comprehensions, conditional and
boolean expressions, walrus, f-strings, closures with nonlocal, lambdas, generators, match on
3.10+), compiles each with the interpreter of each version, decompiles the .pyc with the
`uncompile` CLI and runs every function of both modules on the same arguments in that
interpreter. Each call's outcome (return value or exception type, and the trace of calls to the
helper `t`) must be the same. Functions the decompiler refused (a stub that raises) are counted
apart; output that does not compile, or a function whose outcome differs, is a failure: the
program prints the seed, the function and both sources, and exits with status 1.

The generator is deterministic per seed, so a failure is reproduced by its seed.
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from typing import List, Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]

# The prelude both modules share (not decompiled: it is prepended to the decompiled text).
PRELUDE = '''
import sys
T = []
def t(*v):
    # (With the exception being handled, if any: code printed inside or outside an except
    # clause it does not belong to shows.)
    handled = sys.exc_info()[0]
    T.append(v + ((handled.__name__,) if handled else ()))
    return v[-1] if v else None
class CM:
    def __init__(self, tag, suppress=False):
        self.tag, self.suppress = tag, suppress
    def __enter__(self):
        T.append(("enter", self.tag))
        return self.tag
    def __exit__(self, et, ev, tb):
        T.append(("exit", self.tag, et.__name__ if et else None))
        return self.suppress
'''

# Runs in the interpreter of the version: loads both modules, calls each function, prints JSON.
RUNNER = r'''
import json, sys, types
def load(path, name):
    mod = types.ModuleType(name)
    with open(path) as f:
        src = f.read()
    exec(compile(src, path, "exec"), mod.__dict__)
    return mod
result = {}
try:
    b = load(sys.argv[2], "decompiled")
except BaseException as e:
    print(json.dumps({"load_error": "%s: %s" % (type(e).__name__, e)}))
    sys.exit(0)
a = load(sys.argv[1], "original")
ARGS = [(0, 1, 2), (3, -1, 5), (7, 7, 0), (-2, 4, 1), (1, 0, -3)]
def outcome(mod, name, args):
    mod.T.clear()
    try:
        value = getattr(mod, name)(*args)
        if isinstance(value, types.GeneratorType):
            items = []
            for item in value:
                items.append(item)
                if len(items) > 50:
                    break
            value = ("generator", items)
        r = ("return", repr(value))
    except RecursionError:
        r = ("raise", "RecursionError")
    except Exception as e:
        r = ("raise", type(e).__name__)
    return [r, repr(mod.T)]
for name in sorted(n for n in vars(a) if n.startswith("f_")):
    refused = False
    outs = []
    for args in ARGS:
        oa, ob = outcome(a, name, args), outcome(b, name, args)
        if ob[0][0] == "raise" and ob[0][1] == "RuntimeError" and oa[0] != ob[0]:
            refused = True
        outs.append([oa, ob])
    result[name] = {"refused": refused, "same": all(x == y for x, y in outs),
                    "first_difference": next(([args, x, y] for args, (x, y) in zip(ARGS, outs) if x != y), None)}
print(json.dumps(result))
'''


class Generator:
    """Random functions of three int arguments a, b, c."""

    def __init__(self, rng: random.Random, version, more: bool = False):
        self.rng = rng
        self.version = version
        self.loop_depth = 0
        self.counter = 0
        # More statement shapes (--more): drawn only then, so that the programs of a seed without
        # it stay those that earlier measurements used.
        self.more = more

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return "%s%d" % (stem, self.counter)

    # -- expressions ---------------------------------------------------------------------------

    def atom(self) -> str:
        r = self.rng.random()
        if r < 0.55:
            return self.rng.choice(["a", "b", "c", "x", "y"])
        if r < 0.85:
            return str(self.rng.randint(-3, 9))
        return self.rng.choice(["None", "True", "False", "'s'", "(1, 2)", "[3]"])

    def num(self, depth: int) -> str:
        """An expression that is an int when a, b, c, x, y are ints."""
        r = self.rng.random()
        if depth <= 0 or r < 0.3:
            return self.rng.choice(["a", "b", "c", "x", "y", str(self.rng.randint(-3, 9))])
        if r < 0.55:
            op = self.rng.choice(["+", "-", "*", "//", "%", "&", "|", "^"])
            return "(%s %s %s)" % (self.num(depth - 1), op, self.num(depth - 1))
        if r < 0.62:
            return "(%s if %s else %s)" % (self.num(depth - 1), self.cond(depth - 1), self.num(depth - 1))
        if r < 0.68:
            return "t(%s)" % self.num(depth - 1)
        if r < 0.73:
            return "sum([%s for i in range(%d) if %s])" % (self.num_with("i", depth - 1), self.rng.randint(0, 4),
                                                        self.cond_with("i", depth - 1))
        if r < 0.77:
            return "len({%s for i in range(%d)})" % (self.num_with("i", depth - 1), self.rng.randint(0, 4))
        if r < 0.81:
            return "(lambda q: q + %s)(%s)" % (self.num(depth - 1), self.num(depth - 1))
        if r < 0.85:
            return "[%s, %s][%s %% 2]" % (self.num(depth - 1), self.num(depth - 1), self.num(depth - 1))
        if r < 0.88:
            return "max(%s, %s, key=lambda v: -v)" % (self.num(depth - 1), self.num(depth - 1))
        if r < 0.91:
            return "(-%s)" % self.num(depth - 1)
        if r < 0.94:
            return "sum(%s for i in range(%d))" % (self.num_with("i", depth - 1), self.rng.randint(0, 3))
        if r < 0.97:
            # (atoms inside: an f-string nested in one with the same quotes needs 3.12)
            return "len(f'{%s}-{%s!r:>4}')" % (self.num(0), self.num(0))
        return "(%s << 2)" % self.num(depth - 1)

    def num_with(self, var: str, depth: int) -> str:
        e = self.num(depth)
        return "(%s + %s)" % (var, e) if self.rng.random() < 0.7 else e

    def cond_with(self, var: str, depth: int) -> str:
        return "%s %% 2 == %d" % (var, self.rng.randint(0, 1)) if self.rng.random() < 0.6 else self.cond(depth)

    def cond(self, depth: int) -> str:
        r = self.rng.random()
        if depth <= 0 or r < 0.35:
            op = self.rng.choice(["<", "<=", ">", ">=", "==", "!="])
            return "%s %s %s" % (self.num(0), op, self.num(0))
        if r < 0.5:
            return "(%s and %s)" % (self.cond(depth - 1), self.cond(depth - 1))
        if r < 0.65:
            return "(%s or %s)" % (self.cond(depth - 1), self.cond(depth - 1))
        if r < 0.72:
            return "not %s" % self.cond(depth - 1)
        if r < 0.8:
            return "%s < %s <= %s" % (self.num(0), self.num(0), self.num(0))
        if r < 0.85:
            return "%s in (%s, %s)" % (self.num(0), self.num(0), self.num(0))
        if r < 0.9:
            return "%s is None" % self.rng.choice(["a", "x", "y"])
        if r < 0.95:
            return "(y := %s) > %d" % (self.num(depth - 1), self.rng.randint(-2, 4))
        return "t(%s)" % self.cond(depth - 1)

    # -- statements ----------------------------------------------------------------------------

    def block(self, indent: int, depth: int, n: Optional[int] = None) -> List[str]:
        n = n if n is not None else self.rng.randint(1, 3)
        return [line for _ in range(n) for line in self.stmt(indent, depth)]

    def stmt(self, indent: int, depth: int) -> List[str]:
        pad = "    " * indent
        r = self.rng.random()
        simple = depth <= 0 or r < 0.35
        if simple:
            return [pad + self.simple()]
        kinds = ["if", "if", "for", "while", "try", "with", "ret"]
        if self.version >= (3, 10):
            kinds.append("match")
        kind = self.rng.choice(kinds)
        if kind == "if":
            out = [pad + "if %s:" % self.cond(2)] + self.block(indent + 1, depth - 1)
            for _ in range(self.rng.randint(0, 2)):
                out += [pad + "elif %s:" % self.cond(1)] + self.block(indent + 1, depth - 1)
            if self.rng.random() < 0.5:
                out += [pad + "else:"] + self.block(indent + 1, depth - 1)
            return out
        if kind == "for":
            var = self.rng.choice(["i", "j"])
            it = self.rng.choice(["range(%d)" % self.rng.randint(0, 4), "[a, b, c]", "(x, y)",
                                  "range(%s %% 4)" % self.num(1)])
            self.loop_depth += 1
            out = [pad + "for %s in %s:" % (var, it)] + self.block(indent + 1, depth - 1)
            self.loop_depth -= 1
            if self.rng.random() < 0.3:
                out += [pad + "else:"] + self.block(indent + 1, depth - 1)
            return out
        if kind == "while":
            n = self.fresh("n")
            self.loop_depth += 1
            body = [pad + "    %s += 1" % n] + self.block(indent + 1, depth - 1)
            self.loop_depth -= 1
            out = [pad + "%s = 0" % n, pad + "while %s < %d and %s:" % (n, self.rng.randint(1, 4), self.cond(1))
                   if self.rng.random() < 0.5 else pad + "while %s < %d:" % (n, self.rng.randint(1, 4))] + body
            if self.rng.random() < 0.3:
                out += [pad + "else:"] + self.block(indent + 1, depth - 1)
            return out
        if kind == "try":
            out = [pad + "try:"] + self.block(indent + 1, depth - 1)
            handlers = self.rng.randint(0, 2)
            for k in range(handlers):
                exc = self.rng.choice(["ValueError", "ZeroDivisionError", "(ValueError, KeyError)", "Exception"])
                name = " as e" if self.rng.random() < 0.4 else ""
                body = self.block(indent + 1, depth - 1)
                if name and self.rng.random() < 0.5:
                    body = [pad + "    t(type(e).__name__)"] + body
                out += [pad + "except %s%s:" % (exc, name)] + body
            if handlers and self.rng.random() < 0.2:
                out += [pad + "except:"] + self.block(indent + 1, depth - 1)
            if handlers and self.rng.random() < 0.3:
                out += [pad + "else:"] + self.block(indent + 1, depth - 1)
            if not handlers or self.rng.random() < 0.4:
                out += [pad + "finally:"] + self.block(indent + 1, depth - 1)
            return out
        if kind == "with":
            tag = self.rng.randint(0, 9)
            suppress = self.rng.random() < 0.3
            target = " as w" if self.rng.random() < 0.5 else ""
            items = "CM(%d%s)%s" % (tag, ", True" if suppress else "", target)
            if self.rng.random() < 0.2:
                items += ", CM(%d)" % (tag + 1)
            body = self.block(indent + 1, depth - 1)
            if self.more and self.loop_depth and self.rng.random() < 0.4:
                # (a way out ending the body: where a suppressed exception goes on differs)
                body.append(pad + "    " + self.rng.choice(["break", "continue", "return %s" % self.num(0)]))
            return [pad + "with %s:" % items] + body
        if kind == "match":
            out = [pad + "match %s:" % self.rng.choice(["a", "(a, b)", "[x, y, c]", "b % 3"])]
            patterns = ["0", "1 | 2", "(p, q)", "[p, *rest]", "int(p) if p > 1", "-1", "(0, _)", "[_, _, p]", "None"]
            for pattern in self.rng.sample(patterns, self.rng.randint(1, 3)):
                out += [pad + "    case %s:" % pattern] + self.block(indent + 2, depth - 1)
            if self.rng.random() < 0.5:
                out += [pad + "    case _:"] + self.block(indent + 2, depth - 1)
            return out
        return [pad + "if %s:" % self.cond(1), pad + "    return %s" % self.num(2)]

    def simple(self) -> str:
        if self.more and self.rng.random() < 0.3:
            return self.more_simple()
        r = self.rng.random()
        if self.loop_depth and r < 0.12:
            return self.rng.choice(["break", "continue"]) if self.rng.random() < 0.5 else \
                "if %s: %s" % (self.cond(1), self.rng.choice(["break", "continue"]))
        if r < 0.35:
            return "%s = %s" % (self.rng.choice(["x", "y", "c"]), self.num(2))
        if r < 0.45:
            return "%s %s= %s" % (self.rng.choice(["x", "y"]), self.rng.choice(["+", "-", "*", "|"]), self.num(1))
        if r < 0.6:
            return "t(%s)" % self.num(2)
        if r < 0.66:
            return "raise ValueError(%s)" % self.num(0) if self.rng.random() < 0.3 else \
                "if %s: raise ValueError(%s)" % (self.cond(1), self.num(0))
        if r < 0.72:
            return "return %s" % self.num(1) if self.rng.random() < 0.3 else \
                "if %s: return %s" % (self.cond(1), self.num(1))
        if r < 0.76:
            return "x, y = %s, %s" % (self.num(1), self.num(1))
        if r < 0.8:
            return "assert %s, %s" % (self.cond(1), self.num(0))
        if r < 0.84:
            return "x = [%s for i in range(3) for j in range(i) if %s]" % (self.num_with("j", 1), self.cond_with("i", 0))
        if r < 0.88:
            return "y = {i: %s for i in range(%d)}.get(%s, %s)" % (self.num_with("i", 1), self.rng.randint(0, 3),
                                                               self.num(0), self.num(0))
        if r < 0.92:
            return "c = %s" % self.num(1)
        if r < 0.96:
            return "x = len(f'{x}:{y!s}')"
        return "pass"

    def more_simple(self) -> str:
        """Assignment shapes whose order of evaluation and binding is easy to get wrong."""
        n = lambda: self.num(1)
        shapes = [
            lambda: "z = [a, b, c]; z[%s %% 3:%s %% 4] += (x, %s); t(z)" % (self.num(0), n(), n()),
            lambda: "z = [a, b, c]; z[%s %% 3] -= %s; t(z)" % (self.num(0), n()),
            lambda: "(x, y), c = (t(%s), %s), t(%s)" % (n(), n(), n()),
            lambda: "x, (y, c) = t(%s), [%s, t(%s)]" % (n(), n(), n()),
            lambda: "x, *z = t(%s), %s, %s; y = len(z)" % (n(), n(), n()),
            lambda: "f1 = f2 = lambda q=x: q + %s; t(f1 is f2); x = f1()" % n(),
            lambda: "x = y = c = %s" % n(),
            lambda: "z = [0, 1, 2, 3]; x, z[%s %% 2:] = t(%s), [t(%s)]; t(z)" % (self.rng.choice(["t(a)", "a", "len(z)"]), n(), n()),
            lambda: "z = {}; z['k'] = y = t(%s); t(z)" % n(),
            lambda: "x = (%s if %s else %s) if %s else %s" % (n(), self.cond(1), n(), self.cond(1), n()),
            lambda: "del x; x = %s" % n(),
        ]
        return self.rng.choice(shapes)()

    def function(self, name: str) -> str:
        self.loop_depth = 0
        lines = ["def %s(a, b, c):" % name, "    x = a", "    y = b"]
        kind = self.rng.random()
        if kind < 0.15:  # a closure that rebinds the enclosing variable
            lines += ["    def inner(d):", "        nonlocal x", "        x = x + d", "        return %s" % self.num(1)]
            lines += self.block(1, 2)
            lines += ["    t(inner(%s))" % self.num(1)]
        elif kind < 0.25:  # a generator
            lines += self.block(1, 2)
            lines += ["    yield %s" % self.num(1)]
            lines += ["    for i in range(%d):" % self.rng.randint(0, 3), "        yield %s" % self.num_with("i", 1)]
            lines += self.block(1, 2)
        else:
            lines += self.block(1, 3, self.rng.randint(2, 5))
        lines += ["    return (x, y, c)"]
        return "\n".join(lines)


def module_source(seed: int, functions: int, version, more: bool = False) -> str:
    gen = Generator(random.Random(seed), version, more)
    return "\n\n".join(gen.function("f_%d" % k) for k in range(functions)) + "\n"


def run_version(version: str, python: str, seeds: List[int], functions: int, keep: Optional[str], cli: str = "uncompile",
                more: bool = False) -> dict:
    vt = tuple(int(p) for p in version.split("."))
    stats = {"functions": 0, "refused": 0, "same": 0, "failures": []}
    with tempfile.TemporaryDirectory(prefix="uncompile-fuzz-") as tmp:
        work = keep or tmp
        os.makedirs(work, exist_ok=True)
        for seed in seeds:
            body = module_source(seed, functions, vt, more)
            src = os.path.join(work, "m%d_%s.py" % (seed, version))
            pyc = src + "c"
            with open(src, "w") as f:
                f.write(PRELUDE + "\n" + body)
            with open(os.path.join(work, "body.py"), "w") as f:
                f.write(body)
            compiled = subprocess.run([python, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], sys.argv[2], doraise=True)",
                                       os.path.join(work, "body.py"), pyc], capture_output=True, text=True)
            if compiled.returncode != 0:  # the generator wrote something this version cannot compile
                continue
            decompiled = subprocess.run([cli, pyc], capture_output=True, text=True)
            out = os.path.join(work, "d%d_%s.py" % (seed, version))
            if decompiled.returncode != 0 and not decompiled.stdout:
                stats["failures"].append({"seed": seed, "what": "decompiler error", "detail": decompiled.stderr[-2000:]})
                continue
            with open(out, "w") as f:
                f.write(PRELUDE + "\n" + decompiled.stdout)
            ran = subprocess.run([python, "-c", RUNNER, src, out], capture_output=True, text=True, timeout=120)
            if ran.returncode != 0:
                stats["failures"].append({"seed": seed, "what": "runner failed", "detail": ran.stderr[-2000:]})
                continue
            result = json.loads(ran.stdout)
            if "load_error" in result:
                stats["failures"].append({"seed": seed, "what": "decompiled module does not load",
                                          "detail": result["load_error"]})
                continue
            for name, r in result.items():
                stats["functions"] += 1
                if r["refused"]:
                    stats["refused"] += 1
                elif r["same"]:
                    stats["same"] += 1
                else:
                    stats["failures"].append({"seed": seed, "what": "different outcome", "function": name,
                                              "detail": r["first_difference"]})
    return stats


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", default=",".join(VERSIONS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--modules", type=int, default=10)
    parser.add_argument("--functions", type=int, default=20)
    parser.add_argument("--keep", help="write the modules here instead of a temporary directory")
    parser.add_argument("--cli", default="uncompile", help="the uncompile command to test")
    parser.add_argument("--more", action="store_true",
                        help="draw more statement shapes (other programs than the same seed without it)")
    args = parser.parse_args(argv)
    from uncompile.verify import find_interpreter
    failed = False
    for version in args.versions.split(","):
        try:
            python = find_interpreter(version)
        except Exception as e:
            print("%s: skipped (%s)" % (version, e))
            continue
        seeds = list(range(args.seed, args.seed + args.modules))
        stats = run_version(version, python, seeds, args.functions, args.keep, args.cli, args.more)
        print("%s: %d functions, %d same outcome, %d refused, %d failures" % (
            version, stats["functions"], stats["same"], stats["refused"], len(stats["failures"])))
        for f in stats["failures"][:10]:
            print("  FAIL", f)
        failed = failed or bool(stats["failures"])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
