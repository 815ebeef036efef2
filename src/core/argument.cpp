#include "argument.h"

#include "value_format.h"

namespace uncompile {

namespace {

std::string bad_index(int64_t index) { return "<bad index " + std::to_string(index) + ">"; }

const std::string* name_at(const std::vector<std::string>& names, int64_t index) {
    return index >= 0 && static_cast<size_t>(index) < names.size() ? &names[index] : nullptr;
}

ResolvedArgument name_argument(const std::string* name, int64_t index, ArgumentForms forms = ArgumentForms::Both) {
    if (!name) return {bad_index(index), bad_index(index)};
    return {forms == ArgumentForms::Both ? canonical_str(*name) : std::string(), *name};
}

ResolvedArgument pick_from(const std::vector<std::string>& list, int64_t index) {
    const std::string* item = name_at(list, index);
    if (!item) return {bad_index(index), bad_index(index)};
    return {*item, *item};
}

std::string flag_list(const std::vector<std::string>& names, int64_t arg) {
    std::string out;
    for (size_t i = 0; i < names.size(); ++i)
        if (arg & (int64_t(1) << i)) out += (out.empty() ? "" : ", ") + names[i];
    return out;
}

// The conversion functions FORMAT_VALUE / CONVERT_VALUE name, by the low bits of the argument.
const char* conversion_name(int64_t which) {
    static const char* names[] = {"None", "str", "repr", "ascii"};
    return which >= 0 && which < 4 ? names[which] : "?";
}

ResolvedArgument with_int(ResolvedArgument r, int64_t arg) {
    r.canonical = std::to_string(arg);
    return r;
}

}  // namespace

ResolvedArgument resolve_argument(const CodeObject& code, const OpcodeTable& table, const Instruction& ins,
                                  ArgumentForms forms) {
    if (!ins.has_arg) return {"-", ""};
    const int64_t index = ins.index;
    const int64_t arg = ins.arg;
    const int64_t low_bits = ins.flag_bits(table);
    if (ins.is(kHasConst)) {
        if (index < 0 || static_cast<size_t>(index) >= code.consts.size()) return {bad_index(index), bad_index(index)};
        const PyValue& value = *code.consts[index];
        return {forms == ArgumentForms::Both ? canonical_value(value) : std::string(), value_repr(value)};
    }
    if (ins.is(kHasName)) {
        ResolvedArgument r = name_argument(name_at(code.names, index), index, forms);
        if (low_bits && ins.op == Opcode::LOAD_GLOBAL) r.display = "NULL + " + r.display;
        else if (low_bits & 1) r.display = "NULL|self + " + r.display;
        return r;
    }
    if (ins.is_jump()) return {std::to_string(ins.jump_target), "to " + std::to_string(ins.jump_target)};
    switch (ins.op) {
    case Opcode::LOAD_FAST_LOAD_FAST:
    case Opcode::STORE_FAST_LOAD_FAST:
    case Opcode::STORE_FAST_STORE_FAST: {  // two 4-bit local indices in one argument (3.13)
        ResolvedArgument first = name_argument(code.local_name(uint32_t(arg >> 4)), arg >> 4);
        ResolvedArgument second = name_argument(code.local_name(uint32_t(arg & 15)), arg & 15);
        return {"(" + first.canonical + ", " + second.canonical + ")", first.display + ", " + second.display};
    }
    default: break;
    }
    if (ins.is(kHasLocal)) return name_argument(code.local_name(uint32_t(index)), index, forms);
    if (ins.is(kHasFree)) return name_argument(code.deref_name(uint32_t(index)), index, forms);
    if (ins.is(kHasCompare)) {
        ResolvedArgument r = pick_from(table.compare_ops, index);
        if (r.canonical == r.display) r.canonical = canonical_str(r.display);  // dis gives the operator as a str
        if (ins.op == Opcode::COMPARE_OP && table.info(ins.byte).arg_flag_bits == 5 && (arg & 16))
            r.display = "bool(" + r.display + ")";
        return r;
    }
    switch (ins.op) {
    case Opcode::FORMAT_VALUE: {
        std::string fn = conversion_name(arg & 3);
        bool has_spec = arg & 4;
        std::string display = fn == "None" ? "" : fn;
        if (has_spec) display += display.empty() ? "with format" : ", with format";
        return {"(" + fn + ", " + (has_spec ? "True" : "False") + ")", display};
    }
    case Opcode::CONVERT_VALUE: {
        std::string fn = conversion_name(arg);
        return {fn, fn == "None" ? "" : fn};
    }
    case Opcode::MAKE_FUNCTION:
    case Opcode::SET_FUNCTION_ATTRIBUTE: return with_int({"", flag_list(table.make_function_flags, arg)}, arg);
    case Opcode::BINARY_OP: return with_int(pick_from(table.binary_ops, arg), arg);
    case Opcode::CALL_INTRINSIC_1: return with_int(pick_from(table.intrinsic_1, arg), arg);
    case Opcode::CALL_INTRINSIC_2: return with_int(pick_from(table.intrinsic_2, arg), arg);
    default: return {std::to_string(arg), ""};
    }
}

}  // namespace uncompile
