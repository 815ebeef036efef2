#include "value_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <type_traits>

#include "code_object.h"
#include "concat.h"
#include "text_encoding.h"

namespace uncompile {

namespace {

// Digits and decimal-point position of the shortest round-tripping form: value = 0.DIGITS * 10^decpt.
void shortest_digits(double magnitude, std::string& digits, int& decpt) {
    char buf[64];
    auto result = std::to_chars(buf, buf + sizeof buf, magnitude, std::chars_format::scientific);
    std::string text(buf, result.ptr);
    size_t e = text.find('e');
    std::string mantissa = text.substr(0, e);
    int exponent = std::stoi(text.substr(e + 1));
    mantissa.erase(std::remove(mantissa.begin(), mantissa.end(), '.'), mantissa.end());
    while (mantissa.size() > 1 && mantissa.back() == '0') mantissa.pop_back();
    digits = mantissa;
    decpt = exponent + 1;
}

// CPython's float_repr_style "short" formatting ('r' format code).
std::string format_repr(double value, bool add_dot_zero) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    std::string sign = std::signbit(value) ? "-" : "";
    if (value == 0) return sign + (add_dot_zero ? "0.0" : "0");
    std::string digits;
    int decpt;
    shortest_digits(std::fabs(value), digits, decpt);
    int ndigits = static_cast<int>(digits.size());
    if (decpt <= -4 || decpt > 16) {
        std::string out = sign + digits.substr(0, 1);
        if (ndigits > 1) out += concat(".", digits.substr(1));
        int exp = decpt - 1;
        char buf[16];
        std::snprintf(buf, sizeof buf, "e%c%02d", exp < 0 ? '-' : '+', std::abs(exp));
        return out + buf;
    }
    if (decpt <= 0) return sign + "0." + std::string(-decpt, '0') + digits;
    if (decpt >= ndigits) return sign + digits + std::string(decpt - ndigits, '0') + (add_dot_zero ? ".0" : "");
    return sign + digits.substr(0, decpt) + "." + digits.substr(decpt);
}

// Magnitude of a big int as base-2^15 digits -> decimal, by repeated division (quadratic, so capped).
constexpr size_t kMaxDecimalDigits15 = 2000;

std::string big_decimal(std::vector<uint16_t> digits) {
    std::string out;
    while (!digits.empty()) {
        uint32_t remainder = 0;
        for (size_t i = digits.size(); i-- > 0;) {
            uint32_t current = (remainder << 15) | digits[i];
            digits[i] = static_cast<uint16_t>(current / 10000);
            remainder = current % 10000;
        }
        while (!digits.empty() && digits.back() == 0) digits.pop_back();
        for (int k = 0; k < 4; ++k) {
            out += static_cast<char>('0' + remainder % 10);
            remainder /= 10;
        }
    }
    while (out.size() > 1 && out.back() == '0') out.pop_back();
    std::reverse(out.begin(), out.end());
    return out;
}

std::string big_hex(const std::vector<uint16_t>& digits) {
    std::string out;
    uint32_t acc = 0;
    int bits = 0;
    for (uint16_t d : digits) {
        acc |= uint32_t(d) << bits;
        bits += 15;
        while (bits >= 4) {
            out += "0123456789abcdef"[acc & 15];
            acc >>= 4;
            bits -= 4;
        }
    }
    if (bits > 0) out += "0123456789abcdef"[acc & 15];
    while (out.size() > 1 && out.back() == '0') out.pop_back();
    std::reverse(out.begin(), out.end());
    return "0x" + out;
}

// Characters Python's repr() escapes; non-ASCII decisions approximate str.isprintable without the
// Unicode database, erring towards escaping (an escape always reads back as the same value).
bool needs_escape(uint32_t cp) {
    if (cp < 0x20 || cp == 0x7f) return true;
    if (cp < 0x7f) return false;
    if (cp <= 0xa0 || cp == 0xad) return true;                        // C1 controls, NBSP, soft hyphen
    if (cp >= 0xd800 && cp <= 0xdfff) return true;                    // lone surrogates cannot be UTF-8 source
    if (cp >= 0x2000 && cp <= 0x200f) return true;                    // spaces and format characters
    if (cp >= 0x2028 && cp <= 0x202f) return true;
    if (cp >= 0x205f && cp <= 0x206f) return true;
    if (cp == 0x1680 || cp == 0x3000 || cp == 0xfeff || (cp >= 0xfff0 && cp <= 0xffff)) return true;
    if (cp >= 0xe000 && cp <= 0xf8ff) return true;                    // private use
    if (cp >= 0xe0000) return true;                                   // tags, private planes
    return false;
}

void append_escape(std::string& out, uint32_t cp) {
    char buf[16];
    switch (cp) {
    case '\n': out += "\\n"; return;
    case '\r': out += "\\r"; return;
    case '\t': out += "\\t"; return;
    case '\\': out += "\\\\"; return;
    }
    if (cp <= 0xff) std::snprintf(buf, sizeof buf, "\\x%02x", cp);
    else if (cp <= 0xffff) std::snprintf(buf, sizeof buf, "\\u%04x", cp);
    else std::snprintf(buf, sizeof buf, "\\U%08x", cp);
    out += buf;
}

// A code point of a sequence: the elements of decoded text, or the bytes of bytes or ASCII text.
uint32_t code_point(uint32_t cp) { return cp; }
uint32_t code_point(char byte) { return static_cast<unsigned char>(byte); }

template <class CodePoints>
char pick_quote(const CodePoints& cps) {
    bool single = false, dbl = false;
    for (auto c : cps) {
        single = single || code_point(c) == '\'';
        dbl = dbl || code_point(c) == '"';
    }
    return single && !dbl ? '"' : '\'';
}

// Appends the run of code points from cps[k] on that `verbatim` accepts (printable ASCII that
// stands for itself in the literal being written: most of a docstring) in one copy; returns the
// index of the run's last code point.
template <class CodePoints, class Verbatim>
size_t append_verbatim_run(std::string& out, const CodePoints& cps, size_t k, Verbatim verbatim) {
    size_t end = k + 1;
    while (end < cps.size() && verbatim(code_point(cps[end]))) ++end;
    if constexpr (std::is_same_v<CodePoints, std::string>) {
        out.append(cps, k, end - k);
    } else {
        for (size_t j = k; j < end; ++j) out += static_cast<char>(cps[j]);
    }
    return end - 1;
}

template <class CodePoints>
std::string quote_code_points(const CodePoints& cps, const char* prefix, bool bytes) {
    char quote = pick_quote(cps);
    std::string out = prefix;
    out.reserve(out.size() + cps.size() + 2);  // (the common size: few characters are escaped)
    out += quote;
    // Printable ASCII other than the quote and the backslash stands for itself (in str and bytes
    // literals alike): such runs, most of a docstring, are copied whole.
    auto verbatim = [&](uint32_t cp) { return cp >= 0x20 && cp < 0x7f && cp != uint32_t(quote) && cp != '\\'; };
    for (size_t k = 0; k < cps.size(); ++k) {
        uint32_t cp = code_point(cps[k]);
        if (verbatim(cp)) {
            k = append_verbatim_run(out, cps, k, verbatim);
            continue;
        }
        if (cp == uint32_t(quote)) {
            out += '\\';
            out += quote;
        } else if (cp == '\\' || (bytes ? (cp < 0x20 || cp >= 0x7f) : needs_escape(cp))) {
            append_escape(out, cp);
        } else {
            append_utf8(out, cp);
        }
    }
    out += quote;
    return out;
}

std::string join(const std::vector<ObjectRef>& items, std::string (*render)(const PyValue&), size_t step = 1,
                 size_t first = 0) {
    std::string out;
    for (size_t i = first; i < items.size(); i += step) {
        if (i != first) out += ", ";
        out += render(*items[i]);
    }
    return out;
}

std::string canonical_escape(std::string_view prefix, const std::vector<uint32_t>& cps, const char* hex_prefix) {
    std::string out(prefix);
    out += '"';
    char buf[24];
    for (uint32_t cp : cps) {
        if (cp >= 0x20 && cp <= 0x7e && cp != '"' && cp != '\\') {
            out += static_cast<char>(cp);
        } else {
            std::snprintf(buf, sizeof buf, "%s{%X}", hex_prefix, cp);
            out += buf;
        }
    }
    out += '"';
    return out;
}

std::string canonical_sorted(const char* open, const std::vector<ObjectRef>& items) {
    std::vector<std::string> parts;
    for (const auto& item : items) parts.push_back(canonical_value(*item));
    std::sort(parts.begin(), parts.end());
    std::string out = open;
    for (size_t i = 0; i < parts.size(); ++i) out += (i ? ", " : "") + parts[i];
    return out + "}";
}

// Most names and strings are plain printable ASCII: no quote choice, no escapes to find.
bool plain_ascii(std::string_view text, char quote) {
    for (char c : text)
        if (c < 0x20 || c > 0x7e || c == '\\' || c == quote) return false;
    return true;
}

std::string quoted(char open_prefix, std::string_view text, char quote) {
    std::string out;
    out.reserve(text.size() + 3);
    if (open_prefix) out += open_prefix;
    out += quote;
    out += text;
    out += quote;
    return out;
}

}  // namespace

std::string float_repr(double value) { return format_repr(value, true); }

std::string complex_repr(double real, double imag) {
    std::string imag_text = format_repr(imag, false);
    if (real == 0 && !std::signbit(real)) return imag_text + "j";
    std::string sign = imag_text[0] == '-' ? "" : "+";
    return concat("(", format_repr(real, false), sign, imag_text, "j)");
}

std::optional<std::string> complex_source(double real, double imag) {
    // The compiler folds `R + Ij` as complex(R + 0.0, 0.0 + I) and `R - Xj` as complex(R - 0.0,
    // 0.0 - X): adding 0.0 loses a -0.0, subtracting it keeps one, and negation flips both signs.
    // Each form below is used only where that arithmetic gives back both parts bit for bit.
    auto text = [](double x) { return format_repr(x, false); };
    bool real_zero = real == 0, imag_zero = imag == 0;
    bool real_neg = std::signbit(real), imag_neg = std::signbit(imag);
    if (real_zero && !real_neg) {
        if (!imag_neg) return text(imag) + "j";                                   // (0.0, i)
        if (!imag_zero) return concat("(0 - ", text(-imag), "j)");                 // (0.0, -x)
        return std::nullopt;                                                       // (0.0, -0.0)
    }
    if (real_zero) {
        if (imag_neg) return concat("-", text(-imag), "j");                        // (-0.0, -x)
        if (!imag_zero) return concat("-(0 - ", text(imag), "j)");                 // (-0.0, x)
        return std::nullopt;                                                       // (-0.0, 0.0)
    }
    if (!imag_neg) return concat("(", text(real), " + ", text(imag), "j)");
    if (!imag_zero) return concat("(", text(real), " - ", text(-imag), "j)");
    return concat("-(", text(-real), " + 0j)");                                    // (r, -0.0)
}

std::string int_text(const PyValue& value) {
    if (!value.is_big_int()) return std::to_string(value.small);
    std::string sign = value.negative ? "-" : "";
    if (value.big_digits.size() > kMaxDecimalDigits15) return sign + big_hex(value.big_digits);
    return sign + big_decimal(value.big_digits);
}

std::string str_literal(const std::string& utf8) {
    if (plain_ascii(utf8, '\'')) return quoted(0, utf8, '\'');
    // ASCII text is its own code points (docstrings mostly: ASCII with newlines to escape).
    if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
        return quote_code_points(utf8, "", false);
    return quote_code_points(utf8_code_points(utf8), "", false);
}

std::string bytes_literal(const std::string& bytes) { return quote_code_points(bytes, "b", true); }

namespace {

template <class CodePoints>
std::string triple_quoted(const CodePoints& cps, size_t size_hint) {
    std::string out = "\"\"\"";
    out.reserve(size_hint + 8);
    auto at = [&](size_t k) { return k < cps.size() ? code_point(cps[k]) : uint32_t(0); };
    auto verbatim = [](uint32_t cp) { return cp >= 0x20 && cp < 0x7f && cp != '"' && cp != '\\'; };
    for (size_t k = 0; k < cps.size(); ++k) {
        uint32_t cp = code_point(cps[k]);
        if (verbatim(cp)) {
            k = append_verbatim_run(out, cps, k, verbatim);
        } else if (cp == '\n') {
            out += '\n';
        } else if (cp == '"') {
            // Unescaped, a quote must neither start three in a row nor run into the closing ones.
            bool closes = k + 1 == cps.size() || (at(k + 1) == '"' && at(k + 2) == '"');
            out += closes ? "\\\"" : "\"";
        } else if (cp == '\\' || needs_escape(cp)) {
            append_escape(out, cp);
        } else {
            append_utf8(out, cp);
        }
    }
    out += "\"\"\"";
    return out;
}

}  // namespace

std::string triple_quoted_literal(const std::string& utf8) {
    if (std::all_of(utf8.begin(), utf8.end(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
        return triple_quoted(utf8, utf8.size());  // (ASCII text is its own code points)
    return triple_quoted(utf8_code_points(utf8), utf8.size());
}

namespace {

// Whether `text` can be spelled between the quotes of a raw literal as it is: backslashes in it
// and only printable ASCII (newlines too where `newlines`), no odd run of backslashes at its end
// (it would escape the closing quote).
bool raw_spellable(const std::string& text, bool newlines) {
    if (text.find('\\') == std::string::npos) return false;
    for (char c : text)
        if (!((c >= 0x20 && c < 0x7f) || (newlines && c == '\n'))) return false;
    size_t last = text.find_last_not_of('\\');
    size_t trailing = last == std::string::npos ? text.size() : text.size() - 1 - last;
    return trailing % 2 == 0;
}

}  // namespace

std::optional<std::string> raw_str_literal(const std::string& utf8) {
    if (!raw_spellable(utf8, false)) return std::nullopt;
    for (char q : {'\'', '"'})
        if (utf8.find(q) == std::string::npos) return concat("r", std::string(1, q), utf8, std::string(1, q));
    return std::nullopt;
}

std::optional<std::string> raw_triple_quoted_literal(const std::string& utf8) {
    if (!raw_spellable(utf8, true) || utf8.find("\"\"\"") != std::string::npos || utf8.back() == '"') return std::nullopt;
    return concat("r\"\"\"", utf8, "\"\"\"");
}

std::string triple_quoted_block(const std::string& utf8) {
    if (std::optional<std::string> raw = raw_triple_quoted_literal(utf8)) return *raw;
    return triple_quoted_literal(utf8);
}

std::string value_repr(const PyValue& v) {
    using K = PyValue::Kind;
    switch (v.kind) {
    case K::None: return "None";
    case K::True: return "True";
    case K::False: return "False";
    case K::Ellipsis: return "Ellipsis";
    case K::StopIteration: return "StopIteration";
    case K::Int: return int_text(v);
    case K::Float: return float_repr(v.real);
    case K::Complex: return complex_repr(v.real, v.imag);
    case K::Str: return str_literal(v.text);
    case K::Bytes: return bytes_literal(v.text);
    case K::Tuple: return concat("(", join(v.items, value_repr), v.items.size() == 1 ? ",)" : ")");
    case K::List: return concat("[", join(v.items, value_repr), "]");
    case K::Set: return v.items.empty() ? "set()" : concat("{", join(v.items, value_repr), "}");
    case K::FrozenSet: return v.items.empty() ? "frozenset()" : concat("frozenset({", join(v.items, value_repr), "})");
    case K::Dict: {
        std::string out = "{";
        for (size_t i = 0; i + 1 < v.items.size(); i += 2)
            out += (i ? ", " : "") + value_repr(*v.items[i]) + ": " + value_repr(*v.items[i + 1]);
        return out + "}";
    }
    case K::Code: return concat("<code ", v.code->name, ">");
    case K::Placeholder: return concat("<", v.text, ">");
    }
    return "?";
}

std::string canonical_str(const std::string& utf8) {
    if (plain_ascii(utf8, '"')) return quoted('s', utf8, '"');
    return canonical_escape("s", utf8_code_points(utf8), "\\u");
}

std::string canonical_value(const PyValue& v) {
    using K = PyValue::Kind;
    switch (v.kind) {
    case K::Ellipsis: return "...";
    case K::Str: return canonical_str(v.text);
    case K::Bytes: {
        std::vector<uint32_t> cps;
        for (char c : v.text) cps.push_back(static_cast<uint8_t>(c));
        return canonical_escape("b", cps, "\\x");
    }
    case K::Complex: return concat("complex(", float_repr(v.real), ", ", float_repr(v.imag), ")");
    case K::Tuple: return concat("(", join(v.items, canonical_value), ")");
    case K::List: return concat("[", join(v.items, canonical_value), "]");
    case K::Dict: {
        std::string out = "{";
        for (size_t i = 0; i + 1 < v.items.size(); i += 2)
            out += (i ? ", " : "") + canonical_value(*v.items[i]) + ": " + canonical_value(*v.items[i + 1]);
        return out + "}";
    }
    case K::Set: return canonical_sorted("set{", v.items);
    case K::FrozenSet: return canonical_sorted("frozenset{", v.items);
    default: return value_repr(v);
    }
}

}  // namespace uncompile
