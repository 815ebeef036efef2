"""tools/reduce_refusal.py shrinks a refused function to the part that causes the refusal.

The decompiler is replaced by a stand-in CLI that "refuses" f_1 exactly when its code names
`marker`, so the smallest program the reducer can reach is known: f_1 down to the one statement
that calls marker(), every other function of the module gone.
"""
import os
import stat
import subprocess
import sys
import textwrap

import pytest

from conftest import interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSION = "%d.%d" % sys.version_info[:2]

FAKE_CLI = '''#!%s
import marshal, sys
data = open(sys.argv[1], "rb").read()
module = marshal.loads(data[16:])
def names(code):
    out = set(code.co_names)
    for c in code.co_consts:
        if hasattr(c, "co_names"):
            out |= names(c)
    return out
f_1 = next(c for c in module.co_consts if getattr(c, "co_name", None) == "f_1")
if "marker" in names(f_1):
    print("raise RuntimeError('uncompile could not decompile f_1: the marker is there')")
    sys.exit(1)
print("pass")
'''

MODULE = textwrap.dedent('''
    def f_0(a, b, c):
        return a
    def f_1(a, b, c):
        x = a + b
        for i in range(c):
            if x > i:
                x = x * 2
                try:
                    y = x // i
                except ZeroDivisionError:
                    marker(y)
                finally:
                    x -= 1
            else:
                x = [v for v in range(i) if v % 2]
        while x:
            x = x - 1
        return (x, y)
    def f_2(a, b, c):
        return b
''')


def fake_cli(tmp_path):
    path = tmp_path / "fake-uncompile"
    path.write_text(FAKE_CLI % sys.executable)
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return str(path)


def run_reducer(tmp_path, *extra):
    module = tmp_path / "m.py"
    module.write_text(MODULE)
    return subprocess.run([sys.executable, os.path.join(ROOT, "tools", "reduce_refusal.py"), str(module), "f_1",
                           "--version", VERSION, "--cli", fake_cli(tmp_path), *extra],
                          capture_output=True, text=True, timeout=300)


def test_reduces_to_the_cause(tmp_path):
    if interpreter(VERSION) is None:
        pytest.skip("Python %s is not installed (pyenv)" % VERSION)
    run = run_reducer(tmp_path, "--reason", "marker is there")
    assert run.returncode == 0, run.stderr
    body = run.stdout.strip().splitlines()
    assert body[0].startswith("def f_1(")
    assert "marker(" in run.stdout
    # Nothing else survives: the loop, the if, the try and every other statement are gone.
    assert len(body) == 2, run.stdout
    assert not any(word in run.stdout for word in ("for ", "while", "try", "if ", "return"))


def test_other_reason_is_not_reduced(tmp_path):
    if interpreter(VERSION) is None:
        pytest.skip("Python %s is not installed (pyenv)" % VERSION)
    run = run_reducer(tmp_path, "--reason", "some other refusal")
    assert run.returncode == 1
    assert "does not show it" in run.stderr
