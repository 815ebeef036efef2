"""Decompiled standard-library modules, imported in place of the originals, pass the module's own
CPython regression tests (Lib/test/test_<module>.py), on every interpreter present.

Each module's .pyc (written by that interpreter) is decompiled by the CLI to a whole module; the
decompiled file is put first on sys.path, the test checks that the import really is that file, and
runs the regression tests against it.
"""
import subprocess

import pytest

from conftest import VERSIONS, interpreter

# Modules the decompiler reads completely on every version, with regression tests that import them
# by name (not ones imported at interpreter start-up, which could not be replaced).
MODULES = ["colorsys", "fractions", "calendar", "string"]

DRIVER = r"""
import sys
where, name = sys.argv[1], sys.argv[2]
sys.path.insert(0, where)
module = __import__(name)
import unittest
assert module.__file__.startswith(where), "imported %s, not the decompiled module" % module.__file__
import importlib
tests = importlib.import_module("test.test_" + name)
result = unittest.main(module=tests, argv=[sys.argv[0]], exit=False, verbosity=0).result
print("RESULT", result.testsRun, len(result.failures), len(result.errors))
"""


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", MODULES)
def test_decompiled_module_passes_its_regression_tests(cli, tmp_path, version, name):
    exe = interpreter(version)
    if exe is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    source = subprocess.run([exe, "-c", "import %s; print(%s.__file__)" % (name, name)],
                            capture_output=True, text=True, check=True).stdout.strip()
    (tmp_path / "pyc").mkdir()
    pyc = tmp_path / "pyc" / (name + ".pyc")
    subprocess.run([exe, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                    source, str(pyc)], check=True)
    decompiled = subprocess.run([cli, str(pyc)], capture_output=True, text=True, timeout=120)
    assert decompiled.returncode == 0, decompiled.stderr
    where = tmp_path / "decompiled"
    where.mkdir()
    (where / (name + ".py")).write_text(decompiled.stdout)
    run = subprocess.run([exe, "-c", DRIVER, str(where), name], capture_output=True, text=True, timeout=600,
                         cwd=str(tmp_path))
    lines = [line for line in run.stdout.splitlines() if line.startswith("RESULT")]
    assert lines, run.stdout[-2000:] + run.stderr[-3000:]
    ran, failures, errors = map(int, lines[-1].split()[1:])
    assert ran > 0 and failures == 0 and errors == 0, run.stderr[-3000:]
