"""Benchmark: uncompile against depyf 0.20.0 on every function of each interpreter's standard library.

    python bench/bench_decompile.py [--versions 3.11,3.12] [--limit N] [--timeout S] [--no-depyf]
    python bench/bench_decompile.py --versions 3.11 --source SITE/torch,SITE/sympy --limit 500 --seed 1

For each CPython 3.8-3.13 that is installed (found like `uncompile verify` finds it:
UNCOMPILE_PYTHON_X_Y, pythonX.Y on PATH, pyenv), every top-level `Lib/*.py` of that interpreter is
compiled by it (files that do not compile are skipped) and every *function* code object in it,
recursively, is decompiled on its own: code objects with CO_OPTIMIZED (functions, methods,
lambdas, and comprehensions/generator expressions where they are separate code objects); module
and class bodies are not counted. Per tool and version it reports the share of code objects

  decompiled  - the tool returned source without error, refusal or timeout,
  recompiles  - ... and that source compiles with the same interpreter,
  equivalent  - ... and every code object in it matches the original after normalization
                (uncompile.verify, the same check for both tools),

and the median and 99th percentile of the time to decompile one code object (µs; uncompile's
through `uncompile._core.decompile`, marshal parsing included; depyf's around `depyf.decompile`
on the unmarshalled code object, in its worker). Each tool decompiles every function once, one
after the other, timing each call, in --passes passes (3 by default); a function's time is its
fastest pass, as timeit takes the best of its repeats: a single cold call per function moves by
up to 40% from run to run on a shared machine. The outputs (of the first pass) are verified
afterwards. A second table gives depyf's median and mean as multiples of uncompile's (depyf's
mean leaves out its timeouts), and the median ratio of the first pass alone. Both tools' output is verified the same way: a
function recompiled inside the context it came from (free variables bound by an enclosing
function, a class for `__class__`, imports of modules it calls into; see uncompile.verify).

depyf runs in `.venv-depyf-X.Y` (created by hand: `pythonX.Y -m venv .venv-depyf-X.Y &&
.venv-depyf-X.Y/bin/pip install depyf==0.20.0`) inside a worker process, with a per-function
timeout raised as a BaseException (depyf turns ordinary exceptions into its own) and the worker
killed and restarted if it does not answer. depyf is not a dependency of uncompile.

With --source, the files are every .py under the given directories instead (third-party code:
packages of that interpreter's site-packages), --limit of them drawn at random with --seed.

Prints a Markdown table; raw per-code-object results go to bench/results/ (not committed).
"""
import argparse
import json
import os
import select
import statistics
import struct
import subprocess
import sys
import time
from typing import Any, Dict, Iterator, List, Optional, Tuple

import uncompile
from uncompile import _core
from uncompile.errors import RecompileError, UncompileError
from uncompile.verify import Recompiler, find_interpreter, verify_source

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]

# Runs in the interpreter of the version: every function code object of Lib/*.py (or of every .py
# under the --source directories, a random sample of --limit files), marshalled.
EXTRACT = r'''
import glob, json, marshal, os, random, struct, sys, sysconfig, types
limit, sources, seed = int(sys.argv[1]), [d for d in sys.argv[2].split(",") if d], int(sys.argv[3])
if sources:
    lib = ",".join(sources)
    files = sorted(p for d in sources for p in glob.glob(os.path.join(d, "**", "*.py"), recursive=True))
    if limit > 0:
        random.Random(seed).shuffle(files)
        files = sorted(files[:limit])
else:
    lib = sysconfig.get_paths()["stdlib"]
    files = sorted(glob.glob(os.path.join(lib, "*.py")))
    if limit > 0:
        files = files[:limit]
out = sys.stdout.buffer
def qualname(code, parent, parent_qual):
    if hasattr(code, "co_qualname"):
        return code.co_qualname
    if parent is None or parent.co_name == "<module>":
        return code.co_name
    return parent_qual + (".<locals>." if parent.co_flags & 1 else ".") + code.co_name
def walk(code, parent, parent_qual, path):
    qual = qualname(code, parent, parent_qual) if parent is not None else "<module>"
    if code.co_flags & 1:
        head = json.dumps({"file": os.path.basename(path), "qualname": qual,
                           "firstlineno": code.co_firstlineno}).encode()
        data = marshal.dumps(code)
        out.write(struct.pack("<II", len(head), len(data)) + head + data)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            walk(const, code, qual, path)
skipped = []
for path in files:
    try:
        with open(path, "rb") as f:
            module = compile(f.read(), path, "exec", dont_inherit=True)
    except Exception as e:
        skipped.append(os.path.basename(path))
        continue
    walk(module, None, "", path)
sys.stderr.write(json.dumps({"lib": lib, "files": len(files), "skipped": skipped}) + "\n")
'''

# Runs in the depyf venv: decompiles marshalled code objects on request, each under a timer.
DEPYF_WORKER = r'''
import json, marshal, os, resource, signal, struct, sys, time
proto_in = os.fdopen(os.dup(0), "rb")
proto_out = os.fdopen(os.dup(1), "wb")
devnull = os.open(os.devnull, os.O_RDWR)
os.dup2(devnull, 0)
os.dup2(devnull, 1)
sys.stdout = open(os.devnull, "w")
limit = 3 << 30
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
sys.setrecursionlimit(10000)
import depyf

class Timeout(BaseException):
    pass

def on_alarm(signum, frame):
    raise Timeout()

signal.signal(signal.SIGALRM, on_alarm)
timeout = float(sys.argv[1])
proto_out.write(b"ready\n")
proto_out.flush()
while True:
    head = proto_in.read(4)
    if len(head) < 4:
        break
    (n,) = struct.unpack("<I", head)
    code = marshal.loads(proto_in.read(n))
    reply = {}
    t0 = time.perf_counter()
    try:
        signal.setitimer(signal.ITIMER_REAL, timeout)
        try:
            source = depyf.decompile(code)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        reply = {"status": "ok", "source": source}
    except Timeout:
        reply = {"status": "timeout"}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as e:
        reply = {"status": "error", "error": "%s: %s" % (type(e).__name__, str(e)[:200])}
    reply["us"] = (time.perf_counter() - t0) * 1e6
    data = json.dumps(reply).encode("utf-8", "surrogatepass")
    proto_out.write(struct.pack("<I", len(data)) + data)
    proto_out.flush()
'''


# ---- extraction --------------------------------------------------------------------------------

def extract(python: str, limit: int, sources: str = "", seed: int = 0) -> Tuple[List[Tuple[Dict[str, Any], bytes]], Dict[str, Any]]:
    proc = subprocess.run([python, "-I", "-c", EXTRACT, str(limit), sources, str(seed)], capture_output=True, check=True)
    data = proc.stdout
    records = []
    pos = 0
    while pos < len(data):
        nh, nd = struct.unpack_from("<II", data, pos)
        pos += 8
        head = json.loads(data[pos:pos + nh])
        pos += nh
        records.append((head, data[pos:pos + nd]))
        pos += nd
    info = json.loads(proc.stderr.decode().strip().splitlines()[-1])
    return records, info


# ---- checking one output -----------------------------------------------------------------------

def check(data: bytes, version: str, source: str, recompiler: Recompiler) -> Dict[str, Any]:
    try:
        result = verify_source(data, source, version=version, recompiler=recompiler)
    except RecompileError as e:
        return {"recompiles": False, "equivalent": False, "difference": "recompile worker failed: %s" % e}
    bad = next((v for v in result.verdicts if not v.equivalent), None)
    return {"recompiles": result.recompiles, "equivalent": result.equivalent,
            "difference": result.compile_error if not result.recompiles
            else None if bad is None else "%s: %s" % (bad.qualname, bad.first_difference)}


# ---- the tools ---------------------------------------------------------------------------------

def run_uncompile(records, version: str, recompiler: Recompiler, passes: int = 1) -> List[Dict[str, Any]]:
    # Passes, as for depyf: every function is decompiled and timed one after the other (as when a
    # module is decompiled), then the outputs are verified; so no recompilation between two timed
    # calls evicts the decompiler from the caches. A function's time is its fastest pass; its first
    # is kept as `first_us`.
    rows, outputs = [], []
    for p in range(passes):
        for k, (head, data) in enumerate(records):
            t0 = time.perf_counter_ns()
            try:
                text, failures = _core.decompile(data, version, [])
                us = (time.perf_counter_ns() - t0) / 1000
                error = None
            except UncompileError as e:
                us = (time.perf_counter_ns() - t0) / 1000
                text, failures, error = None, [], str(e)[:200]
            if p > 0:
                rows[k]["us"] = min(rows[k]["us"], us)
                continue
            row = dict(head, us=us, first_us=us)
            if error is not None:
                row.update(status="error", error=error)
            elif failures:
                row.update(status="refused", error=failures[0][2])
            else:
                row["status"] = "ok"
            rows.append(row)
            outputs.append(text)
    for row, (head, data), text in zip(rows, records, outputs):
        if row["status"] == "ok":
            row.update(check(data, version, text, recompiler))
    return rows


class DepyfWorker:
    def __init__(self, python: str, timeout: float):
        self.python, self.timeout = python, timeout
        self.proc: Optional[subprocess.Popen] = None
        self.restarts = 0

    def start(self) -> None:
        self.proc = subprocess.Popen([self.python, "-I", "-c", DEPYF_WORKER, str(self.timeout)],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if self._read_line(60) != b"ready\n":
            raise RuntimeError("depyf worker (%s) did not start" % self.python)

    def _read_line(self, timeout: float) -> bytes:
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        return self.proc.stdout.readline() if ready else b""

    def _read(self, n: int, deadline: float) -> Optional[bytes]:
        out = b""
        fd = self.proc.stdout.fileno()
        while len(out) < n:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(left, 0))
            if not ready:
                return None
            chunk = os.read(fd, n - len(out))
            if not chunk:
                return None
            out += chunk
        return out

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None

    def decompile(self, data: bytes) -> Dict[str, Any]:
        if self.proc is None:
            self.start()
        t0 = time.perf_counter()
        try:
            self.proc.stdin.write(struct.pack("<I", len(data)) + data)
            self.proc.stdin.flush()
        except OSError:
            self.kill()
            self.restarts += 1
            return {"status": "crash", "us": 0.0}
        deadline = time.monotonic() + self.timeout + 10
        head = self._read(4, deadline)
        body = self._read(struct.unpack("<I", head)[0], deadline) if head else None
        if body is None:  # hung where the timer could not interrupt it, or died
            status = "crash" if self.proc.poll() is not None else "timeout"
            self.kill()
            self.restarts += 1
            return {"status": status, "us": (time.perf_counter() - t0) * 1e6}
        return json.loads(body)


def run_depyf(records, version: str, recompiler: Recompiler, python: str, timeout: float,
              passes: int = 1) -> List[Dict[str, Any]]:
    worker = DepyfWorker(python, timeout)
    rows, outputs = [], []
    try:
        for head, data in records:
            row = dict(head)
            reply = worker.decompile(data)
            row.update(status=reply["status"], us=reply["us"], first_us=reply["us"])
            if "error" in reply:
                row["error"] = reply["error"]
            rows.append(row)
            outputs.append(reply.get("source"))
        # Later passes time again what finished in the first (a timeout is not run again).
        for _ in range(passes - 1):
            for row, (head, data) in zip(rows, records):
                if row["status"] in ("timeout", "crash"):
                    continue
                reply = worker.decompile(data)
                if reply["status"] not in ("timeout", "crash"):
                    row["us"] = min(row["us"], reply["us"])
    finally:
        worker.kill()
    for row, (head, data), source in zip(rows, records, outputs):
        if row["status"] == "ok":
            row.update(check(data, version, source, recompiler))
    return rows


# ---- summary -----------------------------------------------------------------------------------

def summarize(rows: List[Dict[str, Any]]) -> Dict[str, Any]:
    n = len(rows)
    times = sorted(r["us"] for r in rows if r["status"] not in ("timeout", "crash"))
    first = [r["first_us"] for r in rows if r["status"] not in ("timeout", "crash")]
    pct = lambda k: 100.0 * k / n if n else 0.0
    return {
        "code_objects": n,
        "decompiled": pct(sum(r["status"] == "ok" for r in rows)),
        "recompiles": pct(sum(bool(r.get("recompiles")) for r in rows)),
        "equivalent": pct(sum(bool(r.get("equivalent")) for r in rows)),
        "median_us": statistics.median(times) if times else None,
        "p99_us": times[min(len(times) - 1, int(0.99 * len(times)))] if times else None,
        "mean_us": statistics.fmean(times) if times else None,
        "first_pass_median_us": statistics.median(first) if first else None,
        "timeouts": sum(r["status"] == "timeout" for r in rows),
        "crashes": sum(r["status"] == "crash" for r in rows),
    }


def top_reasons(rows: List[Dict[str, Any]], k: int = 8) -> List[Tuple[str, int]]:
    counts: Dict[str, int] = {}
    for r in rows:
        if r["status"] != "ok":
            reason = r.get("error") or r["status"]
            counts[reason] = counts.get(reason, 0) + 1
    return sorted(counts.items(), key=lambda kv: -kv[1])[:k]


def table(summary: Dict[str, Dict[str, Dict[str, Any]]]) -> str:
    lines = ["| version | tool | functions | decompiled | recompiles | equivalent | median µs | p99 µs | timeouts |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    fmt = lambda v: "-" if v is None else "%.0f" % v if v >= 10 else "%.1f" % v
    for version, tools in summary.items():
        for tool, s in tools.items():
            if "skipped" in s:
                lines.append("| %s | %s | - | %s | | | | | |" % (version, tool, s["skipped"]))
                continue
            lines.append("| %s | %s | %d | %.1f%% | %.1f%% | %.1f%% | %s | %s | %d |" % (
                version, tool, s["code_objects"], s["decompiled"], s["recompiles"], s["equivalent"],
                fmt(s["median_us"]), fmt(s["p99_us"]), s["timeouts"] + s["crashes"]))
    # The peer measured in the same run: how many times uncompile's median and mean it takes.
    ratios = [(v, t["uncompile"], t["depyf 0.20.0"]) for v, t in summary.items()
              if "median_us" in t.get("uncompile", {}) and "median_us" in t.get("depyf 0.20.0", {})]
    if ratios:
        lines += ["", "| version | depyf median / uncompile median | depyf mean / uncompile mean | uncompile p99/median "
                      "| first pass alone: depyf median / uncompile median |",
                  "|---|---:|---:|---:|---:|"]
        for v, u, d in ratios:
            lines.append("| %s | %.1fx | %.1fx | %.1f | %.1fx |" % (
                v, d["median_us"] / u["median_us"], d["mean_us"] / u["mean_us"], u["p99_us"] / u["median_us"],
                d["first_pass_median_us"] / u["first_pass_median_us"]))
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--versions", default=",".join(VERSIONS), help="comma-separated, e.g. 3.11,3.12")
    parser.add_argument("--limit", type=int, default=0,
                        help="only the first N files of Lib/*.py (with --source: N files drawn at random; 0: all)")
    parser.add_argument("--source", default="",
                        help="comma-separated directories whose .py files (recursively) replace the standard "
                             "library, e.g. a version's site-packages/torch")
    parser.add_argument("--seed", type=int, default=0, help="with --source and --limit: which files are drawn")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per function for depyf")
    parser.add_argument("--no-depyf", action="store_true", help="benchmark uncompile only")
    parser.add_argument("--passes", type=int, default=3,
                        help="time every function this many times, in passes over all of them; a function's "
                             "time is its fastest pass (1: one cold call each)")
    parser.add_argument("--out", default=os.path.join(ROOT, "bench", "results"))
    args = parser.parse_args(argv)

    summary: Dict[str, Dict[str, Dict[str, Any]]] = {}
    raw: Dict[str, Any] = {"uncompile": uncompile.__version__, "args": vars(args), "versions": {}}
    for version in args.versions.split(","):
        try:
            python = find_interpreter(version)
        except RecompileError as e:
            print("skipping %s: %s" % (version, e), file=sys.stderr)
            continue
        t0 = time.time()
        records, info = extract(python, args.limit, args.source, args.seed)
        print("%s: %d functions from %d files of %s (%d skipped), %.1fs" % (
            version, len(records), info["files"], info["lib"], len(info["skipped"]), time.time() - t0), file=sys.stderr)
        entry: Dict[str, Any] = {"python": python, "lib": info["lib"], "files": info["files"],
                                 "skipped_files": info["skipped"], "tools": {}}
        summary[version] = {}
        with Recompiler(version, python) as recompiler:
            t0 = time.time()
            rows = run_uncompile(records, version, recompiler, args.passes)
            summary[version]["uncompile"] = summarize(rows)
            entry["tools"]["uncompile"] = {"summary": summary[version]["uncompile"], "top_failures": top_reasons(rows),
                                           "rows": rows, "seconds": time.time() - t0}
            print("  uncompile: %.1fs" % (time.time() - t0), file=sys.stderr)
            depyf_python = os.path.join(ROOT, ".venv-depyf-%s" % version, "bin", "python")
            if args.no_depyf:
                pass
            elif not os.path.exists(depyf_python):
                summary[version]["depyf 0.20.0"] = {"skipped": "no .venv-depyf-%s" % version}
            else:
                t0 = time.time()
                rows = run_depyf(records, version, recompiler, depyf_python, args.timeout, args.passes)
                summary[version]["depyf 0.20.0"] = summarize(rows)
                entry["tools"]["depyf 0.20.0"] = {"summary": summary[version]["depyf 0.20.0"],
                                                  "top_failures": top_reasons(rows), "rows": rows,
                                                  "seconds": time.time() - t0}
                print("  depyf: %.1fs" % (time.time() - t0), file=sys.stderr)
        raw["versions"][version] = entry

    print(table(summary))
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "bench-%s.json" % time.strftime("%Y%m%d-%H%M%S"))
    with open(path, "w") as f:
        json.dump(raw, f)
    print("\nraw results: %s" % os.path.relpath(path), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
