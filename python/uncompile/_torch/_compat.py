"""Every private PyTorch API the integration uses, probed once, by feature, with clear errors.

Nothing else in `uncompile._torch` reaches into torch's internals except through `TorchAPI`.
"""
import functools
import importlib
import re
from dataclasses import dataclass
from typing import Any, Callable, Optional, Tuple

from ..errors import UncompileError

MIN_TORCH = (2, 13)


class TorchSupportError(UncompileError):
    """torch is missing, too old, or lacks a private API the dump needs."""


def parse_version(text: str) -> Tuple[int, ...]:
    """'2.13.0+cpu' -> (2, 13, 0); compared as numbers, never as strings."""
    match = re.match(r"(\d+(?:\.\d+)*)", text or "")
    if not match:
        return ()
    return tuple(int(part) for part in match.group(1).split("."))


@dataclass(frozen=True)
class TorchAPI:
    """The probed hook points (see DESIGN.md, "The PyTorch side")."""

    torch: Any
    version: str
    register_bytecode_hook: Callable[..., Any]
    get_cache_entries: Callable[[Any], list]
    trace_logger: Any
    current_compile_id: Callable[[], Any]
    fx_graph_module: Any            # module holding _exec_with_source
    py_code_cache: Any              # class with load_by_key_path
    inductor_config: Any            # has force_disable_caches
    dynamo_config: Any
    resume_metadata: Optional[Any]  # ContinueExecutionCache.generated_code_metadata, if present
    intern_table: Optional[dict]    # torch._logging.structured.INTERN_TABLE, if present
    bytecode_logger: Any
    trace_internal: Any             # torch._logging._internal, which defines trace_structured


def _need(owner: Any, attr: str, where: str, version: str) -> Any:
    if owner is None or not hasattr(owner, attr):
        raise TorchSupportError(
            "uncompile needs %s.%s, which torch %s does not have; this torch is not supported "
            "(uncompile supports torch >= %d.%d)" % (where, attr, version, MIN_TORCH[0], MIN_TORCH[1]))
    return getattr(owner, attr)


def _module(name: str, version: str) -> Any:
    try:
        return importlib.import_module(name)
    except Exception as exc:  # an internal module moved or fails to import
        raise TorchSupportError("uncompile needs the module %s, which failed to import with torch %s: %s"
                                % (name, version, exc)) from exc


@functools.lru_cache(maxsize=1)
def load() -> TorchAPI:
    """Import torch and probe every private API; raise TorchSupportError naming what is missing."""
    try:
        import torch
    except ImportError as exc:
        raise TorchSupportError("uncompile's torch.compile integration needs torch >= %d.%d, and torch "
                                "is not installed (pip install 'torch>=%d.%d')" % (MIN_TORCH * 2)) from exc
    version = str(getattr(torch, "__version__", "unknown"))
    if parse_version(version)[:2] < MIN_TORCH:
        raise TorchSupportError("uncompile's torch.compile integration needs torch >= %d.%d; found torch %s"
                                % (MIN_TORCH + (version,)))
    import logging
    convert_frame = _module("torch._dynamo.convert_frame", version)
    eval_frame = _module("torch._dynamo.eval_frame", version)
    guards_mod = _module("torch._guards", version)
    fx_gm = _module("torch.fx.graph_module", version)
    codecache = _module("torch._inductor.codecache", version)
    inductor_config = _module("torch._inductor.config", version)
    dynamo_config = _module("torch._dynamo.config", version)
    compile_context = _need(guards_mod, "CompileContext", "torch._guards", version)
    _need(fx_gm, "_exec_with_source", "torch.fx.graph_module", version)
    py_code_cache = _need(codecache, "PyCodeCache", "torch._inductor.codecache", version)
    _need(py_code_cache, "load_by_key_path", "torch._inductor.codecache.PyCodeCache", version)
    _need(inductor_config, "force_disable_caches", "torch._inductor.config", version)
    internal = _module("torch._logging._internal", version)
    _need(internal, "trace_structured", "torch._logging._internal", version)
    try:
        resume = importlib.import_module("torch._dynamo.resume_execution")
        resume_metadata = resume.ContinueExecutionCache.generated_code_metadata
    except (ImportError, AttributeError):
        resume_metadata = None  # resume functions are then attributed by name only
    try:
        intern_table = importlib.import_module("torch._logging.structured").INTERN_TABLE
    except (ImportError, AttributeError):
        intern_table = None
    return TorchAPI(
        torch=torch, version=version,
        register_bytecode_hook=_need(convert_frame, "register_bytecode_hook", "torch._dynamo.convert_frame", version),
        get_cache_entries=_need(eval_frame, "_debug_get_cache_entry_list", "torch._dynamo.eval_frame", version),
        trace_logger=logging.getLogger("torch.__trace"),
        current_compile_id=_need(compile_context, "current_compile_id", "torch._guards.CompileContext", version),
        fx_graph_module=fx_gm, py_code_cache=py_code_cache, inductor_config=inductor_config,
        dynamo_config=dynamo_config, resume_metadata=resume_metadata, intern_table=intern_table,
        bytecode_logger=torch._logging.getArtifactLogger("torch._dynamo.convert_frame", "bytecode"),
        trace_internal=internal,
    )


CPP_CODEGEN = "torch._inductor.codegen.cpp"


@dataclass(frozen=True)
class KernelOriginAPI:
    """Which captured-graph nodes each C++ (CPU) kernel computes. Inductor writes a "Source Nodes"
    comment above Triton and extern kernels but not above C++ kernels; with these the dump records
    the same metadata for them. Optional: without them the dump has the links the comments give."""

    cpp_scheduling: Any                   # class with codegen_comment(node_schedule, kernel_name)
    kernel_metadata: Callable[..., Any]   # torch._inductor.utils.get_kernel_metadata
    inductor_graph: Callable[[], Any]     # -> the GraphLowering being compiled


@functools.lru_cache(maxsize=1)
def kernel_origin_api() -> Optional[KernelOriginAPI]:
    """Probe the C++ codegen's hook point; call it once Inductor has imported CPP_CODEGEN (importing
    it costs ~0.1 s, which a program that never uses Inductor should not pay). None if absent."""
    try:
        cpp = importlib.import_module("torch._inductor.codegen.cpp")
        utils = importlib.import_module("torch._inductor.utils")
        virtualized = importlib.import_module("torch._inductor.virtualized")
        scheduling, metadata, V = cpp.CppScheduling, utils.get_kernel_metadata, virtualized.V
    except (ImportError, AttributeError):
        return None
    if not callable(getattr(scheduling, "codegen_comment", None)) or not callable(metadata):
        return None
    return KernelOriginAPI(cpp_scheduling=scheduling, kernel_metadata=metadata, inductor_graph=lambda: V.graph)
