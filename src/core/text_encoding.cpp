#include "text_encoding.h"

#include <algorithm>

namespace uncompile {

namespace {

// Decodes one code point at `i`; returns the byte length, or 0 when the sequence is invalid.
size_t decode_one(std::string_view s, size_t i, uint32_t& cp) {
    auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
    uint8_t b0 = byte(i);
    size_t len;
    uint32_t min;
    if (b0 < 0x80) {
        cp = b0;
        return 1;
    } else if ((b0 & 0xE0) == 0xC0) {
        len = 2, cp = b0 & 0x1F, min = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
        len = 3, cp = b0 & 0x0F, min = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
        len = 4, cp = b0 & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (i + len > s.size()) return 0;
    for (size_t k = 1; k < len; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (byte(i + k) & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF) return 0;
    return len;
}

}  // namespace

bool is_valid_utf8_surrogatepass(std::string_view bytes) {
    for (size_t i = 0; i < bytes.size();) {
        uint32_t cp;
        size_t len = decode_one(bytes, i, cp);
        if (len == 0) return false;
        i += len;
    }
    return true;
}

std::string latin1_to_utf8(std::string_view bytes) {
    if (std::all_of(bytes.begin(), bytes.end(), [](char c) { return static_cast<uint8_t>(c) < 0x80; }))
        return std::string(bytes);  // ASCII is its own UTF-8
    std::string out;
    out.reserve(bytes.size() * 2);
    for (char c : bytes) append_utf8(out, static_cast<uint8_t>(c));
    return out;
}

std::vector<uint32_t> utf8_code_points(std::string_view text) {
    std::vector<uint32_t> out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        uint32_t cp = 0xFFFD;
        size_t len = decode_one(text, i, cp);
        if (len == 0) {
            cp = 0xFFFD;
            len = 1;
        }
        out.push_back(cp);
        i += len;
    }
    return out;
}

void append_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
        out += static_cast<char>(cp);
    } else if (cp < 0x800) {
        out += static_cast<char>(0xC0 | (cp >> 6));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += static_cast<char>(0xE0 | (cp >> 12));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
        out += static_cast<char>(0xF0 | (cp >> 18));
        out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
        out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
        out += static_cast<char>(0x80 | (cp & 0x3F));
    }
}

}  // namespace uncompile
