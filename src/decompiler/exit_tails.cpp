#include "exit_tails.h"

#include <algorithm>
#include <climits>
#include <optional>
#include <set>

#include "block_stack.h"
#include "cfg.h"
#include "offset_set.h"
#include "with_exit_call.h"

namespace uncompile {

namespace {

bool is_exit(N kind) { return kind == N::Return || kind == N::Raise || kind == N::Reraise; }

bool same_op(const NeutralOp& a, const NeutralOp& b) {
    return a.kind == b.kind && a.arg == b.arg && a.scope == b.scope && a.name == b.name && a.value == b.value &&
           a.kwnames == b.kwnames && a.condition == b.condition && a.inplace == b.inplace &&
           a.conversion == b.conversion && a.with_qualname == b.with_qualname && a.for_call == b.for_call &&
           a.call_slots == b.call_slots && a.null_first == b.null_first && a.target < 0 && b.target < 0 &&
           a.handler == b.handler && a.handler_depth == b.handler_depth && a.handler_lasti == b.handler_lasti;
}

// Values an op takes from the stack, for the kinds the rest of a return or raise statement holds.
std::optional<int> pops_of(const NeutralOp& op) {
    const int n = int(op.arg);
    switch (op.kind) {
    case N::Nop: case N::Swap: case N::Copy: case N::LoadConst: case N::Load: case N::PushNull: return 0;
    case N::Pop: case N::Store: case N::Return: case N::LoadAttr: case N::UnaryOp: case N::GetIter:
    case N::ConvertValue:
        return 1;
    case N::BinaryOp: case N::Compare: case N::Subscr: case N::StoreAttr: return 2;
    case N::StoreSubscr: return 3;
    case N::Raise: case N::BuildTuple: case N::BuildList: case N::BuildSet: case N::BuildString: return n;
    case N::FormatValue: return 1 + n;
    case N::Call: return n + op.call_slots;
    case N::CallKw: return n + 1 + op.call_slots;
    default: return std::nullopt;
    }
}

class ExitTails {
public:
    ExitTails(std::vector<NeutralOp>& ops, bool fused_const_returns) : ops_(ops), fused_(fused_const_returns) {}

    // 3.10 starts the block after a with statement's body with the line-less POP_BLOCK, so where
    // that block (the __exit__ call, then the code after the statement) ends the function, each
    // way the body ends gets a copy of all of it (`with cm: if t: f()` then `return x`: two copies).
    // Identical copies (ops and lines) become jumps to the last, where the ways meet in the source.
    void run_with_exits() {
        struct Copy {
            size_t first, last;
            size_t owner = 0;  // (a copy: its with statement's WITH_EXCEPT_START, laid out after the body)
        };
        auto same_ops = [&](size_t a, size_t b, size_t n) {
            for (size_t i = 0; i < n; ++i) {
                const NeutralOp &x = ops_[a + i], &y = ops_[b + i];
                if (!same_op(x, y) || x.line != y.line || addressable(a + i) != addressable(b + i)) return false;
            }
            return true;
        };
        // The code after each with statement, where it ends the function, as its handler goes on
        // after __exit__ suppressed an exception (WITH_EXCEPT_START, the jump, the handler's pops):
        // only a copy of that is the end of a body (not a `return` inside it, whose ops may be the
        // same). In layout order of the handlers.
        std::vector<Copy> after_withs;
        for (size_t k = 0; k + 1 < ops_.size(); ++k) {
            if (ops_[k].kind != N::WithExceptStart || ops_[k + 1].kind != N::JumpIf) continue;
            size_t t = index_at(ops_[k + 1].target), pops = 0;
            bool popped_except = false;
            for (; t < ops_.size() && pops < 6 && (ops_[t].kind == N::Pop || ops_[t].kind == N::PopExcept); ++t, ++pops)
                popped_except = popped_except || ops_[t].kind == N::PopExcept;
            size_t e = first_terminator(t);
            bool ends = popped_except && e < ops_.size() && is_exit(ops_[e].kind);
            after_withs.push_back(ends ? Copy{t, e, k} : Copy{0, 0, k});  // (first == 0: it goes on)
        }
        if (after_withs.empty()) return;
        std::vector<Copy> copies;
        // (Not inside a for loop: there the same ops are a `return` leaving the loop, its iterator
        // popped first, whose own code the compiler laid out at the return.)
        std::vector<std::pair<size_t, size_t>> for_loops;
        for (size_t k = 0; k + 5 < ops_.size(); ++k) {
            if (ops_[k].kind == N::ForIter) for_loops.push_back({k, index_at(ops_[k].target)});
            size_t call = addressable(k) ? exit_call_at(ops_, k, true) : 0;
            if (call == 0) continue;
            if (std::any_of(for_loops.begin(), for_loops.end(), [&](const auto& l) { return l.first < k && k < l.second; })) continue;
            size_t e = first_terminator(k + call);
            if (e >= ops_.size() || !is_exit(ops_[e].kind)) continue;
            // (The copy's own with statement: the first whose handler follows it. A with statement in
            // a finally body has one per copy of that body; their copies stay apart.)
            auto owner = std::find_if(after_withs.begin(), after_withs.end(), [&](const Copy& a) { return a.owner > k; });
            if (owner == after_withs.end() || owner->first == 0 || owner->last - owner->first != e - (k + call) ||
                !same_ops(owner->first, k + call, e - (k + call) + 1))
                continue;
            // (Not the call of a `return value` leaving the statement, the value swapped below it.)
            if (k > 0 && ops_[k - 1].kind == N::Swap && !is_target(k)) continue;
            bool entered = false;
            for (size_t i = k + 1; i <= e && !entered; ++i) entered = addressable(i) && is_target(i);
            if (!entered) copies.push_back({k, e, owner->owner});
            k = e;
        }
        if (copies.size() < 2) return;
        auto same = [&](const Copy& a, const Copy& b) {
            return a.owner == b.owner && a.last - a.first == b.last - b.first && same_ops(a.first, b.first, a.last - a.first + 1);
        };
        std::vector<std::pair<Copy, int64_t>> rewrites;  // a copy, and the offset of the last copy like it
        for (size_t a = 0; a < copies.size(); ++a)
            for (size_t b = copies.size(); b-- > a + 1;)
                if (same(copies[a], copies[b])) {
                    rewrites.push_back({copies[a], ops_[copies[b].first].offset});
                    break;
                }
        // (Last first: each rewrite leaves the ops before it where they were.) Jumps to a copy go
        // to the last one itself, as they went to the one block the source wrote (a condition's
        // tests, `if a and b:`, go to one place); a copy nothing falls into is gone.
        for (size_t r = rewrites.size(); r-- > 0;) {
            const size_t first = rewrites[r].first.first, last = rewrites[r].first.last;
            int64_t from = ops_[first].offset, to = rewrites[r].second;
            for (NeutralOp& op : ops_)
                if (op.target == from && (op.kind == N::Jump || op.kind == N::JumpIf || op.kind == N::JumpIfOrPop)) op.target = to;
            if (first > 0 && ends_flow(ops_[first - 1].kind))
                ops_.erase(ops_.begin() + std::ptrdiff_t(first), ops_.begin() + std::ptrdiff_t(last) + 1);
            else
                replace_with_jump(first, last, index_at(to));
        }
    }

    void run_short_circuits() {
        for (size_t j = ops_.size(); j-- > 0;)
            if (ops_[j].kind == N::JumpIfOrPop) share_short_circuit_tails(j);
    }

    void run() {
        // Inner conditional expressions first (they sit in the else side of outer ones).
        for (size_t j = ops_.size(); j-- > 0;)
            if (ops_[j].kind == N::JumpIf) share_conditional_value_tail(j);
        for (size_t f = ops_.size(); f-- > 0;)
            if (ops_[f].kind == N::ForIter) {
                share_break_tails(f);
                share_else_break_tails(f);
                share_jumped_break_tails(f);
            }
    }

private:
    // The first op at or after `offset`: found by binary search where the offsets rise, as they do
    // (replace_with_jump keeps them so), instead of a scan from the start per conditional jump.
    size_t index_at(int64_t offset) const {
        if (!rising_)
            rising_ = std::is_sorted(ops_.begin(), ops_.end(), [](const NeutralOp& a, const NeutralOp& b) { return a.offset < b.offset; });
        if (*rising_)
            return size_t(std::lower_bound(ops_.begin(), ops_.end(), offset,
                                           [](const NeutralOp& op, int64_t off) { return int64_t(op.offset) < off; }) -
                          ops_.begin());
        size_t k = 0;
        while (k < ops_.size() && int64_t(ops_[k].offset) < offset) ++k;
        return k;
    }

    bool is_target(size_t k) { return targets().count(ops_[k].offset) > 0; }

    // The offsets jumped to or handled at, built on first use (most code asks for none): the ops
    // are still as they came then, since only replace_with_jump changes them, and it asks first.
    OffsetSet& targets() {
        if (!targets_) {
            std::vector<int64_t> targets;
            targets.reserve(2 * ops_.size());  // (at most two an op: one allocation instead of one per doubling)
            for (const auto& op : ops_) {
                if (op.target >= 0) targets.push_back(op.target);
                if (op.handler >= 0) targets.push_back(op.handler);
            }
            targets_.emplace(std::move(targets));
        }
        return *targets_;
    }

    // An op of its own offset (not the second half of a fused instruction), so a jump can reach it.
    bool addressable(size_t k) const { return k == 0 || ops_[k - 1].offset != ops_[k].offset; }

    // Whether ops [first, end) only build a value: the stack never drops below where the test left
    // it, and no statement (a popped value, a store) ends there. `depth` is relative to `first`.
    bool builds_one_value(size_t first, size_t end, const std::vector<int>& depth) const {
        for (size_t k = first; k < end; ++k) {
            int before = depth[k - first], after = depth[k + 1 - first];
            if (before == INT_MIN) continue;
            if (after < 0 && after != INT_MIN) return false;
            const NeutralOp& op = ops_[k];
            bool or_pop = op.kind == N::Pop && k > first && ops_[k - 1].kind == N::JumpIf;  // `a or b` on 3.12+
            bool sink = op.kind == N::Store || op.kind == N::StoreAttr || op.kind == N::StoreSubscr ||
                        op.kind == N::StoreSlice || op.kind == N::Delete || op.kind == N::DeleteAttr ||
                        op.kind == N::DeleteSubscr || (op.kind == N::Pop && !or_pop);
            if (sink && after == 0) return false;
        }
        return true;
    }

    // Whether ops [first, last] are few enough instructions for the compiler to have copied them.
    bool copyable(size_t first, size_t last) const {
        size_t instructions = 0;  // distinct offsets, counted until there are too many
        for (size_t k = first; k <= last && instructions <= kMaxCopiedInstructions; ++k) {
            bool seen = false;
            for (size_t j = first; j < k && !seen; ++j) seen = ops_[j].offset == ops_[k].offset;
            instructions += !seen;
        }
        return instructions <= kMaxCopiedInstructions;
    }
    static constexpr size_t kMaxCopiedInstructions = 4;  // flowgraph.c's MAX_COPY_SIZE

    // Replaces ops [first, last] (a copy) with a jump to `to`.
    void replace_with_jump(size_t first, size_t last, size_t to) {
        OffsetSet& targets_now = targets();  // (built from the ops before they change)
        NeutralOp& jump = ops_[first];
        int64_t target = ops_[to].offset;
        uint32_t offset = jump.offset;
        int line = jump.line;
        int64_t handler = jump.handler;
        uint32_t depth = jump.handler_depth;
        bool lasti = jump.handler_lasti;
        jump = NeutralOp{};
        jump.kind = N::Jump;
        jump.offset = offset;
        jump.line = line;
        jump.target = target;
        jump.handler = handler;
        jump.handler_depth = depth;
        jump.handler_lasti = lasti;
        targets_now.insert(target);
        ops_.erase(ops_.begin() + std::ptrdiff_t(first) + 1, ops_.begin() + std::ptrdiff_t(last) + 1);
    }

    // Stack depths (relative to `first`) over a region [first, exit] that only branches forward
    // inside itself, but for the loops of comprehensions inlined into it, and ends at its only
    // exit (a return or raise); empty when not so. (Whether anything outside jumps into it is
    // single_entry's question.)
    std::vector<int> region_depths(size_t first, size_t& exit) const {
        int accumulators = 0;  // (inlined comprehensions' accumulators built so far)
        // Grown as the walk gets there: a region is mostly short, and sized to the rest of the
        // function up front, every conditional jump of a function of hundreds cost a pass over it.
        std::vector<int> depth(1, 0);
        depth.reserve(std::min<size_t>(ops_.size() - first, 64));
        auto slot = [&](size_t k) -> int& {
            if (k - first >= depth.size()) depth.resize(k - first + 1, INT_MIN);
            return depth[k - first];
        };
        size_t k = first;
        for (;; ++k) {
            if (k >= ops_.size()) return {};
            int d = slot(k);
            const NeutralOp& op = ops_[k];
            if (is_exit(op.kind)) {
                if (d == INT_MIN) return {};
                break;
            }
            if (d == INT_MIN) continue;  // only reached by a jump further on: not this shape
            accumulators += op.comprehension;
            if (op.kind == N::Jump || op.kind == N::JumpIf || op.kind == N::JumpIfOrPop) {
                size_t t = index_at(op.target);
                if (t >= ops_.size()) return {};
                int taken = op.kind == N::JumpIfOrPop ? d : op.kind == N::JumpIf ? d - 1 : d;
                if (t <= k) {
                    // (Back to a loop of the region: where the next item is taken, as many values
                    // below it as when it was first taken.)
                    if (t < first || ops_[t].kind != N::ForIter || op.kind == N::JumpIfOrPop || slot(t) != taken) return {};
                } else {
                    int& at_target = slot(t);
                    if (at_target != INT_MIN && at_target != taken) return {};
                    at_target = taken;
                }
                if (op.kind == N::Jump) continue;
            } else if (op.kind == N::ForIter && accumulators > 0) {
                // A loop of a comprehension inlined into the region (3.12+): it ends with its
                // iterator popped, where FOR_ITER jumps.
                size_t t = index_at(op.target);
                if (t <= k || t >= ops_.size()) return {};
                int& at_exit = slot(t);
                if (at_exit != INT_MIN && at_exit != d - 1) return {};
                at_exit = d - 1;
            } else if (is_block_terminator(op.kind)) {
                return {};
            }
            std::optional<int> e = op.kind == N::JumpIf || op.kind == N::JumpIfOrPop ? std::optional<int>(-1) : stack_effect(op);
            if (!e || k + 1 >= ops_.size()) return {};
            int& next = slot(k + 1);
            if (next != INT_MIN && next != d + *e) return {};
            next = d + *e;
        }
        exit = k;
        depth.resize(exit + 1 - first);
        return depth;
    }

    // Whether nothing jumps further on from inside [first, exit], and nothing outside jumps in
    // past its start.
    bool single_entry(size_t first, size_t exit) const {
        for (size_t i = 0; i < ops_.size(); ++i) {
            const NeutralOp& op = ops_[i];
            if (op.target < 0 || !is_block_terminator(op.kind)) continue;
            bool inside = i >= first && i <= exit;
            bool into = op.target > int64_t(ops_[first].offset) && op.target <= int64_t(ops_[exit].offset);
            if (inside ? !into : into) return false;
        }
        return true;
    }

    // Whether the tail starting at `first`, entered with the side's value on top of the values the
    // test found, takes values from below that one: the test was inside an expression.
    bool consumes_below(size_t first, size_t last) const {
        int d = 1;
        for (size_t k = first; k <= last; ++k) {
            std::optional<int> p = pops_of(ops_[k]);
            std::optional<int> e = stack_effect(ops_[k]);
            if (!p || !e) return false;
            if (d - *p < 0) return true;
            d += *e;
            if (d <= 0) return false;
        }
        return false;
    }

    bool is_loose_const_return(size_t ret) const {
        return fused_ && ops_[ret].kind == N::Return && ret > 0 && ops_[ret - 1].kind == N::LoadConst &&
               ops_[ret - 1].offset != ops_[ret].offset;
    }

    // `<test> JumpIf L; <value>; <tail copy>; L: <value>; <tail>` -> the first tail a jump to the second.
    void share_conditional_value_tail(size_t j) {
        const NeutralOp& cond = ops_[j];
        size_t then_first = j + 1, t = index_at(cond.target);
        if (t <= then_first + 1 || t >= ops_.size() || !is_exit(ops_[t - 1].kind)) return;
        size_t then_exit = t - 1;
        std::vector<int> then_depth(then_exit + 1 - then_first, 0);
        bool looped = false;  // (the then-side holds an inlined comprehension: see below)
        for (size_t k = then_first; k < then_exit && !looped; ++k) {
            if (ops_[k].comprehension) looped = true;
            else if (is_block_terminator(ops_[k].kind) || (k > then_first && is_target(k))) return;
            std::optional<int> e = stack_effect(ops_[k]);
            if (!e) return;
            then_depth[k + 1 - then_first] = then_depth[k - then_first] + *e;
        }
        if (looped) {
            // (Its loop jumps inside the side: the side read as a region, which only the test's
            // jump may enter, checked once the rest matches.)
            size_t exit = 0;
            then_depth = region_depths(then_first, exit);
            if (then_depth.empty() || exit != then_exit) return;
        }
        if (is_target(then_exit)) return;
        size_t else_exit = 0;
        std::vector<int> else_depth = region_depths(t, else_exit);
        if (else_depth.empty()) return;
        size_t common = 0;
        while (common < then_exit - then_first && common < else_exit - t &&
               same_op(ops_[then_exit - common], ops_[else_exit - common]))
            ++common;
        for (size_t len = common; len >= 1; --len) {
            size_t s1 = then_exit + 1 - len, s2 = else_exit + 1 - len;
            if (then_depth[s1 - then_first] != 1 || else_depth[s2 - t] != 1) continue;
            bool one_value = builds_one_value(then_first, s1, then_depth) && builds_one_value(t, s2, else_depth);
            if (!one_value || !copyable(s1, then_exit) || !addressable(s1) || !addressable(s2)) continue;
            bool expression = consumes_below(s1, then_exit) ||
                              (len == 1 && (is_loose_const_return(s1) || is_loose_const_return(s2)));
            // (single_entry last: it reads the whole function, and an if statement's sides, both
            // raising, an assert and the one after it, get this far.)
            if (expression && single_entry(t, else_exit) && (!looped || single_entry(then_first, then_exit)))
                replace_with_jump(s1, then_exit, s2);
            return;
        }
    }

    // `<left> JumpIfOrPop M; <right>; <tail copy>; M: <tail>` -> the copy a jump to M. An operand
    // holds no statement, so a return or raise between the jump and its target is the compiler's
    // copy of the code after the value (3.8/3.9's peephole writes RETURN_VALUE for a jump to one;
    // 3.10+ copy short exit blocks). A comparison chain's jump goes to its clean-up (`SWAP 2;
    // POP_TOP`, then on), after which the value goes on.
    void share_short_circuit_tails(size_t j) {
        for (bool again = true; again;) {
            again = false;
            size_t m = index_at(ops_[j].target);
            if (m <= j || m >= ops_.size()) return;
            size_t merge = after_chain_cleanup(m);
            std::vector<size_t> tail;
            for (size_t k = merge; k < ops_.size(); ++k) {
                if (is_block_terminator(ops_[k].kind) && !is_exit(ops_[k].kind)) return;
                tail.push_back(k);
                if (is_exit(ops_[k].kind)) break;
            }
            if (tail.empty() || !is_exit(ops_[tail.back()].kind)) return;
            size_t len = tail.size();
            for (size_t k = j + len; k < m && !again; ++k) {
                if (!is_exit(ops_[k].kind)) continue;
                size_t first = k + 1 - len;
                bool copy = addressable(first);
                for (size_t i = 0; i < len && copy; ++i)
                    copy = same_op(ops_[first + i], ops_[tail[i]]) && (i == 0 || !is_target(first + i));
                if (!copy) continue;
                replace_with_jump(first, k, tail[0]);
                again = true;
            }
        }
    }

    // Where a comparison chain's clean-up at `m` goes on (`m` itself when it is none).
    size_t after_chain_cleanup(size_t m) const {
        if (m + 2 >= ops_.size() || ops_[m].kind != N::Swap || ops_[m].arg != 2 || ops_[m + 1].kind != N::Pop) return m;
        if (ops_[m + 2].kind == N::Jump) return index_at(ops_[m + 2].target);
        return m + 2;
    }

    // The first op at or after `k` that ends a block (ops_.size(): none).
    size_t first_terminator(size_t k) const {
        while (k < ops_.size() && !is_block_terminator(ops_[k].kind)) ++k;
        return k;
    }

    // Whether ops [at, at + len) are a copy of ops [from, from + len), none of them a jump target
    // (`same_lines`: with the lines of the ops they copy, as the compiler's copies keep them).
    bool is_copy(size_t at, size_t from, size_t len, bool same_lines) {
        for (size_t k = 0; k < len; ++k)
            if (!same_op(ops_[at + k], ops_[from + k]) || (same_lines && ops_[at + k].line != ops_[from + k].line) ||
                is_target(at + k))
                return false;
        return true;
    }

    // In the for loop at `f` (exit at `x`), each `break` that is POP_TOP then a copy of the code
    // [code, code_exit] (a return or raise) becomes POP_TOP and a jump to the exit.
    void share_break_copies(size_t f, size_t x, size_t code, size_t code_exit, bool same_lines) {
        size_t len = code_exit + 1 - code;
        for (size_t p = f + 1; p + len < x; ++p) {
            if (ops_[p].kind != N::Pop || !in_loop_itself(f, p, x)) continue;
            if (!is_copy(p + 1, code, len, same_lines) || !addressable(p + 1)) continue;
            replace_with_jump(p + 1, p + len, x);
            x -= len - 1;
            if (code > p) code -= len - 1;
        }
    }

    // A for loop whose exit (the code at its FOR_ITER's target) is a return or raise: a `break`
    // is POP_TOP then a copy of that exit.
    void share_break_tails(size_t f) {
        size_t x = index_at(ops_[f].target);
        size_t x_exit = first_terminator(x);
        if (x_exit >= ops_.size() || !is_exit(ops_[x_exit].kind) || !addressable(x) || !copyable(x, x_exit)) return;
        share_break_copies(f, x, x, x_exit, false);
    }

    // A for loop whose exit is a bare jump to a short return or raise laid out elsewhere (3.12+:
    // the code after an enclosing if, laid out before a with statement's handler): a `break` is
    // POP_TOP then a copy of that code, which keeps its lines. The copy becomes a jump to the exit.
    void share_jumped_break_tails(size_t f) {
        size_t x = index_at(ops_[f].target);
        if (x >= ops_.size() || ops_[x].kind != N::Jump || !addressable(x)) return;
        size_t code = index_at(ops_[x].target);
        if (code >= ops_.size() || (code > f && code <= x)) return;
        size_t code_exit = first_terminator(code);
        if (code_exit >= ops_.size() || !is_exit(ops_[code_exit].kind) || !copyable(code, code_exit)) return;
        share_break_copies(f, x, code, code_exit, true);
    }

    // A for loop with an `else:` clause whose code runs straight into a return or raise: a `break`
    // jumps past the else clause, into that code, so the compiler writes POP_TOP and a copy of
    // the code from there (`for ...: if t: break` / `else: item = None` then `return item`). The
    // copy keeps the lines of the code it copies, which a return written in the loop does not
    // have; and it starts a statement.
    void share_else_break_tails(size_t f) {
        size_t x = index_at(ops_[f].target);
        size_t x_exit = first_terminator(x);
        if (x_exit >= ops_.size() || !is_exit(ops_[x_exit].kind)) return;
        for (size_t p = f + 1; p < x; ++p) {
            if (ops_[p].kind != N::Pop || !in_loop_itself(f, p, x)) continue;
            size_t e = std::min(first_terminator(p + 1), x);
            if (e >= x || !is_exit(ops_[e].kind) || e - p > x_exit - x) continue;
            size_t len = e - p;  // the copy: ops [p + 1, e]
            size_t from = x_exit + 1 - len;
            if (from <= x || ops_[from].line < 0 || ops_[from].line == ops_[from - 1].line || !addressable(from) ||
                !addressable(p + 1) || !copyable(from, x_exit) || !is_copy(p + 1, from, len, true))
                continue;
            replace_with_jump(p + 1, e, from);
            x -= len - 1;
            x_exit -= len - 1;
        }
    }

    // Whether op `p` of the for loop at `f` (exit at `x`) is outside any loop nested in it.
    bool in_loop_itself(size_t f, size_t p, size_t x) const {
        for (size_t k = p + 1; k < x; ++k) {
            const NeutralOp& op = ops_[k];
            if (op.target < 0 || !is_block_terminator(op.kind)) continue;
            if (op.target > int64_t(ops_[f].offset) && op.target <= int64_t(ops_[p].offset)) return false;
        }
        return true;
    }

    std::vector<NeutralOp>& ops_;
    bool fused_;
    std::optional<OffsetSet> targets_;
    mutable std::optional<bool> rising_;  // the ops' offsets never fall (found on first use)
};

}  // namespace

void share_exit_tails(std::vector<NeutralOp>& ops, bool fused_const_returns) {
    ExitTails(ops, fused_const_returns).run();
}

void share_with_exit_copies(std::vector<NeutralOp>& ops) { ExitTails(ops, false).run_with_exits(); }

void share_short_circuit_exit_tails(std::vector<NeutralOp>& ops) {
    // (Most code has no jump-or-pop: then not even the target set is built.)
    if (std::none_of(ops.begin(), ops.end(), [](const NeutralOp& op) { return op.kind == N::JumpIfOrPop; })) return;
    ExitTails(ops, false).run_short_circuits();
}

}  // namespace uncompile
