#pragma once
// A set of bytecode offsets (jump and handler targets), built once from a pass over the ops and
// then looked up: a sorted vector. The normalization passes build such sets over and over for
// every code object; a std::set there cost a node allocation per entry.
#include <algorithm>
#include <cstdint>
#include <vector>

namespace uncompile {

class OffsetSet {
public:
    OffsetSet() = default;
    // The offsets, in any order and with repeats.
    explicit OffsetSet(std::vector<int64_t> offsets) : items_(std::move(offsets)) {
        std::sort(items_.begin(), items_.end());
        items_.erase(std::unique(items_.begin(), items_.end()), items_.end());
    }

    void insert(int64_t offset) {
        auto it = std::lower_bound(items_.begin(), items_.end(), offset);
        if (it == items_.end() || *it != offset) items_.insert(it, offset);
    }

    size_t count(int64_t offset) const { return std::binary_search(items_.begin(), items_.end(), offset) ? 1 : 0; }

    // In increasing order.
    std::vector<int64_t>::const_iterator begin() const { return items_.begin(); }
    std::vector<int64_t>::const_iterator end() const { return items_.end(); }

private:
    std::vector<int64_t> items_;
};

}  // namespace uncompile
