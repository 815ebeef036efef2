#include "marshal_reader.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <locale>
#include <sstream>

#include "byte_cursor.h"
#include "code_object.h"
#include "node_allocator.h"
#include "text_encoding.h"
#include "value_format.h"

namespace uncompile {

namespace {

// Marshal type codes (Python/marshal.c); the high bit asks to remember the object for back-references.
constexpr uint8_t kFlagRef = 0x80;

// Error paths kept out of line, so that the frames of the recursive readers stay small: the
// reader recurses up to max_depth levels, as deep as CPython's marshal does.
[[noreturn, gnu::noinline, gnu::cold]] void fail_nested_too_deep(int max_depth) {
    throw Error(Error::Kind::LimitExceeded,
                "marshal data is nested deeper than " + std::to_string(max_depth) + " levels");
}

[[noreturn, gnu::noinline, gnu::cold]] void fail_too_many_objects(uint64_t limit) {
    throw Error(Error::Kind::LimitExceeded, "marshal data expands to more than " + std::to_string(limit) +
                                                " objects through shared references");
}

[[noreturn, gnu::noinline, gnu::cold]] void fail_at(const char* what, size_t offset) {
    fail_bad_input(std::string("marshal data ") + what + " at offset " + std::to_string(offset));
}

[[noreturn, gnu::noinline, gnu::cold]] void fail_field(const char* field, const char* problem) {
    fail_bad_input(std::string("code object field ") + field + " " + problem);
}

class MarshalReader {
public:
    MarshalReader(std::string_view data, PyVersion version, MarshalLimits limits)
        : in_(data), version_(version), limits_(limits),
          max_expanded_(std::max<uint64_t>(1, data.size()) * limits.max_expanded_per_byte) {
        // (Most code objects remember a few dozen objects: names, constants, their own fields.)
        refs_.reserve(32);
    }

    ObjectRef read_root() {
        ObjectRef obj = read_object();
        if (!obj) fail_bad_input("marshal data holds a NULL object at the top level");
        return obj;
    }

private:
    // An object as everything downstream sees it, with shared references expanded: its nesting
    // depth (what recursive formatting and walking go through) and its number of objects (what
    // they cost). Back-references let a few bytes stand for very deep or exponentially large
    // values, so both are limited here rather than left to crash or hang the consumers.
    struct Extent {
        int height = 0;
        uint64_t objects = 0;
    };

    // Returns nullptr only for the NULL marker ('0'), which ends a dict.
    ObjectRef read_object() {
        if (++depth_ > limits_.max_depth) fail_nested_too_deep(limits_.max_depth);
        size_t start = in_.position();
        uint8_t code = in_.u8();
        bool remember = code & kFlagRef;
        uint8_t type = code & ~kFlagRef;
        // Containers and code objects take their reference slot before their contents, as CPython does.
        size_t slot = remember ? reserve_ref() : kNoSlot;
        const Extent siblings = extent_;
        extent_ = {};  // the children add themselves here; a back-reference sets its target's extent
        ObjectRef obj = read_typed(type, start);
        if (type != 'r') {
            extent_.height += 1;
            extent_.objects += 1;
        }
        if (extent_.height > limits_.max_depth) fail_nested_too_deep(limits_.max_depth);
        if (remember) {
            if (!obj) fail_at("asks to remember a NULL object", start);
            refs_[slot] = {obj, extent_};
        }
        extent_ = {std::max(siblings.height, extent_.height), siblings.objects + extent_.objects};
        if (extent_.objects > max_expanded_) fail_too_many_objects(max_expanded_);
        --depth_;
        return obj;
    }

    static constexpr size_t kNoSlot = static_cast<size_t>(-1);

    size_t reserve_ref() {
        refs_.emplace_back();
        return refs_.size() - 1;
    }

    // Values come and go by the dozen per code object (see node_allocator.h).
    static std::shared_ptr<PyValue> new_value() { return std::allocate_shared<PyValue>(NodeAllocator<PyValue>()); }

    // (Plain make_shared: made once and kept to the end of the program, after the free lists.)
    static ObjectRef make(PyValue::Kind kind) {
        auto obj = std::make_shared<PyValue>();
        obj->kind = kind;
        return obj;
    }

    // Values are immutable once read, so the valueless kinds can share one object each.
    template <PyValue::Kind kind>
    static ObjectRef singleton() {
        static const ObjectRef shared = make(kind);
        return shared;
    }

    // Containers and code objects, which recurse; everything else is read out of line.
    ObjectRef read_typed(uint8_t type, size_t start) {
        using K = PyValue::Kind;
        switch (type) {
        case '0': return nullptr;
        case '(': return read_sequence(K::Tuple, read_size());
        case ')': return read_sequence(K::Tuple, in_.u8());
        case '[': return read_sequence(K::List, read_size());
        case '<': return read_sequence(K::Set, read_size());
        case '>': return read_sequence(K::FrozenSet, read_size());
        case '{': return read_dict();
        case 'r': return read_ref();
        case 'c': return read_code();
        default: return read_leaf(type, start);
        }
    }

    [[gnu::noinline]] ObjectRef read_leaf(uint8_t type, size_t start) {
        using K = PyValue::Kind;
        switch (type) {
        case 'N': return singleton<K::None>();
        case 'T': return singleton<K::True>();
        case 'F': return singleton<K::False>();
        case '.': return singleton<K::Ellipsis>();
        case 'S': return singleton<K::StopIteration>();
        case 'i': {
            auto obj = new_value();
            obj->kind = K::Int;
            obj->small = in_.i32();
            return obj;
        }
        case 'l': return read_long();
        case 'g': {
            auto obj = new_value();
            obj->kind = K::Float;
            obj->real = in_.f64();
            return obj;
        }
        case 'f': {
            auto obj = new_value();
            obj->kind = K::Float;
            obj->real = read_float_text();
            return obj;
        }
        case 'y': {
            auto obj = new_value();
            obj->kind = K::Complex;
            obj->real = in_.f64();
            obj->imag = in_.f64();
            return obj;
        }
        case 'x': {
            auto obj = new_value();
            obj->kind = K::Complex;
            obj->real = read_float_text();
            obj->imag = read_float_text();
            return obj;
        }
        case 's': return make_text(K::Bytes, read_text(type, start));
        case 'u': case 't': case 'a': case 'A': case 'z': case 'Z': return make_text(K::Str, read_text(type, start));
        default: {
            std::ostringstream msg;
            msg << "marshal data has an unknown type code 0x" << std::hex << int(type) << std::dec << " at offset "
                << start;
            fail_bad_input(msg.str());
        }
        }
    }

    // The contents of a bytes ('s') or str leaf, as UTF-8.
    std::string read_text(uint8_t type, size_t start) {
        switch (type) {
        case 's': return std::string(in_.bytes(read_size()));
        case 'u':
        case 't': {
            std::string_view raw = in_.bytes(read_size());
            if (!is_valid_utf8_surrogatepass(raw))
                fail_bad_input("marshal data holds a string that is not valid UTF-8 at offset " + std::to_string(start));
            return std::string(raw);
        }
        case 'a':
        case 'A': return latin1_to_utf8(in_.bytes(read_size()));
        default: return latin1_to_utf8(in_.bytes(in_.u8()));  // 'z', 'Z'
        }
    }

    static bool is_text_type(uint8_t type, PyValue::Kind kind) {
        if (kind == PyValue::Kind::Bytes) return type == 's';
        return type == 'u' || type == 't' || type == 'a' || type == 'A' || type == 'z' || type == 'Z';
    }

    // A count or length; each element needs at least one byte, so a count larger than the rest of
    // the input is corrupt (this also bounds memory by the input size).
    size_t read_size() {
        int32_t n = in_.i32();
        if (n < 0 || static_cast<size_t>(n) > in_.remaining())
            fail_bad_input("marshal data has an impossible size " + std::to_string(n) + " at offset " +
                           std::to_string(in_.position() - 4));
        return static_cast<size_t>(n);
    }

    double read_float_text() {
        std::string_view text = in_.bytes(in_.u8());
        std::istringstream stream{std::string(text)};
        stream.imbue(std::locale::classic());
        std::string s(text);
        if (s == "inf" || s == "+inf") return HUGE_VAL;
        if (s == "-inf") return -HUGE_VAL;
        if (s == "nan" || s == "+nan" || s == "-nan") return std::nan("");
        double value = 0;
        stream >> value;
        if (stream.fail()) fail_bad_input("marshal data holds a malformed float literal " + bytes_literal(s));
        return value;
    }

    ObjectRef make_text(PyValue::Kind kind, std::string text) {
        auto obj = new_value();
        obj->kind = kind;
        obj->text = std::move(text);
        return obj;
    }

    ObjectRef read_long() {
        int32_t n = in_.i32();
        if (n == INT32_MIN) fail_bad_input("marshal data has a long integer of impossible size");
        size_t count = static_cast<size_t>(n < 0 ? -static_cast<int64_t>(n) : n);
        if (count * 2 > in_.remaining()) fail_bad_input("marshal data has a truncated long integer");
        auto obj = new_value();
        obj->kind = PyValue::Kind::Int;
        obj->negative = n < 0;
        std::vector<uint16_t> digits(count);
        for (auto& d : digits) {
            d = in_.u16();
            if (d >= (1u << 15)) fail_bad_input("marshal data has a long-integer digit out of range");
        }
        if (!digits.empty() && digits.back() == 0) fail_bad_input("marshal data has an unnormalized long integer");
        // Keep values that fit in 62 bits as plain numbers; bigger ones keep their digits.
        if (count <= 4) {
            uint64_t magnitude = 0;
            for (size_t i = count; i-- > 0;) magnitude = (magnitude << 15) | digits[i];
            if (magnitude < (uint64_t(1) << 62)) {
                obj->small = obj->negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
                return obj;
            }
        }
        obj->big_digits = std::move(digits);
        return obj;
    }

    ObjectRef read_sequence(PyValue::Kind kind, size_t count) {
        auto obj = new_value();
        obj->kind = kind;
        obj->items.reserve(count);
        for (size_t i = 0; i < count; ++i) obj->items.push_back(read_element());
        return obj;
    }

    ObjectRef read_element() {
        ObjectRef item = read_object();
        if (!item) fail_bad_input("marshal data holds a NULL inside a container");
        return item;
    }

    ObjectRef read_dict() {
        auto obj = new_value();
        obj->kind = PyValue::Kind::Dict;
        while (true) {
            ObjectRef key = read_object();
            if (!key) break;
            obj->items.push_back(std::move(key));
            obj->items.push_back(read_element());
        }
        return obj;
    }

    ObjectRef read_ref() {
        uint32_t index = in_.u32();
        if (index >= refs_.size()) fail_unknown_ref(index);
        if (!refs_[index].object)
            fail_bad_input("marshal data refers to an object that contains the reference (cyclic data)");
        extent_ = refs_[index].extent;
        return refs_[index].object;
    }

    [[noreturn, gnu::noinline, gnu::cold]] void fail_unknown_ref(uint32_t index) const {
        fail_bad_input("marshal data refers to object #" + std::to_string(index) + " of only " +
                       std::to_string(refs_.size()));
    }

    int32_t read_int_field() { return in_.i32(); }

    ObjectRef read_typed_field(PyValue::Kind kind, const char* field) {
        ObjectRef obj = read_element();
        if (obj->kind != kind) fail_field(field, "has the wrong type");
        return obj;
    }

    std::string read_str_field(const char* field) { return read_text_field(PyValue::Kind::Str, field); }
    std::string read_bytes_field(const char* field) { return read_text_field(PyValue::Kind::Bytes, field); }

    // A code object's str or bytes field. One that nothing refers back to (no FLAG_REF) is read
    // straight into the string it is kept as, with read_object's checks and accounting for a
    // leaf, instead of into a value that is copied and dropped (this runs for every field of
    // every code object); anything else goes through read_object.
    std::string read_text_field(PyValue::Kind kind, const char* field) {
        size_t start = in_.position();
        if (in_.remaining() == 0 || !is_text_type(uint8_t(in_.peek()), kind)) return read_typed_field(kind, field)->text;
        if (++depth_ > limits_.max_depth) fail_nested_too_deep(limits_.max_depth);
        uint8_t type = in_.u8();
        std::string text = read_text(type, start);
        const Extent leaf{1, 1};
        if (leaf.height > limits_.max_depth) fail_nested_too_deep(limits_.max_depth);
        extent_ = {std::max(extent_.height, leaf.height), extent_.objects + leaf.objects};
        if (extent_.objects > max_expanded_) fail_too_many_objects(max_expanded_);
        --depth_;
        return text;
    }

    std::vector<std::string> read_names_field(const char* field) {
        ObjectRef tuple = read_typed_field(PyValue::Kind::Tuple, field);
        std::vector<std::string> names;
        names.reserve(tuple->items.size());
        for (const auto& item : tuple->items) {
            if (item->kind != PyValue::Kind::Str) fail_field(field, "holds a non-string");
            names.push_back(item->text);
        }
        return names;
    }

    ObjectRef read_code() {
        auto code = std::allocate_shared<CodeObject>(NodeAllocator<CodeObject>());
        code->version = version_;
        code->argcount = read_int_field();
        code->posonlyargcount = read_int_field();
        code->kwonlyargcount = read_int_field();
        bool unified_locals = version_ >= PyVersion{3, 11};
        if (!unified_locals) read_int_field();  // co_nlocals: derived from varnames, not kept
        code->stacksize = read_int_field();
        code->flags = static_cast<uint32_t>(read_int_field());
        code->bytecode = read_bytes_field("co_code");
        code->consts = read_typed_field(PyValue::Kind::Tuple, "co_consts")->items;
        code->names = read_names_field("co_names");
        if (unified_locals) {
            code->localsplus_names = read_names_field("co_localsplusnames");
            std::string kinds = read_bytes_field("co_localspluskinds");
            if (kinds.size() != code->localsplus_names.size())
                fail_bad_input("code object has " + std::to_string(kinds.size()) + " local kinds for " +
                               std::to_string(code->localsplus_names.size()) + " local names");
            code->localsplus_kinds.assign(kinds.begin(), kinds.end());
            split_localsplus(*code);
        } else {
            code->varnames = read_names_field("co_varnames");
            code->freevars = read_names_field("co_freevars");
            code->cellvars = read_names_field("co_cellvars");
        }
        code->filename = read_str_field("co_filename");
        code->name = read_str_field("co_name");
        code->qualname = unified_locals ? read_str_field("co_qualname") : code->name;
        code->firstlineno = read_int_field();
        code->linetable = read_bytes_field(unified_locals || version_ >= PyVersion{3, 10} ? "co_linetable" : "co_lnotab");
        if (unified_locals) code->exceptiontable = read_bytes_field("co_exceptiontable");
        auto obj = new_value();
        obj->kind = PyValue::Kind::Code;
        obj->code = std::move(code);
        return obj;
    }

    static void split_localsplus(CodeObject& code) {
        // (Sized first: most functions have a few locals, and growing from empty reallocated.)
        size_t plain = 0, cell = 0, free = 0;
        for (uint8_t kind : code.localsplus_kinds) {
            plain += (kind & kLocalPlain) != 0;
            cell += (kind & kLocalCell) != 0;
            free += (kind & kLocalFree) != 0;
        }
        code.varnames.reserve(plain);
        code.cellvars.reserve(cell);
        code.freevars.reserve(free);
        for (size_t i = 0; i < code.localsplus_names.size(); ++i) {
            uint8_t kind = code.localsplus_kinds[i];
            const std::string& name = code.localsplus_names[i];
            if (kind & kLocalPlain) code.varnames.push_back(name);
            if (kind & kLocalCell) code.cellvars.push_back(name);
            if (kind & kLocalFree) code.freevars.push_back(name);
        }
    }

    ByteCursor in_;
    PyVersion version_;
    MarshalLimits limits_;
    uint64_t max_expanded_;
    int depth_ = 0;
    Extent extent_;  // of the children read so far of the object being read
    // The objects remembered for back-references (FLAG_REF), by reference number.
    struct Remembered {
        ObjectRef object;
        Extent extent;
    };
    std::vector<Remembered> refs_;
};

}  // namespace

ObjectRef read_marshal(std::string_view data, PyVersion version, MarshalLimits limits) {
    return MarshalReader(data, version, limits).read_root();
}

}  // namespace uncompile
