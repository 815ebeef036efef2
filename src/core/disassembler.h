#pragma once
#include <string>

#include "code_object.h"

namespace uncompile {

enum class ListingFormat {
    Human,    // a readable listing in the spirit of `python -m dis`
    Records,  // the canonical record lines compared against each interpreter's `dis`
};

// Disassembles `code` and, depth-first, every code object among its constants.
// Throws Error when the version has no opcode table or the code object is malformed.
std::string disassemble(const CodeObject& code, ListingFormat format);

}  // namespace uncompile
