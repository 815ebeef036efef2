#pragma once
#include <optional>
#include <string>
#include <vector>

#include "core/py_version.h"

namespace uncompile::cli {

// `uncompile verify FILE...`: decompile each file, recompile the source in the interpreter of its
// version, compare the code objects and print a verdict per code object plus a summary.
// Returns 0 when every code object of every file is equivalent, 1 otherwise.
int run_verify(const std::vector<std::string>& files, const std::optional<PyVersion>& marshal_version);

}  // namespace uncompile::cli
