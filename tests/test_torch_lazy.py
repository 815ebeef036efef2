"""Importing uncompile never imports torch; the torch entry points exist either way."""
import subprocess
import sys


def test_import_does_not_import_torch():
    code = ("import sys, uncompile; assert 'torch' not in sys.modules, 'torch imported'; "
            "assert callable(uncompile.prepare_debug) and callable(uncompile.debug); "
            "assert callable(uncompile.install) and callable(uncompile.uninstall)")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_missing_torch_gives_a_clear_error():
    code = ("import sys; sys.modules['torch'] = None\n"
            "import uncompile\n"
            "try:\n"
            "    uncompile.prepare_debug('/tmp/x').__enter__()\n"
            "except uncompile.UncompileError as e:\n"
            "    assert 'torch' in str(e) and 'not installed' in str(e), e\n"
            "else:\n"
            "    raise SystemExit('no error')\n")
    subprocess.run([sys.executable, "-c", code], check=True)
