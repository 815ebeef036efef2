#include "source_indent.h"

namespace uncompile {

std::string indent_source(std::string_view text, std::string_view indent) {
    std::string out;
    out.reserve(text.size() + text.size() / 8 * indent.size() + 1);
    char quote = 0;  // the quote character of the string literal open here, or 0
    bool triple = false;
    bool line_start = true;
    auto is_at = [&](size_t i, char c) { return i < text.size() && text[i] == c; };
    for (size_t i = 0; i < text.size(); ++i) {
        char c = text[i];
        if (line_start && quote == 0 && c != '\n') out += indent;
        line_start = false;
        out += c;
        if (c == '\n') {
            line_start = true;
            if (!triple) quote = 0;  // (an unterminated one-line string ends with its line)
        } else if (quote != 0) {
            if (c == '\\' && i + 1 < text.size()) {
                out += text[++i];
                if (text[i] == '\n') line_start = true;
            } else if (c == quote && (!triple || (is_at(i + 1, quote) && is_at(i + 2, quote)))) {
                if (triple) {
                    out.append(2, quote);
                    i += 2;
                }
                quote = 0;
            }
        } else if (c == '#') {
            while (i + 1 < text.size() && text[i + 1] != '\n') out += text[++i];
        } else if (c == '\'' || c == '"') {
            quote = c;
            triple = is_at(i + 1, c) && is_at(i + 2, c);
            if (triple) {
                out.append(2, c);
                i += 2;
            }
        }
    }
    if (!out.empty() && out.back() != '\n') out += '\n';
    return out;
}

}  // namespace uncompile
