#pragma once
#include <string>
#include <vector>

#include "argument.h"
#include "code_object.h"
#include "exception_table.h"
#include "instruction.h"
#include "opcode_table.h"

namespace uncompile {

// Instructions of one code object with their arguments resolved, for callers outside C++.
struct InstructionRecord {
    Instruction instruction;
    const char* opname;   // static table text
    std::string argval;   // canonical form
    std::string argrepr;  // human form
};

struct CodeRecord {
    const CodeObject* code = nullptr;
    std::vector<ExceptionTableEntry> exception_table;
    std::vector<InstructionRecord> instructions;
};

// The opcode table for `code`'s version; throws Error(UnsupportedVersion) when there is none.
const OpcodeTable& table_for(const CodeObject& code);

// Every code object reachable from `root`, depth-first, decoded.
// With ArgumentForms::DisplayOnly, `argval` stays empty.
std::vector<CodeRecord> code_records(const CodeObject& root, ArgumentForms forms = ArgumentForms::Both);

}  // namespace uncompile
