#include "code_object.h"

namespace uncompile {

namespace {
const std::string* at(const std::vector<std::string>& names, uint32_t index) {
    return index < names.size() ? &names[index] : nullptr;
}
}  // namespace

const std::string* CodeObject::deref_name(uint32_t arg) const {
    // 3.11 unified locals, cells and free variables into one array of slots.
    if (version >= PyVersion{3, 11}) return at(localsplus_names, arg);
    if (arg < cellvars.size()) return &cellvars[arg];
    return at(freevars, arg - static_cast<uint32_t>(cellvars.size()));
}

bool CodeObject::deref_is_free(uint32_t arg) const {
    if (version >= PyVersion{3, 11}) return arg < localsplus_kinds.size() && (localsplus_kinds[arg] & kLocalFree);
    return arg >= cellvars.size();
}

const std::string* CodeObject::local_name(uint32_t arg) const {
    if (version >= PyVersion{3, 11}) return at(localsplus_names, arg);
    return at(varnames, arg);
}

}  // namespace uncompile
