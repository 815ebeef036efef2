"""The public entry points, with depyf's names and arguments."""
import contextlib
import threading
from typing import Iterator, Optional

from . import _compat
from ._session import DumpSession

_lock = threading.Lock()
_state = {"current": None, "last": None, "install": None}


@contextlib.contextmanager
def prepare_debug(dump_src_dir: str, clean_wild_fx_code: bool = True, log_bytecode: bool = False) -> Iterator[DumpSession]:
    """Dump everything torch.compile makes inside the block into `dump_src_dir` (see docs/dump-format.md).

    clean_wild_fx_code: accepted for depyf compatibility; uncompile writes only the graphs a
    compile uses, so there is no stray FX code to clean. log_bytecode: also log each transformed
    code's decompiled source on the "uncompile.bytecode" logger.
    """
    api = _compat.load()
    session = DumpSession(api, dump_src_dir, log_bytecode=log_bytecode)
    with _lock:
        if _state["current"] is not None:
            raise _compat.TorchSupportError("prepare_debug blocks cannot be nested")
        _state["current"] = session
    session.start()
    try:
        yield session
    finally:
        try:
            session.stop()
        finally:
            with _lock:
                _state["current"] = None
                _state["last"] = session


@contextlib.contextmanager
def debug() -> Iterator[Optional[DumpSession]]:
    """Run the compiled program from the dumped files, so breakpoints set in them are hit.

    Code compiled inside prepare_debug already runs from the dump (verified decompiled code, or
    Dynamo's bytecode mapped to the listing in transformed.py; graph files; Inductor output code).
    Inside debug(), anything compiled anew (a recompile) is dumped into the same directory and is
    file-backed the same way. Use it after (or inside) a prepare_debug block.
    """
    api = _compat.load()
    with _lock:
        current, last = _state["current"], _state["last"]
    if current is not None:
        yield current
        return
    if last is None:
        raise _compat.TorchSupportError("uncompile.debug() runs the program from a dump: "
                                        "use it after a `with uncompile.prepare_debug(dump_dir):` block")
    session = DumpSession(api, last.dump_dir, log_bytecode=last.log_bytecode)
    session.functions, session.dir_names, session.compiles = last.functions, last.dir_names, last.compiles
    session.resume_names, session.notes = last.resume_names, last.notes
    session._fx_file_codes, session._inductor_paths = last._fx_file_codes, last._inductor_paths
    with _lock:
        _state["current"] = session
    session.start()
    try:
        yield session
    finally:
        try:
            session.stop()
        finally:
            with _lock:
                _state["current"] = None
                _state["last"] = session


def _log_decompiled(original, transformed):
    from ..decompiler import decompile
    logger = _compat.load().bytecode_logger
    if logger.isEnabledFor(10):  # logging.DEBUG: TORCH_LOGS=+bytecode
        for label, code in (("ORIGINAL", original), ("MODIFIED", transformed)):
            try:
                text = str(decompile(code))
            except Exception as exc:
                text = "# uncompile could not decompile: %s" % exc
            logger.debug("%s BYTECODE DECOMPILED BY UNCOMPILE %s %s line %s\n%s", label, code.co_name,
                         code.co_filename, code.co_firstlineno, text)
    return None


def install() -> None:
    """Add decompiled source to the `TORCH_LOGS=+bytecode` output (depyf.install)."""
    api = _compat.load()
    with _lock:
        if _state["install"] is None:
            _state["install"] = api.register_bytecode_hook(_log_decompiled)


def uninstall() -> None:
    """Undo install()."""
    with _lock:
        handle, _state["install"] = _state["install"], None
    if handle is not None:
        handle.remove()
