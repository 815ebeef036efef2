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

std::vector<CodeRecord> code_records(const CodeObject& root, ArgumentForms forms) {
    const OpcodeTable& table = table_for(root);
    std::vector<CodeRecord> out;
    walk_code_objects(root, [&](const CodeObject& code) {
        CodeRecord record;
        record.code = &code;
        record.exception_table = decode_exception_table(code);
        std::vector<Instruction> instructions = decode_instructions(code, table);
        record.instructions.reserve(instructions.size());
        for (const auto& ins : instructions) {
            ResolvedArgument arg = resolve_argument(code, table, ins, forms);
            record.instructions.push_back({ins, opcode_name(ins.op), std::move(arg.canonical), std::move(arg.display)});
        }
        out.push_back(std::move(record));
    });
    return out;
}

}  // namespace uncompile
