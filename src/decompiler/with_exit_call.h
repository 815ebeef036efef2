#pragma once
// Recognizing a with statement's `__exit__(None, None, None)` call among neutral ops: the
// structurer reads it where a with body ends, and 3.10's normalizing step finds the compiler's
// copies of it (exit_tails.cpp).
#include <cstddef>
#include <vector>

#include "neutral_op.h"

namespace uncompile {

// Where a with statement's `__exit__(None, None, None)` call in `tail` starting at `k` ends,
// with the POP_BLOCKs after it (0: none there): [SWAP 2] LOAD_CONST None x3; CALL 2 (3.11+), or
// [ROT_TWO] LOAD_CONST None; DUP_TOP x2; CALL_FUNCTION 3; then POP_TOP (`awaited`: an async
// with statement's __aexit__ call may come with its await). The SWAP moves a returned value
// computed before it below the exit function (`constant`: no SWAP).
inline size_t with_exit_call_end(const std::vector<const NeutralOp*>& tail, size_t k, size_t end, bool constant, bool awaited = false) {
    auto is_none = [](const NeutralOp* op) { return op->kind == N::LoadConst && op->value && op->value->kind == PyValue::Kind::None; };
    if (!constant) {
        if (k >= end || tail[k]->kind != N::Swap || tail[k]->arg != 2) return 0;
        ++k;
    }
    if (k + 5 > end || !is_none(tail[k])) return 0;
    for (size_t j = k + 1; j < k + 3; ++j)
        if (!is_none(tail[j]) && !(tail[j]->kind == N::Copy && tail[j]->arg == 1)) return 0;
    if (tail[k + 3]->kind != N::Call || (tail[k + 3]->arg != 2 && tail[k + 3]->arg != 3)) return 0;
    k += 4;
    if (awaited && tail[k]->kind == N::Await && k + 1 < end) ++k;  // an async with statement's __aexit__ call
    if (tail[k]->kind != N::Pop) return 0;
    ++k;
    while (k < end && tail[k]->kind == N::PopBlock) ++k;
    return k;
}

// with_exit_call_end over `ops` from `i` (a window of the 8 that can hold the call): how many ops
// the __exit__ call there takes, 0 where there is none.
inline size_t exit_call_at(const std::vector<NeutralOp>& ops, size_t i, bool constant, bool awaited = false) {
    std::vector<const NeutralOp*> ahead;
    for (size_t k = i; k < ops.size() && ahead.size() < 8; ++k) ahead.push_back(&ops[k]);
    return with_exit_call_end(ahead, 0, ahead.size(), constant, awaited);
}

}  // namespace uncompile
