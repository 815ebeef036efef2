"""Verification: decompile(..., verify=True), uncompile.verify.verify_source and `uncompile verify`.

The comparison must say "equivalent" for the same program (whatever its line numbers) and must not
for a different one, naming the first difference; cross-version cases run the pyenv interpreters.
"""
import os
import subprocess
import sys
import textwrap
import types

import pytest

import uncompile
from uncompile import RecompileError, _core
from uncompile.verify import CodeVerdict, Recompiler, VerifyResult, verify_source

from conftest import VERSIONS, interpreter

RUNNING = "%d.%d" % sys.version_info[:2]


def code_of(source, filename="<verify-test>"):
    return compile(textwrap.dedent(source), filename, "exec", dont_inherit=True)


def function(source, name):
    namespace = {}
    exec(code_of(source), namespace)
    return namespace[name]


def require(version):
    exe = interpreter(version)
    if exe is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    return exe


ORDERING = """
def f(a, b):
    if a < b:
        return a
    return b
"""

# A module touching most of the compiler: the comparison must call it equivalent to itself.
RICH = '''
"""Module docstring."""
from __future__ import annotations
import os
from collections import OrderedDict as OD

X = {"a": 1, 2: (3.5, -0.0, 1j, b"x", frozenset({1, 2}))}


class Base:
    """Doc."""
    attr: int = 3

    def __init__(self, v, /, w=2, *args, k, **kw):
        self.v = v
        super().__init__()

    @property
    def prop(self):
        return [i * 2 for i in range(self.v) if i % 2]


def gen(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        total += i
        yield total
    while n > 0:
        n -= 1
    return total


def handlers(path):
    try:
        with open(path) as fh:
            data = fh.read()
    except (OSError, ValueError) as e:
        data = str(e)
    finally:
        print("done")
    return data


async def coro(xs):
    async for x in xs:
        await x
    return {k: v for k, v in zip(xs, xs)}


def closures(a):
    def inner(b):
        nonlocal a
        a += b
        return lambda c: a + b + c
    return inner, f"{a!r:>{len(str(a))}}"
'''

RICH_310 = RICH + '''

def matching(cmd):
    match cmd:
        case [x, y, *rest]:
            return x, y, rest
        case {"k": v}:
            return v
        case Base(v=1) | None:
            return 0
        case _:
            return -1
'''


def rich(version):
    major, minor = map(int, version.split("."))
    return RICH_310 if minor >= 10 else RICH


# ---- the comparison itself, in the running interpreter ----------------------------------------

def test_identical_source_is_equivalent():
    source = rich(RUNNING)
    result = verify_source(code_of(source), source)
    assert isinstance(result, VerifyResult)
    assert result.recompiles and result.equivalent, str(result)
    qualnames = [v.qualname for v in result.verdicts]
    assert qualnames[0] == "<module>"
    assert {"Base.__init__", "Base.prop.<locals>.<listcomp>" if sys.version_info < (3, 12) else "Base.prop",
            "closures.<locals>.inner.<locals>.<lambda>", "matching"} <= set(qualnames)
    assert all(v.level == "equivalent" and v.first_difference is None for v in result.verdicts)


def test_line_numbers_and_comments_are_ignored():
    source = rich(RUNNING)
    moved = "\n\n# a comment\n\n" + source.replace("\n    return", "\n\n    # spacer\n    return")
    assert verify_source(code_of(source), moved).equivalent


MUTATIONS = [
    ("if a < b:", "if a > b:", "COMPARE_OP"),
    ("total += i", "total -= i", "instruction"),
    ('"a": 1', '"a": 2', ""),
    ("return data", "return path", "LOAD_FAST"),
    ("except (OSError, ValueError) as e:", "except (ValueError, OSError) as e:", "LOAD_GLOBAL"),
    ("def __init__(self, v, /, w=2, *args, k, **kw):", "def __init__(self, v, w=2, *args, k, **kw):",
     "argument counts differ"),
    ("nonlocal a\n        a += b", "a = b", "co_"),
    ('"""Doc."""', '"""Other doc."""', "Other doc"),
]


@pytest.mark.parametrize("old,new,expect", MUTATIONS)
def test_a_different_program_is_not_equivalent(old, new, expect):
    source = rich(RUNNING) + "\n\ndef f(a, b):\n    if a < b:\n        return a\n    return b\n"
    assert old in source
    result = verify_source(code_of(source), source.replace(old, new, 1))
    assert result.recompiles and not result.equivalent, str(result)
    bad = [v for v in result.verdicts if not v.equivalent]
    assert bad and all(v.first_difference for v in bad)
    assert expect in bad[0].first_difference, str(result)
    assert "NOT equivalent" in str(result)


def test_flipped_comparison_names_the_instruction():
    f = function(ORDERING, "f")
    result = verify_source(f.__code__, ORDERING.replace("<", ">"))
    assert not result.equivalent and result.recompiles
    [verdict] = result.verdicts
    assert verdict.qualname == "f" and verdict.level == "recompiles"
    assert "COMPARE_OP <" in verdict.first_difference and "recompiled COMPARE_OP >" in verdict.first_difference
    assert verdict.first_difference.startswith("instruction ")


def test_local_versus_global_names_the_instruction():
    g = function("def g(x):\n    y = x\n    return y\n", "g")
    result = verify_source(g, "def g(x):\n    y = x\n    return z\n")
    assert "original LOAD_FAST y, recompiled LOAD_GLOBAL z" in result.verdicts[0].first_difference


def test_syntax_error_stops_at_decompiled():
    f = function(ORDERING, "f")
    result = verify_source(f, "def f(a, b):\n    if a < b\n        return a\n")
    assert not result.recompiles and not result.equivalent
    assert result.compile_error.startswith("SyntaxError")
    assert [v.level for v in result.verdicts] == ["decompiled"]
    assert "does not recompile" in str(result)


NESTED = """
def outer(n):
    def helper(v):
        return v * 2
    def other(v):
        return [w + 1 for w in v]
    key = lambda item: -item
    return sorted(map(helper, range(n)), key=key), other
"""


def test_nested_functions_are_compared_one_by_one():
    outer = function(NESTED, "outer")
    ok = verify_source(outer, NESTED)
    assert ok.equivalent, str(ok)
    names = [v.qualname for v in ok.verdicts]
    assert names[:3] == ["outer", "outer.<locals>.helper", "outer.<locals>.other"]
    assert "outer.<locals>.<lambda>" in names
    changed = verify_source(outer, NESTED.replace("v * 2", "v * 3"))
    levels = {v.qualname: v.level for v in changed.verdicts}
    assert levels["outer.<locals>.helper"] == "recompiles"
    assert levels["outer"] == "equivalent" and levels["outer.<locals>.other"] == "equivalent"
    # A nested function missing from the source leaves its original without a counterpart.
    dropped = verify_source(outer, NESTED.replace("    key = lambda item: -item\n", "    key = None\n"))
    lam = [v for v in dropped.verdicts if v.qualname == "outer.<locals>.<lambda>"][0]
    assert not lam.equivalent and "no counterpart" in lam.first_difference


def test_function_is_found_by_qualified_name():
    source = textwrap.dedent("""
    def f():
        return 1

    def g():
        def f():
            return 2
        return f

    class C:
        def f(self):
            return 3
    """)
    module = {}
    exec(code_of(source), module)
    assert verify_source(module["f"], source).equivalent
    assert verify_source(module["C"].f, source).equivalent
    inner = verify_source(module["g"](), source)
    if sys.version_info >= (3, 11):  # co_qualname tells the nested f from the others
        assert inner.equivalent, str(inner)
    missing = verify_source(module["f"], "def h():\n    return 1\n")
    assert not missing.equivalent and "no code object named f" in missing.verdicts[0].first_difference


def test_future_flags_of_a_function_are_kept():
    source = "from __future__ import annotations\ndef f(x: Undefined) -> Undefined:\n    return x\n"
    f = function(source, "f")
    assert verify_source(f, "def f(x: Undefined) -> Undefined:\n    return x\n").equivalent


# ---- decompile(..., verify=True) ----------------------------------------------------------------

def test_decompile_verify_attaches_the_result():
    f = function(ORDERING, "f")
    out = uncompile.decompile(f, verify=True)
    assert isinstance(out.verification, VerifyResult)
    assert out.verification.equivalent and out.verification.version == RUNNING
    assert uncompile.decompile(f).verification is None


def test_decompile_verify_of_nested_functions_and_methods():
    outer = function(NESTED, "outer")
    result = uncompile.decompile(outer, verify=True).verification
    assert result.recompiles
    assert [v.qualname for v in result.verdicts][:2] == ["outer", "outer.<locals>.helper"]
    assert result.verdicts[1].level == "equivalent"

    class K:
        def double(self, v):
            return v * 2

        @staticmethod
        def s(a, b):
            return a - b

    assert uncompile.decompile(K.double, verify=True).verification.equivalent
    cls = uncompile.decompile(K, verify=True).verification
    assert [v.qualname.rsplit(".", 2)[-2:] for v in cls.verdicts] == [["K", "double"], ["K", "s"]]


def test_a_closure_is_verified_where_it_was_compiled():
    make = function("def make(a):\n    def inner(b):\n        return a + b\n    return inner\n", "make")
    inner = make(1)
    result = uncompile.decompile(inner, verify=True).verification
    # Recompiled inside a function that binds `a`, so `a` is a free variable again, as in the original.
    assert result.equivalent, str(result)
    bound_here = verify_source(inner, "def inner(b):\n    a = 1\n    return a + b\n")
    assert bound_here.recompiles and not bound_here.equivalent


def test_a_method_using_super_is_verified_in_a_class():
    ns = {}
    exec("class Base:\n    def m(self):\n        return 1\n"
         "class K(Base):\n    def m(self):\n        return super().m() + 1\n", ns)
    method = ns["K"].m
    assert method.__code__.co_freevars == ("__class__",)
    result = uncompile.decompile(method, verify=True).verification
    assert result.equivalent, str(result)
    assert not verify_source(method, "def m(self):\n    return Base.m(self) + 1\n").equivalent


@pytest.mark.skipif(sys.version_info < (3, 11), reason="3.11+ compiles calls on imported modules differently")
def test_calls_into_imported_modules_are_verified_with_the_import():
    ns = {}
    exec("import os\ndef f(p):\n    return os.fspath(p)\n", ns)
    result = uncompile.decompile(ns["f"], verify=True).verification
    assert result.equivalent, str(result)
    ns = {}
    exec("def g(p):\n    return os.fspath(p)\n", ns)  # `os` not imported in this module: a method call
    assert uncompile.decompile(ns["g"], verify=True).verification.equivalent
    ns = {}
    # A local of the name a module-level import binds is compiled like the module (compile.c checks
    # the module's symbol table): `import warnings` inside a function of a module that imports it.
    exec("import warnings\ndef h(m):\n    import warnings\n    warnings.warn(m)\n", ns)
    result = uncompile.decompile(ns["h"], verify=True).verification
    assert result.equivalent, str(result)


@pytest.mark.parametrize("version", VERSIONS)
def test_comprehension_code_objects_on_their_own(version):
    exe = require(version)
    source = ("def f(y, z):\n    a = [x * y for x in z if x]\n    b = {k: v for k, v in z}\n"
              "    c = (w for x in z for w in x)\n    return a, b, c\n")
    expected = {"3.8": 3, "3.9": 3, "3.10": 3, "3.11": 3}.get(version, 1)  # 3.12+ inlines list/dict comprehensions
    texts = []
    for data in _marshalled_items(exe, source):
        out, failures = uncompile._core.decompile(data, version, [])  # bare marshal data of `version`
        assert not failures, failures
        result = verify_source(data, out, version=version)
        assert result.equivalent, str(result) + "\n" + out
        texts.append(out.strip())
    assert len(texts) == expected
    assert "(w for x in iterable for w in x)" in texts
    if expected == 3:
        assert texts[:2] == ["[x * y for x in iterable if x]", "{k: v for k, v in iterable}"]


# Before 3.11 a code object has no qualified name of its own; it is read from what is made inside:
# a nested comprehension's or lambda's (no <locals> after a comprehension), a nested class's
# __qualname__. A code object verified on its own is recompiled under that name, which the
# qualified names of what it makes depend on.
QUALIFIED_BY_WHAT_THEY_MAKE = """
class T:
    def f(self, m, n):
        class Inner:
            pass
        rows = [[m[i][j] for j in range(n)] for i in range(n)]
        keyed = [sorted(r, key=lambda y: -y) for r in rows]
        return Inner, rows, keyed
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_code_objects_on_their_own_keep_their_qualified_names(version):
    exe = require(version)
    f = "ns['T'].f.__code__"
    items = "[%s] + [c for c in %s.co_consts if hasattr(c, 'co_code') and c.co_name != 'Inner']" % (f, f)
    checked = 0
    for data in _marshalled_items(exe, QUALIFIED_BY_WHAT_THEY_MAKE, items):
        out, failures = uncompile._core.decompile(data, version, [])
        assert not failures, failures
        result = verify_source(data, out, version=version)
        assert result.equivalent, str(result) + "\n" + out
        checked += 1
    assert checked == (3 if version in ("3.8", "3.9", "3.10", "3.11") else 2)  # 3.12+ inline the comprehensions (not the lambda)


@pytest.mark.parametrize("version", VERSIONS)
def test_async_comprehension_code_objects_on_their_own(version):
    """A list, set or dict comprehension that awaits compiles only inside an async function: on its
    own it is shown inside one, named as the function it was made in where the qualified name says
    (3.11), and verified equivalent, also where it reads a variable of that function or sits in a
    class; an async generator expression compiles anywhere (3.12+ inline the others)."""
    exe = require(version)
    source = ("async def f(z):\n    a = [x async for x in z]\n    k = 2\n    b = {x: k async for x in z}\n"
              "    c = (x async for x in z)\n"
              "class C:\n    async def m(self, z):\n        return {await x for x in z}\n")
    script = ("import marshal, sys\n"
              "def walk(code):\n"
              "    for c in code.co_consts:\n"
              "        if hasattr(c, 'co_code'):\n"
              "            if c.co_name.startswith(('<listcomp', '<setcomp', '<dictcomp', '<genexpr')):\n"
              "                data = marshal.dumps(c)\n"
              "                sys.stdout.buffer.write(len(data).to_bytes(4, 'little') + data)\n"
              "            walk(c)\n"
              "walk(compile(sys.argv[1], 'm.py', 'exec'))\n")
    blob = subprocess.run([exe, "-c", script, source], capture_output=True, check=True).stdout
    items = []
    while blob:
        n = int.from_bytes(blob[:4], "little")
        items.append(blob[4:4 + n])
        blob = blob[4 + n:]
    outcomes = []
    for data in items:
        out, failures = uncompile._core.decompile(data, version, [])
        assert not failures, failures
        compile(out, "<decompiled>", "exec")
        result = verify_source(data, out, version=version)
        assert result.equivalent, str(result) + "\n" + out
        outcomes.append(out.strip())
    if version in ("3.12", "3.13"):
        assert outcomes == ["(x async for x in iterable)"]
        return
    host = "f" if version == "3.11" else "_"
    method = "m" if version == "3.11" else "_"
    assert outcomes == ["async def %s():\n    [x async for x in iterable]" % host,
                        "async def %s():\n    {x: k async for x in iterable}" % host,
                        "(x async for x in iterable)",
                        "async def %s():\n    {await x for x in iterable}" % method]


@pytest.mark.parametrize("version", ["3.12", "3.13"])
def test_generic_parameters_code_objects_on_their_own(version):
    """A `<generic parameters of X>` code object (PEP 695) on its own decompiles to the generic
    definition; `...` stands for the default values its caller passes."""
    exe = require(version)
    source = ("def f(z):\n    def g[T: int, **P](x: T = z, *a: T, k=1) -> T:\n        return x\n"
              "    class C[T](list[T], metaclass=type):\n        def m[U](self, u: U) -> T:\n            return super().m(u)\n"
              "    type A[*Ts] = tuple[*Ts]\n    return g, C, A\n")
    texts = []
    for data in _marshalled_items(exe, source):
        out, failures = uncompile._core.decompile(data, version, [])
        assert not failures, failures
        result = verify_source(data, out, version=version)
        assert result.equivalent, str(result) + "\n" + out
        texts.append(out.splitlines()[0])
    assert texts == ["def g[T: int, **P](x: T = ..., *a: T, k=...) -> T:", "class C[T](list[T], metaclass=type):",
                     "type A[*Ts] = tuple[(*Ts,)]"]


@pytest.mark.parametrize("version", ["3.12", "3.13"])
def test_refused_generic_parameters_leave_a_stub(version):
    """A `<generic parameters of X>` code object the decompiler refuses (here: a type parameter
    whose name is no string) is refused on its own: X becomes a stub that raises, the rest of the
    module is decompiled."""
    exe = require(version)
    script = ("import marshal, sys, types\n"
              "mod = compile('import functools\\n@functools.cache\\ndef f[T](x: T): pass\\nclass C[T]: pass\\ny = 1\\n', 'm', 'exec')\n"
              "consts = [c.replace(co_consts=tuple(5 if k == 'T' else k for k in c.co_consts))\n"
              "          if isinstance(c, types.CodeType) else c for c in mod.co_consts]\n"
              "sys.stdout.buffer.write(marshal.dumps(mod.replace(co_consts=tuple(consts))))\n")
    data = subprocess.run([exe, "-c", script], capture_output=True, check=True).stdout
    out, failures = uncompile._core.decompile(data, version, [])
    assert [f[0] for f in failures] == ["<generic parameters of f>", "<generic parameters of C>"]
    assert out.splitlines() == [
        "import functools", "", "", "@functools.cache", "def f(*args, **kwargs):",
        "    raise RuntimeError('uncompile could not decompile <generic parameters of f>: a type parameter of unusual bytecode')",
        "", "",
        "class C:",
        "    raise RuntimeError('uncompile could not decompile <generic parameters of C>: a type parameter of unusual bytecode')",
        "", "",
        "y = 1"]


def _marshalled_items(exe, source, items="[c for c in ns['f'].__code__.co_consts if hasattr(c, 'co_code')]"):
    """Marshal data of each code object that `items` (an expression over the namespace `ns` that
    `source` ran in) names, written by `exe`."""
    script = ("import marshal, sys\nns = {}\nexec(sys.argv[1], ns)\n"
              "for c in " + items + ":\n"
              "    data = marshal.dumps(c)\n"
              "    sys.stdout.buffer.write(len(data).to_bytes(4, 'little') + data)\n")
    blob = subprocess.run([exe, "-c", script, source], capture_output=True, check=True).stdout
    while blob:
        n = int.from_bytes(blob[:4], "little")
        yield blob[4:4 + n]
        blob = blob[4 + n:]


def test_decompile_verify_marks_refusals():
    # (Something the decompiler refuses on this interpreter: a match guard that holds a
    # conditional expression.)
    f = function("def f(x, c):\n    match x:\n        case [a] if (a if c else -a) > 0:\n            return a\n"
                 "        case _:\n            return None\n", "f")
    out = uncompile.decompile(f, verify=True)
    assert out.failures, "decompiled now: choose another refused construct for this test"
    [verdict] = out.verification.verdicts
    assert verdict.level == "not decompiled" and not verdict.decompiled and not verdict.equivalent
    assert verdict.first_difference == out.failures[0].reason


# ---- other versions: subprocesses of the pyenv interpreters -----------------------------------

SUPPORTED = """
def f(a, b):
    if a < b:
        a = b
    return a

def g(x, *args, k=1, **kw):
    y = x.attr + len(args) * k
    return [y, args, {"k": k}, kw]
"""


@pytest.mark.parametrize("version", ["3.8", "3.13"])
def test_cross_version_pyc(pyc_of, version):
    pyc = pyc_of(version, SUPPORTED)
    data = pyc.read_bytes()
    out = uncompile.decompile(data, verify=True)
    result = out.verification
    assert result.version == version
    assert result.equivalent, str(result) + "\n" + out
    assert [v.qualname for v in result.verdicts] == ["<module>", "f", "g"]
    flipped = verify_source(data, SUPPORTED.replace("a < b", "a >= b"))
    assert not flipped.equivalent
    assert [v.level for v in flipped.verdicts] == ["equivalent", "recompiles", "equivalent"]
    assert "COMPARE_OP" in flipped.verdicts[1].first_difference
    broken = verify_source(data, "def f(:\n")
    assert not broken.recompiles and broken.compile_error.startswith("SyntaxError")


@pytest.mark.parametrize("version", ["3.8", "3.13"])
def test_cross_version_function_marshal(version):
    exe = require(version)
    script = ("import marshal, sys\nns = {}\nexec(sys.argv[1], ns)\n"
              "sys.stdout.buffer.write(marshal.dumps(ns['outer'].__code__))")
    data = subprocess.run([exe, "-c", script, NESTED], capture_output=True, check=True).stdout
    result = verify_source(data, NESTED, version=version)
    assert result.equivalent, str(result)
    assert result.verdicts[1].qualname == "outer.<locals>.helper"
    changed = verify_source(data, NESTED.replace("v * 2", "v * 3"), version=version)
    assert [v.qualname for v in changed.verdicts if not v.equivalent] == ["outer.<locals>.helper"]


@pytest.mark.parametrize("version", [v for v in VERSIONS if v != RUNNING])
def test_rich_module_equivalent_to_itself_in_every_version(pyc_of, version):
    source = rich(version)
    data = pyc_of(version, source).read_bytes()
    with Recompiler(version) as worker:
        same = verify_source(data, source, recompiler=worker)
        assert same.equivalent, str(same)
        other = verify_source(data, source.replace("total += i", "total -= i"), recompiler=worker)
        assert [v.qualname for v in other.verdicts if not v.equivalent] == ["gen"]


SPLIT_LINES = """
def f(a, b):
    x = (a,
         b)
    return [v
            for v in x
            if v]
"""


def test_local_pairs_of_313_are_line_layout(pyc_of):
    # 3.13 joins two LOAD_FAST/STORE_FAST into one instruction only when they share a line.
    data = pyc_of("3.13", SPLIT_LINES).read_bytes()
    joined = "def f(a, b):\n    x = (a, b)\n    return [v for v in x if v]\n"
    assert verify_source(data, joined).equivalent
    swapped = verify_source(data, joined.replace("(a, b)", "(b, a)"))
    assert [v.qualname for v in swapped.verdicts if not v.equivalent] == ["f"]
    assert "LOAD_FAST" in swapped.verdicts[1].first_difference


def test_missing_interpreter_is_a_clear_error(pyc_of, monkeypatch):
    data = pyc_of("3.8", SUPPORTED).read_bytes()
    monkeypatch.setenv("UNCOMPILE_PYTHON_3_8", "/nonexistent/python3.8")
    with pytest.raises(RecompileError, match="UNCOMPILE_PYTHON_3_8"):
        verify_source(data, SUPPORTED)
    monkeypatch.delenv("UNCOMPILE_PYTHON_3_8")
    monkeypatch.setenv("PATH", "/nonexistent")
    monkeypatch.setenv("UNCOMPILE_PYENV_ROOT", "/nonexistent")
    with pytest.raises(RecompileError, match="no Python 3.8 interpreter"):
        uncompile.decompile(data, verify=True)


def test_wrong_interpreter_is_refused(pyc_of, monkeypatch):
    data = pyc_of("3.8", SUPPORTED).read_bytes()
    monkeypatch.setenv("UNCOMPILE_PYTHON_3_8", require("3.9"))
    with pytest.raises(RecompileError, match="is Python 3.9, not 3.8"):
        verify_source(data, SUPPORTED)


# ---- the CLI -------------------------------------------------------------------------------------

@pytest.mark.parametrize("version", ["3.8", "3.13"])
def test_cli_verify_equivalent(cli, pyc_of, version):
    pyc = pyc_of(version, SUPPORTED)
    proc = subprocess.run([cli, "verify", str(pyc)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "CPython %s" % version in proc.stdout
    for name in ("<module>", "f", "g"):
        assert "  %s (line " % name in proc.stdout
    assert proc.stdout.count(": equivalent") == 3
    assert "summary: 1 file, 3 code objects: 3 equivalent, 0 not equivalent" in proc.stdout


@pytest.mark.parametrize("version", ["3.8", "3.13"])
def test_cli_verify_not_equivalent(cli, pyc_of, version):
    # Something the decompiler refuses: a return whose value a finally body's `break` drops (3.8),
    # a match guard that holds a conditional expression.
    refused = {"3.8": "def h(x):\n    for i in x:\n        try:\n            return i\n        finally:\n            break\n",
               "3.13": "def h(x, c):\n    match x:\n        case [a] if (a if c else -a) > 0:\n            return a\n"
                       "        case _:\n            return None\n"}
    source = SUPPORTED + "\n" + refused[version]
    pyc = pyc_of(version, source)
    good = pyc_of(version, SUPPORTED)
    proc = subprocess.run([cli, "verify", str(good), str(pyc)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "h (line 11): NOT equivalent: not decompiled" in proc.stdout
    assert "summary: 2 files, 7 code objects: 6 equivalent, 1 not equivalent (1 not decompiled); 1 of 2 files" \
        in proc.stdout


def test_cli_verify_errors(cli, pyc_of, tmp_path):
    assert subprocess.run([cli, "verify"], capture_output=True).returncode == 2
    pyc = pyc_of("3.8", SUPPORTED)
    env = dict(os.environ, PATH="/nonexistent", UNCOMPILE_PYENV_ROOT=str(tmp_path))
    env.pop("UNCOMPILE_PYTHON_3_8", None)
    proc = subprocess.run([cli, "verify", str(pyc)], capture_output=True, text=True, env=env)
    assert proc.returncode == 1
    assert "no Python 3.8 interpreter found" in proc.stderr and "UNCOMPILE_PYTHON_3_8" in proc.stderr
    bad = tmp_path / "bad.pyc"
    bad.write_bytes(b"\x00" * 8)
    proc = subprocess.run([cli, "verify", str(bad)], capture_output=True, text=True)
    assert proc.returncode == 1 and "bad.pyc" in proc.stderr


def test_cli_and_api_agree(cli, pyc_of):
    pyc = pyc_of("3.13", RICH_310)
    data = pyc.read_bytes()
    api = uncompile.decompile(data, verify=True).verification
    proc = subprocess.run([cli, "verify", str(pyc)], capture_output=True, text=True, timeout=120)
    lines = [l.strip() for l in proc.stdout.splitlines() if l.startswith("  ") and "(line " in l]
    assert len(lines) == len(api.verdicts)
    for line, verdict in zip(lines, api.verdicts):
        assert line.startswith("%s (line %d): " % (verdict.qualname, verdict.firstlineno))
        assert line.endswith(": equivalent") == verdict.equivalent, (line, verdict)


# ---- docstrings -----------------------------------------------------------------------------------

# Docstrings as people write them: multi-line, indented with their body, quotes and backslashes in
# them, a method's (recompiled inside a class) and a closure's (inside a function binding its free
# variable): the decompiled text writes them as the same triple-quoted blocks.
DOCSTRINGS = '''
"""Module doc.

Second paragraph.
"""


def plain(a):
    """Return the thing.

    More text, with 'single' and "double" quotes, a \\\\ backslash,
    three quotes \\""" and a closing "quote"
    """
    return a


def one_line():
    """Just one line."""
    return 1


def quoted_end():
    """Ends with a "quote\\""""


def pattern():
    r"""Matches \\d+ and \\w.

    Written raw, as PEP 257 asks of docstrings with backslashes.
    """


class Holder:
    """A class.

        Indented further.
    """

    def method(self):
        """
        Starts on the line after the quotes.
        """
        return self


def make(n):
    def inner(k):
        """Adds n.

        Nested one level deeper.
        """
        return n + k
    return inner
'''


def _docstring_functions(version):
    exe = require(version)
    script = ("import marshal, sys\nns = {}\nexec(sys.argv[1], ns)\nout = []\n"
              "for f in (ns['plain'], ns['one_line'], ns['Holder'].method, ns['make'](1)):\n"
              "    out.append(marshal.dumps(f.__code__))\n"
              "sys.stdout.buffer.write(marshal.dumps(out))")
    import marshal
    return marshal.loads(subprocess.run([exe, "-c", script, DOCSTRINGS], capture_output=True, check=True).stdout)


@pytest.mark.parametrize("version", VERSIONS)
def test_docstrings_written_as_blocks_and_equivalent(pyc_of, version):
    data = pyc_of(version, DOCSTRINGS).read_bytes()
    out = uncompile.decompile(data, verify=True)
    assert out.verification.equivalent, str(out.verification) + "\n" + out
    # The module's and functions' docstrings read as in the source (3.13 strips the indentation
    # from the constants; the decompiled text indents them with their body again).
    assert '"""Module doc.\n\nSecond paragraph.\n"""\n' in out
    assert ('    """Return the thing.\n\n    More text, with \'single\' and "double" quotes, a \\\\ backslash,\n'
            '    three quotes \\""" and a closing "quote"\n    """\n') in out
    assert '    """Ends with a "quote\\""""\n' in out
    assert '    """Just one line."""\n' in out
    assert ('    r"""Matches \\d+ and \\w.\n\n    Written raw, as PEP 257 asks of docstrings with backslashes.\n'
            '    """\n') in out
    assert '        """\n        Starts on the line after the quotes.\n        """\n' in out
    # Definitions set apart as PEP 8 asks: two empty lines in a module, one in a class.
    assert '    return a\n\n\ndef one_line():\n' in out
    assert '    """\n\n    def method(self):\n' in out
    # Each function alone, recompiled where it was compiled (a class, a function binding `n`):
    # nesting the text must not indent the docstrings' later lines, which are part of their value.
    for data in _docstring_functions(version):
        text, failures = _core.decompile(data, version, [])
        assert not failures
        result = verify_source(data, text, version=version)
        assert result.equivalent, str(result)


def test_docstrings_of_a_decompiled_class_keep_their_value():
    ns = {}
    exec(DOCSTRINGS, ns)
    out = uncompile.decompile(ns["Holder"], verify=True)
    assert out.verification.equivalent, str(out.verification) + "\n" + out
    assert '    def method(self):\n        """\n        Starts on the line after the quotes.\n        """\n' in out
    inner = ns["make"](2)
    result = uncompile.decompile(inner, verify=True)
    assert result.verification.equivalent, str(result.verification) + "\n" + result


def test_indent_source_leaves_string_continuation_lines():
    text = 'def f():\n    """Doc.\n\n    More.\n    """\n    s = \'a\\\n b\'  # "x\n    return "#"\n'
    assert _core.indent_source(text, "  ") == (
        '  def f():\n      """Doc.\n\n    More.\n    """\n      s = \'a\\\n b\'  # "x\n      return "#"\n')
    assert _core.indent_source("x = 1", "    ") == "    x = 1\n"
    assert _core.indent_source("", "    ") == ""
