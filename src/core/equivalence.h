#pragma once
// Equivalence of two code objects of the same version, after normalization: the check behind
// `uncompile verify` and `uncompile.verify`. Compared: instruction names and resolved arguments
// (jump targets as instruction indices; names, locals and constants by value), co_names,
// co_varnames, co_cellvars, co_freevars, constants (nested code objects recursively, paired by
// position), flags, argument counts and the exception table (as instruction-index ranges).
// Ignored: offsets, line numbers and positions (a 3.13 class body's __firstlineno__ too), CACHE, EXTENDED_ARG and NOP, the stack size,
// and the CO_NESTED flag (informational only: a function decompiled on its own is recompiled at
// module level).
#include <string>
#include <vector>

#include "code_object.h"

namespace uncompile {

// The verdict on one code object of the original.
struct CodeVerdict {
    std::string qualname;  // co_qualname; on 3.8-3.10, built from the nesting the same way
    int firstlineno = 0;
    bool equivalent = false;
    std::string difference;  // the first difference as a sentence; empty when equivalent
};

// One verdict per code object of `original`, depth-first (the order of walk_code_objects).
// When `original` is not a module's code object but `recompiled` is (a function decompiled on its
// own, recompiled as a module), the counterpart is first looked up among recompiled's code objects
// by name, preferring the same qualified name, then a qualified-name suffix, then the shallowest.
// Throws Error when the versions differ or have no opcode table.
std::vector<CodeVerdict> compare_code(const CodeObject& original, const CodeObject& recompiled);

}  // namespace uncompile
