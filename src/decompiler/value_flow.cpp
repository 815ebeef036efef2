#include "value_flow.h"

#include <algorithm>
#include <map>

namespace uncompile {

using namespace ast;

namespace {

void add_target_names(const ExprPtr& t, std::set<std::string>& out) {
    if (!t) return;
    switch (t->kind) {
    case ExprKind::Name: out.insert(t->id); return;
    case ExprKind::Tuple: case ExprKind::List:
        for (const auto& x : t->elts) add_target_names(x, out);
        return;
    case ExprKind::Starred: add_target_names(t->value, out); return;
    default: return;
    }
}

void add_walrus_names(const ExprPtr& e, std::set<std::string>& out) {
    if (!e) return;
    if (e->kind == ExprKind::NamedExpr) add_target_names(e->left, out);
    for_each_child_slot(*e, [&](ExprPtr& c) { add_walrus_names(c, out); });
}

enum class Reach { Found, Effect, Continue };

// Walks `e` in Python's evaluation order looking for a load of `name`.
Reach reach(const ExprPtr& e, const std::string& name) {
    if (!e) return Reach::Continue;
    auto seq = [&](std::initializer_list<ExprPtr> parts) {
        for (const auto& p : parts)
            if (Reach r = reach(p, name); r != Reach::Continue) return r;
        return Reach::Continue;
    };
    auto all = [&](const std::vector<ExprPtr>& parts) {
        for (const auto& p : parts)
            if (Reach r = reach(p, name); r != Reach::Continue) return r;
        return Reach::Continue;
    };
    auto then_effect = [&](Reach r) { return r == Reach::Continue && has_own_effect(*e) ? Reach::Effect : r; };
    switch (e->kind) {
    case ExprKind::Name: return e->id == name ? Reach::Found : Reach::Continue;
    case ExprKind::Constant: return Reach::Continue;
    // Only the first operand of a short-circuit or conditional is evaluated for sure.
    case ExprKind::BoolOp: return then_effect(e->elts.empty() ? Reach::Continue : reach(e->elts[0], name));
    case ExprKind::Compare: return then_effect(seq({e->left, e->elts.empty() ? nullptr : e->elts[0]}));
    case ExprKind::IfExp: return then_effect(reach(e->test, name));
    case ExprKind::ListComp: case ExprKind::SetComp: case ExprKind::DictComp: case ExprKind::GeneratorExp:
        return then_effect(e->generators.empty() ? Reach::Continue : reach(e->generators[0].iter, name));
    case ExprKind::Lambda: return e->args ? then_effect(all(e->args->defaults)) : Reach::Continue;
    case ExprKind::Call: {
        if (Reach r = reach(e->value, name); r != Reach::Continue) return r;
        if (Reach r = all(e->elts); r != Reach::Continue) return r;
        for (const auto& k : e->keywords)
            if (Reach r = reach(k.value, name); r != Reach::Continue) return r;
        return Reach::Effect;
    }
    case ExprKind::Dict:
        for (size_t i = 0; i < e->values.size(); ++i) {
            if (Reach r = reach(i < e->elts.size() ? e->elts[i] : nullptr, name); r != Reach::Continue) return r;
            if (Reach r = reach(e->values[i], name); r != Reach::Continue) return r;
        }
        return then_effect(Reach::Continue);
    case ExprKind::Subscript: return then_effect(seq({e->value, e->index}));
    case ExprKind::Slice: return seq({e->lower, e->upper, e->step});
    case ExprKind::BinOp: return then_effect(seq({e->left, e->right}));
    case ExprKind::NamedExpr: return then_effect(reach(e->value, name));
    case ExprKind::Tuple: case ExprKind::List: case ExprKind::Set: case ExprKind::JoinedStr:
        return then_effect(all(e->elts));
    case ExprKind::FormattedValue: return then_effect(seq({e->value, e->format_spec}));
    default: return then_effect(reach(e->value, name));  // Attribute, Starred, UnaryOp, Await, Yield, YieldFrom
    }
}

// The parts of an assignment target evaluated before the store (`a.b`: a; `a[i]`: a, i).
Reach reach_target(const ExprPtr& t, const std::string& name) {
    if (!t) return Reach::Continue;
    switch (t->kind) {
    case ExprKind::Attribute: return reach(t->value, name);
    case ExprKind::Subscript: {
        if (Reach r = reach(t->value, name); r != Reach::Continue) return r;
        return reach(t->index, name);
    }
    case ExprKind::Tuple: case ExprKind::List:
        // Unpacking iterates the value first: an effect before any element's target.
        return Reach::Effect;
    case ExprKind::Starred: return reach_target(t->value, name);
    default: return Reach::Continue;
    }
}

void count_all_loads(const Body& body, const std::string& prefix, std::map<std::string, size_t>& uses);

void count_stmt_loads(const Stmt& s, const std::string& prefix, std::map<std::string, size_t>& uses) {
    std::function<void(const ExprPtr&)> walk = [&](const ExprPtr& e) {
        if (!e) return;
        if (e->kind == ExprKind::Name && e->id.compare(0, prefix.size(), prefix) == 0) ++uses[e->id];
        for_each_child_slot(*e, [&](ExprPtr& c) { walk(c); });
    };
    if (s.kind == StmtKind::Assign && s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Name)
        walk(s.value);  // the target of `tmp = value` is a store, not a use
    else
        for_each_own_expr(s, walk);
    for_each_nested_body(s, [&](const Body& b) { count_all_loads(b, prefix, uses); });
}

void count_all_loads(const Body& body, const std::string& prefix, std::map<std::string, size_t>& uses) {
    for (const auto& s : body) count_stmt_loads(*s, prefix, uses);
}

// Rewrites every own expression slot of `s` (targets included).
void rewrite_own_exprs(Stmt& s, const std::function<ExprPtr(const ExprPtr&)>& f) {
    for (ExprPtr* p : {&s.target, &s.value, &s.test, &s.iter, &s.annotation, &s.cause, &s.msg})
        if (*p) *p = f(*p);
    for (auto& t : s.targets) t = f(t);
    for (auto& item : s.items) {
        if (item.context) item.context = f(item.context);
        if (item.target) item.target = f(item.target);
    }
    for (auto& h : s.handlers)
        if (h.type) h.type = f(h.type);
    for (auto& d : s.decorators) d = f(d);
    for (auto& b : s.bases) b = f(b);
    for (auto& k : s.keywords)
        if (k.value) k.value = f(k.value);
    for (auto& c : s.cases)
        if (c.guard) c.guard = f(c.guard);
}

bool is_temporary_assignment(const Stmt& s, const std::string& prefix) {
    return s.kind == StmtKind::Assign && s.targets.size() == 1 && s.targets[0]->kind == ExprKind::Name &&
           s.targets[0]->id.compare(0, prefix.size(), prefix) == 0;
}

// Whether statement `s` names anything that an assignment expression in `value` binds: moved
// into `s`, the value would bind it before reads that ran before it (`m + (m := f())`).
static bool reads_walrus_target(const Stmt& s, const ExprPtr& value) {
    std::set<std::string> bound;
    add_walrus_names(value, bound);
    if (bound.empty()) return false;
    bool reads = false;
    std::function<void(const ExprPtr&)> walk = [&](const ExprPtr& e) {
        if (!e || reads) return;
        if (e->kind == ExprKind::Name && bound.count(e->id)) reads = true;
        for_each_child_slot(*e, [&](ExprPtr& c) { walk(c); });
    };
    for_each_own_expr(s, walk);
    return reads;
}

void inline_in(Body& body, const std::string& prefix, std::map<std::string, size_t>& uses) {
    for (auto& s : body) {
        for_each_nested_body(*s, [&](Body& b) { inline_in(b, prefix, uses); });
    }
    for (size_t i = body.size(); i-- > 1;) {
        if (i >= body.size()) continue;
        Stmt& def = *body[i - 1];
        if (!is_temporary_assignment(def, prefix)) continue;
        const std::string name = def.targets[0]->id;
        if (uses[name] != 1 || !evaluated_first_in_statement(*body[i], name)) continue;
        if (reads_walrus_target(*body[i], def.value)) continue;
        // The single load of `name` (its node) is replaced by the value.
        const Expr* load = nullptr;
        std::function<void(const ExprPtr&)> find = [&](const ExprPtr& e) {
            if (!e || load) return;
            if (e->kind == ExprKind::Name && e->id == name) load = e.get();
            else for_each_child_slot(*e, [&](ExprPtr& c) { find(c); });
        };
        for_each_own_expr(*body[i], find);
        if (!load) continue;
        ExprPtr value = def.value;
        rewrite_own_exprs(*body[i], [&](const ExprPtr& e) { return replace_node(e, load, value, [](const Expr*, const ExprPtr&) {}); });
        uses[name] = 0;
        body.erase(body.begin() + long(i - 1));
    }
}

// Walks the nodes with an effect of a body in order (each statement's own expressions, a node
// before its children, then the statement's bodies) and stops at the first node it meets again.
// Nodes are marked with the walk's number (Expr::visited) instead of collected and sorted: this
// runs on every body, and almost never finds one.
class RepeatedEffect {
public:
    RepeatedEffect() {
        static thread_local uint64_t walks = 0;
        walk_ = ++walks;
    }

    const Expr* find(const Body& body) {
        for (const auto& s : body) {
            for_each_own_expr(*s, [&](const ExprPtr& e) { visit(e); });
            for_each_nested_body(*s, [this](const Body& b) { find(b); });
            if (found_) break;
        }
        return found_;
    }

private:
    void visit(const ExprPtr& e) {
        if (!e || found_) return;
        if (has_own_effect(*e)) {
            if (e->visited.walk == walk_) {
                found_ = e.get();
                return;
            }
            e->visited.walk = walk_;
        }
        for_each_child_slot(*e, [&](ExprPtr& c) { visit(c); });
    }

    uint64_t walk_;
    const Expr* found_ = nullptr;
};

}  // namespace

std::set<std::string> names_bound_by(const Stmt& s) {
    std::set<std::string> out;
    for (const auto& t : s.targets) add_target_names(t, out);
    add_target_names(s.target, out);
    for (const auto& item : s.items) add_target_names(item.target, out);
    for (const auto& h : s.handlers)
        if (!h.name.empty()) out.insert(h.name);
    for (const auto& a : s.aliases) {
        if (!a.asname.empty()) out.insert(a.asname);
        else if (a.name != "*") out.insert(a.name.substr(0, a.name.find('.')));
    }
    if (s.kind == StmtKind::FunctionDef || s.kind == StmtKind::ClassDef || s.kind == StmtKind::TypeAlias) out.insert(s.name);
    std::function<void(const PatternPtr&)> captures = [&](const PatternPtr& p) {  // names a match's patterns bind
        if (!p) return;
        if (!p->name.empty()) out.insert(p->name);
        captures(p->pattern);
        for (const auto& q : p->patterns) captures(q);
        for (const auto& q : p->kwd_patterns) captures(q);
    };
    for (const auto& c : s.cases) captures(c.pattern);
    for_each_own_expr(s, [&](const ExprPtr& e) { add_walrus_names(e, out); });
    return out;
}

ExprPtr replace_node(const ExprPtr& tree, const Expr* from, const ExprPtr& to,
                     const std::function<void(const Expr*, const ExprPtr&)>& on_copy) {
    if (!tree) return tree;
    if (tree.get() == from) return to;
    ExprPtr copy;
    auto probe = std::make_shared<Expr>(*tree);
    for_each_child_slot(*probe, [&](ExprPtr& c) {
        ExprPtr n = replace_node(c, from, to, on_copy);
        if (n != c) {
            c = n;
            copy = probe;
        }
    });
    if (!copy) return tree;
    on_copy(tree.get(), copy);
    return copy;
}

bool evaluated_first_in_statement(const Stmt& s, const std::string& name) {
    auto found = [](Reach r) { return r == Reach::Found; };
    switch (s.kind) {
    case StmtKind::Expr: case StmtKind::Return: return found(reach(s.value, name));
    case StmtKind::Assign: {
        Reach r = reach(s.value, name);
        if (r != Reach::Continue) return found(r);
        for (const auto& t : s.targets)
            if ((r = reach_target(t, name)) != Reach::Continue) return found(r);
        return false;
    }
    case StmtKind::AugAssign: return found(reach_target(s.target, name));
    case StmtKind::Delete:
        for (const auto& t : s.targets)
            if (Reach r = reach_target(t, name); r != Reach::Continue) return found(r);
        return false;
    case StmtKind::If: case StmtKind::Assert: return found(reach(s.test, name));
    case StmtKind::For: case StmtKind::Match: return found(reach(s.kind == StmtKind::For ? s.iter : s.value, name));
    case StmtKind::With: return !s.items.empty() && found(reach(s.items[0].context, name));
    case StmtKind::Raise: {
        Reach r = reach(s.value, name);
        return r != Reach::Continue ? found(r) : found(reach(s.cause, name));
    }
    default: return false;  // a while test runs again on every iteration; definitions run later
    }
}

void inline_temporaries(Body& body, const std::string& prefix) {
    std::map<std::string, size_t> uses;
    count_all_loads(body, prefix, uses);
    if (uses.empty()) return;
    inline_in(body, prefix, uses);
}

const Expr* duplicated_effect(const Body& body) { return RepeatedEffect().find(body); }

}  // namespace uncompile
