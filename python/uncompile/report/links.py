"""The links between a user's source lines, FX graph nodes and Inductor kernels.

Sources, best first:
  1. graph_nodes_<n>.json (the dumper's record: node -> user line, node -> kernels);
  2. the FX graph files themselves: FX writes "# File: PATH:LINE in FN, code: CODE" above the
     nodes a user line produced (this is how AOT forward/backward nodes get their user line);
  3. Inductor's output code: "# Topologically Sorted Source Nodes: [a, b]" comments above a kernel
     definition or call name the nodes a kernel computes (captured-graph names for forward code,
     backward-graph names for backward code); Inductor writes them for Triton and extern kernels;
  4. for C++ kernels, which get no such comment, the same metadata as the dumper recorded it while
     Inductor generated the kernel (the manifest's "kernels" of the inductor file);
  5. failing all that, a kernel's fused name ("cpp_fused_relu_threshold_backward_0") is matched
     against the AOT nodes' ops; such links are marked "inferred".
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from .highlight import split_lines


@dataclass
class FxNode:
    name: str
    op: Optional[str] = None
    target: Optional[str] = None
    user_file: Optional[str] = None
    user_line: Optional[int] = None
    user_code: Optional[str] = None
    kernels: List[str] = field(default_factory=list)
    line: Optional[int] = None          # 1-based line in the graph file where the node is defined


_FILE_COMMENT = re.compile(r"^\s*# File: (?P<file>.+?):(?P<line>\d+) in (?P<fn>[^,]*)(?:, code: (?P<code>.*))?$")
_ASSIGN = re.compile(r"^\s+(?P<name>[A-Za-z_]\w*)\s*(?::\s*\"[^\"]*\")?\s*=\s*(?P<rhs>.*)$")
_PARAM = re.compile(r"(?P<name>[A-Za-z_]\w*)\s*:\s*\"[^\"]*\"")
_DEF_FORWARD = re.compile(r"^\s*def forward\(")
_TARGET = re.compile(r"^(?:torch\.ops\.)?(?P<t>[\w.]+)\(")


def parse_fx_nodes(text: str) -> List[FxNode]:
    """Nodes of an FX graph module's printed code, with their user lines from FX's comments."""
    nodes: List[FxNode] = []
    current = None          # (file, line, code) of the last "# File:" comment, until a blank line
    in_forward = False
    in_signature = False
    seen = set()
    for i, line in enumerate(split_lines(text), start=1):
        if _DEF_FORWARD.match(line):
            in_forward = True
            in_signature = True
            current = None
        elif in_forward and re.match(r"^\s*(?:class |def )", line):
            in_forward = False
        if not in_forward:
            continue
        if in_signature:
            for m in _PARAM.finditer(line.split("#", 1)[0]):
                if m.group("name") != "self" and m.group("name") not in seen:
                    seen.add(m.group("name"))
                    nodes.append(FxNode(name=m.group("name"), op="placeholder", line=i))
            if re.search(r"\)\s*(->[^:]*)?:\s*(#.*)?$", line):
                in_signature = False
            continue
        if not line.strip():
            current = None
            continue
        m = _FILE_COMMENT.match(line)
        if m:
            current = (m.group("file"), int(m.group("line")), (m.group("code") or "").strip() or None)
            continue
        m = _ASSIGN.match(line)
        if m and not line.lstrip().startswith("#"):
            name = m.group("name")
            if name in seen:
                continue
            seen.add(name)
            t = _TARGET.match(m.group("rhs"))
            node = FxNode(name=name, op="call_function" if t else None, target=t.group("t") if t else None, line=i)
            if current is not None:
                node.user_file, node.user_line, node.user_code = current
            nodes.append(node)
    return nodes


@dataclass
class Kernel:
    name: str                   # as called ("cpp_fused_sin_0", "extern_kernels.addmm")
    key: str                    # unique within its inductor file (anchor-safe)
    def_line: Optional[int]     # where it is defined in the file (None for extern kernels)
    call_lines: List[int] = field(default_factory=list)
    source_nodes: List[str] = field(default_factory=list)
    original_aten: List[str] = field(default_factory=list)
    inferred: bool = False      # source_nodes matched from the kernel's name, not recorded


_KERNEL_DEF = re.compile(r"^(?P<name>[A-Za-z_]\w*)\s*=\s*async_compile\.\w+\(")
_SOURCE_NODES = re.compile(r"#\s*(?:Topologically Sorted |Unsorted )?Source Nodes:\s*\[(?P<nodes>[^\]]*)\]"
                           r"(?:,\s*Original ATen:\s*\[(?P<aten>[^\]]*)\])?")
_EXTERN_CALL = re.compile(r"^\s+(?:\w+\s*=\s*)?(?P<name>extern_kernels\.\w+)\(")


def parse_inductor_kernels(text: str) -> List[Kernel]:
    lines = split_lines(text)
    kernels: Dict[str, Kernel] = {}
    order: List[str] = []
    pending: List[str] = []     # source nodes of the last comment, waiting for the definition or call below it
    pending_aten: List[str] = []
    pending_age = 0
    for i, line in enumerate(lines, start=1):
        m = _KERNEL_DEF.match(line)
        if m:
            name = m.group("name")
            k = kernels.get(name)
            if k is None:
                k = kernels[name] = Kernel(name=name, key=name, def_line=i)
                order.append(name)
            k.def_line = k.def_line or i
            _take(k, pending, pending_aten)
            pending, pending_aten = [], []
            continue
        m = _SOURCE_NODES.search(line)
        if m:
            pending = [n.strip() for n in m.group("nodes").split(",") if n.strip()]
            pending_aten = [n.strip() for n in (m.group("aten") or "").split(",") if n.strip()]
            pending_age = 0
            continue
        stripped = line.strip()
        if stripped.startswith("#") or not stripped:
            continue
        called = None
        m = _EXTERN_CALL.match(line)
        if m:
            called = m.group("name")
            key = f"{called}@{i}"
            kernels[key] = Kernel(name=called, key=key.replace("@", "_L"), def_line=None, call_lines=[i])
            order.append(key)
            k = kernels[key]
        else:
            k = None
            for name in order:
                kk = kernels[name]
                if kk.def_line is not None and re.match(rf"^\s+{re.escape(name)}(?:\.run)?\(", line):
                    k = kk
                    k.call_lines.append(i)
                    break
        if k is not None:
            _take(k, pending, pending_aten)
            pending, pending_aten = [], []
        else:
            pending_age += 1
            if pending_age > 3:
                pending, pending_aten = [], []
    return [kernels[n] for n in order]


def _take(kernel: Kernel, nodes: List[str], aten: List[str]) -> None:
    kernel.source_nodes += [n for n in nodes if n not in kernel.source_nodes]
    kernel.original_aten += [a for a in aten if a not in kernel.original_aten]


_FUSED = re.compile(r"^(?:triton|cpp|cuda|mps|halide|xpu)_\w*?fused_(?P<ops>\w+?)(?:_\d+)?$")


def fused_ops(kernel_name: str) -> Optional[List[str]]:
    m = _FUSED.match(kernel_name)
    return m.group("ops").split("_") if m else None


def _op_of(node: FxNode) -> List[str]:
    names = []
    if node.target:
        parts = node.target.split(".")
        # torch.ops.aten.sin.default -> sin ; l_x_.sin -> sin ; torch.relu -> relu
        if "aten" in parts and parts.index("aten") + 1 < len(parts):
            names.append(parts[parts.index("aten") + 1])
        else:
            names.append(parts[-1])
    names.append(re.sub(r"_\d+$", "", node.name))
    return names


def infer_kernel_nodes(kernel: Kernel, nodes: List[FxNode]) -> List[str]:
    """Nodes whose op appears in the kernel's fused name, as a run of whole '_'-separated words."""
    ops = fused_ops(kernel.name)
    if not ops:
        return []
    joined = "_" + "_".join(ops) + "_"
    found = []
    for node in nodes:
        if node.op == "placeholder":
            continue
        for op in _op_of(node):
            if op and f"_{op}_" in joined:
                found.append(node.name)
                break
    return found
