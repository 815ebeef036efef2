"""Bad input gives a clear, typed error (exit status 1 on the CLI), never a crash, hang or wrong answer."""
import marshal
import random
import struct
import subprocess
import sys

import pytest

import uncompile
from uncompile import _core
from conftest import VERSIONS, interpreter

VERSION = "%d.%d" % sys.version_info[:2]
SAMPLE = '''
def f(a, *, b=2):
    try:
        return [x ** 2 for x in a if x > b]
    except (TypeError, ValueError) as e:
        raise RuntimeError(f"{e!r}") from e
class C:
    z = {1: 2.5, "k": (1j, b"x", frozenset({3}))}
'''


@pytest.fixture(scope="module")
def sample_pyc(pyc_of):
    return pyc_of(VERSION, SAMPLE).read_bytes()


def disassemble_marshal(data, version=VERSION):
    return _core.disassemble(data, version, [], "records")


def test_every_truncation_of_a_pyc_is_a_clean_error(sample_pyc):
    for cut in range(len(sample_pyc)):
        with pytest.raises(uncompile.BadBytecodeError):
            uncompile.disassemble(sample_pyc[:cut])


def test_random_corruption_never_crashes(sample_pyc):
    rng = random.Random(1234)
    outcomes = {"ok": 0, "error": 0}
    for _ in range(3000):
        data = bytearray(sample_pyc)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(16, len(data))] = rng.randrange(256)
        try:
            uncompile.disassemble(bytes(data), "records")
            outcomes["ok"] += 1
        except uncompile.UncompileError:
            outcomes["error"] += 1
    assert outcomes["error"] > 0 and sum(outcomes.values()) == 3000


@pytest.mark.parametrize("old, named", [("2.7", "Python 2"), ("3.6", "3.7 or older"), ("3.7", "3.7 or older")])
def test_old_interpreters_are_named_unsupported(old, named, tmp_path):
    exe = interpreter(old)
    if exe is None:
        pytest.skip("Python %s is not installed" % old)
    src = tmp_path / "m.py"
    src.write_text("x = 1\n")
    out = tmp_path / "m.pyc"
    subprocess.run([exe, "-c", "import py_compile,sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2])",
                    str(src), str(out)], check=True)
    with pytest.raises(uncompile.UnsupportedVersionError, match=named):
        uncompile.disassemble(out.read_bytes())


def test_future_magic_number_is_unsupported():
    header = struct.pack("<H", 3620) + b"\r\n" + bytes(12)
    with pytest.raises(uncompile.UnsupportedVersionError, match=r"3\.14"):
        uncompile.disassemble(header + marshal.dumps(compile("x=1", "m", "exec")))


def test_not_a_pyc():
    with pytest.raises(uncompile.BadBytecodeError, match="not a .pyc"):
        uncompile.disassemble(b"#!/usr/bin/env python\nprint(1)\n")


def test_unsupported_version_for_marshal_data():
    with pytest.raises(uncompile.UnsupportedVersionError, match="3.14"):
        _core.disassemble(marshal.dumps(compile("x=1", "m", "exec")), "3.14", [], "human")


def test_deep_nesting_hits_the_limit():
    data = b")\x01" * 100000 + b"N"
    with pytest.raises(uncompile.BytecodeLimitError, match="nested deeper"):
        disassemble_marshal(data)


def test_cyclic_reference_is_rejected():
    # A remembered 1-tuple whose only item refers back to the tuple itself.
    data = bytes([ord(")") | 0x80, 1, ord("r")]) + struct.pack("<I", 0)
    with pytest.raises(uncompile.BadBytecodeError, match="cyclic"):
        disassemble_marshal(data)


def test_reference_to_unknown_object():
    with pytest.raises(uncompile.BadBytecodeError, match="refers to object #5"):
        disassemble_marshal(b"r" + struct.pack("<I", 5))


@pytest.mark.parametrize("code", [b"(", b"[", b"<", b">", b"s", b"u", b"a"])
def test_impossible_sizes_fail_fast(code):
    with pytest.raises(uncompile.BadBytecodeError, match="impossible size"):
        disassemble_marshal(code + struct.pack("<i", 2**31 - 1) + b"N" * 8)


def test_top_level_object_must_be_code():
    with pytest.raises(uncompile.BadBytecodeError, match="does not hold a code object"):
        disassemble_marshal(marshal.dumps((1, 2, 3)))


def test_invalid_utf8_string():
    with pytest.raises(uncompile.BadBytecodeError, match="UTF-8"):
        disassemble_marshal(b"u" + struct.pack("<i", 2) + b"\xff\xfe")


def test_unknown_type_code():
    with pytest.raises(uncompile.BadBytecodeError, match="unknown type code 0x7e"):
        disassemble_marshal(b"~")


def test_odd_length_bytecode_is_rejected():
    code = compile("x = 1", "m", "exec")
    data = marshal.dumps(code)
    field = struct.pack("<i", len(code.co_code)) + code.co_code
    assert data.count(field) == 1
    odd = data.replace(field, struct.pack("<i", len(code.co_code) + 1) + code.co_code + b"\x00")
    with pytest.raises(uncompile.BadBytecodeError, match="odd length"):
        disassemble_marshal(odd)


@pytest.mark.parametrize("version", VERSIONS)
def test_cli_reports_damage_and_goes_on(cli, pyc_of, tmp_path, version):
    good = pyc_of(version, SAMPLE)
    bad = tmp_path / "bad.pyc"
    bad.write_bytes(good.read_bytes()[:40])
    missing = tmp_path / "missing.pyc"
    proc = subprocess.run([cli, "dis", "--format=records", str(bad), str(good), str(missing)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1
    assert "truncated" in proc.stderr and "cannot open file" in proc.stderr
    assert "file %s\ncode " % good in proc.stdout
    assert proc.stdout.count("\nerror ") + proc.stdout.startswith("error ") == 2


def test_cli_usage_errors(cli):
    for args in ([], ["frobnicate"], ["dis"], ["dis", "--format=xml", "x.pyc"], ["dis", "--marshal=3", "x"]):
        proc = subprocess.run([cli] + args, capture_output=True, text=True, timeout=30)
        assert proc.returncode == 2, args
        assert "usage: uncompile" in proc.stderr + proc.stdout


FUZZ_REGRESSIONS = sorted((__import__("pathlib").Path(__file__).parent / "data" / "fuzz_regressions").glob("*.bin"))


@pytest.mark.parametrize("path", FUZZ_REGRESSIONS, ids=lambda p: p.stem)
def test_fuzz_regressions_run_clean(path, cli, tmp_path):
    """Inputs that once crashed or hung the core (first byte picks the version, rest is marshal)."""
    raw = path.read_bytes()
    version = VERSIONS[raw[0] % 6]
    body = raw[1:]
    for fmt in ("records", "human"):
        try:
            _core.disassemble(body, version, [], fmt)
        except uncompile.UncompileError:
            pass
    data = tmp_path / "input.marshal"
    data.write_bytes(body)
    proc = subprocess.run([cli, "dis", "--marshal=" + version, str(data)], capture_output=True, timeout=60)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    if proc.returncode == 1:
        assert b"error" in proc.stderr.lower() or proc.stderr.strip(), "a failure must say why"


def test_fuzz_regressions_are_present():
    assert len(FUZZ_REGRESSIONS) >= 8
