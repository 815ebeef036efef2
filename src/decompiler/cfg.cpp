#include "cfg.h"

#include <algorithm>
#include <bit>

#include "offset_set.h"

namespace uncompile {

void ControlFlowGraph::no_such_block(int id) {
    throw Error(Error::Kind::Unsupported, "control flow the structurer lost track of (no block " + std::to_string(id) + ")");
}

ControlFlowGraph::ControlFlowGraph(const std::vector<NeutralOp>& ops) {
    split_blocks(ops);
    link(ops);
    compute_post_dominators();
}

namespace {

// Where the code after the except clause whose POP_EXCEPT is at `after - 1` starts, in the block
// that op is in (0: none there; see split_blocks).
size_t code_after_clause(const std::vector<NeutralOp>& ops, const std::vector<char>& leader, size_t after) {
    size_t p = after;
    // (3.11+ unbind the clause's name after POP_EXCEPT: `name = None; del name`.)
    if (p + 2 < ops.size() && ops[p].kind == N::LoadConst && ops[p + 1].kind == N::Store && ops[p + 2].kind == N::Delete &&
        ops[p + 1].name == ops[p + 2].name && !leader[p + 1] && !leader[p + 2])
        p += 3;
    if (p >= ops.size() || leader[p]) return 0;
    const N k = ops[p].kind;
    if (k == N::Jump || k == N::Return || k == N::Reraise || k == N::Raise || k == N::Pop || k == N::Nop || k == N::PopExcept ||
        k == N::Swap || (k == N::LoadConst && p + 1 < ops.size() && ops[p + 1].kind == N::Return))
        return 0;
    size_t end = p + 1;
    while (end < ops.size() && !leader[end]) ++end;
    const N last = ops[end - 1].kind;
    // (Not where it ends in a return or raise: 3.12+ copy the code after the statement there,
    // which the structurer reads as such a copy only in the clause's block.)
    return last == N::JumpIf || last == N::JumpIfOrPop || last == N::ForIter || last == N::Jump ? p : 0;
}

}  // namespace

void ControlFlowGraph::split_blocks(const std::vector<NeutralOp>& ops) {
    std::vector<int64_t> targets;
    targets.reserve(2 * ops.size());  // (at most two an op: one allocation instead of one per doubling)
    for (const auto& op : ops) {
        if (op.target >= 0) targets.push_back(op.target);
        if (op.handler >= 0) targets.push_back(op.handler);
    }
    const OffsetSet target_offsets(std::move(targets));
    std::vector<char> leader(ops.size() + 1, 0);  // (bytes: a bit vector's masking cost more than the loop's work)
    if (!ops.empty()) leader[0] = true;
    // Whether an op's offset is a target: by a merge walk, the op offsets rising, instead of a
    // binary search per op (whose branches the processor cannot predict); an op below the highest
    // offset met so far (none is, in practice) is looked up.
    auto next_target = target_offsets.begin();
    int64_t highest = -1;
    auto is_target = [&](int64_t offset) {
        if (offset < highest) return target_offsets.count(offset) > 0;
        highest = offset;
        while (next_target != target_offsets.end() && *next_target < offset) ++next_target;
        return next_target != target_offsets.end() && *next_target == offset;
    };
    for (size_t i = 0; i < ops.size(); ++i) {
        if (is_target(ops[i].offset) && (i == 0 || ops[i - 1].offset != ops[i].offset)) leader[i] = true;
        if (is_block_terminator(ops[i].kind)) leader[i + 1] = true;
        // A for loop's header is a block of its own even when no path goes back to it.
        if (ops[i].kind == N::ForIter) leader[i] = true;
        // One handler per block, so a block is either inside a protected range or not.
        if (i > 0 && ops[i].handler != ops[i - 1].handler) leader[i] = true;
    }
    // A target offset that names a dropped instruction starts the block of the next op.
    for (int64_t t : target_offsets) {
        auto it = std::lower_bound(ops.begin(), ops.end(), t,
                                   [](const NeutralOp& op, int64_t off) { return int64_t(op.offset) < off; });
        if (it != ops.end()) leader[it - ops.begin()] = true;
    }
    // An except clause that falls into the code after its try statement (3.8-3.10 write no jump
    // there when that code follows; the block goes on) ends at its POP_EXCEPT (and the unbinding
    // of its name): where that code is a statement of its own in the same block, and the block
    // ends in a branch (a loop's test, an if, the jump back), the code after the clause starts a
    // block of its own. (Not a value or a jump the clause leaves with: that is the clause's
    // `return`, `break` or `continue`.)
    for (size_t i = 0; i + 1 < ops.size(); ++i)
        if (ops[i].kind == N::PopExcept && !leader[i + 1])
            if (size_t at = code_after_clause(ops, leader, i + 1)) leader[at] = true;
    op_block_.assign(ops.size(), -1);
    size_t count = size_t(std::count(leader.begin(), leader.begin() + std::ptrdiff_t(ops.size()), char(1)));
    blocks_.reserve(count);
    offset_index_.reserve(count);
    for (size_t i = 0; i < ops.size();) {
        Block b;
        b.first = i;
        b.offset = ops[i].offset;
        size_t j = i + 1;
        while (j < ops.size() && !leader[j]) ++j;
        b.last = j;
        for (size_t k = i; k < j; ++k) op_block_[k] = static_cast<int>(blocks_.size());
        offset_index_.emplace_back(b.offset, static_cast<int>(blocks_.size()));
        blocks_.push_back(b);
        i = j;
    }
}

int ControlFlowGraph::block_at_offset(int64_t offset) const {
    auto it = std::lower_bound(offset_index_.begin(), offset_index_.end(), std::make_pair(uint32_t(std::max<int64_t>(offset, 0)), -1));
    return it == offset_index_.end() ? -1 : it->second;
}

void ControlFlowGraph::link(const std::vector<NeutralOp>& ops) {
    const int n = size();
    // At most two successors a block, and as many predecessors in all: reserved once, so the
    // views taken while filling stay valid.
    edges_.reserve(4 * size_t(n));
    std::vector<size_t> pred_at(size_t(n) + 1, 0);
    for (int id = 0; id < n; ++id) {
        Block& b = blocks_[id];
        const NeutralOp& last = ops[b.last - 1];
        int fallthrough = !ends_flow(last.kind) && id + 1 < n ? id + 1 : -1;
        int target = last.target >= 0 && is_block_terminator(last.kind) ? block_at_offset(last.target) : -1;
        size_t start = edges_.size();
        for (int s : {fallthrough, target})
            if (s >= 0) {
                edges_.push_back(s);
                ++pred_at[size_t(s) + 1];
            }
        b.succs = std::span<const int>(edges_.data() + start, edges_.size() - start);
    }
    // Predecessors in increasing order of block, as the successor lists name them.
    pred_at[0] = edges_.size();
    for (int id = 0; id < n; ++id) pred_at[size_t(id) + 1] += pred_at[size_t(id)];
    edges_.resize(pred_at[size_t(n)]);
    for (int id = 0; id < n; ++id)
        blocks_[id].preds = std::span<const int>(edges_.data() + pred_at[size_t(id)], pred_at[size_t(id) + 1] - pred_at[size_t(id)]);
    for (int id = 0; id < n; ++id) {
        for (int s : blocks_[id].succs) edges_[pred_at[size_t(s)]++] = id;
        int64_t handler = ops[blocks_[id].first].handler;
        if (handler >= 0) blocks_[id].handler = block_at_offset(handler);
    }
}

void ControlFlowGraph::compute_post_dominators() {
    // Iterative data flow on bit sets (64 blocks a word); blocks without successors flow into a
    // virtual exit.
    int n = size();
    words_ = (size_t(n) + 63) / 64;
    pdom_.assign(size_t(n) * words_, ~uint64_t(0));
    auto set_of = [&](int id) { return pdom_.data() + size_t(id) * words_; };
    for (int id = 0; id < n; ++id)
        if (blocks_[id].succs.empty()) {
            uint64_t* own = set_of(id);
            std::fill(own, own + words_, 0);
            own[id / 64] |= uint64_t(1) << (id % 64);
        }
    std::vector<uint64_t> meet(words_);
    bool changed = true;
    while (changed) {
        changed = false;
        for (int id = n - 1; id >= 0; --id) {
            if (blocks_[id].succs.empty()) continue;
            std::fill(meet.begin(), meet.end(), ~uint64_t(0));
            for (int s : blocks_[id].succs) {
                const uint64_t* other = set_of(s);
                for (size_t w = 0; w < words_; ++w) meet[w] &= other[w];
            }
            meet[id / 64] |= uint64_t(1) << (id % 64);
            uint64_t* own = set_of(id);
            if (!std::equal(meet.begin(), meet.end(), own)) {
                std::copy(meet.begin(), meet.end(), own);
                changed = true;
            }
        }
    }
    // Post-dominator sets form a chain, so the immediate one is the strict post-dominator whose
    // own set is exactly one smaller. (Bits past the last block do not count.)
    std::vector<int> count(n, 0);
    const uint64_t last_mask = n % 64 ? (uint64_t(1) << (n % 64)) - 1 : ~uint64_t(0);
    for (int id = 0; id < n; ++id) {
        const uint64_t* own = set_of(id);
        for (size_t w = 0; w < words_; ++w) count[id] += std::popcount(w + 1 == words_ ? own[w] & last_mask : own[w]);
    }
    ipdom_.assign(n, -1);
    // (The candidates are the set bits of the block's own set, taken in increasing order as a
    // scan over every block would meet them.)
    for (int id = 0; id < n; ++id) {
        const uint64_t* own = set_of(id);
        for (size_t w = 0; w < words_ && ipdom_[id] < 0; ++w)
            for (uint64_t bits = w + 1 == words_ ? own[w] & last_mask : own[w]; bits; bits &= bits - 1) {
                int c = int(w * 64) + std::countr_zero(bits);
                if (c != id && count[c] == count[id] - 1) {
                    ipdom_[id] = c;
                    break;
                }
            }
    }
}

}  // namespace uncompile
