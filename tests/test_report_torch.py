"""The report of a real dump: torch.compile (Inductor) of a function with a graph break and a
recompile, and of a module, under uncompile.prepare_debug (tests/torch_programs/basic.py).
Skipped where torch is not installed; the browser part also needs Playwright and Chromium."""
import json
import os
import re
import subprocess
import sys

import pytest

pytest.importorskip("torch")

from uncompile.report import build_report  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "torch_programs", "basic.py")


@pytest.fixture(scope="module")
def real_report(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("real")
    proc = subprocess.run([sys.executable, PROGRAM, str(tmp / "dump"), "inductor"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    return build_report(tmp / "dump", tmp / "report").parent


def _links(path):
    page = path.read_text(encoding="utf-8")
    return json.loads(re.search(r'<script type="application/json" id="links">(.*?)</script>', page, re.S).group(1))


def test_real_dump_overview_and_links(real_report):
    index = (real_report / "index.html").read_text(encoding="utf-8")
    assert 'id="n-functions">2<' in index
    assert "size mismatch at index 0" in index and "basic.py:12" in index
    f0 = real_report / "f" / "f_basic_L10" / "c0_0.html"
    data = _links(f0)
    line11 = data["users"]["11"]          # y = x.sin()
    names = {data["nodes"][n]["name"] for n in line11["n"]}
    assert "y" in names and "sin" in names, names
    assert any("sin" in data["kernels"][k]["name"] for k in line11["k"]), line11
    assert line11["g"], "guards from line 11"
    assert data["users"]["12"]["b"] == [0]
    diff = (real_report / "f" / "f_basic_L10" / "diff-c0_0-c0_1.html").read_text(encoding="utf-8")
    assert 'class="changed"' in diff and "<del>" in diff and "<ins>" in diff
    # Inductor's own metadata links every kernel (C++ kernels included): nothing is inferred
    k11 = [data["kernels"][k] for k in line11["k"]]
    assert all(not k["inf"] for k in k11) and any("captured_graph-0:y" in k["n"] for k in k11), k11
    module = _links(real_report / "f" / "forward_basic_L21" / "c2_0.html")
    assert module["kernels"] and not [k for k in module["kernels"].values() if k["inf"]], module["kernels"]
    linear = [k for k in module["kernels"].values() if k["name"] == "extern_kernels.addmm"]
    assert linear and "captured_graph-0:linear" in linear[0]["n"]
    assert any(s.startswith("aot_backward") for s in module["sections"]), module["sections"]
    assert module["users"]["22"]["k"], "the module's line has kernels"


def test_real_dump_in_the_browser(real_report):
    from test_report_browser import Watch, _playwright, shot, title_is, CHROMIUM
    sync_playwright = _playwright()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        w = Watch(browser)
        page = w.page
        page.goto((real_report / "index.html").as_uri())
        page.locator("#recompiles").get_by_role("link", name="0/1", exact=True).click()
        assert page.url.endswith("c0_1.html")
        assert "size mismatch" in page.locator(".recompile").inner_text()
        page.locator("#src-L11 .t").click()
        title_is(page, "User line 11")
        panel = page.locator("#panel")
        assert "y in captured graph 0" in panel.inner_text()
        kernel = panel.locator("a.pn-kernel").first
        name = kernel.inner_text()
        kernel.click()
        title_is(page, "Kernel " + name, prefix=True)
        assert "line 11" in panel.inner_text()
        shot(page, "real-dump-kernel.png")
        page.locator(".recompile a.diff").click()
        assert page.locator("#gdiff tr.changed").count() >= 1
        shot(page, "real-dump-guard-diff.png")
        w.check()
        browser.close()
