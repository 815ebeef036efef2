#pragma once
// Facts about when expressions are evaluated, for the stack simulation's correctness rules.
//
// The simulation defers evaluation: a value computed by the bytecode stays an expression tree on
// the stack until a statement uses it. Deferring is sound only when nothing observable happens in
// between, and using a tree twice evaluates it twice. Bytecode rewriters (PyTorch's Dynamo) keep
// values on the stack across `del`, stores and calls, and duplicate them with COPY; the compiler
// itself does so only in a few fixed shapes. These helpers let the structurer decide when a value
// must be materialized into a temporary, and put readable expressions back where that is provably
// the same program.
#include <functional>
#include <set>
#include <string>

#include "ast.h"

namespace uncompile {

// True when evaluating the node itself (not its children) can run user code or observe state:
// calls, attribute and item access, operators, iteration, formatting. Names and constants are not.
inline bool has_own_effect(const ast::Expr& e) {  // (inline: asked of every node by several walks)
    switch (e.kind) {
    case ast::ExprKind::Name: case ast::ExprKind::Constant: case ast::ExprKind::Slice: case ast::ExprKind::Tuple:
    case ast::ExprKind::List: case ast::ExprKind::Lambda: case ast::ExprKind::JoinedStr:
        return false;
    case ast::ExprKind::Starred:  // unpacking a display or a constant iterates no user object
        return !e.value || !(e.value->kind == ast::ExprKind::List || e.value->kind == ast::ExprKind::Tuple ||
                             e.value->kind == ast::ExprKind::Constant);
    default: return true;
    }
}

// Names a statement binds or unbinds (assignment targets, `del`, imports, definitions, loop targets).
std::set<std::string> names_bound_by(const ast::Stmt& s);

// Returns `tree` with every occurrence of the node `from` replaced by `to`; nodes on the way are
// copied, everything else is shared. `on_copy(old, new)` is told about each copied node.
ast::ExprPtr replace_node(const ast::ExprPtr& tree, const ast::Expr* from, const ast::ExprPtr& to,
                          const std::function<void(const ast::Expr*, const ast::ExprPtr&)>& on_copy);

// True when, evaluating the statement in Python's order, the name `name` is loaded before any
// node with an effect runs (and is loaded unconditionally). Used to put a temporary's value back in
// place: `tmp = V; stmt(tmp)` is `stmt(V)` when nothing with an effect runs before `tmp` in stmt.
bool evaluated_first_in_statement(const ast::Stmt& s, const std::string& name);

// Puts single-use temporaries (names starting with `prefix`) back into the statement that follows
// their assignment, where evaluated_first_in_statement allows; recursive into nested bodies.
void inline_temporaries(ast::Body& body, const std::string& prefix);

// A node with an effect that occurs twice in the statements (not counting nested function bodies'
// own code, which is built separately); nullptr when none. Printing such a node twice would
// evaluate it twice.
const ast::Expr* duplicated_effect(const ast::Body& body);

}  // namespace uncompile
