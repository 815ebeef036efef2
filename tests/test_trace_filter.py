"""The structured-trace filter of prepare_debug: events the dump does not read are dropped before
their payload is built, only while the dump is the only listener, and everything is restored."""
import logging
import sys
import types

from uncompile._torch._trace_filter import TraceFilter


def _fake_torch_logging():
    calls = []

    def trace_structured(name, metadata_fn=dict, *, payload_fn=lambda: None, **kwargs):
        calls.append((name, metadata_fn(), payload_fn()))

    internal = types.ModuleType("fake_trace_internal")
    internal.trace_structured = trace_structured
    user = types.ModuleType("fake_trace_user")  # a module that did `from ... import trace_structured`
    user.trace_structured = trace_structured
    sys.modules[internal.__name__], sys.modules[user.__name__] = internal, user
    return internal, user, calls


def _emit(module, built):
    module.trace_structured("dynamo_output_graph", payload_fn=lambda: built.append("graph") or "g")
    module.trace_structured("describe_tensor", payload_fn=lambda: built.append("tensor") or "t")
    module.trace_structured("artifact", metadata_fn=lambda: {"name": "recompile_reasons"},
                            payload_fn=lambda: built.append("reasons") or "r")
    module.trace_structured("artifact", metadata_fn=lambda: {"name": "fx_graph_runnable"},
                            payload_fn=lambda: built.append("runnable") or "x")


def test_unread_events_are_not_built_while_the_dump_alone_listens():
    internal, user, calls = _fake_torch_logging()
    original = internal.trace_structured
    original_code = original.__code__
    original_payload_fn = original.__kwdefaults__["payload_fn"]
    logger = logging.getLogger("uncompile.test.trace")
    own = logging.NullHandler()
    logger.addHandler(own)
    try:
        trace_filter = TraceFilter(internal, logger, own, events=("dynamo_output_graph",), artifacts=("recompile_reasons",))
        trace_filter.install()
        # the function itself filters, so every module holding it does, with nothing rebound
        assert internal.trace_structured is original and user.trace_structured is original
        assert original.__code__ is not original_code
        built = []
        _emit(user, built)
        assert built == ["graph", "reasons"]
        assert [c[0] for c in calls] == ["dynamo_output_graph", "artifact"]
        # another listener (TORCH_TRACE, tlparse): it gets every event
        other = logging.NullHandler()
        logger.addHandler(other)
        built.clear()
        _emit(user, built)
        assert built == ["graph", "tensor", "reasons", "runnable"]
        logger.removeHandler(other)
        trace_filter.remove()
        assert internal.trace_structured is original and user.trace_structured is original
        assert original.__code__ is original_code and original.__kwdefaults__ == {"payload_fn": original_payload_fn}
        built.clear()
        _emit(user, built)
        assert built == ["graph", "tensor", "reasons", "runnable"]
    finally:
        logger.removeHandler(own)
        sys.modules.pop(internal.__name__, None)
        sys.modules.pop(user.__name__, None)
