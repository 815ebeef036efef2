import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]


def interpreter(version):
    """Path of the pyenv interpreter for `version`, or None when it is not installed."""
    root = os.environ.get("UNCOMPILE_PYENV_ROOT")
    if not root:
        try:
            root = subprocess.run(["pyenv", "root"], capture_output=True, text=True, check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            return None
    versions_dir = os.path.join(root, "versions")
    if not os.path.isdir(versions_dir):
        return None
    found = sorted((d for d in os.listdir(versions_dir)
                    if d.startswith(version + ".") and d[len(version) + 1:].isdigit()),
                   key=lambda d: int(d.rsplit(".", 1)[1]))
    for d in reversed(found):
        exe = os.path.join(versions_dir, d, "bin", "python")
        if os.path.exists(exe):
            return exe
    return None


@pytest.fixture(scope="session")
def cli():
    """The native `uncompile` executable."""
    path = os.environ.get("UNCOMPILE_CLI") or shutil.which("uncompile")
    if not path:
        pytest.skip("uncompile CLI not built: run `pip install .` first")
    return path


@pytest.fixture(scope="session")
def pyc_of(tmp_path_factory):
    """pyc_of(version, source) -> path of a .pyc compiled by that pyenv interpreter."""
    cache = {}
    workdir = tmp_path_factory.mktemp("pyc")

    def make(version, source):
        key = (version, source)
        if key not in cache:
            exe = interpreter(version)
            if exe is None:
                pytest.skip("Python %s is not installed (pyenv)" % version)
            src = workdir / ("s%d.py" % len(cache))
            src.write_text(source)
            out = workdir / ("s%d-%s.pyc" % (len(cache), version))
            subprocess.run([exe, "-c", "import py_compile,sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                            str(src), str(out)], check=True)
            cache[key] = out
        return cache[key]

    return make
