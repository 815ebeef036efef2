#include "match_decoder.h"

#include <algorithm>
#include <map>
#include <string>

#include "block_stack.h"
#include "core/value_format.h"

namespace uncompile {

namespace {

using namespace ast;

// What the pattern requires of one part of the subject.
struct Slot {
    enum class Kind { Any, Value, Singleton, Sequence, Mapping, Class, Or } kind = Kind::Any;
    std::string name;         // the name it is captured as
    std::vector<std::string> outer_names;  // names of enclosing as-patterns, innermost first
    ExprPtr value;            // Value: compared with ==
    ObjectRef constant;       // Singleton: compared with `is`
    bool type_checked = false;  // MATCH_SEQUENCE / MATCH_MAPPING passed; a class's attributes are not None
    int64_t len_eq = -1, len_ge = -1;
    // Sequence: unpacked (size, star position) or taken apart by subscripts (front index / offset
    // from the end -> part), the form the compiler uses when the star is `*_`.
    int64_t size = -1, star = -1;
    std::map<int64_t, int> parts, front, back;  // parts: unpacked elements, class attributes, mapping values
    // Mapping.
    bool has_keys = false, keys_checked = false, rest_built = false;
    std::vector<ExprPtr> keys;
    std::string rest;
    int64_t deleted = 0;
    // Class.
    ExprPtr cls;
    int64_t nargs = 0;
    std::vector<std::string> kwd_attrs;
    std::vector<int> alternative_slots;  // Or: each alternative's slot
    // A value an or-pattern captured: the captured slot of each alternative, which its store names.
    std::vector<int> stands_for;
};

// A value on the symbolic stack while a pattern runs.
struct Item {
    enum class Kind { Part, Expr, Test, Len, LenMinus, Attrs, Values, Keys, KeyItem, EmptyDict, Rest } kind = Kind::Expr;
    enum class Test { IsSequence, IsMapping, LenEq, LenGe, Value, Singleton, NotNone };
    int slot = -1;
    ExprPtr expr;
    Test test = Test::Value;
    int64_t n = 0;
    bool of_values = false;  // NotNone: of a mapping's values (else of a class's attributes)
};

// Where a failed test goes: pops all items above `base`, then continues at `cont`.
struct Failure {
    size_t base = 0;
    int64_t cont = -1;
    bool dropped = false;  // the code there starts with an instruction the normalizer dropped
    int64_t dropped_at = -1;  // ...at this offset
};

bool is_const(const ExprPtr& e, PyValue::Kind kind) {
    return e && e->kind == ExprKind::Constant && e->constant && e->constant->kind == kind;
}

// A dotted name `a.b.c` (a value pattern, a class, a mapping key).
bool is_dotted(const ExprPtr& e, bool allow_plain_name) {
    if (!e) return false;
    if (e->kind == ExprKind::Name) return allow_plain_name;
    return e->kind == ExprKind::Attribute && is_dotted(e->value, true);
}

// A literal a pattern may hold: numbers (signed, complex), strings, bytes.
bool is_literal(const ExprPtr& e) {
    using K = PyValue::Kind;
    if (!e || e->kind != ExprKind::Constant || !e->constant) return false;
    switch (e->constant->kind) {
    case K::Int: case K::Float: case K::Complex: case K::Str: case K::Bytes: return true;
    default: return false;
    }
}

bool same_value(const ObjectRef& a, const ObjectRef& b) {
    if (!a || !b) return !a && !b;
    return a->kind == b->kind && value_repr(*a) == value_repr(*b);
}

bool same_op(const NeutralOp& a, const NeutralOp& b) {
    return a.kind == b.kind && a.arg == b.arg && a.name == b.name && a.scope == b.scope && a.condition == b.condition &&
           a.target == b.target && a.kwnames == b.kwnames && a.inplace == b.inplace && a.call_slots == b.call_slots &&
           a.null_first == b.null_first && a.conversion == b.conversion && a.with_qualname == b.with_qualname &&
           a.handler == b.handler && same_value(a.value, b.value);
}

class Decoder {
public:
    explicit Decoder(const std::vector<NeutralOp>& ops) : ops_(ops) {}

    std::optional<MatchShape> decode(size_t start) {
        auto best = cases_from(start, true);
        if (!best) return std::nullopt;
        if (best->cases.size() == 1 && !best->structural) return std::nullopt;  // an `if` says the same
        MatchShape shape;
        shape.cases = std::move(best->cases);
        shape.consumed = std::move(best->consumed);
        return shape;
    }

    // Where a guard whose last jump is op `j` (a POP_TOP after it) starts, the value under it a
    // subject: the earliest op from which guard_end reads that guard (nullopt: none).
    std::optional<size_t> guard_start(size_t j) const {
        if (j + 1 >= ops_.size() || ops_[j].kind != N::JumpIf || ops_[j + 1].kind != N::Pop) return std::nullopt;
        // Back from the jump, the values still needed before each op (an op that pushes more than
        // the rest takes ends the walk); a start needs none.
        std::vector<size_t> starts;
        int need = 1;
        for (size_t m = j; m-- > 0 && j - m < 256;) {
            const NeutralOp& op = ops_[m];
            int pops = 0, pushes = 0;
            if (!guard_op(op, pops, pushes) || pushes > need) break;
            need += pops - pushes;
            if (need == 0) starts.push_back(m);
        }
        for (auto it = starts.rbegin(); it != starts.rend(); ++it)
            if (guard_end(*it) == j) return *it;
        return std::nullopt;
    }

private:
    struct Cases {
        std::vector<CaseShape> cases;
        std::set<size_t> consumed;
        bool structural = false;  // some pattern no `if` on the subject could say
        bool uses_subject = false;  // some case tests or binds the subject (not only `case _`)
    };

    // The cases from op `k` on. Each but the last keeps the subject; where the ops read both ways
    // (an or-pattern whose alternatives end the function reads like cases of their own), the reading
    // with fewer cases is the compiler's.
    std::optional<Cases> cases_from(size_t k, bool first) {
        if (!first)
            if (auto it = memo_.find(k); it != memo_.end()) return it->second;
        std::optional<Cases> best;
        if (k < ops_.size() && ops_[k].kind == N::Copy && ops_[k].arg == 1) {
            if (auto c = decode_case(k, true); c && c->shape.fail >= 0) {
                if (auto rest = cases_from(size_t(c->shape.fail), false)) {
                    best = std::move(*rest);
                    best->cases.insert(best->cases.begin(), c->shape);
                    best->consumed.insert(c->consumed.begin(), c->consumed.end());
                    best->structural = best->structural || c->structural;
                    best->uses_subject = true;
                }
            }
        }
        if (!best && !(k < ops_.size() && ops_[k].kind == N::Copy))
            if (auto c = guarded_wildcard(k)) {
                if (auto rest = cases_from(size_t(c->fail), false); rest && rest->uses_subject) {
                    best = std::move(*rest);
                    best->cases.insert(best->cases.begin(), *c);
                    return remember(k, first, best);
                }
            }
        if (auto c = decode_case(k, false)) {
            // After other cases, a final `case _` is compiled without a test (a NOP for its line): a
            // lone POP_TOP of the subject there is another construct's clean-up (an or-pattern's).
            const Pattern& p = *c->shape.pattern;
            bool bare_wildcard = p.kind == PatternKind::MatchAs && !p.pattern && p.name.empty();
            if (!(bare_wildcard && !first) && (!best || best->cases.size() > 1)) {
                best = Cases{{c->shape}, std::move(c->consumed), c->structural, !bare_wildcard};
            }
        }
        return remember(k, first, best);
    }

    std::optional<Cases> remember(size_t k, bool first, const std::optional<Cases>& cases) {
        if (!first) memo_[k] = cases;
        return cases;
    }

    // `case _ if guard:` before other cases, 3.12+: the compiler drops the wildcard's `COPY 1;
    // POP_TOP`, so the guard runs on the subject itself, which its success pops (the POP_TOP after
    // its last jump) and its failure leaves to the next case. Read only before a case that tests the
    // subject (a value kept below a test is no subject otherwise: a loop's iterator that a `break`
    // pops).
    std::optional<CaseShape> guarded_wildcard(size_t k) const {
        std::optional<size_t> last = guard_end(k);
        if (!last) return std::nullopt;
        CaseShape c;
        c.pattern = std::make_shared<Pattern>();  // _
        c.start = c.pattern_end = k;
        c.keeps_subject = true;
        c.fail = int64_t(index_at(ops_[*last].target));
        if (c.fail <= int64_t(*last)) return std::nullopt;
        return c;
    }

    // The values an op of a guard expression pops and pushes; false for ops no guard holds.
    static bool guard_op(const NeutralOp& op, int& pops, int& pushes) {
        switch (op.kind) {
        case N::JumpIf: case N::Store: pops = 1, pushes = 0; return true;
        case N::Copy: pops = 0, pushes = 1; return true;
        case N::Swap: pops = 0, pushes = 0; return true;
        case N::Load: case N::LoadConst: case N::PushNull: case N::LoadAttr: case N::UnaryOp: case N::BinaryOp:
        case N::Compare: case N::Subscr: case N::Call: case N::CallKw: case N::CallEx: case N::BuildTuple:
        case N::BuildList: case N::BuildSet: case N::BuildMap: case N::BuildConstKeyMap: case N::BuildString:
        case N::BuildSlice: case N::FormatValue: case N::ConvertValue: case N::ListToTuple: case N::ListAppend:
        case N::ListExtend: case N::SetAdd: case N::SetUpdate: case N::DictUpdate: case N::DictMerge:
        case N::MapAdd: case N::LoadSuperAttr: case N::BuildUnpack: {
            std::optional<int> effect = stack_effect(op);
            if (!effect) return false;
            pops = 1 - *effect, pushes = 1;
            return true;
        }
        default: return false;
        }
    }

    // The last jump of a guard that starts at op `k`: an expression (and/or of tests, walruses)
    // that never reaches below the value under it, whose last jump is followed by the POP_TOP of
    // that value, the others going where it goes or to that POP_TOP.
    std::optional<size_t> guard_end(size_t k) const {
        int depth = 0;
        std::vector<size_t> jumps;
        for (size_t j = k; j + 1 < ops_.size() && j < k + 256; ++j) {
            const NeutralOp& op = ops_[j];
            int pops = 0, pushes = 0;
            if (!guard_op(op, pops, pushes)) return std::nullopt;
            // (A store only as a walrus's, COPY 1; STORE; a shuffle only of the guard's own values.)
            if (op.kind == N::Store && (j == k || ops_[j - 1].kind != N::Copy || ops_[j - 1].arg != 1)) return std::nullopt;
            if ((op.kind == N::Copy || op.kind == N::Swap) && (op.arg < 1 || op.arg > depth)) return std::nullopt;
            if (pops > depth) return std::nullopt;
            depth += pushes - pops;
            if (op.kind != N::JumpIf) continue;
            if (depth == 0 && ops_[j + 1].kind == N::Pop) {
                size_t fail = index_at(op.target);
                for (size_t m : jumps) {
                    size_t to = index_at(ops_[m].target);
                    if (to != fail && to != j + 1) return std::nullopt;
                }
                return j;
            }
            if (depth != 0) return std::nullopt;
            jumps.push_back(j);
        }
        return std::nullopt;
    }

    struct DecodedCase {
        CaseShape shape;
        std::set<size_t> consumed;
        bool structural = false;
    };

    std::optional<DecodedCase> decode_case(size_t k, bool keeps) {
        slots_.clear();
        names_.clear();
        copied_.clear();
        stored_ = false;
        structural_ = false;
        consumed_.clear();
        CaseShape c;
        c.start = k;
        c.keeps_subject = keeps;
        if (keeps) consumed_.insert(k++);
        std::vector<Item> stack;
        stack.push_back(part(new_slot()));
        Failure failure;
        if (!run(k, stack, 0, failure)) return std::nullopt;
        PatternPtr pattern = build(0);
        if (!pattern) return std::nullopt;
        c.pattern = pattern;
        c.pattern_end = k;
        c.fail = failure.cont;
        c.default_marker = failure.dropped;
        c.dropped_at = failure.dropped_at;
        if (!keeps && c.default_marker && k < ops_.size() &&
            (c.fail == int64_t(k) || (ops_[k].kind == N::Jump && int64_t(index_at(ops_[k].target)) == c.fail))) {
            // The last case before a `case _` whose guard is always false: the matched case goes on
            // to the `case _` body too (a body of its own jumps past that).
            if (c.fail != int64_t(k)) consumed_.insert(k);
            c.dead_guard = true;
        }
        if (keeps) {
            if (k >= ops_.size()) return std::nullopt;
            // (A guard that is always false (`if False`): the compiler drops the body, and the
            // matched case goes on to the next one with the subject, as a failed one does. No guard
            // starts with a jump or a copy of the subject below it; a case starts with that copy.
            // Not after a pattern that cannot fail: `case x if False:` reads as `x = <next case>`,
            // a chained assignment.)
            bool next_case = c.fail == int64_t(k);
            int64_t jump_to = ops_[k].kind == N::Jump ? int64_t(index_at(ops_[k].target)) : -1;
            if (ops_[k].kind == N::Pop) {
                consumed_.insert(k);
            } else if (jump_to >= 0 && c.fail == jump_to) {
                consumed_.insert(k);
                c.dead_guard = true;
            } else if (next_case && ops_[k].kind == N::Copy && ops_[k].arg == 1) {
                c.dead_guard = true;
                c.fail = int64_t(k);
            } else {
                // A guard: its last jump is the one right before the subject is popped.
                // A guard is an expression: no statement's ops come before that jump.
                int64_t guard_fail = -1;
                for (size_t j = k; j + 1 < ops_.size(); ++j) {
                    N kind = ops_[j].kind;
                    if (kind == N::JumpIf && ops_[j + 1].kind == N::Pop) {
                        guard_fail = int64_t(index_at(ops_[j].target));
                        break;
                    }
                    bool walrus = kind == N::Store && j > k && ops_[j - 1].kind == N::Copy;
                    if ((kind == N::Store && !walrus) || kind == N::Pop || kind == N::Return || kind == N::Raise ||
                        kind == N::Reraise || kind == N::Delete || kind == N::StoreAttr || kind == N::StoreSubscr ||
                        kind == N::ForIter)
                        break;
                }
                if (guard_fail >= 0 && (c.fail < 0 || c.fail == guard_fail)) {
                    c.fail = guard_fail;
                } else if (next_case) {
                    // (The dead guard's case falls into the last case, which matches the subject itself.)
                    c.dead_guard = true;
                    c.fail = int64_t(k);
                } else {
                    return std::nullopt;
                }
            }
        }
        return DecodedCase{c, consumed_, structural_};
    }

    // ---------------------------------------------------------------- symbolic execution
    int new_slot() {
        slots_.emplace_back();
        return int(slots_.size()) - 1;
    }
    static Item part(int slot) {
        Item it;
        it.kind = Item::Kind::Part;
        it.slot = slot;
        return it;
    }
    static Item of(Item::Kind kind, int slot) {
        Item it;
        it.kind = kind;
        it.slot = slot;
        return it;
    }
    static Item expr_item(ExprPtr e) {
        Item it;
        it.kind = Item::Kind::Expr;
        it.expr = std::move(e);
        return it;
    }
    static Item test(Item::Test t, int slot) {
        Item it;
        it.kind = Item::Kind::Test;
        it.test = t;
        it.slot = slot;
        return it;
    }

    size_t index_at(int64_t offset) const {
        auto it = std::lower_bound(ops_.begin(), ops_.end(), offset,
                                   [](const NeutralOp& op, int64_t off) { return int64_t(op.offset) < off; });
        return size_t(it - ops_.begin());
    }

    // Whether jump `j` may need an EXTENDED_ARG (an argument past 255 code units, relative or absolute).
    static bool may_be_extended(const NeutralOp& j) {
        int64_t distance = j.target > int64_t(j.offset) ? j.target - int64_t(j.offset) : int64_t(j.offset) - j.target;
        return distance / 2 >= 255 || j.target / 2 >= 255;
    }

    // Follows a failed test's target through the POP_TOPs (and jumps) of the failure labels: it
    // must pop `pops` values; `cont` is where it goes on.
    bool walk_failure(int64_t target, size_t pops, size_t& cont, bool* dropped = nullptr, int64_t* dropped_at = nullptr) {
        size_t t = index_at(target);
        int64_t arrived = target;
        for (int steps = 0; steps < 256 && t < ops_.size(); ++steps) {
            // (Not a jump after a dropped instruction once nothing is left to pop, unless that may be
            // the jump's own EXTENDED_ARG: it is the NOP for the line of a final `case _:` whose
            // body is the jump, a `break` or `continue`.)
            if (ops_[t].kind == N::Jump && !(pops == 0 && int64_t(ops_[t].offset) != arrived && !may_be_extended(ops_[t]))) {
                consumed_.insert(t);
                arrived = ops_[t].target;
                t = index_at(arrived);
            } else if (pops > 0 && ops_[t].kind == N::Pop) {
                consumed_.insert(t);
                --pops;
                arrived = int64_t(ops_[t].offset) + 2;  // POP_TOP is one code unit
                ++t;
            } else {
                cont = t;
                if (dropped && int64_t(ops_[t].offset) != arrived) {
                    *dropped = true;
                    if (dropped_at) *dropped_at = arrived;
                }
                return pops == 0;
            }
        }
        return false;
    }

    bool check_failure(int64_t target, const std::vector<Item>& stack, Failure& f) {
        if (stored_) return false;  // captures are stored only once nothing can fail any more
        size_t cont = 0;
        if (!walk_failure(target, stack.size() - f.base, cont, &f.dropped, &f.dropped_at)) return false;
        if (f.cont >= 0 && size_t(f.cont) != cont) return false;
        f.cont = int64_t(cont);
        return true;
    }

    bool run(size_t& k, std::vector<Item>& stack, size_t floor, Failure& f) {
        while (stack.size() > floor) {
            if (k >= ops_.size()) return false;
            const NeutralOp& op = ops_[k];
            consumed_.insert(k);
            if (!step(op, k, stack, f)) return false;
        }
        return true;
    }

    bool step(const NeutralOp& op, size_t& k, std::vector<Item>& stack, Failure& f) {
        auto top_is = [&](Item::Kind kind) { return !stack.empty() && stack.back().kind == kind; };
        switch (op.kind) {
        case N::Copy:
            if (op.arg < 1 || size_t(op.arg) > stack.size()) return false;
            if (op.arg == 1 && top_is(Item::Kind::Part) && try_or(k, stack, f)) return true;
            if (stack[stack.size() - size_t(op.arg)].kind == Item::Kind::Part) copied_.insert(stack[stack.size() - size_t(op.arg)].slot);
            stack.push_back(stack[stack.size() - size_t(op.arg)]);
            break;
        case N::Swap:
            if (op.arg < 2 || size_t(op.arg) > stack.size()) return false;
            std::swap(stack.back(), stack[stack.size() - size_t(op.arg)]);
            break;
        case N::Pop:
            if (stack.empty()) return false;
            stack.pop_back();
            break;
        case N::Store: {
            if (stack.empty()) return false;
            Item it = stack.back();
            stack.pop_back();
            if (!names_.insert(op.name).second) return false;
            if (it.kind == Item::Kind::Part) {
                Slot& s = slots_[it.slot];
                // (A part stored twice is captured by nested as-patterns: the inner one is stored first.)
                if (!s.name.empty()) {
                    if (!s.stands_for.empty()) return false;
                    s.outer_names.push_back(op.name);
                    stored_ = true;
                    break;
                }
                s.name = op.name;
                for (int captured : s.stands_for) {
                    if (!slots_[captured].name.empty()) return false;
                    slots_[captured].name = op.name;
                }
            } else if (it.kind == Item::Kind::Rest) {
                Slot& s = slots_[it.slot];
                if (!s.rest.empty() || (!s.rest_built && s.deleted != int64_t(s.keys.size()))) return false;
                s.rest = op.name;
            } else {
                return false;
            }
            stored_ = true;
            break;
        }
        case N::LoadConst: stack.push_back(expr_item(make_constant(op.value))); break;
        case N::Load:
            if (op.scope == Scope::ClassDeref) return false;
            stack.push_back(expr_item(make_name(op.name)));
            break;
        case N::LoadAttr: {
            if (!top_is(Item::Kind::Expr)) return false;
            auto e = make_expr(ExprKind::Attribute);
            e->value = stack.back().expr;
            e->id = op.name;
            stack.back().expr = e;
            break;
        }
        case N::BuildTuple: {
            if (op.arg < 0 || size_t(op.arg) > stack.size()) return false;
            auto e = make_expr(ExprKind::Tuple);
            for (size_t j = stack.size() - size_t(op.arg); j < stack.size(); ++j) {
                if (stack[j].kind != Item::Kind::Expr) return false;
                e->elts.push_back(stack[j].expr);
            }
            stack.resize(stack.size() - size_t(op.arg));
            stack.push_back(expr_item(e));
            break;
        }
        case N::Compare: 
            if (!compare(op, stack)) return false;
            break;
        case N::MatchSequence: case N::MatchMapping:
            if (!top_is(Item::Kind::Part)) return false;
            structural_ = true;
            stack.push_back(test(op.kind == N::MatchSequence ? Item::Test::IsSequence : Item::Test::IsMapping, stack.back().slot));
            break;
        case N::GetLen:
            if (!top_is(Item::Kind::Part)) return false;
            stack.push_back(of(Item::Kind::Len, stack.back().slot));
            break;
        case N::BinaryOp: {
            if (op.name != "-" || op.inplace || stack.size() < 2) return false;
            Item right = stack.back(), left = stack[stack.size() - 2];
            if (left.kind != Item::Kind::Len || right.kind != Item::Kind::Expr || !is_const(right.expr, PyValue::Kind::Int)) return false;
            stack.pop_back();
            stack.back() = of(Item::Kind::LenMinus, left.slot);
            stack.back().n = right.expr->constant->small;
            break;
        }
        case N::Subscr: 
            if (!subscript(stack)) return false;
            break;
        case N::MatchClass: 
            if (!match_class(op, stack)) return false;
            break;
        case N::MatchKeys: {
            if (stack.size() < 2 || !top_is(Item::Kind::Expr) || stack[stack.size() - 2].kind != Item::Kind::Part) return false;
            Slot& s = slots_[stack[stack.size() - 2].slot];
            if (s.kind != Slot::Kind::Mapping || !s.type_checked || s.has_keys) return false;
            const ExprPtr& keys = stack.back().expr;
            if (is_const(keys, PyValue::Kind::Tuple)) {
                for (const auto& item : keys->constant->items) s.keys.push_back(make_constant(item));
            } else if (keys->kind == ExprKind::Tuple) {
                s.keys = keys->elts;
            } else {
                return false;
            }
            for (const auto& key : s.keys)
                if (!is_literal(key) && !is_dotted(key, false) && !is_const(key, PyValue::Kind::None) &&
                    !is_const(key, PyValue::Kind::True) && !is_const(key, PyValue::Kind::False))
                    return false;
            s.has_keys = true;
            int slot = stack[stack.size() - 2].slot;
            stack.back() = of(Item::Kind::Keys, slot);
            stack.push_back(of(Item::Kind::Values, slot));
            break;
        }
        case N::UnpackSequence: case N::UnpackEx: 
            if (!unpack(op, stack)) return false;
            break;
        case N::BuildMap:
            if (op.arg != 0 || op.comprehension) return false;
            stack.push_back(of(Item::Kind::EmptyDict, -1));
            break;
        case N::DictUpdate: {
            // rest = {}; rest.update(subject), the dict below the keys.
            if (op.arg != 2 || stack.size() < 3 || !top_is(Item::Kind::Part) || stack[stack.size() - 3].kind != Item::Kind::EmptyDict)
                return false;
            int slot = stack.back().slot;
            if (slots_[slot].kind != Slot::Kind::Mapping || stack[stack.size() - 2].kind != Item::Kind::Keys ||
                stack[stack.size() - 2].slot != slot)
                return false;
            stack.pop_back();
            stack[stack.size() - 2] = of(Item::Kind::Rest, slot);
            break;
        }
        case N::DeleteSubscr: {
            if (stack.size() < 2 || !top_is(Item::Kind::KeyItem) || stack[stack.size() - 2].kind != Item::Kind::Rest ||
                stack.back().slot != stack[stack.size() - 2].slot)
                return false;
            ++slots_[stack.back().slot].deleted;
            stack.resize(stack.size() - 2);
            break;
        }
        case N::CopyDictWithoutKeys: {
            if (stack.size() < 2 || !top_is(Item::Kind::Keys) || stack[stack.size() - 2].kind != Item::Kind::Part) return false;
            slots_[stack.back().slot].rest_built = true;
            stack.back().kind = Item::Kind::Rest;
            break;
        }
        case N::JumpIf: {
            if (stack.empty()) return false;
            Item it = stack.back();
            stack.pop_back();
            if (op.condition == JumpCondition::IfFalse && it.kind == Item::Kind::Test) {
                if (!apply(it)) return false;
            } else if (op.condition == JumpCondition::IfNone && (it.kind == Item::Kind::Attrs || it.kind == Item::Kind::Values)) {
                Item t = test(Item::Test::NotNone, it.slot);
                t.of_values = it.kind == Item::Kind::Values;
                if (!apply(t)) return false;
            } else if (op.condition == JumpCondition::IfNotNone && it.kind == Item::Kind::Part) {
                Item t = test(Item::Test::Singleton, it.slot);
                t.expr = make_constant(std::make_shared<PyValue>());
                if (!apply(t)) return false;
            } else {
                return false;
            }
            if (!check_failure(op.target, stack, f)) return false;
            break;
        }
        default: return false;
        }
        ++k;
        return true;
    }

    bool compare(const NeutralOp& op, std::vector<Item>& stack) {
        if (stack.size() < 2) return false;
        Item right = stack.back(), left = stack[stack.size() - 2];
        stack.resize(stack.size() - 2);
        if (right.kind != Item::Kind::Expr) return false;
        Item t;
        if (left.kind == Item::Kind::Part && op.name == "==" && (is_literal(right.expr) || is_dotted(right.expr, false))) {
            t = test(Item::Test::Value, left.slot);
        } else if (left.kind == Item::Kind::Part && op.name == "is" &&
                   (is_const(right.expr, PyValue::Kind::None) || is_const(right.expr, PyValue::Kind::True) ||
                    is_const(right.expr, PyValue::Kind::False))) {
            t = test(Item::Test::Singleton, left.slot);
        } else if (left.kind == Item::Kind::Len && (op.name == "==" || op.name == ">=") && is_const(right.expr, PyValue::Kind::Int)) {
            t = test(op.name == "==" ? Item::Test::LenEq : Item::Test::LenGe, left.slot);
            t.n = right.expr->constant->small;
        } else if ((left.kind == Item::Kind::Attrs || left.kind == Item::Kind::Values) && op.name == "is not" &&
                   is_const(right.expr, PyValue::Kind::None)) {
            t = test(Item::Test::NotNone, left.slot);
            t.of_values = left.kind == Item::Kind::Values;
        } else {
            return false;
        }
        t.expr = right.expr;
        stack.push_back(t);
        return true;
    }

    bool apply(const Item& t) {
        Slot& s = slots_[t.slot];
        switch (t.test) {
        case Item::Test::IsSequence: case Item::Test::IsMapping:
            if (s.kind != Slot::Kind::Any) return false;
            s.kind = t.test == Item::Test::IsSequence ? Slot::Kind::Sequence : Slot::Kind::Mapping;
            s.type_checked = true;
            return true;
        case Item::Test::LenEq: case Item::Test::LenGe:
            if ((s.kind != Slot::Kind::Sequence && s.kind != Slot::Kind::Mapping) || s.len_eq >= 0 || s.len_ge >= 0 || t.n < 0 ||
                s.size >= 0 || s.has_keys)
                return false;
            (t.test == Item::Test::LenEq ? s.len_eq : s.len_ge) = t.n;
            return true;
        case Item::Test::Value:
            if (s.kind != Slot::Kind::Any) return false;
            s.kind = Slot::Kind::Value;
            s.value = t.expr;
            return true;
        case Item::Test::Singleton:
            if (s.kind != Slot::Kind::Any) return false;
            s.kind = Slot::Kind::Singleton;
            s.constant = t.expr->constant;
            return true;
        case Item::Test::NotNone:
            if (t.of_values) {
                if (s.kind != Slot::Kind::Mapping || !s.has_keys || s.keys_checked) return false;
                s.keys_checked = true;
            } else {
                if (s.kind != Slot::Kind::Class || s.type_checked) return false;
                s.type_checked = true;
            }
            return true;
        }
        return false;
    }

    // A new slot for the part at `position` of `owner` (-1 when it was taken already).
    int part_slot(int owner, std::map<int64_t, int> Slot::*parts, int64_t position) {
        if ((slots_[owner].*parts).count(position)) return -1;
        int slot = new_slot();
        (slots_[owner].*parts)[position] = slot;
        return slot;
    }

    bool subscript(std::vector<Item>& stack) {
        if (stack.size() < 2) return false;
        Item index = stack.back(), container = stack[stack.size() - 2];
        stack.resize(stack.size() - 2);
        int slot = -1;
        if ((container.kind == Item::Kind::Attrs || container.kind == Item::Kind::Values) && index.kind == Item::Kind::Expr &&
            is_const(index.expr, PyValue::Kind::Int)) {
            // 3.10 takes a class's attributes and a mapping's values one subscript at a time.
            Slot& s = slots_[container.slot];
            bool ready = container.kind == Item::Kind::Attrs ? s.type_checked : s.keys_checked;
            int64_t count = container.kind == Item::Kind::Attrs ? s.nargs + int64_t(s.kwd_attrs.size()) : int64_t(s.keys.size());
            int64_t i = index.expr->constant->small;
            if (!ready || i < 0 || i >= count) return false;
            slot = part_slot(container.slot, &Slot::parts, i);
        } else if (container.kind == Item::Kind::Part && slots_[container.slot].kind == Slot::Kind::Sequence) {
            Slot& s = slots_[container.slot];
            if (!s.type_checked || s.size >= 0) return false;
            if (index.kind == Item::Kind::Expr && is_const(index.expr, PyValue::Kind::Int) && index.expr->constant->small >= 0) {
                slot = part_slot(container.slot, &Slot::front, index.expr->constant->small);
            } else if (index.kind == Item::Kind::LenMinus && index.slot == container.slot && index.n > 0) {
                slot = part_slot(container.slot, &Slot::back, index.n);
            } else {
                return false;
            }
        } else {
            return false;
        }
        if (slot < 0) return false;
        stack.push_back(part(slot));
        return true;
    }

    bool match_class(const NeutralOp& op, std::vector<Item>& stack) {
        if (stack.size() < 3) return false;
        Item names = stack.back(), cls = stack[stack.size() - 2], subject = stack[stack.size() - 3];
        if (names.kind != Item::Kind::Expr || !is_const(names.expr, PyValue::Kind::Tuple) || cls.kind != Item::Kind::Expr ||
            !is_dotted(cls.expr, true) || subject.kind != Item::Kind::Part || op.arg < 0)
            return false;
        Slot& s = slots_[subject.slot];
        if (s.kind != Slot::Kind::Any) return false;
        for (const auto& n : names.expr->constant->items) {
            if (n->kind != PyValue::Kind::Str) return false;
            s.kwd_attrs.push_back(n->text);
        }
        s.kind = Slot::Kind::Class;
        s.cls = cls.expr;
        s.nargs = op.arg;
        structural_ = true;
        stack.resize(stack.size() - 3);
        stack.push_back(of(Item::Kind::Attrs, subject.slot));
        return true;
    }

    bool unpack(const NeutralOp& op, std::vector<Item>& stack) {
        if (stack.empty()) return false;
        Item it = stack.back();
        stack.pop_back();
        Slot* s = it.slot >= 0 ? &slots_[it.slot] : nullptr;
        int64_t count = op.arg;
        if (op.kind == N::UnpackEx) {
            if (it.kind != Item::Kind::Part || s->kind != Slot::Kind::Sequence) return false;
            count = (op.arg & 0xff) + 1 + (op.arg >> 8);
        }
        switch (it.kind) {
        case Item::Kind::Part:
            if (s->kind != Slot::Kind::Sequence || !s->type_checked || s->size >= 0 || !s->front.empty() || !s->back.empty()) return false;
            s->size = count;
            s->star = op.kind == N::UnpackEx ? (op.arg & 0xff) : -1;
            break;
        case Item::Kind::Attrs:
            if (!s->type_checked || count != s->nargs + int64_t(s->kwd_attrs.size()) || !s->parts.empty()) return false;
            break;
        case Item::Kind::Values:
            if (!s->keys_checked || count != int64_t(s->keys.size()) || !s->parts.empty()) return false;
            break;
        case Item::Kind::Keys:
            if (count != int64_t(s->keys.size())) return false;
            for (int64_t j = 0; j < count; ++j) stack.push_back(of(Item::Kind::KeyItem, it.slot));
            return true;
        default: return false;
        }
        int slot_id = it.slot;
        std::vector<Item> parts;
        for (int64_t j = 0; j < count; ++j) {
            int child = new_slot();
            slots_[slot_id].parts[j] = child;
            parts.push_back(part(child));
        }
        stack.insert(stack.end(), parts.rbegin(), parts.rend());  // the first element ends up on top
        return true;
    }

    // ---------------------------------------------------------------- or-patterns
    // `COPY 1; <alternative>; JUMP end` for each alternative, a failed one going on with the next;
    // after the last: `POP_TOP; JUMP <fail>`; at end: `POP_TOP` (the copy of the subject). The
    // optimizer may copy a short tail that ends the function into each alternative instead of the
    // jump. Alternatives that capture names leave the captured values on the stack instead of
    // storing them, each alternative after the first rotating them into the first one's order
    // (SWAPs); at end, before that POP_TOP, one store for each names the values of every alternative.
    bool try_or(size_t& k, std::vector<Item>& stack, Failure& outer) {
        // (A capture right after the copy is an alternative that cannot fail, which only the last
        // may be: no or-pattern starts so. Chained assignments, `a = b = ... = v`, are COPY 1;
        // STORE pairs, hundreds in a row in generated code: each read as an or-pattern in the one
        // before, with these copies made at each, took cubic time.)
        if (k + 1 < ops_.size() && ops_[k + 1].kind == N::Store) return false;
        std::vector<Slot> saved_slots = slots_;
        std::set<size_t> saved_consumed = consumed_;
        std::set<std::string> saved_names = names_;
        std::vector<Item> saved_stack = stack;
        std::set<int> saved_copied = copied_;
        bool saved_stored = stored_, saved_structural = structural_;
        size_t at = k;
        auto fail = [&]() {
            slots_ = saved_slots;
            consumed_ = saved_consumed;
            names_ = saved_names;
            stack = saved_stack;
            copied_ = saved_copied;
            stored_ = saved_stored;
            structural_ = saved_structural;
            return false;
        };
        int or_slot = stack.back().slot;
        if (slots_[or_slot].kind != Slot::Kind::Any || !slots_[or_slot].name.empty()) return fail();
        size_t depth = stack.size();
        std::vector<int> alternatives;             // each alternative's slot
        std::vector<std::vector<int>> captures;    // each alternative's captured slots, bottom to top
        std::vector<size_t> ends;
        size_t j = at;
        bool last = false;
        while (!last) {
            if (j >= ops_.size() || ops_[j].kind != N::Copy || ops_[j].arg != 1) return fail();
            consumed_.insert(j++);
            int alt = new_slot();
            stack.push_back(part(alt));
            Failure local;
            local.base = depth;
            // (The alternative ends where nothing of it is left, or where only what it captured is:
            // at the jump to the end, or at the stores of a copy of the end.)
            while (stack.size() > depth && !(j > at && j < ops_.size() && (ops_[j].kind == N::Jump || ops_[j].kind == N::Store) &&
                                              captured_only(stack, depth, alt))) {
                if (j >= ops_.size()) return fail();
                consumed_.insert(j);
                if (!step(ops_[j], j, stack, local)) return fail();
            }
            if (stored_) return fail();
            for (size_t sl = size_t(alt); sl < slots_.size(); ++sl)
                if (!slots_[sl].name.empty() || !slots_[sl].rest.empty()) return fail();
            std::vector<int> caps;
            for (size_t d = depth; d < stack.size(); ++d) caps.push_back(stack[d].slot);
            stack.resize(depth);
            if (!captures.empty() && caps.size() != captures.front().size()) return fail();
            captures.push_back(std::move(caps));
            alternatives.push_back(alt);
            if (j < ops_.size() && ops_[j].kind == N::Jump) {
                consumed_.insert(j);
                ends.push_back(index_at(ops_[j].target));
            } else {
                ends.push_back(j);
            }
            if (local.cont < 0) {
                last = true;  // an irrefutable alternative ends the or-pattern
            } else if (ops_[size_t(local.cont)].kind == N::Copy && ops_[size_t(local.cont)].arg == 1 &&
                       !consumed_.count(size_t(local.cont))) {
                j = size_t(local.cont);
            } else {
                // The last alternative failed: pop the copy of the subject and fail as a whole.
                size_t cont = 0;
                if (!walk_failure(ops_[size_t(local.cont)].offset, depth - outer.base, cont, &outer.dropped, &outer.dropped_at)) return fail();
                if (outer.cont >= 0 && size_t(outer.cont) != cont) return fail();
                outer.cont = int64_t(cont);
                last = true;
            }
        }
        if (alternatives.size() < 2) return fail();
        size_t join = ends[0];
        bool all_jump = std::all_of(ends.begin(), ends.end(), [&](size_t e) { return e == join; });
        if (!all_jump && !same_tails(ends)) return fail();
        slots_[or_slot].kind = Slot::Kind::Or;
        slots_[or_slot].alternative_slots = alternatives;
        structural_ = true;
        if (captures.front().empty()) {
            if (join >= ops_.size() || ops_[join].kind != N::Pop) return fail();
            consumed_.insert(join);
            stack.pop_back();
            k = join + 1;
            return true;
        }
        // What was captured stays on the stack above the copy of the subject, in the first
        // alternative's order: one value for each name, which the pattern's stores name in every
        // alternative (see Slot::stands_for) and its POP_TOPs drop, as for any pattern.
        for (size_t c = 0; c < captures.front().size(); ++c) {
            int proxy = new_slot();
            for (const std::vector<int>& caps : captures) slots_[proxy].stands_for.push_back(caps[c]);
            stack.push_back(part(proxy));
        }
        k = join;
        return true;
    }

    // Whether what is left of alternative `alt` above `depth` is only values it captured: parts of
    // it (slots from `alt` on) that nothing tests any more.
    bool captured_only(const std::vector<Item>& stack, size_t depth, int alt) const {
        for (size_t d = depth; d < stack.size(); ++d)
            if (stack[d].kind != Item::Kind::Part || stack[d].slot < alt) return false;
        return true;
    }

    // Copies of a tail that ends the function (the optimizer's inlining of a small exit block):
    // the same ops up to a return or raise, and no jumps. The copies after the first are consumed.
    bool same_tails(const std::vector<size_t>& ends) {
        size_t length = 0;
        for (;; ++length) {
            size_t a = ends[0] + length;
            if (a >= ops_.size() || length > 64) return false;
            const NeutralOp& op = ops_[a];
            if (op.kind == N::Jump || op.kind == N::JumpIf || op.kind == N::JumpIfOrPop || op.kind == N::ForIter) return false;
            for (size_t e = 1; e < ends.size(); ++e)
                if (ends[e] + length >= ops_.size() || !same_op(ops_[ends[e] + length], op) || ends[e] == ends[0]) return false;
            if (op.kind == N::Return || op.kind == N::Raise || op.kind == N::Reraise) break;
        }
        for (size_t e = 1; e < ends.size(); ++e)
            for (size_t d = 0; d <= length; ++d) consumed_.insert(ends[e] + d);
        return true;
    }

    // ---------------------------------------------------------------- the pattern
    PatternPtr wildcard() { return std::make_shared<Pattern>(); }

    PatternPtr child(const std::map<int64_t, int>& parts, int64_t position) {
        auto it = parts.find(position);
        return it == parts.end() ? wildcard() : build(it->second);
    }

    PatternPtr build(int id) {
        const Slot s = slots_[id];
        PatternPtr p;
        switch (s.kind) {
        case Slot::Kind::Any: break;
        case Slot::Kind::Value:
            p = std::make_shared<Pattern>();
            p->kind = PatternKind::MatchValue;
            p->value = s.value;
            break;
        case Slot::Kind::Singleton:
            p = std::make_shared<Pattern>();
            p->kind = PatternKind::MatchSingleton;
            p->constant = s.constant;
            break;
        case Slot::Kind::Sequence: p = sequence(s); break;
        case Slot::Kind::Mapping: p = mapping(s); break;
        case Slot::Kind::Class: p = class_pattern(s); break;
        case Slot::Kind::Or:
            p = std::make_shared<Pattern>();
            p->kind = PatternKind::MatchOr;
            for (int alt : s.alternative_slots) {
                PatternPtr a = build(alt);
                if (!a) return nullptr;
                p->patterns.push_back(a);
            }
            break;
        }
        if (s.kind != Slot::Kind::Any && !p) return nullptr;
        // The compiler copies a part only to capture it after a test (`p as name`) or to take a
        // sequence apart by subscripts.
        if (copied_.count(id) && s.name.empty() && !(s.kind == Slot::Kind::Sequence && (!s.front.empty() || !s.back.empty())))
            return nullptr;
        if (!s.rest.empty() && s.kind != Slot::Kind::Mapping) return nullptr;
        if (s.name.empty()) return p ? p : wildcard();
        if (p) structural_ = true;  // `pattern as name`
        auto as = std::make_shared<Pattern>();
        as->kind = PatternKind::MatchAs;
        as->pattern = p;
        as->name = s.name;
        // (Captured again by an enclosing as-pattern: `(p as a) as b`.)
        for (const std::string& outer : s.outer_names) {
            auto wrap = std::make_shared<Pattern>();
            wrap->kind = PatternKind::MatchAs;
            wrap->pattern = as;
            wrap->name = outer;
            as = wrap;
        }
        return as;
    }

    PatternPtr star(const std::map<int64_t, int>& parts, int64_t position) {
        auto p = std::make_shared<Pattern>();
        p->kind = PatternKind::MatchStar;
        auto it = parts.find(position);
        if (it == parts.end()) return p;
        const Slot& s = slots_[it->second];
        if (s.kind != Slot::Kind::Any) return nullptr;
        p->name = s.name;
        return p;
    }

    PatternPtr sequence(const Slot& s) {
        if (!s.type_checked) return nullptr;
        auto p = std::make_shared<Pattern>();
        p->kind = PatternKind::MatchSequence;
        int64_t size = -1, star_at = -1;
        const std::map<int64_t, int>* parts = &s.parts;
        std::map<int64_t, int> positioned;
        if (s.size >= 0) {
            size = s.size;
            star_at = s.star;
            if (star_at < 0 ? (s.len_eq != size || s.len_ge >= 0)
                            : (s.len_eq >= 0 || (size > 1 ? s.len_ge != size - 1 : s.len_ge >= 0)))
                return nullptr;
        } else if (!s.front.empty() || !s.back.empty()) {
            if (s.len_ge < 1 || s.len_eq >= 0) return nullptr;
            size = s.len_ge + 1;
            star_at = s.front.empty() ? 0 : s.front.rbegin()->first + 1;
            for (const auto& [index, slot] : s.front) positioned[index] = slot;
            for (const auto& [offset, slot] : s.back) {
                int64_t position = size - offset;
                if (position <= star_at || position >= size) return nullptr;
                positioned[position] = slot;
            }
            if (star_at >= size) return nullptr;
            parts = &positioned;
        } else if (s.len_eq >= 0) {
            size = s.len_eq;
            if (s.len_ge >= 0) return nullptr;
        } else {
            size = std::max<int64_t>(s.len_ge, 0) + 1;
            star_at = size - 1;
        }
        if (size > 4096) return nullptr;
        for (int64_t position = 0; position < size; ++position) {
            PatternPtr e = position == star_at ? star(*parts, position) : child(*parts, position);
            if (!e) return nullptr;
            p->patterns.push_back(e);
        }
        return p;
    }

    PatternPtr mapping(const Slot& s) {
        if (!s.type_checked) return nullptr;
        auto p = std::make_shared<Pattern>();
        p->kind = PatternKind::MatchMapping;
        if (!s.has_keys) {
            if (s.len_ge >= 0 || s.len_eq >= 0 || !s.rest.empty()) return nullptr;
            return p;
        }
        if (!s.keys_checked || s.len_eq >= 0 || s.len_ge != (s.keys.empty() ? -1 : int64_t(s.keys.size()))) return nullptr;
        if ((s.rest_built || s.deleted) && s.rest.empty()) return nullptr;
        p->keys = s.keys;
        for (size_t k = 0; k < s.keys.size(); ++k) {
            PatternPtr e = child(s.parts, int64_t(k));
            if (!e) return nullptr;
            p->patterns.push_back(e);
        }
        if (s.keys.empty() && s.rest.empty()) return nullptr;
        p->name = s.rest;
        return p;
    }

    PatternPtr class_pattern(const Slot& s) {
        if (!s.type_checked) return nullptr;
        auto p = std::make_shared<Pattern>();
        p->kind = PatternKind::MatchClass;
        p->cls = s.cls;
        for (int64_t k = 0; k < s.nargs + int64_t(s.kwd_attrs.size()); ++k) {
            PatternPtr e = child(s.parts, k);
            if (!e) return nullptr;
            if (k < s.nargs) p->patterns.push_back(e);
            else p->kwd_patterns.push_back(e);
        }
        p->kwd_attrs = s.kwd_attrs;
        return p;
    }

    const std::vector<NeutralOp>& ops_;
    std::map<size_t, std::optional<Cases>> memo_;
    std::set<size_t> consumed_;  // ops read by the case being decoded
    std::set<int> copied_;       // slots whose part was duplicated by a COPY
    std::vector<Slot> slots_;
    std::set<std::string> names_;
    bool stored_ = false;
    bool structural_ = false;  // a pattern no `if` on the subject could say
};

}  // namespace

std::optional<MatchShape> decode_match(const std::vector<NeutralOp>& ops, size_t start) {
    if (start >= ops.size()) return std::nullopt;
    return Decoder(ops).decode(start);
}

std::optional<size_t> guarded_match_start(const std::vector<NeutralOp>& ops, size_t j) { return Decoder(ops).guard_start(j); }

bool may_start_match(const std::vector<NeutralOp>& ops, size_t k) {
    if (k >= ops.size()) return false;
    const NeutralOp& op = ops[k];
    if ((op.kind == N::Copy && op.arg == 1) || op.kind == N::MatchSequence || op.kind == N::MatchMapping) return true;
    // A class pattern on a subject that is not copied starts with the class's name.
    if (op.kind != N::Load) return false;
    for (size_t j = k + 1; j < ops.size() && j < k + 16; ++j) {
        if (ops[j].kind == N::MatchClass) return true;
        if (ops[j].kind != N::LoadAttr && ops[j].kind != N::LoadConst) return false;
    }
    return false;
}

}  // namespace uncompile
