#pragma once
#include <cstdint>
#include <memory>
#include <string_view>

#include "code_object.h"
#include "opcode_table.h"

namespace uncompile {

// A parsed .pyc file: the 16-byte header (PEP 552) and the module's code object.
struct PycFile {
    PyVersion version;
    uint16_t magic = 0;
    bool hash_based = false;
    bool check_source = false;
    uint32_t source_mtime = 0;  // timestamp-based pycs only
    uint32_t source_size = 0;
    uint64_t source_hash = 0;  // hash-based pycs only
    std::shared_ptr<const CodeObject> code;
};

// Throws Error: BadInput for a damaged file, UnsupportedVersion for a magic number we do not read.
PycFile read_pyc(std::string_view data);

// "3.7 or older", "a 3.13 pre-release", ... for a magic number no table matches.
std::string describe_unknown_magic(uint16_t magic);

}  // namespace uncompile
