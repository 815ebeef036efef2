"""Shrinks a function the decompiler refuses (or gets wrong) to a small program that still shows it.

    python tools/reduce_refusal.py MODULE.py FUNCTION --version 3.11 [--reason TEXT] [--cli PATH]
    python tools/reduce_refusal.py MODULE.py FUNCTION --version 3.11 --wrong

MODULE.py is a module as tools/program_fuzz.py writes with --keep (m<seed>_<version>.py); it is
parsed with this interpreter's `ast` and written back with `ast.unparse`, so run this with 3.9 or
newer (the programs themselves are compiled with the interpreter of --version).

Default: the program is "interesting" while the decompiler refuses FUNCTION with a reason that
contains --reason (any refusal when none is given). With --wrong: while the decompiled FUNCTION
compiles but does something else than the original on the fuzzer's arguments (same runner as
program_fuzz.py). Greedy passes delete statements, replace compound statements by one of their
bodies, and simplify expressions to names, until no single step keeps it interesting. Prints the
smallest function found.
"""
import argparse
import ast
import copy
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Callable, Iterator, List, Optional

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import program_fuzz  # noqa: E402  (the prelude and the runner of the fuzzer)


def interpreter(version: str) -> str:
    # The same lookup as program_fuzz.py and `uncompile verify` (UNCOMPILE_PYTHON_X_Y, PATH, pyenv).
    from uncompile.errors import RecompileError
    from uncompile.verify import find_interpreter
    try:
        return find_interpreter(version)
    except RecompileError as e:
        raise SystemExit(str(e))


class Oracle:
    def __init__(self, version: str, function: str, reason: Optional[str], wrong: bool, cli: str):
        self.python = interpreter(version)
        self.function = function
        self.reason = reason
        self.wrong = wrong
        self.cli = cli
        self.work = tempfile.mkdtemp(prefix="reduce-")
        self.tries = 0

    def __call__(self, source: str) -> bool:
        self.tries += 1
        src = os.path.join(self.work, "m.py")
        pyc = os.path.join(self.work, "m.pyc")
        with open(src, "w") as f:
            f.write(source)
        made = subprocess.run([self.python, "-c", "import py_compile,sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                               src, pyc], capture_output=True)
        if made.returncode != 0:
            return False
        out = subprocess.run([self.cli, pyc], capture_output=True, text=True)
        if out.returncode != 0 and not out.stdout:
            return False
        # (repr quotes a reason with an apostrophe in double quotes)
        refusal = re.search(r"could not decompile %s: (.*)['\"]\)" % re.escape(self.function), out.stdout)
        if not self.wrong:
            return refusal is not None and (self.reason is None or self.reason in refusal.group(1))
        if refusal is not None:
            return False
        dec = os.path.join(self.work, "d.py")
        with open(dec, "w") as f:
            f.write(program_fuzz.PRELUDE + "\n" + out.stdout)
        run = subprocess.run([self.python, "-c", program_fuzz.RUNNER, src, dec], capture_output=True, text=True, timeout=60)
        try:
            result = json.loads(run.stdout)
        except ValueError:
            return False
        entry = result.get(self.function)
        return entry is not None and not entry["same"] and not entry["refused"]


def own_bodies(node: ast.AST) -> List[List[ast.stmt]]:
    """The statement lists a node holds itself: body, orelse, finalbody (an except clause's and a
    case's body too, those nodes being ast.walk's as well)."""
    return [b for b in (getattr(node, "body", None), getattr(node, "orelse", None), getattr(node, "finalbody", None))
            if isinstance(b, list) and b and isinstance(b[0], ast.stmt)]


def statement_lists(tree: ast.AST) -> Iterator[List[ast.stmt]]:
    for node in ast.walk(tree):
        yield from own_bodies(node)


def inner_bodies(s: ast.stmt) -> List[List[ast.stmt]]:
    """The bodies a compound statement may be replaced by (none for a definition)."""
    if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []
    return own_bodies(s) + [h.body for h in getattr(s, "handlers", []) or []] + [c.body for c in getattr(s, "cases", []) or []]


def candidates(func: ast.FunctionDef) -> Iterator[Callable[[], bool]]:
    """Edits of `func` in place; each returns False when it does not apply. (Undone by the caller
    restoring a copy.)"""
    lists = list(statement_lists(func))
    for body in lists:
        for i in range(len(body)):
            def delete(body=body, i=i):
                if i >= len(body):
                    return False
                del body[i]
                if not body:
                    body.append(ast.Pass())
                return True
            yield delete
            # A compound statement replaced by one of its bodies (an except clause's or a case's too).
            for j in range(len(inner_bodies(body[i]))):
                def inline(body=body, i=i, j=j):
                    bodies = inner_bodies(body[i]) if i < len(body) else []
                    if j >= len(bodies):
                        return False
                    body[i:i + 1] = bodies[j]
                    return True
                yield inline
    for node in list(ast.walk(func)):
        for field, value in list(ast.iter_fields(node)):
            # (A format spec stays an f-string.)
            if isinstance(value, ast.expr) and not isinstance(value, (ast.Name, ast.Constant)) and field not in ("target", "format_spec"):
                def simplify(node=node, field=field, value=value):
                    if getattr(node, field) is not value:
                        return False
                    setattr(node, field, ast.Name(id="a", ctx=ast.Load()))
                    return True
                yield simplify


def reduce(module: ast.Module, name: str, interesting: Callable[[str], bool]) -> ast.Module:
    def index(m: ast.Module) -> int:
        return next(i for i, n in enumerate(m.body) if isinstance(n, ast.FunctionDef) and n.name == name)

    def text(m: ast.Module) -> str:
        return ast.unparse(ast.fix_missing_locations(m))

    current = text(module)

    def accept(trial: ast.Module) -> bool:
        # Only strictly shorter programs are taken, so the search ends.
        nonlocal module, current
        candidate = text(trial)
        if len(candidate) >= len(current) or not interesting(candidate):
            return False
        module, current = trial, candidate
        print("  %d characters" % len(current), file=sys.stderr)
        return True

    # The other functions go first (one step: they are independent of this one).
    trial = copy.deepcopy(module)
    trial.body = [n for n in trial.body if not (isinstance(n, ast.FunctionDef) and n.name.startswith("f_") and n.name != name)]
    accept(trial)
    progress = True
    while progress:
        progress = False
        # Runs of statements, longest first (a random program's refusal usually needs few of them).
        for chunk in (16, 8, 4, 2):
            k = 0
            while True:
                trial = copy.deepcopy(module)
                lists = list(statement_lists(trial.body[index(trial)]))
                spans = [(body, i) for body in lists for i in range(0, len(body), chunk) if len(body) > 1]
                if k >= len(spans):
                    break
                body, i = spans[k]
                del body[i:i + chunk]
                if not body:
                    body.append(ast.Pass())
                if accept(trial):
                    progress = True
                else:
                    k += 1
        k = 0
        while True:
            trial = copy.deepcopy(module)
            edits = list(candidates(trial.body[index(trial)]))
            if k >= len(edits):
                break
            if edits[k]() and accept(trial):
                progress = True
            else:
                k += 1
    return module


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("module")
    parser.add_argument("function")
    parser.add_argument("--version", required=True)
    parser.add_argument("--reason", help="a substring of the refusal to keep")
    parser.add_argument("--wrong", action="store_true", help="keep a different outcome instead of a refusal")
    parser.add_argument("--cli", default="uncompile")
    args = parser.parse_args(argv)
    with open(args.module) as f:
        source = f.read()
    oracle = Oracle(args.version, args.function, args.reason, args.wrong, args.cli)
    if not oracle(source):
        print("the module does not show it to begin with", file=sys.stderr)
        return 1
    module = reduce(ast.parse(source), args.function, oracle)
    func = next(n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == args.function)
    print(ast.unparse(func))
    print("(%d tries)" % oracle.tries, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
