"""Benchmark: how much of what torch.compile makes the dump shows as verified source, on programs
no test names, and whether results stay the same.

    python bench/torch_verified.py [--backends aot_eager,inductor] [--only NAME,...] [--models gpt2,...]

For every case of bench/torch_programs.py (and, with --models, small transformers models built
from a config with random weights: gpt2, gpt2_train, bert_train, t5), per backend and, where it
applies, with and without gradients:

  plain  - the compiled callable called twice over (two rounds of its calls), no dump;
  dump   - the same inside `uncompile.prepare_debug`, then the second round inside
           `uncompile.debug()` (the program running from the dumped files).

The first rounds of plain and dump, and the second rounds of plain and debug, must be equal bit
for bit (tensors with torch.equal, gradients of the inputs too; functions by their code). Printed:
one row per run with the number of transformed codes and resume functions the dump decompiled,
how many are verified (the decompiled source is what runs), the reasons of the others, and the
totals. Module state the programs change is reset before each mode.

Not a test (it takes minutes and names no expected count): a table for the closing notes and the
README. Needs torch; transformers for --models.
"""
import argparse
import contextlib
import io
import json
import os
import sys
import tempfile
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def _leaves(value):
    import torch
    return torch.utils._pytree.tree_leaves(value)


def same(a, b, depth=0):
    """Bit-equal tensors, equal plain values, functions with the same code; containers and other
    objects (a transformers output, a key-value cache) compared by what they hold."""
    import torch
    if depth > 6:
        return True  # (deep object graphs: what matters is compared above this depth)
    la, lb = _leaves(a), _leaves(b)
    if len(la) != len(lb):
        return False
    for u, v in zip(la, lb):
        if isinstance(u, torch.Tensor):
            if not (isinstance(v, torch.Tensor) and u.shape == v.shape and u.dtype == v.dtype and torch.equal(u, v)):
                return False
        elif u is None or isinstance(u, (bool, int, float, complex, str, bytes, torch.Size, torch.dtype)):
            if u != v:
                return False
        elif callable(u) and hasattr(u, "__code__"):
            if getattr(v, "__code__", None) is not u.__code__:
                return False
        elif type(u) is not type(v):
            return False
        elif hasattr(u, "to_tuple"):  # a transformers ModelOutput
            if not same(list(u.to_tuple()), list(v.to_tuple()), depth + 1):
                return False
        elif hasattr(u, "__dict__"):
            if not same([vars(u)[k] for k in sorted(vars(u))], [vars(v).get(k) for k in sorted(vars(u))], depth + 1):
                return False
        elif u != v:
            return False
    return True


def _round(compiled, calls, grad):
    import torch
    outs = []
    for args, kwargs in calls:
        args = tuple(t.detach().clone().requires_grad_(grad) if isinstance(t, torch.Tensor) and t.is_floating_point()
                     else t for t in args)
        with contextlib.redirect_stdout(io.StringIO()):  # the programs print to break graphs
            out = compiled(*args, **kwargs)
        if grad:
            losses = [o for o in _leaves(out) if isinstance(o, torch.Tensor) and o.requires_grad]
            if losses:
                sum(o.sum() for o in losses).backward()
                out = (out, [t.grad for t in args if isinstance(t, torch.Tensor) and t.grad is not None])
        outs.append(out)
    return outs


def _decompiled_entries(dump_dir):
    with open(os.path.join(dump_dir, "manifest.json")) as f:
        manifest = json.load(f)
    entries = [e for fn in manifest["functions"] for c in fn["compiles"] for e in c["files"]
               if e["kind"] in ("transformed", "resume")]
    return entries, manifest.get("errors") or []


def run_case(make, calls, backend, grad, reset):
    """(first rounds equal, second rounds equal, decompiled entries, dump errors)."""
    import torch
    import uncompile
    results = {}
    for mode in ("plain", "dump"):
        torch._dynamo.reset()
        reset()
        torch.manual_seed(1)
        compiled = torch.compile(make(), backend=backend)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if mode == "plain":
                results[mode] = (_round(compiled, calls, grad), _round(compiled, calls, grad))
            else:
                dump_dir = tempfile.mkdtemp(prefix="uncompile-verified-")
                with uncompile.prepare_debug(dump_dir):
                    first = _round(compiled, calls, grad)
                with uncompile.debug():
                    second = _round(compiled, calls, grad)
                results[mode] = (first, second)
    torch._dynamo.reset()
    entries, errors = _decompiled_entries(dump_dir)
    return (same(results["plain"][0], results["dump"][0]), same(results["plain"][1], results["dump"][1]),
            entries, errors)


def model_cases(names):
    """Small transformers models (random weights, nothing downloaded): (name, make, calls, grad)."""
    import torch
    from transformers import (BertConfig, BertForSequenceClassification, GPT2Config, GPT2LMHeadModel, T5Config,
                              T5ForConditionalGeneration)
    torch.manual_seed(0)
    ids = torch.randint(0, 100, (2, 16))
    gpt2 = GPT2Config(n_layer=2, n_embd=64, n_head=2)
    bert = BertConfig(num_hidden_layers=2, hidden_size=64, num_attention_heads=2, intermediate_size=128,
                      hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    t5 = T5Config(num_layers=1, num_decoder_layers=1, d_model=64, d_ff=128, num_heads=2, d_kv=32)

    def seeded(build):
        def make():
            torch.manual_seed(0)
            return build()
        return make
    table = {
        "gpt2": (seeded(lambda: GPT2LMHeadModel(gpt2).eval()), [((), {"input_ids": ids})], False),
        "gpt2_train": (seeded(lambda: GPT2LMHeadModel(gpt2).train()), [((), {"input_ids": ids, "labels": ids})], True),
        "bert_train": (seeded(lambda: BertForSequenceClassification(bert).train()),
                       [((), {"input_ids": ids, "labels": torch.tensor([0, 1])})], True),
        "t5": (seeded(lambda: T5ForConditionalGeneration(t5).eval()),
               [((), {"input_ids": ids, "decoder_input_ids": ids[:, :8]})], False),
    }
    return [(name,) + table[name] for name in names]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default="aot_eager")
    parser.add_argument("--only", default="", help="comma-separated case names")
    parser.add_argument("--models", default="", help="comma-separated: gpt2,gpt2_train,bert_train,t5")
    args = parser.parse_args()
    import torch
    import torch_programs as programs

    only = {n for n in args.only.split(",") if n}
    runs = []
    for name, make, calls, grad_applies in programs.cases():
        if not only or name in only:
            for grad in ((False, True) if grad_applies else (False,)):
                runs.append((name, make, calls, grad, programs.reset_state))
    if args.models:
        for name, make, calls, grad in model_cases([n for n in args.models.split(",") if n]):
            runs.append((name, make, calls, grad, lambda: None))

    rows = ["| case | backend | grad | results equal (dump, debug) | decompiled | verified | not verified |",
            "|---|---|---|---|---|---|---|"]
    totals = {"runs": 0, "equal": 0, "decompiled": 0, "verified": 0}
    for backend in args.backends.split(","):
        for name, make, calls, grad, reset in runs:
            try:
                first, second, entries, errors = run_case(make, calls, backend, grad, reset)
            except Exception as exc:  # a crash of the dump is a finding, not the end of the table
                rows.append("| %s | %s | %s | crashed: %s: %s | | | |" % (name, backend, grad, type(exc).__name__,
                                                                        str(exc)[:120]))
                totals["runs"] += 1
                continue
            verified = [e for e in entries if e.get("verified")]
            reasons = sorted({(e.get("note") or "")[:90] for e in entries if not e.get("verified")})
            rows.append("| %s | %s | %s | %s, %s | %d | %d | %s |" % (
                name, backend, grad, first, second, len(entries), len(verified),
                "; ".join(reasons) + ("; dump errors: %s" % errors if errors else "")))
            totals["runs"] += 1
            totals["equal"] += first and second
            totals["decompiled"] += len(entries)
            totals["verified"] += len(verified)
            print(rows[-1], flush=True)
    print("\n" + "\n".join(rows))
    print("\n%d runs, results equal in %d; %d transformed codes and resume functions decompiled, %d verified "
          "(%.1f%%); torch %s, python %s" % (
              totals["runs"], totals["equal"], totals["decompiled"], totals["verified"],
              100.0 * totals["verified"] / max(1, totals["decompiled"]), torch.__version__, sys.version.split()[0]))


if __name__ == "__main__":
    main()
