#pragma once
#include <vector>

#include "code_object.h"

namespace uncompile {

// Where an instruction came from in the source; -1 means "not known" (None in Python).
struct SourcePosition {
    int line = -1;
    int end_line = -1;
    int column = -1;
    int end_column = -1;

    bool operator==(const SourcePosition&) const = default;
};

// One position per 2-byte code unit of `code.bytecode`, decoded from co_lnotab (3.8/3.9),
// co_linetable (3.10) or the location table (3.11+). Throws Error on a malformed table.
std::vector<SourcePosition> decode_positions(const CodeObject& code);

}  // namespace uncompile
