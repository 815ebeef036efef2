"""A walk-through of uncompile's torch.compile integration: dump everything the compiler made, then
run the program from the dumped files so that breakpoints in them are hit.

    python examples/torch_walkthrough.py [DUMP_DIR] [--backend inductor|aot_eager|eager] [--pdb]

The model has a loop (Dynamo unrolls it into the graph), a data-dependent `if` (a graph break: the
rest of forward() becomes a resume function, compiled on its own) and is called with two batch
sizes (a recompile). The first calls run inside `uncompile.prepare_debug(DUMP_DIR)`, the last one
inside `uncompile.debug()`. The script then prints which files to open. With --pdb, a pdb
breakpoint is set in the dumped transformed code before the debug() run, and pdb stops there
(type `c` to go on). An existing dump in DUMP_DIR (a directory with a manifest.json) is replaced.
"""
import argparse
import json
import os
import shutil
import sys
import warnings

import torch

import uncompile


class TinyNet(torch.nn.Module):
    def __init__(self, steps=3):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 16)
        self.fc2 = torch.nn.Linear(16, 4)
        self.steps = steps

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        for _ in range(self.steps):          # a loop: unrolled into the captured graph
            h = h + torch.tanh(h)
        if h.mean() > 0.5:                   # depends on the data: a graph break
            h = h * 0.5
        return self.fc2(h).softmax(dim=-1)


def _entries(manifest, kind):
    for function in manifest["functions"]:
        for record in function["compiles"]:
            for entry in record["files"]:
                if entry["kind"] == kind:
                    yield function, record, entry


def _line_of(path, needle, after=None):
    """1-based number of the first non-comment line holding `needle` (below the line holding `after`)."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = 0
    if after is not None:
        start = next((i + 1 for i, text in enumerate(lines) if after in text), len(lines))
    for number in range(start, len(lines)):
        text = lines[number]
        if needle in text and not text.lstrip().startswith("#"):
            return number + 1
    return None


def breakpoint_targets(dump_dir, manifest):
    """(path, line) of the call into the compiled graph in each compile's transformed code. A call
    runs the code of the first cache entry whose guards pass, newest first (0/1 before 0/0)."""
    targets = []
    for function, record, entry in _entries(manifest, "transformed"):
        if record["resume_function"]:
            continue
        path = os.path.join(dump_dir, entry["path"])
        # verified source calls __compiled_fn_N(...) itself; otherwise Dynamo's bytecode runs and
        # the instruction that loads __compiled_fn_N is listed in __dynamo_bytecode__()
        after = None if entry["verified"] else "def __dynamo_bytecode__"
        line = _line_of(path, "__compiled_fn", after=after)
        if line is not None:
            targets.append((path, line))
    return targets


WHAT = {
    "transformed": "Dynamo's transformed bytecode, decompiled",
    "resume": "resume function (the code after the graph break), decompiled",
    "guards": "guards: when this compile's code may run, each with your line",
    "captured_graph": "FX graph Dynamo captured",
    "aot_joint": "AOT joint forward+backward graph",
    "aot_forward": "AOT forward graph", "aot_backward": "AOT backward graph",
    "inductor": "Inductor's output code (kernels and the call() that runs them)",
}


def describe(dump_dir, manifest):
    """The guide printed at the end: what is where in the dump."""
    out = ["", "The dump: %s" % dump_dir,
           "  manifest.json  the index: every file, compile, recompile reason and graph break (docs/dump-format.md)"]
    for function in manifest["functions"]:
        fdir = function["dir"]
        out += ["", "%s (%s:%d) -> %s/" % (function["qualname"], os.path.relpath(function["filename"]),
                                           function["firstlineno"], fdir),
                "  original.py  the function as you wrote it",
                "  overview.py  all its compiles in one runnable file: guards, graphs, transformed code, dispatcher"]
        for record in function["compiles"]:
            what = "resume function %s" % record["resume_function"] if record["resume_function"] else "the function"
            out.append("  compile %s of %s (backend %s):" % (record["compile_id"], what, record["backend"]))
            if record["recompile_reason"]:
                out.append("    recompiled because: %s" % record["recompile_reason"])
            for gb in record["graph_breaks"]:
                out.append("    graph break at line %s: %s" % (gb["user_line"], gb["reason"]))
            for entry in record["files"]:
                if entry["kind"] not in WHAT:
                    continue
                note = ""
                if "verified" in entry:
                    note = ("; verified equivalent, this source runs" if entry["verified"] else
                            "; not verified, so Dynamo's own bytecode runs, listed at the end of the file")
                if entry["kind"] == "inductor":
                    note = "; %s, %d kernels" % (entry.get("part"), len(entry.get("kernels") or []))
                out.append("    %-34s %s%s" % (os.path.relpath(entry["path"], fdir), WHAT[entry["kind"]], note))
    out.append("")
    out.append("Breakpoints: code compiled inside prepare_debug, and everything inside `with uncompile.debug():`,")
    out.append("runs from these files. In pdb (`python -m pdb`, breakpoint()), at the call of the compiled graph:")
    for target in breakpoint_targets(dump_dir, manifest):
        out.append("  (Pdb) break %s:%d" % target)
    out.append("A call stops in the compile whose guards pass (the newest is checked first).")
    out.append("In an IDE, open the file, click the line's gutter, and run the script under its debugger.")
    out.append("Rerun with --pdb to see pdb stop there.")
    out.append("HTML report: uncompile report %s -o %s" % (dump_dir, os.path.join(dump_dir, "report")))
    return "\n".join(out)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dump_dir", nargs="?", default="torch_walkthrough_dump")
    parser.add_argument("--backend", default="inductor", choices=["inductor", "aot_eager", "eager"])
    parser.add_argument("--pdb", action="store_true", help="stop at a breakpoint in the dumped transformed code")
    args = parser.parse_args(argv)
    dump_dir = os.path.abspath(args.dump_dir)
    if os.path.isfile(os.path.join(dump_dir, "manifest.json")):
        shutil.rmtree(dump_dir)

    torch.manual_seed(0)
    model = TinyNet().eval()
    compiled = torch.compile(model, backend=args.backend)
    small, large = torch.randn(2, 8), torch.randn(5, 8)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # a not-verified decompilation warns; the manifest says so too
        with torch.no_grad(), uncompile.prepare_debug(dump_dir):
            first = compiled(small)        # compile 0/0 (+ the resume function's compile)
            second = compiled(large)       # a new batch size: recompile 0/1
    print("outputs:", tuple(first.shape), tuple(second.shape))

    with open(os.path.join(dump_dir, "manifest.json"), encoding="utf-8") as f:
        manifest = json.load(f)
    if args.pdb:
        targets = breakpoint_targets(dump_dir, manifest)
        if not targets:
            sys.exit("no transformed code was dumped")
        import pdb
        debugger = pdb.Pdb()
        for target in targets:
            debugger.set_break(*target)
            print("pdb: breakpoint at %s:%d" % target)
        print("pdb: `c` goes on to the debug() run, which stops at one of them")
        debugger.set_trace()
    with torch.no_grad(), uncompile.debug():
        again = compiled(small)            # runs from the dumped files: breakpoints there are hit
    with torch.no_grad():
        expected = model(small)
    print("debug() run equals eager:", bool(torch.allclose(again, expected, atol=1e-5)),
          "and equals the compiled run bit for bit:", bool(torch.equal(again, first)))
    print(describe(dump_dir, manifest))


if __name__ == "__main__":
    main()
