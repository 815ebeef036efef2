"""Writes bench/pgo/stdlib-sample.bin, the corpus the build trains the decompiler's profile on.

    python tools/make_pgo_corpus.py [--per-version N] [--seed S]

`pip install .` builds the C++ core with profile-guided optimization (CMakeLists.txt,
UNCOMPILE_PGO): an instrumented bench/decompile_driver decompiles this corpus once, and the
compiler lays out and inlines the code by what that run did. The corpus is a fixed random sample
of the function code objects of each CPython 3.8-3.13 standard library (Lib/*.py, as
bench/bench_decompile.py extracts them), marshalled by that interpreter, in the driver's record
format: u8 length + version, u32 length + name, u32 length + marshal data. Re-run it (with every
interpreter installed, e.g. through pyenv) to refresh the sample; the build never runs Python.
"""
import argparse
import os
import random
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from bench_decompile import VERSIONS, extract  # noqa: E402
from uncompile.verify import find_interpreter  # noqa: E402

OUT = os.path.join(ROOT, "bench", "pgo", "stdlib-sample.bin")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--per-version", type=int, default=250)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = bytearray()
    for version in VERSIONS:
        python = find_interpreter(version)
        if python is None:
            print("Python %s is not installed: the sample must hold every version" % version, file=sys.stderr)
            return 1
        records, _ = extract(python, 0)
        records = sorted(records, key=lambda r: (r[0]["file"], r[0]["firstlineno"], r[0]["qualname"]))
        chosen = random.Random("%s:%d" % (version, args.seed)).sample(records, min(args.per_version, len(records)))
        for head, data in chosen:
            name = ("%s:%s" % (head["file"], head["qualname"])).encode()
            v = version.encode()
            out += bytes([len(v)]) + v + struct.pack("<I", len(name)) + name + struct.pack("<I", len(data)) + data
        print("%s: %d of %d functions" % (version, len(chosen), len(records)))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as f:
        f.write(out)
    print("%s: %d bytes" % (os.path.relpath(OUT, ROOT), len(out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
