#pragma once
// Bytecode -> Python source. The pipeline, per code object:
//   1. decode_instructions (core)   bytes -> instructions of the bytecode's version
//   2. normalize                    instructions -> version-neutral operations
//   3. ControlFlowGraph             basic blocks, post-dominators
//   4. StructuredDecompiler         stack simulation into expressions, blocks into if/while/for/...
//   5. print_module                 syntax tree -> text
// A code object the structurer cannot express is never guessed at: its body becomes a stub that
// raises, and the failure is reported.
#include <string>
#include <vector>

#include "core/code_object.h"

namespace uncompile {

struct DecompileFailure {
    std::string qualname;
    int firstlineno = 0;
    std::string reason;
};

struct DecompileOutput {
    std::string source;
    std::vector<DecompileFailure> failures;
};

// A module code object decompiles to the module's source; any other code object to a `def` of it.
DecompileOutput decompile(const CodeObject& code);

}  // namespace uncompile
