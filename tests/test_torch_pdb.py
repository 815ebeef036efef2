"""debug(): breakpoints set with pdb in dumped files are hit (transformed code, graph, Inductor code)."""
import json
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "torch_programs", "debug_target.py")


def _line(path, predicate, after=None):
    with open(path) as f:
        lines = f.read().splitlines()
    start = 0
    if after is not None:
        start = next(i for i, text in enumerate(lines) if after(text)) + 1
    for number in range(start, len(lines)):
        text = lines[number].strip()
        if text and not text.startswith("#") and predicate(text):
            return number + 1
    raise AssertionError("no matching line in %s" % path)


def _file(manifest, function, kind):
    fn = next(f for f in manifest["functions"] if f["name"] == function)
    for record in fn["compiles"]:
        for entry in record["files"]:
            if entry["kind"] == kind:
                return entry
    raise AssertionError("no %s file for %s" % (kind, function))


def _pdb(dump, targets):
    """Run the program; after prepare_debug, pdb gets breakpoints at `targets` and is told to continue."""
    env = dict(os.environ, UNCOMPILE_TEST_BREAKS=";".join("%s:%d" % item for item in targets.items()))
    out = subprocess.run([sys.executable, PROGRAM, str(dump)], input="continue\n" * 10, env=env,
                         capture_output=True, text=True, timeout=600).stdout
    for path, line in targets.items():
        assert re.search(r"> %s\(%d\)" % (re.escape(path), line), out), (path, line, out[-2000:])


def _transformed_line(path, verified):
    if verified:
        return _line(path, lambda t: "__compiled_fn" in t)
    return _line(path, lambda t: "LOAD_GLOBAL" in t and "__compiled_fn" in t)


@pytest.mark.slow
def test_pdb_stops_in_dumped_files(tmp_path):
    dump = tmp_path / "dump"
    subprocess.run([sys.executable, PROGRAM, str(dump)], check=True, capture_output=True)
    with open(dump / "manifest.json") as f:
        manifest = json.load(f)
    fn = next(f for f in manifest["functions"] if f["name"] == "f")
    first = next(c for c in fn["compiles"] if not c["resume_function"])
    resume = next(c for c in fn["compiles"] if c["resume_function"])
    entry = next(e for e in first["files"] if e["kind"] == "transformed")
    resume_entry = next(e for e in resume["files"] if e["kind"] == "transformed")
    transformed = str(dump / entry["path"])
    resume_file = str(dump / resume_entry["path"])
    graph = str(dump / next(e for e in first["files"] if e["kind"] == "captured_graph")["path"])
    kernel = str(dump / _file(manifest, "g", "inductor")["path"])
    _pdb(dump, {transformed: _transformed_line(transformed, entry["verified"]),
                graph: _line(graph, lambda t: ".sin()" in t),
                resume_file: _transformed_line(resume_file, resume_entry["verified"]),
                kernel: _line(kernel, lambda t: True, after=lambda t: t.strip().startswith("def call("))})
    # pdb's own trace functions run inside the compiled region and Dynamo tries them too; they are
    # not the user's program and must not appear in the dump that debug() updates.
    with open(dump / "manifest.json") as f:
        after = json.load(f)
    assert [fn["name"] for fn in after["functions"] if os.path.basename(fn["filename"]) in ("bdb.py", "pdb.py")] == []
    assert {"f", "g"} <= {fn["name"] for fn in after["functions"]}
