#pragma once
// Basic blocks over neutral operations, and post-dominators (the merge point of an `if`).
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/error.h"
#include "neutral_op.h"

namespace uncompile {

struct Block {
    size_t first = 0, last = 0;   // ops [first, last)
    // Views into the graph's one edge array (two vectors per block cost two allocations each).
    std::span<const int> succs;   // for a conditional terminator: {fallthrough, target}
    std::span<const int> preds;
    uint32_t offset = 0;
    int handler = -1;             // block of the innermost exception handler covering this block
};

class ControlFlowGraph {
public:
    explicit ControlFlowGraph(const std::vector<NeutralOp>& ops);
    ControlFlowGraph() = default;  // the graph of no ops: no blocks
    // Moved, not copied: the blocks' edge views point into this graph's edge array.
    ControlFlowGraph(ControlFlowGraph&&) = default;
    ControlFlowGraph& operator=(ControlFlowGraph&&) = default;
    ControlFlowGraph(const ControlFlowGraph&) = delete;
    ControlFlowGraph& operator=(const ControlFlowGraph&) = delete;

    const std::vector<Block>& blocks() const { return blocks_; }
    // (Checked: a structuring step that asks for a block that is not there, such as the latch of a
    // loop without one, is a refusal of that function, never a read out of bounds.)
    const Block& block(int id) const {
        if (static_cast<size_t>(id) >= blocks_.size()) [[unlikely]]
            no_such_block(id);
        return blocks_[static_cast<size_t>(id)];
    }
    int size() const { return static_cast<int>(blocks_.size()); }
    // The block whose first op is at or after `offset` (jump targets may name dropped instructions).
    int block_at_offset(int64_t offset) const;
    int block_of_op(size_t op) const { return op_block_[op]; }
    // Immediate post-dominator, or -1 when only the function's exit post-dominates.
    int ipdom(int block) const { return ipdom_[block]; }
    bool post_dominates(int a, int b) const {  // a post-dominates b
        return (pdom_[size_t(b) * words_ + size_t(a) / 64] >> (a % 64)) & 1;
    }

private:
    [[noreturn, gnu::cold]] static void no_such_block(int id);  // out of line: block() stays small enough to inline
    void split_blocks(const std::vector<NeutralOp>& ops);
    void link(const std::vector<NeutralOp>& ops);
    void compute_post_dominators();

    std::vector<Block> blocks_;
    std::vector<int> edges_;  // every block's successors, then every block's predecessors
    std::vector<int> op_block_;
    std::vector<std::pair<uint32_t, int>> offset_index_;  // block start offsets, sorted
    std::vector<uint64_t> pdom_;  // block b's post-dominators: bits [b * words_ * 64, (b + 1) * words_ * 64)
    size_t words_ = 0;
    std::vector<int> ipdom_;
};

// (Inline: asked of every op by every pass.)
inline bool ends_flow(N kind) {  // no fallthrough after it
    return kind == N::Jump || kind == N::Return || kind == N::Raise || kind == N::Reraise;
}
inline bool is_block_terminator(N kind) {
    return ends_flow(kind) || kind == N::JumpIf || kind == N::JumpIfOrPop || kind == N::ForIter;
}

}  // namespace uncompile
