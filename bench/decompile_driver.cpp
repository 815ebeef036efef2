// Profiling driver: decompiles every record of a corpus file (u8 len, version, u32 len, name,
// u32 len, marshal data; see bench/) `rounds` times, for perf/callgrind. Prints a checksum of the
// output lengths so the work cannot be optimized away.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "decompiler/decompiler.h"

using namespace uncompile;

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: decompile_driver CORPUS [ROUNDS] [VERSION]\n");
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    int rounds = argc > 2 ? std::atoi(argv[2]) : 1;
    std::string only = argc > 3 ? argv[3] : "";
    struct Record { PyVersion version; std::string_view data; };
    std::vector<Record> records;
    size_t p = 0;
    auto u32 = [&](size_t at) { uint32_t v; std::memcpy(&v, all.data() + at, 4); return size_t(v); };
    while (p < all.size()) {
        size_t lv = static_cast<unsigned char>(all[p]);
        std::string version = all.substr(p + 1, lv);
        p += 1 + lv;
        p += 4 + u32(p);
        size_t ld = u32(p);
        if (only.empty() || only == version)
            records.push_back({*parse_version(version), std::string_view(all.data() + p + 4, ld)});
        p += 4 + ld;
    }
    size_t checksum = 0;
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r)
        for (const auto& rec : records) {
            try {
                auto code = load_marshalled_code(rec.data, rec.version);
                DecompileOutput out = decompile(*code);
                checksum += out.source.size() + out.failures.size();
            } catch (const Error& e) {
                checksum += 1;
            }
        }
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("%zu records x %d rounds: %.3f s, %.2f us/record, checksum %zu\n", records.size(), rounds, s,
                s * 1e6 / (records.size() * rounds), checksum);
}
