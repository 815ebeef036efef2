#include "pyc_file.h"

#include "byte_cursor.h"
#include "marshal_reader.h"

namespace uncompile {

std::string describe_unknown_magic(uint16_t magic) {
    // Ranges of magic numbers each CPython minor version used during its development
    // (Lib/importlib/_bootstrap_external.py).
    struct Range {
        uint16_t first, last;
        const char* version;
    };
    static const Range ranges[] = {
        {3400, 3419, "3.8"},  {3420, 3429, "3.9"},  {3430, 3449, "3.10"}, {3450, 3499, "3.11"},
        {3500, 3549, "3.12"}, {3550, 3599, "3.13"}, {3600, 3649, "3.14"}, {3650, 3699, "3.15"},
    };
    if (magic >= 20000) return "magic number " + std::to_string(magic) + " (Python 2)";
    if (magic >= 3000 && magic < 3400) return "magic number " + std::to_string(magic) + " (CPython 3.7 or older)";
    for (const auto& r : ranges)
        if (magic >= r.first && magic <= r.last)
            return "magic number " + std::to_string(magic) + " (a CPython " + r.version +
                   " pre-release or an unsupported version)";
    return "unknown magic number " + std::to_string(magic);
}

PycFile read_pyc(std::string_view data) {
    ByteCursor header(data, ".pyc header");
    PycFile pyc;
    pyc.magic = header.u16();
    if (header.u8() != '\r' || header.u8() != '\n')
        fail_bad_input("not a .pyc file: the magic number is not followed by \\r\\n");
    const OpcodeTable* table = opcode_table_for_magic(pyc.magic);
    if (!table)
        throw Error(Error::Kind::UnsupportedVersion,
                    "unsupported bytecode: " + describe_unknown_magic(pyc.magic) +
                        "; uncompile reads CPython 3.8 to 3.13");
    pyc.version = table->version;
    uint32_t flags = header.u32();
    if (flags & ~3u) fail_bad_input(".pyc header has unknown flag bits");
    pyc.hash_based = flags & 1;
    pyc.check_source = flags & 2;
    if (pyc.hash_based) {
        uint64_t low = header.u32();
        pyc.source_hash = low | (uint64_t(header.u32()) << 32);
    } else {
        pyc.source_mtime = header.u32();
        pyc.source_size = header.u32();
    }
    ObjectRef root = read_marshal(data.substr(header.position()), pyc.version);
    if (root->kind != PyValue::Kind::Code) fail_bad_input(".pyc file does not hold a code object");
    pyc.code = root->code;
    return pyc;
}

}  // namespace uncompile
