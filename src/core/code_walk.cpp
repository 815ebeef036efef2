#include "code_walk.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "value_format.h"

namespace uncompile {

namespace {

bool may_hold_code(const PyValue& value) {
    switch (value.kind) {
    case PyValue::Kind::Code:
    case PyValue::Kind::Tuple:
    case PyValue::Kind::Set:
    case PyValue::Kind::FrozenSet: return true;
    default: return false;
    }
}

void collect_nested(const PyValue& value, std::vector<const CodeObject*>& out) {
    switch (value.kind) {
    case PyValue::Kind::Code: out.push_back(value.code.get()); break;
    case PyValue::Kind::Tuple:
        for (const auto& item : value.items) collect_nested(*item, out);
        break;
    case PyValue::Kind::Set:
    case PyValue::Kind::FrozenSet: {
        // Only items that can hold code objects matter, and their order only when there are two or
        // more: the canonical text of a deeply nested item is costly, and nested one-item sets
        // would otherwise recompute it at every level.
        std::vector<const PyValue*> holders;
        for (const auto& item : value.items)
            if (may_hold_code(*item)) holders.push_back(item.get());
        if (holders.size() < 2) {
            for (const PyValue* item : holders) collect_nested(*item, out);
            break;
        }
        std::vector<std::pair<std::string, const PyValue*>> sorted;
        for (const PyValue* item : holders) sorted.emplace_back(canonical_value(*item), item);
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& entry : sorted) collect_nested(*entry.second, out);
        break;
    }
    default: break;
    }
}

}  // namespace

std::vector<const CodeObject*> nested_code_objects(const CodeObject& code) {
    std::vector<const CodeObject*> nested;
    for (const auto& c : code.consts) collect_nested(*c, nested);
    return nested;
}

void walk_code_objects(const CodeObject& root, const std::function<void(const CodeObject&)>& visit) {
    visit(root);
    for (const CodeObject* child : nested_code_objects(root)) walk_code_objects(*child, visit);
}

}  // namespace uncompile
