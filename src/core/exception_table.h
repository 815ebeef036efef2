#pragma once
#include <vector>

#include "code_object.h"

namespace uncompile {

// One entry of co_exceptiontable (3.11+): an exception raised in [start, end) jumps to
// `target` with the value stack cut to `depth` (plus the offset of the raising instruction if `lasti`).
struct ExceptionTableEntry {
    uint32_t start = 0;
    uint32_t end = 0;
    uint32_t target = 0;
    uint32_t depth = 0;
    bool lasti = false;
};

// Byte offsets; empty before 3.11. Throws Error on a truncated table.
std::vector<ExceptionTableEntry> decode_exception_table(const CodeObject& code);

}  // namespace uncompile
