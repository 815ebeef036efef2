#pragma once
// Finding the interpreter of a bytecode version and recompiling source in it (POSIX).
#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/py_version.h"

namespace uncompile {

// The interpreter is missing, failed to start, or died.
class RecompileError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The path of a CPython X.Y executable, searched in this order:
//   1. the environment variable UNCOMPILE_PYTHON_X_Y (UNCOMPILE_PYTHON_3_11),
//   2. pythonX.Y on PATH (pyenv's shims skipped: they fail for versions not selected),
//   3. $(pyenv root)/versions/X.Y.N/bin/python, highest N (root: UNCOMPILE_PYENV_ROOT, PYENV_ROOT
//      or ~/.pyenv).
// Throws RecompileError naming the version and what was searched when there is none.
std::string find_interpreter(PyVersion version);

struct RecompileOutcome {
    bool compiled = false;
    std::string data;  // marshal data of the module code object, or the compile error message
};

// Runs `python` on kRecompileScript: compiles `source` (UTF-8) as a module named `filename` with
// the __future__ bits of `flags`. Throws RecompileError when the interpreter cannot run or is not
// version X.Y. No shell is involved; the source travels in a temporary file.
RecompileOutcome recompile_in(const std::string& python, PyVersion version, const std::string& source,
                              const std::string& filename, uint32_t flags);

}  // namespace uncompile
