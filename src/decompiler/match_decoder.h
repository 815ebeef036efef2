#pragma once
// The cases of a `match` statement (3.10+), read back from the code CPython compiles them to.
//
// The compiler keeps the subject on the stack across cases: every case but the last matches a
// COPY of it, a failed test jumps to a label that pops what the pattern left on the stack and goes
// on with the next case, and a successful case pops the subject before its body. A pattern is
// read by running its ops on symbolic values (the subject and the parts of it the pattern takes
// apart), which is the same for every version's stack shuffles; what each part was tested against
// gives the pattern. Anything else is not a match statement (nullopt), never a guess.
#include <cstdint>
#include <optional>
#include <set>
#include <vector>

#include "ast.h"
#include "neutral_op.h"

namespace uncompile {

struct CaseShape {
    ast::PatternPtr pattern;
    size_t start = 0;            // the case's first op (its COPY of the subject, or the pattern's first op)
    bool keeps_subject = false;  // matches a COPY; the subject is popped when the case succeeds
    size_t pattern_end = 0;      // the op after the pattern and the stores of its captures
    int64_t fail = -1;           // op where a failed pattern continues (-1: the pattern cannot fail)
    bool dead_guard = false;     // a guard that is always false: the success goes on at `fail` too, no body
    // The failure goes on at an instruction normalizing dropped: after the last case, the NOP the
    // compiler leaves for the line of a final `case _:`.
    bool default_marker = false;
    int64_t dropped_at = -1;  // the offset of that instruction (it may be another, such as 3.10's POP_BLOCK)
};

struct MatchShape {
    std::vector<CaseShape> cases;  // the cases the compiler wrote tests for (a final `case _` has none)
    std::set<size_t> consumed;     // ops read as pattern code or failure clean-up
};

// The match statement whose first case starts at op `start`, the subject on top of the stack.
std::optional<MatchShape> decode_match(const std::vector<NeutralOp>& ops, size_t start);

// Where a match statement whose first case is `case _ if guard:` may start, when op `j` is the
// last jump of that guard (3.12+ test the guard on the subject itself; see guarded_wildcard).
std::optional<size_t> guarded_match_start(const std::vector<NeutralOp>& ops, size_t j);

// Where a match statement may start: ops that begin the code of a case.
bool may_start_match(const std::vector<NeutralOp>& ops, size_t k);

}  // namespace uncompile
