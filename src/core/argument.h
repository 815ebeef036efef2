#pragma once
#include <string>

#include "instruction.h"

namespace uncompile {

// What an instruction's argument means, resolved against its code object the way the
// interpreter's own `dis` resolves it.
struct ResolvedArgument {
    std::string canonical;  // the oracle form (tools/dis_oracle.py); "-" without an argument
    std::string display;    // the human form, like dis's argrepr; may be empty
};

// Which forms to compute: the canonical one costs a second rendering of every constant and name,
// and only the oracle listing and the Python records need it.
enum class ArgumentForms { Both, DisplayOnly };

ResolvedArgument resolve_argument(const CodeObject& code, const OpcodeTable& table, const Instruction& ins,
                                  ArgumentForms forms = ArgumentForms::Both);

}  // namespace uncompile
