"""Per compile: user line <-> FX nodes <-> Inductor kernels, as one JSON-able index for a page."""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional

from .links import FxNode, Kernel, infer_kernel_nodes, parse_fx_nodes, parse_inductor_kernels
from .model import Compile, Function, SourceFile, slugify

GRAPH_KINDS = ("captured_graph", "aot_joint", "aot_forward", "aot_backward")
KIND_TITLES = {
    "captured_graph": "captured graph", "aot_joint": "AOT joint graph", "aot_forward": "AOT forward graph",
    "aot_backward": "AOT backward graph", "inductor": "Inductor code", "transformed": "transformed code",
    "resume": "resume function", "original": "original source", "overview": "overview",
}


@dataclass
class Section:
    """One code block on a compile page."""
    id: str
    title: str
    file: SourceFile
    nodes: List[FxNode] = field(default_factory=list)
    kernels: List[Kernel] = field(default_factory=list)


def same_file(a: Optional[str], b: Optional[str]) -> bool:
    if not a or not b:
        return True     # unknown file: assume the function's own
    return a == b or os.path.normpath(a) == os.path.normpath(b) or a.endswith(b) or b.endswith(a)


def sections_of(c: Compile) -> List[Section]:
    sections: List[Section] = []
    used = set()
    for f in c.files:
        if f.kind not in GRAPH_KINDS and f.kind not in ("inductor", "transformed", "resume"):
            continue
        base = f.kind
        if f.graph is not None:
            base += f"-{f.graph}"
        if f.kind == "resume" and f.name:
            base += "-" + slugify(f.name)
        if f.part and f.kind == "inductor":
            base += "-" + slugify(f.part)
        sid, k = base, 1
        while sid in used:
            k += 1
            sid = f"{base}-{k}"
        used.add(sid)
        title = KIND_TITLES.get(f.kind, f.kind)
        if f.graph is not None:
            title += f" {f.graph}"
        if f.kind == "inductor" and f.part:
            title += f" ({f.part})"
        if f.kind == "resume" and f.name:
            title += f" {f.name}"
        sections.append(Section(id=sid, title=title, file=f))
    return sections


def apply_kernel_records(kernels: List[Kernel], records: List[dict]) -> None:
    """Give kernels without a "Source Nodes" comment the source nodes the dumper recorded for them
    (Inductor's own metadata of C++ kernels, which it does not write into the code)."""
    for k in kernels:
        rec = next((r for r in records if r["name"] == k.name and r["line"] in (k.def_line, *k.call_lines)), None)
        if rec is None and k.def_line is not None:
            rec = next((r for r in records if r["name"] == k.name), None)
        if rec is None:
            continue
        k.source_nodes += [n for n in rec["source_nodes"] if n not in k.source_nodes]
        k.original_aten += [a for a in rec["original_aten"] if a not in k.original_aten]


def build(fn: Function, c: Compile, sections: List[Section], user_lines: Dict[int, str]) -> dict:
    """The link index of one compile page (serialized into the page as JSON)."""
    nodes: Dict[str, dict] = {}
    kernels: Dict[str, dict] = {}
    users: Dict[str, dict] = {}
    elsewhere: Dict[str, dict] = {}

    def user_entry(ufile, uline, code):
        if uline is None:
            return None
        if same_file(ufile, fn.filename) and uline in user_lines:
            return users.setdefault(str(uline), {"n": [], "k": [], "g": [], "b": []})
        key = f"{ufile}:{uline}"
        e = elsewhere.setdefault(key, {"file": ufile, "line": uline, "code": code, "n": []})
        return e

    # Graph nodes per section: the JSON record where there is one, else the file's own comments.
    by_graph: Dict[int, List[Section]] = {}
    for s in sections:
        if s.file.kind in GRAPH_KINDS:
            parsed = parse_fx_nodes(s.file.text) if s.file.text else []
            recorded = c.graph_nodes.get(s.file.graph if s.file.graph is not None else 0) if s.file.kind == "captured_graph" else None
            if recorded:
                lines = {n.name: n.line for n in parsed}
                parsed_by_name = {n.name: n for n in parsed}
                s.nodes = []
                for n in recorded:
                    n = FxNode(**{**n.__dict__})
                    n.line = lines.get(n.name)
                    p = parsed_by_name.get(n.name)
                    if n.user_line is None and p is not None:
                        n.user_file, n.user_line, n.user_code = p.user_file, p.user_line, p.user_code
                    s.nodes.append(n)
            else:
                s.nodes = parsed
            by_graph.setdefault(s.file.graph if s.file.graph is not None else 0, []).append(s)
        elif s.file.kind == "inductor":
            s.kernels = parse_inductor_kernels(s.file.text) if s.file.text else []
            apply_kernel_records(s.kernels, s.file.kernels)

    for s in sections:
        for n in s.nodes:
            nid = f"{s.id}:{n.name}"
            nodes[nid] = {"s": s.id, "name": n.name, "line": n.line, "op": n.op, "target": n.target,
                          "uf": n.user_file, "u": n.user_line, "code": n.user_code, "k": []}
            e = user_entry(n.user_file, n.user_line, n.user_code)
            if e is not None:
                e["n"].append(nid)

    def link(nid: str, kid: str, inferred: bool):
        if kid not in nodes[nid]["k"]:
            nodes[nid]["k"].append(kid)
        if nid not in kernels[kid]["n"]:
            kernels[kid]["n"].append(nid)
        if inferred:
            kernels[kid]["inf"] = True

    for s in sections:
        if s.file.kind != "inductor":
            continue
        g = s.file.graph if s.file.graph is not None else 0
        graph_sections = by_graph.get(g, [])
        want_aot = "aot_backward" if (s.file.part or "").lower().startswith("backward") else "aot_forward"
        for k in s.kernels:
            kid = f"{s.id}:{k.key}"
            kernels[kid] = {"s": s.id, "name": k.name, "line": k.def_line or (k.call_lines[0] if k.call_lines else None),
                            "calls": k.call_lines, "n": [], "inf": False, "aten": k.original_aten}
            matched = False
            for gs in graph_sections:
                if gs.file.kind == "aot_backward" and want_aot != "aot_backward":
                    continue
                if gs.file.kind == "aot_forward" and want_aot != "aot_forward":
                    continue
                for n in gs.nodes:
                    if n.name in k.source_nodes:
                        link(f"{gs.id}:{n.name}", kid, False)
                        matched = True
                    # graph_nodes' kernels name forward (or inference) kernels only
                    if k.name in n.kernels and (gs.file.kind != "captured_graph" or want_aot == "aot_forward"):
                        link(f"{gs.id}:{n.name}", kid, False)
                        matched = True
            if not matched:
                for gs in graph_sections:
                    if gs.file.kind in ("aot_joint",) or (gs.file.kind.startswith("aot_") and gs.file.kind != want_aot):
                        continue
                    for name in infer_kernel_nodes(k, gs.nodes):
                        link(f"{gs.id}:{name}", kid, True)

    # User-line entries also collect kernels (through their nodes), guards and graph breaks.
    for key, e in list(users.items()) + list(elsewhere.items()):
        for nid in e["n"]:
            for kid in nodes[nid]["k"]:
                if "k" in e and kid not in e["k"]:
                    e["k"].append(kid)
    for i, g in enumerate(c.guards or []):
        e = user_entry(g.user_file, g.user_line, g.user_code)
        if e is not None and "g" in e:
            e["g"].append(i)
    for i, b in enumerate(c.graph_breaks):
        e = user_entry(b.user_file, b.user_line, None)
        if e is not None and "b" in e:
            e["b"].append(i)
    return {"nodes": nodes, "kernels": kernels, "users": users,
            "elsewhere": sorted(elsewhere.values(), key=lambda e: (str(e["file"]), e["line"])),
            "sections": {s.id: s.title for s in sections}}
