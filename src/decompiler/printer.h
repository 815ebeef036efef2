#pragma once
// Syntax tree -> Python source, with the fewest parentheses that keep the meaning (the operator
// precedence scheme of CPython's ast.unparse: the parent sets the precedence each child needs).
#include <string>

#include "ast.h"

namespace uncompile::ast {

struct PrintOptions {
    int indent = 4;
};

std::string print_module(const Body& body, const PrintOptions& options = {});
std::string print_expression(const Expr& e);

}  // namespace uncompile::ast
