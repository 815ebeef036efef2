// The Python extension `uncompile._core`: a thin layer over the C++ core. Live code objects arrive
// as marshal data plus the version that wrote it (see uncompile/_bridge.py).
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "core/disassembler.h"
#include "core/equivalence.h"
#include "core/error.h"
#include "core/load.h"
#include "core/placeholders.h"
#include "core/records.h"
#include "core/source_indent.h"
#include "decompiler/decompiler.h"
#include "verify/interpreter.h"
#include "verify/recompile_context.h"
#include "verify/recompile_script.h"

namespace nb = nanobind;
using namespace uncompile;  // the core has no names that clash with Python.h

namespace {

using PlaceholderTuple = std::tuple<std::vector<size_t>, size_t, std::string>;

// Core text is UTF-8 in which names read from marshal data may hold lone surrogates, as in Python.
nb::str to_python(const std::string& text) {
    PyObject* str = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "surrogatepass");
    if (!str) {
        PyErr_Clear();
        str = PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
    }
    return nb::steal<nb::str>(str);
}

[[noreturn]] void raise_python(const Error& e) {
    const char* type = e.kind() == Error::Kind::UnsupportedVersion ? "UnsupportedVersionError"
                       : e.kind() == Error::Kind::Unsupported      ? "DecompileError"
                       : e.kind() == Error::Kind::LimitExceeded    ? "BytecodeLimitError"
                                                                   : "BadBytecodeError";
    nb::object cls = nb::module_::import_("uncompile.errors").attr(type);
    PyErr_SetObject(cls.ptr(), to_python(e.what()).ptr());
    throw nb::python_error();
}

std::shared_ptr<const CodeObject> load(nb::bytes data, const std::string& version,
                                       const std::vector<PlaceholderTuple>& placeholders) {
    std::string_view view(data.c_str(), data.size());
    try {
        if (version.empty()) return load_pyc(view);
        auto parsed = parse_version(version);
        if (!parsed) throw Error(Error::Kind::UnsupportedVersion, "malformed Python version '" + version + "'");
        std::vector<PlaceholderSpec> specs;
        for (const auto& [path, index, name] : placeholders) specs.push_back({path, index, name});
        return apply_placeholders(load_marshalled_code(view, *parsed), specs);
    } catch (const Error& e) {
        raise_python(e);
    }
}

nb::object or_none(int64_t value) { return value < 0 ? nb::object(nb::none()) : nb::object(nb::int_(value)); }

// Plain tuples and dicts: uncompile/core.py wraps them in typed records.
nb::list records_to_python(const std::vector<CodeRecord>& records) {
    nb::list out;
    for (const auto& record : records) {
        nb::list instructions;
        for (const auto& r : record.instructions) {
            const Instruction& ins = r.instruction;
            instructions.append(nb::make_tuple(
                ins.offset, r.opname, ins.has_arg ? nb::object(nb::int_(ins.arg)) : nb::object(nb::none()),
                to_python(r.argval), to_python(r.argrepr),
                or_none(ins.jump_target), or_none(ins.position.line), or_none(ins.position.end_line),
                or_none(ins.position.column), or_none(ins.position.end_column)));
        }
        nb::list exceptions;
        for (const auto& e : record.exception_table)
            exceptions.append(nb::make_tuple(e.start, e.end, e.target, e.depth, e.lasti));
        nb::dict code;
        code["name"] = to_python(record.code->name);
        code["qualname"] = to_python(record.code->qualname);
        code["filename"] = to_python(record.code->filename);
        code["firstlineno"] = record.code->firstlineno;
        code["version"] = record.code->version.str();
        code["instructions"] = instructions;
        code["exception_table"] = exceptions;
        out.append(code);
    }
    return out;
}

// One tuple per code object of the original: (qualname, equivalent, first_difference or None, firstlineno).
nb::list verdicts_to_python(const std::vector<CodeVerdict>& verdicts) {
    nb::list out;
    for (const auto& v : verdicts)
        out.append(nb::make_tuple(to_python(v.qualname), v.equivalent,
                                  v.equivalent ? nb::object(nb::none()) : nb::object(to_python(v.difference)),
                                  v.firstlineno));
    return out;
}

[[noreturn]] void raise_recompile_error(const RecompileError& e) {
    nb::object cls = nb::module_::import_("uncompile.errors").attr("RecompileError");
    PyErr_SetObject(cls.ptr(), to_python(e.what()).ptr());
    throw nb::python_error();
}

ListingFormat parse_format(const std::string& format) {
    if (format == "human") return ListingFormat::Human;
    if (format == "records") return ListingFormat::Records;
    throw nb::value_error("format must be 'human' or 'records'");
}

}  // namespace

NB_MODULE(_core, m) {
    m.doc() = "C++ core of uncompile (bytecode reader and disassembler)";
    m.def(
        "disassemble",
        [](nb::bytes data, const std::string& version, const std::vector<PlaceholderTuple>& placeholders,
           const std::string& format) {
            auto code = load(data, version, placeholders);
            try {
                return to_python(disassemble(*code, parse_format(format)));
            } catch (const Error& e) {
                raise_python(e);
            }
        },
        nb::arg("data"), nb::arg("version"), nb::arg("placeholders"), nb::arg("format"),
        "Disassemble marshal data of `version` ('' for a whole .pyc file).");
    m.def(
        "code_records",
        [](nb::bytes data, const std::string& version, const std::vector<PlaceholderTuple>& placeholders) {
            auto code = load(data, version, placeholders);
            try {
                return records_to_python(code_records(*code));
            } catch (const Error& e) {
                raise_python(e);
            }
        },
        nb::arg("data"), nb::arg("version"), nb::arg("placeholders"),
        "Structured instructions of every code object, depth-first.");
    m.def(
        "decompile",
        [](nb::bytes data, const std::string& version, const std::vector<PlaceholderTuple>& placeholders,
           const std::vector<std::string>& stable_global_prefixes) {
            auto code = load(data, version, placeholders);
            try {
                DecompileOutput result = decompile(*code, DecompileOptions{stable_global_prefixes});
                nb::list failures;
                for (const auto& f : result.failures)
                    failures.append(nb::make_tuple(to_python(f.qualname), f.firstlineno, to_python(f.reason)));
                return nb::make_tuple(to_python(result.source), failures);
            } catch (const Error& e) {
                raise_python(e);
            }
        },
        nb::arg("data"), nb::arg("version"), nb::arg("placeholders"),
        nb::arg("stable_global_prefixes") = std::vector<std::string>(),
        "Decompile to (source, [(qualname, firstlineno, reason), ...]); globals starting with one of\n"
        "`stable_global_prefixes` are never rebound while the code runs (see DecompileOptions).");
    m.def(
        "compare_marshal",
        [](nb::bytes original, nb::bytes recompiled, const std::string& version,
           const std::vector<PlaceholderTuple>& placeholders) {
            auto a = load(original, version, placeholders);
            try {
                auto b = load_marshalled_code(std::string_view(recompiled.c_str(), recompiled.size()), a->version);
                return verdicts_to_python(compare_code(*a, *b));
            } catch (const Error& e) {
                raise_python(e);
            }
        },
        nb::arg("original"), nb::arg("recompiled"), nb::arg("version"),
        nb::arg("placeholders") = std::vector<PlaceholderTuple>{},
        "Compare `original` (marshal data of `version`, or a whole .pyc when version is '') with `recompiled`\n"
        "(marshal data of the same version): [(qualname, equivalent, first_difference|None, firstlineno), ...]\n"
        "per code object of the original, depth-first. A function compared with a module is first looked up in it.");
    m.def(
        "indent_source",
        [](const std::string& text, const std::string& indent) { return to_python(indent_source(text, indent)); },
        nb::arg("text"), nb::arg("indent"),
        "`text` with `indent` before each non-empty line, except lines that continue a string literal\n"
        "(a multi-line docstring's), whose value indenting would change; every line ends with a newline.");
    m.def(
        "code_info",
        [](nb::bytes data, const std::string& version, const std::vector<PlaceholderTuple>& placeholders) {
            auto code = load(data, version, placeholders);
            nb::dict info;
            info["version"] = code->version.str();
            info["name"] = to_python(code->name);
            info["qualname"] = to_python(code->qualname);
            info["filename"] = to_python(code->filename);
            info["flags"] = code->flags;
            return info;
        },
        nb::arg("data"), nb::arg("version"), nb::arg("placeholders"),
        "Version, name, qualname, filename and flags of the root code object.");
    m.def(
        "find_interpreter",
        [](const std::string& version) {
            auto parsed = parse_version(version);
            if (!parsed) throw nb::value_error("malformed Python version");
            try {
                return find_interpreter(*parsed);
            } catch (const RecompileError& e) {
                raise_recompile_error(e);
            }
        },
        nb::arg("version"),
        "Path of the CPython `version` interpreter: UNCOMPILE_PYTHON_X_Y, pythonX.Y on PATH, then pyenv.");
    m.def(
        "source_in_context",
        [](nb::bytes data, const std::string& version, const std::vector<PlaceholderTuple>& placeholders,
           const std::string& source) {
            auto code = load(data, version, placeholders);
            try {
                return to_python(source_in_context(*code, source));
            } catch (const Error& e) {
                raise_python(e);
            }
        },
        nb::arg("data"), nb::arg("version"), nb::arg("placeholders"), nb::arg("source"),
        "`source`, the decompiled text of the root code object, placed where that code object was compiled:\n"
        "imports of the modules it calls into, a function binding its free variables, a class for __class__.");
    m.attr("RECOMPILE_SCRIPT") = kRecompileScript;
    m.def("pyc_version", [](nb::bytes data) {
        try {
            return to_python(load_pyc(std::string_view(data.c_str(), data.size()))->version.str());
        } catch (const Error& e) {
            raise_python(e);
        }
    });
}
