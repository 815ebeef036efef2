"""Exceptions raised by uncompile. Every failure on bad input is one of these, never a crash."""


class UncompileError(Exception):
    """Base class of all uncompile errors."""


class BadBytecodeError(UncompileError, ValueError):
    """The input is not valid bytecode: a truncated or corrupt .pyc, malformed marshal data, ..."""


class BytecodeLimitError(BadBytecodeError):
    """The input exceeds a safety limit of the reader (for example marshal data nested too deeply)."""


class UnsupportedVersionError(UncompileError):
    """The bytecode comes from a Python version uncompile does not read (it reads CPython 3.8-3.13)."""


class DecompileError(UncompileError):
    """The decompiler met a construct it cannot express yet; nothing was guessed."""


class RecompileError(UncompileError):
    """Verification could not recompile: the interpreter of the bytecode's version is missing, failed
    to start or died (a source that does not compile is a verification result, not this error)."""
