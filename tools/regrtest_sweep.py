"""Decompiled standard-library modules against their own CPython regression tests, module by module.

    python tools/regrtest_sweep.py VERSION [--cli PATH] [--only a,b,c] [--timeout S]

For every top-level `Lib/NAME.py` of that interpreter that has a `Lib/test/test_NAME.py`: compile it
with the interpreter, decompile the .pyc with the CLI (modules with a refused function are listed
as skipped: their stubs would fail tests by design), put the decompiled file first on sys.path and
run `test.test_NAME` against it; run the same tests against the original module; print whether the
two results are the same. A module the test harness imports before ours can be put in place
(start-up modules such as os, or ones the unittest machinery uses) is reported as not replaceable.

Exits 1 when a decompiled module passes fewer tests than the original. Slow (the regression tests of
~100 modules, twice); tests/test_stdlib_regrtest.py runs a few of these in the test suite.
"""
import argparse
import glob
import os
import shutil
import subprocess
import sys
import tempfile

DRIVER = r"""
import sys
where, name = sys.argv[1], sys.argv[2]
if where != "-":
    sys.path.insert(0, where)
module = __import__(name)
if where != "-" and not module.__file__.startswith(where):
    print("NOT-REPLACEABLE")
    sys.exit(0)
import importlib, unittest
tests = importlib.import_module("test.test_" + name)
result = unittest.main(module=tests, argv=[sys.argv[0]], exit=False, verbosity=0).result
print("RESULT", result.testsRun, len(result.failures), len(result.errors))
"""


def run_tests(exe: str, where: str, name: str, cwd: str, timeout: float) -> str:
    try:
        proc = subprocess.run([exe, "-c", DRIVER, where, name], capture_output=True, text=True,
                              timeout=timeout, cwd=cwd)
    except subprocess.TimeoutExpired:
        return "timeout"
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith(("RESULT", "NOT-REPLACEABLE")):
            return line
    last = proc.stderr.strip().splitlines()
    return "no result: " + (last[-1][:150] if last else "?")


def sweep_setup(argv, description: str, only_help: str):
    """A sweep's command line: (arguments, the interpreter of that version, its stdlib directory),
    or None when that Python is not installed."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("version")
    parser.add_argument("--cli", default=shutil.which("uncompile") or "uncompile")
    parser.add_argument("--only", default="", help=only_help)
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per test run")
    args = parser.parse_args(argv)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
    from conftest import interpreter  # the tests' way of finding pyenv interpreters

    exe = interpreter(args.version)
    if exe is None:
        print("Python %s is not installed (pyenv)" % args.version, file=sys.stderr)
        return None
    lib = subprocess.run([exe, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
                         capture_output=True, text=True, check=True).stdout.strip()
    return args, exe, lib


def main(argv=None) -> int:
    setup = sweep_setup(argv, __doc__.split("\n\n")[0], "comma-separated module names")
    if setup is None:
        return 2
    args, exe, lib = setup
    names = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(lib, "*.py")))
    names = [n for n in names if os.path.exists(os.path.join(lib, "test", "test_%s.py" % n))]
    if args.only:
        wanted = set(args.only.split(","))
        names = [n for n in names if n in wanted]
    counts = {"same": 0, "fewer passes": 0, "skipped (refused)": 0, "not replaceable": 0, "other": 0}
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            pyc = os.path.join(tmp, name + ".pyc")
            subprocess.run([exe, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                            os.path.join(lib, name + ".py"), pyc], check=True)
            decompiled = subprocess.run([args.cli, pyc], capture_output=True, text=True, timeout=120)
            if decompiled.returncode != 0:
                counts["skipped (refused)"] += 1
                print("%-16s skipped: a function is refused" % name, flush=True)
                continue
            where = os.path.join(tmp, "decompiled")
            os.mkdir(where)
            with open(os.path.join(where, name + ".py"), "w") as f:
                f.write(decompiled.stdout)
            ours = run_tests(exe, where, name, tmp, args.timeout)
            if ours == "NOT-REPLACEABLE":
                counts["not replaceable"] += 1
                print("%-16s not replaceable (imported before the decompiled module)" % name, flush=True)
                continue
            original = run_tests(exe, "-", name, tmp, args.timeout)
            verdict = "same"
            if ours != original:
                o, d = original.split(), ours.split()
                if o[0] == d[0] == "RESULT" and int(d[2]) + int(d[3]) <= int(o[2]) + int(o[3]) and d[1] == o[1]:
                    verdict = "other"  # fewer failures than the original (tests that read the module's source)
                else:
                    verdict = "fewer passes"
            counts[verdict] += 1
            print("%-16s %-12s original: %s | decompiled: %s" % (name, verdict, original, ours), flush=True)
    print("summary:", ", ".join("%d %s" % (n, k) for k, n in counts.items()))
    return 1 if counts["fewer passes"] else 0


if __name__ == "__main__":
    sys.exit(main())
