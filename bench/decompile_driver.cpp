// Profiling driver: decompiles every record of a corpus file (u8 len, version, u32 len, name,
// u32 len, marshal data; see bench/) `rounds` times, for perf/callgrind. Prints a checksum of the
// output lengths so the work cannot be optimized away.
//   --dump FILE   also writes every record's output (source, failures, or the error) to FILE, to
//                 check that a change to the decompiler leaves its output byte-identical
//   --median      times each record on its own and reports the median of the per-record best over
//                 the rounds (most functions are small, so fixed per-function costs show here), and
//                 the median of each round alone: one pass over different functions, each run once,
//                 as bench_decompile.py times them (caches and branch history cold for each)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/load.h"
#include "decompiler/decompiler.h"

using namespace uncompile;

namespace {

struct Record {
    PyVersion version;
    std::string_view data;
};

std::vector<Record> read_corpus(const std::string& all, const std::string& only_version) {
    std::vector<Record> records;
    size_t p = 0;
    auto u32 = [&](size_t at) {
        uint32_t v;
        std::memcpy(&v, all.data() + at, 4);
        return size_t(v);
    };
    while (p < all.size()) {
        size_t lv = static_cast<unsigned char>(all[p]);
        std::string version = all.substr(p + 1, lv);
        p += 1 + lv;
        p += 4 + u32(p);
        size_t ld = u32(p);
        if (only_version.empty() || only_version == version)
            records.push_back({*parse_version(version), std::string_view(all.data() + p + 4, ld)});
        p += 4 + ld;
    }
    return records;
}

// One record's whole result as text: the source and every failure, or the error thrown.
std::string decompile_record(const Record& rec) {
    try {
        auto code = load_marshalled_code(rec.data, rec.version);
        DecompileOutput out = decompile(*code);
        std::string text = std::move(out.source);
        for (const auto& f : out.failures)
            text += "#failure " + f.qualname + ":" + std::to_string(f.firstlineno) + ": " + f.reason + "\n";
        return text;
    } catch (const Error& e) {
        return std::string("#error ") + std::to_string(int(e.kind())) + ": " + e.what() + "\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    std::vector<std::string> positional;
    std::string dump_path;
    bool median = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--dump" && i + 1 < argc)
            dump_path = argv[++i];
        else if (a == "--median")
            median = true;
        else
            positional.push_back(a);
    }
    if (positional.empty()) {
        std::fprintf(stderr, "usage: decompile_driver CORPUS [ROUNDS] [VERSION] [--dump FILE] [--median]\n");
        return 2;
    }
    std::ifstream in(positional[0], std::ios::binary | std::ios::ate);
    std::string all(size_t(in.tellg()), '\0');
    in.seekg(0).read(all.data(), std::streamsize(all.size()));
    int rounds = positional.size() > 1 ? std::atoi(positional[1].c_str()) : 1;
    std::vector<Record> records = read_corpus(all, positional.size() > 2 ? positional[2] : "");

    if (!dump_path.empty()) {
        std::ofstream dump(dump_path, std::ios::binary);
        for (size_t i = 0; i < records.size(); ++i)
            dump << "#record " << i << "\n" << decompile_record(records[i]);
    }

    using Clock = std::chrono::steady_clock;
    size_t checksum = 0;
    std::vector<double> best(records.size(), 1e30);
    std::vector<double> round_median;
    auto t0 = Clock::now();
    std::vector<double> this_round(records.size());
    for (int r = 0; r < rounds; ++r) {
        for (size_t i = 0; i < records.size(); ++i) {
            auto start = median ? Clock::now() : Clock::time_point();
            checksum += decompile_record(records[i]).size();
            if (median) {
                this_round[i] = std::chrono::duration<double>(Clock::now() - start).count();
                best[i] = std::min(best[i], this_round[i]);
            }
        }
        if (median && !records.empty()) {
            std::nth_element(this_round.begin(), this_round.begin() + this_round.size() / 2, this_round.end());
            round_median.push_back(this_round[this_round.size() / 2]);
        }
    }
    double s = std::chrono::duration<double>(Clock::now() - t0).count();
    std::printf("%zu records x %d rounds: %.3f s, %.2f us/record, checksum %zu\n", records.size(), rounds, s,
                s * 1e6 / (records.size() * rounds), checksum);
    if (median && !records.empty()) {
        std::sort(best.begin(), best.end());
        double total = 0;
        for (double b : best) total += b;
        std::printf("per record, best of %d: median %.2f us, mean %.2f us\n", rounds, best[best.size() / 2] * 1e6,
                    total * 1e6 / best.size());
        std::printf("median of each round alone (us):");
        for (double m : round_median) std::printf(" %.2f", m * 1e6);
        std::printf("\n");
    }
}
