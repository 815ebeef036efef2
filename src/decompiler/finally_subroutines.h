#pragma once
// CPython 3.8 runs a finally body as a subroutine; 3.9 compiles a copy of it at every way out.
#include <vector>

#include "neutral_op.h"

namespace uncompile {

// Rewrites 3.8's finally subroutines in translated ops (block-stack markers still in place) into
// the shape 3.9 compiles, which the rest of the decompiler reads:
//   BEGIN_FINALLY before a finally body    -> a copy of the body, then a jump past its END_FINALLY
//   CALL_FINALLY (return/break/continue)   -> a copy of the body, falling through
//   the body's own END_FINALLY             -> RERAISE (the body is now only the exception handler)
//   a with statement's BEGIN_FINALLY; WITH_CLEANUP_START; WITH_CLEANUP_FINISH; END_FINALLY/POP_FINALLY
//                                          -> the __exit__(None, None, None) call, and in the
//                                             handler 3.9's WITH_EXCEPT_START test
//   `except ... as name` left normally     -> POP_EXCEPT before the `name = None; del name` copy
//   return / break / continue inside a finally body (POP_FINALLY k; [ROT_TWO]; POP_TOP, with 3.8's
//   placeholder None pushed before SETUP_FINALLY and popped after END_FINALLY)
//                                          -> no unwinding in the normal-path and CALL_FINALLY copies
//                                             (a try-body return's value still popped below the new
//                                             one), the exception popped and POP_EXCEPT in the handler
// Copies get offsets of their own, so every op is renumbered (offsets stay increasing). A marker
// in any other shape is left to become an Unsupported op, so the function is refused rather than
// guessed at.
void inline_finally_subroutines(std::vector<NeutralOp>& ops);

}  // namespace uncompile
