#pragma once
// How a docstring is spelled: as the triple-quoted block a person writes, wherever that reads back
// as the same constant.
#include <string>
#include <string_view>

namespace uncompile {

// The literal for a docstring whose statement is indented by `indent`. Before 3.13 the constant
// is the text between the quotes, so its lines are written as they are (their indentation is the
// source's own). 3.13+ (`compiler_cleans`) stores the text with its indentation stripped
// (clean_docstring): the lines after the first are indented with the body again where that strips
// back to the same constant, and written as they are where that does. A constant that neither
// gives back (one no compiler wrote: tabs, a first line that starts with spaces) keeps the
// one-line literal, which 3.13 strips too: such a docstring cannot be written so that it
// recompiles to the same constant, and verification says so. Text with backslashes is written as
// a raw block where one spells it.
std::string docstring_literal(const std::string& value, std::string_view indent, bool compiler_cleans);

// What CPython 3.13+ stores for docstring text `doc` that holds no tab (it expands tabs first;
// Python/compile.c, _PyCompile_CleanDoc): the first line without its leading spaces, and each
// later line without the smallest indentation of the later lines that are not blank.
std::string clean_docstring(std::string_view doc);

}  // namespace uncompile
