"""The instruction listing a dump shows for Dynamo's bytecode that is not verified: one valid
Python statement a line (a breakpoint can be set on it), arguments readable, none unbounded."""
import sys

import pytest

from uncompile._torch._codemap import listing_lines


def _listing(code):
    rows = listing_lines(code)
    for _, text in rows:
        compile(text, "<listing>", "exec")  # each line is a statement pdb can stop at
    return [text for _, text in rows]


@pytest.mark.skipif(sys.version_info[:2] not in ((3, 11), (3, 12)), reason="KW_NAMES is 3.11/3.12 bytecode")
def test_keyword_names_of_a_call_are_shown():
    # dis resolves only LOAD_CONST's constant: KW_NAMES's names read "<_Unknown object>" before
    def f(g):
        return g(1, scale=2, shift=3)
    lines = [t for t in _listing(f.__code__) if t.startswith("KW_NAMES")]
    assert lines and "('scale', 'shift')" in lines[0], lines


def test_arbitrary_constants_are_named_by_type_and_long_ones_cut():
    def f():
        return "x" * 1
    big = "y" * 1000
    code = f.__code__.replace(co_consts=tuple({"a": 1} if c == "x" else c for c in f.__code__.co_consts) + (big,))
    lines = _listing(code)
    assert any("<dict object>" in t for t in lines), lines
    long_code = f.__code__.replace(co_consts=tuple(big if c == "x" else c for c in f.__code__.co_consts))
    assert all(len(t) < 200 for t in _listing(long_code))
