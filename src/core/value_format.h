#pragma once
#include <optional>
#include <string>

#include "py_value.h"

namespace uncompile {

// Python's repr() of a float: shortest round-tripping digits, "1e+16", "0.0001", "inf", "-0.0".
std::string float_repr(double value);

// Python's repr() of a complex number: "2j", "(1-2.5j)", "(-0-1j)".
std::string complex_repr(double real, double imag);

// Source text that the compiler folds into exactly this complex constant, signed zeros included
// (repr's "(-0-0j)" reads back as a different number); nullopt for the two values no literal
// expression folds to, complex(0.0, -0.0) and complex(-0.0, 0.0).
std::optional<std::string> complex_source(double real, double imag);

// Decimal text of an int constant; ints too large to convert quickly are written in hex ("0x...")
// so the cost stays linear in the input.
std::string int_text(const PyValue& value);

// A string or bytes literal that Python reads back as the same value. Printable characters stay
// as they are; the rest are escaped.
std::string str_literal(const std::string& utf8);
std::string bytes_literal(const std::string& bytes);

// A """-quoted literal of `utf8` written over several lines, as docstrings are: each newline of the
// text is a line break of the literal (where the text's lines are to be indented, the caller puts
// the indentation into the text: it is part of the value). Backslashes, quotes that would end the
// literal and unprintable characters are escaped.
std::string triple_quoted_literal(const std::string& utf8);

// Raw literals for text with backslashes (regular expressions, Windows paths, docstrings that
// show escapes), which read as written there: r'\d+' instead of '\\d+'. nullopt where no raw
// literal spells the text (an unprintable or non-ASCII character, an odd run of backslashes at
// the end, both quote kinds in a one-line literal, three quotes or a final quote in a
// triple-quoted one). The triple-quoted one keeps newlines as triple_quoted_literal does.
std::optional<std::string> raw_str_literal(const std::string& utf8);
std::optional<std::string> raw_triple_quoted_literal(const std::string& utf8);

// The triple-quoted block for `utf8`: raw where a raw literal spells it, escaped where not.
std::string triple_quoted_block(const std::string& utf8);

// repr()-like text of any constant, for listings. Code objects print as <code NAME>.
std::string value_repr(const PyValue& value);

// The canonical text used to compare against the interpreters' own `dis` (tools/dis_oracle.py).
std::string canonical_value(const PyValue& value);
std::string canonical_str(const std::string& utf8);

}  // namespace uncompile
