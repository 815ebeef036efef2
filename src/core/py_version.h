#pragma once
#include <compare>
#include <string>

namespace uncompile {

// The CPython minor version that produced a piece of bytecode. Patch releases share bytecode.
struct PyVersion {
    int major = 3;
    int minor = 0;

    auto operator<=>(const PyVersion&) const = default;
    std::string str() const { return std::to_string(major) + "." + std::to_string(minor); }
};

}  // namespace uncompile
