// Reading + decoding speed of the C++ core, for bench/bench_reader.py.
//
//   bench_reader LIST_FILE REPEATS
//
// LIST_FILE names one .pyc per line. Every file is read into memory first (I/O is not timed),
// then, REPEATS times: parse the .pyc, unmarshal, and decode every code object's instructions
// with arguments resolved to their display text (the work of CPython's marshal.loads +
// dis.get_instructions, whose argrepr is that text; its argval is the object itself).
// Prints one JSON object: code objects, instructions and the best wall time over the repeats.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "core/records.h"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::fprintf(stderr, "usage: bench_reader LIST_FILE REPEATS\n");
        return 2;
    }
    std::vector<std::string> files;
    std::ifstream list(argv[1]);
    for (std::string path; std::getline(list, path);) {
        std::ifstream in(path, std::ios::binary);
        files.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const int repeats = std::max(1, std::atoi(argv[2]));
    double best = std::numeric_limits<double>::infinity();
    size_t codes = 0, instructions = 0, failed = 0;
    for (int r = 0; r < repeats; ++r) {
        codes = instructions = failed = 0;
        auto start = std::chrono::steady_clock::now();
        for (const auto& data : files) {
            try {
                auto root = uncompile::load_pyc(data);
                for (const auto& record : uncompile::code_records(*root, uncompile::ArgumentForms::DisplayOnly)) {
                    ++codes;
                    instructions += record.instructions.size();
                }
            } catch (const uncompile::Error&) {
                ++failed;
            }
        }
        std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
        best = std::min(best, elapsed.count());
    }
    std::printf("{\"files\": %zu, \"failed\": %zu, \"code_objects\": %zu, \"instructions\": %zu, \"seconds\": %.6f}\n",
                files.size(), failed, codes, instructions, best);
    return 0;
}
