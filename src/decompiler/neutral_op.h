#pragma once
// Version-neutral operations: what every supported CPython's instructions mean, after one
// normalizing step (normalize.cpp). Everything after that step is version-free.
#include <cstdint>
#include <string>
#include <vector>

#include "core/py_value.h"

namespace uncompile {

enum class Scope { Fast, Deref, Global, Name, ClassDeref };

enum class JumpCondition { IfTrue, IfFalse, IfNone, IfNotNone };

enum class N {
    Nop,
    // Stack shuffles.
    Pop, Copy, Swap, PushNull,
    // Names and attributes.
    LoadConst, Load, Store, Delete, LoadAttr, StoreAttr, DeleteAttr, LoadClosure,
    // The binding of a fast local saved (and cleared) before an inlined comprehension (3.12+, PEP 709).
    LoadAndClear,
    LoadAssertionError, LoadBuildClass, LoadLocals, LoadSuperAttr,
    // Operators.
    BinaryOp, UnaryOp, Compare, Subscr, StoreSubscr, DeleteSubscr, Slice3, StoreSlice, BuildSlice,
    // Containers.
    BuildTuple, BuildList, BuildSet, BuildMap, BuildConstKeyMap, BuildString,
    ListAppend, SetAdd, MapAdd, ListExtend, SetUpdate, DictUpdate, DictMerge, ListToTuple,
    // 3.8's BUILD_{TUPLE,LIST,SET,MAP}_UNPACK[_WITH_CALL]: `arg` iterables (mappings) concatenated
    // into a new `name` ("tuple", "list", "set", "dict"); 3.9+ extends an empty display instead.
    BuildUnpack,
    UnpackSequence, UnpackEx,
    // Calls and definitions.
    Call, CallKw, CallEx, MakeFunction, SetFunctionAttribute, FormatValue, ConvertValue,
    // Control flow.
    Jump, JumpIf, JumpIfOrPop, GetIter, ForIter, Return, Raise,
    // Generators and coroutines. YieldFrom and Await are a whole delegation: the iterator or
    // awaitable made from the value on top, the send loop (YIELD_FROM before 3.11; SEND, YIELD_VALUE,
    // RESUME, JUMP_BACKWARD_NO_INTERRUPT and the CLEANUP_THROW handler after) and its result.
    // Await's arg: 0 a plain `await`, 1 `__aenter__`'s and 2 `__aexit__`'s result (3.11+ say so).
    Yield, YieldFrom, Await,
    // Imports.
    ImportName, ImportFrom, ImportStar,
    // Exception handling (3.11+): handler entry and exit, `except T` tests, the compiler's re-raise
    // at the end of a handler, `with` entry and its handler's __exit__ call, the generator guard.
    PushExcInfo, PopExcept, CheckExcMatch, Reraise, BeforeWith, WithExceptStart, StopIterationError,
    // `except*` (3.11+, PEP 654): ExceptStarBegin follows the handler's PushExcInfo and pushes the
    // list of raised groups and the group still unmatched (3.11's COPY 1; BUILD_LIST 0; SWAP 2,
    // 3.12's BUILD_LIST 0; COPY 2); CheckEgMatch pops group and type, pushes rest and match;
    // PrepReraiseStar pops original and list, pushes what to re-raise (or None).
    ExceptStarBegin, CheckEgMatch, PrepReraiseStar,
    // Block-stack markers (3.8-3.10): SETUP_FINALLY / SETUP_WITH (target: the handler; arg: values
    // above the block's stack level) and POP_BLOCK. normalize's block-stack pass turns them into
    // the handler fields below and removes them: nothing after normalize sees one.
    SetupFinally, SetupWith, PopBlock,
    // 3.8's finally subroutine (BEGIN_FINALLY / CALL_FINALLY enter a finally body, a with statement's
    // __exit__ call or an except clause's name unbinding; END_FINALLY / POP_FINALLY leave it).
    // normalize's finally pass (finally_subroutines.cpp) rewrites them into 3.9's inline copies.
    BeginFinally, CallFinally, PopFinally, EndFinally, WithCleanupStart, WithCleanupFinish,
    // Structural pattern matching (3.10+), in 3.11's form: MatchSequence/MatchMapping push a bool and
    // keep the subject; GetLen pushes its length; MatchClass (arg: positional count) pops subject,
    // class and attribute names and pushes the attribute tuple or None; MatchKeys pushes the values
    // tuple or None above subject and keys; CopyDictWithoutKeys (3.10) replaces the keys with the
    // rest of the subject. Only the match decoder (match_decoder.cpp) reads them.
    MatchSequence, MatchMapping, MatchClass, MatchKeys, GetLen, CopyDictWithoutKeys,
    // A module or class body's `__annotations__` dict made: its annotated assignments store into it.
    SetupAnnotations,
    // 3.12+ `type X = v`: the type alias made from (name, type parameters, function computing v),
    // the 3 values on top (CALL_INTRINSIC_1 INTRINSIC_TYPEALIAS of their BUILD_TUPLE 3).
    TypeAlias,
    // 3.12+ type parameters (PEP 695), made in a `<generic parameters of X>` code object (see
    // type_params.h). TypeParam: one made from the name on top (arg: ast::TypeParamKind; name
    // "bound" or "constraints": the function computing them is on top, above the name);
    // TypeParamDefault (3.13, PEP 696): the function on top computes the default of the type
    // parameter below it; BindTypeParam: the type parameter on top stored under its name
    // (COPY 1; STORE_*), left for the tuple of all of them; SetFunctionTypeParams: the function
    // below gets the type parameter tuple on top; GenericBase: a generic class's Generic[...] base
    // made from its type parameter tuple.
    TypeParam, TypeParamDefault, BindTypeParam, SetFunctionTypeParams, GenericBase,
    // Anything else: the decompiler reports it as unsupported.
    Unsupported,
};

struct NeutralOp {
    N kind = N::Nop;
    uint32_t offset = 0;       // byte offset of the instruction it came from
    int line = -1;
    int64_t arg = 0;           // counts (Copy/Swap/Build*/Call argc/Unpack), flags (MakeFunction, CallEx),
                               // FormatValue: 1 when a format spec is on the stack
    Scope scope = Scope::Fast; // Load/Store/Delete
    bool free_slot = false;    // Scope::Deref: the slot is a free variable, not a cell of this code
    std::string name;          // names; operator symbols (BinaryOp/UnaryOp/Compare); opname for Unsupported
    ObjectRef value;           // LoadConst
    std::vector<std::string> kwnames;  // Call: keyword argument names (the last len(kwnames) arguments)
    JumpCondition condition = JumpCondition::IfTrue;
    bool inplace = false;      // BinaryOp
    int conversion = -1;       // FormatValue, ConvertValue: -1 none, else 's', 'r' or 'a'
    bool with_qualname = false;
    bool for_call = false;     // BuildUnpack: a call's arguments (the *_WITH_CALL forms)
    // BuildList/BuildSet/BuildMap: the empty accumulator of a comprehension inlined into this code
    // (3.12+, PEP 709), built right after its iteration variables were saved.
    bool comprehension = false;
    // Call/CallKw/CallEx: stack slots below the arguments (1: the callable; 2: callable and
    // NULL-or-self), and whether the NULL-or-callable slot is the lower one (3.11/3.12, CALL_METHOD).
    uint8_t call_slots = 1;
    bool null_first = true;  // MakeFunction: the qualified name is on the stack (before 3.11)
    int64_t target = -1;       // jumps, ForIter (exit, iterator already popped), Send
    // The innermost exception handler covering this op: its byte offset (-1: none), the stack depth
    // the handler starts from, and whether the raising offset is pushed too.
    int64_t handler = -1;
    uint32_t handler_depth = 0;
    bool handler_lasti = false;
};

}  // namespace uncompile
