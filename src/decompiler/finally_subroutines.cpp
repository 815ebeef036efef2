#include "finally_subroutines.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

namespace uncompile {

namespace {

bool is_finally_marker(N kind) {
    return kind == N::BeginFinally || kind == N::CallFinally || kind == N::PopFinally || kind == N::EndFinally ||
           kind == N::WithCleanupStart || kind == N::WithCleanupFinish;
}

const char* marker_name(N kind) {
    switch (kind) {
    case N::BeginFinally: return "BEGIN_FINALLY";
    case N::CallFinally: return "CALL_FINALLY";
    case N::PopFinally: return "POP_FINALLY";
    case N::EndFinally: return "END_FINALLY";
    case N::WithCleanupStart: return "WITH_CLEANUP_START";
    default: return "WITH_CLEANUP_FINISH";
    }
}

// What the code at a SETUP_FINALLY / SETUP_WITH target is.
enum class Role { Finally, NameCleanup, With };

constexpr size_t kNone = size_t(-1);

class FinallyPass {
public:
    explicit FinallyPass(std::vector<NeutralOp>& ops) : ops_(ops) {}

    void run() {
        if (std::none_of(ops_.begin(), ops_.end(), [](const NeutralOp& op) { return is_finally_marker(op.kind); })) return;
        renumber_initial();
        fold_with_exits();
        // Innermost first: a body is copied only once no subroutine is left inside it.
        for (bool progress = true; progress;) {
            progress = false;
            for (size_t i = 0; i < ops_.size() && !progress; ++i)
                if (ops_[i].kind == N::SetupFinally || ops_[i].kind == N::SetupWith) progress = rewrite(i);
        }
        drop_dead_code();
        for (auto& op : ops_)
            if (is_finally_marker(op.kind)) {
                op.name = marker_name(op.kind);
                op.kind = N::Unsupported;
            }
        renumber();
    }

private:
    // ------------------------------------------------------------------ offsets
    // Every op gets an offset of its own (a translated instruction may have become several ops),
    // so that copies can be told apart; a jump names the first op of its target instruction.
    void renumber_initial() {
        std::vector<uint32_t> old(ops_.size());
        for (size_t i = 0; i < ops_.size(); ++i) old[i] = ops_[i].offset;
        auto new_offset = [&](int64_t target) -> int64_t {
            size_t k = size_t(std::lower_bound(old.begin(), old.end(), target, [](uint32_t o, int64_t t) { return int64_t(o) < t; }) -
                              old.begin());
            return offset_of_index(k);
        };
        for (auto& op : ops_)
            if (op.target >= 0) op.target = new_offset(op.target);
        for (size_t i = 0; i < ops_.size(); ++i) ops_[i].offset = uint32_t(offset_of_index(i));
        end_offset_ = offset_of_index(ops_.size());
        next_offset_ = end_offset_ + 2;
        note_targets();
    }

    // After a rewrite: increasing offsets again, every target still naming the same op.
    void renumber() {
        // Old offset -> index of the first op there (a copy keeps its original's offset until
        // now; the original, first, is the one jumps name), or the end of the code. Offsets are
        // even and below next_offset_ (renumbered ones, then fresh ones): an array indexed by
        // offset / 2, not a hash map (a node allocation per op, per rewrite) nor a sort.
        constexpr size_t kNoOp = size_t(-1);
        std::vector<size_t> index_at(size_t(next_offset_ / 2) + 1, kNoOp);
        auto slot = [&](int64_t offset) -> size_t* {
            if (offset < 0 || offset % 2 != 0 || size_t(offset / 2) >= index_at.size()) return nullptr;
            return &index_at[size_t(offset / 2)];
        };
        for (size_t i = 0; i < ops_.size(); ++i)
            if (size_t* at = slot(ops_[i].offset); at && *at == kNoOp) *at = i;
        if (size_t* at = slot(end_offset_); at && *at == kNoOp) *at = ops_.size();  // (an op's own offset wins)
        auto renumbered = [&](int64_t offset) -> std::optional<int64_t> {
            const size_t* at = slot(offset);
            if (!at || *at == kNoOp) return std::nullopt;
            return offset_of_index(*at);
        };
        for (std::set<int64_t>* offsets : {&done_, &handler_ends_}) {
            std::set<int64_t> now_at;
            for (int64_t offset : *offsets)
                if (auto now = renumbered(offset)) now_at.insert(*now);
            *offsets = std::move(now_at);
        }
        for (auto& op : ops_) {
            if (op.target < 0) continue;
            if (auto now = renumbered(op.target)) {
                op.target = *now;
            } else {
                op.kind = N::Unsupported;
                op.name = "a jump into a copied finally body";
            }
        }
        for (size_t i = 0; i < ops_.size(); ++i) ops_[i].offset = uint32_t(offset_of_index(i));
        end_offset_ = offset_of_index(ops_.size());
        next_offset_ = end_offset_ + 2;
        note_targets();
    }

    static int64_t offset_of_index(size_t i) { return int64_t(2 * i); }

    size_t index_of(int64_t offset) const {
        auto it = std::lower_bound(ops_.begin(), ops_.end(), offset,
                                   [](const NeutralOp& op, int64_t off) { return int64_t(op.offset) < off; });
        return it != ops_.end() && int64_t(it->offset) == offset ? size_t(it - ops_.begin()) : kNone;
    }

    // Every rewrite ends in a renumbering, which takes note of the jump targets anew: is_target is
    // asked for most ops of each finally body, so a scan of the whole code each time was quadratic.
    void note_targets() {
        targets_.clear();
        for (const auto& op : ops_)
            if (op.target >= 0) targets_.push_back(op.target);
        std::sort(targets_.begin(), targets_.end());
    }

    bool is_target(int64_t offset) const { return std::binary_search(targets_.begin(), targets_.end(), offset); }

    // Where a jump to `offset` ends up once the peephole optimizer has threaded it through
    // unconditional jumps, as it does for the jumps of 3.9's copies.
    int64_t threaded(int64_t offset) const {
        for (int steps = 0; steps < 16; ++steps) {
            size_t k = index_of(offset);
            if (k == kNone || ops_[k].kind != N::Jump) break;
            offset = ops_[k].target;
        }
        return offset;
    }

    NeutralOp fresh(N kind, const NeutralOp& like) {
        NeutralOp op;
        op.kind = kind;
        op.line = like.line;
        op.offset = uint32_t(next_offset_);
        next_offset_ += 2;
        return op;
    }

    // Where the markers left are all in code nothing reaches (statements after a return, which 3.8
    // compiles all the same, a with or try statement among them), that code goes: it has no
    // subroutine to rewrite, and nothing of it is printed.
    void drop_dead_code() {
        std::vector<bool> live(ops_.size(), false);
        std::vector<size_t> work = {0};
        while (!work.empty()) {
            size_t i = work.back();
            work.pop_back();
            if (i >= ops_.size() || live[i]) continue;
            live[i] = true;
            const NeutralOp& op = ops_[i];
            if (op.target >= 0) work.push_back(index_of(op.target));
            if (op.kind != N::Jump && op.kind != N::Return && op.kind != N::Raise && op.kind != N::Reraise) work.push_back(i + 1);
        }
        bool dead_markers = false;
        for (size_t i = 0; i < ops_.size(); ++i) {
            if (!is_finally_marker(ops_[i].kind)) continue;
            if (live[i]) return;
            dead_markers = true;
        }
        if (!dead_markers) return;
        for (size_t i = 0; i < ops_.size(); ++i)
            if (!live[i]) {
                ops_[i].kind = N::Nop;
                ops_[i].target = -1;
            }
    }

    // ------------------------------------------------------------------ with statements
    // LOAD_CONST None; DUP_TOP; DUP_TOP; CALL_FUNCTION 3; POP_TOP: 3.9's __exit__ call on the way out
    // (an async with's awaits __aexit__'s result first: `await_op`, the await of 3.8's copy).
    std::vector<NeutralOp> exit_call(const NeutralOp& like, const NeutralOp* await_op = nullptr) {
        std::vector<NeutralOp> out;
        out.push_back(fresh(N::LoadConst, like));
        out.back().value = std::make_shared<PyValue>();
        out.push_back(fresh(N::Copy, like));
        out.back().arg = 1;
        out.push_back(fresh(N::Copy, like));
        out.back().arg = 1;
        out.push_back(fresh(N::Call, like));
        out.back().arg = 3;
        out.back().call_slots = 1;
        if (await_op) {
            out.push_back(*await_op);  // (its fields, with an offset of its own)
            out.back().offset = fresh(N::Await, like).offset;
        }
        out.push_back(fresh(N::Pop, like));
        return out;
    }

    // Whether ops_[i] is WITH_CLEANUP_START's await of __aexit__'s result (an async with's).
    bool is_exit_await(size_t i) const { return i < ops_.size() && ops_[i].kind == N::Await && !is_target(ops_[i].offset); }

    // return / break / continue inside a with body: BEGIN_FINALLY; WITH_CLEANUP_START; [await;]
    // WITH_CLEANUP_FINISH; POP_FINALLY 0 run __exit__ in place.
    void fold_with_exits() {
        std::vector<NeutralOp> out;
        for (size_t i = 0; i < ops_.size(); ++i) {
            const size_t awaited = is_exit_await(i + 2) ? 1 : 0;
            bool idiom = i + 3 + awaited < ops_.size() && ops_[i].kind == N::BeginFinally && ops_[i + 1].kind == N::WithCleanupStart &&
                         ops_[i + 2 + awaited].kind == N::WithCleanupFinish && ops_[i + 3 + awaited].kind == N::PopFinally &&
                         ops_[i + 3 + awaited].arg == 0;
            for (size_t k = 1; idiom && k <= 3 + awaited; ++k) idiom = !is_target(ops_[i + k].offset);
            if (!idiom) {
                out.push_back(std::move(ops_[i]));
                continue;
            }
            std::vector<NeutralOp> call = exit_call(ops_[i], awaited ? &ops_[i + 2] : nullptr);
            call.front().offset = ops_[i].offset;  // jumps to the BEGIN_FINALLY now reach the call
            out.insert(out.end(), call.begin(), call.end());
            i += 3 + awaited;
        }
        ops_ = std::move(out);
        renumber();
    }

    // ------------------------------------------------------------------ one subroutine
    bool rewrite(size_t at) {
        const NeutralOp& setup = ops_[at];
        if (done_.count(setup.offset)) return false;
        Role role = setup.kind == N::SetupWith ? Role::With : setup.handler_lasti ? Role::NameCleanup : Role::Finally;
        size_t entry = index_of(setup.target);
        if (entry == kNone) return false;
        size_t start = ops_[entry].kind == N::PushExcInfo ? entry + 1 : entry;
        return role == Role::With ? rewrite_with(entry, start) : rewrite_finally(role, at, entry, start);
    }

    // A finally body: the END_FINALLY that ends it, and its ways out by return / break / continue:
    // `POP_FINALLY k; [ROT_TWO]; POP_TOP` (k = 1 keeps a returned value above what it pops), then the
    // enclosing statements' own ways out (outer finally bodies' POP_FINALLY among them) and the
    // return or jump. 3.8 then compiles a placeholder value below the statement (LOAD_CONST None
    // before SETUP_FINALLY, POP_TOP after END_FINALLY) that the last POP_TOP pops.
    struct Body {
        size_t end = kNone;
        std::vector<size_t> exits;        // the body's own POP_FINALLY ops
        std::vector<size_t> outer_exits;  // POP_FINALLY ops of enclosing finally bodies on those ways out
    };

    static constexpr int kLeaving = -1000;  // depth of the ops after one of the body's own POP_FINALLY ops

    // The depth at which body_end reached each op: a flat array rather than a map (body_end runs for
    // every finally statement, over its whole body: node allocations dominated 3.8's large functions).
    class Seen {
    public:
        explicit Seen(size_t n) : depth_(n, kUnseen) {}
        std::optional<int> find(size_t i) const {
            return i < depth_.size() && depth_[i] != kUnseen ? std::optional<int>(depth_[i]) : std::nullopt;
        }
        void set(size_t i, int depth) {
            if (depth_[i] == kUnseen) last_ = any_ ? std::max(last_, i) : i;
            any_ = true;
            depth_[i] = depth;
        }
        bool empty() const { return !any_; }
        size_t last() const { return last_; }  // the highest op reached (when not empty)

    private:
        static constexpr int kUnseen = -0x7fffffff;
        std::vector<int> depth_;
        size_t last_ = 0;
        bool any_ = false;
    };

    // Follows the ways the body starting at `start` goes on normally: a BEGIN_FINALLY inside opens a
    // nested subroutine that its own END_FINALLY (or POP_FINALLY) closes; CALL_FINALLY returns to
    // the op after it. With `through_dead`, the code after a jump, return or raise (and after the re-raise
    // ending the handler of a finally body inside, rewritten already) is followed as well: a body
    // that never goes on ends where that code, which the compiler lays out all the same, goes on
    // (`finally: try: raise e finally: ...`, whose inner POP_BLOCK and normal-path copy follow the
    // raise), at its END_FINALLY, or at the one re-raise no jump reaches (normalize's for an
    // END_FINALLY after a return).
    Body body_end(size_t start, bool through_dead = false) const {
        Seen seen(ops_.size());
        std::vector<std::pair<size_t, int>> work = {{start, 0}};
        Body body;
        const Body none;
        std::set<size_t> dead_ends;  // (through_dead: re-raises no jump reaches)
        auto go = [&](int64_t target, int depth) {
            size_t k = index_of(target);
            work.emplace_back(k, k == kNone ? -1 : depth);
        };
        while (!work.empty()) {
            auto [i, depth] = work.back();
            work.pop_back();
            if (i == kNone || i < start || i >= ops_.size() || (depth < 0 && depth != kLeaving)) return none;
            if (auto was = seen.find(i)) {
                if (*was != depth) return none;
                continue;
            }
            seen.set(i, depth);
            const NeutralOp& op = ops_[i];
            if (depth == kLeaving) {
                if (!leaving_step(i, body, work, seen, through_dead)) return none;
                continue;
            }
            switch (op.kind) {
            case N::EndFinally:
                if (depth == 0) {
                    if (body.end != kNone && body.end != i) return none;
                    body.end = i;
                } else {
                    work.emplace_back(i + 1, depth - 1);
                }
                break;
            case N::BeginFinally: work.emplace_back(i + 1, depth + 1); break;
            case N::PopFinally:
                if (depth > 0) {
                    work.emplace_back(i + 1, depth - 1);
                    break;
                }
                if (!is_way_out(i)) return none;
                body.exits.push_back(i);
                for (size_t k = i + 1; k <= i + 1 + size_t(ops_[i].arg); ++k) seen.set(k, kLeaving);
                work.emplace_back(i + 2 + size_t(ops_[i].arg), kLeaving);
                break;
            case N::Jump:
                go(op.target, depth);
                if (through_dead && i + 1 < ops_.size()) work.emplace_back(i + 1, depth);
                break;
            // (The handlers of statements inside, rewritten already when they were finally bodies,
            // may leave the body: `return` in an except clause.)
            case N::JumpIf: case N::JumpIfOrPop: case N::ForIter: case N::SetupFinally: case N::SetupWith:
                go(op.target, depth);
                work.emplace_back(i + 1, depth);
                break;
            case N::Return: case N::Raise: case N::Reraise:
                if (!through_dead || i + 1 >= ops_.size()) break;
                if (op.kind != N::Reraise || handler_ends_.count(op.offset)) work.emplace_back(i + 1, depth);
                else if (depth == 0 && !is_target(op.offset)) dead_ends.insert(i);
                break;
            case N::Unsupported: break;
            default: work.emplace_back(i + 1, depth); break;
            }
        }
        if (body.end == kNone && !seen.empty() && !through_dead) {
            // A body that never ends normally (every way returns, breaks or raises): its
            // END_FINALLY, which nothing reaches (normalize made it a RERAISE), follows its last
            // op, and with ways out of its own, the placeholder's POP_TOP follows that.
            // (Code after the return, raise, break or continue that ends the body is dead but
            // compiled all the same: it lies between the last op reached and the END_FINALLY.)
            size_t last = seen.last(), k = dead_code_end(last + 1);
            bool at_end = k < ops_.size() && (k > last + 1 || !is_target(ops_[k].offset)) &&
                          (ops_[k].kind == N::EndFinally || (ops_[k].kind == N::Reraise && !handler_ends_.count(ops_[k].offset)));
            if (at_end && (body.exits.empty() || (k + 1 < ops_.size() && ops_[k + 1].kind == N::Pop))) body.end = k;
        }
        if (body.end == kNone && dead_ends.size() == 1) body.end = *dead_ends.begin();
        if (body.end == kNone) return none;
        if (seen.last() > body.end) return none;
        for (size_t i : body.outer_exits)
            if (std::find(body.exits.begin(), body.exits.end(), i) != body.exits.end()) return none;
        std::sort(body.exits.begin(), body.exits.end());
        return body;
    }

    // Past the dead code from op `from` up to the END_FINALLY after it: ops no jump from elsewhere
    // reaches (nor that END_FINALLY), with no block or subroutine of their own (`from` itself
    // when there is no such code).
    size_t dead_code_end(size_t from) const {
        size_t k = from;
        while (k < ops_.size() && ops_[k].kind != N::EndFinally && ops_[k].kind != N::Reraise && !is_finally_marker(ops_[k].kind) &&
               ops_[k].kind != N::SetupFinally && ops_[k].kind != N::SetupWith && ops_[k].kind != N::PopBlock)
            ++k;
        if (k == from || k >= ops_.size()) return from;
        // (A jump inside the dead code, an assert's, may reach it; one from elsewhere may not.)
        for (size_t j = 0; j < ops_.size(); ++j) {
            if (j >= from && j < k) continue;
            for (size_t d = from; d <= k; ++d)
                if (ops_[j].target == int64_t(ops_[d].offset)) return from;
        }
        return k;
    }

    // `POP_FINALLY k; [ROT_TWO]; POP_TOP`, entered only at its first op.
    bool is_way_out(size_t i) const {
        const size_t k = size_t(ops_[i].arg);
        if (k > 1 || i + 2 + k > ops_.size()) return false;
        if (k == 1 && (ops_[i + 1].kind != N::Swap || ops_[i + 1].arg != 2)) return false;
        if (ops_[i + 1 + k].kind != N::Pop) return false;
        for (size_t n = i + 1; n <= i + 1 + k; ++n)
            if (is_target(ops_[n].offset)) return false;
        return true;
    }

    // One op on a way out of the body after its POP_FINALLY: the enclosing statements' ways out
    // (copies of outer finally bodies among them: branches and loops inside) to a return, a raise
    // or the jump out of the body, which is not followed (`through_dead`, the body's code laid out
    // after that way out is). A jump back to an op of the way out (`seen`, body_end's) is a loop's.
    bool leaving_step(size_t i, Body& body, std::vector<std::pair<size_t, int>>& work, const Seen& seen,
                      bool through_dead) const {
        const NeutralOp& op = ops_[i];
        auto back_in_way_out = [&]() {
            auto to = seen.find(index_of(op.target));
            return op.target <= int64_t(op.offset) && to == kLeaving;
        };
        switch (op.kind) {
        case N::Return: case N::Raise: case N::Jump:
            if (through_dead && i + 1 < ops_.size() && !(op.kind == N::Jump && back_in_way_out())) work.emplace_back(i + 1, 0);
            return true;
        case N::PopFinally: body.outer_exits.push_back(i); break;
        case N::JumpIf: case N::JumpIfOrPop: case N::ForIter:
            if (back_in_way_out()) break;
            if (op.target <= int64_t(op.offset)) return false;
            if (size_t k = index_of(op.target); k != kNone) work.emplace_back(k, kLeaving);
            else return false;
            break;
        case N::BeginFinally: case N::CallFinally: case N::EndFinally: case N::WithCleanupStart:
        case N::WithCleanupFinish: case N::Reraise: case N::Unsupported:
            return false;
        default: break;
        }
        work.emplace_back(i + 1, kLeaving);
        return true;
    }

    // How a copy of the body leaves it where the source returns, breaks or continues inside it:
    // in the copy run on the way out of the try body (Inline), in the copy run by a return from the
    // try body, whose value waits below (KeepValue: 3.9 pops it, ROT_TWO; POP_TOP for a returned
    // value), or in the exception handler (Handler: 3.9 pops the exception, then POP_EXCEPT).
    enum class Exit { Inline, KeepValue, Handler };

    // What replaces `POP_FINALLY k; [ROT_TWO]; POP_TOP` (the placeholder's pop) in one copy; the
    // first op keeps the POP_FINALLY's offset, for the jumps that reach it.
    std::vector<NeutralOp> way_out(const NeutralOp& pop_finally, Exit how) {
        const bool keeps = pop_finally.arg == 1;
        std::vector<NeutralOp> out;
        auto add = [&](N kind, int64_t arg = 0) {
            out.push_back(fresh(kind, pop_finally));
            out.back().arg = arg;
        };
        switch (how) {
        case Exit::Inline: add(N::Nop); break;
        case Exit::KeepValue:
            add(N::Nop);
            if (keeps) add(N::Swap, 2);
            add(N::Pop);
            break;
        case Exit::Handler:
            if (keeps) add(N::Swap, 2);
            add(N::Pop);
            if (keeps) add(N::Swap, 2);
            add(N::PopExcept);
            break;
        }
        out.front().offset = pop_finally.offset;
        return out;
    }

    // Ops [start, end) with the body's ways out rewritten for `how`.
    std::vector<NeutralOp> with_ways_out(size_t start, size_t end, const Body& body, Exit how) {
        std::vector<NeutralOp> out;
        for (size_t i = start; i < end; ++i) {
            if (!std::binary_search(body.exits.begin(), body.exits.end(), i)) {
                out.push_back(ops_[i]);
                continue;
            }
            std::vector<NeutralOp> repl = way_out(ops_[i], how);
            out.insert(out.end(), repl.begin(), repl.end());
            i += 1 + size_t(ops_[i].arg);
        }
        return out;
    }

    // A copy of the body for `how`, with offsets of its own; jumps to `end` go to `exit` instead.
    std::vector<NeutralOp> copy_body(size_t start, size_t end, const Body& body, Exit how, int64_t exit) {
        std::vector<NeutralOp> src = with_ways_out(start, end, body, how);
        std::unordered_map<int64_t, int64_t> map;
        std::vector<NeutralOp> out;
        for (const NeutralOp& op : src) {
            out.push_back(op);
            out.back().offset = uint32_t(next_offset_);
            map[op.offset] = next_offset_;
            next_offset_ += 2;
        }
        for (auto& op : out) {
            if (op.target < 0) continue;
            if (op.target == int64_t(ops_[end].offset)) op.target = exit;
            else if (auto it = map.find(op.target); it != map.end()) op.target = it->second;
        }
        return out;
    }

    // The copy's first op takes the offset of `op`, which it replaces; the copy's own jumps to
    // that op (the back edge of a loop that starts the finally body) go there too.
    static void take_place_of(std::vector<NeutralOp>& copy, const NeutralOp& op) {
        const int64_t was = copy.front().offset;
        for (auto& c : copy)
            if (c.target == was) c.target = op.offset;
        copy.front().offset = op.offset;
    }

    static bool falls_through(const std::vector<NeutralOp>& ops) {
        if (ops.empty()) return true;
        N k = ops.back().kind;
        return k != N::Jump && k != N::Return && k != N::Raise && k != N::Reraise;
    }

    bool is_none_const(size_t i) const {
        return ops_[i].kind == N::LoadConst && ops_[i].value && ops_[i].value->kind == PyValue::Kind::None;
    }

    bool rewrite_finally(Role role, size_t setup, size_t entry, size_t start) {
        // (A subroutine inside goes first.)
        auto alone = [&](const Body& b) {
            for (size_t i = start; i < b.end; ++i) {
                bool own = std::binary_search(b.exits.begin(), b.exits.end(), i) ||
                           std::find(b.outer_exits.begin(), b.outer_exits.end(), i) != b.outer_exits.end();
                if (is_finally_marker(ops_[i].kind) && !own) return false;
            }
            return true;
        };
        // (Through dead code too where the ways out are not all found: a `return` after a `break`.)
        Body body = body_end(start);
        if (body.end == kNone || !alone(body)) body = body_end(start, true);
        const size_t end = body.end;
        if (end == kNone || end + 1 >= ops_.size() || !alone(body)) return false;
        const int64_t entry_offset = ops_[entry].offset;
        // A body with ways out of its own has 3.8's placeholder around the statement; 3.9 has none.
        std::vector<bool> drop(ops_.size(), false);
        const bool placeholder = !body.exits.empty();
        if (placeholder) {
            if (role != Role::Finally || setup == 0 || !is_none_const(setup - 1) || is_target(ops_[setup].offset)) return false;
            if (end + 1 >= ops_.size() || ops_[end + 1].kind != N::Pop || is_target(ops_[end + 1].offset)) return false;
            drop[end + 1] = true;
            if (is_target(ops_[setup - 1].offset)) ops_[setup - 1].kind = N::Nop;
            else drop[setup - 1] = true;
        }
        // Each CALL_FINALLY from the try body, and how its copy leaves the body.
        std::map<size_t, Exit> calls;
        for (size_t i = 0; i < ops_.size(); ++i) {
            if (ops_[i].kind != N::CallFinally || ops_[i].target != entry_offset) continue;
            calls[i] = Exit::Inline;
            if (!placeholder) continue;
            // return value: POP_BLOCK; ROT_TWO; POP_TOP (the placeholder); CALL_FINALLY
            // otherwise:    POP_BLOCK; CALL_FINALLY; POP_TOP (the placeholder)
            if (i >= 2 && ops_[i - 1].kind == N::Pop && ops_[i - 2].kind == N::Swap && ops_[i - 2].arg == 2 &&
                !is_target(ops_[i - 1].offset) && !is_target(ops_[i - 2].offset) && !is_target(ops_[i].offset)) {
                calls[i] = Exit::KeepValue;
                drop[i - 1] = drop[i - 2] = true;
            } else if (i + 2 < ops_.size() && ops_[i + 1].kind == N::Pop && !is_target(ops_[i + 1].offset)) {
                drop[i + 1] = true;
            } else {
                return false;
            }
        }
        const size_t after = placeholder ? end + 2 : end + 1;
        bool normal_entry = entry > 0 && ops_[entry - 1].kind == N::BeginFinally;
        // `except ... as name`: the clause's POP_EXCEPT (and its jump out) follow the END_FINALLY;
        // 3.9 pops the exception before unbinding the name.
        size_t drop_from = end + 1, drop_to = end + 1;
        int64_t normal_exit = after < ops_.size() ? threaded(ops_[after].offset) : end_offset_;
        if (role == Role::NameCleanup) {
            if (ops_[end + 1].kind != N::PopExcept || is_target(ops_[end + 1].offset)) return false;
            drop_to = end + 2;
            normal_exit = end + 2 < ops_.size() ? ops_[end + 2].offset : -1;
            if (end + 2 < ops_.size() && ops_[end + 2].kind == N::Jump && !is_target(ops_[end + 2].offset)) {
                normal_exit = threaded(ops_[end + 2].target);
                drop_to = end + 3;
            }
            if (normal_exit < 0) return false;
        }
        done_.insert(ops_[setup].offset);
        std::vector<NeutralOp> out;
        out.reserve(ops_.size());
        for (size_t i = 0; i < ops_.size(); ++i) {
            const NeutralOp& op = ops_[i];
            if ((i >= drop_from && i < drop_to) || drop[i]) continue;
            if (normal_entry && i == entry - 1) {
                std::vector<NeutralOp> copy;
                if (role == Role::NameCleanup) copy.push_back(fresh(N::PopExcept, op));
                std::vector<NeutralOp> body_copy = copy_body(start, end, body, Exit::Inline, normal_exit);
                copy.insert(copy.end(), body_copy.begin(), body_copy.end());
                if (falls_through(copy)) {
                    copy.push_back(fresh(N::Jump, op));
                    copy.back().target = normal_exit;
                }
                take_place_of(copy, op);  // jumps to the BEGIN_FINALLY reach the copy
                out.insert(out.end(), copy.begin(), copy.end());
                continue;
            }
            if (auto call = calls.find(i); call != calls.end()) {
                size_t next = i + 1 < ops_.size() && drop[i + 1] ? i + 2 : i + 1;
                int64_t back = next < ops_.size() ? threaded(ops_[next].offset) : -1;
                std::vector<NeutralOp> copy = copy_body(start, end, body, call->second, back);
                if (copy.empty()) {
                    copy.push_back(fresh(N::Nop, op));
                }
                take_place_of(copy, op);
                out.insert(out.end(), copy.begin(), copy.end());
                continue;
            }
            if (i == start && !body.exits.empty()) {
                std::vector<NeutralOp> handler = with_ways_out(start, end, body, Exit::Handler);
                out.insert(out.end(), handler.begin(), handler.end());
                i = end - 1;
                continue;
            }
            out.push_back(op);
            if (i == end) {
                handler_ends_.insert(op.offset);
                out.back().kind = N::Reraise;
                out.back().arg = role == Role::NameCleanup ? 1 : 0;
            }
        }
        ops_ = std::move(out);
        renumber();
        return true;
    }

    // WITH_CLEANUP_START; [await;] WITH_CLEANUP_FINISH; END_FINALLY at the handler of a SETUP_WITH
    // (SETUP_ASYNC_WITH: awaiting __aexit__'s result).
    bool rewrite_with(size_t entry, size_t start) {
        const size_t awaited = is_exit_await(start + 1) ? 1 : 0;
        const size_t finish = start + 1 + awaited, end_finally = finish + 1;
        if (end_finally + 1 >= ops_.size() || ops_[start].kind != N::WithCleanupStart || ops_[finish].kind != N::WithCleanupFinish ||
            ops_[end_finally].kind != N::EndFinally)
            return false;
        if (is_target(ops_[finish].offset) || is_target(ops_[end_finally].offset)) return false;
        const int64_t after = threaded(ops_[end_finally + 1].offset);
        bool normal_entry = entry > 0 && ops_[entry - 1].kind == N::BeginFinally;
        const NeutralOp* await_op = awaited ? &ops_[start + 1] : nullptr;
        std::vector<NeutralOp> out;
        out.reserve(ops_.size() + 9);
        for (size_t i = 0; i < ops_.size(); ++i) {
            const NeutralOp& op = ops_[i];
            if (normal_entry && i == entry - 1) {
                std::vector<NeutralOp> call = exit_call(op, await_op);
                call.push_back(fresh(N::Jump, op));
                call.back().target = after;
                call.front().offset = op.offset;
                out.insert(out.end(), call.begin(), call.end());
            } else if (i == start) {
                out.push_back(op);
                out.back().kind = N::WithExceptStart;
            } else if (i == finish) {
                // __exit__'s result: true swallows the exception, false re-raises it.
                out.push_back(op);
                out.back().kind = N::JumpIf;
                out.back().condition = JumpCondition::IfTrue;
                out.back().target = ops_[end_finally].offset;
                out.push_back(fresh(N::Reraise, op));
            } else if (i == end_finally) {
                NeutralOp exc = op;  // the exception, then the previous one (POP_EXCEPT), then __exit__
                exc.kind = N::Pop;
                out.push_back(exc);
                out.push_back(fresh(N::PopExcept, op));
                out.push_back(fresh(N::Pop, op));
            } else {
                out.push_back(op);
            }
        }
        ops_ = std::move(out);
        renumber();
        return true;
    }

    std::vector<NeutralOp>& ops_;
    int64_t next_offset_ = 0;  // for ops made by a rewrite, until the next renumbering
    int64_t end_offset_ = 0;   // one past the last op
    // SETUP_FINALLY ops whose body is rewritten already: its handler still ends as a body does.
    std::set<int64_t> done_;
    // The re-raises that end those bodies' handlers (not the end of a body around them).
    std::set<int64_t> handler_ends_;
    std::vector<int64_t> targets_;  // the offsets jumps name, sorted (note_targets)
};

}  // namespace

void inline_finally_subroutines(std::vector<NeutralOp>& ops) { FinallyPass(ops).run(); }

}  // namespace uncompile
