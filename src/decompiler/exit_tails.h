#pragma once
// CPython 3.10+ replace a jump to a small block that ends the function (a return or raise of at
// most four instructions) with a copy of that block. Where the copy stands for code the source
// wrote once, the copy becomes the jump again.
#include <vector>

#include "neutral_op.h"

namespace uncompile {

// Undoes the copy (ops keep their offsets; a copy becomes one Jump to the block it copies) in
// the two shapes the source cannot say otherwise:
//   a conditional expression inside a return or raise (`raise E(a if c else b)`): each side
//     pushes its value, then ends in a copy of the rest of the statement. Undone where the rest
//     also consumes values pushed before the test (an `if` statement cannot leave any) or, where
//     `fused_const_returns` (3.12+: RETURN_CONST), where a side returns a constant loaded apart
//     from its return (an `if` statement's `return <constant>` is one RETURN_CONST);
//   `break` in a for loop whose exit is such a block: POP_TOP (the iterator), then the copy.
// Each rewrite replaces a copy by a jump to code that is the same, so meaning is kept.
void share_exit_tails(std::vector<NeutralOp>& ops, bool fused_const_returns);

// 3.10: the copies of a with statement's `__exit__` call and the code after the statement that
// ends the function, one in each way its body ends (the block starts with a line-less POP_BLOCK,
// which makes the compiler copy all of it), become jumps to the last copy.
void share_with_exit_copies(std::vector<NeutralOp>& ops);

// Every version: a return or raise inside an operand of `and`/`or` (a comparison chain's too) is
// the compiler's copy of the code after the value (3.8/3.9 write RETURN_VALUE for a jump to one);
// it becomes a jump to that code again.
void share_short_circuit_exit_tails(std::vector<NeutralOp>& ops);

}  // namespace uncompile
