"""examples/torch_walkthrough.py runs as the README says: a dump with a graph break, an unrolled
loop, a recompile and Inductor kernels; pdb stops at a breakpoint it prints; the report builds."""
import json
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")

from test_torch_dump import check_manifest  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLE = os.path.join(ROOT, "examples", "torch_walkthrough.py")


def _example_line(text):
    with open(EXAMPLE) as f:
        return next(i for i, line in enumerate(f, 1) if text in line)


@pytest.mark.slow
def test_walkthrough_dump_breakpoint_and_report(tmp_path):
    dump = tmp_path / "dump"
    proc = subprocess.run([sys.executable, EXAMPLE, str(dump), "--pdb"], input="c\n" * 6, capture_output=True,
                          text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-4000:]
    out = proc.stdout
    assert "debug() run equals eager: True and equals the compiled run bit for bit: True" in out, out[-3000:]

    manifest = check_manifest(dump)
    assert not manifest["errors"], manifest["errors"]
    # Under pdb, Dynamo also compiles frames of pdb's own tracer (bdb.py) that run inside the
    # compiled call; they are dumped too, beside the model's forward().
    function = next(f for f in manifest["functions"] if f["filename"] == EXAMPLE)
    assert all(f is function or os.path.basename(f["filename"]) == "bdb.py" for f in manifest["functions"])
    assert function["qualname"] == "TinyNet.forward" and function["dir"] == "forward_torch_walkthrough_L%d" % (
        _example_line("def forward(self, x):"))
    for rel in function["files"].values():
        namespace = {}
        exec(compile((dump / rel).read_text(), str(dump / rel), "exec"), namespace)  # valid, runnable
    compiles = {c["compile_id"]: c for c in function["compiles"]}
    top = [c for c in function["compiles"] if not c["resume_function"]]
    resumed = [c for c in function["compiles"] if c["resume_function"]]
    assert [c["compile_id"] for c in top] == ["0/0", "0/1"] and resumed, sorted(compiles)
    assert "size mismatch at index 0" in compiles["0/1"]["recompile_reason"]
    branch = _example_line("if h.mean() > 0.5:")
    for record in top:
        assert [b["user_line"] for b in record["graph_breaks"]] == [branch], record["graph_breaks"]
    for record in function["compiles"]:
        kinds = {e["kind"] for e in record["files"]}
        assert {"transformed", "guards", "captured_graph", "aot_forward", "inductor", "graph_nodes"} <= kinds, kinds
        for entry in record["files"]:
            if entry["kind"] == "inductor":
                assert entry["kernels"] and all(k["source_nodes"] for k in entry["kernels"]), entry
    graph = next(e for e in compiles["0/0"]["files"] if e["kind"] == "captured_graph")
    text = (dump / graph["path"]).read_text()
    assert len(re.findall(r"^\s+\w+: \"[^\"]*\" = torch\.tanh\(", text, re.M)) == 3, text   # the loop, unrolled
    with open(dump / next(e for e in compiles["0/0"]["files"] if e["kind"] == "guards_json")["path"]) as f:
        assert any(g["user_line"] for g in json.load(f)["guards"])

    # pdb stopped at one of the breakpoints the script printed, in a dumped file
    targets = re.findall(r"^pdb: breakpoint at (.+):(\d+)$", out, re.M)
    assert len(targets) == len(top), out[:2000]
    assert any(re.search(r"> %s\(%s\)forward\(\)" % (re.escape(p), n), out) for p, n in targets), out[-3000:]
    for path, _ in targets:
        assert path.startswith(str(dump)) and "(Pdb) break %s:" % path in out

    # the guide names the files, and its report command works
    for rel in ("manifest.json", "original.py", "overview.py", "c0_1/transformed.py", "c0_0/inductor_0.py"):
        assert rel in out, rel
    assert "recompiled because: 0/0: tensor 'x' size mismatch" in out
    command = re.search(r"^HTML report: uncompile report (\S+) -o (\S+)$", out, re.M)
    assert command and command.group(1) == str(dump)
    subprocess.run([sys.executable, "-m", "uncompile", "report", command.group(1), "-o", command.group(2)],
                   check=True, capture_output=True, timeout=300)
    assert (dump / "report" / "index.html").is_file()
