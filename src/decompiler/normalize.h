#pragma once
#include <vector>

#include "core/code_object.h"
#include "core/instruction.h"
#include "neutral_op.h"

namespace uncompile {

// The one place where versions differ: turns decoded instructions of any supported version into
// neutral operations. Instructions that only exist for the interpreter's bookkeeping (RESUME,
// CACHE, PRECALL, EXTENDED_ARG, ...) disappear; multi-purpose ones are split (LOAD_GLOBAL with its
// NULL, LOAD_FAST_LOAD_FAST, ROT_THREE, ...); version-specific idioms are folded (3.12's
// COPY/POP_JUMP/POP_TOP short-circuit, FOR_ITER's exit past END_FOR).
std::vector<NeutralOp> normalize(const CodeObject& code, const std::vector<Instruction>& instructions,
                                 const OpcodeTable& table);

// Whether this version's compiler leaves code that no path reaches (before 3.10 it does: the jump
// or implicit `return None` after an if/else whose sides both end, the jump after a `break`).
bool keeps_dead_code(PyVersion version);

// Whether this version's compiler replaces a jump to a short block that ends the function (a
// `return`, a `raise`) with a copy of that block (3.10+), keeping the copied lines.
bool copies_exit_blocks(PyVersion version);

// Whether this version's compiler compiles a try statement's `else:` after its except clauses
// (before 3.11; later ones compile it right after the body): constants and names it is first to
// use enter co_consts and co_names after the clauses'.
bool compiles_else_after_clauses(PyVersion version);

// Whether this version passes a dict display written after `**` to CALL_FUNCTION_EX as it is
// (before 3.9; later ones merge it into an empty dict with DICT_MERGE).
bool passes_kwargs_display_as_is(PyVersion version);

// Whether this version's `assert` loads AssertionError as a global (before 3.9; later ones push the
// builtin with LOAD_ASSERTION_ERROR): it is then the same code as `if not test: raise AssertionError`.
bool asserts_load_global(PyVersion version);

// Whether this version's compiler keeps the constant of a `while 1:` test it drops in co_consts
// (3.10 and 3.11; `while True:` leaves nothing).
bool keeps_loop_test_constant(PyVersion version);

// Whether this version's compiler repeats a `while` loop's test at the bottom of its body (3.10+):
// the natural end of the body goes through that copy, so a body that jumps back to the test on top
// without one ended only by `continue` statements (its end was unreachable and the copy dropped).
bool repeats_while_test(PyVersion version);

// Whether this version's compiler threads a comprehension condition's jump to the jump back of its
// loop (making it a jump over that jump back) only when the condition and the element, whose line
// the jump back carries, are on the same line (3.12; 3.11 jumps back conditionally, 3.13 threads
// regardless).
bool threads_comprehension_jumps_by_line(PyVersion version);

// How many values a with statement's clean-up pops after POP_EXCEPT once __exit__ suppressed an
// exception: __exit__, and from 3.11 the handler's lasti slot below it (normalization folds the
// exception triples before POP_EXCEPT into one pop on every version).
int with_pops_after_suppression(PyVersion version);

}  // namespace uncompile
