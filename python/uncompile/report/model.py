"""Reading a dump directory (docs/dump-format.md) into plain dataclasses.

Tolerant by design: a missing or unreadable optional file or field becomes None (shown as
"not recorded" in the report) and a note in `Dump.problems`; only a missing or unreadable
manifest is an error.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional

from .highlight import split_lines
from .links import FxNode, parse_fx_nodes


class DumpError(Exception):
    """The directory is not a dump that can be reported (no readable manifest)."""


@dataclass
class SourceFile:
    kind: str
    path: str                       # relative to the dump, with '/'
    text: Optional[str]             # None when the file is missing or unreadable
    graph: Optional[int] = None
    name: Optional[str] = None      # resume function name
    verified: Optional[bool] = None
    note: Optional[str] = None
    part: Optional[str] = None      # inductor: "forward" / "backward"
    problem: Optional[str] = None   # why text is None
    kernels: List[dict] = field(default_factory=list)   # inductor: the dumper's record of each kernel


@dataclass
class Guard:
    text: str
    kind: Optional[str] = None
    source: Optional[str] = None
    user_file: Optional[str] = None
    user_line: Optional[int] = None
    user_code: Optional[str] = None


@dataclass
class GraphBreak:
    reason: str
    user_file: Optional[str] = None
    user_line: Optional[int] = None
    detail: Optional[str] = None


@dataclass
class Compile:
    compile_id: str
    frame_id: Optional[int]
    attempt: Optional[int]
    cache_entry: Optional[int]
    compile_time_s: Optional[float]
    backend: Optional[str]
    recompile_reason: Optional[str]
    graph_breaks: List[GraphBreak]
    files: List[SourceFile]
    resume_function: Optional[str] = None
    code_name: Optional[str] = None
    guards: Optional[List[Guard]] = None        # from guards.json
    guards_text: Optional[str] = None           # guards.txt
    graph_nodes: Dict[int, List[FxNode]] = field(default_factory=dict)   # graph_nodes_<n>.json
    slug: str = ""                              # file-name-safe id: "c0_1"

    def files_of(self, kind: str) -> List[SourceFile]:
        return [f for f in self.files if f.kind == kind]

    def file_of(self, kind: str, graph: Optional[int] = None) -> Optional[SourceFile]:
        for f in self.files:
            if f.kind == kind and (graph is None or f.graph == graph):
                return f
        return None

    def graphs(self) -> List[int]:
        seen = sorted({f.graph for f in self.files if f.graph is not None})
        return seen

    @property
    def recompiled_from(self) -> Optional[str]:
        """The compile id a recompile's reason names ("0/0: tensor ... mismatch"), if any."""
        if not self.recompile_reason:
            return None
        m = re.match(r"\s*(\d+/\d+)\s*:", self.recompile_reason)
        return m.group(1) if m else None


@dataclass
class Function:
    name: str
    qualname: str
    filename: Optional[str]
    firstlineno: Optional[int]
    dir: str
    original: Optional[SourceFile]
    overview: Optional[SourceFile]
    compiles: List[Compile]
    rank: Optional[int] = None
    slug: str = ""

    def compile_by_id(self, cid: str) -> Optional[Compile]:
        for c in self.compiles:
            if c.compile_id == cid:
                return c
        return None

    def user_lines(self) -> Dict[int, str]:
        """File line number -> text of the user's original source (empty when not recorded)."""
        if self.original is None or self.original.text is None:
            return {}
        return original_line_map(self.original.text, self.firstlineno)


@dataclass
class Dump:
    root: Path
    manifests: List[str]
    meta: Dict[str, Any]
    functions: List[Function]
    problems: List[str] = field(default_factory=list)

    def all_compiles(self):
        for f in self.functions:
            for c in f.compiles:
                yield f, c


_SLUG_BAD = re.compile(r"[^A-Za-z0-9_.-]+")


def slugify(text: str) -> str:
    s = _SLUG_BAD.sub("_", text).strip(".") or "x"
    return s[:120]


def original_line_map(text: str, firstlineno: Optional[int]) -> Dict[int, str]:
    """Map file line numbers to lines of original.py.

    original.py starts with comment lines written by the dumper ("# Original source of f ...",
    "# Lines 10-13 of the file."), then the function's source starting at `firstlineno`.
    """
    lines = split_lines(text)
    start = None
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        m = re.match(r"#\s*Lines\s+(\d+)\s*-\s*(\d+)", lines[i])
        if m:
            start = int(m.group(1))
        i += 1
    if i == len(lines):       # all comments: nothing to map
        i = 0
    if start is None:
        start = firstlineno if firstlineno is not None else 1
    return {start + k: line for k, line in enumerate(lines[i:])}


def original_header_lines(text: str) -> int:
    lines = split_lines(text)
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        i += 1
    return 0 if i == len(lines) else i


def _int(v) -> Optional[int]:
    return v if isinstance(v, int) and not isinstance(v, bool) else None


def _str(v) -> Optional[str]:
    return v if isinstance(v, str) else None


def _num(v) -> Optional[float]:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


class _Reader:
    def __init__(self, root: Path, problems: List[str]):
        self.root = root
        self.problems = problems

    def read_text(self, rel: Optional[str]):
        if not rel or not isinstance(rel, str):
            return None, "no path"
        path = (self.root / rel)
        try:
            resolved = path.resolve()
            if self.root.resolve() not in resolved.parents:
                self.problems.append(f"{rel}: outside the dump, not read")
                return None, "outside the dump"
            return resolved.read_text(encoding="utf-8", errors="replace"), None
        except FileNotFoundError:
            self.problems.append(f"{rel}: listed in the manifest but missing")
            return None, "missing"
        except OSError as e:
            self.problems.append(f"{rel}: {e.strerror or e}")
            return None, "unreadable"

    def read_json(self, rel: Optional[str]):
        text, problem = self.read_text(rel)
        if text is None:
            return None
        try:
            return json.loads(text)
        except ValueError as e:
            self.problems.append(f"{rel}: not valid JSON ({e})")
            return None

    def source_file(self, entry: Dict[str, Any], with_text: bool = True) -> Optional[SourceFile]:
        if not isinstance(entry, dict):
            return None
        kind = _str(entry.get("kind")) or "unknown"
        path = _str(entry.get("path")) or ""
        text, problem = self.read_text(path) if with_text else (None, None)
        verified = entry.get("verified")
        return SourceFile(kind=kind, path=path, text=text, graph=_int(entry.get("graph")),
                          name=_str(entry.get("name")),
                          verified=verified if isinstance(verified, bool) else None,
                          note=_str(entry.get("note")), part=_str(entry.get("part")), problem=problem,
                          kernels=_kernel_records(entry.get("kernels")))


def _kernel_records(data) -> List[dict]:
    """The manifest's "kernels" of an inductor file: name, line, source_nodes, original_aten, from."""
    out = []
    for k in data if isinstance(data, list) else []:
        if not isinstance(k, dict) or not isinstance(k.get("name"), str):
            continue
        strings = lambda v: [x for x in v if isinstance(x, str)] if isinstance(v, list) else []  # noqa: E731
        out.append({"name": k["name"], "line": _int(k.get("line")), "source_nodes": strings(k.get("source_nodes")),
                    "original_aten": strings(k.get("original_aten")), "from": _str(k.get("from"))})
    return out


def _guards(data) -> Optional[List[Guard]]:
    if not isinstance(data, dict) or not isinstance(data.get("guards"), list):
        return None
    out = []
    for g in data["guards"]:
        if not isinstance(g, dict):
            continue
        out.append(Guard(text=_str(g.get("text")) or "", kind=_str(g.get("kind")), source=_str(g.get("source")),
                         user_file=_str(g.get("user_file")), user_line=_int(g.get("user_line")),
                         user_code=_str(g.get("user_code"))))
    return out


def _graph_nodes(data) -> Optional[List[FxNode]]:
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
        return None
    out = []
    for n in data["nodes"]:
        if not isinstance(n, dict) or not isinstance(n.get("name"), str):
            continue
        kernels = [k for k in n.get("kernels") or [] if isinstance(k, str)]
        out.append(FxNode(name=n["name"], op=_str(n.get("op")), target=_str(n.get("target")),
                          user_file=_str(n.get("user_file")), user_line=_int(n.get("user_line")),
                          user_code=_str(n.get("user_code")), kernels=kernels))
    return out


def _compile(reader: _Reader, raw: Dict[str, Any], index: int) -> Compile:
    cid = _str(raw.get("compile_id")) or f"?/{index}"
    files = [sf for sf in (reader.source_file(e, with_text=_str(e.get("kind")) not in ("guards_json", "graph_nodes"))
                           for e in (raw.get("files") or []) if isinstance(e, dict)) if sf is not None]
    breaks = []
    for b in raw.get("graph_breaks") or []:
        if isinstance(b, dict):
            breaks.append(GraphBreak(reason=_str(b.get("reason")) or "not recorded", user_file=_str(b.get("user_file")),
                                     user_line=_int(b.get("user_line")), detail=_str(b.get("detail"))))
    c = Compile(compile_id=cid, frame_id=_int(raw.get("frame_id")), attempt=_int(raw.get("attempt")),
                cache_entry=_int(raw.get("cache_entry")), compile_time_s=_num(raw.get("compile_time_s")),
                backend=_str(raw.get("backend")), recompile_reason=_str(raw.get("recompile_reason")),
                graph_breaks=breaks, files=files, resume_function=_str(raw.get("resume_function")),
                code_name=_str(raw.get("code_name")))
    c.slug = "c" + slugify(cid.replace("/", "_"))
    gj = c.file_of("guards_json")
    if gj is not None:
        c.guards = _guards(reader.read_json(gj.path))
    gt = c.file_of("guards")
    if gt is not None:
        c.guards_text = gt.text
    for gn in c.files_of("graph_nodes"):
        nodes = _graph_nodes(reader.read_json(gn.path))
        if nodes is not None:
            c.graph_nodes[gn.graph if gn.graph is not None else 0] = nodes
    # Graph nodes of FX files, parsed from their "# File: path:line" comments, fill in what the
    # JSON does not give (AOT graphs have no JSON of their own).
    return c


def _manifest_names(root: Path) -> List[str]:
    names = []
    if (root / "manifest.json").is_file():
        names.append("manifest.json")

    def rank_key(n):
        m = re.match(r"manifest\.rank(\d+)\.json$", n)
        return int(m.group(1)) if m else 1 << 30
    names += sorted((p.name for p in root.glob("manifest.rank*.json") if p.is_file()), key=lambda n: (rank_key(n), n))
    return names


def load_dump(dump_dir) -> Dump:
    root = Path(dump_dir)
    if not root.is_dir():
        raise DumpError(f"{dump_dir}: not a directory")
    names = _manifest_names(root)
    if not names:
        raise DumpError(f"{dump_dir}: no manifest.json (is this a directory written by uncompile.prepare_debug?)")
    problems: List[str] = []
    reader = _Reader(root, problems)
    functions: List[Function] = []
    meta: Dict[str, Any] = {}
    used_slugs = set()
    for name in names:
        try:
            manifest = json.loads((root / name).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            if len(names) == 1:
                raise DumpError(f"{root / name}: cannot read the manifest ({e})") from None
            problems.append(f"{name}: cannot read ({e})")
            continue
        if not isinstance(manifest, dict):
            raise DumpError(f"{root / name}: the manifest is not a JSON object")
        if manifest.get("format") not in (None, "uncompile-dump"):
            problems.append(f"{name}: format is {manifest.get('format')!r}, expected 'uncompile-dump'")
        if manifest.get("format_version") not in (None, 1):
            problems.append(f"{name}: format_version {manifest.get('format_version')!r}; this report reads version 1")
        if not meta:
            meta = {k: manifest.get(k) for k in ("format_version", "python", "torch", "uncompile", "world_size")}
        rank = _int(manifest.get("rank"))
        for fi, raw in enumerate(manifest.get("functions") or []):
            if not isinstance(raw, dict):
                continue
            fdir = _str(raw.get("dir")) or f"function_{fi}"
            files = raw.get("files") if isinstance(raw.get("files"), dict) else {}
            original = overview = None
            if files.get("original"):
                original = reader.source_file({"kind": "original", "path": files["original"]})
            if files.get("overview"):
                overview = reader.source_file({"kind": "overview", "path": files["overview"]})
            compiles = [_compile(reader, c, i) for i, c in enumerate(raw.get("compiles") or []) if isinstance(c, dict)]
            compiles.sort(key=_compile_sort_key)
            fn = Function(name=_str(raw.get("name")) or "?", qualname=_str(raw.get("qualname")) or _str(raw.get("name")) or "?",
                          filename=_str(raw.get("filename")), firstlineno=_int(raw.get("firstlineno")), dir=fdir,
                          original=original, overview=overview, compiles=compiles, rank=rank)
            slug = slugify(fdir)
            base, k = slug, 1
            while slug in used_slugs:
                k += 1
                slug = f"{base}_{k}"
            used_slugs.add(slug)
            fn.slug = slug
            seen = set()
            for c in compiles:
                s, k = c.slug, 1
                while s in seen:
                    k += 1
                    s = f"{c.slug}_{k}"
                seen.add(s)
                c.slug = s
            functions.append(fn)
    return Dump(root=root, manifests=names, meta=meta, functions=functions, problems=problems)


def _compile_sort_key(c: Compile):
    return (c.frame_id if c.frame_id is not None else 1 << 30, c.attempt if c.attempt is not None else 1 << 30, c.compile_id)


__all__ = ["Compile", "Dump", "DumpError", "Function", "GraphBreak", "Guard", "SourceFile", "load_dump",
           "original_line_map", "parse_fx_nodes"]



