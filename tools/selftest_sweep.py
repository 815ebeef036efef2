"""CPython's own regression-test modules, decompiled, run as tests: do they still pass?

    python tools/selftest_sweep.py VERSION [--cli PATH] [--only test_a,test_b] [--timeout S]

Test modules are the densest collection of odd constructs there is (test_grammar, test_patma,
test_coroutines, test_exceptions, ...), and they check themselves. For each `Lib/test/test_*.py`
(or those named): compile it with the interpreter, decompile the .pyc with the CLI, and run its
tests twice in fresh processes, once from the original source and once from the decompiled one
(loaded as the same module `test.NAME` with the same `__file__` and code file name, so data files,
relative imports and warning locations resolve alike). Then list the tests that pass from the
original and fail from the decompiled.

Some such differences are expected and are not wrong code: a test that checks line numbers of its
own code (tracebacks, tracing, `inspect.getsource`) sees the decompiled file's lines, and one that
checks its own bytecode sees the recompiled code. Every other difference is a decompiler bug. A
refused function is a stub that raises: the tests that run it fail by design and are not counted
(a module refused as a whole, or whose import runs a refused function, is skipped). Exits 1 when
any test passes only from the original.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

from regrtest_sweep import sweep_setup  # (tools/ is this script's directory)

DRIVER = r"""
import importlib.util, io, json, sys, types, unittest
source_path, original_path, name = sys.argv[1], sys.argv[2], sys.argv[3]
import test
module = types.ModuleType("test." + name)
module.__file__ = original_path
module.__package__ = "test"
module.__spec__ = importlib.util.spec_from_file_location("test." + name, original_path)
sys.modules["test." + name] = module
with open(source_path, encoding="utf-8") as f:  # under the original's name: warnings and tracebacks name it
    code = compile(f.read(), original_path, "exec", dont_inherit=True)
exec(code, module.__dict__)
suite = unittest.defaultTestLoader.loadTestsFromModule(module)
result = unittest.TextTestRunner(stream=io.StringIO(), verbosity=0).run(suite)
failed = result.failures + result.errors + [(t, "") for t in result.unexpectedSuccesses]
bad = sorted({t.id() for t, why in failed if "uncompile could not decompile" not in why})
refused = sorted({t.id() for t, why in failed if "uncompile could not decompile" in why} - set(bad))
sys.__stdout__.write("\nRESULT " + json.dumps({"run": result.testsRun, "bad": bad, "refused": refused}) + "\n")
"""


def run_tests(exe: str, source: str, original: str, name: str, cwd: str, timeout: float):
    try:
        proc = subprocess.run([exe, "-c", DRIVER, source, original, name], capture_output=True, text=True,
                              timeout=timeout, cwd=cwd, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return None, "timeout"
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("RESULT "):
            return json.loads(line[7:]), None
    last = proc.stderr.strip().splitlines()
    return None, "no result: " + (last[-1][:300] if last else "exit %d" % proc.returncode)


def main(argv=None) -> int:
    setup = sweep_setup(argv, __doc__.split("\n\n")[0], "comma-separated test module names (test_grammar,...)")
    if setup is None:
        return 2
    args, exe, lib = setup
    paths = sorted(glob.glob(os.path.join(lib, "test", "test_*.py")))
    if args.only:
        wanted = set(args.only.split(","))
        paths = [p for p in paths if os.path.basename(p)[:-3] in wanted]
    counts = {"same": 0, "differs": 0, "skipped (refused)": 0, "no result": 0}
    for original in paths:
        name = os.path.basename(original)[:-3]
        with tempfile.TemporaryDirectory() as tmp:
            pyc = os.path.join(tmp, name + ".pyc")
            compiled = subprocess.run([exe, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                                       original, pyc], capture_output=True)
            if compiled.returncode != 0:
                continue  # a test file that does not compile on purpose (bad syntax tests)
            decompiled = subprocess.run([args.cli, pyc], capture_output=True, text=True, timeout=120)
            # A refused function is a stub that raises: the tests that run it fail by design. They are
            # told apart by name (Class.test_method, also for functions nested in it); a refusal at
            # module level leaves nothing to run.
            refused = set(re.findall(r"could not decompile (\S+) \(line", decompiled.stderr))
            if decompiled.returncode != 0 and (not decompiled.stdout or "<module>" in refused):
                counts["skipped (refused)"] += 1
                print("%-28s skipped: %s" % (name, (decompiled.stderr.strip().splitlines() or ["?"])[-1][:120]), flush=True)
                continue
            refused_tests = {".".join(q.split(".<locals>.")[0].split(".")[:2]) for q in refused}
            source = os.path.join(tmp, name + ".py")
            with open(source, "w", encoding="utf-8") as f:
                f.write(decompiled.stdout)
            theirs, error = run_tests(exe, original, original, name, tmp, args.timeout)
            if theirs is None:
                counts["no result"] += 1
                print("%-28s original gives no result: %s" % (name, error), flush=True)
                continue
            ours, error = run_tests(exe, source, original, name, tmp, args.timeout)
            if ours is None and "uncompile could not decompile" in error:
                counts["skipped (refused)"] += 1
                print("%-28s skipped: a refused function runs at import (%s)" % (name, error[:100]), flush=True)
                continue
            if ours is None:
                counts["differs"] += 1
                print("%-28s DIFFERS: decompiled gives no result (%s); original ran %d" % (name, error, theirs["run"]), flush=True)
                continue
            only_ours = sorted(set(ours["bad"]) - set(theirs["bad"]))
            by_refusal = [t for t in only_ours if ".".join(t.split(" ")[0].split(".")[-2:]) in refused_tests] + ours["refused"]
            only_ours = [t for t in only_ours if t not in by_refusal]
            if only_ours or ours["run"] != theirs["run"]:
                counts["differs"] += 1
                print("%-28s DIFFERS: ran %d/%d, failing only decompiled: %s" % (
                    name, ours["run"], theirs["run"], " ".join(t.split(".", 1)[-1] for t in only_ours)[:2000]), flush=True)
            else:
                counts["same"] += 1
                print("%-28s same (%d tests, %d failing in both%s)" % (name, theirs["run"], len(theirs["bad"]), "; %d functions refused, %d tests failing by that" % (
                    len(refused), len(by_refusal)) if refused or by_refusal else ""), flush=True)
    print("summary:", ", ".join("%d %s" % (n, k) for k, n in counts.items()))
    return 1 if counts["differs"] else 0


if __name__ == "__main__":
    sys.exit(main())
