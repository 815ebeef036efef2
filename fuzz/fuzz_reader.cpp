// libFuzzer target for the reader and decoder of the C++ core.
//
// Each input is tried two ways:
//   (a) as a whole .pyc file: read_pyc / load_pyc, then both listing formats;
//   (b) as bare marshal data: data[0] % 6 picks CPython 3.8..3.13, load_marshalled_code reads the
//       rest, then both listing formats.
// uncompile::Error is the expected outcome for bad input. Anything else -- a crash, an ASan/UBSan
// report, another exception (which escapes and aborts), a timeout or running out of memory -- is a bug.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/disassembler.h"
#include "core/error.h"
#include "core/load.h"
#include "core/pyc_file.h"

namespace {

void disassemble_both(const uncompile::CodeObject& code) {
    std::string records = uncompile::disassemble(code, uncompile::ListingFormat::Records);
    std::string human = uncompile::disassemble(code, uncompile::ListingFormat::Human);
    // Both listings start with the root code object, so neither can be empty.
    if (records.empty() || human.empty()) __builtin_trap();
}

void try_pyc(std::string_view data) {
    try {
        uncompile::PycFile pyc = uncompile::read_pyc(data);
        if (!pyc.code) __builtin_trap();
        disassemble_both(*pyc.code);
        // load_pyc is read_pyc(...).code; it must accept exactly what read_pyc accepted.
        auto code = uncompile::load_pyc(data);
        if (!code) __builtin_trap();
    } catch (const uncompile::Error&) {
    }
}

void try_marshal(std::string_view data) {
    if (data.empty()) return;
    uncompile::PyVersion version{3, 8 + static_cast<uint8_t>(data[0]) % 6};
    try {
        auto code = uncompile::load_marshalled_code(data.substr(1), version);
        if (!code) __builtin_trap();
        disassemble_both(*code);
    } catch (const uncompile::Error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::string_view input(reinterpret_cast<const char*>(data), size);
    try_pyc(input);
    try_marshal(input);
    return 0;
}
