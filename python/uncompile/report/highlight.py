"""A small Python syntax highlighter on top of the `tokenize` module.

`highlight_lines(source)` returns one HTML fragment per source line (so callers can wrap each line
in its own element with an anchor). Every piece of text is HTML-escaped; tokens that span several
lines (triple-quoted strings) are split so that each line's fragment is balanced. Source that does
not tokenize (not Python, or cut short) falls back to escaped plain text from the failing line on.
"""
from __future__ import annotations

import builtins
import io
import keyword
import token
import tokenize
from html import escape
from typing import List

_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_"))
_SOFT = frozenset(getattr(keyword, "softkwlist", ()))
_CONSTANTS = frozenset({"True", "False", "None"})


def _classify(tok: tokenize.TokenInfo, prev_name: str) -> str:
    t = tok.type
    if t == token.NAME:
        if tok.string in _CONSTANTS:
            return "kc"
        if keyword.iskeyword(tok.string):
            return "k"
        if prev_name in ("def", "class"):
            return "nf"
        if tok.string in _BUILTINS:
            return "nb"
        if tok.string in _SOFT:
            return ""
        return ""
    if t == token.STRING:
        return "s"
    if t == token.NUMBER:
        return "m"
    if t == tokenize.COMMENT:
        return "c"
    if t == token.OP:
        return "o" if tok.string not in "()[]{},.:;" else ""
    if t == tokenize.ERRORTOKEN:
        return ""
    fstring_types = {getattr(token, n) for n in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END") if hasattr(token, n)}
    if t in fstring_types:
        return "s"
    return ""


def _span(cls: str, text: str) -> str:
    if not text:
        return ""
    if not cls:
        return escape(text, quote=False)
    return f'<span class="{cls}">{escape(text, quote=False)}</span>'


def split_lines(source: str) -> List[str]:
    """Lines as the report numbers them: split at \\n, \\r\\n or \\r only (not at form feeds)."""
    lines = source.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def plain_lines(source: str) -> List[str]:
    return [escape(line, quote=False) for line in split_lines(source)] or [""]


_CACHE: dict = {}


def highlight_lines(source: str) -> List[str]:
    """HTML fragments, one per line of `source` (as `split_lines` counts lines)."""
    # Short texts (guards, one-liners) repeat across compiles: remember them.
    if len(source) <= 512:
        hit = _CACHE.get(source)
        if hit is None:
            if len(_CACHE) > 50000:
                _CACHE.clear()
            hit = _CACHE[source] = tuple(_highlight_lines(source))
        return list(hit)
    return _highlight_lines(source)


def _highlight_lines(source: str) -> List[str]:
    lines = split_lines(source)
    if not lines:
        return [""]
    out = [[] for _ in lines]
    # Column up to which each line has been emitted.
    done = [0] * len(lines)

    def emit(row: int, upto: int, cls: str) -> None:
        # Emit lines[row][done[row]:upto] with class cls.
        if row >= len(lines):
            return
        text = lines[row][done[row]:upto]
        if text:
            out[row].append(_span(cls, text))
        done[row] = max(done[row], upto)

    prev_name = ""
    failed_at = None
    try:
        readline = io.StringIO("\n".join(lines) + "\n").readline
        for tok in tokenize.generate_tokens(readline):
            if tok.type in (token.NEWLINE, tokenize.NL, token.INDENT, token.DEDENT, token.ENDMARKER):
                continue
            (sr, sc), (er, ec) = tok.start, tok.end
            sr -= 1
            er -= 1
            if sr >= len(lines):
                break
            emit(sr, sc, "")           # whitespace or untokenized gap before the token
            cls = _classify(tok, prev_name)
            if sr == er:
                emit(sr, ec, cls)
            else:
                emit(sr, len(lines[sr]), cls)
                for r in range(sr + 1, min(er, len(lines))):
                    emit(r, len(lines[r]), cls)
                if er < len(lines):
                    emit(er, ec, cls)
            if tok.type == token.NAME:
                prev_name = tok.string
            elif tok.type != tokenize.COMMENT:
                prev_name = ""
    except (tokenize.TokenError, IndentationError, SyntaxError) as e:
        failed_at = getattr(e, "lineno", None)
        if failed_at is None and isinstance(e, tokenize.TokenError) and len(e.args) > 1:
            failed_at = e.args[1][0]
    # Whatever is left of each line (trailing text, or everything after a tokenizer failure).
    for row, line in enumerate(lines):
        if done[row] < len(line):
            out[row].append(escape(line[done[row]:], quote=False))
    _ = failed_at
    return ["".join(parts) for parts in out]
