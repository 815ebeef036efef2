#include "verify_command.h"

#include <fstream>
#include <iostream>
#include <iterator>

#include "core/equivalence.h"
#include "core/error.h"
#include "core/load.h"
#include "decompiler/decompiler.h"
#include "verify/interpreter.h"
#include "verify/recompile_context.h"

namespace uncompile::cli {

namespace {

struct Tally {
    size_t code_objects = 0, equivalent = 0, not_decompiled = 0, files = 0, files_failed = 0;
};

std::string read_whole(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error(Error::Kind::BadInput, "cannot open file");
    std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw Error(Error::Kind::BadInput, "cannot read file");
    return data;
}

bool ends_with(const std::string& text, const std::string& suffix) {
    return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The refusal, if any, behind a verdict: its body is a stub, so what the comparison found is moot.
const DecompileFailure* refusal_of(const CodeVerdict& v, const std::vector<DecompileFailure>& failures) {
    for (const auto& f : failures)
        if (f.firstlineno == v.firstlineno && (f.qualname == v.qualname || ends_with(v.qualname, "." + f.qualname)))
            return &f;
    return nullptr;
}

void verify_file(const std::string& path, const std::optional<PyVersion>& marshal_version, Tally& tally) {
    std::string data = read_whole(path);
    auto original = marshal_version ? load_marshalled_code(data, *marshal_version) : load_pyc(data);
    DecompileOutput decompiled = decompile(*original);
    std::string python = find_interpreter(original->version);
    RecompileOutcome outcome = recompile_in(python, original->version, source_in_context(*original, decompiled.source),
                                            original->filename,
                                            original->name == "<module>" ? 0 : original->flags);
    std::cout << path << " (CPython " << original->version.str() << ", recompiled with " << python << ")\n";
    std::vector<CodeVerdict> verdicts;
    if (outcome.compiled) {
        auto recompiled = load_marshalled_code(outcome.data, original->version);
        verdicts = compare_code(*original, *recompiled);
    } else {
        std::cout << "  the decompiled source does not compile: " << outcome.data << "\n";
        verdicts = compare_code(*original, *original);  // one line per code object
        for (auto& v : verdicts) {
            v.equivalent = false;
            v.difference = "does not recompile";
        }
    }
    size_t equivalent = 0;
    for (const auto& v : verdicts) {
        std::cout << "  " << v.qualname << " (line " << v.firstlineno << "): ";
        if (const DecompileFailure* f = refusal_of(v, decompiled.failures)) {
            ++tally.not_decompiled;
            std::cout << "NOT equivalent: not decompiled: " << f->reason << "\n";
        } else if (v.equivalent) {
            ++equivalent;
            std::cout << "equivalent\n";
        } else {
            std::cout << "NOT equivalent: " << v.difference << "\n";
        }
    }
    tally.code_objects += verdicts.size();
    tally.equivalent += equivalent;
    if (equivalent != verdicts.size()) ++tally.files_failed;
}

}  // namespace

int run_verify(const std::vector<std::string>& files, const std::optional<PyVersion>& marshal_version) {
    Tally tally;
    for (const auto& path : files) {
        ++tally.files;
        try {
            verify_file(path, marshal_version, tally);
        } catch (const Error& e) {
            ++tally.files_failed;
            std::cerr << "uncompile: " << path << ": " << e.what() << "\n";
        } catch (const RecompileError& e) {
            ++tally.files_failed;
            std::cerr << "uncompile: " << path << ": " << e.what() << "\n";
        } catch (const std::bad_alloc&) {
            ++tally.files_failed;
            std::cerr << "uncompile: " << path << ": out of memory\n";
        }
    }
    std::cout << "summary: " << tally.files << (tally.files == 1 ? " file, " : " files, ") << tally.code_objects
              << " code objects: " << tally.equivalent << " equivalent, " << tally.code_objects - tally.equivalent
              << " not equivalent (" << tally.not_decompiled << " not decompiled); " << tally.files - tally.files_failed
              << " of " << tally.files << (tally.files == 1 ? " file" : " files") << " fully equivalent\n";
    std::cout.flush();
    return tally.files_failed == 0 ? 0 : 1;
}

}  // namespace uncompile::cli
