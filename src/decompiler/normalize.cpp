#include "normalize.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <optional>
#include <set>
#include <unordered_map>

#include "offset_set.h"

#include "block_stack.h"
#include "exit_tails.h"
#include "finally_subroutines.h"
#include "type_params.h"
#include "core/exception_table.h"

namespace uncompile {

namespace {

// Facts about a version's calling and looping conventions that its opcode tables do not carry.
struct VersionTraits {
    bool null_before_callable;  // 3.11/3.12 push NULL below the callable, 3.13 above it
    bool qualname_on_stack;     // MAKE_FUNCTION pops the qualified name (before 3.11)
    int for_exit_skips;         // instructions FOR_ITER's exit skips at its target (END_FOR, POP_TOP)
    bool block_stack;           // SETUP_FINALLY / SETUP_WITH / POP_BLOCK instead of an exception table
    bool forward_conditionals;  // conditional jumps only go forward (3.12+)
    bool copies_small_exits;    // a jump to a short return/raise block becomes a copy of it (3.10+)
    bool fused_const_returns;   // LOAD_CONST; RETURN_VALUE in one block is RETURN_CONST (3.12+)
    bool copies_clause_exits;   // an except clause's `POP_EXCEPT; JUMP` is copied into a try nested in it (3.13+)
    bool copies_lineless_exit_blocks;  // a block that starts without a line (POP_BLOCK) and ends the function is copied (3.10)
};

VersionTraits traits_of(PyVersion v) {
    if (v >= PyVersion{3, 13}) return {false, false, 2, false, true, true, true, true, false};
    if (v >= PyVersion{3, 12}) return {true, false, 1, false, true, true, true, false, false};
    if (v >= PyVersion{3, 11}) return {true, false, 0, false, false, true, false, false, false};
    if (v >= PyVersion{3, 10}) return {true, true, 0, true, false, true, false, false, true};
    return {true, true, 0, true, false, false, false, false, false};
}

// What the code at a SETUP_FINALLY / SETUP_WITH target is (3.8-3.10).
enum class HandlerRole {
    Try,          // except clauses or a finally body: gets 3.11's PUSH_EXC_INFO
    NameCleanup,  // `name = None; del name; re-raise`, around the body of `except ... as name`
    With,         // a with statement's __exit__ call
};

const std::unordered_map<std::string, std::string>& legacy_binary_ops() {
    static const std::unordered_map<std::string, std::string> ops = {
        {"ADD", "+"}, {"SUBTRACT", "-"}, {"MULTIPLY", "*"}, {"MATRIX_MULTIPLY", "@"}, {"TRUE_DIVIDE", "/"},
        {"FLOOR_DIVIDE", "//"}, {"MODULO", "%"}, {"POWER", "**"}, {"LSHIFT", "<<"}, {"RSHIFT", ">>"},
        {"AND", "&"}, {"OR", "|"}, {"XOR", "^"},
    };
    return ops;
}

class Normalizer {
public:
    Normalizer(const CodeObject& code, const std::vector<Instruction>& ins, const OpcodeTable& table)
        : code_(code), ins_(ins), table_(table), traits_(traits_of(code.version)) {
        std::vector<int64_t> targets;
        for (size_t k = 0; k < ins_.size(); ++k) {
            if (ins_[k].jump_target >= 0) targets.push_back(ins_[k].jump_target);
            if (ins_[k].op == Opcode::LOAD_FAST_AND_CLEAR) swapped_out_slots_.push_back(uint32_t(ins_[k].index));
        }
        jump_targets_ = OffsetSet(std::move(targets));
        out_.reserve(ins_.size() + ins_.size() / 4 + 8);
        if (traits_.block_stack) find_legacy_handlers();
    }

    std::vector<NeutralOp> run() {
        for (i_ = 0; i_ < ins_.size(); ++i_) {
            if (auto it = handler_roles_.find(ins_[i_].offset); it != handler_roles_.end() && it->second != HandlerRole::NameCleanup)
                emit(N::PushExcInfo);  // 3.11's handler prologue; the block-stack pass gives the exception
            translate(ins_[i_]);
        }
        if (traits_.block_stack) {
            enter_handlers_before_first_instruction();
            inline_finally_subroutines(out_);
            assign_block_handlers(out_);
        }
        else attach_handlers();
        drop_except_name_cleanups();
        mark_except_star_prologues();
        if (!traits_.block_stack) cover_clause_exit_jumps();
        if (traits_.copies_small_exits) share_exit_tails(out_, traits_.fused_const_returns);
        if (traits_.copies_lineless_exit_blocks) share_with_exit_copies(out_);
        if (traits_.forward_conditionals) fold_backward_conditionals();
        if (traits_.copies_clause_exits) share_clause_exits();
        unthread_short_circuits();
        share_short_circuit_exit_tails(out_);
        return std::move(out_);
    }

    // The PushExcInfo made at a handler (3.8-3.10) shares its offset with the handler's first
    // instruction, and a jump there names the first op at the offset: but only the exception
    // enters at the PushExcInfo, a jump (the back edge of a loop that starts a finally body)
    // enters at the instruction. The PushExcInfo moves one byte earlier (no instruction starts at
    // an odd offset), and the SETUP_* that install the handler name it there, as do 3.8's
    // CALL_FINALLYs (the finally pass reads them as entering the handler's body).
    void enter_handlers_before_first_instruction() {
        std::set<int64_t> moved;
        for (auto& op : out_)
            if (op.kind == N::PushExcInfo && op.offset > 0) {
                moved.insert(op.offset);
                op.offset -= 1;
            }
        if (moved.empty()) return;
        for (auto& op : out_)
            if ((op.kind == N::SetupFinally || op.kind == N::SetupWith || op.kind == N::CallFinally) && moved.count(op.target))
                op.target -= 1;
    }

    // An except* handler starts with PUSH_EXC_INFO, then the list of raised groups and a copy of
    // the group below it: 3.11 writes `COPY 1; BUILD_LIST 0; SWAP 2`, 3.12+ `BUILD_LIST 0; COPY 2`.
    // Both become one ExceptStarBegin (the rest Nops, keeping offsets).
    void mark_except_star_prologues() {
        auto is = [&](size_t k, N kind, int64_t arg) { return k < out_.size() && out_[k].kind == kind && out_[k].arg == arg; };
        for (size_t k = 0; k + 1 < out_.size(); ++k) {
            if (out_[k].kind != N::PushExcInfo) continue;
            size_t n = 0;
            if (is(k + 1, N::Copy, 1) && is(k + 2, N::BuildList, 0) && is(k + 3, N::Swap, 2)) n = 3;
            else if (is(k + 1, N::BuildList, 0) && is(k + 2, N::Copy, 2)) n = 2;
            if (n == 0) continue;
            // (Only where a CHECK_EG_MATCH follows before any jump: nothing else starts so.)
            size_t m = k + 1 + n;
            while (m < out_.size() && out_[m].kind != N::CheckEgMatch && out_[m].target < 0 && out_[m].kind != N::Return &&
                   out_[m].kind != N::Raise && out_[m].kind != N::Reraise)
                ++m;
            if (m >= out_.size() || out_[m].kind != N::CheckEgMatch) continue;
            out_[k + 1].kind = N::ExceptStarBegin;
            out_[k + 1].arg = 0;
            for (size_t j = k + 2; j <= k + n; ++j) out_[j].kind = N::Nop;
        }
    }

    // A value `a and b or c` compiles to `a; JUMP_IF_FALSE_OR_POP J; b; J: JUMP_IF_TRUE_OR_POP end;
    // c; end:`, and the jump optimizer threads a's jump: a false `a` reaching J is popped there and
    // goes on at c, so it becomes `POP_JUMP_IF_FALSE c` (the same with the polarities swapped, as in
    // `(a or b) and c`). Pointing such a jump back at J, keeping the value, means the same (J pops
    // it and falls into c) and gives the nesting of the source.
    void unthread_short_circuits() {
        // (Only a jump-or-pop can be J: most code has none, and needs no offset index.)
        if (std::none_of(out_.begin(), out_.end(), [](const NeutralOp& op) { return op.kind == N::JumpIfOrPop; })) return;
        // The first op at each offset: (offset, index) pairs in order of offset, then index.
        std::vector<std::pair<int64_t, size_t>> first_at;
        first_at.reserve(out_.size());
        for (size_t k = 0; k < out_.size(); ++k) first_at.emplace_back(out_[k].offset, k);
        std::sort(first_at.begin(), first_at.end());
        auto op_at = [&](int64_t offset) -> std::optional<size_t> {
            auto it = std::lower_bound(first_at.begin(), first_at.end(), std::make_pair(offset, size_t(0)));
            if (it == first_at.end() || it->first != offset) return std::nullopt;
            return it->second;
        };
        // (Backwards: a jump threaded to after J may be the one that J's own left side becomes.)
        for (auto it_op = out_.rbegin(); it_op != out_.rend(); ++it_op) {
            NeutralOp& op = *it_op;
            bool two_way = op.condition == JumpCondition::IfTrue || op.condition == JumpCondition::IfFalse;
            if (op.kind != N::JumpIf || !two_way) continue;
            std::optional<size_t> at = op_at(op.target);
            if (!at || *at == 0) continue;
            const NeutralOp& before = out_[*at - 1];
            if (before.kind != N::JumpIfOrPop || before.condition != inverse(op.condition) || before.handler != op.handler ||
                before.offset <= op.offset)
                continue;
            op.kind = N::JumpIfOrPop;
            op.target = before.offset;
        }
    }

    // 3.12+ have no backward conditional jump: `if x: <rest of the loop body>` jumps back when x is
    // false, which the compiler writes as `POP_JUMP_IF_TRUE L; JUMP_BACKWARD H; L:`. Folding it
    // back to `POP_JUMP_IF_FALSE H` gives the shape of 3.8-3.11 (same meaning). The other polarity,
    // `POP_JUMP_IF_FALSE L; JUMP_BACKWARD H`, is what `if x: continue` compiles to everywhere, and
    // stays. (Inside a try body the jump back may lie outside the exception table's ranges: a jump
    // cannot raise, and 3.12+ leave such jumps uncovered.)
    void fold_backward_conditionals() {
        Targets targets(out_);
        // (Only under a try or with statement's handler, PUSH_EXC_INFO first, the clean-up around
        // an except clause or finally body (`COPY 3; POP_EXCEPT; RERAISE`), or the guard around a
        // generator function's body, which turns StopIteration into RuntimeError: not an inlined
        // comprehension's or a generator expression's, whose filters keep the 3.12 shape their
        // layout is read from.)
        std::vector<int64_t> statement_handlers;
        const bool generator_function = code_.name != "<genexpr>";
        for (size_t k = 0; k < out_.size(); ++k) {
            const NeutralOp& op = out_[k];
            bool cleanup = op.kind == N::Copy && op.arg == 3 && k + 2 < out_.size() && out_[k + 1].kind == N::PopExcept &&
                           out_[k + 2].kind == N::Reraise;
            if (op.kind == N::PushExcInfo || cleanup || (op.kind == N::StopIterationError && generator_function))
                statement_handlers.push_back(op.offset);
        }
        auto uncovered_jump_ok = [&](const NeutralOp& cond) {
            return cond.handler >= 0 &&
                   std::find(statement_handlers.begin(), statement_handlers.end(), cond.handler) != statement_handlers.end();
        };
        // Whether the op at k is a conditional jump over a jump back (either polarity).
        auto jumps_over_back = [&](size_t k) {
            if (out_[k].kind != N::JumpIf || k + 2 >= out_.size()) return false;
            const NeutralOp& cond = out_[k];
            const NeutralOp& back = out_[k + 1];
            const NeutralOp& after = out_[k + 2];
            return back.kind == N::Jump && back.target >= 0 && back.target <= int64_t(back.offset) &&
                   cond.target > int64_t(back.offset) && cond.target <= int64_t(after.offset) &&
                   !targets.count(back.offset) && (back.handler == cond.handler || (back.handler < 0 && uncovered_jump_ok(cond)));
        };
        auto jumps_on_true = [&](size_t k) {
            return out_[k].condition == JumpCondition::IfTrue || out_[k].condition == JumpCondition::IfNone;
        };
        // The other polarity is folded too where the test right after the jump back (operands, no
        // jump, store or call between) ends in a folded jump back to the same place: both go back
        // when their test fails, the tests of one condition (`if a is not None and b in c:` around
        // the rest of the loop body). Read as `if a is None: continue` first, the rest could only
        // be `if not b in c: continue`, which the optimizer folds into `not in`. (Decided from the
        // last test up, each by the one after it. Not a jump on an `in` or `is` comparison's
        // result: in the condition it would be `not (a in b)`, which the optimizer folds so too.)
        auto folds_under_not = [&](size_t k) {
            if (k == 0 || out_[k - 1].kind != N::Compare) return false;
            const std::string& op = out_[k - 1].name;
            return op == "in" || op == "not in" || op == "is" || op == "is not";
        };
        // (The ops of a test's operands: no jump, store or call.)
        auto is_operand = [](N kind) {
            return kind == N::Load || kind == N::LoadConst || kind == N::LoadAttr || kind == N::Compare ||
                   kind == N::BinaryOp || kind == N::UnaryOp || kind == N::Subscr || kind == N::Nop;
        };
        std::vector<bool> fold(out_.size(), false);
        for (size_t k = out_.size(); k-- > 0;) {
            if (!jumps_over_back(k)) continue;
            if (jumps_on_true(k)) {
                fold[k] = true;
                continue;
            }
            if (out_[k].condition == JumpCondition::IfFalse && folds_under_not(k)) continue;
            for (size_t n = k + 2; n < out_.size() && n < k + 16; ++n) {
                N kind = out_[n].kind;
                if (kind == N::JumpIf) {
                    fold[k] = fold[n] && out_[n + 1].target == out_[k + 1].target;
                    break;
                }
                // (An instruction split in two, 3.13's LOAD_FAST_LOAD_FAST, gives ops of one offset.)
                if (!is_operand(kind) || (out_[n].offset != out_[n - 1].offset && n > k + 2 && targets.count(out_[n].offset))) break;
            }
        }
        // And where the test right before it (operands, calls) is folded, to the same place: the
        // last test of a condition whose others go back when they fail (`if a in b and not c():`
        // around the rest of the loop body, whose `not c()` jumps back when c() is true, which
        // 3.12+ write as a jump over the jump back). Read as `if c(): continue` after the
        // folded `if not a in b: continue`, the if around the rest of the body came apart.
        auto in_test = [&](N kind) { return is_operand(kind) || kind == N::PushNull || kind == N::Call; };
        // (Not where the jump back has a line of its own: that is a `continue` statement, `if a:`
        // then `if b(): continue` first in its body.)
        for (size_t k = 2; k + 2 < out_.size(); ++k) {
            if (out_[k].kind != N::JumpIf || fold[k] || jumps_on_true(k) || out_[k + 1].line != out_[k].line) continue;
            if (!jumps_over_back(k) || folds_under_not(k)) continue;
            size_t n = k;
            // (An instruction split in two, 3.13's LOAD_FAST_LOAD_FAST, gives ops of one offset.)
            while (n > 2 && k - n < 16 && in_test(out_[n - 1].kind) &&
                   (n == k || out_[n].offset == out_[n - 1].offset || !targets.count(out_[n].offset)))
                --n;
            if (n == k || n < 2 || !fold[n - 2] || out_[n - 1].kind != N::Jump || out_[n - 2].kind != N::JumpIf ||
                out_[n - 1].target != out_[k + 1].target)
                continue;
            fold[k] = true;
        }
        size_t kept = 0;  // (compacted in place: ops [0, kept) stay, in order)
        for (size_t k = 0; k < out_.size(); ++k) {
            if (kept != k) out_[kept] = std::move(out_[k]);
            NeutralOp& cond = out_[kept++];
            if (!fold[k]) continue;
            cond.condition = inverse(cond.condition);
            cond.target = out_[k + 1].target;
            ++k;
        }
        out_.resize(kept);
    }

    // 3.13 copies the way out of an except clause, `POP_EXCEPT; JUMP after`, into the ends of a try
    // statement nested in the clause: its body ends with a copy, and each of its clauses with its
    // own POP_EXCEPT and then a copy. 3.12 lays the way out once, after the nested statement, where
    // both go. Pointing the body's copy (the nearest one before) at the clauses' gives that shape:
    // the same ops run either way.
    void share_clause_exits() {
        Targets targets(out_);
        auto exit_at = [&](size_t k) {
            return k + 1 < out_.size() && out_[k].kind == N::PopExcept && out_[k + 1].kind == N::Jump &&
                   out_[k + 1].offset != out_[k].offset && !targets.count(out_[k + 1].offset);
        };
        for (size_t k = 1; k + 1 < out_.size(); ++k) {
            if (!exit_at(k) || out_[k - 1].kind != N::PopExcept || out_[k - 1].offset == out_[k].offset) continue;
            for (size_t c = k - 1; c-- > 0;) {
                if (!exit_at(c) || out_[c + 1].target != out_[k + 1].target) continue;
                if (out_[c].handler != out_[k].handler || out_[c].handler_depth != out_[k].handler_depth ||
                    (c > 0 && out_[c - 1].kind == N::PopExcept))
                    break;
                out_[c].kind = N::Jump;
                out_[c].target = out_[k].offset;
                out_.erase(out_.begin() + long(c + 1));
                --k;
                break;
            }
        }
    }

    // Offsets something jumps to or handles exceptions at (ops there start a block and stay), of
    // the ops as they are when first asked. Built on first use: the passes below ask only at the
    // rare ops they rewrite, and each built it for every code object (a sort per pass). Each asks
    // before its first change, so the set is the one it built up front before.
    class Targets {
    public:
        explicit Targets(const std::vector<NeutralOp>& ops) : ops_(ops) {}
        size_t count(int64_t offset) {
            if (!set_) {
                std::vector<int64_t> targets;
                for (const auto& op : ops_) {
                    if (op.target >= 0) targets.push_back(op.target);
                    if (op.handler >= 0) targets.push_back(op.handler);
                }
                set_.emplace(std::move(targets));
            }
            return set_->count(offset);
        }

    private:
        const std::vector<NeutralOp>& ops_;
        std::optional<OffsetSet> set_;
    };

    static JumpCondition inverse(JumpCondition c) {
        switch (c) {
        case JumpCondition::IfTrue: return JumpCondition::IfFalse;
        case JumpCondition::IfFalse: return JumpCondition::IfTrue;
        case JumpCondition::IfNone: return JumpCondition::IfNotNone;
        case JumpCondition::IfNotNone: return JumpCondition::IfNone;
        }
        return c;
    }

    // `name = None; del name` right after POP_EXCEPT is the compiler's unbinding of `except T as
    // name` on the clause's way out; `except ... as name` brings it back. Dropping it keeps a value
    // the clause returns from looking like the pending half of an assignment.
    void drop_except_name_cleanups() {
        Targets targets(out_);
        size_t kept = 0;  // (compacted in place: ops [0, kept) stay, in order)
        for (size_t k = 0; k < out_.size(); ++k) {
            if (kept != k) out_[kept] = std::move(out_[k]);
            if (out_[kept++].kind != N::PopExcept || k + 3 >= out_.size()) continue;
            const NeutralOp& none = out_[k + 1];
            const NeutralOp& store = out_[k + 2];
            const NeutralOp& del = out_[k + 3];
            bool cleanup = none.kind == N::LoadConst && none.value && none.value->kind == PyValue::Kind::None &&
                           store.kind == N::Store && del.kind == N::Delete && store.name == del.name &&
                           store.scope == del.scope;
            for (size_t j = k + 1; cleanup && j <= k + 3; ++j)
                cleanup = !targets.count(out_[j].offset) && out_[j].offset != out_[k].offset;
            if (cleanup) k += 3;
        }
        out_.resize(kept);
    }

    // The way out of an except clause nested in a try body, `POP_EXCEPT; JUMP after`: the range of
    // the enclosing try covers the POP_EXCEPT but may stop before the jump (a jump cannot raise;
    // the range of a with statement or try around the enclosing one may go on over it instead).
    // Such a jump, which nothing else jumps to, belongs with its POP_EXCEPT: the same handler keeps
    // the two in one block, as they are where the range goes on over the jump.
    void cover_clause_exit_jumps() {
        Targets targets(out_);
        for (size_t k = 0; k + 1 < out_.size(); ++k) {
            const NeutralOp& pop = out_[k];
            NeutralOp& jump = out_[k + 1];
            if (pop.kind != N::PopExcept || pop.handler < 0 || jump.kind != N::Jump || jump.handler == pop.handler ||
                targets.count(jump.offset))
                continue;
            jump.handler = pop.handler;
            jump.handler_depth = pop.handler_depth;
            jump.handler_lasti = pop.handler_lasti;
        }
    }

    // Each op learns its innermost handler from the exception table (3.11+; none before).
    void attach_handlers() {
        std::vector<ExceptionTableEntry> entries = decode_exception_table(code_);
        cover_dead_handlers(entries);
        size_t e = 0;
        for (auto& op : out_) {  // ops and entries are both sorted by offset
            while (e < entries.size() && entries[e].end <= op.offset) ++e;
            if (e < entries.size() && entries[e].start <= op.offset) {
                op.handler = entries[e].target;
                op.handler_depth = entries[e].depth;
                op.handler_lasti = entries[e].lasti;
            }
        }
        // An async for's ForIter stands for its END_ASYNC_FOR too: it is covered by what covers that.
        for (auto& op : out_) {
            if (!async_for_ends_.count(op.handler)) continue;
            int64_t end = op.handler;
            op.handler = -1;
            for (const auto& entry : entries)
                if (entry.start <= end && end < entry.end) {
                    op.handler = entry.target;
                    op.handler_depth = entry.depth;
                    op.handler_lasti = entry.lasti;
                }
        }
    }

private:
    // `try: pass` with except clauses or a finally body (3.11+): nothing in the body can raise, so
    // no table entry leads to the handler, whose code the compiler keeps all the same. The NOP of
    // the body's `pass` becomes an op that the handler covers, so the statement is read back as
    // written. That NOP is the last line before the handler's first line (an `except` clause's,
    // or the finally body's first), which nothing but the body can have; not when the instruction
    // of that line is no NOP.
    void cover_dead_handlers(std::vector<ExceptionTableEntry>& entries) {
        if (entries.empty()) return;  // (a handler's own code has entries, its clean-up's)
        for (size_t k = 0; k + 1 < ins_.size(); ++k) {
            if (ins_[k].op != Opcode::PUSH_EXC_INFO) continue;
            uint32_t handler = ins_[k].offset;
            if (std::any_of(entries.begin(), entries.end(), [&](const ExceptionTableEntry& e) { return e.target == handler; }))
                continue;
            int first_line = ins_[k + 1].position.line;
            if (first_line < 0) continue;
            int last_line = -1;
            for (const Instruction& i : ins_)
                if (i.position.line < first_line && i.op != Opcode::RESUME) last_line = std::max(last_line, i.position.line);
            // (3.11 lays the handler out after the body, which jumps over it: that jump may carry
            // the line instead of a NOP. The op stands one byte before it then, where no
            // instruction starts, outside what the jump's target names.)
            const Instruction *nop = nullptr, *jump = nullptr;
            bool other = false;
            for (const Instruction& i : ins_)
                if (i.position.line == last_line && last_line >= 0) {
                    if (i.op == Opcode::NOP) nop = &i;
                    else if (i.op == Opcode::JUMP_FORWARD) jump = &i;
                    else other = true;
                }
            if (other || !(nop || jump)) continue;
            uint32_t at = nop ? nop->offset : jump->offset - 1;
            uint32_t size = nop ? 2 : 1;
            auto covering = [&](uint32_t offset) {
                return std::find_if(entries.begin(), entries.end(),
                                    [&](const ExceptionTableEntry& e) { return e.start <= offset && offset < e.end; });
            };
            // (The handler's own code is covered by its clean-up, entered one value deeper.)
            // (Its PUSH_EXC_INFO too: the first op of the body may stand outside every entry, a NOP
            // before a try statement of the finally body.)
            auto cleanup = covering(ins_[k].offset);
            if (cleanup == entries.end()) cleanup = covering(ins_[k + 1].offset);
            if (cleanup == entries.end() || cleanup->depth < 1) continue;
            const uint32_t cleanup_at = cleanup->target, body_depth = cleanup->depth - 1;  // (entries change below)
            auto place = std::find_if(entries.begin(), entries.end(), [&](const ExceptionTableEntry& e) { return e.end > at; });
            if (place != entries.end() && place->start < at + size) {
                // Covered already: by the handler of a statement around this one (`try: pass`
                // with except clauses inside a try/finally), when that handler covers this one's
                // clean-up too; this one is the innermost there. Otherwise no dead handler's body.
                auto around = covering(cleanup_at);
                if (around == entries.end() || around->target != place->target || around->depth != place->depth ||
                    place->start > at || place->end < at + size)
                    continue;
                ExceptionTableEntry before = *place, after = *place;
                before.end = at;
                after.start = at + size;
                place = entries.erase(place);
                if (after.start < after.end) place = entries.insert(place, after);
                if (before.start < before.end) place = std::next(entries.insert(place, before));
            }
            ExceptionTableEntry body;
            body.start = at;
            body.end = at + size;
            body.target = handler;
            body.depth = body_depth;
            body.lasti = false;
            entries.insert(place, body);
            NeutralOp op;
            op.kind = N::Nop;
            op.offset = at;
            op.line = last_line;
            auto before = std::find_if(out_.begin(), out_.end(), [&](const NeutralOp& o) { return o.offset > at; });
            out_.insert(before, std::move(op));
        }
    }

    // Whether the POP_BLOCK at i_, right after the SETUP_FINALLY of the handler at `handler`, ends
    // a body that is only `pass` rather than leaving the statement (`try: break`, whose POP_BLOCKs
    // come first too): the body goes on into a finally body (3.8's BEGIN_FINALLY, or its copy) or
    // an else body, or jumps over the handler, to right after the re-raise that ends it (where an
    // else body or the code after the statement starts).
    bool ends_empty_try_body(int64_t handler) const {
        using O = Opcode;
        size_t ahead = 1;
        const Instruction* next = peek(ahead);
        while (next && (next->op == O::EXTENDED_ARG || next->op == O::NOP)) next = peek(++ahead);
        if (!next) return false;
        if (next->op == O::BEGIN_FINALLY) return true;
        if (next->op == O::JUMP_FORWARD || next->op == O::JUMP_ABSOLUTE) {
            int64_t to = next->jump_target;
            auto at = [&](int64_t offset) {
                return std::lower_bound(ins_.begin(), ins_.end(), offset, [](const Instruction& x, int64_t off) { return int64_t(x.offset) < off; });
            };
            auto it = at(to);
            if (to <= handler || it == ins_.begin() || it == ins_.end() || int64_t(it->offset) != to) return false;
            O before = std::prev(it)->op;
            if (before != O::RERAISE && before != O::END_FINALLY) return false;
            // (Not past where a clause goes on: a `break` to after a loop whose body ends in
            // another handler.)
            for (auto j = at(handler); j != it; ++j) {
                if (j->op != O::POP_EXCEPT) continue;
                for (auto m = std::next(j); m != it && m - j <= 6; ++m)
                    if (m->is_jump()) {
                        if ((m->op == O::JUMP_FORWARD || m->op == O::JUMP_ABSOLUTE) && m->jump_target > handler && to > m->jump_target)
                            return false;
                        break;
                    }
            }
            return true;
        }
        // (A finally body may start with a statement of its own that sets up a handler.)
        if (next->op == O::SETUP_FINALLY || next->op == O::SETUP_WITH || next->op == O::SETUP_ASYNC_WITH) return true;
        return !(next->is_jump() || next->op == O::RETURN_VALUE || next->op == O::POP_BLOCK || next->op == O::CALL_FINALLY ||
                 next->op == O::POP_EXCEPT || next->op == O::POP_FINALLY || next->op == O::POP_TOP || next->op == O::ROT_TWO);
    }

    // ---------------------------------------------------------------- handlers before 3.11
    // The interpreter enters a 3.8-3.10 handler with six values on the stack (the previous
    // exception's traceback, value and type, then the new one's), 3.11 with one (PUSH_EXC_INFO
    // then saves the previous one below it). The idioms that read those values fold into 3.11's:
    //   DUP_TOP; <type>; JUMP_IF_NOT_EXC_MATCH L  -> <type>; CHECK_EXC_MATCH; POP_JUMP_IF_FALSE L
    //   DUP_TOP; <type>; COMPARE_OP exception match; POP_JUMP_IF_FALSE L (3.8): the same
    //   POP_TOP; STORE name; POP_TOP              -> STORE name   (except T as name)
    //   POP_TOP; POP_TOP; POP_TOP                 -> POP_TOP      (except T, bare except, with)
    //   ROT_FOUR; [POP_BLOCK] POP_EXCEPT          -> SWAP 2; POP_EXCEPT   (a value kept past the handler)
    //   RERAISE / END_FINALLY at a handler's end  -> RERAISE 0 (1 in a name clean-up)
    void find_legacy_handlers() {
        using O = Opcode;
        for (size_t k = 0; k < ins_.size(); ++k) {
            const Instruction& i = ins_[k];
            if (i.op == O::SETUP_WITH || i.op == O::SETUP_ASYNC_WITH) {
                handler_roles_[i.jump_target] = HandlerRole::With;
            } else if (i.op == O::SETUP_FINALLY && !is_async_for_end(i.jump_target)) {
                bool cleanup = is_name_cleanup(i.jump_target);
                handler_roles_[i.jump_target] = cleanup ? HandlerRole::NameCleanup : HandlerRole::Try;
                if (!cleanup) {
                    clause_starts_.insert(i.jump_target);
                    triple_pops_.insert(i.jump_target);
                }
            }
        }
        for (size_t k = 0; k + 1 < ins_.size(); ++k) {
            const Instruction& i = ins_[k];
            size_t n = after_extended_args(k + 1);
            if (n >= ins_.size()) break;
            const Instruction& next = ins_[n];
            if (i.op == O::JUMP_IF_NOT_EXC_MATCH) {
                clause_starts_.insert(i.jump_target);
                triple_pops_.insert(i.jump_target);
                triple_pops_.insert(next.offset);
            } else if (is_exception_match(i) && next.op == O::POP_JUMP_IF_FALSE && n + 1 < ins_.size()) {
                clause_starts_.insert(next.jump_target);
                triple_pops_.insert(next.jump_target);
                triple_pops_.insert(ins_[n + 1].offset);
            } else if (i.op == O::POP_TOP && pops_triple_before_pop_except(k)) {
                triple_pops_.insert(i.offset);  // a return / break / continue leaving a finally handler
            } else if (i.op == O::WITH_EXCEPT_START) {
                // An async with awaits __aexit__'s result before testing it.
                size_t end = next.op == O::GET_AWAITABLE ? delegation_end(n) : 0;
                const Instruction* test = end ? (next_real(end + 1) < ins_.size() ? &ins_[next_real(end + 1)] : nullptr) : &next;
                if (test && test->op == O::POP_JUMP_IF_TRUE) triple_pops_.insert(test->jump_target);
            }
        }
    }

    // `POP_TOP; POP_TOP; POP_TOP; [ROT_FOUR]; POP_EXCEPT` at `k`, entered only at its start: what
    // the compiler emits to leave a finally handler's body by return, break or continue (3.9/3.10).
    bool pops_triple_before_pop_except(size_t k) const {
        using O = Opcode;
        if (k + 4 > ins_.size()) return false;
        for (size_t n = 1; n < 3; ++n)
            if (ins_[k + n].op != O::POP_TOP || jump_targets_.count(ins_[k + n].offset)) return false;
        size_t at = k + 3;
        if (at < ins_.size() && ins_[at].op == O::ROT_FOUR && !jump_targets_.count(ins_[at].offset)) ++at;
        return at < ins_.size() && ins_[at].op == O::POP_EXCEPT && !jump_targets_.count(ins_[at].offset) &&
               !handler_roles_.count(ins_[at].offset);
    }

    bool is_finally_handler(int64_t offset) const {
        auto it = handler_roles_.find(offset);
        return it != handler_roles_.end() && it->second == HandlerRole::Try;
    }

    // The index of the first instruction at or after `k` that is not an EXTENDED_ARG prefix.
    size_t after_extended_args(size_t k) const {
        while (k < ins_.size() && ins_[k].op == Opcode::EXTENDED_ARG) ++k;
        return k;
    }

    bool is_exception_match(const Instruction& i) const {
        return i.op == Opcode::COMPARE_OP && size_t(i.index) < table_.compare_ops.size() &&
               table_.compare_ops[i.index] == "exception match";
    }

    // `LOAD_CONST None; STORE_X name; DELETE_X name; RERAISE|END_FINALLY` at `offset` (the store and
    // the delete with EXTENDED_ARG prefixes in a function of more than 256 locals).
    bool is_name_cleanup(int64_t offset) {
        using O = Opcode;
        size_t at = index_at(offset);
        if (at == ins_.size()) return false;
        size_t k1 = next_real(at + 1), k2 = next_real(k1 + 1), k3 = next_real(k2 + 1);
        if (k3 >= ins_.size()) return false;
        const Instruction &c0 = ins_[at], &c1 = ins_[k1], &c2 = ins_[k2], &c3 = ins_[k3];
        if (c0.op != O::LOAD_CONST || const_at(c0.index)->kind != PyValue::Kind::None) return false;
        static const std::pair<Opcode, Opcode> pairs[] = {{O::STORE_FAST, O::DELETE_FAST}, {O::STORE_NAME, O::DELETE_NAME},
                                                          {O::STORE_GLOBAL, O::DELETE_GLOBAL}, {O::STORE_DEREF, O::DELETE_DEREF}};
        bool named = false;
        for (auto [store, del] : pairs) named = named || (c1.op == store && c2.op == del && c1.index == c2.index);
        if (!named || (c3.op != O::RERAISE && c3.op != O::END_FINALLY)) return false;
        for (size_t k = at + 1; k <= k3; ++k)
            if (jump_targets_.count(ins_[k].offset)) return false;
        cleanup_reraises_.insert(c3.offset);
        return true;
    }

    // At the start of an except clause: the DUP_TOP of the exception whose type is tested next.
    bool exception_match_ahead() const {
        for (size_t k = i_ + 1; k < ins_.size(); ++k) {
            const Instruction& i = ins_[k];
            if (jump_targets_.count(i.offset)) return false;
            if (i.op == Opcode::JUMP_IF_NOT_EXC_MATCH || is_exception_match(i)) return true;
            if (i.is_jump() || handler_roles_.count(i.offset)) return false;
        }
        return false;
    }

    // The three values of an exception popped (or the value stored) at once. (The store has an
    // EXTENDED_ARG prefix in a function of more than 256 locals.)
    bool fold_exception_triple() {
        using O = Opcode;
        size_t ka = next_real(i_ + 1), kb = next_real(ka + 1);
        if (kb >= ins_.size()) return false;
        for (size_t k = i_ + 1; k <= kb; ++k)
            if (jump_targets_.count(ins_[k].offset)) return false;
        const Instruction& a = ins_[ka];
        if (ins_[kb].op != O::POP_TOP) return false;
        if (a.op == O::POP_TOP) {
            emit(N::Pop);
        } else if (a.op == O::STORE_FAST || a.op == O::STORE_NAME || a.op == O::STORE_GLOBAL || a.op == O::STORE_DEREF) {
            size_t at = i_;
            i_ = ka;
            translate(a);
            i_ = at;
        } else {
            return false;
        }
        i_ = kb;
        return true;
    }

    // ROT_FOUR that moves a value below the previous exception's three values, for POP_EXCEPT.
    bool rot_four_past_exception() const {
        // The value returned moves below the exception, popped just after (a return leaving a
        // finally handler; a second ROT_FOUR then moves it below the previous exception).
        if (peek(1) && peek(1)->op == Opcode::POP_TOP && triple_pops_.count(peek(1)->offset))
            return peek(4) && peek(4)->op == Opcode::ROT_FOUR && peek(5) && peek(5)->op == Opcode::POP_EXCEPT;
        for (size_t k = 1; peek(k); ++k) {
            if (peek(k)->op == Opcode::POP_EXCEPT) return true;
            if (peek(k)->op != Opcode::POP_BLOCK || jump_targets_.count(peek(k)->offset)) return false;
        }
        return false;
    }

    // Code no jump reaches, after an instruction that never falls through (3.8 leaves an
    // END_FINALLY after a bare except clause).
    bool unreachable_after_jump() const {
        using O = Opcode;
        if (i_ == 0 || jump_targets_.count(ins_[i_].offset) || handler_roles_.count(ins_[i_].offset)) return false;
        Opcode prev = ins_[i_ - 1].op;
        return prev == O::JUMP_FORWARD || prev == O::JUMP_ABSOLUTE || prev == O::RETURN_VALUE || prev == O::RAISE_VARARGS;
    }

    void legacy_setup(const Instruction& i) {
        // SETUP_ASYNC_WITH follows BEFORE_ASYNC_WITH and the await of __aenter__ (one BeforeWith).
        bool with = i.op == Opcode::SETUP_WITH || i.op == Opcode::SETUP_ASYNC_WITH;
        if (i.op == Opcode::SETUP_WITH) emit(N::BeforeWith);
        NeutralOp& op = emit(with ? N::SetupWith : N::SetupFinally);
        op.target = i.jump_target;
        op.arg = with ? 1 : 0;  // the entered value is above the block's level
        op.handler_lasti = with || handler_roles_[i.jump_target] == HandlerRole::NameCleanup;
    }

    // The instruction at byte `offset` (ins_.size(): none). Instructions are in offset order
    // (decoded front to back).
    size_t index_at(int64_t offset) const {
        uint32_t off = uint32_t(offset);
        auto it = std::lower_bound(ins_.begin(), ins_.end(), off, [](const Instruction& i, uint32_t o) { return i.offset < o; });
        return it != ins_.end() && it->offset == off ? size_t(it - ins_.begin()) : ins_.size();
    }
    size_t existing_index_at(int64_t offset) const {
        size_t at = index_at(offset);
        if (at == ins_.size()) throw std::out_of_range("no instruction at offset");
        return at;
    }

    NeutralOp& emit(N kind) {
        NeutralOp& op = out_.emplace_back();  // (in place: an op is some 150 bytes)
        op.kind = kind;
        op.offset = ins_[i_].offset;
        op.line = ins_[i_].position.line;
        return op;
    }
    void emit_count(N kind, int64_t n) { emit(kind).arg = n; }
    void emit_named(N kind, std::string name) { emit(kind).name = std::move(name); }
    void emit_scoped(N kind, Scope scope, const std::string* name) {
        NeutralOp& op = emit(kind);
        op.scope = scope;
        if (name) op.name = *name;  // (not `name ? *name : "..."`: that copies into a temporary first)
        else op.name = "<bad name>";
    }
    // 3.11+ keeps cells in the fast-local slots, so LOAD_FAST of a cell or free slot pushes the
    // cell itself, not its value: 3.13 compiles LOAD_CLOSURE to it, and rewritten bytecode may
    // pass such a cell on. Both mean LOAD_CLOSURE.
    // Except in a slot that an inlined comprehension (3.12+) empties with LOAD_FAST_AND_CLEAR: it
    // then holds the comprehension's own plain variable until the cell is put back.
    void emit_fast_load(uint32_t slot) {
        const uint8_t cell_kinds = kLocalCell | kLocalFree;
        if (code_.version >= PyVersion{3, 11} && slot < code_.localsplus_kinds.size() &&
            (code_.localsplus_kinds[slot] & cell_kinds) &&
            std::find(swapped_out_slots_.begin(), swapped_out_slots_.end(), slot) == swapped_out_slots_.end())
            emit_scoped(N::LoadClosure, Scope::Deref, code_.local_name(slot));
        else
            emit_scoped(N::Load, Scope::Fast, code_.local_name(slot));
    }
    static bool is_named(const std::string* name, const char* expected) { return name && *name == expected; }
    bool loads_classdict() const {
        return !out_.empty() && out_.back().kind == N::Load && out_.back().scope == Scope::Deref && out_.back().name == "__classdict__";
    }

    void emit_type_param_op(const NeutralOp& op) {
        NeutralOp& e = emit(op.kind);
        e.arg = op.arg;
        e.name = op.name;
    }

    // A type parameter just made, duplicated and stored under its name (a local or a cell of the
    // generic parameters' code): one op, which leaves it for the tuple of all of them.
    bool bind_type_param(const std::string* name) {
        size_t n = out_.size();
        if (!name || n < 2 || out_[n - 1].kind != N::Copy || out_[n - 1].arg != 1 ||
            (out_[n - 2].kind != N::TypeParam && out_[n - 2].kind != N::TypeParamDefault))
            return false;
        out_.pop_back();
        emit_named(N::BindTypeParam, *name);
        return true;
    }

    const std::string* name_at(int64_t index) const {
        return index >= 0 && size_t(index) < code_.names.size() ? &code_.names[index] : nullptr;
    }
    ObjectRef const_at(int64_t index) const {
        if (index >= 0 && size_t(index) < code_.consts.size()) return code_.consts[index];
        auto none = std::make_shared<PyValue>();
        return none;
    }
    void unsupported(const Instruction& i) { emit_named(N::Unsupported, opname(i)); }
    static std::string opname(const Instruction& i) { return opcode_name(i.op); }

    void emit_jump(N kind, JumpCondition cond, int64_t target) {
        NeutralOp& op = emit(kind);
        op.condition = cond;
        op.target = target;
    }

    // The next instruction, if any.
    const Instruction* peek(size_t ahead = 1) const {
        return i_ + ahead < ins_.size() ? &ins_[i_ + ahead] : nullptr;
    }

    // 3.12+: `COPY 1; [TO_BOOL;] POP_JUMP_IF_X t; POP_TOP` is the old JUMP_IF_X_OR_POP (the jump
    // with its EXTENDED_ARG prefixes where it goes 256 units or more: an `or` of some 40 operands).
    bool fold_short_circuit() {
        size_t k = next_real(i_ + 1);
        if (k < ins_.size() && ins_[k].op == Opcode::TO_BOOL) k = next_real(k + 1);
        if (k + 1 >= ins_.size()) return false;
        const Instruction &jump = ins_[k], &pop = ins_[k + 1];
        if ((jump.op != Opcode::POP_JUMP_IF_TRUE && jump.op != Opcode::POP_JUMP_IF_FALSE) || pop.op != Opcode::POP_TOP) return false;
        for (size_t j = i_ + 1; j <= k + 1; ++j)
            if (jump_targets_.count(ins_[j].offset)) return false;
        emit_jump(N::JumpIfOrPop, jump.op == Opcode::POP_JUMP_IF_TRUE ? JumpCondition::IfTrue : JumpCondition::IfFalse,
                  jump.jump_target);
        i_ = k + 1;
        return true;
    }

    // PEP 709 (3.12+): `LOAD_FAST_AND_CLEAR x...; [MAKE_CELL x;] SWAP n; BUILD_* 0; SWAP 2` starts a
    // comprehension inlined into this code; the empty container is its accumulator.
    bool starts_inlined_comprehension(const Instruction& i) const {
        const Instruction* next = peek();
        if (i.arg != 0 || i_ < 2 || !next || next->op != Opcode::SWAP || next->arg != 2) return false;
        if (ins_[i_ - 1].op != Opcode::SWAP) return false;
        size_t k = i_ - 2;
        while (k > 0 && ins_[k].op == Opcode::MAKE_CELL) --k;
        return ins_[k].op == Opcode::LOAD_FAST_AND_CLEAR;
    }

    int64_t for_iter_exit(const Instruction& i) const {
        int64_t target = i.jump_target;
        for (int s = 0; s < traits_.for_exit_skips; ++s) target += 2;
        return target;
    }

    void load_with_null(N kind, Scope scope, const std::string* name, bool with_null) {
        if (kind == N::LoadAttr) {
            // The attribute replaces its object; a NULL then goes below or above it.
            emit_named(N::LoadAttr, name ? *name : "<bad name>");
            if (with_null) {
                emit(N::PushNull);
                if (traits_.null_before_callable) emit_count(N::Swap, 2);
            }
            return;
        }
        if (with_null && traits_.null_before_callable) emit(N::PushNull);
        emit_scoped(kind, scope, name);
        if (with_null && !traits_.null_before_callable) emit(N::PushNull);
    }

    void translate(const Instruction& i) {
        using O = Opcode;
        switch (i.op) {
        case O::NOP: case O::RESUME: case O::EXTENDED_ARG: case O::CACHE: case O::PRECALL: case O::MAKE_CELL:
        case O::COPY_FREE_VARS: case O::GEN_START:
        case O::END_FOR:  // FOR_ITER's exit (normalized) already skips it
            return;
        case O::TO_BOOL: {
            // 3.13: the truth test that a conditional jump or `not` makes anyway, implied there;
            // a value converted and kept (`return not not x` compiles to just TO_BOOL) is `not not`.
            size_t ahead = 1;
            const Instruction* next = peek(ahead);
            while (next && (next->op == O::EXTENDED_ARG || next->op == O::CACHE)) next = peek(++ahead);
            if (next && (next->op == O::POP_JUMP_IF_TRUE || next->op == O::POP_JUMP_IF_FALSE || next->op == O::UNARY_NOT)) return;
            emit_named(N::UnaryOp, "not");
            emit_named(N::UnaryOp, "not");
            return;
        }
        case O::RETURN_GENERATOR: emit(N::PushNull); return;
        case O::SETUP_ANNOTATIONS: emit(N::SetupAnnotations); return;  // popped right away by the POP_TOP after it
        case O::POP_TOP:
            if (triple_pops_.count(i.offset) && fold_exception_triple()) return;
            emit(N::Pop);
            return;
        case O::ROT_TWO: emit_count(N::Swap, 2); return;
        case O::ROT_THREE: emit_count(N::Swap, 3); emit_count(N::Swap, 2); return;
        case O::ROT_FOUR:
            if (traits_.block_stack && rot_four_past_exception()) return emit_count(N::Swap, 2);
            for (int n = 4; n >= 2; --n) emit_count(N::Swap, n);
            return;
        case O::ROT_N: for (int64_t n = i.arg; n >= 2; --n) emit_count(N::Swap, n); return;
        case O::DUP_TOP:
            if (clause_starts_.count(i.offset) && exception_match_ahead()) {
                pending_exception_match_ = true;
                return;
            }
            emit_count(N::Copy, 1);
            return;
        case O::DUP_TOP_TWO: emit_count(N::Copy, 2); emit_count(N::Copy, 2); return;
        case O::COPY:
            if (i.arg == 1 && fold_short_circuit()) return;
            emit_count(N::Copy, i.arg);
            return;
        case O::SWAP: emit_count(N::Swap, i.arg); return;
        case O::PUSH_NULL: emit(N::PushNull); return;

        case O::LOAD_CONST: emit(N::LoadConst).value = const_at(i.index); return;
        case O::RETURN_CONST: emit(N::LoadConst).value = const_at(i.index); emit(N::Return); return;
        case O::KW_NAMES: pending_kwnames_ = const_at(i.index); return;
        case O::LOAD_FAST: case O::LOAD_FAST_CHECK: emit_fast_load(uint32_t(i.index)); return;
        case O::LOAD_FAST_AND_CLEAR: emit_scoped(N::LoadAndClear, Scope::Fast, code_.local_name(uint32_t(i.index))); return;
        case O::LOAD_FAST_LOAD_FAST:
            emit_fast_load(uint32_t(i.arg >> 4));
            emit_fast_load(uint32_t(i.arg & 15));
            return;
        case O::STORE_FAST_LOAD_FAST:
            if (!bind_type_param(code_.local_name(uint32_t(i.arg >> 4))))
                emit_scoped(N::Store, Scope::Fast, code_.local_name(uint32_t(i.arg >> 4)));
            emit_fast_load(uint32_t(i.arg & 15));
            return;
        case O::STORE_FAST_STORE_FAST:
            emit_scoped(N::Store, Scope::Fast, code_.local_name(uint32_t(i.arg >> 4)));
            emit_scoped(N::Store, Scope::Fast, code_.local_name(uint32_t(i.arg & 15)));
            return;
        case O::STORE_FAST:
            if (bind_type_param(code_.local_name(uint32_t(i.index)))) return;
            emit_scoped(N::Store, Scope::Fast, code_.local_name(uint32_t(i.index)));
            return;
        case O::DELETE_FAST: emit_scoped(N::Delete, Scope::Fast, code_.local_name(uint32_t(i.index))); return;
        case O::LOAD_DEREF: emit_scoped(N::Load, Scope::Deref, code_.deref_name(uint32_t(i.index))); return;
        case O::LOAD_CLASSDEREF: emit_scoped(N::Load, Scope::ClassDeref, code_.deref_name(uint32_t(i.index))); return;
        case O::STORE_DEREF:
            // 3.12+: a class body whose annotation scopes or type aliases read its namespace keeps
            // it in the cell __classdict__ (LOAD_LOCALS; STORE_DEREF) and stores that cell as
            // __classdictcell__ at its end (LOAD_CLOSURE, 3.13: LOAD_FAST; STORE_NAME): the compiler's,
            // not the source's.
            if (is_named(code_.deref_name(uint32_t(i.index)), "__classdict__") && !out_.empty() && out_.back().kind == N::LoadLocals) {
                out_.pop_back();
                return;
            }
            if (bind_type_param(code_.deref_name(uint32_t(i.index)))) return;
            emit_scoped(N::Store, Scope::Deref, code_.deref_name(uint32_t(i.index)));
            out_.back().free_slot = code_.deref_is_free(uint32_t(i.index));
            return;
        case O::DELETE_DEREF:
            emit_scoped(N::Delete, Scope::Deref, code_.deref_name(uint32_t(i.index)));
            out_.back().free_slot = code_.deref_is_free(uint32_t(i.index));
            return;
        case O::LOAD_CLOSURE: emit_scoped(N::LoadClosure, Scope::Deref, code_.deref_name(uint32_t(i.index))); return;
        case O::LOAD_LOCALS: emit(N::LoadLocals); return;
        case O::LOAD_FROM_DICT_OR_DEREF:
            // The class namespace: LOAD_LOCALS in a class body, LOAD_DEREF __classdict__ in an
            // annotation scope or a type alias's value inside one (3.12+).
            if (loads_classdict()) out_.pop_back();
            else emit(N::Pop);
            emit_scoped(N::Load, Scope::ClassDeref, code_.deref_name(uint32_t(i.index)));
            return;
        case O::LOAD_FROM_DICT_OR_GLOBALS:
            // The namespace is the class's (LOAD_DEREF __classdict__ in an annotation scope or a
            // type alias's value, 3.12+): no value of the source's.
            if (loads_classdict())
                out_.pop_back();
            else
                emit(N::Pop);
            emit_scoped(N::Load, Scope::Name, name_at(i.index));
            return;
        case O::LOAD_GLOBAL: load_with_null(N::Load, Scope::Global, name_at(i.index), i.flag_bits(table_) & 1); return;
        case O::LOAD_NAME: emit_scoped(N::Load, Scope::Name, name_at(i.index)); return;
        case O::STORE_GLOBAL: emit_scoped(N::Store, Scope::Global, name_at(i.index)); return;
        case O::STORE_NAME:
            if (is_named(name_at(i.index), "__classdictcell__") && !out_.empty() &&
                (out_.back().kind == N::LoadClosure || out_.back().kind == N::Load) && out_.back().name == "__classdict__") {
                out_.pop_back();
                return;
            }
            emit_scoped(N::Store, Scope::Name, name_at(i.index));
            return;
        case O::DELETE_GLOBAL: emit_scoped(N::Delete, Scope::Global, name_at(i.index)); return;
        case O::DELETE_NAME: emit_scoped(N::Delete, Scope::Name, name_at(i.index)); return;
        case O::LOAD_ATTR: load_with_null(N::LoadAttr, Scope::Fast, name_at(i.index), i.flag_bits(table_) & 1); return;
        case O::LOAD_METHOD:  // pops the object, pushes [NULL, attribute] as the call expects
            emit_named(N::LoadAttr, name_at(i.index) ? *name_at(i.index) : "<bad name>");
            emit(N::PushNull);
            emit_count(N::Swap, 2);
            return;
        case O::LOAD_SUPER_ATTR: {
            NeutralOp& op = emit(N::LoadSuperAttr);
            op.name = name_at(i.index) ? *name_at(i.index) : "<bad name>";
            op.arg = i.flag_bits(table_);  // bit 0: method load, bit 1: two-argument super()
            if ((i.flag_bits(table_) & 1)) {
                if (traits_.null_before_callable) {
                    emit(N::PushNull);
                    emit_count(N::Swap, 2);
                } else {
                    emit(N::PushNull);
                }
            }
            return;
        }
        case O::STORE_ATTR: emit_named(N::StoreAttr, name_at(i.index) ? *name_at(i.index) : "<bad name>"); return;
        case O::DELETE_ATTR: emit_named(N::DeleteAttr, name_at(i.index) ? *name_at(i.index) : "<bad name>"); return;
        case O::LOAD_ASSERTION_ERROR: emit(N::LoadAssertionError); return;
        case O::LOAD_BUILD_CLASS: emit(N::LoadBuildClass); return;

        case O::BINARY_OP: {
            std::string symbol = size_t(i.arg) < table_.binary_ops.size() ? table_.binary_ops[i.arg] : "?";
            NeutralOp& op = emit(N::BinaryOp);
            op.inplace = symbol.size() >= 2 && symbol.back() == '=';
            op.name = op.inplace ? symbol.substr(0, symbol.size() - 1) : symbol;
            return;
        }
        case O::UNARY_NEGATIVE: emit_named(N::UnaryOp, "-"); return;
        case O::UNARY_POSITIVE: emit_named(N::UnaryOp, "+"); return;
        case O::UNARY_INVERT: emit_named(N::UnaryOp, "~"); return;
        case O::UNARY_NOT: emit_named(N::UnaryOp, "not"); return;
        case O::COMPARE_OP: {
            std::string symbol = size_t(i.index) < table_.compare_ops.size() ? table_.compare_ops[i.index] : "?";
            if (symbol == "exception match" && pending_exception_match_) {
                pending_exception_match_ = false;
                emit(N::CheckExcMatch);
                return;
            }
            if (symbol == "exception match" || symbol == "BAD") return unsupported(i);
            emit_named(N::Compare, symbol);
            return;
        }
        case O::IS_OP: emit_named(N::Compare, i.arg ? "is not" : "is"); return;
        case O::CONTAINS_OP: emit_named(N::Compare, i.arg ? "not in" : "in"); return;
        case O::BINARY_SUBSCR: emit(N::Subscr); return;
        case O::STORE_SUBSCR: emit(N::StoreSubscr); return;
        case O::DELETE_SUBSCR: emit(N::DeleteSubscr); return;
        case O::BINARY_SLICE: emit(N::Slice3); return;
        case O::STORE_SLICE: emit(N::StoreSlice); return;
        case O::BUILD_SLICE: emit_count(N::BuildSlice, i.arg); return;
        case O::CALL_INTRINSIC_1: return intrinsic(i);
        case O::CALL_INTRINSIC_2: {
            NeutralOp op;
            if (size_t(i.arg) < table_.intrinsic_2.size() && table_.intrinsic_2[i.arg] == "INTRINSIC_PREP_RERAISE_STAR")
            {
                emit(N::PrepReraiseStar);
                return;
            }
            if (size_t(i.arg) >= table_.intrinsic_2.size() || !type_param_op(table_.intrinsic_2[i.arg], op)) return unsupported(i);
            return emit_type_param_op(op);
        }

        case O::BUILD_TUPLE: emit_count(N::BuildTuple, i.arg); return;
        case O::BUILD_LIST: emit_count(N::BuildList, i.arg); out_.back().comprehension = starts_inlined_comprehension(i); return;
        case O::BUILD_SET: emit_count(N::BuildSet, i.arg); out_.back().comprehension = starts_inlined_comprehension(i); return;
        case O::BUILD_MAP: emit_count(N::BuildMap, i.arg); out_.back().comprehension = starts_inlined_comprehension(i); return;
        case O::BUILD_CONST_KEY_MAP: emit_count(N::BuildConstKeyMap, i.arg); return;
        case O::BUILD_STRING: emit_count(N::BuildString, i.arg); return;
        case O::LIST_APPEND: emit_count(N::ListAppend, i.arg); return;
        case O::SET_ADD: emit_count(N::SetAdd, i.arg); return;
        case O::MAP_ADD: emit_count(N::MapAdd, i.arg); return;
        case O::LIST_EXTEND: emit_count(N::ListExtend, i.arg); return;
        case O::SET_UPDATE: emit_count(N::SetUpdate, i.arg); return;
        case O::DICT_UPDATE: emit_count(N::DictUpdate, i.arg); return;
        case O::DICT_MERGE: emit_count(N::DictMerge, i.arg); return;
        case O::LIST_TO_TUPLE: emit(N::ListToTuple); return;
        case O::BUILD_TUPLE_UNPACK: case O::BUILD_TUPLE_UNPACK_WITH_CALL: case O::BUILD_LIST_UNPACK:
        case O::BUILD_SET_UNPACK: case O::BUILD_MAP_UNPACK: case O::BUILD_MAP_UNPACK_WITH_CALL: {
            NeutralOp& op = emit(N::BuildUnpack);
            op.arg = i.arg;
            op.for_call = i.op == O::BUILD_TUPLE_UNPACK_WITH_CALL || i.op == O::BUILD_MAP_UNPACK_WITH_CALL;
            op.name = i.op == O::BUILD_LIST_UNPACK ? "list" : i.op == O::BUILD_SET_UNPACK ? "set"
                      : i.op == O::BUILD_MAP_UNPACK || i.op == O::BUILD_MAP_UNPACK_WITH_CALL ? "dict" : "tuple";
            return;
        }
        case O::UNPACK_SEQUENCE: emit_count(N::UnpackSequence, i.arg); return;
        case O::UNPACK_EX: emit_count(N::UnpackEx, i.arg); return;

        case O::CALL_FUNCTION: emit_call(N::Call, i.arg, 1); return;
        case O::CALL_METHOD: emit_call(N::Call, i.arg, 2); return;
        case O::CALL_FUNCTION_KW: emit_call(N::CallKw, i.arg, 1); return;
        case O::CALL_KW: emit_call(N::CallKw, i.arg, 2); return;
        case O::CALL: {
            NeutralOp& op = emit_call(N::Call, i.arg, 2);
            if (pending_kwnames_) {
                for (const auto& item : pending_kwnames_->items) op.kwnames.push_back(item->text);
                pending_kwnames_.reset();
            }
            return;
        }
        case O::CALL_FUNCTION_EX: emit_call(N::CallEx, i.arg, code_.version >= PyVersion{3, 11} ? 2 : 1); return;
        case O::MAKE_FUNCTION: {
            NeutralOp& op = emit(N::MakeFunction);
            op.arg = i.has_arg ? i.arg : 0;
            op.with_qualname = traits_.qualname_on_stack;
            return;
        }
        case O::SET_FUNCTION_ATTRIBUTE: emit_count(N::SetFunctionAttribute, i.arg); return;
        case O::FORMAT_VALUE: {
            NeutralOp& op = emit(N::FormatValue);
            op.arg = (i.arg & 4) ? 1 : 0;
            op.conversion = conversion_of(i.arg & 3);
            return;
        }
        case O::CONVERT_VALUE: emit(N::ConvertValue).conversion = conversion_of(i.arg); return;
        case O::FORMAT_SIMPLE: emit_count(N::FormatValue, 0); return;
        case O::FORMAT_WITH_SPEC: emit_count(N::FormatValue, 1); return;

        case O::JUMP_FORWARD: case O::JUMP_ABSOLUTE: case O::JUMP_BACKWARD: case O::JUMP_BACKWARD_NO_INTERRUPT:
            if (dead_jumps_.count(i.offset)) return;
            emit_jump(N::Jump, JumpCondition::IfTrue, i.jump_target);
            return;
        case O::POP_JUMP_IF_TRUE: case O::POP_JUMP_FORWARD_IF_TRUE: case O::POP_JUMP_BACKWARD_IF_TRUE:
            emit_jump(N::JumpIf, JumpCondition::IfTrue, i.jump_target); return;
        case O::POP_JUMP_IF_FALSE: case O::POP_JUMP_FORWARD_IF_FALSE: case O::POP_JUMP_BACKWARD_IF_FALSE:
            emit_jump(N::JumpIf, JumpCondition::IfFalse, i.jump_target); return;
        case O::POP_JUMP_IF_NONE: case O::POP_JUMP_FORWARD_IF_NONE: case O::POP_JUMP_BACKWARD_IF_NONE:
            emit_jump(N::JumpIf, JumpCondition::IfNone, i.jump_target); return;
        case O::POP_JUMP_IF_NOT_NONE: case O::POP_JUMP_FORWARD_IF_NOT_NONE: case O::POP_JUMP_BACKWARD_IF_NOT_NONE:
            emit_jump(N::JumpIf, JumpCondition::IfNotNone, i.jump_target); return;
        case O::JUMP_IF_TRUE_OR_POP: emit_jump(N::JumpIfOrPop, JumpCondition::IfTrue, i.jump_target); return;
        case O::JUMP_IF_FALSE_OR_POP: emit_jump(N::JumpIfOrPop, JumpCondition::IfFalse, i.jump_target); return;
        case O::GET_ITER: emit(N::GetIter); return;
        case O::GET_AITER: emit_count(N::GetIter, 1); return;
        case O::GET_ANEXT: return async_for_next(i, async_for_handler(i));
        case O::END_ASYNC_FOR:
            if (!async_for_ends_.count(i.offset)) unsupported(i);
            return;
        case O::BEFORE_ASYNC_WITH: {
            size_t await = next_real(i_ + 1);
            size_t end = await < ins_.size() && ins_[await].op == O::GET_AWAITABLE ? delegation_end(await) : 0;
            if (!end) return unsupported(i);
            emit_count(N::BeforeWith, 1);
            i_ = end;
            return;
        }
        case O::FOR_ITER: emit_jump(N::ForIter, JumpCondition::IfTrue, for_iter_exit(i)); return;
        case O::RETURN_VALUE: emit(N::Return); return;
        case O::RAISE_VARARGS: emit_count(N::Raise, i.arg); return;
        case O::IMPORT_NAME: emit_named(N::ImportName, name_at(i.index) ? *name_at(i.index) : "<bad name>"); return;
        case O::IMPORT_FROM: emit_named(N::ImportFrom, name_at(i.index) ? *name_at(i.index) : "<bad name>"); return;
        case O::IMPORT_STAR: emit(N::ImportStar); return;
        case O::YIELD_VALUE: emit(N::Yield); return;
        case O::GET_YIELD_FROM_ITER: return delegation(i, N::YieldFrom, 0);
        case O::GET_AWAITABLE: return delegation(i, N::Await, i.has_arg ? i.arg : 0);
        case O::ASYNC_GEN_WRAP: return;  // an async generator's `yield` wraps its value for the caller
        case O::CLEANUP_THROW:
            if (!skip_cleanup_throw()) unsupported(i);
            return;
        case O::PUSH_EXC_INFO: emit(N::PushExcInfo); return;
        case O::POP_EXCEPT: emit(N::PopExcept); return;
        case O::CHECK_EXC_MATCH: emit(N::CheckExcMatch); return;
        case O::CHECK_EG_MATCH: emit(N::CheckEgMatch); return;
        case O::PREP_RERAISE_STAR: emit(N::PrepReraiseStar); return;
        case O::RERAISE: emit_count(N::Reraise, cleanup_reraises_.count(i.offset) ? 1 : i.has_arg ? i.arg : 0); return;
        case O::JUMP_IF_NOT_EXC_MATCH:
            if (!pending_exception_match_) return unsupported(i);
            pending_exception_match_ = false;
            emit(N::CheckExcMatch);
            emit_jump(N::JumpIf, JumpCondition::IfFalse, i.jump_target);
            return;
        case O::END_FINALLY:  // 3.8: the re-raise after unmatched except clauses, or the end of a finally subroutine
            if (is_finally_handler(i.offset)) return emit(N::EndFinally), void();  // an empty `finally: pass`
            if (clause_starts_.count(i.offset) || unreachable_after_jump()) return emit_count(N::Reraise, 0);
            emit(N::EndFinally);
            return;
        case O::BEGIN_FINALLY: emit(N::BeginFinally); return;
        case O::CALL_FINALLY: emit_jump(N::CallFinally, JumpCondition::IfTrue, i.jump_target); return;
        case O::POP_FINALLY: emit_count(N::PopFinally, i.arg); return;
        case O::WITH_CLEANUP_START: emit(N::WithCleanupStart); return;
        case O::WITH_CLEANUP_FINISH: emit(N::WithCleanupFinish); return;
        case O::SETUP_FINALLY:
            if (is_async_for_end(i.jump_target)) return async_for_next(i, i.jump_target);
            return legacy_setup(i);
        case O::SETUP_WITH: case O::SETUP_ASYNC_WITH: return legacy_setup(i);
        case O::POP_BLOCK:
            // (`try: pass` before 3.11: nothing between SETUP_FINALLY and POP_BLOCK, so the handler
            // would cover no op and be dropped; an op for the body's `pass` keeps the statement,
            // one byte before the POP_BLOCK, where no instruction starts.)
            if (!out_.empty() && out_.back().kind == N::SetupFinally && out_.back().offset + 2 == i.offset &&
                ends_empty_try_body(out_.back().target)) {
                emit(N::Nop).offset = i.offset - 1;
            }
            emit(N::PopBlock);
            return;
        case O::BEFORE_WITH: emit(N::BeforeWith); return;
        case O::MATCH_SEQUENCE: emit(N::MatchSequence); return;
        case O::MATCH_MAPPING: emit(N::MatchMapping); return;
        case O::GET_LEN: emit(N::GetLen); return;
        case O::COPY_DICT_WITHOUT_KEYS: emit(N::CopyDictWithoutKeys); return;
        case O::MATCH_CLASS: emit_count(N::MatchClass, i.arg); return match_result_test();
        case O::MATCH_KEYS: emit(N::MatchKeys); return match_result_test();
        case O::WITH_EXCEPT_START: emit(N::WithExceptStart); return;
        default:
            if (!legacy_binary_op(i)) unsupported(i);
            return;
        }
    }

    // 3.10's MATCH_CLASS and MATCH_KEYS also push whether they matched; 3.11 tests the result
    // itself: `COPY 1; LOAD_CONST None; IS_OP 1`.
    void match_result_test() {
        if (code_.version >= PyVersion{3, 11}) return;
        emit_count(N::Copy, 1);
        emit(N::LoadConst).value = std::make_shared<PyValue>();
        emit_named(N::Compare, "is not");
    }

    // ---------------------------------------------------------------- delegation (yield from, await)
    // The index of the first instruction at or after `k` that is neither an EXTENDED_ARG prefix
    // nor an inline CACHE entry.
    size_t next_real(size_t k) const {
        while (k < ins_.size() && (ins_[k].op == Opcode::EXTENDED_ARG || ins_[k].op == Opcode::CACHE)) ++k;
        return k;
    }

    // After GET_YIELD_FROM_ITER / GET_AWAITABLE at `first`: `LOAD_CONST None; YIELD_FROM` (before
    // 3.11) or the send loop `LOAD_CONST None; SEND exit; YIELD_VALUE; RESUME;
    // JUMP_BACKWARD_NO_INTERRUPT send; exit: [END_SEND]` (3.11+). Returns the index of its last
    // instruction, 0 when the code there is anything else.
    size_t delegation_end(size_t first) {
        using O = Opcode;
        size_t load = next_real(first + 1);
        if (load >= ins_.size() || ins_[load].op != O::LOAD_CONST || const_at(ins_[load].index)->kind != PyValue::Kind::None ||
            jump_targets_.count(ins_[load].offset))
            return 0;
        size_t send = next_real(load + 1);
        if (send >= ins_.size()) return 0;
        if (ins_[send].op == O::YIELD_FROM) return jump_targets_.count(ins_[send].offset) ? 0 : send;
        size_t yield = next_real(send + 1), resume = next_real(yield + 1), back = next_real(resume + 1);
        size_t exit = next_real(back + 1);
        // 3.12+ may place the loop's CLEANUP_THROW handler right before END_SEND, falling into it.
        if (exit < ins_.size() && ins_[exit].op == O::CLEANUP_THROW && !jump_targets_.count(ins_[exit].offset))
            exit = next_real(exit + 1);
        if (exit >= ins_.size() || ins_[send].op != O::SEND || ins_[yield].op != O::YIELD_VALUE ||
            ins_[resume].op != O::RESUME || ins_[back].op != O::JUMP_BACKWARD_NO_INTERRUPT ||
            ins_[back].jump_target != ins_[send].offset || ins_[send].jump_target != ins_[exit].offset)
            return 0;
        for (size_t k : {yield, resume, back})
            if (jump_targets_.count(ins_[k].offset)) return 0;
        if (ins_[exit].op != O::END_SEND) return back;  // 3.11: SEND leaves only the result
        delegation_exits_.insert(ins_[exit].offset);
        return exit;
    }

    void delegation(const Instruction& i, N kind, int64_t arg) {
        size_t end = delegation_end(i_);
        if (!end) return unsupported(i);
        emit_count(kind, arg);
        i_ = end;
    }

    // ---------------------------------------------------------------- async for
    // `async for` is a for loop whose FOR_ITER is `GET_ANEXT` and the await of its result, with a
    // handler (END_ASYNC_FOR) that ends the loop on StopAsyncIteration: before 3.11 `SETUP_FINALLY
    // end; GET_ANEXT; <await>; POP_BLOCK`, after it `GET_ANEXT; <await>` under an exception-table
    // entry to `end`. Both become one ForIter (arg 1) exiting past END_ASYNC_FOR.
    bool is_async_for_end(int64_t offset) const {
        size_t at = index_at(offset);
        return at != ins_.size() && ins_[at].op == Opcode::END_ASYNC_FOR;
    }

    // 3.11+: the END_ASYNC_FOR that the exception table gives GET_ANEXT as its handler (-1: none).
    int64_t async_for_handler(const Instruction& i) {
        for (const auto& e : exception_entries())
            if (e.start <= i.offset && i.offset < e.end) return is_async_for_end(e.target) ? int64_t(e.target) : -1;
        return -1;
    }

    const std::vector<ExceptionTableEntry>& exception_entries() {
        if (!entries_) entries_ = decode_exception_table(code_);
        return *entries_;
    }

    void async_for_next(const Instruction& i, int64_t end_offset) {
        using O = Opcode;
        size_t anext = i.op == O::GET_ANEXT ? i_ : next_real(i_ + 1);
        size_t end = end_offset >= 0 && anext < ins_.size() && ins_[anext].op == O::GET_ANEXT ? delegation_end(anext) : 0;
        if (end && i.op == O::SETUP_FINALLY) {
            size_t pop_block = next_real(end + 1);
            end = pop_block < ins_.size() && ins_[pop_block].op == O::POP_BLOCK && !jump_targets_.count(ins_[pop_block].offset) ? pop_block : 0;
        }
        if (!end) return unsupported(i);
        size_t after = next_real(existing_index_at(end_offset) + 1);
        if (after >= ins_.size()) return unsupported(i);
        int64_t exit = ins_[after].offset;
        // 3.12+ may lay END_ASYNC_FOR out of line, followed by a jump to the code after the loop.
        // That jump is then reached by nothing else and is dropped.
        for (int hops = 0; hops < 8 && index_at(exit) != ins_.size(); ++hops) {
            const Instruction& next = ins_[index_at(exit)];
            if (next.op != O::JUMP_FORWARD && next.op != O::JUMP_BACKWARD && next.op != O::JUMP_ABSOLUTE &&
                next.op != O::JUMP_BACKWARD_NO_INTERRUPT)
                break;
            if (hops == 0 && !jump_targets_.count(next.offset)) dead_jumps_.insert(next.offset);
            exit = next.jump_target;
        }
        NeutralOp& op = emit(N::ForIter);
        op.arg = 1;
        op.target = exit;
        async_for_ends_.insert(end_offset);
        i_ = end;
    }

    // 3.12+: `CLEANUP_THROW; JUMP_BACKWARD exit`, the handler a send loop's YIELD_VALUE has for
    // an exception thrown into the delegation; it is part of the collapsed delegation.
    bool skip_cleanup_throw() {
        size_t back = next_real(i_ + 1);
        if (back >= ins_.size() || (ins_[back].op != Opcode::JUMP_BACKWARD && ins_[back].op != Opcode::JUMP_BACKWARD_NO_INTERRUPT) ||
            !delegation_exits_.count(ins_[back].jump_target) || jump_targets_.count(ins_[back].offset))
            return false;
        i_ = back;
        return true;
    }

    // BINARY_ADD, INPLACE_ADD, ... before 3.11's BINARY_OP.
    bool legacy_binary_op(const Instruction& i) {
        std::string name = opname(i);
        bool inplace = name.rfind("INPLACE_", 0) == 0;
        if (!inplace && name.rfind("BINARY_", 0) != 0) return false;
        auto it = legacy_binary_ops().find(name.substr(inplace ? 8 : 7));
        if (it == legacy_binary_ops().end()) return false;
        NeutralOp& op = emit(N::BinaryOp);
        op.name = it->second;
        op.inplace = inplace;
        return true;
    }

    NeutralOp& emit_call(N kind, int64_t argc, uint8_t slots) {
        NeutralOp& op = emit(kind);
        op.arg = argc;
        op.call_slots = slots;
        op.null_first = traits_.null_before_callable;
        return op;
    }

    static int conversion_of(int64_t which) {
        static const int conversions[] = {-1, 's', 'r', 'a'};
        return which >= 0 && which < 4 ? conversions[which] : -1;
    }

    void intrinsic(const Instruction& i) {
        std::string what = size_t(i.arg) < table_.intrinsic_1.size() ? table_.intrinsic_1[i.arg] : "";
        if (what == "INTRINSIC_UNARY_POSITIVE") emit_named(N::UnaryOp, "+");
        else if (what == "INTRINSIC_LIST_TO_TUPLE") emit(N::ListToTuple);
        else if (what == "INTRINSIC_STOPITERATION_ERROR") emit(N::StopIterationError);
        else if (what == "INTRINSIC_TYPEALIAS" && !out_.empty() && out_.back().kind == N::BuildTuple && out_.back().arg == 3)
            out_.back().kind = N::TypeAlias;  // its argument tuple is no value of the source's
        else if (NeutralOp op; type_param_op(what, op)) emit_type_param_op(op);
        else if (what == "INTRINSIC_ASYNC_GEN_WRAP") return;  // as ASYNC_GEN_WRAP (3.11)
        else if (what == "INTRINSIC_IMPORT_STAR") {
            emit(N::ImportStar);
            emit(N::PushNull);  // the intrinsic's result, which a POP_TOP discards
        }
        else emit_named(N::Unsupported, "CALL_INTRINSIC_1 " + what);
    }

    const CodeObject& code_;
    const std::vector<Instruction>& ins_;
    const OpcodeTable& table_;
    VersionTraits traits_;
    OffsetSet jump_targets_;
    std::vector<uint32_t> swapped_out_slots_;  // LOAD_FAST_AND_CLEAR's slots
    // Before 3.11: what each handler is, where except clauses start (their DUP_TOP is dropped),
    // where the exception's three values are popped, which re-raises end a name clean-up.
    std::map<int64_t, HandlerRole> handler_roles_;
    std::set<int64_t> clause_starts_, triple_pops_, cleanup_reraises_;
    std::set<int64_t> delegation_exits_;  // END_SEND of each collapsed send loop (3.12+)
    std::set<int64_t> async_for_ends_;    // END_ASYNC_FOR of each async for loop
    std::set<int64_t> dead_jumps_;        // jumps right after an END_ASYNC_FOR, folded into its exit
    std::optional<std::vector<ExceptionTableEntry>> entries_;
    bool pending_exception_match_ = false;
    std::vector<NeutralOp> out_;
    ObjectRef pending_kwnames_;
    size_t i_ = 0;
};

}  // namespace

std::vector<NeutralOp> normalize(const CodeObject& code, const std::vector<Instruction>& instructions,
                                 const OpcodeTable& table) {
    return Normalizer(code, instructions, table).run();
}

bool keeps_dead_code(PyVersion version) { return version < PyVersion{3, 10}; }

int with_pops_after_suppression(PyVersion version) { return version >= PyVersion{3, 11} ? 2 : 1; }

bool copies_exit_blocks(PyVersion version) { return version >= PyVersion{3, 10}; }

bool compiles_else_after_clauses(PyVersion version) { return version < PyVersion{3, 11}; }

bool asserts_load_global(PyVersion version) { return version < PyVersion{3, 9}; }

bool passes_kwargs_display_as_is(PyVersion version) { return version < PyVersion{3, 9}; }

bool repeats_while_test(PyVersion version) { return version >= PyVersion{3, 10}; }

bool threads_comprehension_jumps_by_line(PyVersion version) { return version == PyVersion{3, 12}; }

bool keeps_loop_test_constant(PyVersion version) { return version >= PyVersion{3, 10} && version < PyVersion{3, 12}; }

}  // namespace uncompile
