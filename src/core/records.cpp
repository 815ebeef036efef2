#include "records.h"

#include "argument.h"
#include "code_walk.h"
#include "error.h"

namespace uncompile {

const OpcodeTable& table_for(const CodeObject& code) {
    const OpcodeTable* table = opcode_table_for(code.version);
    if (!table) throw Error(Error::Kind::UnsupportedVersion, "no opcode table for CPython " + code.version.str());
    return *table;
}

std::vector<CodeRecord> code_records(const CodeObject& root) {
    const OpcodeTable& table = table_for(root);
    std::vector<CodeRecord> out;
    walk_code_objects(root, [&](const CodeObject& code) {
        CodeRecord record;
        record.code = &code;
        record.exception_table = decode_exception_table(code);
        for (const auto& ins : decode_instructions(code, table)) {
            ResolvedArgument arg = resolve_argument(code, table, ins);
            record.instructions.push_back({ins, opcode_name(ins.op), arg.canonical, arg.display});
        }
        out.push_back(std::move(record));
    });
    return out;
}

}  // namespace uncompile
