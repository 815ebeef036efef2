"""Benchmark: CPU time of prepare_debug's own code on one compile, entry point by entry point.

    python bench/dump_hook_cost.py [--model cnn|gpt2] [--backend aot_eager|inductor]

The end-to-end benchmark (compile_overhead.py) measures whole processes, whose run-to-run spread on
a busy machine is larger than a few milliseconds of dump work. This one runs one compile inside
prepare_debug (same models, same cache settings) and sums the thread CPU time spent inside the
dump's entry points (trace handler, bytecode hook, start/stop, the trace filter) and inside a few
of its steps (inclusive, each counted once however deep it recurses). One JSON line of
{name: [ms, calls]}; "ours" is the total of the entry points. Interleave runs of two installs and
take medians to compare them.
"""
import argparse
import collections
import json
import os
import sys
import tempfile
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

ENTRY = ("start", "stop", "on_trace", "on_bytecode")
STEPS = ("finish", "_write_transformed", "_write_resume_files", "_write_original", "_write_guards",
         "_guards_from_tree", "_on_graph", "_back_fx_with_file", "_write_graph_nodes", "_write_overview",
         "write_manifest", "_write", "_on_inductor", "_kernels_of", "_link_kernels")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="cnn")
    parser.add_argument("--backend", default="aot_eager")
    args = parser.parse_args()
    warnings.simplefilter("ignore")
    os.environ["TORCHINDUCTOR_FORCE_DISABLE_CACHES"] = "1"
    import compile_overhead
    import torch
    import uncompile
    from uncompile._torch import _codemap, _overview, _session, _trace_filter

    spent, calls, inside = collections.Counter(), collections.Counter(), collections.Counter()

    def timed(owner, name, label):
        original = owner.__dict__[name]
        static = isinstance(original, staticmethod)
        function = original.__func__ if static else original

        def wrapper(*a, **k):
            if inside[label]:
                return function(*a, **k)
            inside[label] += 1
            start = time.thread_time()
            try:
                return function(*a, **k)
            finally:
                spent[label] += time.thread_time() - start
                calls[label] += 1
                inside[label] -= 1
        setattr(owner, name, staticmethod(wrapper) if static else wrapper)

    for name in ENTRY + STEPS:
        if name in _session.DumpSession.__dict__:
            timed(_session.DumpSession, name, name)
    for name in ("_wanted", "_swap", "install", "remove"):  # _swap: the filter of earlier versions
        if name in _trace_filter.TraceFilter.__dict__:
            timed(_trace_filter.TraceFilter, name, "filter." + name)
    timed(_overview, "render", "overview.render")
    timed(_overview, "_guard_fn", "overview._guard_fn")
    timed(_codemap, "verify_equivalent", "verify_equivalent")

    model, inputs = compile_overhead.build_model(args.model)
    compiled = torch.compile(model, backend=args.backend)
    context = uncompile.prepare_debug(tempfile.mkdtemp(prefix="uncompile-hook-cost-"))
    with torch.no_grad():
        cpu = time.process_time()
        with context:
            compiled(**inputs)
        cpu = time.process_time() - cpu
    result = {k: [round(v * 1000, 2), calls[k]] for k, v in spent.items()}
    result["ours"] = round(1000 * sum(spent[k] for k in ENTRY + ("filter._wanted",)), 2)
    result["process_cpu"] = round(cpu * 1000, 1)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
