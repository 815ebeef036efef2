"""Random programs, decompiled, compute what the originals compute (tools/program_fuzz.py).

A fixed seed's modules of random functions (nested if/loops/try/with/match, returns and breaks
anywhere, comprehensions, closures, generators) are compiled by each interpreter, decompiled by
the CLI and run from both sources on the same arguments. Any function whose outcome (return value
or exception, and the trace of its calls) differs, or output that does not load, fails the test;
refusals (loud stubs) are allowed. Larger runs: `python tools/program_fuzz.py --modules 50`.
"""
import os
import subprocess
import sys

import pytest

from conftest import VERSIONS, interpreter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("version", VERSIONS)
def test_random_programs_compute_the_same(cli, version):
    if interpreter(version) is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    run = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "program_fuzz.py"), "--versions", version,
                          "--seed", "101", "--modules", "2", "--functions", "25", "--cli", cli],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
    line = [l for l in run.stdout.splitlines() if l.startswith(version + ":")][-1]
    functions, same = int(line.split()[1]), int(line.split(",")[1].split()[0])
    assert functions == 50 and same > 0, line
