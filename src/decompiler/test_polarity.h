#pragma once
// Tests (if / while / assert) printed so that they recompile to the jumps they were read from.
#include <set>

#include "ast.h"

namespace uncompile {

// `is` / `is not` comparisons against None that the bytecode holds only as a jump on None (3.11+
// POP_JUMP_IF_NONE / _NOT_NONE, which either operator compiles to, with the jump's sense flipped):
// negating one is the other operator, no `not`.
using FreeComparisons = std::set<const ast::Expr*>;

// Rewrites every statement test in `body` (recursively) that puts `not` right on a comparison the
// compiler's AST optimizer folds (`not a in b` compiles as `a not in b`, `is` alike) so that
// the `not` falls on an enclosing `and`/`or` instead (De Morgan: the same jumps); a test that has
// no such form is left as it is.
void place_negations(ast::Body& body, const FreeComparisons& free = {});

// `test` as place_negations writes a statement's test (itself where nothing changes): for the
// conditions of comprehensions, which are read from the same jumps.
ast::ExprPtr placed_test(const ast::ExprPtr& test, const FreeComparisons& free = {});

// Whether `if test:` can be printed (after place_negations) so that it recompiles to the jumps
// `test` was read from: false when a `not` stays right on a comparison the optimizer folds.
bool test_placeable(const ast::ExprPtr& test, const FreeComparisons& free = {});

}  // namespace uncompile
