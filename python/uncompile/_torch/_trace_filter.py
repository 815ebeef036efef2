"""Skip the structured-trace events a dump does not read, before torch computes them.

torch's `trace_structured(name, metadata_fn, payload_fn=...)` computes the metadata and the
payload (graphs printed, JSON encoded, stacks captured) whenever the trace logger has any handler.
A dump's handler reads a dozen kinds of event out of the several dozen a compile emits, so while a
dump is the only listener, the others are dropped before their payload is built. With any other
handler on the logger (TORCH_TRACE, tlparse users) every event goes through unchanged.
"""
import functools
import types
from typing import Any, Collection, Dict, Optional, Tuple


def _gate(*args: Any, __uncompile_gate: Any = None, **kwargs: Any) -> Any:
    """The body trace_structured has while a filter is installed: it hands its arguments to its
    keyword default `__uncompile_gate`."""
    return __uncompile_gate(args, kwargs)


@functools.lru_cache(maxsize=None)
def _gate_code(free_variables: int) -> types.CodeType:
    """_gate's body for a function with that many closure cells: a function's body can only be
    swapped for one with as many free variables, so this one declares them (`nonlocal` adds no
    instruction) and never reads them. torch's trace_structured has none: no compile then."""
    if not free_variables:
        return _gate.__code__
    free = ["_uncompile_free%d" % k for k in range(free_variables)]
    lines = ["def outer():", "    %s = None" % " = ".join(free),
             "    def gate(*args, __uncompile_gate=None, **kwargs):",
             "        nonlocal %s" % ", ".join(free),
             "        return __uncompile_gate(args, kwargs)", "    return gate"]
    namespace: Dict[str, Any] = {}
    exec(compile("\n".join(lines) + "\n", __file__, "exec", dont_inherit=True), namespace)
    return namespace["outer"]().__code__


class TraceFilter:
    """Makes `trace_structured` drop the events a dump does not read, until `remove()`.

    The function object itself changes body (its __code__), not the names bound to it: every module
    that imported it sees the filter at once, nothing scans sys.modules (a few thousand modules
    once torch is imported, whose dictionaries cost more to visit than the filter saves on a
    small compile), and removing it leaves no wrapper behind in a module imported meanwhile.
    """

    def __init__(self, internal: Any, logger: Any, own_handler: Any,
                 events: Collection[str], artifacts: Collection[str]) -> None:
        self.internal, self.logger, self.own_handler = internal, logger, own_handler
        self.events, self.artifacts = frozenset(events), frozenset(artifacts)
        self.active = False
        self._function: Optional[types.FunctionType] = None
        self._saved: Tuple[Optional[types.CodeType], Optional[dict]] = (None, None)  # original body, kw defaults
        self._gate_code: Optional[types.CodeType] = None

    def install(self) -> None:
        function = getattr(self.internal, "trace_structured", None)
        if not isinstance(function, types.FunctionType):
            return  # not a plain function: no filter, every event goes through
        saved = (function.__code__, function.__kwdefaults__)
        # The original body, as a function of its own, for the events that go through.
        original = types.FunctionType(function.__code__, function.__globals__, function.__name__,
                                      function.__defaults__, function.__closure__)
        original.__kwdefaults__ = dict(function.__kwdefaults__ or {})
        wanted = self._wanted

        def gate(args: tuple, kwargs: dict) -> Any:
            name, rest = (args[0], args[1:]) if args else (kwargs.get("name"), args)
            if wanted(name, rest, kwargs):
                return original(*args, **kwargs)
            return None

        gate_code = _gate_code(len(function.__code__.co_freevars)).replace(co_name=function.__code__.co_name)
        # Defaults first, then the body, so that a call from another thread at any moment finds
        # the two matching: the original body ignores the extra keyword default, and the gate
        # the original's defaults (it takes *args: positional defaults never apply).
        function.__kwdefaults__ = dict(function.__kwdefaults__ or {}, __uncompile_gate=gate)
        function.__code__ = gate_code
        self._function, self._saved, self._gate_code, self.active = function, saved, gate_code, True

    def remove(self) -> None:
        self.active = False  # from now on every event goes through, whatever happens below
        function, self._function = self._function, None
        if function is not None and function.__code__ is self._gate_code:  # else someone changed it since
            function.__code__ = self._saved[0]  # body first, as on install in reverse
            function.__kwdefaults__ = self._saved[1]

    def _wanted(self, name: str, args: tuple, kwargs: dict) -> bool:
        if not self.active or name in self.events:
            return True
        try:
            if any(h is not self.own_handler for h in self.logger.handlers):
                return True  # someone else listens: they get every event
            if name == "artifact":
                metadata_fn = kwargs.get("metadata_fn", args[0] if args else None)
                metadata = metadata_fn() if callable(metadata_fn) else None
                return not isinstance(metadata, dict) or metadata.get("name") in self.artifacts
        except Exception:
            return True  # when in doubt, let torch log it
        return False
