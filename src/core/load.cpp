#include "load.h"

#include <charconv>

#include "error.h"
#include "marshal_reader.h"
#include "opcode_table.h"
#include "pyc_file.h"

namespace uncompile {

std::shared_ptr<const CodeObject> load_pyc(std::string_view data) { return read_pyc(data).code; }

std::shared_ptr<const CodeObject> load_marshalled_code(std::string_view data, PyVersion version) {
    if (!opcode_table_for(version))
        throw Error(Error::Kind::UnsupportedVersion,
                    "unsupported Python version " + version.str() + "; uncompile reads CPython 3.8 to 3.13");
    ObjectRef root = read_marshal(data, version);
    if (root->kind != PyValue::Kind::Code) fail_bad_input("marshal data does not hold a code object");
    return root->code;
}

std::optional<PyVersion> parse_version(std::string_view text) {
    size_t dot = text.find('.');
    if (dot == std::string_view::npos) return std::nullopt;
    PyVersion v;
    auto parse = [](std::string_view s, int& out) {
        auto r = std::from_chars(s.data(), s.data() + s.size(), out);
        return r.ec == std::errc() && r.ptr == s.data() + s.size() && !s.empty();
    };
    if (!parse(text.substr(0, dot), v.major) || !parse(text.substr(dot + 1), v.minor)) return std::nullopt;
    return v;
}

}  // namespace uncompile
