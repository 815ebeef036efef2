"""Skip the structured-trace events a dump does not read, before torch computes them.

torch's `trace_structured(name, metadata_fn, payload_fn=...)` computes the metadata and the
payload (graphs printed, JSON encoded, stacks captured) whenever the trace logger has any handler.
A dump's handler reads a dozen kinds of event out of the several dozen a compile emits, so while a
dump is the only listener, the others are dropped before their payload is built. With any other
handler on the logger (TORCH_TRACE, tlparse users) every event goes through unchanged.
"""
import sys
from typing import Any, Callable, Collection, Iterable, List


class TraceFilter:
    """Replaces `trace_structured` in every module that holds it, until `remove()`."""

    def __init__(self, internal: Any, logger: Any, own_handler: Any,
                 events: Collection[str], artifacts: Collection[str]) -> None:
        self.internal, self.logger, self.own_handler = internal, logger, own_handler
        self.events, self.artifacts = frozenset(events), frozenset(artifacts)
        self.original: Callable[..., Any] = internal.trace_structured
        self.active = True
        self._modules: dict = {}
        self._namespaces: List[dict] = []
        original, wanted = self.original, self._wanted

        def trace_structured(name: str, *args: Any, **kwargs: Any) -> Any:
            if wanted(name, args, kwargs):
                return original(name, *args, **kwargs)
            return None

        trace_structured.__wrapped__ = original  # type: ignore[attr-defined]
        self.replacement = trace_structured

    def install(self) -> None:
        self._modules = dict(sys.modules)
        self._namespaces = self._swap(self._modules.values(), self.original, self.replacement)

    def remove(self) -> None:
        self.active = False  # a module that imported the replacement meanwhile now passes everything
        # The namespaces swapped on install, and the modules imported since (which may have
        # imported the replacement): not a second scan of every module.
        before = self._modules
        added = [module for name, module in list(sys.modules.items()) if before.get(name) is not module]
        for namespace in self._namespaces:
            if namespace.get("trace_structured") is self.replacement:
                namespace["trace_structured"] = self.original
        self._swap(added, self.replacement, self.original)
        self._modules, self._namespaces = {}, []

    @staticmethod
    def _swap(modules: Iterable[Any], old: Callable[..., Any], new: Callable[..., Any]) -> List[dict]:
        """Rebind `trace_structured` from `old` to `new` in the modules holding `old`; their namespaces."""
        swapped = []
        for module in modules:
            # Module dictionaries directly: getattr would run the lazy-import __getattr__ of some
            # modules, and scanning them all that way costs more than the filter saves.
            try:
                namespace = module.__dict__
                if namespace.get("trace_structured") is not old or not isinstance(namespace, dict):
                    continue
            except Exception:
                continue
            namespace["trace_structured"] = new
            swapped.append(namespace)
        return swapped

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
