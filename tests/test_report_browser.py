"""The report as a person uses it: headless Chromium (Debian's `chromium`, driven by Playwright,
no browser download) opens the report from file://, follows links and checks what is shown.

Screenshots go to tests/artifacts/report/ (git-ignored; UNCOMPILE_ARTIFACTS overrides the place).
Skipped, saying why, where Playwright or /usr/bin/chromium is missing (.ci/run installs both).
"""
import os
from pathlib import Path

import pytest

from report_fixture import make_dump

from uncompile.report import build_report

CHROMIUM = os.environ.get("UNCOMPILE_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = Path(os.environ.get("UNCOMPILE_ARTIFACTS") or Path(__file__).parent / "artifacts") / "report"


def _playwright():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (pip install playwright; .ci/run does)")
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"Chromium not found at {CHROMIUM} (apt-get install chromium; .ci/run does)")
    return sync_playwright


@pytest.fixture(scope="module")
def browser():
    sync_playwright = _playwright()
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


class Watch:
    """A page that fails the test on a script error, a dialog or any request leaving file://."""

    def __init__(self, browser):
        self.errors, self.requests = [], []
        self.page = browser.new_page(viewport={"width": 1500, "height": 1000})
        self.page.set_default_timeout(10000)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.errors.append("dialog: " + d.message), d.dismiss()))
        self.page.on("request", lambda r: self.requests.append(r.url))

    def check(self):
        assert not self.errors, self.errors
        outside = [u for u in self.requests if not u.startswith("file://")]
        assert not outside, outside


def title_is(page, text, prefix=False):
    """Wait until the panel shows `text` (or a title starting with it): a click on a line or a `#`
    link changes the location's hash, and the panel follows on the asynchronous hashchange event."""
    from playwright.sync_api import expect
    import re
    expect(page.locator("#panel-title")).to_have_text(re.compile("^" + re.escape(text) + ("" if prefix else "$")))


def shot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    print(f"screenshot: {path}")
    return path


def test_follow_links_from_user_line_to_kernel_and_back(browser, tmp_path):
    index = build_report(make_dump(tmp_path / "dump"), tmp_path / "report")
    w = Watch(browser)
    page = w.page
    page.goto(index.as_uri())
    assert page.locator("#n-functions").inner_text() == "2"
    assert page.locator("#n-recompiles").inner_text() == "1"
    assert "size mismatch at index 0" in page.locator("#recompiles").inner_text()
    assert "call to builtin print" in page.locator("#graph-breaks").inner_text()
    shot(page, "index.png")

    # index -> function -> compile 0/0
    page.get_by_role("link", name="Model.forward").click()
    assert page.url.endswith("f/forward_model_L12/index.html")
    page.locator("#compiles").get_by_role("link", name="0/0", exact=True).click()
    assert page.url.endswith("c0_0.html")
    assert "Graph break" in page.locator(".gb").first.inner_text()
    # the original source beside the transformed code and the resume function
    assert "def forward(self, x):" in page.locator("#src").inner_text()
    assert "__compiled_fn_1" in page.locator("#transformed").inner_text()
    assert "torch_dynamo_resume_in_forward_at_16" in page.locator("#resume-__resume_at_30_1").inner_text()

    # user line 13 -> its graph nodes and kernel
    page.locator("#src-L13 .t").click()
    panel = page.locator("#panel")
    title_is(page, "User line 13")
    assert panel.is_visible()
    text = panel.inner_text()
    assert "y in captured graph 0" in text and "sin in AOT forward graph 0" in text
    assert "triton_poi_fused_sin_0" in text and "Guards (2)" in text
    assert "sel" in page.locator("#src-L13").get_attribute("class")
    assert "rel" in page.locator("#captured_graph-0-L9").get_attribute("class")
    shot(page, "compile-user-line.png")

    # -> the kernel in Inductor's code
    panel.get_by_role("link", name="triton_poi_fused_sin_0").click()
    title_is(page, "Kernel triton_poi_fused_sin_0", prefix=True)
    assert page.url.endswith("#inductor-0-forward-L13")
    assert page.locator("#inductor-0-forward-L13").is_visible()
    assert "y in captured graph 0" in panel.inner_text()
    shot(page, "compile-kernel.png")

    # <- back to the user line, through the kernel's list of user lines
    panel.locator("a.pn-user").first.click()
    title_is(page, "User line 13")
    assert page.url.endswith("#src-L13")

    # a graph node: click its line in the AOT forward graph
    page.locator("#aot_forward-0-L19 .t").click()
    title_is(page, "Node relu — AOT forward graph 0")
    assert "triton_poi_fused_add_relu_1" in panel.inner_text() and "line 15" in panel.inner_text()

    # backward kernel matched by name only says so
    page.locator("#inductor-0-backward-L6 .t").click()
    title_is(page, "Kernel cpp_fused_cos_mul_threshold_backward_0", prefix=True)
    assert "(inferred)" in panel.inner_text() or "fused name" in panel.inner_text()
    assert "threshold_backward" in panel.inner_text()

    # the browser's back button returns to the previous selection
    page.go_back()
    title_is(page, "Node relu — AOT forward graph 0")
    w.check()


def test_recompile_guard_diff(browser, tmp_path):
    index = build_report(make_dump(tmp_path / "dump"), tmp_path / "report")
    w = Watch(browser)
    page = w.page
    page.goto(index.as_uri())
    page.locator("#recompiles").get_by_role("link", name="compare 0/0 ↔ 0/1").click()
    assert page.url.endswith("diff-c0_0-c0_1.html")
    assert page.locator("#n-differing").inner_text() == "2"
    changed = page.locator("#gdiff tr.changed")
    assert changed.count() == 1
    assert changed.locator("del").first.inner_text() == "4"
    assert changed.locator("ins").first.inner_text() == "8"
    added = page.locator("#gdiff tr.only-b")
    assert "2 <= L['x'].size()[0]" in added.inner_text()
    assert page.locator("#gdiff tr.same").first.is_visible()
    page.locator("#only-diff").check()
    assert not page.locator("#gdiff tr.same").first.is_visible()
    shot(page, "guard-diff.png")
    # the guard's user line leads to that compile's source
    changed.locator("td.g").nth(1).get_by_role("link").click()
    title_is(page, "User line 13")
    assert page.url.endswith("c0_1.html#src-L13")
    w.check()


def test_escaped_content_runs_no_script(browser, tmp_path):
    index = build_report(make_dump(tmp_path / "dump"), tmp_path / "report")
    w = Watch(browser)
    page = w.page
    page.goto((index.parent / "f/helper_model_L30/c2_0.html").as_uri())
    assert page.evaluate("window.__pwned") is None
    assert "</script><script>window.__pwned = 1</script>" in page.locator("#src-L31").inner_text()
    assert page.locator("#src img").count() == 0
    assert "not recorded" in page.locator("#source").inner_text()
    page.locator("#src-L32 .t").click()
    title_is(page, "User line 32")
    assert "u in captured graph 0" in page.locator("#panel").inner_text()
    assert page.evaluate("window.__pwned") is None
    shot(page, "escaped-and-missing.png")
    w.check()
