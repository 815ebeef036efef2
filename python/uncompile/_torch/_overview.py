"""overview.py: one valid, runnable Python file per compiled function.

It holds, for every compile: the guards as a function, the compiled graphs, the transformed code
and the resume functions it calls; then a dispatcher that shows how a call picks its cache entry.
Executing the file only defines things; nothing in it calls into torch internals.
"""
import functools
import re
from typing import List

from ._records import CompileRecord, FunctionRecord


@functools.lru_cache(maxsize=4096)  # the overview is rewritten after every compile; guards repeat
def _compiles(text: str) -> bool:
    try:
        compile(text, "<overview>", "exec", dont_inherit=True)
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


def _commented(text: str, why: str) -> str:
    return "# (%s)\n" % why + "".join("# " + line + "\n" for line in text.splitlines())


def _rename_def(src: str, new_name: str) -> str:
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
    # Each guard checked alone (cached by shape: the overview is rewritten after every compile, and
    # guards repeat); one Dynamo writes as a description rather than an expression stays a comment.
    body = ["    return all(("] + [as_check(expr, where, _compiles("(%s)" % _shape(expr))) for expr, where in guards] + ["    ))"]
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
        if record.transformed_source is not None:
            src = _rename_def(record.transformed_source, "transformed_" + tag)
            out.append(src if _compiles(src) else _commented(src, "decompiled source does not compile"))
        for name, src in record.resume_sources.items():
            if isinstance(src, str):
                renamed = _rename_def(src, name)
                out.append(renamed if _compiles(renamed) else _commented(renamed, "does not compile"))
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
