"""uncompile: readable, verified source from CPython bytecode, and a window into torch.compile.

Importing uncompile never imports torch.
"""
from .core import CodeListing, ExceptionTableEntry, Instruction, disassemble, instructions, pyc_version
from .decompiler import DecompiledSource, DecompileFailure, decompile
from .errors import BadBytecodeError, BytecodeLimitError, DecompileError, UncompileError, UnsupportedVersionError

__version__ = "0.1.0"


def prepare_debug(dump_src_dir, clean_wild_fx_code=True, log_bytecode=False):
    """Context manager: dump everything torch.compile makes inside the block (imports torch)."""
    from ._torch import prepare_debug as impl
    return impl(dump_src_dir, clean_wild_fx_code=clean_wild_fx_code, log_bytecode=log_bytecode)


def debug():
    """Context manager: run compiled code from the dumped files, so breakpoints in them are hit."""
    from ._torch import debug as impl
    return impl()


def install():
    """Add decompiled source to TORCH_LOGS=+bytecode output (imports torch)."""
    from ._torch import install as impl
    return impl()


def uninstall():
    """Undo install()."""
    from ._torch import uninstall as impl
    return impl()

__all__ = [
    "BadBytecodeError", "BytecodeLimitError", "CodeListing", "DecompileError", "DecompileFailure",
    "DecompiledSource", "ExceptionTableEntry", "Instruction", "debug", "decompile", "install",
    "prepare_debug", "uninstall",
    "UncompileError", "UnsupportedVersionError", "disassemble", "instructions", "pyc_version",
]
