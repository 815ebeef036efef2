"""The C++ core and CLI build warning-free with -Wall -Wextra (as errors), straight from CMake."""
import os
import shutil
import subprocess

import pytest

from conftest import ROOT


def test_core_builds_warning_free(tmp_path):
    if not shutil.which("cmake") or not shutil.which("ninja"):
        pytest.skip("cmake and ninja are needed for the standalone C++ build")
    build = tmp_path / "build"
    subprocess.run(["cmake", "-S", ROOT, "-B", str(build), "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                    "-DUNCOMPILE_WERROR=ON"], check=True, capture_output=True)
    proc = subprocess.run(["ninja", "-C", str(build), "uncompile_cli"], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    assert "warning:" not in proc.stdout + proc.stderr
    assert os.path.exists(build / "uncompile")


def test_profile_training_sample_holds_every_version():
    """bench/pgo/stdlib-sample.bin, which `pip install .` trains the optimized build on
    (CMakeLists.txt, UNCOMPILE_PGO), holds functions of each of 3.8-3.13 that decompile."""
    import struct
    from uncompile import _core
    with open(os.path.join(ROOT, "bench", "pgo", "stdlib-sample.bin"), "rb") as f:
        data = f.read()
    per_version = {}
    pos = 0
    while pos < len(data):
        version = data[pos + 1:pos + 1 + data[pos]].decode()
        pos += 1 + data[pos]
        (name_len,) = struct.unpack_from("<I", data, pos)
        pos += 4 + name_len
        (size,) = struct.unpack_from("<I", data, pos)
        per_version.setdefault(version, []).append(data[pos + 4:pos + 4 + size])
        pos += 4 + size
    assert pos == len(data)
    assert sorted(per_version, key=lambda v: tuple(map(int, v.split(".")))) == ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]
    for version, records in per_version.items():
        assert len(records) >= 100
        for marshalled in records[::25]:  # (marshal data of that version, read by the core)
            source, failures = _core.decompile(marshalled, version, [])
            assert source.strip() and not failures, (version, source, failures)
