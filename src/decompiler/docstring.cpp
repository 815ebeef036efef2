#include "docstring.h"

#include <algorithm>
#include <optional>

#include "core/value_format.h"

namespace uncompile {

namespace {

// `text` with `prefix` after each newline that another newline does not follow (and so before
// the closing quotes after a final newline): the lines of a docstring block indented with its body.
std::string with_line_prefix(std::string_view text, std::string_view prefix) {
    std::string out;
    out.reserve(text.size() + prefix.size() * 8);
    for (size_t k = 0; k < text.size(); ++k) {
        out += text[k];
        if (text[k] == '\n' && (k + 1 == text.size() || text[k + 1] != '\n')) out += prefix;
    }
    return out;
}

}  // namespace

std::string clean_docstring(std::string_view doc) {
    constexpr size_t kNone = std::string_view::npos;
    size_t margin = kNone;
    size_t p = doc.find('\n');
    p = p == kNone ? doc.size() : p + 1;
    while (p < doc.size()) {
        size_t start = p;
        while (p < doc.size() && doc[p] == ' ') ++p;
        if (p < doc.size() && doc[p] != '\n') margin = std::min(margin, p - start);
        while (p < doc.size() && doc[p++] != '\n') {
        }
    }
    if (margin == kNone) margin = 0;
    size_t lead = 0;
    while (lead < doc.size() && doc[lead] == ' ') ++lead;
    if (lead == 0 && margin == 0) return std::string(doc);
    std::string out;
    p = lead;
    auto copy_line = [&] {
        while (p < doc.size()) {
            char c = doc[p++];
            out += c;
            if (c == '\n') break;
        }
    };
    copy_line();
    while (p < doc.size()) {
        for (size_t i = 0; i < margin && p < doc.size() && doc[p] == ' '; ++i) ++p;
        copy_line();
    }
    return out;
}

std::string docstring_literal(const std::string& value, std::string_view indent, bool compiler_cleans) {
    if (value.empty()) return str_literal(value);  // ('' reads better than six quotes)
    // (A raw literal where one spells it, as PEP 257 asks of docstrings with backslashes.)
    if (!compiler_cleans) return triple_quoted_block(value);
    if (value.find('\t') == std::string::npos)
        for (std::string_view prefix : {indent, std::string_view()}) {
            std::string text = with_line_prefix(value, prefix);
            if (clean_docstring(text) == value) return triple_quoted_block(text);
        }
    return str_literal(value);
}

}  // namespace uncompile
