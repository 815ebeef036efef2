"""Benchmark: how much compile time `uncompile.prepare_debug` adds, against no dump and depyf's.

    python bench/compile_overhead.py [--reps 5] [--models gpt2,cnn] [--backends inductor,aot_eager]
                                     [--kernel-cache warm|cold] [--depyf-python PATH] [--json FILE]

Measures the wall time of the first call of a `torch.compile`d model (the call that compiles),
inference under `torch.no_grad()`, of

  gpt2 - a 2-layer GPT-2 (transformers' GPT2LMHeadModel from `GPT2Config(n_layer=2)`, random
         weights, nothing downloaded), input ids of shape (2, 64);
  cnn  - a small CNN (two conv/ReLU/pool blocks and a linear layer), input (4, 3, 32, 32);

each in three modes:

  none      - torch.compile alone;
  uncompile - the call inside `with uncompile.prepare_debug(dump_dir):`;
  depyf     - the call inside `with depyf.prepare_debug(dump_dir):` (depyf 0.20.0), run by another
              interpreter, the one of a separate virtual environment (--depyf-python, default
              .venv-depyf-torch/bin/python). depyf is not a dependency of uncompile and none of its
              code is in this project; this script only imports it inside that interpreter.

For the two tools the time includes entering and leaving the `with` block (writing the dump).
Every measurement is a fresh process (imports and model construction are not timed). Repetitions
are interleaved (none, uncompile, depyf, none, ...) so that load from other jobs on the machine
spreads over the modes, and every mode of one repetition runs with the same PYTHONHASHSEED. The
table gives the median, the range, the ratio of medians to `none`, the fastest run, the lower
quartile, and the paired added time: per repetition the mode's time minus `none`'s, median and
quartiles (process times here can differ by a quarter of a second from run to run for all modes
alike; the paired differences and the fastest runs separate the modes where medians cannot).

Caches, the same for every mode: every process runs with TORCHINDUCTOR_FORCE_DISABLE_CACHES=1
(no FX-graph, AOTAutograd or PGO cache; prepare_debug sets this itself so that a cache hit cannot
hide a graph), and
  --kernel-cache warm (default): one TORCHINDUCTOR_CACHE_DIR per model and backend, filled by an
      untimed warm-up run, so compiled C++ kernels are loaded rather than rebuilt: the timed part
      is Dynamo, AOTAutograd and Inductor's lowering and code generation, where a tool's hooks cost
      the most in relative terms;
  --kernel-cache cold: a fresh, empty TORCHINDUCTOR_CACHE_DIR for every run, so every run also
      builds its kernels with the C++ compiler (a first compile on a new machine).

Setup (the project's usual venvs; torch pinned so that nothing pulls another torch):

    python3 -m venv .venv-bench && .venv-bench/bin/pip install torch==2.13.0
    .venv-bench/bin/pip install . && .venv-bench/bin/pip install transformers   # not -e: an editable
                                        # install compiles the modules at every import (~0.1 s)
    python3 -m venv .venv-depyf-torch && .venv-depyf-torch/bin/pip install torch==2.13.0
    .venv-depyf-torch/bin/pip install depyf==0.20.0 transformers
    .venv-bench/bin/python bench/compile_overhead.py

Raw results go to bench/results/compile_overhead.json (not committed) unless --json says otherwise.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODES = ("none", "uncompile", "depyf")


# -- the worker: one process, one measurement ------------------------------------------------
def build_model(name):
    import torch
    torch.manual_seed(0)
    if name == "gpt2":
        from transformers import GPT2Config, GPT2LMHeadModel
        config = GPT2Config(n_layer=2)
        model = GPT2LMHeadModel(config).eval()
        inputs = {"input_ids": torch.randint(0, config.vocab_size, (2, 64))}
    elif name == "cnn":
        model = torch.nn.Sequential(
            torch.nn.Conv2d(3, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(16, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
            torch.nn.Flatten(), torch.nn.Linear(32, 10)).eval()
        inputs = {"input": torch.randn(4, 3, 32, 32)}
    else:
        raise SystemExit("unknown model %r" % name)
    return model, inputs


def worker(model_name, backend, mode, dump_dir):
    import contextlib
    import warnings
    warnings.simplefilter("ignore")
    import torch
    model, inputs = build_model(model_name)
    compiled = torch.compile(model, backend=backend)
    if mode == "uncompile":
        import uncompile
        context = uncompile.prepare_debug(dump_dir)
    elif mode == "depyf":
        import depyf
        context = depyf.prepare_debug(dump_dir)
    else:
        context = contextlib.nullcontext()
    with torch.no_grad():
        start, cpu_start = time.perf_counter(), time.process_time()
        with context:
            out = compiled(**inputs)
        elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu_start
    files = sum(len(fs) for _, _, fs in os.walk(dump_dir)) if mode != "none" else 0
    logits = out.logits if hasattr(out, "logits") else out
    return {"seconds": elapsed, "cpu_seconds": cpu, "dump_files": files, "torch": torch.__version__,
            "checksum": float(logits.double().sum())}


# -- the driver -----------------------------------------------------------------------------
def run_one(python, model, backend, mode, cache_dir, timeout, rep=0):
    with tempfile.TemporaryDirectory(prefix="uncompile-bench-") as tmp:
        # The same hash seed for every mode of a repetition: set and dict orders (and so some of the
        # compiler's work) then match across the modes compared, and the paired differences cancel it.
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=cache_dir or os.path.join(tmp, "inductor-cache"),
                   TORCHINDUCTOR_FORCE_DISABLE_CACHES="1", PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED=str(rep + 1))
        cmd = [python, os.path.abspath(__file__), "--worker", model, backend, mode, os.path.join(tmp, "dump")]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, cwd=tmp)
    if proc.returncode != 0:
        return {"error": (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["exit %d" % proc.returncode]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def ratio(value, base, mode):
    if not base or mode == "none":
        return "1" if mode == "none" else "-"
    return "%.3f (%+.1f%%)" % (value / base, 100 * (value / base - 1))


def quartiles(values):
    """(lower quartile, upper quartile) of at least one value."""
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4, method="inclusive")
    return q[0], q[2]


def paired(runs, base_runs):
    """The time a mode adds, from the differences to `none` within each repetition (same hash seed,
    run one after the other): median and quartiles in ms. Pairing cancels what a repetition shares."""
    base = {r["rep"]: r["seconds"] for r in base_runs}
    diffs = [1000 * (r["seconds"] - base[r["rep"]]) for r in runs if r["rep"] in base]
    if not diffs:
        return "-"
    low, high = quartiles(diffs)
    return "%+.0f ms (%+.0f, %+.0f)" % (statistics.median(diffs), low, high)


def fmt_range(values):
    return "%.2f-%.2f" % (min(values), max(values)) if values else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--models", default="gpt2,cnn")
    parser.add_argument("--backends", default="inductor,aot_eager")
    parser.add_argument("--modes", default=",".join(MODES))
    parser.add_argument("--kernel-cache", choices=["warm", "cold"], default="warm")
    parser.add_argument("--depyf-python", default=os.path.join(ROOT, ".venv-depyf-torch", "bin", "python"))
    parser.add_argument("--timeout", type=int, default=900)
    parser.add_argument("--json", default=os.path.join(ROOT, "bench", "results", "compile_overhead.json"))
    parser.add_argument("--worker", nargs=4, metavar=("MODEL", "BACKEND", "MODE", "DUMP_DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(*args.worker)))
        return

    modes = [m for m in args.modes.split(",") if m]
    pythons = {"none": sys.executable, "uncompile": sys.executable, "depyf": args.depyf_python}
    if "depyf" in modes and not os.path.exists(args.depyf_python):
        print("no %s: depyf left out (see the setup in this script's docstring)" % args.depyf_python)
        modes.remove("depyf")
    results = {}
    started = time.time()
    for model in args.models.split(","):
        for backend in args.backends.split(","):
            cache_dir = tempfile.mkdtemp(prefix="uncompile-bench-kernels-") if args.kernel_cache == "warm" else None
            try:
                if cache_dir:
                    run_one(sys.executable, model, backend, "none", cache_dir, args.timeout)  # untimed warm-up
                for rep in range(args.reps):
                    for mode in modes:
                        r = dict(run_one(pythons[mode], model, backend, mode, cache_dir, args.timeout, rep), rep=rep)
                        results.setdefault("%s/%s/%s" % (model, backend, mode), []).append(r)
                        print("%-6s %-9s %-9s rep %d: %s" % (model, backend, mode, rep, "%.2f s wall, %.2f s cpu" % (
                            r["seconds"], r["cpu_seconds"]) if "seconds" in r else r), flush=True)
            finally:
                if cache_dir:
                    shutil.rmtree(cache_dir, ignore_errors=True)

    rows = ["", "First call (compile) of torch.compile'd models, inference, kernel cache %s, %d reps each; "
            "wall time and CPU time of the process (all its threads), seconds:" % (args.kernel_cache, args.reps), "",
            "| model | backend | mode | wall median | wall range | wall x none | CPU median | CPU x none | "
            "fastest | lower quartile | paired added wall, median (quartiles) | dump files |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for model in args.models.split(","):
        for backend in args.backends.split(","):
            base_rs = [r for r in results.get("%s/%s/none" % (model, backend), []) if "seconds" in r]
            base = statistics.median(r["seconds"] for r in base_rs) if base_rs else None
            base_cpu = statistics.median(r["cpu_seconds"] for r in base_rs) if base_rs else None
            for mode in modes:
                rs = results.get("%s/%s/%s" % (model, backend, mode), [])
                ok = [r for r in rs if "seconds" in r]
                errors = [r["error"] for r in rs if "error" in r]
                if not ok:
                    rows.append("| %s | %s | %s | failed: %s | | | | | | | | |" % (model, backend, mode, errors[:1]))
                    continue
                secs, cpus = [r["seconds"] for r in ok], [r["cpu_seconds"] for r in ok]
                median, cpu = statistics.median(secs), statistics.median(cpus)
                files = statistics.median(r["dump_files"] for r in ok)
                rows.append("| %s | %s | %s | %.2f | %s | %s | %.2f | %s | %.3f | %.3f | %s | %s |" % (
                    model, backend, mode, median, fmt_range(secs), ratio(median, base, mode), cpu,
                    ratio(cpu, base_cpu, mode), min(secs), quartiles(secs)[0],
                    paired(ok, base_rs) if mode != "none" else "", "%d" % files if mode != "none" else ""))
                if errors:
                    rows.append("|  |  | %s: %d runs failed: %s | | | | | | | | | |" % (mode, len(errors), errors[:1]))
    for key in sorted({k.rsplit("/", 1)[0] for k in results}):
        sums = {mode: {r["checksum"] for r in results.get("%s/%s" % (key, mode), []) if "checksum" in r} for mode in modes}
        if len(set().union(*sums.values())) > 1:
            rows.append("note: %s: outputs differ between modes or runs: %s" % (key, sums))
    print("\n".join(rows))
    print("\n(total %.0f s; python %s; torch %s)" % (
        time.time() - started, sys.version.split()[0],
        next((r["torch"] for rs in results.values() for r in rs if "torch" in r), "?")))
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump({"kernel_cache": args.kernel_cache, "reps": args.reps, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
