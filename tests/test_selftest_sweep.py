"""CPython's own regression-test modules, decompiled, still pass as tests (tools/selftest_sweep.py).

Test modules are full of odd constructs and check themselves: each one here is decompiled by the CLI
and run from the decompiled source, and no test may fail that passes from the original (tests of a
function the decompiler refuses are told apart: its stub raises by design). The modules are ones in
which running decompiled code found wrong output before: `import a.b as c`, complex constants with
signed zeros, `[] = it`, a lambda in an f-string, `return` in an async generator, a class body's
own `__classcell__`.
"""
import os
import subprocess
import sys

import pytest

from conftest import VERSIONS, interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODULES = "test_format,test_complex,test_generators,test_fstring,test_asyncgen,test_descr"


@pytest.mark.parametrize("version", VERSIONS)
def test_decompiled_test_modules_pass_themselves(cli, version):
    if interpreter(version) is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    run = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "selftest_sweep.py"), version, "--cli", cli,
                          "--only", MODULES], capture_output=True, text=True, timeout=1200)
    summary = [line for line in run.stdout.splitlines() if line.startswith("summary:")]
    assert summary and "0 differs" in summary[-1], run.stdout[-4000:] + run.stderr[-2000:]
    assert run.returncode == 0
    assert " same" in summary[-1] and not summary[-1].startswith("summary: 0 same"), summary
