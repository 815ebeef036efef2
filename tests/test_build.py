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
