"""uncompile: readable, verified source from CPython bytecode, and a window into torch.compile.

Importing uncompile never imports torch.
"""
from .core import CodeListing, ExceptionTableEntry, Instruction, disassemble, instructions, pyc_version
from .errors import BadBytecodeError, BytecodeLimitError, UncompileError, UnsupportedVersionError

__version__ = "0.1.0"

__all__ = [
    "BadBytecodeError", "BytecodeLimitError", "CodeListing", "ExceptionTableEntry", "Instruction",
    "UncompileError", "UnsupportedVersionError", "disassemble", "instructions", "pyc_version",
]
