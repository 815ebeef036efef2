"""Value-flow equivalence of two code objects of the running interpreter (3.11-3.13).

Bytecode rewriters such as Dynamo write code that no source compiles to: values kept on the stack
across statements, globals loaded long before their call, a jump over the dead rest of the
original function. Decompiled source for such code needs temporaries (`__stack0 = ...`) and drops
the dead code, so its recompiled bytecode is never instruction-for-instruction the same, yet it may
run exactly the same operations on exactly the same values in exactly the same order. This module
checks that, by executing both code objects symbolically in lockstep:

- every operation that can run user code or be observed (calls, attribute and item access,
  operators, deletes of locals, branches on a value's truth, returns, raises, ...) is an *event*; both sides must produce the same events in the same order,
  with operands that are the same symbolic values (a parameter, a constant, the result of an
  earlier event);
- stack shuffles (COPY, SWAP, POP_TOP, PUSH_NULL) and stores to locals only move values around
  and are followed, not compared: a local is seen by this frame's later loads, which are followed,
  not by the code it calls (frame introspection aside);
- a branch explores both outcomes; a loop header reached again is compared on the equalities
  between the two states (widening), so loops terminate;
- globals named stable (Dynamo's `__compiled_fn_*`, `__resume_at_*`, `__import_*`, which nothing
  rebinds while the code runs) are values, so loading one earlier or later does not matter; any
  other global load is an event.

Exception tables are followed too: every event inside a try may raise, so its handler is explored
from that point (both sides must have one); a handler is a join of all the ways into it.

Anything this model does not cover (generators, unusual opcodes) makes
the answer "not shown equivalent": the check is only ever used to allow something, never to deny.
"""
from __future__ import annotations  # the signatures' types are not built at import (~50 of them)

import dis
import sys
import types
from typing import Any, Callable, Dict, List, Optional, Tuple

__all__ = ["same_value_flow"]

_MAX_STEPS = 200_000  # instructions executed over all paths; beyond it: not shown equivalent
_TRANSPARENT = {"NOP", "RESUME", "PRECALL", "CACHE", "EXTENDED_ARG", "MAKE_CELL", "COPY_FREE_VARS"}
# 3.12+ spells LIST_TO_TUPLE (a call's `*args` built as a list) CALL_INTRINSIC_1 6.
_INTRINSIC_LIST_TO_TUPLE = 6
_JUMPS = {"JUMP_FORWARD", "JUMP_BACKWARD", "JUMP_BACKWARD_NO_INTERRUPT", "JUMP", "JUMP_NO_INTERRUPT"}
# Operations with a result: opname -> number of operands popped (None: computed from the argument).
_PURE_SHAPE = {
    "UNARY_NEGATIVE": 1, "UNARY_NOT": 1, "UNARY_INVERT": 1, "UNARY_POSITIVE": 1, "TO_BOOL": 1,
    "BINARY_OP": 2, "BINARY_SUBSCR": 2, "COMPARE_OP": 2, "IS_OP": 2, "CONTAINS_OP": 2,
    "GET_ITER": 1, "LIST_TO_TUPLE": 1, "CALL_INTRINSIC_1": 1, "CALL_INTRINSIC_2": 2, "IMPORT_NAME": 2,
    "FORMAT_SIMPLE": 1, "FORMAT_WITH_SPEC": 2, "CONVERT_VALUE": 1, "LOAD_BUILD_CLASS": 0,
    "LOAD_ASSERTION_ERROR": 0, "SET_FUNCTION_ATTRIBUTE": 2, "LOAD_DEREF": 0,
    "LOAD_NAME": 0, "LOAD_LOCALS": 0, "GET_LEN": 0,
}
# Operations without a result: opname -> operands popped.
_EFFECT_SHAPE = {
    "STORE_ATTR": 2, "DELETE_ATTR": 1, "STORE_SUBSCR": 3, "DELETE_SUBSCR": 2,
    "STORE_GLOBAL": 1, "DELETE_GLOBAL": 0, "STORE_DEREF": 1, "DELETE_DEREF": 0, "STORE_NAME": 1,
    "DELETE_NAME": 0,
}
# Container updates that leave the container on the stack: opname -> operands popped.
_UPDATE_SHAPE = {"LIST_APPEND": 1, "SET_ADD": 1, "MAP_ADD": 2, "LIST_EXTEND": 1, "SET_UPDATE": 1,
                 "DICT_UPDATE": 1, "DICT_MERGE": 1}


class _NotShown(Exception):
    """The model does not cover something, or the two sides differ: not shown equivalent."""


# Kinds of constant (_const_key) that hash and compare without running code, nor by identity (a NaN).
_PLAIN_KEYS = ("str", "int", "bytes", "bool", "NoneType")


_NONE = ("const", ("NoneType", "None"))
_KNOWN_TESTS = {("const", ("bool", "True")): True, ("const", ("bool", "False")): False, _NONE: False}


def _const_key(value: object) -> object:
    if isinstance(value, types.CodeType):
        return ("code", value.co_name, value.co_code, _const_key(value.co_consts), value.co_names,
                value.co_varnames, value.co_freevars, value.co_cellvars, value.co_flags, value.co_argcount)
    if isinstance(value, (tuple, frozenset)):
        items = tuple(_const_key(v) for v in value)
        return (type(value).__name__,) + (tuple(sorted(items, key=repr)) if isinstance(value, frozenset) else items)
    if isinstance(value, (int, float, complex, str, bytes, bool, type(None), type(Ellipsis))):
        if isinstance(value, float) and value != value:
            return ("nan",)
        return (type(value).__name__, repr(value))
    return ("object", id(value))  # an arbitrary object a rewriter put among the constants: by identity


class _Side:
    """One code object, decoded: instructions, jump targets by index, which locals are its own."""

    def __init__(self, code: types.CodeType, shared_locals: set):
        if code.co_flags & (0x20 | 0x80 | 0x100 | 0x200):  # generator, coroutine, async generator
            raise _NotShown("%s is a generator or coroutine" % code.co_name)
        self.code = code
        self.ins = list(dis.get_instructions(code))
        self.index = {ins.offset: k for k, ins in enumerate(self.ins)}
        # instruction index -> (handler index, stack depth, lasti)
        self.handlers: Dict[int, Tuple[int, int, bool]] = {}
        if getattr(code, "co_exceptiontable", b""):
            parse = getattr(dis, "_parse_exception_table", None)
            if parse is None:
                raise _NotShown("no reader for exception tables")
            for entry in parse(code):
                if entry.target not in self.index:
                    raise _NotShown("an exception handler at a non-instruction")
                for k, ins in enumerate(self.ins):
                    if entry.start <= ins.offset < entry.end:
                        self.handlers[k] = (self.index[entry.target], entry.depth, entry.lasti)
        self.shared = shared_locals
        nargs = code.co_argcount + code.co_kwonlyargcount + bool(code.co_flags & 0x04) + bool(code.co_flags & 0x08)
        self.arguments = set(code.co_varnames[:nargs])
        # Cell and free variables: 3.11+ keeps cells in the fast slots, so LOAD_FAST of one loads the
        # cell, except while an inlined comprehension (3.12+) keeps its own plain variable there.
        self.cells = set(code.co_cellvars + code.co_freevars)

    def handler(self, index: int) -> Optional[Tuple[int, int, bool]]:
        return self.handlers.get(index)


class _State:
    __slots__ = ("pc", "stack", "env", "kwnames", "back", "heap", "pairs")

    def __init__(self, pc: int, stack: list, env: dict, kwnames: object = None, back: bool = False,
                 heap: Optional[dict] = None, pairs: Optional[dict] = None):
        self.pc, self.stack, self.env, self.kwnames, self.back = pc, stack, env, kwnames, back
        # Containers this code built itself: uid -> [kind ("list"/"tuple"), items, escaped]. Until one
        # escapes (is an operand of an event), nobody else can see it, so changing it is no event.
        self.heap = {} if heap is None else heap
        self.pairs = {} if pairs is None else pairs  # uid here -> uid of the same container on the other side

    def copy(self) -> "_State":
        heap = {uid: [kind, list(items), escaped] for uid, (kind, items, escaped) in self.heap.items()}
        return _State(self.pc, list(self.stack), dict(self.env), self.kwnames, self.back, heap, dict(self.pairs))


class _Event:
    """What one side does next that the other must do too."""

    def __init__(self, key: tuple, pushes: int = 0, outcomes: Optional[list] = None, terminal: bool = False):
        self.key, self.pushes, self.terminal = key, pushes, terminal
        # For a branch: [(outcome label, function(state) -> state or None)], in a fixed order.
        self.outcomes = outcomes


class _Checker:
    def __init__(self, a: types.CodeType, b: types.CodeType, stable_globals: Callable[[str], bool],
                 global_constants: Dict[str, object]):
        for field in ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_freevars", "co_cellvars"):
            if getattr(a, field) != getattr(b, field):
                raise _NotShown("%s differs" % field)
        if (a.co_flags ^ b.co_flags) & ~0x10:  # CO_NESTED is informational
            raise _NotShown("co_flags differ")
        nargs = a.co_argcount + a.co_kwonlyargcount + bool(a.co_flags & 0x04) + bool(a.co_flags & 0x08)
        if a.co_varnames[:nargs] != b.co_varnames[:nargs]:
            raise _NotShown("argument names differ")
        shared = set(a.co_varnames) & set(b.co_varnames)
        self.sides = (_Side(a, shared), _Side(b, shared))
        self.stable = stable_globals
        self.global_constants = global_constants
        self.version = sys.version_info[:2]
        self.steps = 0
        self.results = 0
        self.uids = 0
        self.codes: Dict[object, types.CodeType] = {}  # code constants loaded, by their key
        self.fresh_dicts: set = set()  # results that are dicts the code built (BUILD_MAP and the like)
        self.widened: Dict[Tuple[int, int], tuple] = {}

    # ---- one side up to its next event ---------------------------------------------------------
    def _next_event(self, side: _Side, st: _State) -> _Event:
        while True:
            self.steps += 1
            if self.steps > _MAX_STEPS:
                raise _NotShown("too many paths")
            if st.pc >= len(side.ins):
                raise _NotShown("runs off the end of %s" % side.code.co_name)
            ins = side.ins[st.pc]
            op = ins.opname
            st.pc += 1
            if op in _TRANSPARENT:
                continue
            if op == "KW_NAMES":
                st.kwnames = _const_key(ins.argval)
                continue
            event = self._execute(side, st, ins, op)
            if event is not None:
                return event

    def _pop(self, st: _State, n: int = 1) -> list:
        if n > len(st.stack):
            raise _NotShown("stack underflow")
        if n == 0:
            return []
        values = st.stack[-n:]
        del st.stack[-n:]
        return values

    def _jump(self, side: _Side, st: _State, target: int) -> None:
        k = side.index.get(target)
        if k is None:
            raise _NotShown("jump to a non-instruction")
        if k < st.pc:
            st.back = True
        st.pc = k

    def _load_local(self, side: _Side, st: _State, name: str) -> Optional[_Event]:
        value = st.env.get(name)
        if value is None and name in side.shared and name in side.arguments:
            value = ("argument", name)
        if value is None or value == ("deleted",):
            # Never stored on this path, or deleted: the load raises UnboundLocalError.
            return _Event(("unbound local", name), terminal=True)
        st.stack.append(value)
        return None

    def _execute(self, side: _Side, st: _State, ins: dis.Instruction, op: str) -> Optional[_Event]:
        stack = st.stack
        v = self.version
        if op in ("BINARY_SLICE", "STORE_SLICE"):
            # x[a:b] (3.12+) is BUILD_SLICE 2 and BINARY_SUBSCR / STORE_SUBSCR, as 3.11 and Dynamo
            # spell it: one form, so a slice of a list this code built stays known on both sides.
            stack.append(("slice",) + tuple(self._pop(st, 2)))
            op = "BINARY_SUBSCR" if op == "BINARY_SLICE" else "STORE_SUBSCR"
        if op == "POP_TOP":
            self._pop(st)
        elif op == "PUSH_NULL":
            stack.append(("null",))
        elif op == "COPY":
            if ins.arg > len(stack):
                raise _NotShown("stack underflow")
            stack.append(stack[-ins.arg])
        elif op == "SWAP":
            if ins.arg > len(stack):
                raise _NotShown("stack underflow")
            stack[-1], stack[-ins.arg] = stack[-ins.arg], stack[-1]
        elif op == "LOAD_CONST":
            key = _const_key(ins.argval)
            if isinstance(ins.argval, types.CodeType):
                self.codes[key] = ins.argval
            stack.append(("const", key))
        elif op in ("LOAD_FAST", "LOAD_FAST_CHECK"):
            if ins.argval in side.cells and ins.argval not in st.env:  # 3.13's LOAD_CLOSURE: the cell itself
                stack.append(("cell", ins.argval))
                return None
            return self._load_local(side, st, ins.argval)
        elif op == "LOAD_FAST_AND_CLEAR":
            # (an inlined comprehension saves the slot, a cell's too, and puts it back with STORE_FAST)
            value = st.env.get(ins.argval, ("cell", ins.argval) if ins.argval in side.cells else
                               ("deleted",) if ins.argval not in side.arguments else ("argument", ins.argval))
            stack.append(value)
            st.env[ins.argval] = ("deleted",)
        elif op == "LOAD_FAST_LOAD_FAST":
            first, second = ins.argval
            return self._load_local(side, st, first) or self._load_local(side, st, second)
        elif op in ("STORE_FAST", "DELETE_FAST"):
            return self._store_local(side, st, ins.argval, op == "DELETE_FAST")
        elif op == "STORE_FAST_LOAD_FAST":
            store, load = ins.argval
            self._store_local(side, st, store, False)
            return self._load_local(side, st, load)
        elif op == "STORE_FAST_STORE_FAST":
            first, second = ins.argval
            self._store_local(side, st, first, False)
            self._store_local(side, st, second, False)
        elif op in _JUMPS:
            self._jump(side, st, ins.argval)
        elif op == "LOAD_GLOBAL":
            null = bool(ins.arg & 1)
            name = ins.argval
            if null and v < (3, 13):
                stack.append(("null",))
            if name in self.global_constants:
                stack.append(("const", _const_key(self.global_constants[name])))
                if null and v >= (3, 13):
                    stack.append(("null",))
                return None
            if self.stable(name):
                stack.append(("global", name))
                if null and v >= (3, 13):
                    stack.append(("null",))
                return None
            return _Event(("LOAD_GLOBAL", name), pushes=1, outcomes=None) if not null or v < (3, 13) else \
                _Event(("LOAD_GLOBAL_NULL", name), pushes=-2)
        elif op in ("RETURN_VALUE", "RETURN_CONST"):
            value = ("const", _const_key(ins.argval)) if op == "RETURN_CONST" else self._pop(st)[0]
            return _Event(("return", value), terminal=True)
        elif op == "RAISE_VARARGS":
            return _Event(("raise", tuple(self._pop(st, ins.arg))), terminal=True)
        elif op == "RERAISE":
            # Only the exception is popped; with an argument, a saved lasti below it is read, not popped.
            return _Event(("raise", self._pop(st)[0]), terminal=True)
        elif op == "PUSH_EXC_INFO":
            exception = self._pop(st)[0]
            stack.extend([("handled exception",), exception])
        elif op == "POP_EXCEPT":
            self._pop(st)
            return _Event(("POP_EXCEPT",))
        elif op == "CHECK_EXC_MATCH":
            kind = self._pop(st)[0]
            return _Event(("CHECK_EXC_MATCH", stack[-1] if stack else None, kind), pushes=1)
        elif op == "WITH_EXCEPT_START":
            if len(stack) < 4:
                raise _NotShown("stack underflow")
            return _Event(("WITH_EXCEPT_START", stack[-4], stack[-1]), pushes=1)
        elif op in ("BEFORE_WITH", "BEFORE_ASYNC_WITH"):
            return _Event((op, self._pop(st)[0]), pushes=("with",))
        elif op.startswith("POP_JUMP") or op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP"):
            return self._branch(side, st, ins, op)
        elif op == "FOR_ITER":
            return self._for_iter(side, st, ins)
        elif op == "END_FOR":
            self._pop(st, 2 if v == (3, 12) else 1)
        elif op == "CALL" and ins.arg == 1 and st.kwnames is None and len(stack) >= 3 and \
                stack[-3][0] == "listmethod" and self._private(st, stack[-3][2], "list"):
            _, name, target = stack[-3]
            items = [stack[-1]] if name == "append" else self._items_of(st, stack[-1])
            if items is None:
                raise _NotShown("list.extend of a value that may run code")
            self._pop(st, 3)
            st.heap[target[1]][1].extend(items)
            stack.append(("const", _const_key(None)))
        elif op in ("CALL", "CALL_KW"):
            n = ins.arg + 2 + (op == "CALL_KW")
            operands = _callable(self._pop(st, n))
            kw, st.kwnames = st.kwnames, None
            # (A method and a self that are not a method load's pair call the one with the other
            # as the first argument: f(x) as the compiler writes it, a call of one more argument.)
            argc = ins.arg + (len(operands) - (n - 1))
            return _Event(("CALL", argc, kw, operands), pushes=1)
        elif op == "CALL_FUNCTION_EX":
            operands = list(_callable(self._pop(st, 3 + (ins.arg & 1)), pair_as_argument=False))
            if ins.arg & 1 and self._private(st, operands[-1], "dict copy"):
                # The call reads keyword arguments from a copy of a dict this code built exactly as
                # from that dict (and a Python callee gets a dict of its own either way).
                operands[-1] = st.heap[operands[-1][1]][1][0]
            items = None if ins.arg & 1 else self._items_of(st, operands[1])
            if items is not None:
                # f(*args) of arguments known one by one is the call f(a, b, ...): what a compiler
                # writes for a call of many arguments (more than 30 in 3.11+) that Dynamo makes
                # with CALL.
                return _Event(("CALL", len(items), None, (operands[0],) + tuple(items)), pushes=1)
            if self._private(st, operands[1], "list"):
                # The interpreter passes an exact list of arguments on as a tuple copy of it.
                operands[1] = self._new(st, "tuple", st.heap[operands[1][1]][1])
            operands = tuple(operands)
            return _Event((op, ins.arg, operands), pushes=1)
        elif op == "LOAD_CLOSURE":
            stack.append(("cell", ins.argval))  # the cell itself: loading it runs nothing
        elif op == "MAKE_FUNCTION":
            flags = ins.arg if v < (3, 13) else 0
            operands = tuple(self._pop(st, 1 + bin(flags & 0xF).count("1")))
            if flags == 8 and self._cell_lambda(st, operands[1], operands[0]):  # 3.11/3.12
                stack.append(("cell lambda", st.heap[operands[0][1]][1][0]))
                return None
            if flags == 0 and v >= (3, 13) and self._cell_lambda(st, operands[0]):  # its closure comes next
                stack.append(("cell lambda code", operands[0]))
                return None
            return _Event((op, flags, operands), pushes=1)
        elif op == "SET_FUNCTION_ATTRIBUTE" and ins.arg == 8 and len(stack) >= 2 and \
                stack[-1][:1] == ("cell lambda code",) and self._cell_lambda(st, stack[-1][1], stack[-2]):
            closure = self._pop(st, 2)[0]
            stack.append(("cell lambda", st.heap[closure[1]][1][0]))
        elif op == "LOAD_ATTR" and stack and stack[-1][:1] == ("cell lambda",) and ins.argval == "__closure__" and \
                not (v >= (3, 12) and ins.arg & 1):
            stack.append(("cell closure", self._pop(st)[0][1]))
        elif op == "BINARY_SUBSCR" and len(stack) >= 2 and stack[-2][:1] == ("cell closure",) and \
                stack[-1] == ("const", _const_key(0)):
            stack.append(self._pop(st, 2)[0][1])  # the cell
        elif op in ("LOAD_ATTR", "LOAD_METHOD", "LOAD_SUPER_ATTR"):
            method = op == "LOAD_METHOD" or (op != "LOAD_METHOD" and v >= (3, 12) and bool(ins.arg & 1))
            if method and ins.argval in ("append", "extend") and stack and self._private(st, stack[-1], "list"):
                # list.append / list.extend of a list only this code has seen: the same as
                # LIST_APPEND / LIST_EXTEND (a list's methods cannot be replaced).
                stack.append(("listmethod", ins.argval, self._pop(st)[0]))
                stack.append(("null",))
                return None
            operands = tuple(self._pop(st, 3 if op == "LOAD_SUPER_ATTR" else 1))
            # A method load and an attribute load run the same lookup; only how the call that
            # follows receives `self` differs (see _callable).
            kind = "LOAD_SUPER_ATTR" if op == "LOAD_SUPER_ATTR" else "LOAD_ATTR"
            return _Event((kind, ins.argval, operands), pushes=2 if method else 1)
        elif op in ("BUILD_TUPLE", "BUILD_LIST"):
            stack.append(self._new(st, "tuple" if op == "BUILD_TUPLE" else "list", self._pop(st, ins.arg)))
        elif op == "BUILD_SLICE":
            parts = self._pop(st, ins.arg)
            stack.append(("slice",) + tuple(parts))
        elif (op == "LIST_TO_TUPLE" or (op == "CALL_INTRINSIC_1" and ins.arg == _INTRINSIC_LIST_TO_TUPLE)) and \
                self._private(st, stack[-1] if stack else None, "list"):
            stack.append(self._new(st, "tuple", st.heap[self._pop(st)[0][1]][1]))
        elif op in ("LIST_APPEND", "LIST_EXTEND") and self._private_update(st, ins):
            pass
        elif op in ("BINARY_SUBSCR", "STORE_SUBSCR", "DELETE_SUBSCR") and self._private_subscript(st, op):
            pass
        elif op == "UNPACK_SEQUENCE" and self._private(st, stack[-1] if stack else None) and \
                len(st.heap[stack[-1][1]][1]) == ins.arg:
            items = st.heap[self._pop(st)[0][1]][1]
            stack.extend(reversed(items))
        elif op in ("BUILD_SET", "BUILD_STRING"):
            return _Event((op, ins.arg, tuple(self._pop(st, ins.arg))), pushes=1)
        elif op == "BUILD_MAP" and ins.arg == 0:
            stack.append(self._new(st, "dict", []))  # an empty dict nobody has seen: no event yet
        elif op in ("DICT_MERGE", "DICT_UPDATE") and ins.arg == 1 and len(stack) >= 2 and \
                self._private(st, stack[-2], "dict") and not st.heap[stack[-2][1]][1] and \
                (stack[-1] in self.fresh_dicts or self._private(st, stack[-1], "dict")):
            # `f(*a, **d)` merges d into a new dict just for the call (BUILD_MAP 0; DICT_MERGE 1): a
            # copy of a dict the code built, which runs no user code (see CALL_FUNCTION_EX). That
            # dict may be one nobody has seen yet: Dynamo's `f(*args, **{})` passes BUILD_MAP 0 to
            # the call as is, which no source spells; it is printed `__stack3 = {}; f(*args, **__stack3)`.
            entry = st.heap[stack[-2][1]]
            entry[0], entry[1] = "dict copy", [self._pop(st)[0]]
        elif op == "BUILD_MAP":
            items = self._pop(st, 2 * ins.arg)
            keys, values = items[0::2], items[1::2]
            if all(k[0] == "const" and k[1][0] in _PLAIN_KEYS for k in keys):
                # {'a': x, 0: y} with constant keys whose hashing runs no code: the same dict as
                # BUILD_CONST_KEY_MAP builds (the keys inserted in the same order either way)
                return _Event(("dict", tuple(k[1] for k in keys), tuple(values)), pushes=1)
            return _Event((op, ins.arg, tuple(items)), pushes=1)
        elif op == "BUILD_CONST_KEY_MAP":
            items = self._pop(st, ins.arg + 1)
            keys = items[-1]
            if keys[0] == "const" and keys[1][0] == "tuple" and all(k[0] in _PLAIN_KEYS for k in keys[1][1:]):
                return _Event(("dict", tuple(keys[1][1:]), tuple(items[:-1])), pushes=1)
            return _Event((op, ins.arg, tuple(items)), pushes=1)
        elif op == "FORMAT_VALUE":
            return _Event((op, ins.arg, tuple(self._pop(st, 2 if ins.arg & 4 else 1))), pushes=1)
        elif op == "UNPACK_SEQUENCE":
            return _Event((op, ins.arg, tuple(self._pop(st))), pushes=("unpack", ins.arg))
        elif op == "UNPACK_EX":
            return _Event((op, ins.arg, tuple(self._pop(st))), pushes=("unpack", (ins.arg & 0xFF) + 1 + (ins.arg >> 8)))
        elif op == "IMPORT_FROM":
            return _Event((op, ins.argval, stack[-1] if stack else self._pop(st)), pushes=1)
        elif op == "TO_BOOL" and stack and stack[-1] in _KNOWN_TESTS:
            stack[-1] = ("const", ("bool", repr(_KNOWN_TESTS[stack[-1]])))  # (3.13: runs no code)
        elif op in _PURE_SHAPE:
            n = _PURE_SHAPE[op]
            if op == "GET_LEN":
                operands = (stack[-1],) if stack else tuple(self._pop(st))
            else:
                operands = tuple(self._pop(st, n))
            return _Event((op, self._arg_key(ins), operands), pushes=1)
        elif op in _EFFECT_SHAPE:
            return _Event((op, self._arg_key(ins), tuple(self._pop(st, _EFFECT_SHAPE[op]))))
        elif op in _UPDATE_SHAPE:
            values = tuple(self._pop(st, _UPDATE_SHAPE[op]))
            if ins.arg > len(stack):
                raise _NotShown("stack underflow")
            return _Event((op, values, stack[-ins.arg]))
        else:
            raise _NotShown("%s is not modelled" % op)
        return None

    def _cell_lambda(self, st: _State, code_value: object, closure: object = None) -> bool:
        """Whether `code_value` is the code of `lambda: x` for one free variable x (and `closure`, if
        given, a tuple this code built of x's cell): `(lambda: x).__closure__[0]` is how
        decompiled source spells a cell that rewritten bytecode passes on as a value."""
        if not (isinstance(code_value, tuple) and code_value[:1] == ("const",)):
            return False
        code = self.codes.get(code_value[1])
        if code is None or code.co_name != "<lambda>" or len(code.co_freevars) != 1 or code.co_argcount or \
                code.co_kwonlyargcount or code.co_flags & 0x0C:
            return False
        body = [i.opname for i in dis.get_instructions(code) if i.opname not in ("COPY_FREE_VARS", "RESUME", "CACHE")]
        if body != ["LOAD_DEREF", "RETURN_VALUE"]:
            return False
        if closure is None:
            return True
        if not self._private(st, closure, "tuple"):
            return False
        items = st.heap[closure[1]][1]
        return items == [("cell", code.co_freevars[0])]

    # ---- containers the code built itself --------------------------------------------------------
    def _new(self, st: _State, kind: str, items: list) -> tuple:
        self.uids += 1
        st.heap[self.uids] = [kind, list(items), False]
        return ("obj", self.uids)

    @staticmethod
    def _private(st: _State, value: object, kind: Optional[str] = None) -> bool:
        """`value` is a container this code built that nothing else has seen (of `kind`)."""
        if not (isinstance(value, tuple) and value and value[0] == "obj"):
            return False
        kind_here, _, escaped = st.heap[value[1]]
        return not escaped and (kind is None or kind_here == kind)

    def _items_of(self, st: _State, value: object) -> Optional[list]:
        """The items of a private list/tuple or a constant tuple, else None (iterating it could run code)."""
        if self._private(st, value):
            return list(st.heap[value[1]][1])
        if isinstance(value, tuple) and value[0] == "const" and value[1][0] == "tuple":
            return [("const", item) for item in value[1][1:]]
        return None

    def _private_update(self, st: _State, ins: dis.Instruction) -> bool:
        stack = st.stack
        if len(stack) < ins.arg + 1 or not self._private(st, stack[-1 - ins.arg], "list"):
            return False
        target = st.heap[stack[-1 - ins.arg][1]][1]
        if ins.opname == "LIST_APPEND":
            target.append(self._pop(st)[0])
            return True
        items = self._items_of(st, stack[-1])
        if items is None:
            return False
        self._pop(st)
        target.extend(items)
        return True

    @staticmethod
    def _index(value: object) -> object:
        """A constant int or a slice of constant ints/None, as Python would use it; else None."""
        def const_int(v: object) -> Optional[object]:
            if v == ("const", ("NoneType", "None")):
                return None
            if isinstance(v, tuple) and v[0] == "const" and v[1][0] == "int":
                return int(v[1][1])
            raise ValueError
        try:
            if isinstance(value, tuple) and value and value[0] == "slice":
                return slice(*(const_int(v) for v in value[1:]))
            index = const_int(value)
            return index if index is not None else ValueError
        except ValueError:
            return ValueError

    def _private_subscript(self, st: _State, op: str) -> bool:
        stack = st.stack
        n = {"BINARY_SUBSCR": 2, "STORE_SUBSCR": 3, "DELETE_SUBSCR": 2}[op]
        if len(stack) < n:
            return False
        container, index = stack[-2], self._index(stack[-1])
        if index is ValueError or not self._private(st, container):
            return False
        kind, items, _ = st.heap[container[1]]
        try:
            if op == "BINARY_SUBSCR":
                result = items[index]
                self._pop(st, 2)
                stack.append(self._new(st, kind, result) if isinstance(index, slice) else result)
                return True
            if kind != "list":
                return False
            if op == "DELETE_SUBSCR":
                del items[index]
                self._pop(st, 2)
                return True
            value = stack[-3]
            if isinstance(index, slice):
                new = self._items_of(st, value)
                if new is None or index.step is not None:
                    return False
                items[index] = new
            else:
                items[index] = value
            self._pop(st, 3)
            return True
        except (IndexError, TypeError, ValueError):
            return False

    @staticmethod
    def _arg_key(ins: dis.Instruction) -> object:
        if ins.opcode in dis.hasname or ins.opcode in dis.hasfree or ins.opcode in dis.haslocal:
            return ins.argval
        if ins.opcode in dis.hasconst:
            return _const_key(ins.argval)
        return ins.arg

    def _store_local(self, side: _Side, st: _State, name: str, delete: bool) -> Optional[_Event]:
        if delete:
            if name in side.shared:
                st.env[name] = ("deleted",)
                return _Event(("DELETE_FAST", name))
            st.env[name] = ("deleted",)
            return None
        # A store is not an event: only this frame's later loads see a local (and they are
        # followed), not the code it calls. A delete is one: it frees the value (what Dynamo's
        # `del` is for), so it must not move later.
        st.env[name] = self._pop(st)[0]
        return None

    def _branch(self, side: _Side, st: _State, ins: dis.Instruction, op: str) -> Optional[_Event]:
        value = st.stack[-1] if st.stack else self._pop(st)[0]
        keep_on_jump = op in ("JUMP_IF_TRUE_OR_POP", "JUMP_IF_FALSE_OR_POP")
        st.stack.pop()
        test = "none" if op.endswith("NONE") else "truth"
        # The outcome is what the test found: truth of the value, or `value is None`.
        jump_when = not (op.endswith("IF_FALSE") or op.endswith("FALSE_OR_POP") or op.endswith("NOT_NONE"))
        target = ins.argval
        if value in _KNOWN_TESTS:
            # A test of True, False or None runs no code and goes one way only: no event (the
            # decompiler's flag that tells a finished with body from a suppressed exception).
            outcome = _KNOWN_TESTS[value] if test == "truth" else value == _NONE
            if outcome == jump_when:
                if keep_on_jump:
                    st.stack.append(value)
                self._jump(side, st, target)
            return None

        def go(outcome: bool, state: _State) -> _State:
            if outcome == jump_when:
                if keep_on_jump:
                    state.stack.append(value)
                self._jump(side, state, target)
            return state

        return _Event(("branch", test, value), outcomes=[(True, lambda s: go(True, s)), (False, lambda s: go(False, s))])

    def _for_iter(self, side: _Side, st: _State, ins: dis.Instruction) -> _Event:
        iterator = st.stack[-1] if st.stack else self._pop(st)[0]
        target = ins.argval

        def exhausted(state: _State) -> _State:
            state.stack.pop()
            self._jump(side, state, target)
            if self.version >= (3, 12) and state.pc < len(side.ins) and side.ins[state.pc].opname == "END_FOR":
                state.pc += 1
                if self.version >= (3, 13) and state.pc < len(side.ins) and side.ins[state.pc].opname == "POP_TOP":
                    state.pc += 1
            return state

        return _Event(("next", iterator), outcomes=[("value", None), ("exhausted", exhausted)])

    # ---- both sides in lockstep ----------------------------------------------------------------
    def run(self) -> None:
        a, b = self.sides
        work = [(_State(0, [], {}), _State(0, [], {}))]
        while work:
            sa, sb = work.pop()
            while True:
                ea = self._next_event(a, sa)
                eb = self._next_event(b, sb)
                if not self._same(ea.key, eb.key, sa, sb):
                    raise _NotShown("the programs differ at %s (offset %d) vs %s (offset %d)" % (
                        _describe(ea.key), a.ins[sa.pc - 1].offset, _describe(eb.key), b.ins[sb.pc - 1].offset))
                self._escape(sa, ea.key)
                self._escape(sb, eb.key)
                handled = self._exceptional(sa, sb) if ea.key[0] != "return" else None
                if handled is not None:
                    work.append(handled)
                if ea.terminal:
                    break
                if sa.back or sb.back:
                    pair = self._widen(sa, sb)
                    if pair is None:
                        break  # this loop state was explored already
                    sa, sb = pair
                if ea.outcomes is not None:
                    for (label, fa), (_, fb) in zip(ea.outcomes, eb.outcomes):
                        na, nb = sa.copy(), sb.copy()
                        if fa is None:  # FOR_ITER produced a value
                            self.results += 1
                            na.stack.append(("result", self.results))
                            nb.stack.append(("result", self.results))
                        else:
                            na, nb = fa(na), fb(nb)
                        work.append((na, nb))
                    break
                self._push_result(ea, eb, sa, sb)

    def _same(self, x: object, y: object, sa: _State, sb: _State) -> bool:
        """Whether x (a value or event on side A) is y (on side B): equal, with containers each side
        built paired one to one and equal in their items."""
        if x == ("top",) or y == ("top",):
            return False  # a local whose value depends on the way into a handler: never the same
        if isinstance(x, tuple) and isinstance(y, tuple):
            if x and y and x[0] == "obj" and y[0] == "obj":
                ux, uy = x[1], y[1]
                if ux in sa.pairs or uy in sb.pairs:
                    return sa.pairs.get(ux) == uy and sb.pairs.get(uy) == ux
                kx, ix, _ = sa.heap[ux]
                ky, iy, _ = sb.heap[uy]
                sa.pairs[ux], sb.pairs[uy] = uy, ux
                return kx == ky and len(ix) == len(iy) and self._same_items(ix, iy, sa, sb)
            if x and y and {x[0], y[0]} == {"obj", "const"}:
                # A tuple built of constants (Dynamo's BUILD_TUPLE 0) is the constant tuple the
                # source spells `()`: immutable, equal item by item, identity unobservable.
                obj, const, st = (x, y, sa) if x[0] == "obj" else (y, x, sb)
                kind, items, _ = st.heap[obj[1]]
                key = const[1]
                return kind == "tuple" and isinstance(key, tuple) and bool(key) and key[0] == "tuple" and \
                    len(items) == len(key) - 1 and all(item == ("const", k) for item, k in zip(items, key[1:]))
            return len(x) == len(y) and self._same_items(x, y, sa, sb)
        return x == y

    def _same_items(self, xs: Any, ys: Any, sa: _State, sb: _State) -> bool:
        for a, b in zip(xs, ys):
            if isinstance(a, tuple) or isinstance(b, tuple):
                if not self._same(a, b, sa, sb):
                    return False
            elif not a == b:  # what _same does for two plain items, without the call (it is hot)
                return False
        return True

    def _escape(self, st: _State, value: object) -> None:
        """Containers an event gets to see: from now on, changing them is an event of its own."""
        if isinstance(value, tuple) and value:
            if value[0] == "obj":
                entry = st.heap[value[1]]
                if not entry[2]:
                    entry[2] = True
                    for item in entry[1]:
                        if isinstance(item, tuple):  # a plain item has nothing to escape
                            self._escape(st, item)
                return
            for item in value:
                if isinstance(item, tuple):
                    self._escape(st, item)

    def _push_result(self, ea: _Event, eb: _Event, sa: _State, sb: _State) -> None:
        """The result of the event both sides just ran: one new value, pushed as each side's
        instruction pushes it."""
        self.results += 1
        r = ("result", self.results)
        if ea.key[0] in ("dict", "BUILD_MAP", "BUILD_CONST_KEY_MAP"):
            self.fresh_dicts.add(r)  # a dict built by the code (both sides built the same one)
        for event, state in ((ea, sa), (eb, sb)):
            pushes = event.pushes
            if pushes == -2:  # 3.13 LOAD_GLOBAL with NULL: the global, then NULL
                values = [r, ("null",)]
            elif pushes == ("with",):  # BEFORE_WITH: the bound __exit__, then what __enter__ returned
                values = [("exit", self.results), r]
            elif isinstance(pushes, tuple):  # unpacking: the first item ends on top
                values = [("item", self.results, k) for k in reversed(range(pushes[1]))]
            elif pushes == 2:  # a method load: the method and its self, folded again by the call
                values = [("method", self.results), ("self", self.results)]
            else:
                values = [r] * pushes
            state.stack.extend(values)

    def _abstract(self, sa: _State, sb: _State, key: tuple) -> tuple:
        """What two states at a join (a loop header, an exception handler) share, with fresh
        symbols named by `key` and place for the values: (stack, env of A, env of B)."""
        if len(sa.stack) < len(sb.stack) or sa.kwnames is not None or sb.kwnames is not None:
            raise _NotShown("different stacks where paths join")
        # Values the original keeps below what the join uses (a rewriter computes a call's
        # arguments, runs a loop, then calls) must be held by temporaries of the other side.
        below = len(sa.stack) - len(sb.stack)
        held = set(sb.env.values())

        def pure(x: object) -> bool:  # the same wherever it is loaded
            return isinstance(x, tuple) and bool(x) and x[0] in ("null", "const", "global")

        def held_container(x: object) -> bool:  # a list or the like, held by a name on the other side
            for y in held:
                if isinstance(y, tuple) and y[:1] == ("obj",):
                    saved = dict(sa.pairs), dict(sb.pairs)
                    if self._same(x, y, sa, sb):
                        return True
                    sa.pairs, sb.pairs = saved
            return False

        def method_half(x: object) -> bool:  # a method load's pair, its result held on the other side
            return isinstance(x, tuple) and len(x) == 2 and x[0] in ("method", "self") and ("result", x[1]) in held

        for x in sa.stack[:below]:
            if pure(x) or (isinstance(x, tuple) and x[:1] != ("obj",) and x in held) or method_half(x):
                continue
            if not (isinstance(x, tuple) and x[:1] == ("obj",) and held_container(x)):
                raise _NotShown("different stacks where paths join")
        fresh: Dict[object, tuple] = {}
        # A method and its self (LOAD_METHOD) that the other side holds as one loaded attribute:
        # after the join the pair is one joined symbol's, and so is the attribute, so that calling
        # either is calling the same thing (see _callable).
        for k, x in enumerate(sa.stack[:below]):
            if method_half(x):  # (named by where the pair starts: the same at every visit of the join)
                fresh.setdefault(("result", x[1]), ("result", ("joined", key, "method%d" % k)))

        def symbol(value: object, where: str) -> tuple:
            if value == ("top",):
                return value
            if value not in fresh:
                fresh[value] = ("joined", key, where)
            return fresh[value]

        stack_below = [x if pure(x) else (x[0], fresh[("result", x[1])][1]) if method_half(x) else symbol(x, "below%d" % k)
                       for k, x in enumerate(sa.stack[:below])]
        stack = []
        for k, (x, y) in enumerate(zip(sa.stack[below:], sb.stack)):
            if not self._same(x, y, sa, sb):
                raise _NotShown("different values on the stack where paths join")
            stack.append(symbol(x, "stack%d" % k))
        env_a, env_b = {}, {}
        for name in sorted(self.sides[0].shared):
            x, y = sa.env.get(name), sb.env.get(name)
            if x == y == ("top",):
                env_a[name] = env_b[name] = x
                continue
            if (x is None) != (y is None) or (x is not None and not self._same(x, y, sa, sb)):
                raise _NotShown("different values in %s where paths join" % name)
            if x is not None:
                env_a[name] = env_b[name] = x if x == ("deleted",) else symbol(x, name)

        def as_a(value: object) -> object:  # a container of side B named as its partner on side A
            if isinstance(value, tuple) and value and value[0] == "obj":
                return ("obj", sb.pairs.get(value[1]))
            return value

        for env, out, translate in ((sa.env, env_a, lambda v: v), (sb.env, env_b, as_a)):
            for name, value in env.items():
                if name not in self.sides[0].shared:
                    # A temporary: usable after the join only if it holds a value the other side has
                    # too, or a constant (the same wherever it is loaded).
                    out[name] = value if isinstance(value, tuple) and value[:1] == ("const",) else fresh.get(translate(value), ("deleted",))
        # Containers still private here become ordinary values from now on (their changes after
        # the join are events), so what follows does not depend on their contents.
        for state in (sa, sb):
            self._escape(state, tuple(state.stack) + tuple(state.env.values()))
        return ((tuple(stack_below + stack), tuple(stack)), tuple(sorted(env_a.items())), tuple(sorted(env_b.items())))

    @staticmethod
    def _states(shape: tuple, pc_a: int, pc_b: int) -> Tuple[_State, _State]:
        # Every value in the new states is a join symbol, so the container heaps start empty.
        (stack_a, stack_b), env_a, env_b = shape
        return _State(pc_a, list(stack_a), dict(env_a)), _State(pc_b, list(stack_b), dict(env_b))

    def _widen(self, sa: _State, sb: _State) -> Optional[Tuple[_State, _State]]:
        """At a state reached through a backward jump: keep only what the two sides share; None
        when this loop state was explored already."""
        sa.back = sb.back = False
        key = ("loop", sa.pc, sb.pc)
        shape = self._abstract(sa, sb, key)
        seen = self.widened.get(key)
        if seen is not None:
            if seen != shape:
                raise _NotShown("a loop whose state differs between iterations")
            return None
        self.widened[key] = shape
        return self._states(shape, sa.pc, sb.pc)

    def _join(self, sa: _State, sb: _State) -> Optional[Tuple[_State, _State]]:
        """At an exception handler, reached from every operation it protects: the states joined so
        far (a temporary of one side that differs between the ways in becomes unknown: its use is
        not shown); None when nothing new reaches the handler.

        A local bound at some ways in and not at others (`with cm: y = f(x); g(y)` then `y` used
        after the statement: unbound where f raised, bound where g did) becomes one symbol, the
        same on both sides, for "y as the way in left it": _abstract checked at every way in that
        the two sides had it bound or not alike, and to the same value. A load of it is a load of
        that value on both sides, or the same UnboundLocalError at the same place on both."""
        key = ("handler", sa.pc, sb.pc)
        shape = self._abstract(sa, sb, key)
        old = self.widened.get(key)
        if old is not None:
            if old[0] != shape[0]:
                raise _NotShown("an exception handler reached with different stacks")
            envs = []
            shared = self.sides[0].shared
            for before, now in ((old[1], shape[1]), (old[2], shape[2])):
                before, now = dict(before), dict(now)
                # (A temporary of one side that differs between the ways in stays unknown: its
                # use is not shown.)
                envs.append(tuple(sorted((name, before.get(name) if before.get(name) == now.get(name) else
                                          ("joined", key, "way in", name) if name in shared else ("top",))
                                         for name in set(before) | set(now))))
            # (Both sides' ways in were paired one by one, so their shared locals change alike; a
            # difference would be a value the pairing missed.)
            if [n for n, v in envs[0] if v and v[2:3] == ("way in",)] != [n for n, v in envs[1] if v and v[2:3] == ("way in",)]:
                raise _NotShown("a local bound differently on the ways into an exception handler")
            shape = (old[0], envs[0], envs[1])
            if shape == old:
                return None
        self.widened[key] = shape
        return self._states(shape, sa.pc, sb.pc)

    def _exceptional(self, sa: _State, sb: _State) -> Optional[Tuple[_State, _State]]:
        """Where an exception raised by the event both sides just ran goes: the handlers' states
        (stack cut to the handler's depth, lasti, the exception), or None when neither handles it."""
        a, b = self.sides
        ha, hb = a.handler(sa.pc - 1), b.handler(sb.pc - 1)
        if ha is None and hb is None:
            return None
        if ha is None or hb is None:
            raise _NotShown("an operation is inside a try on one side only")
        self.results += 1
        exception = ("exception", self.results)
        states = []
        for st, (target, depth, lasti) in ((sa, ha), (sb, hb)):
            if depth > len(st.stack):
                raise _NotShown("an exception handler deeper than the stack")
            handler = st.copy()
            handler.pc, handler.kwnames, handler.back = target, None, False
            handler.stack = st.stack[:depth] + ([("lasti",)] if lasti else []) + [exception]
            states.append(handler)
        return self._join(states[0], states[1])


def _callable(operands: list, pair_as_argument: bool = True) -> tuple:
    """A call's operands with its first two (NULL and the callable, or a method and its self, in
    either version's order) folded into the one thing that is called."""
    first, second = operands[0], operands[1]
    if first == ("null",):
        called = second
    elif second == ("null",):
        called = first
    elif first[0] == "method" and second == ("self", first[1]):
        called = ("result", first[1])
    elif pair_as_argument:
        # Neither is NULL: in either version's order the first is called with the second as its
        # first argument (CALL 0 on [f, x] is f(x)), as f(x) is called with a NULL before it.
        return (first, second) + tuple(operands[2:])
    else:
        called = ("pair", first, second)
    return (called,) + tuple(operands[2:])


def _describe(key: tuple) -> str:
    text = repr(key)
    return text if len(text) < 160 else text[:157] + "..."


def same_value_flow(original: types.CodeType, recompiled: types.CodeType,
                    stable_globals: Callable[[str], bool] = lambda name: False,
                    global_constants: Optional[Dict[str, object]] = None) -> Tuple[bool, str]:
    """Whether `recompiled` performs the same operations on the same values in the same order as
    `original` on every path (see the module docstring); (False, why) when that is not shown.
    Nested code objects must be equal constants. `global_constants`: globals of `recompiled` that
    stand for constants of `original` (objects marshal cannot write). Only for code of the running
    interpreter, 3.11+."""
    if not ((3, 11) <= sys.version_info[:2] <= (3, 13)):
        return False, "value-flow check needs Python 3.11-3.13"
    try:
        _Checker(original, recompiled, stable_globals, global_constants or {}).run()
    except _NotShown as why:
        return False, str(why)
    except (RecursionError, MemoryError):
        return False, "too large to check"
    return True, ""
