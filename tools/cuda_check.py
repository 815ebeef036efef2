"""Check the torch integration on a CUDA GPU (Inductor's Triton kernels), where the tests cannot.

    python tools/cuda_check.py WORK_DIR [--allow-torch MAJOR.MINOR]

CI and the test suite run on CPU only. On a machine with a CUDA GPU this script compiles, with
Inductor on the GPU,

  fn_break   - a function with a graph break and a data-dependent branch,
  cnn_train  - a small CNN, one training step (forward, backward, gradients),
  mlp_dynamic - an MLP called with three batch sizes under dynamic=True (a recompile),

each once plainly and once inside `uncompile.prepare_debug`, in fresh compiles, and compares
outputs and gradients bit for bit (deterministic algorithms on; a plain-vs-plain repeat tells
GPU nondeterminism apart from a change made by the dump). It then checks the dump: every
function's manifest entry, Inductor output files that hold Triton kernels, which transformed codes
are verified, and the warnings. Last, in a child process, it sets a pdb breakpoint in the body of
the dumped Inductor module's `call()` and checks that `uncompile.debug()` stops there.

--allow-torch lowers uncompile's minimum torch version for this run only (an older torch on the
GPU machine than uncompile supports): a probe of what works, not a supported configuration.
Exits 1 if any check fails; prints one line per check.
"""
import argparse
import json
import os
import subprocess
import sys
import warnings

import torch

FAILURES = []


def check(ok, what):
    print("%s %s" % ("ok  " if ok else "FAIL", what), flush=True)
    if not ok:
        FAILURES.append(what)


def allow_torch(text):
    if text:
        from uncompile._torch import _compat
        _compat.MIN_TORCH = tuple(int(p) for p in text.split("."))
        print("note: minimum torch lowered to %s for this probe" % text)


DEVICE = "cuda"


def programs():
    dev = DEVICE

    def fn_break(x):
        y = torch.sin(x) * 2
        if y.sum() > 0:  # data-dependent: a graph break
            y = y + 1
        print("graph break")
        return torch.relu(y) @ x.t()

    def make_cnn():
        torch.manual_seed(0)
        return torch.nn.Sequential(
            torch.nn.Conv2d(3, 8, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(2),
            torch.nn.Conv2d(8, 16, 3, padding=1), torch.nn.ReLU(), torch.nn.AdaptiveAvgPool2d(1),
            torch.nn.Flatten(), torch.nn.Linear(16, 10)).to(dev)

    def make_mlp():
        torch.manual_seed(1)
        return torch.nn.Sequential(torch.nn.Linear(32, 64), torch.nn.GELU(), torch.nn.Linear(64, 8)).to(dev)

    def run_fn(compile_kw):
        torch.manual_seed(2)
        x = torch.randn(16, 16, device=dev)
        f = torch.compile(fn_break, **compile_kw)
        return [f(x), f(-x)], []

    def run_cnn(compile_kw):
        model = make_cnn()
        torch.manual_seed(3)
        x, target = torch.randn(4, 3, 16, 16, device=dev), torch.randint(0, 10, (4,), device=dev)
        cm = torch.compile(model, **compile_kw)
        loss = torch.nn.functional.cross_entropy(cm(x), target)
        loss.backward()
        return [loss.detach()], [p.grad for p in model.parameters()]

    def run_mlp(compile_kw):
        model = make_mlp()
        cm = torch.compile(model, dynamic=True, **compile_kw)
        outs = []
        with torch.no_grad():
            for batch in (3, 5, 9):
                torch.manual_seed(batch)
                outs.append(cm(torch.randn(batch, 32, device=dev)))
        return outs, []

    return {"fn_break": run_fn, "cnn_train": run_cnn, "mlp_dynamic": run_mlp}


def same(a, b):
    return len(a) == len(b) and all(x.shape == y.shape and bool((x == y).all()) for x, y in zip(a, b))


def main_checks(work, allow):
    import uncompile
    allow_torch(allow)
    print("torch %s, %s, python %s" % (torch.__version__, torch.cuda.get_device_name(0) if DEVICE == "cuda" else DEVICE,
                                       sys.version.split()[0]))
    torch.use_deterministic_algorithms(True)
    kw = {"backend": "inductor"}
    for name, run in programs().items():
        torch._dynamo.reset()
        plain_out, plain_grad = run(kw)
        torch._dynamo.reset()
        again_out, again_grad = run(kw)
        deterministic = same(plain_out, again_out) and same(plain_grad, again_grad)
        torch._dynamo.reset()
        dump = os.path.join(work, "dump_" + name)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with uncompile.prepare_debug(dump):
                dump_out, dump_grad = run(kw)
        equal = same(plain_out, dump_out) and same(plain_grad, dump_grad)
        check(equal or not deterministic, "%s: outputs and gradients under prepare_debug equal the plain run's "
              "(bit for bit; plain runs repeat exactly: %s)" % (name, deterministic))
        with open(os.path.join(dump, "manifest.json")) as f:
            manifest = json.load(f)
        files = [e for fn in manifest["functions"] for c in fn["compiles"] for e in c["files"]]
        kinds = sorted({e["kind"] for e in files})
        inductor = [os.path.join(dump, e["path"]) for e in files if e["kind"] == "inductor"]
        triton = [p for p in inductor if "triton" in open(p).read()]
        transformed = [e for e in files if e["kind"] in ("transformed", "resume")]
        print("     %s: %d functions, %d files, kinds %s; %d Inductor files, %d with Triton kernels; "
              "%d/%d transformed/resume verified; %d warnings%s" % (
                  name, len(manifest["functions"]), len(files), ",".join(kinds), len(inductor), len(triton),
                  sum(1 for e in transformed if e.get("verified")), len(transformed), len(caught),
                  "".join("\n       warning: %s" % str(w.message)[:200] for w in caught)))
        check(bool(triton) or DEVICE != "cuda", "%s: the dump holds Inductor output with Triton kernels" % name)
        for path in inductor + [os.path.join(dump, e["path"]) for e in files if e["path"].endswith(".py")]:
            try:
                compile(open(path).read(), path, "exec")
            except SyntaxError as exc:
                check(False, "%s: %s compiles (%s)" % (name, path, exc))


def child_pdb(work, allow):
    """Dump fn_break, then run it from the dump with a breakpoint in the Inductor module's call()."""
    import pdb
    import uncompile
    allow_torch(allow)
    torch.use_deterministic_algorithms(True)
    run, dump = programs()["fn_break"], os.path.join(work, "dump_pdb")
    with uncompile.prepare_debug(dump):
        run({"backend": "inductor"})
    with open(os.path.join(dump, "manifest.json")) as f:
        manifest = json.load(f)
    kernel = next(os.path.join(dump, e["path"]) for fn in manifest["functions"] for c in fn["compiles"]
                  for e in c["files"] if e["kind"] == "inductor")
    lines = open(kernel).read().splitlines()
    start = next(i for i, t in enumerate(lines) if t.strip().startswith("def call("))
    line = next(i + 1 for i in range(start + 1, len(lines)) if lines[i].strip() and not lines[i].strip().startswith("#"))
    print("BREAK %s:%d" % (kernel, line), flush=True)
    debugger = pdb.Pdb()
    assert debugger.set_break(kernel, line) is None
    debugger.set_trace()
    with uncompile.debug():
        run({"backend": "inductor"})
    print("DONE", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("work")
    parser.add_argument("--allow-torch")
    parser.add_argument("--device", default="cuda", help="cpu: a dry run of this script without a GPU")
    parser.add_argument("--child-pdb", metavar="WORK", help=argparse.SUPPRESS)
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    global DEVICE
    DEVICE = args.device
    if args.child_pdb:
        child_pdb(args.child_pdb, args.allow_torch)
        return
    os.makedirs(args.work, exist_ok=True)
    main_checks(args.work, args.allow_torch)
    cmd = [sys.executable, os.path.abspath(__file__), args.work, "--child-pdb", args.work, "--device", DEVICE]
    if args.allow_torch:
        cmd += ["--allow-torch", args.allow_torch]
    proc = subprocess.run(cmd, input="continue\n" * 20, capture_output=True, text=True, timeout=400)
    breaks = [l.split(" ", 1)[1] for l in proc.stdout.splitlines() if l.startswith("BREAK ")]
    target = breaks[-1] if breaks else None
    stopped = target is not None and ("> %s(%s)" % tuple(target.rsplit(":", 1))) in proc.stdout
    check(stopped and "DONE" in proc.stdout, "pdb stops in the dumped Inductor module's call() under debug()")
    if not stopped:
        print((proc.stdout + proc.stderr)[-3000:])
    print("%d checks failed" % len(FAILURES) if FAILURES else "all checks passed")
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
