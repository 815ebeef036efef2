#pragma once
// Block-stack bytecode (CPython 3.8-3.10) in the shape of zero-cost exception tables (3.11+).
#include <optional>
#include <vector>

#include "neutral_op.h"

namespace uncompile {

// Simulates the SetupFinally / SetupWith / PopBlock markers and PopExcept along every path and
// gives each op the fields an exception table entry gives on 3.11+: the innermost handler covering
// it, the stack depth that handler starts from, and whether it is a with / clean-up handler
// (`handler_lasti`). Exception handlers are entered with one value, the exception, as on 3.11
// (normalize folds the six values the interpreter pushes into it). Removes the markers. A path that
// leaves the block stack or the stack depth inconsistent becomes an Unsupported op there, so the
// function is refused rather than guessed at.
void assign_block_handlers(std::vector<NeutralOp>& ops);

// Values an op pushes minus the values it pops when it falls through to the next op; nullopt for
// ops whose effect is not known (Unsupported). Jumps' taken side is the caller's business.
std::optional<int> stack_effect(const NeutralOp& op);

}  // namespace uncompile
