#pragma once
// Nesting Python source text one level deeper without changing what it means.
#include <string>
#include <string_view>

namespace uncompile {

// `text` with `indent` put before each line that is not empty, except the lines that continue a
// string literal (a triple-quoted docstring's later lines, or a line after a backslash-newline
// inside a string): indenting those would change the string's value. Every line ends with a
// newline. Strings are found as Python's tokenizer finds them (quotes, triple quotes, backslash
// escapes, comments), which is enough for the decompiler's output and ordinary source.
std::string indent_source(std::string_view text, std::string_view indent);

}  // namespace uncompile
