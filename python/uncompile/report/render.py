"""HTML pages of the report. Every piece of dump content goes through `esc` (or the highlighter,
which escapes too); JSON embedded in pages has '<', '>' and '&' escaped as \\u003c etc."""
from __future__ import annotations

import difflib
import json
import os
from html import escape
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from . import crossref
from .highlight import highlight_lines, plain_lines, split_lines
from .model import Compile, Dump, Function, Guard, SourceFile, original_header_lines

NOT_RECORDED = '<span class="nr">not recorded</span>'


def esc(v) -> str:
    return escape("" if v is None else str(v), quote=True)


def js_json(data) -> str:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return (text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def fmt_time(t: Optional[float]) -> str:
    return NOT_RECORDED if t is None else f"{t:.2f}&nbsp;s"


def first_line(text: Optional[str]) -> str:
    if not text:
        return ""
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return ""


def page(title: str, body: str, root: str, script: bool = True, extra_head: str = "") -> str:
    js = f'<script src="{root}assets/report.js"></script>' if script else ""
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<title>{esc(title)}</title><link rel=\"stylesheet\" href=\"{root}assets/report.css\">{extra_head}</head>\n"
            f"<body>\n{body}\n{js}</body></html>\n")


def topbar(root: str, crumbs: Sequence[Tuple[str, Optional[str]]]) -> str:
    parts = [f'<a href="{root}index.html">uncompile report</a>']
    for text, href in crumbs:
        parts.append(f'<a href="{esc(href)}">{esc(text)}</a>' if href else f"<span>{esc(text)}</span>")
    return '<nav class="top">' + ' <span class="sep">›</span> '.join(parts) + "</nav>"


def loc(file: Optional[str], line: Optional[int]) -> str:
    if file is None and line is None:
        return NOT_RECORDED
    name = os.path.basename(file) if file else "?"
    return f'<span class="loc" title="{esc(file)}">{esc(name)}:{esc(line if line is not None else "?")}</span>'


# ---------------------------------------------------------------------------------------------
# code blocks

def code_block(sid: str, text: Optional[str], *, python: bool = True, numbers: Optional[Dict[int, int]] = None,
               line_classes: Optional[Dict[int, str]] = None, problem: Optional[str] = None,
               marks: Optional[Dict[int, str]] = None) -> str:
    """A code listing; line k (1-based in the file) has id "{sid}-L{n}" where n = numbers.get(k, k)."""
    if text is None:
        why = f" ({esc(problem)})" if problem else ""
        return f'<div class="code missing" id="{esc(sid)}">{NOT_RECORDED}{why}</div>'
    frags = highlight_lines(text) if python else plain_lines(text)
    out = [f'<div class="code" id="{esc(sid)}" data-s="{esc(sid)}">']
    for k, frag in enumerate(frags, start=1):
        n = numbers.get(k, None) if numbers is not None else k
        cls = "l"
        if line_classes and n in line_classes:
            cls += " " + line_classes[n]
        mark = marks.get(n, "") if marks else ""
        if n is None:
            out.append(f'<div class="{cls} hd"><span class="n"></span><span class="t">{frag}</span></div>')
        else:
            out.append(f'<div class="{cls}" id="{esc(sid)}-L{n}"><span class="n">{n}</span>'
                       f'<span class="t">{frag}</span>{mark}</div>')
    out.append("</div>")
    return "".join(out)


def user_source_block(fn: Function, sid: str, line_classes=None, marks=None) -> str:
    orig = fn.original
    if orig is None:
        return f'<div class="code missing" id="{sid}">{NOT_RECORDED}</div>'
    if orig.text is None:
        return code_block(sid, None, problem=orig.problem)
    header = original_header_lines(orig.text)
    mapping = fn.user_lines()
    file_lines = sorted(mapping)
    numbers: Dict[int, Optional[int]] = {}
    for k in range(1, header + 1):
        numbers[k] = None
    for idx, n in enumerate(file_lines):
        numbers[header + 1 + idx] = n
    return code_block(sid, orig.text, numbers=numbers, line_classes=line_classes, marks=marks)


def verified_badge(f: SourceFile) -> str:
    if f.verified is True:
        return '<span class="badge ok" title="the decompiled source was checked equivalent to Dynamo\'s bytecode">verified</span>'
    if f.verified is False:
        return (f'<span class="badge warn" title="{esc(f.note)}">not verified</span>'
                + (f' <span class="note">{esc(f.note)}</span>' if f.note else ""))
    return ""


# ---------------------------------------------------------------------------------------------
# index

def compile_label(c: Compile) -> str:
    entry = "" if c.cache_entry is None else f" · entry {c.cache_entry}"
    return f"{c.compile_id}{entry}"


def index_page(dump: Dump, all_diffs: Dict[str, Dict[Tuple[str, str], str]], dump_name: str) -> str:
    funcs = dump.functions
    compiles = list(dump.all_compiles())
    n_graphs = sum(len(c.graphs()) or (1 if c.file_of("captured_graph") else 0) for _, c in compiles)
    breaks = [(f, c, b) for f, c in compiles for b in c.graph_breaks]
    recompiles = [(f, c) for f, c in compiles if c.recompile_reason]
    times = [c.compile_time_s for _, c in compiles if c.compile_time_s is not None]
    meta = dump.meta
    body = [topbar("", []), '<main class="index">', f"<h1>Report of <code>{esc(dump_name)}</code></h1>"]
    body.append('<p class="meta">' + " · ".join(
        f"{esc(k)} {esc(meta.get(k)) if meta.get(k) is not None else NOT_RECORDED}" for k in ("python", "torch", "uncompile"))
        + (f" · world size {esc(meta.get('world_size'))}" if meta.get("world_size") else "") + "</p>")
    body.append('<div class="cards">'
                f'<div class="card"><b id="n-functions">{len(funcs)}</b> functions</div>'
                f'<div class="card"><b id="n-compiles">{len(compiles)}</b> compiles</div>'
                f'<div class="card"><b id="n-graphs">{n_graphs}</b> graphs</div>'
                f'<div class="card"><b id="n-breaks">{len(breaks)}</b> graph breaks</div>'
                f'<div class="card"><b id="n-recompiles">{len(recompiles)}</b> recompiles</div>'
                f'<div class="card"><b>{sum(times):.2f} s</b> compile time{"" if len(times) == len(compiles) else " (where recorded)"}</div>'
                "</div>")
    body.append('<nav class="toc"><a href="#functions">Functions</a> <a href="#graph-breaks">Graph breaks</a> '
                '<a href="#recompiles">Recompiles</a> <a href="#compile-times">Compile times</a>'
                + (' <a href="#problems">Problems</a>' if dump.problems else "") + "</nav>")

    # Functions
    body.append('<section id="functions"><h2>Functions</h2>'
                '<input type="search" id="filter" placeholder="filter functions…" aria-label="filter functions">'
                '<table class="grid" id="functions-table"><thead><tr><th>function</th><th>where</th><th>compiles (cache entry)</th>'
                '<th>graph breaks</th><th>compile time</th></tr></thead><tbody>')
    for f in funcs:
        links = []
        for c in f.compiles:
            cls = "cl" + (" resume" if c.resume_function else "") + (" recompile" if c.recompile_reason else "")
            title = f"resume function {c.resume_function}" if c.resume_function else (c.code_name or f.name)
            links.append(f'<a class="{cls}" href="f/{esc(f.slug)}/{esc(c.slug)}.html" title="{esc(title)}">{esc(compile_label(c))}</a>')
        ftimes = [c.compile_time_s for c in f.compiles if c.compile_time_s is not None]
        rank = f' <span class="badge">rank {f.rank}</span>' if f.rank is not None else ""
        body.append(f'<tr><td><a href="f/{esc(f.slug)}/index.html">{esc(f.qualname)}</a>{rank}</td>'
                    f"<td>{loc(f.filename, f.firstlineno)}</td><td>{' '.join(links) or NOT_RECORDED}</td>"
                    f"<td>{sum(len(c.graph_breaks) for c in f.compiles)}</td>"
                    f"<td>{fmt_time(sum(ftimes)) if ftimes else NOT_RECORDED}</td></tr>")
    body.append("</tbody></table></section>")

    # Graph breaks
    body.append('<section id="graph-breaks"><h2>Graph breaks</h2>')
    if breaks:
        body.append('<table class="grid"><thead><tr><th>function</th><th>compile</th><th>where</th><th>user code</th><th>reason</th></tr></thead><tbody>')
        for f, c, b in breaks:
            code = f.user_lines().get(b.user_line) if b.user_line is not None and crossref.same_file(b.user_file, f.filename) else None
            where = loc(b.user_file, b.user_line)
            if code is not None:
                where = f'<a href="f/{esc(f.slug)}/{esc(c.slug)}.html#src-L{b.user_line}">{where}</a>'
            detail = (f"<details><summary>{esc(first_line(b.reason))}</summary><pre class=\"detail\">{esc(b.detail)}</pre></details>"
                      if b.detail and b.detail.strip() != b.reason.strip() else esc(b.reason))
            body.append(f'<tr><td>{esc(f.qualname)}</td><td><a href="f/{esc(f.slug)}/{esc(c.slug)}.html">{esc(c.compile_id)}</a></td>'
                        f"<td>{where}</td><td><code>{esc(code.strip()) if code else ''}</code></td><td class=\"reason\">{detail}</td></tr>")
        body.append("</tbody></table>")
    else:
        body.append("<p>No graph breaks recorded.</p>")
    body.append("</section>")

    # Recompiles
    body.append('<section id="recompiles"><h2>Recompiles</h2>')
    if recompiles:
        body.append('<table class="grid"><thead><tr><th>function</th><th>compile</th><th>reason</th><th>guards</th></tr></thead><tbody>')
        for f, c in recompiles:
            other = previous_attempt(f, c)
            diff = ""
            diffs = all_diffs.get(f.slug, {})
            if other is not None and (other.slug, c.slug) in diffs:
                diff = f'<a class="diff" href="f/{esc(f.slug)}/{esc(diffs[(other.slug, c.slug)])}">compare {esc(other.compile_id)} ↔ {esc(c.compile_id)}</a>'
            body.append(f'<tr><td>{esc(f.qualname)}</td><td><a href="f/{esc(f.slug)}/{esc(c.slug)}.html">{esc(c.compile_id)}</a></td>'
                        f'<td class="reason">{esc(c.recompile_reason)}</td><td>{diff}</td></tr>')
        body.append("</tbody></table>")
    else:
        body.append("<p>No recompiles recorded.</p>")
    body.append("</section>")

    # Compile times
    body.append('<section id="compile-times"><h2>Compile times</h2><table class="grid"><thead><tr><th>compile</th>'
                '<th>function</th><th>backend</th><th>graphs</th><th>time</th></tr></thead><tbody>')
    order = sorted(compiles, key=lambda fc: (-(fc[1].compile_time_s or -1.0), fc[0].slug, fc[1].slug))
    for f, c in order:
        body.append(f'<tr><td><a href="f/{esc(f.slug)}/{esc(c.slug)}.html">{esc(c.compile_id)}</a></td><td>{esc(f.qualname)}'
                    f'{" → " + esc(c.resume_function) if c.resume_function else ""}</td>'
                    f"<td>{esc(c.backend) if c.backend else NOT_RECORDED}</td><td>{len(c.graphs())}</td><td class=\"num\">{fmt_time(c.compile_time_s)}</td></tr>")
    body.append("</tbody></table></section>")

    if dump.problems:
        body.append('<section id="problems"><h2>Problems reading the dump</h2><ul>'
                    + "".join(f"<li>{esc(p)}</li>" for p in dump.problems) + "</ul></section>")
    body.append("</main>")
    return page(f"uncompile report: {dump_name}", "\n".join(body), "")


def previous_attempt(f: Function, c: Compile) -> Optional[Compile]:
    """The cache entry a recompile was compared against: the one its reason names, else the
    previous attempt of the same frame."""
    named = c.recompiled_from
    if named:
        other = f.compile_by_id(named)
        if other is not None and other is not c:
            return other
    if c.frame_id is None or c.attempt is None:
        return None
    same = [o for o in f.compiles if o.frame_id == c.frame_id and o.attempt is not None and o.attempt < c.attempt]
    return max(same, key=lambda o: o.attempt) if same else None


# ---------------------------------------------------------------------------------------------
# function page

def frame_groups(f: Function) -> List[List[Compile]]:
    groups: Dict[object, List[Compile]] = {}
    for c in f.compiles:
        groups.setdefault(c.frame_id if c.frame_id is not None else c.compile_id, []).append(c)
    return list(groups.values())


def function_page(f: Function, diffs: Dict[Tuple[str, str], str]) -> str:
    root = "../../"
    body = [topbar(root, [(f.qualname, None)]), '<main class="function">',
            f"<h1>{esc(f.qualname)} <small>{loc(f.filename, f.firstlineno)}</small></h1>"]
    if f.overview is not None:
        body.append('<p><a href="overview.html">overview.py</a>: the whole function as runnable Python '
                    "(guards, graphs, transformed code, resume functions and a dispatcher).</p>")
    body.append('<h2>Compiles</h2><table class="grid" id="compiles"><thead><tr><th>compile</th><th>cache entry</th><th>code</th>'
                "<th>backend</th><th>graphs</th><th>graph breaks</th><th>recompile reason</th><th>time</th></tr></thead><tbody>")
    for c in f.compiles:
        code = f"resume {esc(c.resume_function)}" if c.resume_function else esc(c.code_name or f.name)
        body.append(f'<tr><td><a href="{esc(c.slug)}.html">{esc(c.compile_id)}</a></td>'
                    f"<td>{esc(c.cache_entry) if c.cache_entry is not None else NOT_RECORDED}</td><td>{code}</td>"
                    f"<td>{esc(c.backend) if c.backend else NOT_RECORDED}</td><td>{len(c.graphs())}</td>"
                    f"<td>{len(c.graph_breaks)}</td><td class=\"reason\">{esc(c.recompile_reason) if c.recompile_reason else ''}</td>"
                    f"<td class=\"num\">{fmt_time(c.compile_time_s)}</td></tr>")
    body.append("</tbody></table>")
    groups = [g for g in frame_groups(f) if len(g) > 1]
    if groups:
        body.append('<h2>Compare guards of cache entries</h2><p>Each cell compares the guards of two compiles of the same '
                    "code; the pair a recompile was decided on is marked.</p>")
        for g in groups:
            body.append('<table class="grid matrix"><thead><tr><th></th>' + "".join(f"<th>{esc(c.compile_id)}</th>" for c in g)
                        + "</tr></thead><tbody>")
            for a in g:
                row = [f"<th>{esc(a.compile_id)}</th>"]
                for b in g:
                    href = diffs.get((a.slug, b.slug))
                    if href:
                        hot = previous_attempt(f, b) is a
                        row.append(f'<td><a class="{"hot" if hot else ""}" href="{esc(href)}">{esc(a.compile_id)} ↔ {esc(b.compile_id)}</a></td>')
                    else:
                        row.append("<td></td>")
                body.append("<tr>" + "".join(row) + "</tr>")
            body.append("</tbody></table>")
    body.append("<h2>Original source</h2>")
    body.append(user_source_block(f, "src"))
    body.append("</main>")
    return page(f"{f.qualname}: uncompile report", "\n".join(body), root)


def overview_page(f: Function) -> str:
    root = "../../"
    body = [topbar(root, [(f.qualname, "index.html"), ("overview.py", None)]), '<main>',
            f"<h1>overview.py of {esc(f.qualname)}</h1>",
            code_block("overview", f.overview.text if f.overview else None, problem=f.overview.problem if f.overview else None),
            "</main>"]
    return page(f"overview of {f.qualname}", "\n".join(body), root)


# ---------------------------------------------------------------------------------------------
# compile page

def compile_page(f: Function, c: Compile, diffs: Dict[Tuple[str, str], str]) -> str:
    root = "../../"
    sections = crossref.sections_of(c)
    user_lines = f.user_lines()
    index = crossref.build(f, c, sections, user_lines)
    idx = f.compiles.index(c)
    prev_c = f.compiles[idx - 1] if idx > 0 else None
    next_c = f.compiles[idx + 1] if idx + 1 < len(f.compiles) else None

    body = [topbar(root, [(f.qualname, "index.html"), (f"compile {c.compile_id}", None)]), '<main class="compile">']
    title = f"{esc(f.qualname)} — compile {esc(c.compile_id)}"
    if c.resume_function:
        title += f' <small>resume function {esc(c.resume_function)}</small>'
    body.append(f"<h1>{title}</h1>")
    pn = []
    if prev_c:
        pn.append(f'<a href="{esc(prev_c.slug)}.html" rel="prev">← {esc(prev_c.compile_id)}</a>')
    if next_c:
        pn.append(f'<a href="{esc(next_c.slug)}.html" rel="next">{esc(next_c.compile_id)} →</a>')
    body.append('<p class="pn">' + " ".join(pn) + "</p>")
    facts = [("cache entry", esc(c.cache_entry) if c.cache_entry is not None else NOT_RECORDED),
             ("backend", esc(c.backend) if c.backend else NOT_RECORDED),
             ("compile time", fmt_time(c.compile_time_s)),
             ("code", esc(c.code_name) if c.code_name else esc(f.name))]
    body.append('<dl class="facts">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in facts) + "</dl>")
    if c.recompile_reason:
        other = previous_attempt(f, c)
        link = ""
        if other is not None and (other.slug, c.slug) in diffs:
            link = f' <a class="diff" href="{esc(diffs[(other.slug, c.slug)])}">compare guards with {esc(other.compile_id)}</a>'
        body.append(f'<p class="recompile"><b>Recompiled</b>: {esc(c.recompile_reason)}{link}</p>')
    for i, b in enumerate(c.graph_breaks):
        where = loc(b.user_file, b.user_line)
        if b.user_line is not None and str(b.user_line) in index["users"]:
            where = f'<a href="#src-L{b.user_line}">{where}</a>'
        detail = f"<details><summary>details</summary><pre class=\"detail\">{esc(b.detail)}</pre></details>" if b.detail else ""
        body.append(f'<div class="gb" id="break-{i}"><b>Graph break</b> at {where}: {esc(b.reason)}{detail}</div>')

    nav = ['<a href="#source">Source</a>', '<a href="#guards">Guards</a>']
    graph_secs = [s for s in sections if s.file.kind in crossref.GRAPH_KINDS]
    ind_secs = [s for s in sections if s.file.kind == "inductor"]
    nav.append('<a href="#graphs">Graphs</a>')
    nav.append('<a href="#inductor">Inductor</a>')
    body.append('<nav class="toc sticky">' + " ".join(nav) + ' <span class="hint">click a line of user source, a graph node or a kernel to follow its links</span></nav>')

    # Source: original beside transformed + resume functions
    line_classes: Dict[int, str] = {}
    marks: Dict[int, str] = {}
    for key, e in index["users"].items():
        n = int(key)
        cls = []
        if e["n"]:
            cls.append("has")
        if e["b"]:
            cls.append("brk")
        if cls:
            line_classes[n] = " ".join(cls)
        bits = []
        if e["n"]:
            bits.append(f'<span class="tag tn" title="graph nodes">{len(e["n"])}n</span>')
        if e["k"]:
            bits.append(f'<span class="tag tk" title="kernels">{len(e["k"])}k</span>')
        if e["g"]:
            bits.append(f'<span class="tag tg" title="guards">{len(e["g"])}g</span>')
        if e["b"]:
            bits.append('<span class="tag tb" title="graph break">break</span>')
        if bits:
            marks[n] = '<span class="tags">' + "".join(bits) + "</span>"
    body.append('<section id="source"><h2>Source</h2><div class="side">')
    body.append(f'<div class="col"><h3>User source <small>{loc(f.filename, f.firstlineno)}</small></h3>'
                + user_source_block(f, "src", line_classes, marks) + "</div>")
    right = []
    code_secs = [s for s in sections if s.file.kind in ("transformed", "resume")]
    if not any(s.file.kind == "transformed" for s in code_secs):
        right.append(f'<h3>Transformed code</h3><div class="code missing">{NOT_RECORDED}</div>')
    for s in code_secs:
        right.append(f'<h3 id="h-{esc(s.id)}">{esc(s.title.capitalize())} {verified_badge(s.file)}</h3>')
        right.append(code_block(s.id, s.file.text, problem=s.file.problem))
    body.append('<div class="col">' + "".join(right) + "</div></div></section>")

    # Guards
    body.append('<section id="guards"><h2>Guards</h2>')
    if c.guards is None:
        body.append(f"<p>Structured guards {NOT_RECORDED}.</p>")
    else:
        body.append(f"<p>{len(c.guards)} guards; the cache entry is used only when all of them hold.</p>")
        body.append(guards_table(c.guards, user_lines, f.filename, "#src-L"))
    if c.guards_text is not None:
        body.append(f'<details><summary>guards.txt (the guard tree as Dynamo checks it)</summary>{code_block("guards-txt", c.guards_text, python=False)}</details>')
    body.append("</section>")

    body.append('<section id="graphs"><h2>Graphs</h2>')
    if not graph_secs:
        body.append(f"<p>Graphs {NOT_RECORDED}.</p>")
    node_lines = {}
    for nid, n in index["nodes"].items():
        if n["line"] is not None:
            node_lines.setdefault(n["s"], {})[n["line"]] = "node"
    for s in graph_secs:
        body.append(f'<h3 id="h-{esc(s.id)}">{esc(s.title.capitalize())}</h3>')
        body.append(code_block(s.id, s.file.text, problem=s.file.problem, line_classes=node_lines.get(s.id)))
    body.append("</section>")

    body.append('<section id="inductor"><h2>Inductor code</h2>')
    if not ind_secs:
        body.append(f"<p>Inductor code {NOT_RECORDED} (another backend, or not dumped).</p>")
    kernel_lines: Dict[str, Dict[int, str]] = {}
    for kid, k in index["kernels"].items():
        if k["line"] is not None:
            kernel_lines.setdefault(k["s"], {})[k["line"]] = "kernel"
        for cl in k["calls"]:
            kernel_lines.setdefault(k["s"], {}).setdefault(cl, "kcall")
    for s in ind_secs:
        body.append(f'<h3 id="h-{esc(s.id)}">{esc(s.title.capitalize())}</h3>')
        if s.kernels:
            body.append('<p class="kernels">Kernels: ' + ", ".join(
                f'<a href="#{esc(s.id)}-L{k.def_line or (k.call_lines[0] if k.call_lines else 1)}">{esc(k.name)}</a>' for k in s.kernels) + "</p>")
        body.append(code_block(s.id, s.file.text, problem=s.file.problem, line_classes=kernel_lines.get(s.id)))
    body.append("</section>")

    if index["elsewhere"]:
        body.append('<section id="elsewhere"><h2>Nodes from other files</h2><p>Graph nodes whose user line is outside this function\'s source.</p><ul>')
        for e in index["elsewhere"]:
            names = ", ".join(f'<a href="#{esc(index["nodes"][n]["s"])}-L{index["nodes"][n]["line"]}">{esc(index["nodes"][n]["name"])}</a>'
                              if index["nodes"][n]["line"] else esc(index["nodes"][n]["name"]) for n in e["n"])
            body.append(f"<li>{loc(e['file'], e['line'])} <code>{esc(e['code'])}</code>: {names}</li>")
        body.append("</ul></section>")

    body.append('<aside id="panel" hidden><button type="button" id="panel-close" aria-label="close">×</button><div id="panel-body"></div></aside>')
    body.append(f'<script type="application/json" id="links">{js_json(index)}</script>')
    body.append("</main>")
    return page(f"{f.qualname} {c.compile_id}: uncompile report", "\n".join(body), root)


def guards_table(guards: List[Guard], user_lines: Dict[int, str], filename: Optional[str], href: Optional[str]) -> str:
    rows = ['<table class="grid guards"><thead><tr><th>#</th><th>kind</th><th>guard</th><th>source</th><th>user line</th></tr></thead><tbody>']
    for i, g in enumerate(guards):
        if g.user_line is not None:
            where = loc(g.user_file, g.user_line)
            if href and g.user_line in user_lines and crossref.same_file(g.user_file, filename):
                where = f'<a href="{href}{g.user_line}">{where}</a>'
            where += f" <code>{esc((g.user_code or '').strip())}</code>"
        else:
            where = '<span class="nr">set up by Dynamo itself</span>'
        rows.append(f'<tr id="guard-{i}"><td>{i}</td><td>{esc(g.kind) if g.kind else NOT_RECORDED}</td>'
                    f'<td><code class="py">{highlight_lines(g.text)[0] if g.text else ""}</code></td>'
                    f"<td><code>{esc(g.source or '')}</code></td><td>{where}</td></tr>")
    rows.append("</tbody></table>")
    return "".join(rows)


# ---------------------------------------------------------------------------------------------
# guard diff

def _inline_diff(a: str, b: str) -> Tuple[str, str]:
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    oa, ob = [], []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            oa.append(esc(a[i1:i2]))
            ob.append(esc(b[j1:j2]))
        else:
            if i2 > i1:
                oa.append(f"<del>{esc(a[i1:i2])}</del>")
            if j2 > j1:
                ob.append(f"<ins>{esc(b[j1:j2])}</ins>")
    return "".join(oa), "".join(ob)


def diff_guards(a: List[Guard], b: List[Guard]):
    """Rows (status, guard_a, guard_b): 'same', 'changed' (paired by kind and source, or by
    similarity), 'only-a', 'only-b'. Order: A's order, B-only guards after their neighbours."""
    b_left: Dict[str, List[int]] = {}
    for j, g in enumerate(b):
        b_left.setdefault(g.text, []).append(j)
    used_b = set()
    pair: Dict[int, Optional[int]] = {}
    for i, g in enumerate(a):
        js = b_left.get(g.text)
        if js:
            j = js.pop(0)
            pair[i] = j
            used_b.add(j)
    # pair the rest by (kind, source), then by similarity
    rest_b = [j for j in range(len(b)) if j not in used_b]
    changed: Dict[int, int] = {}
    for i, g in enumerate(a):
        if i in pair:
            continue
        best, best_score = None, 0.0
        for j in rest_b:
            h = b[j]
            if j in changed.values():
                continue
            if g.kind != h.kind:
                continue
            if g.source is not None and g.source == h.source:
                score = 1.0 + difflib.SequenceMatcher(None, g.text, h.text, autojunk=False).quick_ratio()
            else:
                score = difflib.SequenceMatcher(None, g.text, h.text, autojunk=False).ratio()
            if score > best_score:
                best, best_score = j, score
        if best is not None and best_score >= 0.6:
            changed[i] = best
    rows = []
    emitted_b = set()
    for i, g in enumerate(a):
        if i in pair:
            rows.append(("same", g, b[pair[i]]))
            emitted_b.add(pair[i])
        elif i in changed:
            rows.append(("changed", g, b[changed[i]]))
            emitted_b.add(changed[i])
        else:
            rows.append(("only-a", g, None))
    for j, h in enumerate(b):
        if j not in emitted_b:
            rows.append(("only-b", None, h))
    return rows


def diff_page(f: Function, a: Compile, b: Compile) -> str:
    root = "../../"
    body = [topbar(root, [(f.qualname, "index.html"), (f"guards {a.compile_id} ↔ {b.compile_id}", None)]), '<main class="diff">',
            f'<h1>Guards of <a href="{esc(a.slug)}.html">{esc(a.compile_id)}</a> ↔ <a href="{esc(b.slug)}.html">{esc(b.compile_id)}</a></h1>']
    for c in (a, b):
        entry = f"cache entry {c.cache_entry}" if c.cache_entry is not None else "cache entry not recorded"
        why = f": recompiled because {esc(c.recompile_reason)}" if c.recompile_reason else ""
        body.append(f"<p><b>{esc(c.compile_id)}</b> ({entry}){why}</p>")
    if a.guards is None or b.guards is None:
        missing = " and ".join(c.compile_id for c in (a, b) if c.guards is None)
        body.append(f"<p>Structured guards of {esc(missing)} {NOT_RECORDED}.</p>")
        if a.guards_text is not None or b.guards_text is not None:
            body.append('<div class="side"><div class="col">' + code_block("a", a.guards_text, python=False)
                        + '</div><div class="col">' + code_block("b", b.guards_text, python=False) + "</div></div>")
        body.append("</main>")
        return page(f"guards {a.compile_id} vs {b.compile_id}", "\n".join(body), root)
    rows = diff_guards(a.guards, b.guards)
    n_diff = sum(1 for r in rows if r[0] != "same")
    body.append(f'<p class="summary"><b id="n-differing">{n_diff}</b> differing guards, {len(rows) - n_diff} identical. '
                '<label><input type="checkbox" id="only-diff"> show only differences</label></p>')
    user_a = f.user_lines()

    def cell(g: Optional[Guard], html_text: Optional[str], c: Compile) -> str:
        if g is None:
            return '<td class="g empty"></td>'
        text = html_text if html_text is not None else esc(g.text)
        where = ""
        if g.user_line is not None:
            where = loc(g.user_file, g.user_line)
            if g.user_line in user_a and crossref.same_file(g.user_file, f.filename):
                where = f'<a href="{esc(c.slug)}.html#src-L{g.user_line}">{where}</a>'
            where = f'<div class="from">{where} <code>{esc((g.user_code or "").strip())}</code></div>'
        kind = f'<span class="kind">{esc(g.kind)}</span> ' if g.kind else ""
        return f'<td class="g">{kind}<code>{text}</code>{where}</td>'

    body.append(f'<table class="grid gdiff" id="gdiff"><thead><tr><th></th><th>{esc(a.compile_id)}</th><th>{esc(b.compile_id)}</th></tr></thead><tbody>')
    labels = {"same": "=", "changed": "≠", "only-a": "−", "only-b": "+"}
    for status, ga, gb in rows:
        ha = hb = None
        if status == "changed":
            ha, hb = _inline_diff(ga.text, gb.text)
        body.append(f'<tr class="{status}"><td class="st" title="{status}">{labels[status]}</td>{cell(ga, ha, a)}{cell(gb, hb, b)}</tr>')
    body.append("</tbody></table></main>")
    return page(f"guards {a.compile_id} vs {b.compile_id}", "\n".join(body), root)


def diff_pairs(f: Function, limit: int = 20) -> List[Tuple[Compile, Compile]]:
    """Pairs of compiles of the same frame to compare: all pairs when a frame has at most `limit`
    attempts, else consecutive ones and the pair each recompile names."""
    pairs = []
    for g in frame_groups(f):
        if len(g) < 2:
            continue
        if len(g) <= limit:
            pairs += [(g[i], g[j]) for i in range(len(g)) for j in range(i + 1, len(g))]
        else:
            seen = set()
            for i in range(len(g) - 1):
                seen.add((g[i].slug, g[i + 1].slug))
                pairs.append((g[i], g[i + 1]))
            for c in g:
                o = previous_attempt(f, c)
                if o is not None and (o.slug, c.slug) not in seen:
                    seen.add((o.slug, c.slug))
                    pairs.append((o, c))
    # recompiles across frames (reason names another frame's compile)
    have = {(x.slug, y.slug) for x, y in pairs}
    for c in f.compiles:
        o = previous_attempt(f, c)
        if o is not None and (o.slug, c.slug) not in have:
            pairs.append((o, c))
            have.add((o.slug, c.slug))
    return pairs


def iter_pages(dump: Dump, dump_name: str) -> Iterable[Tuple[str, str]]:
    """(relative path, html) of every page."""
    all_diffs: Dict[str, Dict[Tuple[str, str], str]] = {}
    for f in dump.functions:
        d = {}
        for a, b in diff_pairs(f):
            d[(a.slug, b.slug)] = f"diff-{a.slug}-{b.slug}.html"
        all_diffs[f.slug] = d
    yield "index.html", index_page(dump, all_diffs, dump_name)
    for f in dump.functions:
        diffs = all_diffs[f.slug]
        yield f"f/{f.slug}/index.html", function_page(f, diffs)
        if f.overview is not None:
            yield f"f/{f.slug}/overview.html", overview_page(f)
        for c in f.compiles:
            yield f"f/{f.slug}/{c.slug}.html", compile_page(f, c, diffs)
        for (sa, sb), name in sorted(diffs.items(), key=lambda kv: kv[1]):
            a = next(c for c in f.compiles if c.slug == sa)
            b = next(c for c in f.compiles if c.slug == sb)
            yield f"f/{f.slug}/{name}", diff_page(f, a, b)


__all__ = ["iter_pages", "diff_guards", "split_lines"]
