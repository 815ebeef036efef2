"""Reading + decoding speed: uncompile's C++ core against CPython's marshal.loads + dis.

For every .py file of one interpreter's standard library (Lib/**, default 3.11) that compiles,
the .pyc is written once; then, with every file already in memory, each side reads all of them:

- uncompile (C++): parse the .pyc header, unmarshal, decode every code object's instructions with
  arguments resolved (bench_reader, built from bench/bench_reader.cpp);
- uncompile (Python API): the same through the extension, building Python records;
- CPython: marshal.loads + list(dis.get_instructions(code)) for every nested code object,
  run by that same interpreter.

Best of --repeats runs each. Prints µs per code object and the ratio to CPython.

    python bench/bench_reader.py [--version 3.11] [--repeats 5] [--limit N]
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from conftest import interpreter  # noqa: E402

COMPILE_ALL = r"""
import os, py_compile, sys
lib, out, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
paths = []
for dirpath, dirnames, filenames in os.walk(lib):
    dirnames[:] = sorted(d for d in dirnames if d not in ("site-packages", "__pycache__"))
    for name in sorted(filenames):
        if name.endswith(".py"):
            paths.append(os.path.join(dirpath, name))
written = []
for i, path in enumerate(paths):
    if limit and len(written) >= limit:
        break
    target = os.path.join(out, "%05d.pyc" % i)
    try:
        py_compile.compile(path, cfile=target, doraise=True)
    except Exception:
        continue
    written.append(target)
print("\n".join(written))
"""

CPYTHON_SIDE = r"""
import dis, json, marshal, sys, time
paths = open(sys.argv[1]).read().split()
repeats = int(sys.argv[2])
blobs = [open(p, "rb").read()[16:] for p in paths]
def walk(code):
    yield code
    for const in code.co_consts:
        if hasattr(const, "co_code"):
            yield from walk(const)
best = float("inf")
for _ in range(repeats):
    codes = instructions = 0
    start = time.perf_counter()
    for blob in blobs:
        for code in walk(marshal.loads(blob)):
            codes += 1
            instructions += len(list(dis.get_instructions(code)))
    best = min(best, time.perf_counter() - start)
print(json.dumps({"code_objects": codes, "instructions": instructions, "seconds": best}))
"""


def build_driver():
    build = ROOT / "build-bench"
    subprocess.run(["cmake", "-S", str(ROOT), "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release"],
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["ninja", "-C", str(build), "bench_reader"], check=True, stdout=subprocess.DEVNULL)
    return build / "bench_reader"


def python_api_side(paths, repeats):
    import time
    from uncompile import _core
    blobs = [pathlib.Path(p).read_bytes() for p in paths]
    best, codes = float("inf"), 0
    for _ in range(repeats):
        codes = 0
        start = time.perf_counter()
        for blob in blobs:
            codes += len(_core.code_records(blob, "", []))
        best = min(best, time.perf_counter() - start)
    return {"code_objects": codes, "seconds": best}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--version", default="3.11")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--limit", type=int, default=0, help="only the first N files")
    args = parser.parse_args()
    exe = interpreter(args.version)
    if exe is None:
        sys.exit("Python %s is not installed (pyenv)" % args.version)
    lib = subprocess.run([exe, "-c", "import os; print(os.path.dirname(os.__file__))"],
                         capture_output=True, text=True, check=True).stdout.strip()
    driver = build_driver()
    with tempfile.TemporaryDirectory() as tmp:
        paths = subprocess.run([exe, "-c", COMPILE_ALL, lib, tmp, str(args.limit)],
                               capture_output=True, text=True, check=True).stdout.split()
        listing = pathlib.Path(tmp, "files.txt")
        listing.write_text("\n".join(paths) + "\n")
        ours = json.loads(subprocess.run([str(driver), str(listing), str(args.repeats)],
                                         capture_output=True, text=True, check=True).stdout)
        peer = json.loads(subprocess.run([exe, "-c", CPYTHON_SIDE, str(listing), str(args.repeats)],
                                         capture_output=True, text=True, check=True).stdout)
        try:  # the extension reads any version's .pyc, whichever interpreter runs this script
            api = python_api_side(paths, args.repeats)
        except ImportError:
            api = None
    if ours["code_objects"] != peer["code_objects"] or ours["failed"]:
        print("warning: code object counts differ (uncompile %d, CPython %d, %d files failed)"
              % (ours["code_objects"], peer["code_objects"], ours["failed"]), file=sys.stderr)
    n = peer["code_objects"]
    us = lambda r: 1e6 * r["seconds"] / r["code_objects"]  # noqa: E731
    print("Python %s stdlib: %d files, %d code objects, %d instructions; best of %d runs\n"
          % (args.version, len(paths), n, peer["instructions"], args.repeats))
    print("| reader | µs per code object | speed-up vs CPython |")
    print("|---|---:|---:|")
    print("| CPython marshal.loads + dis.get_instructions | %.2f | 1.0× |" % us(peer))
    print("| uncompile C++ core (read + decode + resolve) | %.2f | %.1f× |" % (us(ours), us(peer) / us(ours)))
    if api:
        print("| uncompile Python API (`_core.code_records`) | %.2f | %.1f× |" % (us(api), us(peer) / us(api)))


if __name__ == "__main__":
    main()
