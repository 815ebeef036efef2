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

struct DecompileOptions {
    // Globals the caller knows nothing rebinds while the code runs (names starting with one of
    // these: a bytecode rewriter's own, such as Dynamo's `__compiled_fn_`). Any other global that
    // rewritten bytecode loads early and keeps on the stack while statements with effects run is
    // read into a temporary where the bytecode reads it, since those statements could rebind it.
    std::vector<std::string> stable_global_prefixes;
};

// A module code object decompiles to the module's source; any other code object to a `def` of it.
DecompileOutput decompile(const CodeObject& code, const DecompileOptions& options = {});

}  // namespace uncompile
