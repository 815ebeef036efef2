"""prepare_debug's dump: layout, manifest, stable names, overview, guards, and the edge cases."""
import ast
import json
import os
import re
import subprocess
import sys
import warnings

import pytest

torch = pytest.importorskip("torch")

import uncompile  # noqa: E402
from uncompile._torch import NotVerifiedWarning, _compat  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "torch_programs", "basic.py")
KINDS = {"original", "overview", "transformed", "resume", "guards", "guards_json", "captured_graph",
         "aot_joint", "aot_forward", "aot_backward", "inductor", "graph_nodes"}


def run_program(dump_dir, backend="eager"):
    subprocess.run([sys.executable, PROGRAM, str(dump_dir), backend], check=True, capture_output=True)


def all_files(dump_dir):
    return sorted(os.path.relpath(os.path.join(d, f), dump_dir)
                  for d, _, fs in os.walk(dump_dir) for f in fs)


def check_manifest(dump_dir, name="manifest.json"):
    with open(os.path.join(dump_dir, name)) as f:
        manifest = json.load(f)
    assert manifest["format"] == "uncompile-dump" and manifest["format_version"] == 1
    listed = []
    for function in manifest["functions"]:
        listed += list(function["files"].values())
        for record in function["compiles"]:
            for entry in record["files"]:
                assert entry["kind"] in KINDS, entry
                listed.append(entry["path"])
    for rel in listed:
        path = os.path.join(dump_dir, rel)
        assert os.path.isfile(path), rel
        if rel.endswith(".py"):
            with open(path) as f:
                ast.parse(f.read(), rel)
        elif rel.endswith(".json"):
            with open(path) as f:
                json.load(f)
    return manifest


def test_dump_layout_manifest_and_stable_names(tmp_path):
    run_program(tmp_path / "a")
    run_program(tmp_path / "b")
    assert all_files(tmp_path / "a") == all_files(tmp_path / "b")
    manifest = check_manifest(tmp_path / "a")
    names = {f["name"]: f for f in manifest["functions"]}
    assert set(names) == {"f", "forward"}
    f = names["f"]
    assert f["dir"] == "f_basic_L10"
    ids = [c["compile_id"] for c in f["compiles"]]
    assert "0/0" in ids and "0/1" in ids, ids
    first = next(c for c in f["compiles"] if c["compile_id"] == "0/0")
    again = next(c for c in f["compiles"] if c["compile_id"] == "0/1")
    assert first["graph_breaks"] and first["graph_breaks"][0]["user_line"] == 12
    assert "size mismatch" in again["recompile_reason"]
    kinds = {e["kind"] for e in first["files"]}
    assert {"transformed", "resume", "guards", "guards_json", "captured_graph", "graph_nodes"} <= kinds
    resume = [c for c in f["compiles"] if c["resume_function"]]
    assert resume, "the resume function's own compile is listed under f"
    with open(tmp_path / "a" / first["files"][[e["kind"] for e in first["files"]].index("guards_json")]["path"]) as g:
        guards = json.load(g)["guards"]
    assert any(g["user_line"] == 11 and "x.sin()" in g["user_code"] for g in guards)


def test_overview_is_valid_runnable_python(tmp_path):
    run_program(tmp_path)
    manifest = check_manifest(tmp_path)
    for function in manifest["functions"]:
        path = os.path.join(tmp_path, function["files"]["overview"])
        namespace = {}
        with open(path) as f:
            exec(compile(f.read(), path, "exec"), namespace)
        assert callable(namespace["dispatch"])
        assert any(k.startswith("guard_c") for k in namespace)


def test_inductor_dump_has_kernels_and_aot_graphs(tmp_path):
    run_program(tmp_path, "inductor")
    manifest = check_manifest(tmp_path)
    kinds = {e["kind"] for fn in manifest["functions"] for c in fn["compiles"] for e in c["files"]}
    assert {"inductor", "aot_forward", "captured_graph"} <= kinds


def test_export_inside_prepare_debug_does_not_crash(tmp_path):
    class M(torch.nn.Module):
        def forward(self, x):
            return x * 2

    with uncompile.prepare_debug(str(tmp_path)):
        exported = torch.export.export(M(), (torch.randn(3),))
    assert torch.equal(exported.module()(torch.ones(3)), torch.full((3,), 2.0))
    check_manifest(tmp_path)


def test_compiling_before_prepare_debug_is_explained(tmp_path):
    torch._dynamo.reset()

    def g(x):
        return x + 1

    cg = torch.compile(g, backend="eager")
    cg(torch.randn(3))
    with pytest.warns(UserWarning, match="compiled before"):
        with uncompile.prepare_debug(str(tmp_path)):
            cg(torch.randn(3))
    manifest = check_manifest(tmp_path)
    assert manifest["notes"] and "compiled before" in manifest["notes"][0]
    torch._dynamo.reset()


def test_unverified_code_warns_and_is_marked(tmp_path):
    torch._dynamo.reset()

    def h(x):
        return x.relu() + 1

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with uncompile.prepare_debug(str(tmp_path)):
            torch.compile(h, backend="eager")(torch.randn(3))
    manifest = check_manifest(tmp_path)
    entry = [e for e in manifest["functions"][0]["compiles"][0]["files"] if e["kind"] == "transformed"][0]
    if not entry["verified"]:
        assert entry["note"]
        assert any("h" in str(w.message) and "not verified" in str(w.message) for w in caught)
    torch._dynamo.reset()


def test_version_compare_is_numeric_and_missing_api_is_named():
    assert _compat.parse_version("2.10.0+cpu") > _compat.parse_version("2.9.1")
    assert _compat.parse_version("2.13.0a0+git") >= (2, 13)
    with pytest.raises(_compat.TorchSupportError, match=r"torch\._dynamo\.convert_frame\.register_bytecode_hook"):
        _compat._need(object(), "register_bytecode_hook", "torch._dynamo.convert_frame", "2.13.0")


def test_install_adds_decompiled_source_to_bytecode_log(tmp_path):
    script = ("import torch, uncompile\n"
              "uncompile.install()\n"
              "def k(x):\n    return x * 3\n"
              "torch.compile(k, backend='eager')(torch.ones(2))\n"
              "uncompile.uninstall()\n")
    env = dict(os.environ, TORCH_LOGS="+bytecode")
    out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert "DECOMPILED BY UNCOMPILE" in out.stderr


def _kernel_names(code):
    from uncompile.report.links import parse_inductor_kernels
    return {k.name for k in parse_inductor_kernels(code)}


def test_inductor_kernels_are_linked_to_graph_nodes(tmp_path):
    """graph_nodes' `kernels` and the inductor files' `kernels` come from Inductor's own metadata:
    C++ kernels (no "Source Nodes" comment in the code) as well as extern kernels, forward and backward."""
    torch._dynamo.reset()

    class M(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(4, 4)

        def forward(self, x):
            h = torch.relu(self.fc(x))
            y = h.sin() * 2
            return y.sum()

    torch.manual_seed(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with uncompile.prepare_debug(str(tmp_path)):
            torch.compile(M(), backend="inductor")(torch.randn(2, 4)).backward()
    torch._dynamo.reset()
    manifest = check_manifest(tmp_path)
    assert not manifest["errors"], manifest["errors"]
    record = manifest["functions"][0]["compiles"][0]
    files = {(e["kind"], e.get("part")): e for e in record["files"]}
    forward, backward = files[("inductor", "forward")], files[("inductor", "backward")]
    read = lambda e: (tmp_path / e["path"]).read_text()  # noqa: E731
    for entry in (forward, backward):
        names = _kernel_names(read(entry))
        assert names and {k["name"] for k in entry["kernels"]} == names
        for kernel in entry["kernels"]:
            assert kernel["source_nodes"] and kernel["from"] in ("comment", "inductor_metadata"), kernel
            assert read(entry).splitlines()[kernel["line"] - 1].lstrip().startswith(kernel["name"]), kernel
    assert any(k["from"] == "inductor_metadata" and k["name"].startswith("cpp_") for k in forward["kernels"])
    assert any(k["name"] == "extern_kernels.addmm" and k["source_nodes"] == ["linear"] for k in forward["kernels"])
    with open(tmp_path / files[("graph_nodes", None)]["path"]) as f:
        nodes = {n["name"]: n for n in json.load(f)["nodes"]}
    forward_names = _kernel_names(read(forward))
    assert nodes["linear"]["kernels"] == ["extern_kernels.addmm"]
    for name in ("h", "sin", "y", "sum_1"):     # relu, sin, * 2 and sum: fused into C++ kernels
        assert nodes[name]["kernels"] and set(nodes[name]["kernels"]) <= forward_names, nodes[name]
    assert (nodes["y"]["op"], nodes["y"]["target"]) == ("call_function", "operator.mul")
    assert nodes["y"]["user_code"] == "y = h.sin() * 2"
    backward_nodes = {n for k in backward["kernels"] for n in k["source_nodes"]}
    aot_backward = read(files[("aot_backward", None)])
    assert all(re.search(r"\b%s\b" % re.escape(n), aot_backward) or n in nodes for n in backward_nodes), backward_nodes


def test_other_backends_have_no_kernels(tmp_path):
    run_program(tmp_path, "aot_eager")
    manifest = check_manifest(tmp_path)
    for fn in manifest["functions"]:
        for record in fn["compiles"]:
            assert not [e for e in record["files"] if e["kind"] == "inductor"]
            for e in record["files"]:
                if e["kind"] == "graph_nodes":
                    with open(tmp_path / e["path"]) as f:
                        assert all(n["kernels"] == [] for n in json.load(f)["nodes"])


def test_graph_node_and_kernel_metadata_parsers():
    from uncompile._torch._session import _parse_graph_nodes, _parse_kernel_metadata
    graph = ('class GraphModule(torch.nn.Module):\n'
             '    def forward(self, L_x_: "f32[4][1]cpu", L_w_: "f32[4, 4][4, 1]cpu"):\n'
             '        l_x_ = L_x_\n'
             '        l_w_ = L_w_\n'
             '\n'
             '        # File: /m.py:3 in f, code: y = x.sin() @ w\n'
             '        sin: "f32[4][1]cpu" = l_x_.sin();  l_x_ = None\n'
             '        y: "f32[4][1]cpu" = sin @ l_w_;  sin = l_w_ = None\n'
             '\n'
             '        # No stacktrace found for following nodes\n'
             '        getitem: "f32[][]cpu" = y[0]\n'
             '        relu: "f32[][]cpu" = torch.relu(getitem);  getitem = None\n'
             '        return (relu,)\n')
    nodes = {n["name"]: n for n in _parse_graph_nodes(graph)}
    assert [n for n in nodes] == ["L_x_", "L_w_", "sin", "y", "getitem", "relu", "output"]
    assert (nodes["sin"]["op"], nodes["sin"]["target"], nodes["sin"]["user_line"]) == ("call_method", "l_x_.sin", 3)
    assert (nodes["y"]["target"], nodes["y"]["user_code"]) == ("operator.matmul", "y = x.sin() @ w")
    assert (nodes["getitem"]["target"], nodes["getitem"]["user_line"]) == ("operator.getitem", None)
    assert (nodes["relu"]["op"], nodes["relu"]["target"]) == ("call_function", "torch.relu")
    assert _parse_kernel_metadata("# Topologically Sorted Source Nodes: [h, sin_1], Original ATen: [aten.relu]") == (
        ["h", "sin_1"], ["aten.relu"])
    assert _parse_kernel_metadata("# Unsorted Source Nodes: [], Original ATen: []") == ([], [])
    assert _parse_kernel_metadata(None) == ([], [])


def test_kernel_links_hook_costs_nothing_without_inductor():
    """Inductor's C++ codegen is hooked only once something imports it: an aot_eager dump does not
    import it, and a later Inductor compile in the same process still gets its kernels linked;
    the import hook and the patch are gone after each block."""
    script = r'''
import json, sys, tempfile, warnings, torch, uncompile
warnings.simplefilter("ignore")
CPP = "torch._inductor.codegen.cpp"
def f(x):
    return x.sin() * 2
finders = list(sys.meta_path)
with uncompile.prepare_debug(tempfile.mkdtemp()):
    torch.compile(f, backend="aot_eager")(torch.randn(3))
assert CPP not in sys.modules, "aot_eager dump imported the C++ codegen"
assert sys.meta_path == finders
dump = tempfile.mkdtemp()
torch._dynamo.reset()
with uncompile.prepare_debug(dump):
    torch.compile(f, backend="inductor")(torch.randn(3))
assert sys.meta_path == finders
from torch._inductor.codegen.cpp import CppScheduling
assert CppScheduling.codegen_comment.__qualname__ == "CppScheduling.codegen_comment"
manifest = json.load(open(dump + "/manifest.json"))
kernels = [k for fn in manifest["functions"] for c in fn["compiles"] for e in c["files"] if e["kind"] == "inductor"
           for k in e["kernels"]]
assert kernels and all(k["source_nodes"] == ["sin", "mul"] and k["from"] == "inductor_metadata" for k in kernels), kernels
print("OK")
'''
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert out.returncode == 0 and "OK" in out.stdout, out.stderr[-3000:]


def _scaled(x, scale=2.0, *, shift=1):
    try:
        y = x * scale
    except RuntimeError:
        y = x
    z = y + shift
    torch._dynamo.graph_break()
    return z.tanh(), x.shape


def test_dynamo_code_runs_decompiled_when_its_value_flow_is_the_same(tmp_path):
    """Dynamo's transformed code and resume functions keep values on the stack, load globals early,
    hold a torch.Size among their constants and use try/except: the decompiled source is checked
    to do the same operations in the same order, and then it is what runs."""
    torch._dynamo.reset()
    x = torch.randn(3, 2)
    expected = _scaled(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with uncompile.prepare_debug(str(tmp_path)):
            got = torch.compile(_scaled, backend="eager")(x)
    assert torch.equal(got[0], expected[0]) and got[1] == expected[1]
    manifest = check_manifest(tmp_path)
    entries = [e for f in manifest["functions"] for r in f["compiles"] for e in r["files"]
               if e["kind"] in ("transformed", "resume")]
    assert entries and all(e["verified"] for e in entries), entries
    assert any(e["note"] == "same value flow" for e in entries)
    texts = [open(os.path.join(tmp_path, e["path"])).read() for e in entries if e["kind"] == "transformed"]
    assert all("NOT VERIFIED" not in t for t in texts)
    # the torch.Size constant is a global of the decompiled code, named per compile and installed
    assert any(re.search(r"__uncompile_const_\d+_\d+_0\b", t) for t in texts)
    # the decompiled code runs: calling again goes through it and still gives the same result
    torch.compile(_scaled, backend="eager")  # no recompile needed
    again = torch.compile(_scaled, backend="eager")(x)
    assert torch.equal(again[0], expected[0]) and again[1] == expected[1]


def test_compiled_module_closure_code_is_verified_and_runs(tmp_path):
    """torch.compile of a torch.nn.* module (here Sequential) runs Dynamo's code of a closure
    (`wrap_inline.<locals>.inner`, free variable `fn`): the decompiled source is nested in a
    function binding it, verified, and the code that runs; a closure of the user's own is handled
    the same way."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.ReLU())
    scale = torch.tensor(3.0)

    def closure(x):
        return (x * scale).sin()

    x = torch.randn(2, 4)
    expected = (model(x), closure(x))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with uncompile.prepare_debug(str(tmp_path)):
            got = (torch.compile(model, backend="eager")(x), torch.compile(closure, backend="eager")(x))
    assert all(torch.equal(a, b) for a, b in zip(got, expected))
    assert not [w for w in caught if "not verified" in str(w.message)], [str(w.message) for w in caught]
    manifest = check_manifest(tmp_path)
    transformed = [e for f in manifest["functions"] for r in f["compiles"] for e in r["files"]
                   if e["kind"] == "transformed"]
    assert len(transformed) >= 2 and all(e["verified"] for e in transformed), transformed
    texts = [open(os.path.join(tmp_path, e["path"])).read() for e in transformed]
    assert sum("def __uncompile_closure__():" in t for t in texts) >= 2
    again = (torch.compile(model, backend="eager")(x), torch.compile(closure, backend="eager")(x))
    assert all(torch.equal(a, b) for a, b in zip(again, expected))


def test_recompilable_source_keeps_free_variables_and_future_flags():
    """Decompiled Dynamo code recompiled for verification must get the original's free variables
    (also one it never reads: Dynamo inlined the call that used it) and `from __future__` flags
    (transformers' modules use `from __future__ import annotations`)."""
    import __future__
    import types as pytypes
    from uncompile._torch._session import _recompilable
    flag = __future__.annotations.compiler_flag
    code = pytypes.SimpleNamespace(co_flags=0x3 | flag, co_freevars=("fn", "scale"))
    src = 'def inner(x: int):\n    """doc"""\n    return x * scale\n'
    text = _recompilable(src, code)
    module = compile(text, "<t>", "exec", dont_inherit=True)
    outer = next(c for c in module.co_consts if isinstance(c, pytypes.CodeType))
    inner = next(c for c in outer.co_consts if isinstance(c, pytypes.CodeType))
    assert inner.co_name == "inner" and inner.co_freevars == ("fn", "scale")
    assert inner.co_flags & flag and inner.co_consts[0] == "doc"
    assert "nonlocal fn" in text and "nonlocal scale" not in text and "nonlocal fn, scale" not in text


def _compiles_as_expression(text):
    """The oracle: whether "(text)" compiles alone, as the overview's guard checks must say."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile("(%s)" % text, "<overview>", "exec", dont_inherit=True)
        return True
    except (SyntaxError, ValueError):
        return False


def test_guard_checks_give_no_compiler_warnings():
    """Compiling guards only to learn whether they compile must not warn (`x is 'a'`, an invalid
    escape), nor answer differently where warnings are errors (python -W error)."""
    from uncompile._torch import _overview

    guards = ["L['x'] is 'a'", "L['x'] == '\\d'", "L['n'] is 3", "x =="]
    _overview._valid_guard.clear()
    _overview._valid_shape.clear()
    _overview._compiles.cache_clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert _overview._valid_guards(guards) == [True, True, True, False]
    assert not caught, [str(w.message) for w in caught]
    _overview._valid_guard.clear()
    _overview._valid_shape.clear()
    _overview._compiles.cache_clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _overview._valid_guards(guards) == [True, True, True, False]


def test_guard_shape_compiles_exactly_when_the_guard_does():
    """The overview compiles one text per guard shape (strings 's', integers 0); a shape must
    compile exactly when its guard does, or a guard would become a comment (or a check) wrongly."""
    from uncompile._torch._overview import _shape

    assert _shape("hasattr(L['fn']._modules['12'], '_x') == False") == "hasattr(L['s']._modules['s'], 's') == False"
    assert _shape("___check_obj_id(G['torch'], 139850412397312)") == "___check_obj_id(G['s'], 0)"
    cases = ["x == 1.5", "x == .5", "x == 1e-05", "x == 0x1f", "x == 1_000", "x == 01", "x == 00", "x == 5j",
             "x == " + "9" * 5000, "f'{a b}' == 'a'", "b'a' + 'b'", "f'a '+'b'", "'''a'b'''", "'a''b'", "x is 'a'",
             "'a", "x['a' 'b']", "x # '1'", 'x == "a\'b"', "x == 'a\\'b'", "x == '\\N{bad}'", "'a'if x else 'b'",
             "x == 'a'1", "rb'a'", "u'a'", "L['x'] == \"<class 'int'>\"", "len(L['x']) == 4", "x.1", "x[0]1"]
    for text in cases:
        assert _compiles_as_expression(_shape(text)) == _compiles_as_expression(text), text


def test_guards_checked_together_as_each_alone():
    """The overview compiles the isolated guard shapes of a compile in one text and splits it at
    the line an error names; each answer must be what compiling that guard alone says."""
    from uncompile._torch import _overview

    guards = ["x == 1", "x ==", "f(a=1, a=2)", "L['x'] == 3", "(yield)", "await x", "x) + (y", "x) (y",
              "___check_type_id(L['x'], 94), type=<class 'dict'>", "a ids == None", "x[", "]", "x == 'a",
              "f(a, b=<c)", "x == 'a' # c", "x == \"a(\"", "x\ry", "x\0", "(__debug__ := 1)", "lambda a, a: 0",
              "x if y else z", "[i for i in x]", "len(L['x']) == 2", "x == 1e5", "not x", "x is None"] * 2
    for order in (guards, guards[::-1], guards[1::3]):
        _overview._valid_guard.clear()
        _overview._valid_shape.clear()
        assert _overview._valid_guards(order) == [_compiles_as_expression(g) for g in order]


def test_json_lines_writes_what_json_dumps_writes():
    """json_lines encodes its items with json's C encoder made once; each line must be what
    json.dumps(item, default=str) writes, for every kind of value a dump may hold."""
    import json
    from uncompile._torch._files import json_lines

    class Unknown:
        def __str__(self):
            return "unknown \u00e9"

    items = [1, 1.5, -0.0, float("nan"), float("inf"), True, None, "\u00e9\n\"\\", 10 ** 30, "", [], {},
             [1, [2, {"a": Unknown()}]], {"k": (1, 2), "n": {1: 2, None: 3, 2.5: 4}}, Unknown(), 3 + 0j]
    text = json_lines({"graph": 0, "nodes": items, "kind": "x", "empty": []})
    lines = text.splitlines()
    assert lines[1] == ' "graph": 0,' and lines[2] == ' "nodes": ['
    assert lines[3:3 + len(items)] == ["  " + json.dumps(item, default=str) + ("," if k < len(items) - 1 else "")
                                       for k, item in enumerate(items)]
    assert json.loads(text)["kind"] == "x"


def _comprehension(x):
    parts = [x[i] * i for i in range(x.shape[0]) if i % 2 == 0]  # x: a cell of this function
    return sum(parts)


def _cond(x):
    return torch.cond(x.sum() > 0, lambda t: t.sin(), lambda t: t.cos(), (x,))  # one output, unpacked


def _closure_counter():
    count = 0

    def bump(x):
        nonlocal count
        count += 1  # a cell stored after the graph's output is read
        return x + count
    return bump


@torch.compiler.disable
def _not_traced(t):
    return t * 3


def _graph_break_call(x):
    y = x.sin()
    return _not_traced(y).cos() + y  # Dynamo loads _not_traced before it unpacks the graph's output


def _sorted_by_item(x):
    # a graph break inside a lambda: Dynamo transforms the lambda's code (`<lambda>`) and makes a
    # resume function named `torch_dynamo_resume_in_<lambda>_at_N`
    return sorted([x, -x, x * 2], key=lambda t: t.sum().item() + 1)[0] * 2


def _half(t):
    if t.sum() > 0:
        print("positive")  # a graph break in a function called from a comprehension
        return t * 2
    return t / 2


def _comprehension_with_graph_break(x):
    ys = [_half(x + k) for k in range(2)]
    means = {k: y.mean() for k, y in enumerate(ys)}  # Dynamo builds {0: a, 1: b} with BUILD_MAP
    return sum(ys) + means[0] + means[1]


@pytest.mark.parametrize("make", [lambda: _comprehension, lambda: _cond, _closure_counter, lambda: _graph_break_call,
                                  lambda: _sorted_by_item, lambda: _comprehension_with_graph_break],
                         ids=["comprehension_cell", "unpacked_output", "cell_store", "graph_break_call",
                              "lambda_graph_break", "comprehension_graph_break"])
def test_dynamo_shapes_of_common_code_are_verified(tmp_path, make):
    # Dynamo's code for these keeps cells nothing captures, unpacks a graph's single output onto the
    # stack, or stores a cell after reading the graph's output: the decompiled source must be
    # verified (and so run) rather than fall back to Dynamo's bytecode.
    x = torch.randn(4, 3)
    torch._dynamo.reset()
    expected = torch.compile(make(), backend="eager")(x)
    torch._dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotVerifiedWarning)
        with uncompile.prepare_debug(str(tmp_path)):
            got = torch.compile(make(), backend="eager")(x)
    torch._dynamo.reset()
    assert torch.equal(got, expected)
    manifest = check_manifest(tmp_path)
    decompiled = [e for fn in manifest["functions"] for c in fn["compiles"] for e in c["files"]
                  if e["kind"] in ("transformed", "resume")]
    assert decompiled and all(e["verified"] for e in decompiled), decompiled


def _returns_its_closure(x):
    scale = x.sum()

    def apply(y):
        return y * scale
    return apply(x), apply


def test_returned_closure_is_verified_and_runs(tmp_path):
    # Dynamo rebuilds the returned closure with _create_nested_fn(code, ..., (cell,), ...): the
    # decompiled source passes the code as a stand-in global and the cell as
    # `(lambda: scale).__closure__[0]`; verified, it is what runs, and the closure it returns works.
    x = torch.randn(4, 3)
    torch._dynamo.reset()
    expected, expected_fn = torch.compile(_returns_its_closure, backend="eager")(x)
    torch._dynamo.reset()
    with warnings.catch_warnings():
        warnings.simplefilter("error", NotVerifiedWarning)
        with uncompile.prepare_debug(str(tmp_path)):
            got, got_fn = torch.compile(_returns_its_closure, backend="eager")(x)
    torch._dynamo.reset()
    assert torch.equal(got, expected) and torch.equal(got_fn(x), expected_fn(x))
    manifest = check_manifest(tmp_path)
    entries = [e for fn in manifest["functions"] for c in fn["compiles"] for e in c["files"]
               if e["kind"] in ("transformed", "resume")]
    assert entries and all(e["verified"] for e in entries), entries
    texts = [open(os.path.join(tmp_path, e["path"])).read() for e in entries]
    assert any("(lambda: scale).__closure__[0]" in t for t in texts)


def _dumped_code_entries(dump_dir, fn, x):
    """Compiles `fn` (eager backend) under prepare_debug(dump_dir), checks its result against a plain
    compile and the manifest, and returns the manifest's transformed and resume entries."""
    torch._dynamo.reset()
    expected = torch.compile(fn, backend="eager")(x)
    torch._dynamo.reset()
    with uncompile.prepare_debug(str(dump_dir)):
        got = torch.compile(fn, backend="eager")(x)
    torch._dynamo.reset()
    assert torch.equal(got, expected)
    manifest = check_manifest(dump_dir)
    return [e for f in manifest["functions"] for c in f["compiles"] for e in c["files"]
            if e["kind"] in ("transformed", "resume")]


def _graph_break_in_no_grad_then_more(x):
    with torch.no_grad():
        y = x * 2
        print("graph break")
        z = y + 1
    w = z * 3
    return w + x


def test_resume_function_of_a_graph_break_inside_a_with_block_is_readable(tmp_path):
    # The resume function re-enters `torch.no_grad()` in its prologue and jumps into the with body,
    # whose handler raises None where __exit__ suppresses an exception, while the normal path goes
    # on with the code after the block: no with statement does that, so the source tests a flag
    # that only the finished body sets. It is readable (refused before) and, never equivalent,
    # verified by value flow (the flag's tests go one way each and run no code); so are the
    # transformed codes.
    entries = _dumped_code_entries(tmp_path, _graph_break_in_no_grad_then_more, torch.randn(4, 3))
    transformed = [e for e in entries if e["kind"] == "transformed"]
    resumes = [e for e in entries if e["kind"] == "resume"]
    assert len(transformed) == 2 and all(e["verified"] for e in transformed), transformed
    assert len(resumes) == 1 and resumes[0]["verified"] and resumes[0]["note"] == "same value flow", resumes
    text = open(os.path.join(tmp_path, resumes[0]["path"])).read()
    assert "could not decompile" not in text, text
    assert "__with_body_done = True" in text and "if not __with_body_done:" in text, text
    assert "w = z * 3" in text and "return w + x" in text, text


def _graph_break_in_autocast(x):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        y = x @ x.T
        print("graph break")
        z = y.float() + 1
    return z.sum() + x.sum()


def test_resume_function_with_an_object_constant_is_verified(tmp_path):
    # The resume function's prologue calls torch.autocast again with the dtype among its constants,
    # which marshal cannot write: the source loads it as a global named after the resume function,
    # listed in the file's header, and is verified with it (the transformed codes too).
    entries = _dumped_code_entries(tmp_path, _graph_break_in_autocast, torch.randn(4, 4))
    resumes = [e for e in entries if e["kind"] == "resume"]
    assert len(resumes) == 1 and all(e["verified"] for e in entries), entries
    text = open(os.path.join(tmp_path, resumes[0]["path"])).read()
    name = re.search(r"# (__uncompile_const_resume_at_\w+): a constant of Dynamo's code: torch.bfloat16", text)
    assert name and ("'cpu', %s, True" % name.group(1)) in text, text
