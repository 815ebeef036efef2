"""`uncompile report` without a browser: pages written, links resolvable, escaping, determinism,
tolerance of missing files, the CLIs. The browser tests are in test_report_browser.py."""
import json
import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from report_fixture import make_dump

from uncompile.report import DumpError, build_report
from uncompile.report.highlight import highlight_lines
from uncompile.report.links import parse_fx_nodes, parse_inductor_kernels
from uncompile.report.render import diff_guards
from uncompile.report.model import Guard


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.srcs, self.scripts = set(), [], [], []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        if tag in ("script", "link", "img") and (a.get("src") or a.get("href")):
            self.srcs.append(a.get("src") or a.get("href"))
        self._in_script = tag == "script" and a.get("type") != "application/json"

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script and data.strip():
            self.scripts.append(data)


def parse(path):
    c = _Collect()
    c.feed(Path(path).read_text(encoding="utf-8"))
    return c


@pytest.fixture
def report(tmp_path):
    dump = make_dump(tmp_path / "dump")
    index = build_report(dump, tmp_path / "out")
    return index.parent


def test_pages_written_and_every_link_resolves(report):
    pages = sorted(p.relative_to(report).as_posix() for p in report.rglob("*.html"))
    assert "index.html" in pages
    assert "f/forward_model_L12/c0_0.html" in pages and "f/forward_model_L12/c0_1.html" in pages
    assert "f/forward_model_L12/c1_0.html" in pages and "f/helper_model_L30/c2_0.html" in pages
    assert "f/forward_model_L12/diff-c0_0-c0_1.html" in pages
    parsed = {p: parse(report / p) for p in pages}
    for p, c in parsed.items():
        for ref in c.hrefs + c.srcs:
            assert not re.match(r"^[a-z]+:", ref), f"{p}: absolute or network link {ref}"
            target, _, frag = ref.partition("#")
            target_page = (Path(p).parent / target).as_posix() if target else p
            target_page = os.path.normpath(target_page)
            assert (report / target_page).exists(), f"{p}: broken link {ref}"
            if frag and target_page.endswith(".html"):
                assert frag in parsed[target_page].ids, f"{p}: link {ref} names no element"
        assert not c.scripts, f"{p}: inline script (all script is in assets/report.js)"


def test_index_overview(report):
    html = (report / "index.html").read_text()
    assert 'id="n-functions">2<' in html and 'id="n-compiles">4<' in html
    assert 'id="n-breaks">2<' in html and 'id="n-recompiles">1<' in html
    assert "Model.forward" in html and "helper" in html
    assert "size mismatch at index 0. expected 4, actual 8" in html
    assert "call to builtin print" in html
    assert "1.23&nbsp;s" in html          # compile time
    assert "0/1 · entry 0" in html        # compile id with its cache entry
    assert "diff-c0_0-c0_1.html" in html


def test_compile_page_links_user_lines_nodes_kernels(report):
    page = (report / "f/forward_model_L12/c0_0.html").read_text()
    data = json.loads(re.search(r'<script type="application/json" id="links">(.*?)</script>', page, re.S).group(1))
    line13 = data["users"]["13"]
    assert "captured_graph-0:y" in line13["n"] and "aot_forward-0:sin" in line13["n"]
    assert "inductor-0-forward:triton_poi_fused_sin_0" in line13["k"]
    assert line13["g"] == [1, 2]           # guards from line 13
    assert data["users"]["16"]["b"] == [0]  # the graph break
    k = data["kernels"]["inductor-0-forward:triton_poi_fused_sin_0"]
    assert k["line"] == 13 and not k["inf"] and "captured_graph-0:y" in k["n"]
    relu = data["kernels"]["inductor-0-forward:triton_poi_fused_add_relu_1"]
    assert {"captured_graph-0:relu", "captured_graph-0:w"} <= set(relu["n"])
    bwd = data["kernels"]["inductor-0-backward:cpp_fused_cos_mul_threshold_backward_0"]
    assert bwd["inf"] and set(bwd["n"]) == {"aot_backward-0:threshold_backward", "aot_backward-0:cos", "aot_backward-0:mul"}
    # every node/kernel line exists as an element
    ids = parse(report / "f/forward_model_L12/c0_0.html").ids
    for n in data["nodes"].values():
        if n["line"]:
            assert f'{n["s"]}-L{n["line"]}' in ids
    assert "src-L13" in ids and "src-L18" in ids


def test_content_is_escaped(report):
    page = (report / "f/helper_model_L30/c2_0.html").read_text()
    assert "<script><" not in page and "<img" not in page and "<b>not bold" not in page
    assert "&lt;/script&gt;&lt;script&gt;window.__pwned" in page
    assert "&lt;b&gt;not bold&lt;/b&gt; &amp; ampersand" in page
    # the embedded JSON cannot close its script element
    data = re.search(r'<script type="application/json" id="links">(.*?)</script>', page, re.S).group(1)
    assert "<" not in data
    assert json.loads(data)["nodes"]["captured_graph-0:u"]["code"].endswith("<b>not bold</b> & ampersand")


def test_missing_files_say_not_recorded(report):
    page = (report / "f/helper_model_L30/c2_0.html").read_text()
    assert page.count("not recorded") >= 4      # cache entry, time, guards.json, transformed, inductor
    index = (report / "index.html").read_text()
    assert "listed in the manifest but missing" in index


def test_tolerates_a_sparse_manifest(tmp_path):
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "manifest.json").write_text(json.dumps({"functions": [
        {"name": "g", "compiles": [{"compile_id": "0/0"}, {"files": [{"kind": "weird"}, "junk"]}, "junk"]},
        {"qualname": "h", "dir": "../../etc", "files": {"original": "../../../etc/passwd"}, "compiles": None},
        "junk"]}))
    index = build_report(tmp_path / "d", tmp_path / "o")
    html = index.read_text()
    assert "not recorded" in html and "outside the dump" in html
    assert all(p.resolve().is_relative_to((tmp_path / "o").resolve()) for p in (tmp_path / "o").rglob("*"))


def test_deterministic(tmp_path):
    dump = make_dump(tmp_path / "dump")
    a = build_report(dump, tmp_path / "a").parent
    b = build_report(dump, tmp_path / "b").parent
    files_a = sorted(p.relative_to(a) for p in a.rglob("*") if p.is_file())
    assert files_a == sorted(p.relative_to(b) for p in b.rglob("*") if p.is_file())
    for rel in files_a:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_refuses_bad_input(tmp_path):
    with pytest.raises(DumpError, match="no manifest.json"):
        build_report(tmp_path, tmp_path / "o")
    dump = make_dump(tmp_path / "dump")
    (tmp_path / "precious").mkdir()
    (tmp_path / "precious" / "notes.txt").write_text("keep me")
    with pytest.raises(FileExistsError):
        build_report(dump, tmp_path / "precious")
    assert (tmp_path / "precious" / "notes.txt").read_text() == "keep me"
    # an earlier report is replaced
    build_report(dump, tmp_path / "r")
    (tmp_path / "r" / "f" / "stale.html").write_text("old")
    build_report(dump, tmp_path / "r")
    assert not (tmp_path / "r" / "f" / "stale.html").exists()


def test_python_cli(tmp_path):
    dump = make_dump(tmp_path / "dump")
    proc = subprocess.run([sys.executable, "-m", "uncompile", "report", str(dump), "-o", str(tmp_path / "o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "o" / "index.html")
    proc = subprocess.run([sys.executable, "-m", "uncompile", "report", str(tmp_path / "nope")], capture_output=True, text=True)
    assert proc.returncode == 1 and "not a directory" in proc.stderr


def test_native_cli_forwards_report(tmp_path):
    beside = Path(sys.executable).parent / "uncompile"     # the one installed with this package
    cli = os.environ.get("UNCOMPILE_CLI") or (str(beside) if beside.exists() else shutil.which("uncompile"))
    if not cli:
        pytest.skip("uncompile CLI not built: run `pip install .` first")
    dump = make_dump(tmp_path / "dump")
    env = dict(os.environ, UNCOMPILE_PYTHON=sys.executable)
    proc = subprocess.run([cli, "report", str(dump), "-o", str(tmp_path / "o")], capture_output=True, text=True, env=env)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "o" / "index.html").exists()
    proc = subprocess.run([cli, "report", "--help"], capture_output=True, text=True, env=env)
    assert proc.returncode == 0 and "DUMP_DIR" in proc.stdout


def test_highlighter_escapes_and_keeps_lines():
    src = 'def f(x):\n    s = """a\n<b>\n"""  # </span>\n    return x & 1\n'
    lines = highlight_lines(src)
    assert len(lines) == 5
    assert lines[0].startswith('<span class="k">def</span> <span class="nf">f</span>')
    assert lines[2] == '<span class="s">&lt;b&gt;</span>'
    assert '<span class="c"># &lt;/span&gt;</span>' in lines[3]
    assert "&amp;" in lines[4]
    # not Python (the tokenizer fails part way): still every character, escaped, line for line
    out = highlight_lines("int main() { return '<x>; }\n  )\n")
    assert [re.sub(r"<[^>]*>", "", line) for line in out] == ["int main() { return '&lt;x&gt;; }", "  )"]


def test_fx_and_inductor_parsing():
    fx = ('class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: "f32[4]"):\n        l_x_ = L_x_\n\n'
          '        # File: /a/m.py:11 in f, code: y = x.sin()\n        y: "f32[4]" = l_x_.sin();  l_x_ = None\n'
          '        return (y,)\n')
    nodes = {n.name: n for n in parse_fx_nodes(fx)}
    assert nodes["L_x_"].op == "placeholder" and nodes["l_x_"].user_line is None
    assert (nodes["y"].line, nodes["y"].user_file, nodes["y"].user_line, nodes["y"].user_code) == (6, "/a/m.py", 11, "y = x.sin()")
    ind = ("cpp_fused_sin_0 = async_compile.cpp_pybinding(['float*'], r'''\nvoid kernel() {}\n''')\n"
           "def call(args):\n    # Topologically Sorted Source Nodes: [y], Original ATen: [aten.sin]\n"
           "    cpp_fused_sin_0(buf0)\n    # Source Nodes: [z]\n    buf1 = extern_kernels.mm(a, b)\n")
    ks = parse_inductor_kernels(ind)
    assert [(k.name, k.def_line, k.call_lines, k.source_nodes) for k in ks] == [
        ("cpp_fused_sin_0", 1, [6], ["y"]), ("extern_kernels.mm", None, [8], ["z"])]


def test_guard_diff_pairs_changed_guards():
    a = [Guard("g0", "K"), Guard("check_tensor(L['x'], size=[4])", "TENSOR_MATCH", "L['x']"), Guard("only a", "X")]
    b = [Guard("g0", "K"), Guard("check_tensor(L['x'], size=[8])", "TENSOR_MATCH", "L['x']"), Guard("2 <= L['x'].size()[0]", "LAMBDA_GUARD")]
    rows = [(s, ga.text if ga else None, gb.text if gb else None) for s, ga, gb in diff_guards(a, b)]
    assert rows == [("same", "g0", "g0"),
                    ("changed", "check_tensor(L['x'], size=[4])", "check_tensor(L['x'], size=[8])"),
                    ("only-a", "only a", None), ("only-b", None, "2 <= L['x'].size()[0]")]


def test_several_ranks(tmp_path):
    """Distributed dumps: one manifest per rank, function directories suffixed .rank<R>."""
    dump = Path(make_dump(tmp_path / "dump"))
    manifest = json.loads((dump / "manifest.json").read_text())
    (dump / "manifest.json").unlink()
    for rank in (0, 1):
        m = dict(manifest, rank=rank, world_size=2)
        m["functions"] = [dict(f, dir=f["dir"] + f".rank{rank}") for f in manifest["functions"]]
        (dump / f"manifest.rank{rank}.json").write_text(json.dumps(m))
    out = build_report(dump, tmp_path / "o").parent
    html = (out / "index.html").read_text()
    assert 'id="n-functions">4<' in html and "rank 0" in html and "rank 1" in html and "world size 2" in html
    assert (out / "f/forward_model_L12.rank0/c0_0.html").exists() and (out / "f/forward_model_L12.rank1/c0_0.html").exists()


def test_recorded_kernel_source_nodes_are_real_links(tmp_path):
    """A C++ kernel has no "Source Nodes" comment; the dumper's record of it (the manifest's
    "kernels" of the inductor file) makes its links real, and only the nodes it names are linked."""
    dump = Path(make_dump(tmp_path / "dump"))
    manifest_path = dump / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    fn = next(f for f in manifest["functions"] if f["dir"] == "forward_model_L12")
    c0 = next(c for c in fn["compiles"] if c["compile_id"] == "0/0")
    bwd = next(e for e in c0["files"] if e["kind"] == "inductor" and e["part"] == "backward")
    text = (dump / bwd["path"]).read_text()
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("cpp_fused_cos_mul_threshold_backward_0 ="))
    bwd["kernels"] = [{"name": "cpp_fused_cos_mul_threshold_backward_0", "line": line, "source_nodes": ["cos", "mul"],
                       "original_aten": ["aten.cos", "aten.mul"], "from": "inductor_metadata"}]
    manifest_path.write_text(json.dumps(manifest))
    out = build_report(dump, tmp_path / "out").parent
    page = (out / "f/forward_model_L12/c0_0.html").read_text()
    data = json.loads(re.search(r'<script type="application/json" id="links">(.*?)</script>', page, re.S).group(1))
    k = data["kernels"]["inductor-0-backward:cpp_fused_cos_mul_threshold_backward_0"]
    assert not k["inf"], "recorded source nodes are not inferred"
    assert set(k["n"]) == {"aot_backward-0:cos", "aot_backward-0:mul"}, k["n"]
    assert k["aten"] == ["aten.cos", "aten.mul"]
    # the forward kernels keep their comment-given links, and the captured graph's recorded kernel
    # names (forward code) are not matched against the backward file's kernels
    assert not any(n.startswith("captured_graph") for n in k["n"])
    # a record for another kernel name changes nothing
    bwd["kernels"] = [{"name": "cpp_fused_other_0", "line": line, "source_nodes": ["cos"]}]
    manifest_path.write_text(json.dumps(manifest))
    out = build_report(dump, tmp_path / "out2").parent
    data = json.loads(re.search(r'<script type="application/json" id="links">(.*?)</script>',
                                (out / "f/forward_model_L12/c0_0.html").read_text(), re.S).group(1))
    assert data["kernels"]["inductor-0-backward:cpp_fused_cos_mul_threshold_backward_0"]["inf"]


def test_inductor_comment_gives_source_nodes_and_aten():
    text = ("k0 = async_compile.cpp_pybinding(['float*'], r'''\n''')\n"
            "def call(args):\n"
            "    # Topologically Sorted Source Nodes: [linear], Original ATen: [aten.t, aten.addmm]\n"
            "    extern_kernels.addmm(a, b, c, out=buf0)\n"
            "    # Unsorted Source Nodes: [x, y], Original ATen: [aten.cat]\n"
            "    k0(buf0)\n")
    ks = {k.name: k for k in parse_inductor_kernels(text)}
    assert ks["extern_kernels.addmm"].source_nodes == ["linear"]
    assert ks["extern_kernels.addmm"].original_aten == ["aten.t", "aten.addmm"]
    assert ks["k0"].source_nodes == ["x", "y"] and ks["k0"].original_aten == ["aten.cat"]
