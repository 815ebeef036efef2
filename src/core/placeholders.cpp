#include "placeholders.h"

#include "error.h"

namespace uncompile {

namespace {

std::shared_ptr<const CodeObject> with_placeholder(const std::shared_ptr<const CodeObject>& code,
                                                   const PlaceholderSpec& spec, size_t depth) {
    auto copy = std::make_shared<CodeObject>(*code);
    if (depth == spec.path.size()) {
        if (spec.const_index >= copy->consts.size()) fail_bad_input("placeholder for a constant that does not exist");
        auto placeholder = std::make_shared<PyValue>();
        placeholder->kind = PyValue::Kind::Placeholder;
        placeholder->text = spec.name;
        copy->consts[spec.const_index] = placeholder;
        return copy;
    }
    size_t index = spec.path[depth];
    if (index >= copy->consts.size() || copy->consts[index]->kind != PyValue::Kind::Code)
        fail_bad_input("placeholder path does not lead to a nested code object");
    auto nested = std::make_shared<PyValue>(*copy->consts[index]);
    nested->code = with_placeholder(nested->code, spec, depth + 1);
    copy->consts[index] = nested;
    return copy;
}

}  // namespace

std::shared_ptr<const CodeObject> apply_placeholders(const std::shared_ptr<const CodeObject>& root,
                                                     const std::vector<PlaceholderSpec>& specs) {
    std::shared_ptr<const CodeObject> result = root;
    for (const auto& spec : specs) result = with_placeholder(result, spec, 0);
    return result;
}

}  // namespace uncompile
