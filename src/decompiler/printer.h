#pragma once
// Syntax tree -> Python source, with the fewest parentheses that keep the meaning (the operator
// precedence scheme of CPython's ast.unparse: the parent sets the precedence each child needs).
#include <string>

#include "ast.h"

namespace uncompile::ast {

struct PrintOptions {
    int indent = 4;
    bool nested_fstring_quotes = false;  // PEP 701 (3.12+): a replacement field may hold any quote or backslash
};

std::string print_module(const Body& body, const PrintOptions& options = {});
std::string print_expression(const Expr& e, const PrintOptions& options = {});

}  // namespace uncompile::ast
