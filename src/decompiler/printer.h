#pragma once
// Syntax tree -> Python source, with the fewest parentheses that keep the meaning (the operator
// precedence scheme of CPython's ast.unparse: the parent sets the precedence each child needs).
#include <optional>
#include <string>

#include "ast.h"

namespace uncompile::ast {

struct PrintOptions {
    int indent = 4;
    bool nested_fstring_quotes = false;  // PEP 701 (3.12+): a replacement field may hold any quote or backslash
    bool docstrings_cleaned = false;     // 3.13+: the compiler strips docstrings' indentation (docstring.h)
};

std::string print_module(const Body& body, const PrintOptions& options = {});
std::string print_expression(const Expr& e, const PrintOptions& options = {});

// Why some statement of `body` (not counting the bodies of its defs and classes) cannot be
// printed, e.g. an f-string whose expressions need both quote kinds; nullopt when it can. The
// decompiler refuses such a function instead of failing the whole module at printing.
std::optional<std::string> unprintable_reason(const Body& body, const PrintOptions& options = {});

}  // namespace uncompile::ast
