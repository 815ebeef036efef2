"""overview.py: one valid, runnable Python file per compiled function.

It holds, for every compile: the guards as a function, the compiled graphs, the transformed code
and the resume functions it calls; then a dispatcher that shows how a call picks its cache entry.
Executing the file only defines things; nothing in it calls into torch internals.
"""
import functools
import re
import warnings
from typing import Dict, List

from ._records import CompileRecord, FunctionRecord


def _compile_quietly(text: str) -> None:
    """compile() only to learn whether `text` compiles: the warnings the compiler gives about what
    it compiles (`x is 'a'`, an invalid escape) are not the user's concern here."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        compile(text, "<overview>", "exec", dont_inherit=True)


@functools.lru_cache(maxsize=4096)  # the overview is rewritten after every compile; guards repeat
def _compiles(text: str) -> bool:
    try:
        _compile_quietly(text)
        return True
    except (SyntaxError, ValueError):
        return False


# A guard compiles exactly when its "shape" does: the same text with every string literal made 's'
# and every decimal integer 0. Guards differ mostly in those (module names, ids, sizes), so a
# compile's hundreds of guards come down to a few dozen shapes to compile (cached). Only for plain
# text (printable ASCII without double quotes, '#', backslashes or triple quotes), where pairing
# single quotes from the left finds exactly the string literals Python's tokenizer finds, and
# without string prefixes (f'', b''); anything else is its own shape.
_PLAIN = re.compile(r"[ !$-\[\]-~]*")
_STRING = re.compile(r"'[^']*'")
_PREFIXED = re.compile(r"[A-Za-z0-9_]'s'")  # a prefix before a string, once strings are 's'
_INTEGER = re.compile(r"(?<![A-Za-z0-9_.])(?:0|[1-9][0-9]{0,99})(?![A-Za-z0-9_.])")  # not 1.5, 1e5, 0x1, x1


def _shape(expr: str) -> str:
    if not _PLAIN.fullmatch(expr) or "'''" in expr:
        return expr
    shape = _STRING.sub("'s'", expr)
    return expr if _PREFIXED.search(shape) else _INTEGER.sub("0", shape)


# A description Dynamo writes for some guards ("..., type=<class 'dict'>") is never an expression:
# no expression starts with '<', and outside a string an '=' always needs one after it.
_EQUALS_LESS = re.compile(r"=\s*<")
_OPENING = "([{"
_CLOSING = ")]}"

# Whether each guard compiles, by guard and by shape; the overview is rewritten after every
# compile and guards repeat. Bounded: cleared when full.
_valid_guard: Dict[str, bool] = {}
_valid_shape: Dict[str, bool] = {}
_CACHE_LIMIT = 1 << 14


def _isolated(shape: str) -> bool:
    """Whether the line "(shape)" can share no string, bracket or comment with a neighbouring line:
    every string is 's', no comment or backslash, as many closing brackets as opening ones."""
    rest = shape.replace("'s'", "")
    if any(c in rest for c in "'\"#\\\n\r"):
        return False
    return sum(map(rest.count, _OPENING)) == sum(map(rest.count, _CLOSING))


def _compile_each(lines: List[str]) -> List[bool]:
    """Whether each of `lines` compiles on its own. The lines are isolated one-line statements, so
    they compile together exactly when each does: one compile for the lot, and where it fails,
    the line the error names alone and the lines before and after it together again."""
    results = [False] * len(lines)
    todo, joined = [(0, len(lines))], 0
    while todo:
        start, end = todo.pop()
        if end - start == 1 or joined >= 16:  # few lines left, or many errors: one at a time
            results[start:end] = [_compiles(line) for line in lines[start:end]]
            continue
        joined += 1
        try:
            _compile_quietly("\n".join(lines[start:end]))
            results[start:end] = [True] * (end - start)
            continue
        except (SyntaxError, ValueError) as exc:
            bad = start + (getattr(exc, "lineno", None) or 0) - 1
        if not start <= bad < end or _compiles(lines[bad]):  # not the error of one line: be plain
            results[start:end] = [_compiles(line) for line in lines[start:end]]
            continue
        todo += [(a, b) for a, b in ((start, bad), (bad + 1, end)) if a < b]
    return results


def _valid_guards(exprs: List[str]) -> List[bool]:
    """Whether each guard compiles as an expression ("(guard)" at top level), as compiling each
    alone would say; only shapes not seen before are compiled, isolated ones together."""
    if len(_valid_guard) > _CACHE_LIMIT or len(_valid_shape) > _CACHE_LIMIT:
        _valid_guard.clear()
        _valid_shape.clear()
    new = [expr for expr in dict.fromkeys(exprs) if expr not in _valid_guard]
    shapes = {expr: _shape(expr) for expr in new}
    together = []
    for shape in dict.fromkeys(shapes.values()):
        if shape in _valid_shape:
            continue
        if not _isolated(shape):
            _valid_shape[shape] = _compiles("(%s)" % shape)
        elif _EQUALS_LESS.search(shape.replace("'s'", "")):
            _valid_shape[shape] = False
        else:
            together.append(shape)
    _valid_shape.update(zip(together, _compile_each(["(%s)" % shape for shape in together])))
    _valid_guard.update((expr, _valid_shape[shape]) for expr, shape in shapes.items())
    return [_valid_guard[expr] for expr in exprs]


def _commented(text: str, why: str) -> str:
    return "# (%s)\n" % why + "".join("# " + line + "\n" for line in text.splitlines())


def _rename_def(src: str, new_name: str) -> str:
    # Decompiled code starts with its def: then no pattern is needed (nor compiled, once a process).
    head, paren = src[4:5], src.find("(")
    if src.startswith("def ") and paren > 4 and head.isascii() and (head.isalpha() or head == "_") and \
            all(c == "_" or c.isalnum() for c in src[5:paren]):
        return "def %s(" % new_name + src[paren + 1:]
    return re.sub(r"^def [A-Za-z_]\w*\(", "def %s(" % new_name, src, count=1, flags=re.M)


def _tag(record: CompileRecord) -> str:
    return "c%d_%d" % (record.frame_id, record.attempt)


def _guard_fn(record: CompileRecord) -> str:
    name = "guard_" + _tag(record)
    lines = ["def %s(L, G, **___helpers):" % name,
             '    """Compile %s: True when this cache entry may run. Each guard and its user line."""' % record.compile_id]
    guards = [(guard["text"], ("  # %s:%s %s" % (guard["user_file"], guard["user_line"], (guard["user_code"] or "").strip())
                                if guard.get("user_line") is not None else "")) for guard in record.guards]

    def as_check(expr: str, where: str, valid: bool) -> str:
        if valid and "\n" not in expr:
            return "        (%s),%s" % (expr, where)
        return "        # %s%s" % (expr.replace("\n", " "), where)

    if not guards:
        lines.append("    return True  # no guards were recorded for this compile")
        return "\n".join(lines) + "\n"
    # Each guard checked as if alone; one Dynamo writes as a description rather than an expression
    # stays a comment.
    valid = _valid_guards([expr for expr, _ in guards])
    body = ["    return all(("] + [as_check(expr, where, ok) for (expr, where), ok in zip(guards, valid)] + ["    ))"]
    return "\n".join(lines + body) + "\n"


def _graph_class(kind: str, n: int, record: CompileRecord, payload: str) -> str:
    name = "%s_%d_%s" % (kind, n, _tag(record))
    text = payload.replace("class GraphModule(", "class %s(" % name, 1)
    if kind == "inductor":
        # Inductor's output code is a module; keep it as text so the overview stays cheap to run.
        return "%s = %r\n" % (name + "_source", payload)
    # A graph whose dumped file compiled compiles here too: the file is this text but for the
    # class name and the imports above it (a `from __future__` import would have failed there).
    if (kind, n) not in record.compiled_graphs and not _compiles(text):
        return _commented(text, "%s does not compile on its own" % name)
    return text + "\n"


def render(function: FunctionRecord) -> str:
    out: List[str] = [
        "# Overview of %s (%s:%d), written by uncompile." % (function.qualname, function.filename, function.firstlineno),
        "# Valid Python: running it only defines the pieces below. Per compile (cache entry):",
        "# guards as a function, the compiled graphs, the transformed code, the resume functions;",
        "# at the end, dispatch() shows how a call picks its cache entry.",
        "import torch",
        "from torch import device, inf, nan",
        "",
    ]
    records = sorted(function.compiles, key=lambda r: (r.frame_id, r.attempt))
    for record in records:
        tag = _tag(record)
        title = "compile %s" % record.compile_id
        if record.resume_name:
            title += " of resume function %s" % record.resume_name
        out += ["", "# " + "=" * 90, "# %s%s" % (title, "  (recompile: %s)" % record.recompile_reason.replace("\n", " ")
                                                if record.recompile_reason else ""), "# " + "=" * 90, ""]
        out.append(_guard_fn(record))
        for kind, n, payload in record.graphs:
            out.append(_graph_class(kind, n, record, payload))
        # A decompiled source whose dumped file compiled compiles here too (see compiled_sources).
        if record.transformed_source is not None:
            src = _rename_def(record.transformed_source, "transformed_" + tag)
            ok = "transformed" in record.compiled_sources or _compiles(src)
            out.append(src if ok else _commented(src, "decompiled source does not compile"))
        for name, src in record.resume_sources.items():
            if isinstance(src, str):
                renamed = _rename_def(src, name)
                ok = name in record.compiled_sources or _compiles(renamed)
                out.append(renamed if ok else _commented(renamed, "does not compile"))
    dispatch_at = len(out) + 1
    out += ["", "def dispatch(L, G, code_name=%r):" % function.name,
            '    """The transformed code a call runs: the newest cache entry whose guards hold."""']
    by_code = {}
    for record in records:
        by_code.setdefault(record.code.co_name if record.code is not None else "?", []).append(record)
    for code_name, group in by_code.items():
        out.append("    if code_name == %r:" % code_name)
        for record in sorted(group, key=lambda r: (r.cache_entry is None, r.cache_entry or 0, -r.attempt)):
            tag = _tag(record)
            target = "transformed_" + tag if record.transformed_source is not None else "None"
            out.append("        if guard_%s(L, G):  # cache entry %s" % (tag, record.cache_entry))
            out.append("            return %s" % target)
    out += ["    return None  # no cache entry matches: Dynamo compiles the frame again (a recompile)", ""]
    dispatch = "\n".join(out[dispatch_at:])
    text = "\n".join(out)
    # Every piece above compiles on its own at top level (checked, and cached across the rewrites
    # after each compile), so the whole does: top-level statements join freely; only a
    # `from __future__` import must come first, so a piece holding one means checking the whole.
    if not _compiles(dispatch) or ("from __future__" in text and not _compiles(text)):
        # last resort: never write an overview that does not compile
        text = "# Overview of %s could not be assembled as valid Python; see the per-compile files.\n" % function.name
    return text
