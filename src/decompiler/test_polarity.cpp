#include "test_polarity.h"

#include <optional>
#include <set>

namespace uncompile {

namespace {

using namespace ast;

bool is_not(const ExprPtr& e) { return e->kind == ExprKind::UnaryOp && e->id == "not"; }

// `a is b`, `a is not b`, `a in b`, `a not in b`: what `not` folds into.
bool is_foldable_compare(const ExprPtr& e) {
    if (e->kind != ExprKind::Compare || e->ops.size() != 1) return false;
    const std::string& op = e->ops[0];
    return op == "is" || op == "is not" || op == "in" || op == "not in";
}

bool has_folding_not(const ExprPtr& e) {
    if (is_not(e)) return is_foldable_compare(e->value) || has_folding_not(e->value);
    if (e->kind == ExprKind::BoolOp)
        for (const auto& x : e->elts)
            if (has_folding_not(x)) return true;
    return false;
}

// `a is b` as `a is not b` (or the other way round), the same comparison otherwise.
ExprPtr flipped(const ExprPtr& e) {
    auto n = std::make_shared<Expr>(*e);
    n->ops[0] = e->ops[0] == "is" ? "is not" : "is";
    return n;
}

ExprPtr make_not(const ExprPtr& e) {
    auto n = make_expr(ExprKind::UnaryOp);
    n->id = "not";
    n->value = e;
    return n;
}

struct Rendered {
    ExprPtr expr;
    int nots = 0;
};

// `e`, or its negation when `negated`, as and/or over the same leaves in the same order with each
// `not` on a group or on a leaf that does not fold; the one with the fewest `not`s.
std::optional<Rendered> render(const ExprPtr& e, bool negated, const FreeComparisons& free);

// The and/or group `e` with its own operator (or the dual one, negated: De Morgan).
std::optional<Rendered> render_group(const ExprPtr& e, bool negated, const FreeComparisons& free) {
    auto group = make_expr(ExprKind::BoolOp);
    group->id = negated ? (e->id == "and" ? "or" : "and") : e->id;
    int nots = 0;
    for (const auto& x : e->elts) {
        std::optional<Rendered> r = render(x, negated, free);
        if (!r) return std::nullopt;
        group->elts.push_back(r->expr);
        nots += r->nots;
    }
    return Rendered{group, nots};
}

std::optional<Rendered> render(const ExprPtr& e, bool negated, const FreeComparisons& free) {
    if (is_not(e)) return render(e->value, !negated, free);
    if (e->kind == ExprKind::BoolOp) {
        std::optional<Rendered> flat = render_group(e, negated, free), wrapped = render_group(e, !negated, free);
        if (wrapped) wrapped = Rendered{make_not(wrapped->expr), wrapped->nots + 1};
        if (flat && (!wrapped || flat->nots <= wrapped->nots)) return flat;
        return wrapped;
    }
    if (!negated) return Rendered{e, 0};
    if (free.count(e.get())) return Rendered{flipped(e), 0};
    if (is_foldable_compare(e)) return std::nullopt;
    return Rendered{make_not(e), 1};
}

// The `not`s of the and/or tree `e` (its leaves' own not counted).
int nots_in(const ExprPtr& e) {
    if (is_not(e)) return 1 + nots_in(e->value);
    int n = 0;
    if (e->kind == ExprKind::BoolOp)
        for (const auto& x : e->elts) n += nots_in(x);
    return n;
}

bool has_group_not(const ExprPtr& e) {
    if (is_not(e)) return e->value->kind == ExprKind::BoolOp || has_group_not(e->value);
    if (e->kind == ExprKind::BoolOp)
        for (const auto& x : e->elts)
            if (has_group_not(x)) return true;
    return false;
}

void place_in(const StmtPtr& s, const FreeComparisons& free) {
    if ((s->kind == StmtKind::If || s->kind == StmtKind::While || s->kind == StmtKind::Assert) && s->test)
        s->test = placed_test(s->test, free);
    if (s->kind == StmtKind::FunctionDef || s->kind == StmtKind::ClassDef) return;  // placed when they were built
    for_each_nested_body(*s, [&](Body& b) { place_negations(b, free); });
}

}  // namespace

ExprPtr placed_test(const ExprPtr& test, const FreeComparisons& free) {
    if (has_folding_not(test)) {
        if (std::optional<Rendered> r = render(test, false, free)) return r->expr;
    } else if (has_group_not(test)) {
        // (A `not` on a group whose leaves it can go onto, or that fold it (a test of None,
        // compiled to a jump on None, 3.11+): `assert not (not a <= b or b is None)` is
        // `assert a <= b and b is not None`, the same jumps. Only where it saves `not`s.)
        if (std::optional<Rendered> r = render(test, false, free); r && r->nots < nots_in(test)) return r->expr;
    }
    return test;
}

bool test_placeable(const ExprPtr& test, const FreeComparisons& free) {
    return !has_folding_not(test) || render(test, false, free);
}

void place_negations(Body& body, const FreeComparisons& free) {
    for (const StmtPtr& s : body) place_in(s, free);
}

}  // namespace uncompile
