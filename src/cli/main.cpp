// uncompile: command-line front end of the C++ core.
//
//   uncompile [decompile] [--marshal=X.Y] FILE...
//   uncompile dis [--format=human|records] [--marshal=X.Y] FILE...
//   uncompile verify [--marshal=X.Y] FILE...
//   uncompile report DUMP_DIR [-o OUT]      (runs `python3 -m uncompile report ...`)
//
// Each FILE is a .pyc (or, with --marshal, bare marshal data written by CPython X.Y). A file that
// cannot be read is reported and the others still processed; the exit status is then 1.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "core/disassembler.h"
#include "core/error.h"
#include "core/load.h"
#include "decompiler/decompiler.h"
#include "verify_command.h"

namespace {

constexpr const char* kUsage =
    "usage: uncompile [decompile] [--marshal=X.Y] FILE...\n"
    "       uncompile dis [--format=human|records] [--marshal=X.Y] FILE...\n"
    "       uncompile verify [--marshal=X.Y] FILE...\n"
    "       uncompile report DUMP_DIR [-o OUT]   HTML report of a prepare_debug dump (needs Python)\n"
    "\n"
    "Decompiles or disassembles CPython 3.8-3.13 .pyc files (any version, whatever Python runs this).\n"
    "  --format=human    a readable listing (default)\n"
    "  --format=records  one canonical line per instruction, as compared against `dis` in the tests\n"
    "  --marshal=X.Y     the files hold bare marshal data (marshal.dumps) written by CPython X.Y\n"
    "\n"
    "verify decompiles each file, recompiles the source with the interpreter of its version\n"
    "(UNCOMPILE_PYTHON_X_Y, pythonX.Y on PATH, or pyenv) and compares the code objects; the exit\n"
    "status is 0 only when every code object is equivalent.\n";

struct Options {
    bool decompile = true;
    bool verify = false;
    uncompile::ListingFormat format = uncompile::ListingFormat::Human;
    std::optional<uncompile::PyVersion> marshal_version;
    std::vector<std::string> files;
};

// A bare word that names no file is a mistyped command rather than a file to decompile.
bool looks_like_command(const std::string& arg) {
    return arg.rfind("-", 0) != 0 && arg.find_first_of("./") == std::string::npos && !std::filesystem::exists(arg);
}

int usage_error(const std::string& message) {
    std::cerr << "uncompile: " << message << "\n\n" << kUsage;
    return 2;
}

bool read_file(const std::string& path, std::string& data, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open file";
        return false;
    }
    data.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) {
        error = "cannot read file";
        return false;
    }
    return true;
}

int run(const Options& options) {
    bool records = !options.decompile && options.format == uncompile::ListingFormat::Records;
    int status = 0;
    for (const auto& path : options.files) {
        std::string data, error;
        try {
            if (!read_file(path, data, error)) throw uncompile::Error(uncompile::Error::Kind::BadInput, error);
            auto code = options.marshal_version ? uncompile::load_marshalled_code(data, *options.marshal_version)
                                                : uncompile::load_pyc(data);
            if (options.decompile) {
                auto result = uncompile::decompile(*code);
                if (options.files.size() > 1) std::cout << "# " << path << "\n";
                std::cout << result.source;
                for (const auto& f : result.failures) {
                    status = 1;
                    std::cerr << "uncompile: " << path << ": could not decompile " << f.qualname << " (line "
                              << f.firstlineno << "): " << f.reason << "\n";
                }
                continue;
            }
            std::string text = uncompile::disassemble(*code, options.format);
            if (records || options.files.size() > 1) std::cout << (records ? "file " : "# ") << path << "\n";
            std::cout << text;
        } catch (const uncompile::Error& e) {
            status = 1;
            if (records) std::cout << "error " << path << " " << e.what() << "\n";
            std::cerr << "uncompile: " << path << ": " << e.what() << "\n";
        } catch (const std::bad_alloc&) {
            status = 1;
            std::cerr << "uncompile: " << path << ": out of memory\n";
        }
    }
    std::cout.flush();
    return status;
}

// `uncompile report ...` is written in Python: exec the interpreter that has the package. Tried in
// order: $UNCOMPILE_PYTHON, python3/python beside this executable (a venv's bin/), then PATH.
int forward_to_python(const std::vector<std::string>& args) {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("UNCOMPILE_PYTHON"); env && *env) candidates.emplace_back(env);
    std::error_code ec;
    auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        for (const char* name : {"python3", "python"}) candidates.push_back((self.parent_path() / name).string());
    }
    candidates.emplace_back("python3");
    candidates.emplace_back("python");
    for (const auto& exe : candidates) {
        if (exe.find('/') != std::string::npos && access(exe.c_str(), X_OK) != 0) continue;
        std::vector<std::string> argv_s = {exe, "-m", "uncompile"};
        argv_s.insert(argv_s.end(), args.begin(), args.end());
        std::vector<char*> argv_c;
        for (auto& a : argv_s) argv_c.push_back(a.data());
        argv_c.push_back(nullptr);
        execvp(exe.c_str(), argv_c.data());  // returns only on failure
    }
    std::cerr << "uncompile report: no Python interpreter found (tried $UNCOMPILE_PYTHON, python3 and python); "
                 "run `python3 -m uncompile report ...` with the Python that has uncompile installed\n";
    return 127;
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        std::cout << kUsage;
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "report") return forward_to_python(args);
    Options options;
    size_t first = 0;
    if (args[0] == "dis") {
        options.decompile = false;
        first = 1;
    } else if (args[0] == "decompile") {
        first = 1;
    } else if (args[0] == "verify") {
        options.verify = true;
        first = 1;
    } else if (looks_like_command(args[0])) {
        return usage_error("unknown command '" + args[0] + "'");
    }
    for (size_t i = first; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--format=human" && !options.decompile) {
            options.format = uncompile::ListingFormat::Human;
        } else if (a == "--format=records" && !options.decompile) {
            options.format = uncompile::ListingFormat::Records;
        } else if (a.rfind("--marshal=", 0) == 0) {
            options.marshal_version = uncompile::parse_version(a.substr(10));
            if (!options.marshal_version) return usage_error("bad version in " + a + " (expected e.g. 3.11)");
        } else if (a.rfind("--", 0) == 0) {
            return usage_error("unknown option " + a);
        } else {
            options.files.push_back(a);
        }
    }
    if (options.files.empty()) return usage_error("no input files");
    if (options.verify) return uncompile::cli::run_verify(options.files, options.marshal_version);
    return run(options);
}
