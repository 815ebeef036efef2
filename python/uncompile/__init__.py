"""uncompile: readable, verified source from CPython bytecode, and a window into torch.compile.

Importing uncompile never imports torch.
"""
from .core import CodeListing, ExceptionTableEntry, Instruction, disassemble, instructions, pyc_version
from .decompiler import DecompiledSource, DecompileFailure, decompile
from .errors import (BadBytecodeError, BytecodeLimitError, DecompileError, RecompileError, UncompileError,
                     UnsupportedVersionError)
from .verify import CodeVerdict, VerifyResult, verify_source

__version__ = "0.1.0"

__all__ = [
    "BadBytecodeError", "BytecodeLimitError", "CodeListing", "CodeVerdict", "DecompileError", "DecompileFailure",
    "DecompiledSource", "ExceptionTableEntry", "Instruction", "RecompileError", "VerifyResult", "decompile",
    "UncompileError", "UnsupportedVersionError", "disassemble", "instructions", "pyc_version", "verify_source",
]
