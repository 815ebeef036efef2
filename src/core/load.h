#pragma once
#include <memory>
#include <optional>
#include <string_view>

#include "code_object.h"

namespace uncompile {

// Entry points shared by the CLI and the Python binding: a code object from a whole .pyc file,
// or from bare marshal data written by the given version.
std::shared_ptr<const CodeObject> load_pyc(std::string_view data);
std::shared_ptr<const CodeObject> load_marshalled_code(std::string_view data, PyVersion version);

// "3.11" -> {3, 11}; nullopt for anything else.
std::optional<PyVersion> parse_version(std::string_view text);

}  // namespace uncompile
