#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace uncompile {

// UTF-8 as CPython's marshal writes it: lone surrogates (U+D800..U+DFFF) are allowed ("surrogatepass").
bool is_valid_utf8_surrogatepass(std::string_view bytes);

// Marshal's ASCII string types are read by CPython as Latin-1.
std::string latin1_to_utf8(std::string_view bytes);

// Code points of text already checked by is_valid_utf8_surrogatepass.
std::vector<uint32_t> utf8_code_points(std::string_view text);

void append_utf8(std::string& out, uint32_t code_point);

}  // namespace uncompile
