"""The Python API of the core: live code objects, .pyc bytes and paths, placeholders."""
import dis
import subprocess
import sys
import types

import pytest

import uncompile


def sample(a, b=2, *args, c, **kw):
    total = 0
    for x in a:
        if x > b:
            total += x
    return lambda y: y + total + c


class Thing:
    def method(self, n):
        return [i * n for i in range(3)]


def gen():
    yield 1


def dis_rows(code):
    rows = []
    for ins in dis.get_instructions(code):
        line = ins.positions.lineno if sys.version_info >= (3, 11) else None
        rows.append((ins.offset, ins.opname, ins.arg, line))
    return rows


def our_rows(listing):
    with_line = sys.version_info >= (3, 11)
    return [(i.offset, i.opname, i.arg, i.line if with_line else None) for i in listing.instructions]


@pytest.mark.parametrize("obj", [sample, Thing().method, Thing.method, gen, gen(), sample.__code__])
def test_live_objects_match_dis(obj):
    listings = uncompile.instructions(obj)
    code = obj if isinstance(obj, types.CodeType) else getattr(obj, "__code__", None) or obj.gi_code
    assert listings[0].qualname == getattr(code, "co_qualname", code.co_name)
    assert our_rows(listings[0]) == dis_rows(code)
    nested = [c for c in code.co_consts if isinstance(c, types.CodeType)]
    assert [l.name for l in listings[1:1 + len(nested)]][:1] == [c.co_name for c in nested][:1]


def test_jump_targets_and_names_resolved():
    listing = uncompile.instructions(sample)[0]
    jumps = [i for i in listing.instructions if i.jump_target is not None]
    assert jumps and all(0 <= i.jump_target < 2 * len(sample.__code__.co_code) for i in jumps)
    offsets = {i.offset for i in listing.instructions}
    assert all(i.jump_target in offsets for i in jumps)
    assert any(i.argrepr == "total" for i in listing.instructions)


def test_human_listing_mentions_every_code_object():
    text = uncompile.disassemble(sample)
    assert "Disassembly of sample" in text
    assert "Disassembly of sample.<locals>.<lambda>" in text or "Disassembly of <lambda>" in text


def test_unmarshallable_constants_become_placeholders():
    inner = compile("def g(): return 0", "m", "exec").co_consts[0]
    marker = object()
    inner = inner.replace(co_consts=inner.co_consts + (marker,))
    outer = compile("x = 1", "m", "exec")
    outer = outer.replace(co_consts=outer.co_consts + (inner, [1, marker], sample))
    records = uncompile.disassemble(outer, "records")
    listings = uncompile.instructions(outer)
    assert [l.name for l in listings] == ["<module>", "g"]
    text = uncompile.disassemble(outer)
    assert text.count("__uncompile_const_") == 0 or "<__uncompile_const_" in text
    assert "code" in records


def test_placeholders_are_resolved_by_name():
    from uncompile._bridge import marshal_code
    marker = object()
    code = compile("x = 1", "m", "exec")
    code = code.replace(co_consts=code.co_consts + (marker, print))
    marshalled = marshal_code(code)
    assert [p[2] for p in marshalled.placeholders] == ["__uncompile_const_0", "__uncompile_const_1"]
    assert marshalled.constants == {"__uncompile_const_0": marker, "__uncompile_const_1": print}
    # A LOAD_CONST of a placeholder shows its name.
    load = code.replace(co_code=bytes([dis.opmap["LOAD_CONST"], len(code.co_consts) - 2]) + code.co_code[2:]
                        if sys.version_info < (3, 11) else code.co_code)
    text = uncompile.disassemble(load)
    if sys.version_info < (3, 11):
        assert "<__uncompile_const_0>" in text


def test_pyc_bytes_and_paths(tmp_path):
    src = tmp_path / "m.py"
    src.write_text("def f():\n    return 42\n")
    import py_compile
    pyc = py_compile.compile(str(src), cfile=str(tmp_path / "m.pyc"))
    data = open(pyc, "rb").read()
    assert uncompile.pyc_version(data) == "%d.%d" % sys.version_info[:2]
    assert uncompile.disassemble(data) == uncompile.disassemble(pyc)
    assert [l.name for l in uncompile.instructions(pyc)] == ["<module>", "f"]


def test_wrong_type_is_a_type_error():
    with pytest.raises(TypeError, match="expected a code object"):
        uncompile.disassemble(42)


def test_import_does_not_import_torch():
    out = subprocess.run([sys.executable, "-c", "import sys, uncompile; print('torch' in sys.modules)"],
                         capture_output=True, text=True, check=True).stdout.strip()
    assert out == "False"


def test_decompile_from_many_threads():
    # The core keeps freed blocks per thread (src/core/block_cache.cpp) and hands them back to malloc
    # when the thread ends: threads that decompile and end, and the one that goes on after them,
    # must all read every function as one thread alone does.
    import threading

    functions = [sample, Thing.method, gen, dis_rows, our_rows, test_decompile_from_many_threads]
    expected = [uncompile.decompile(f) for f in functions]
    results, errors = [], []

    def work():
        try:
            for _ in range(20):
                results.append([uncompile.decompile(f) for f in functions])
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    for _ in range(3):  # several generations of threads, each ending before the next starts
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert not errors
    assert len(results) == 3 * 4 * 20
    assert all(r == expected for r in results)
    assert [uncompile.decompile(f) for f in functions] == expected


def test_extension_does_not_replace_the_process_allocator():
    # Its operator new and delete (src/core/block_cache.cpp) serve the extension only: exported,
    # they could bind the interpreter's other C++ libraries (torch) to them.
    import shutil

    from uncompile import _core

    nm = shutil.which("nm")
    if nm is None:
        pytest.skip("nm (binutils) is needed to read the extension's symbol table")
    out = subprocess.run([nm, "-D", "--defined-only", _core.__file__], capture_output=True, text=True, check=True).stdout
    defined = {line.split()[-1] for line in out.splitlines() if line.strip()}
    assert "PyInit__core" in defined
    assert not {"_Znwm", "_ZdlPv", "_ZdlPvm", "_Znam", "_ZdaPv", "malloc", "free"} & defined
