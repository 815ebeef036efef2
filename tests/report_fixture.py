"""A realistic dump directory (docs/dump-format.md) written without torch, for the report tests.

make_dump(root) writes two functions:
  Model.forward (model.py:12): compile 0/0 and its recompile 0/1 (a tensor size guard differs),
    a graph break at line 16 with resume function __resume_at_30_1 (compiled as 1/0), captured,
    AOT joint/forward/backward graphs, Inductor code with Triton kernels, graph_nodes JSON linking
    user lines -> nodes -> kernels;
  helper (model.py:30): backend eager, only a captured graph; its guards.json is missing and the
    original source holds text that would inject HTML if it were not escaped.
make_big_dump(root, n_functions, compiles_per_function) writes many such compiles (for timing).
"""
import json
import os

MODEL_FILE = "/home/user/project/model.py"

ORIGINAL_FORWARD = '''\
# Original source of Model.forward (/home/user/project/model.py:12), as torch.compile saw it.
# Lines 12-18 of the file.
    def forward(self, x):
        y = x.sin()
        z = self.fc(y)
        w = torch.relu(z) + 1
        print("graph break")
        out = w.cos()
        return out * 2
'''

ORIGINAL_HELPER = '''\
# Original source of helper (/home/user/project/model.py:30), as torch.compile saw it.
# Lines 30-33 of the file.
def helper(t):
    s = "</script><script>window.__pwned = 1</script><img src=x onerror='window.__pwned=2'>"
    u = t + 1  # <b>not bold</b> & ampersand
    return u
'''

TRANSFORMED = '''\
# Dynamo's transformed code of forward (/home/user/project/model.py:12), compile {cid}, decompiled by uncompile.
def forward(self, x):
    graph_out_0 = __compiled_fn_1(x, self.fc.weight, self.fc.bias)
    w = graph_out_0[0]
    print("graph break")
    return __resume_at_30_1(w)
'''

RESUME = '''\
# Resume function __resume_at_30_1 (torch_dynamo_resume_in_forward_at_16): Dynamo calls it after the graph break.
def torch_dynamo_resume_in_forward_at_16(w):
    out = w.cos()
    return out * 2
'''

CAPTURED = '''\
# captured graph 0 of compile {cid} (forward), written by uncompile.
import torch

class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[{n}, 8][8, 1]cpu", L_self_fc_weight: "f32[8, 8][8, 1]cpu", L_self_fc_bias: "f32[8][1]cpu"):
        l_x_ = L_x_

        # File: /home/user/project/model.py:13 in forward, code: y = x.sin()
        y: "f32[{n}, 8][8, 1]cpu" = l_x_.sin();  l_x_ = None

        # File: /home/user/project/model.py:14 in forward, code: z = self.fc(y)
        z: "f32[{n}, 8][8, 1]cpu" = torch._C._nn.linear(y, L_self_fc_weight, L_self_fc_bias);  y = None

        # File: /home/user/project/model.py:15 in forward, code: w = torch.relu(z) + 1
        relu: "f32[{n}, 8][8, 1]cpu" = torch.relu(z);  z = None
        w: "f32[{n}, 8][8, 1]cpu" = relu + 1;  relu = None
        return (w,)
'''

AOT_FORWARD = '''\
# aot forward 0 of compile {cid} (forward), written by uncompile.
import torch

class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[{n}, 8][8, 1]cpu",
        primals_2: "f32[8, 8][8, 1]cpu",
        primals_3: "f32[8][1]cpu",
    ):
        # File: /home/user/project/model.py:13 in forward, code: y = x.sin()
        sin: "f32[{n}, 8][8, 1]cpu" = torch.ops.aten.sin.default(primals_1)

        # File: /home/user/project/model.py:14 in forward, code: z = self.fc(y)
        permute: "f32[8, 8][1, 8]cpu" = torch.ops.aten.permute.default(primals_2, [1, 0]);  primals_2 = None
        addmm: "f32[{n}, 8][8, 1]cpu" = torch.ops.aten.addmm.default(primals_3, sin, permute);  primals_3 = permute = None

        # File: /home/user/project/model.py:15 in forward, code: w = torch.relu(z) + 1
        relu: "f32[{n}, 8][8, 1]cpu" = torch.ops.aten.relu.default(addmm);  addmm = None
        add: "f32[{n}, 8][8, 1]cpu" = torch.ops.aten.add.Tensor(relu, 1)
        return (add, primals_1, sin, relu)
'''

AOT_BACKWARD = '''\
# aot backward 0 of compile {cid} (forward), written by uncompile.
import torch

class GraphModule(torch.nn.Module):
    def forward(
        self,
        primals_1: "f32[{n}, 8][8, 1]cpu",
        relu: "f32[{n}, 8][8, 1]cpu",
        tangents_1: "f32[{n}, 8][8, 1]cpu",
    ):
        # File: /home/user/project/model.py:15 in forward, code: w = torch.relu(z) + 1
        threshold_backward: "f32[{n}, 8][8, 1]cpu" = torch.ops.aten.threshold_backward.default(tangents_1, relu, 0);  tangents_1 = relu = None

        # File: /home/user/project/model.py:13 in forward, code: y = x.sin()
        cos: "f32[{n}, 8][8, 1]cpu" = torch.ops.aten.cos.default(primals_1);  primals_1 = None
        mul: "f32[{n}, 8][8, 1]cpu" = torch.ops.aten.mul.Tensor(threshold_backward, cos);  threshold_backward = cos = None
        return (mul, None, None)
'''

AOT_JOINT = '''\
# aot joint 0 of compile {cid} (forward), written by uncompile.
import torch

class GraphModule(torch.nn.Module):
    def forward(self, primals, tangents):
        primals_1, primals_2, primals_3, tangents_1, = fx_pytree.tree_flatten_spec([primals, tangents], self._in_spec)
        # File: /home/user/project/model.py:13 in forward, code: y = x.sin()
        sin: "f32[{n}, 8][8, 1]cpu" = torch.ops.aten.sin.default(primals_1)
        return pytree.tree_unflatten([sin], self._out_spec)
'''

INDUCTOR_FORWARD = '''\
# AOT ID: ['0_forward']
from ctypes import c_void_p, c_long, c_int
import torch
from torch._inductor.async_compile import AsyncCompile
from torch._inductor.select_algorithm import extern_kernels

async_compile = AsyncCompile()

# kernel path: /tmp/torchinductor_user/ab/cabcdef.py
# Topologically Sorted Source Nodes: [y], Original ATen: [aten.sin]
# Source node to ATen node mapping:
#   y => sin
triton_poi_fused_sin_0 = async_compile.triton('triton_poi_fused_sin_0', \'\'\'
import triton
import triton.language as tl

@triton.jit
def triton_poi_fused_sin_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = {numel}
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl_math.sin(tmp0)
    tl.store(out_ptr0 + (x0), tmp1, xmask)
\'\'\', device_str='cuda')


# kernel path: /tmp/torchinductor_user/cd/ccdef01.py
# Topologically Sorted Source Nodes: [relu, w], Original ATen: [aten.relu, aten.add]
triton_poi_fused_add_relu_1 = async_compile.triton('triton_poi_fused_add_relu_1', \'\'\'
@triton.jit
def triton_poi_fused_add_relu_1(in_out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xnumel = {numel}
    xindex = tl.program_id(0) * XBLOCK + tl.arange(0, XBLOCK)[:]
    tmp0 = tl.load(in_out_ptr0 + (xindex), xindex < xnumel)
    tmp2 = triton_helpers.maximum(0, tmp0)
    tl.store(in_out_ptr0 + (xindex), tmp2 + 1.0, xindex < xnumel)
\'\'\', device_str='cuda')


async_compile.wait(globals())
del async_compile

def call(args):
    primals_1, primals_2, primals_3 = args
    args.clear()
    buf0 = empty_strided_cuda(({n}, 8), (8, 1), torch.float32)
    triton_poi_fused_sin_0.run(primals_1, buf0, {numel}, grid=grid({numel}), stream=stream0)
    buf1 = empty_strided_cuda(({n}, 8), (8, 1), torch.float32)
    # Topologically Sorted Source Nodes: [z], Original ATen: [aten.addmm]
    extern_kernels.mm(buf0, reinterpret_tensor(primals_2, (8, 8), (1, 8), 0), out=buf1)
    buf2 = buf1; del buf1  # reuse
    triton_poi_fused_add_relu_1.run(buf2, {numel}, grid=grid({numel}), stream=stream0)
    return (buf2, primals_1, buf0, )
'''

INDUCTOR_BACKWARD = '''\
# AOT ID: ['0_backward']
import torch
from torch._inductor.async_compile import AsyncCompile
async_compile = AsyncCompile()

cpp_fused_cos_mul_threshold_backward_0 = async_compile.cpp_pybinding(['float*', 'const float*'], r\'\'\'
#include <torch/csrc/inductor/cpp_prefix.h>
extern "C"  void  kernel(float* in_out_ptr0, const float* in_ptr0)
{{
    for(int64_t x0=0; x0<{numel}; x0+=1) {{ in_out_ptr0[x0] = (in_out_ptr0[x0] <= 0 ? 0 : in_out_ptr0[x0]) * std::cos(in_ptr0[x0]); }}
}}
\'\'\')

async_compile.wait(globals())
del async_compile

def call(args):
    primals_1, relu, tangents_1 = args
    buf0 = tangents_1
    cpp_fused_cos_mul_threshold_backward_0(buf0, primals_1)
    return (buf0, None, None, )
'''

CAPTURED_HELPER = '''\
# captured graph 0 of compile 2/0 (helper), written by uncompile.
import torch

class GraphModule(torch.nn.Module):
    def forward(self, L_t_: "f32[3][1]cpu"):
        l_t_ = L_t_

        # File: /home/user/project/model.py:32 in helper, code: u = t + 1  # <b>not bold</b> & ampersand
        u: "f32[3][1]cpu" = l_t_ + 1;  l_t_ = None
        return (u,)
'''

GLOBAL_STATE = '___check_global_state() against {"grad_mode":true,"num_threads":2}'


def _guards(cid, n):
    tensor = ("check_tensor(L['x'], Tensor, DispatchKeySet(CPU, BackendSelect, ADInplaceOrView, AutogradCPU), "
              f"torch.float32, device=None, requires_grad=False, size=[{n}, 8], stride=[8, 1])")
    guards = [
        {"text": GLOBAL_STATE, "kind": "GLOBAL_STATE", "source": None, "user_file": None, "user_line": None, "user_code": None},
        {"text": tensor, "kind": "TENSOR_MATCH", "source": "L['x']",
         "user_file": MODEL_FILE, "user_line": 13, "user_code": "y = x.sin()"},
        {"text": "hasattr(L['x'], '_dynamo_dynamic_indices') == False", "kind": "DIMENSION_DYNAMIC_MARKING_GUARD",
         "source": "L['x']", "user_file": MODEL_FILE, "user_line": 13, "user_code": "y = x.sin()"},
        {"text": "___check_obj_id(L['self'].fc, 140000000000001)", "kind": "ID_MATCH", "source": "L['self'].fc",
         "user_file": MODEL_FILE, "user_line": 14, "user_code": "z = self.fc(y)"},
    ]
    if n != 4:
        guards.append({"text": "2 <= L['x'].size()[0]", "kind": "LAMBDA_GUARD", "source": None,
                       "user_file": MODEL_FILE, "user_line": 13, "user_code": "y = x.sin()"})
    return {"compile_id": cid, "guards": guards}


def _guards_txt(data):
    lines = [f"# Guards of compile {data['compile_id']}", "", "TREE_GUARD_MANAGER:", "+- RootGuardManager"]
    for g in data["guards"]:
        lines.append(f"| +- {g['kind']}: {g['text']}" + (f"  # {g['user_code']}  # model.py:{g['user_line']}" if g["user_line"] else ""))
    return "\n".join(lines) + "\n"


def _nodes(cid, n, with_kernels=True):
    def node(name, op, target, line=None, code=None, kernels=()):
        return {"name": name, "op": op, "target": target, "user_file": MODEL_FILE if line else None,
                "user_line": line, "user_code": code, "kernels": list(kernels) if with_kernels else []}
    return {"graph": 0, "kind": "captured_graph", "nodes": [
        node("L_x_", "placeholder", "L_x_"),
        node("L_self_fc_weight", "placeholder", "L_self_fc_weight"),
        node("L_self_fc_bias", "placeholder", "L_self_fc_bias"),
        node("y", "call_method", "sin", 13, "y = x.sin()", ["triton_poi_fused_sin_0"]),
        node("z", "call_function", "torch._C._nn.linear", 14, "z = self.fc(y)", ["extern_kernels.mm"]),
        node("relu", "call_function", "torch.relu", 15, "w = torch.relu(z) + 1", ["triton_poi_fused_add_relu_1"]),
        node("w", "call_function", "operator.add", 15, "w = torch.relu(z) + 1", ["triton_poi_fused_add_relu_1"]),
        node("output", "output", "output"),
    ]}


def _write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return rel


def _forward_compile(root, fdir, frame, attempt, cache_entry, n, time_s, reason=None, inductor_pad=0):
    cid = f"{frame}/{attempt}"
    d = f"{fdir}/c{frame}_{attempt}"
    fmt = {"cid": cid, "n": n, "numel": n * 8}
    guards = _guards(cid, n)
    inductor_fwd = INDUCTOR_FORWARD.format(**fmt)
    if inductor_pad:      # make the Inductor file as long as real ones (for the timing test)
        inductor_fwd += "".join(f"# padding line {i}: buf{i} = empty_strided_cuda((8,), (1,), torch.float32)\n"
                                for i in range(inductor_pad))
    files = [
        {"kind": "transformed", "path": _write(root, f"{d}/transformed.py", TRANSFORMED.format(**fmt)), "verified": attempt == 0,
         "note": None if attempt == 0 else "decompiled source not equivalent; Dynamo's bytecode kept"},
        {"kind": "resume", "path": _write(root, f"{d}/resume___resume_at_30_1.py", RESUME), "name": "__resume_at_30_1",
         "verified": False, "note": "decompiled source not equivalent; Dynamo's bytecode kept"},
        {"kind": "guards", "path": _write(root, f"{d}/guards.txt", _guards_txt(guards))},
        {"kind": "guards_json", "path": _write(root, f"{d}/guards.json", json.dumps(guards, indent=1))},
        {"kind": "captured_graph", "path": _write(root, f"{d}/captured_graph_0.py", CAPTURED.format(**fmt)), "graph": 0},
        {"kind": "aot_joint", "path": _write(root, f"{d}/aot_joint_0.py", AOT_JOINT.format(**fmt)), "graph": 0},
        {"kind": "aot_forward", "path": _write(root, f"{d}/aot_forward_0.py", AOT_FORWARD.format(**fmt)), "graph": 0},
        {"kind": "aot_backward", "path": _write(root, f"{d}/aot_backward_0.py", AOT_BACKWARD.format(**fmt)), "graph": 0},
        {"kind": "inductor", "path": _write(root, f"{d}/inductor_0.py", inductor_fwd), "graph": 0, "part": "forward"},
        {"kind": "inductor", "path": _write(root, f"{d}/inductor_0_backward.py", INDUCTOR_BACKWARD.format(**fmt)),
         "graph": 0, "part": "backward"},
        {"kind": "graph_nodes", "path": _write(root, f"{d}/graph_nodes_0.json", json.dumps(_nodes(cid, n), indent=1)), "graph": 0},
    ]
    return {"compile_id": cid, "frame_id": frame, "attempt": attempt, "cache_entry": cache_entry,
            "compile_time_s": time_s, "backend": "inductor", "recompile_reason": reason,
            "graph_breaks": [{"reason": "call to builtin print (Dynamo cannot trace print)", "user_file": MODEL_FILE,
                              "user_line": 16, "detail": "Graph Break Reason: builtin print\n  File model.py, line 16\n"}],
            "files": files}


def _resume_compile(root, fdir, frame):
    d = f"{fdir}/c{frame}_0"
    cid = f"{frame}/0"
    captured = (f"# captured graph 0 of compile {cid} (torch_dynamo_resume_in_forward_at_16)\nimport torch\n\n"
                "class GraphModule(torch.nn.Module):\n"
                "    def forward(self, L_w_: \"f32[4, 8][8, 1]cpu\"):\n        l_w_ = L_w_\n\n"
                "        # File: /home/user/project/model.py:17 in torch_dynamo_resume_in_forward_at_16, code: out = w.cos()\n"
                "        out: \"f32[4, 8][8, 1]cpu\" = l_w_.cos();  l_w_ = None\n\n"
                "        # File: /home/user/project/model.py:18 in torch_dynamo_resume_in_forward_at_16, code: return out * 2\n"
                "        mul: \"f32[4, 8][8, 1]cpu\" = out * 2;  out = None\n        return (mul,)\n")
    return {"compile_id": cid, "frame_id": frame, "attempt": 0, "cache_entry": 0, "compile_time_s": 0.42,
            "backend": "eager", "recompile_reason": None, "resume_function": "__resume_at_30_1",
            "code_name": "torch_dynamo_resume_in_forward_at_16", "graph_breaks": [],
            "files": [
                {"kind": "transformed", "path": _write(root, f"{d}/transformed.py", RESUME), "verified": True, "note": None},
                {"kind": "captured_graph", "path": _write(root, f"{d}/captured_graph_0.py", captured), "graph": 0},
            ]}


def _helper_function(root, frame, fdir="helper_model_L30"):
    d = f"{fdir}/c{frame}_0"
    return {
        "name": "helper", "qualname": "helper", "filename": MODEL_FILE, "firstlineno": 30, "dir": fdir,
        "files": {"original": _write(root, f"{fdir}/original.py", ORIGINAL_HELPER)},   # no overview
        "compiles": [{
            "compile_id": f"{frame}/0", "frame_id": frame, "attempt": 0, "cache_entry": None, "compile_time_s": None,
            "backend": "eager", "recompile_reason": None, "graph_breaks": [],
            "files": [
                {"kind": "captured_graph", "path": _write(root, f"{d}/captured_graph_0.py", CAPTURED_HELPER), "graph": 0},
                {"kind": "guards", "path": _write(root, f"{d}/guards.txt",
                                                  "TREE_GUARD_MANAGER:\n| +- ID_MATCH: ___check_obj_id(L['t'], 1)  # <script>x</script>\n")},
                # listed but never written: the report must say so, not fail
                {"kind": "transformed", "path": f"{d}/transformed.py", "verified": None},
            ]}],
    }


def _manifest(functions):
    return {"format": "uncompile-dump", "format_version": 1, "python": "3.11.7", "torch": "2.13.0",
            "uncompile": "0.1.0", "rank": None, "world_size": None, "functions": functions}


def make_dump(root):
    """The two-function dump described in the module docstring; returns root."""
    root = str(root)
    os.makedirs(root, exist_ok=True)
    fdir = "forward_model_L12"
    forward = {
        "name": "forward", "qualname": "Model.forward", "filename": MODEL_FILE, "firstlineno": 12, "dir": fdir,
        "files": {"original": _write(root, f"{fdir}/original.py", ORIGINAL_FORWARD),
                  "overview": _write(root, f"{fdir}/overview.py", "# Overview of Model.forward\nimport torch\n\ndef dispatch(L):\n    return None\n")},
        "compiles": [
            _forward_compile(root, fdir, 0, 0, 1, 4, 1.23),
            _forward_compile(root, fdir, 0, 1, 0, 8, 0.91,
                             reason="0/0: tensor 'x' size mismatch at index 0. expected 4, actual 8"),
            _resume_compile(root, fdir, 1),
        ],
    }
    manifest = _manifest([forward, _helper_function(root, 2)])
    _write(root, "manifest.json", json.dumps(manifest, indent=1))
    return root


def make_big_dump(root, n_functions=100, compiles_per_function=3, inductor_pad=400):
    """n_functions functions like Model.forward, each with compiles_per_function attempts of one
    frame (every attempt after the first a recompile), each with one graph: for timing."""
    root = str(root)
    os.makedirs(root, exist_ok=True)
    functions = []
    frame = 0
    for i in range(n_functions):
        fdir = f"forward{i}_model_L12"
        compiles = []
        for a in range(compiles_per_function):
            reason = None if a == 0 else f"{frame}/{a - 1}: tensor 'x' size mismatch at index 0. expected {4 * a}, actual {4 * (a + 1)}"
            compiles.append(_forward_compile(root, fdir, frame, a, compiles_per_function - 1 - a, 4 * (a + 1),
                                             0.5 + a / 10, reason=reason, inductor_pad=inductor_pad))
        frame += 1
        functions.append({"name": f"forward{i}", "qualname": f"Model{i}.forward", "filename": MODEL_FILE, "firstlineno": 12,
                          "dir": fdir, "files": {"original": _write(root, f"{fdir}/original.py", ORIGINAL_FORWARD)},
                          "compiles": compiles})
    _write(root, "manifest.json", json.dumps(_manifest(functions), indent=1))
    return root
