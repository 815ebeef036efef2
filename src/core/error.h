#pragma once
#include <stdexcept>
#include <string>

namespace uncompile {

// Every failure the core reports on bad input. `kind` lets bindings map it to a typed exception.
class Error : public std::runtime_error {
public:
    enum class Kind { BadInput, UnsupportedVersion, LimitExceeded, Unsupported };

    Error(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
    Kind kind() const { return kind_; }

private:
    Kind kind_;
};

[[noreturn]] inline void fail_bad_input(const std::string& message) { throw Error(Error::Kind::BadInput, message); }

}  // namespace uncompile
