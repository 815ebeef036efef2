#include "block_stack.h"

#include <algorithm>
#include <bitset>
#include <memory>
#include <string>

namespace uncompile {

namespace {

// One entry of the interpreter's block stack: a SETUP_FINALLY / SETUP_WITH block (its handler),
// or the EXCEPT_HANDLER block the interpreter pushes when it enters a handler (POP_EXCEPT pops it).
struct Entry {
    int64_t handler = -1;
    int depth = 0;
    bool lasti = false;
    bool except_handler = false;
    bool operator==(const Entry& o) const {
        return handler == o.handler && depth == o.depth && lasti == o.lasti && except_handler == o.except_handler;
    }
};

// The block stack is shared between the states of the ops it covers and copied only where a
// setup, POP_BLOCK or POP_EXCEPT changes it: a state is kept for every op, and a vector of its own
// each cost an allocation per op inside a try or with statement.
using Blocks = std::shared_ptr<const std::vector<Entry>>;  // null: empty

const std::vector<Entry> kNoBlocks;  // (at namespace scope: a function's static is guarded on every call)

const std::vector<Entry>& entries(const Blocks& b) { return b ? *b : kNoBlocks; }

struct State {
    int depth = 0;
    Blocks blocks;
    bool operator==(const State& o) const {
        return depth == o.depth && (blocks == o.blocks || entries(blocks) == entries(o.blocks));
    }
    bool operator!=(const State& o) const { return !(*this == o); }
    bool empty() const { return entries(blocks).empty(); }
    const Entry& back() const { return entries(blocks).back(); }
    void push(const Entry& e) {
        auto grown = std::make_shared<std::vector<Entry>>(entries(blocks));
        grown->push_back(e);
        blocks = std::move(grown);
    }
    void pop() {
        const std::vector<Entry>& now = entries(blocks);
        blocks = now.size() == 1 ? nullptr : std::make_shared<const std::vector<Entry>>(now.begin(), now.end() - 1);
    }
};

size_t index_at(const std::vector<NeutralOp>& ops, int64_t offset) {
    auto it = std::lower_bound(ops.begin(), ops.end(), offset,
                               [](const NeutralOp& op, int64_t off) { return int64_t(op.offset) < off; });
    return size_t(it - ops.begin());
}

bool is_marker(N kind) { return kind == N::SetupFinally || kind == N::SetupWith || kind == N::PopBlock; }

class BlockStackPass {
public:
    explicit BlockStackPass(std::vector<NeutralOp>& ops) : ops_(ops), in_(ops.size()), problem_(ops.size(), nullptr) {}

    void run() {
        if (ops_.empty()) return;
        flow(0, State{});
        while (!work_.empty()) {
            size_t i = work_.back();
            work_.pop_back();
            step(i, *in_[i]);
        }
        apply();
    }

private:
    void flow(size_t to, State s) {
        if (to >= ops_.size()) return;
        if (s.depth < 0) return fail(to, "a stack depth below zero");
        if (!in_[to]) {
            in_[to] = std::move(s);
            work_.push_back(to);
        } else if (*in_[to] != s) {
            fail(to, "paths that meet with different block stacks");
        }
    }

    void fail(size_t at, const char* why) {
        if (!problem_[at]) problem_[at] = why;
    }

    void step(size_t i, State s) {
        const NeutralOp& op = ops_[i];
        switch (op.kind) {
        case N::SetupFinally: case N::SetupWith: {
            Entry e{op.target, s.depth - int(op.arg), op.handler_lasti, false};
            // The handler runs with this block popped and an EXCEPT_HANDLER block pushed, from the
            // block's level plus the exception.
            State h = s;
            h.depth = e.depth + 1;
            h.push(Entry{-1, e.depth, false, true});
            flow(index_at(ops_, op.target), std::move(h));
            s.push(e);
            return flow(i + 1, std::move(s));
        }
        case N::PopBlock:
            if (s.empty() || s.back().except_handler) return fail(i, "POP_BLOCK without a setup block");
            s.pop();
            return flow(i + 1, std::move(s));
        case N::PopExcept:
            if (s.empty() || !s.back().except_handler) return fail(i, "POP_EXCEPT outside an exception handler");
            s.pop();
            s.depth -= 1;
            return flow(i + 1, std::move(s));
        case N::Jump: return flow(index_at(ops_, op.target), std::move(s));
        case N::JumpIf:
            s.depth -= 1;
            flow(index_at(ops_, op.target), s);
            return flow(i + 1, std::move(s));
        case N::JumpIfOrPop:
            flow(index_at(ops_, op.target), s);
            s.depth -= 1;
            return flow(i + 1, std::move(s));
        case N::ForIter: {
            State exit = s;
            exit.depth -= 1;  // the exhausted iterator is popped
            flow(index_at(ops_, op.target), std::move(exit));
            s.depth += 1;
            return flow(i + 1, std::move(s));
        }
        case N::Return: case N::Raise: case N::Reraise: case N::Unsupported: return;
        default: {
            std::optional<int> effect = stack_effect(op);
            if (!effect) return;
            s.depth += *effect;
            return flow(i + 1, std::move(s));
        }
        }
    }

    void apply() {
        for (size_t i = 0; i < ops_.size(); ++i) {
            NeutralOp& op = ops_[i];
            if (problem_[i]) {
                op.kind = N::Unsupported;
                op.name = problem_[i];
            }
            op.handler = -1;
            op.handler_depth = 0;
            op.handler_lasti = false;
            if (!in_[i]) continue;
            const auto& blocks = entries(in_[i]->blocks);
            for (auto it = blocks.rbegin(); it != blocks.rend(); ++it) {
                if (it->except_handler) continue;
                op.handler = it->handler;
                op.handler_depth = uint32_t(it->depth);
                op.handler_lasti = it->lasti;
                break;
            }
        }
        ops_.erase(std::remove_if(ops_.begin(), ops_.end(), [](const NeutralOp& op) { return is_marker(op.kind); }),
                   ops_.end());
    }

    std::vector<NeutralOp>& ops_;
    std::vector<std::optional<State>> in_;
    std::vector<const char*> problem_;  // why the op's paths are inconsistent; null when they are not
    std::vector<size_t> work_;
};

}  // namespace

std::optional<int> stack_effect(const NeutralOp& op) {
    const int n = int(op.arg);
    switch (op.kind) {
    case N::Nop: case N::Swap: case N::Delete: case N::LoadAttr: case N::UnaryOp: case N::ListToTuple:
    case N::ConvertValue: case N::GetIter: case N::Yield: case N::YieldFrom: case N::Await:
    case N::CheckExcMatch: case N::StopIterationError: case N::Jump: case N::CheckEgMatch:
    case N::SetupFinally: case N::SetupWith: case N::PopBlock: case N::CopyDictWithoutKeys: case N::SetupAnnotations:
        return 0;
    case N::Copy: case N::PushNull: case N::LoadConst: case N::Load: case N::LoadAndClear: case N::LoadClosure: case N::LoadAssertionError:
    case N::LoadBuildClass: case N::LoadLocals: case N::ImportFrom: case N::PushExcInfo: case N::BeforeWith:
    case N::WithExceptStart: case N::MatchSequence: case N::MatchMapping: case N::MatchKeys: case N::GetLen:
        return 1;
    case N::Pop: case N::Store: case N::DeleteAttr: case N::BinaryOp: case N::Compare: case N::Subscr:
    case N::ListAppend: case N::SetAdd: case N::ListExtend: case N::SetUpdate: case N::DictUpdate: case N::DictMerge:
    case N::ImportName: case N::ImportStar: case N::SetFunctionAttribute: case N::PopExcept: case N::JumpIf:
    case N::Return:
        return -1;
    case N::StoreAttr: case N::DeleteSubscr: case N::Slice3: case N::MapAdd: case N::LoadSuperAttr: return -2;
    case N::StoreSubscr: return -3;
    case N::TypeAlias: return -2;
    case N::ExceptStarBegin: return 2;
    case N::PrepReraiseStar: return -1;
    case N::TypeParam: return op.name.empty() ? 0 : -1;
    case N::BindTypeParam: case N::GenericBase: return 0;
    case N::TypeParamDefault: case N::SetFunctionTypeParams: return -1;
    case N::MatchClass: return -2;
    case N::StoreSlice: return -4;
    case N::BuildSlice: case N::BuildTuple: case N::BuildList: case N::BuildSet: case N::BuildString: return 1 - n;
    case N::BuildMap: return 1 - 2 * n;
    case N::BuildUnpack: return 1 - n;
    case N::BuildConstKeyMap: return -n;
    case N::UnpackSequence: return n - 1;
    case N::UnpackEx: return (n & 0xff) + (n >> 8);
    case N::Call: return 1 - n - op.call_slots;
    case N::CallKw: return -n - op.call_slots;  // the keyword names tuple is on the stack too
    case N::CallEx: return -(op.arg & 1) - op.call_slots;
    case N::MakeFunction:
        return -int(std::bitset<4>(uint64_t(op.arg) & 0xf).count()) - (op.with_qualname ? 1 : 0);
    case N::FormatValue: return -n;
    case N::JumpIfOrPop: return -1;
    case N::ForIter: return 1;
    case N::Raise: return -n;
    case N::Reraise: case N::Unsupported:
    case N::BeginFinally: case N::CallFinally: case N::PopFinally: case N::EndFinally: case N::WithCleanupStart:
    case N::WithCleanupFinish:
        return std::nullopt;
    }
    return std::nullopt;
}

void assign_block_handlers(std::vector<NeutralOp>& ops) { BlockStackPass(ops).run(); }

}  // namespace uncompile
