#include "code_walk.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "value_format.h"

namespace uncompile {

namespace {

void collect_nested(const PyValue& value, std::vector<const CodeObject*>& out) {
    switch (value.kind) {
    case PyValue::Kind::Code: out.push_back(value.code.get()); break;
    case PyValue::Kind::Tuple:
        for (const auto& item : value.items) collect_nested(*item, out);
        break;
    case PyValue::Kind::Set:
    case PyValue::Kind::FrozenSet: {
        std::vector<std::pair<std::string, const PyValue*>> sorted;
        for (const auto& item : value.items) sorted.emplace_back(canonical_value(*item), item.get());
        std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
        for (const auto& entry : sorted) collect_nested(*entry.second, out);
        break;
    }
    default: break;
    }
}

}  // namespace

void walk_code_objects(const CodeObject& root, const std::function<void(const CodeObject&)>& visit) {
    visit(root);
    std::vector<const CodeObject*> nested;
    for (const auto& c : root.consts) collect_nested(*c, nested);
    for (const CodeObject* child : nested) walk_code_objects(*child, visit);
}

}  // namespace uncompile
