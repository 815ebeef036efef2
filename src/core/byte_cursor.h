#pragma once
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "error.h"

namespace uncompile {

// Bounds-checked little-endian reads over a byte buffer; running past the end is a BadInput error.
class ByteCursor {
public:
    explicit ByteCursor(std::string_view data, std::string what = "marshal data")
        : data_(data), what_(std::move(what)) {}

    size_t position() const { return pos_; }
    size_t remaining() const { return data_.size() - pos_; }
    bool at_end() const { return pos_ >= data_.size(); }

    uint8_t u8() {
        need(1);
        return static_cast<uint8_t>(data_[pos_++]);
    }
    // The next byte, not consumed (the caller checks that one remains).
    char peek() const { return data_[pos_]; }
    uint16_t u16() {
        need(2);
        uint16_t v = static_cast<uint8_t>(data_[pos_]) | (static_cast<uint8_t>(data_[pos_ + 1]) << 8);
        pos_ += 2;
        return v;
    }
    uint32_t u32() {
        need(4);
        uint32_t v = 0;
        for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<uint8_t>(data_[pos_ + i]);
        pos_ += 4;
        return v;
    }
    int32_t i32() { return static_cast<int32_t>(u32()); }
    double f64() {
        need(8);
        uint64_t bits = 0;
        for (int i = 7; i >= 0; --i) bits = (bits << 8) | static_cast<uint8_t>(data_[pos_ + i]);
        pos_ += 8;
        double v;
        std::memcpy(&v, &bits, sizeof v);
        return v;
    }
    std::string_view bytes(size_t n) {
        need(n);
        std::string_view v = data_.substr(pos_, n);
        pos_ += n;
        return v;
    }

private:
    // (The check inlines into every read; the message is built out of line.)
    void need(size_t n) const {
        if (n > remaining()) [[unlikely]] fail_truncated(n);
    }
    [[noreturn, gnu::noinline, gnu::cold]] void fail_truncated(size_t n) const {
        fail_bad_input(what_ + " is truncated: needed " + std::to_string(n) + " more byte(s) at offset " +
                       std::to_string(pos_) + ", but only " + std::to_string(remaining()) + " remain");
    }

    std::string_view data_;
    size_t pos_ = 0;
    std::string what_;
};

}  // namespace uncompile
