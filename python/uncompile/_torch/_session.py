"""One `prepare_debug` session: hooks into torch.compile, writes the dump, keeps it file-backed.

Pipeline, in the order torch calls us during one compile:
 1. trace events (`torch.__trace` handler): captured FX graph, AOT graphs, Inductor output code,
    guards, graph-break and recompile reasons, compile metrics -> files in the compile directory;
 2. graph files are made the code that runs: FX `forward` functions get code compiled from the
    dumped file (after a structural check), Inductor modules are loaded from the dumped file;
 3. bytecode hook: Dynamo's transformed code and every resume function it calls are decompiled;
    verified source replaces Dynamo's code, otherwise Dynamo's bytecode runs with its line table
    pointed at a listing in the same file (identical instructions, so results cannot change);
 4. on exit: cache entries, overview files and the manifest.
"""
import collections
import inspect
import json
import logging
import functools
import os
import re
import sys
import time
import types
import warnings
import weakref
from typing import Any, Dict, List, Optional, Tuple

from . import _codemap, _compat, _files, _overview, _trace_filter
from ._compat import TorchAPI
from ._records import CompileRecord, FunctionRecord

FORMAT_VERSION = 1
_log = logging.getLogger("uncompile.torch")
_bytecode_log = logging.getLogger("uncompile.bytecode")

_GRAPH_EVENTS = {
    "dynamo_output_graph": "captured_graph",
    "aot_joint_graph": "aot_joint",
    "aot_forward_graph": "aot_forward",
    "aot_inference_graph": "aot_forward",
    "aot_backward_graph": "aot_backward",
}
_OTHER_EVENTS = ("inductor_output_code", "dynamo_guards", "dynamo_cpp_guards_str", "compilation_metrics")
_ARTIFACTS = ("recompile_reasons", "dynamo_graph_break_reason")
_CONVERT_FRAME = os.path.join("_dynamo", "convert_frame.py")


class NotVerifiedWarning(UserWarning):
    """Decompiled code was not verified equivalent; Dynamo's own bytecode runs instead."""


class _AfterImport:
    """A meta-path finder for one module: it lets the usual finders find and load it, then calls
    `after()`. It never changes what is imported."""

    def __init__(self, name: str, after: Any) -> None:
        self.name, self.after = name, after

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> Any:
        if fullname != self.name:
            return None
        spec = None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec = find(fullname, path, target)
            if spec is not None:
                break
        loader = getattr(spec, "loader", None)
        exec_module = getattr(loader, "exec_module", None)
        if exec_module is None:
            return spec
        after = self.after

        def exec_then_call(module: Any) -> None:
            exec_module(module)
            try:
                after()
            except Exception as exc:  # never break the import
                _log.warning("uncompile dump: after importing %s: %s", fullname, exc)

        loader.exec_module = exec_then_call
        return spec


class _TraceHandler(logging.Handler):
    def __init__(self, session: "DumpSession") -> None:
        super().__init__(level=logging.DEBUG)
        self.session = session

    def emit(self, record: logging.LogRecord) -> None:
        metadata = getattr(record, "metadata", None)
        if isinstance(metadata, dict):
            try:
                self.session.on_trace(metadata, getattr(record, "payload", None))
            except Exception as exc:  # a dump problem must never break the user's compile
                self.session.note_error("trace event", exc)


def _compiling_frame() -> Tuple[Optional[types.CodeType], Optional[dict]]:
    """(code, globals) of the frame Dynamo is compiling, from convert_frame._compile's locals."""
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "_compile" and frame.f_code.co_filename.endswith(_CONVERT_FRAME):
            local = frame.f_locals
            code, glb = local.get("code"), local.get("globals")
            if isinstance(code, types.CodeType):
                return code, glb if isinstance(glb, dict) else None
        frame = frame.f_back
    return None, None


class DumpSession:
    def __init__(self, api: TorchAPI, dump_dir: str, log_bytecode: bool = False) -> None:
        self.api = api
        self.dump_dir = os.path.abspath(dump_dir)
        self.log_bytecode = log_bytecode
        self.rank, self.world_size = _files.process_rank()
        self.functions: Dict[Any, FunctionRecord] = {}
        self.dir_names: Dict[str, Any] = {}
        self.compiles: Dict[str, CompileRecord] = {}
        self.resume_names: Dict[types.CodeType, str] = {}
        self.notes: List[str] = []
        self.errors: List[str] = []
        self.pending_recompile_reason: Optional[str] = None
        self._fx_functions: "collections.deque" = collections.deque(maxlen=4096)
        self._fx_file_codes: Dict[bytes, List[types.CodeType]] = {}
        self._inductor_paths: Dict[str, str] = {}
        self._interned: Dict[int, str] = {}
        self._kernel_origins: Dict[str, Tuple[List[str], List[str]]] = {}  # C++ kernel -> (source nodes, ATen ops)
        self._undo: List[Any] = []
        self._active = False
        self._compiled_before = 0

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> None:
        if self._active:
            return
        os.makedirs(self.dump_dir, exist_ok=True)
        api = self.api
        handle = api.register_bytecode_hook(self.on_bytecode)
        self._undo.append(handle.remove)
        handler = _TraceHandler(self)
        api.trace_logger.addHandler(handler)
        self._undo.append(lambda: api.trace_logger.removeHandler(handler))
        trace_filter = _trace_filter.TraceFilter(api.trace_internal, api.trace_logger, handler,
                                                 events=("str",) + tuple(_GRAPH_EVENTS) + _OTHER_EVENTS,
                                                 artifacts=_ARTIFACTS)
        trace_filter.install()
        self._undo.append(trace_filter.remove)
        self._patch_fx()
        self._patch_inductor()
        self._when_imported(_compat.CPP_CODEGEN, self._patch_kernel_origins)
        previous = api.inductor_config.force_disable_caches
        api.inductor_config.force_disable_caches = True  # cache hits would hide graphs and kernels
        self._undo.append(lambda: setattr(api.inductor_config, "force_disable_caches", previous))
        self._compiled_before = self._count_compiled_codes()
        self._active = True

    def stop(self) -> None:
        if not self._active:
            return
        self._active = False
        while self._undo:
            undo = self._undo.pop()
            try:
                undo()
            except Exception as exc:
                self.note_error("restoring torch state", exc)
        self.finish()

    def finish(self) -> None:
        if not self.compiles and self._compiled_before:
            message = ("uncompile.prepare_debug: nothing was compiled inside the block, but %d code objects "
                       "had been compiled before it; their cached code keeps running and is not dumped. "
                       "Enter prepare_debug before the first call of the compiled function, or call "
                       "torch._dynamo.reset() first." % self._compiled_before)
            self.notes.append(message)
            warnings.warn(message, stacklevel=4)
        self._attach_orphans()
        self._read_cache_entries()
        for function in self.functions.values():
            self._write_overview(function)
        self.write_manifest()

    def _count_compiled_codes(self) -> int:
        try:
            from torch._dynamo import utils
            table = getattr(utils, "orig_code_map", None)
            values = getattr(table, "values", None)  # ExactWeakKeyDictionary keeps a dict of values
            return len(values) if values is not None and hasattr(values, "__len__") else 0
        except Exception:
            return 0

    def note_error(self, where: str, exc: BaseException) -> None:
        message = "%s: %s: %s" % (where, type(exc).__name__, exc)
        self.errors.append(message)
        _log.warning("uncompile dump: %s", message)

    # -- patches that make graph and kernel files the code that runs ---------------------------
    def _patch_fx(self) -> None:
        module = self.api.fx_graph_module
        original = module._exec_with_source
        functions, file_codes = self._fx_functions, self._fx_file_codes

        def exec_with_source(src: str, globals: Dict[str, Any], *args: Any, **kwargs: Any) -> Any:
            result = original(src, globals, *args, **kwargs)
            fn = globals.get("forward") if isinstance(globals, dict) else None
            if isinstance(fn, types.FunctionType):
                functions.append(weakref.ref(fn))
                # a lazily recompiled GraphModule whose graph was dumped: run it from the file
                for code in file_codes.get(fn.__code__.co_code, ()):
                    if not fn.__code__.co_freevars and _codemap.same_code(fn.__code__, code):
                        fn.__code__ = code
                        break
            return result

        module._exec_with_source = exec_with_source
        self._undo.append(lambda: setattr(module, "_exec_with_source", original))

    def _patch_inductor(self) -> None:
        cache = self.api.py_code_cache
        original = cache.__dict__["load_by_key_path"]
        redirect = self._inductor_paths

        def load_by_key_path(cls: Any, key: str, path: str, *args: Any, **kwargs: Any) -> Any:
            return original.__func__(cls, key, redirect.get(path, path), *args, **kwargs)

        cache.load_by_key_path = classmethod(load_by_key_path)
        self._undo.append(lambda: setattr(cache, "load_by_key_path", original))

    def _when_imported(self, name: str, patch: Any) -> None:
        """Run `patch` now if module `name` is imported, else right after something imports it
        while the session is active (a one-module import hook, removed on stop)."""
        if name in sys.modules:
            patch()
            return
        hook = _AfterImport(name, patch)
        sys.meta_path.insert(0, hook)

        def remove() -> None:
            if hook in sys.meta_path:
                sys.meta_path.remove(hook)
        self._undo.append(remove)

    def _patch_kernel_origins(self) -> None:
        """Record the source nodes of each C++ kernel, which Inductor computes but does not write.

        Inductor's own get_kernel_metadata (the text of the "Source Nodes" comment it writes above
        Triton and extern kernels) is asked for the same nodes; nothing is added to the code.
        """
        api = _compat.kernel_origin_api()
        if api is None:
            return
        scheduling, metadata, current_graph = api.cpp_scheduling, api.kernel_metadata, api.inductor_graph
        original = scheduling.__dict__.get("codegen_comment")
        if original is None:
            return
        origins, session = self._kernel_origins, self

        def codegen_comment(self: Any, node_schedule: Any, kernel_name: Any = None, *args: Any, **kwargs: Any) -> Any:
            result = original(self, node_schedule, kernel_name, *args, **kwargs)
            if isinstance(kernel_name, str) and session._active:
                try:
                    text = metadata(node_schedule, current_graph().wrapper_code)[0]
                    nodes, aten = _parse_kernel_metadata(text)
                    if nodes or aten:
                        origins[kernel_name] = (nodes, aten)
                except Exception as exc:  # a missing link must never break the compile
                    session.note_error("source nodes of kernel %s" % kernel_name, exc)
            return result

        scheduling.codegen_comment = codegen_comment
        self._undo.append(lambda: setattr(scheduling, "codegen_comment", original))

    # -- records --------------------------------------------------------------------------
    def _root_code(self, code: types.CodeType) -> types.CodeType:
        meta = self.api.resume_metadata
        seen = 0
        while meta is not None and seen < 64:
            entry = meta.get(code)
            parent = getattr(entry, "code", None)
            if not isinstance(parent, types.CodeType):
                break
            code, seen = parent, seen + 1
        return code

    def _function_for(self, code: types.CodeType) -> FunctionRecord:
        root = self._root_code(code)
        key = (root.co_filename, root.co_firstlineno, root.co_name)
        function = self.functions.get(key)
        if function is None:
            base = _files.function_dir_name(root.co_name, root.co_filename, root.co_firstlineno)
            name, k = base, 1
            while name in self.dir_names:
                k += 1
                name = "%s_%d" % (base, k)
            self.dir_names[name] = key
            dirname = name + (".rank%d" % self.rank if self.rank is not None else "")
            function = FunctionRecord(name=root.co_name, qualname=getattr(root, "co_qualname", root.co_name),
                                      filename=root.co_filename, firstlineno=root.co_firstlineno,
                                      dir=dirname, code=root)
            self.functions[key] = function
        if not function.original_written:
            function.original_written = True
            self._write_original(function)
        return function

    def _compile_record(self, frame_id: int, attempt: int) -> CompileRecord:
        cid = "%d/%d" % (frame_id, attempt)
        record = self.compiles.get(cid)
        if record is None:
            record = CompileRecord(compile_id=cid, frame_id=frame_id, attempt=attempt)
            if self.pending_recompile_reason is not None and attempt > 0:
                record.recompile_reason, self.pending_recompile_reason = self.pending_recompile_reason, None
            self.compiles[cid] = record
            code, glb = _compiling_frame()
            if code is not None:
                self._attach(record, code)
        return record

    def _attach(self, record: CompileRecord, code: types.CodeType) -> None:
        if record.dir or _is_debugger_code(code):
            # A debugger's own frames (pdb's trace functions run inside the compiled region, so
            # Dynamo tries them too) are not the user's program: nothing of them is dumped.
            return
        function = self._function_for(code)
        record.code = code
        record.resume_name = self.resume_names.get(code)
        record.dir = "%s/c%d_%d" % (function.dir, record.frame_id, record.attempt)
        function.compiles.append(record)
        pending, record.pending = record.pending, []
        for kind, metadata, payload in pending:
            self._handle_event(record, kind, metadata, payload)

    def _attach_orphans(self) -> None:
        for record in self.compiles.values():
            if not record.dir and record.pending and record.code is not None:
                self._attach(record, record.code)

    # -- writing --------------------------------------------------------------------------
    def _abs(self, rel: str) -> str:
        return os.path.join(self.dump_dir, *rel.split("/"))

    def _write(self, rel: str, text: str) -> str:
        path = self._abs(rel)
        _files.atomic_write(path, text)
        return path

    def _write_original(self, function: FunctionRecord) -> None:
        header = "# Original source of %s (%s:%d), as torch.compile saw it.\n" % (
            function.qualname, function.filename, function.firstlineno)
        try:
            lines, start = inspect.getsourcelines(function.code)
            text = header + "# Lines %d-%d of the file.\n" % (start, start + len(lines) - 1) + _dedent("".join(lines))
            compile(text, "original.py", "exec")
        except Exception:
            text = header + "# No source file; decompiled by uncompile.\n" + _decompile_text(function.code)
        self._write(function.dir + "/original.py", text)

    # -- trace events ---------------------------------------------------------------------
    def on_trace(self, metadata: dict, payload: Optional[str]) -> None:
        if "str" in metadata:
            value = metadata["str"]
            if isinstance(value, (list, tuple)) and len(value) == 2:
                self._interned[value[1]] = value[0]
            return
        if "chromium_event" in metadata:
            return
        kind = next((k for k in metadata if k not in _RESERVED), None)
        if kind == "artifact":
            name = (metadata.get("artifact") or {}).get("name")
            if name == "recompile_reasons":
                self.pending_recompile_reason = _reason_text(payload)
                return
            if name != "dynamo_graph_break_reason":
                return
            kind = "graph_break"
        elif kind not in _GRAPH_EVENTS and kind not in _OTHER_EVENTS:
            return
        if "frame_id" not in metadata or "compiled_autograd_id" in metadata:
            return
        record = self._compile_record(int(metadata["frame_id"]), int(metadata.get("frame_compile_id", 0)))
        if kind == "compilation_metrics":
            self._on_metrics(record, metadata.get(kind) or {})
        if not record.dir:
            record.pending.append((kind, metadata.get(kind), payload))
            return
        self._handle_event(record, kind, metadata.get(kind), payload)

    def _on_metrics(self, record: CompileRecord, metrics: dict) -> None:
        value = metrics.get("entire_frame_compile_time_s")
        if isinstance(value, (int, float)):
            record.compile_time_s = round(float(value), 6)
        if record.code is None and not record.dir:
            # a compile no bytecode hook saw (torch.export, aot_compile): attribute it by name
            filename, line, name = metrics.get("co_filename"), metrics.get("co_firstlineno"), metrics.get("co_name")
            if filename and line is not None and name:
                key = (filename, int(line), name)
                function = self.functions.get(key)
                if function is not None:
                    record.code = function.code
                else:
                    stub = compile("def %s(): pass" % _files.safe_name(name), filename, "exec")
                    record.code = stub.co_consts[0].replace(co_firstlineno=int(line), co_name=name)

    def _handle_event(self, record: CompileRecord, kind: str, metadata: Any, payload: Optional[str]) -> None:
        if kind in _GRAPH_EVENTS:
            self._on_graph(record, _GRAPH_EVENTS[kind], payload or "")
        elif kind == "inductor_output_code":
            self._on_inductor(record, metadata or {}, payload or "")
        elif kind == "dynamo_guards":
            self._on_guards(record, payload)
        elif kind == "dynamo_cpp_guards_str":
            record.guard_tree = (payload or "").rsplit("\nGuard latency", 1)[0].strip("\n")
            self._write_guards(record)
        elif kind == "graph_break":
            record.graph_breaks.append(_graph_break(payload or ""))

    def _graph_index(self, record: CompileRecord) -> int:
        return max(record.counters.get("captured_graph", 1) - 1, 0)

    def _on_graph(self, record: CompileRecord, kind: str, payload: str) -> None:
        payload = _as_graph_module(payload)  # AOT names it <lambda>
        n = record.next_index(kind)
        graph = n if kind == "captured_graph" else self._graph_index(record)
        rel = "%s/%s_%d.py" % (record.dir, kind, n)
        header = "# %s %d of compile %s (%s), written by uncompile.\n# Breakpoints in forward() are hit when %s.\n" % (
            kind.replace("_", " "), n, record.compile_id, _files.safe_name(str(record.code.co_name) if record.code else "?"),
            "this graph runs (backend eager/aot_eager)" if kind != "aot_joint" else "the joint graph is traced")
        text = header + "import torch\nfrom torch import device, inf, nan\n\n" + payload
        path = self._write(rel, text)
        entry = {"kind": kind, "path": rel, "graph": graph}
        if kind != "aot_joint":
            compiled, entry["file_backed"] = self._back_fx_with_file(text, path)
            if compiled:  # then the graph's class compiles on its own: the overview need not check it again
                record.compiled_graphs.add((kind, n))
        record.add_file(entry)
        record.graphs.append((kind, n, payload))
        self._write_graph_nodes(record, kind, n, graph, payload)

    def _back_fx_with_file(self, text: str, path: str) -> Tuple[bool, bool]:
        """Give the live GraphModule.forward the code compiled from the dumped file, if identical.
        (whether the file compiled, whether forward now runs from it)"""
        try:
            module_code = compile(text, path, "exec", dont_inherit=True)
        except SyntaxError:
            return False, False
        cls_code = next((c for c in module_code.co_consts
                         if isinstance(c, types.CodeType) and c.co_name == "GraphModule"), None)
        forward = None if cls_code is None else next(
            (c for c in cls_code.co_consts if isinstance(c, types.CodeType) and c.co_name == "forward"), None)
        if forward is None:
            return True, False
        self._fx_file_codes.setdefault(forward.co_code, []).append(forward)
        for ref in reversed(self._fx_functions):
            fn = ref()
            if fn is None or fn.__code__.co_filename == path or fn.__code__.co_code != forward.co_code:
                continue
            if _codemap.same_code(fn.__code__, forward) and len(fn.__code__.co_freevars) == 0:
                fn.__code__ = forward
                return True, True
        return True, False

    def _on_inductor(self, record: CompileRecord, metadata: dict, payload: str) -> None:
        n = record.next_index("inductor")
        rel = "%s/inductor_%d.py" % (record.dir, n)
        path = self._write(rel, payload)
        entry = {"kind": "inductor", "path": rel, "graph": self._graph_index(record),
                 "part": "backward" if "_backward']" in payload[:200] else "forward"}
        cached = metadata.get("file_path") or metadata.get("filename")
        entry["file_backed"] = False
        if cached:
            try:
                with open(cached, encoding="utf-8") as f:
                    if f.read() == payload:
                        self._inductor_paths[cached] = path
                        entry["file_backed"] = True
            except OSError:
                pass
        entry["kernels"] = self._kernels_of(payload)
        record.add_file(entry)
        record.graphs.append(("inductor", n, payload))
        if entry["part"] == "forward":
            self._link_kernels(record, entry["kernels"])

    def _on_guards(self, record: CompileRecord, payload: Any) -> None:
        try:
            items = json.loads(payload) if isinstance(payload, str) else (payload or [])
        except ValueError:
            items = []
        guards = []
        for item in items:
            code = item.get("code") if isinstance(item, dict) else None
            if not code:
                continue
            frame = (item.get("user_stack") or [None])[-1] or {}
            user_file = self._intern(frame.get("filename"))
            guards.append({"text": code, "kind": _guard_kind(code), "source": _guard_source(code),
                           "user_file": user_file, "user_line": frame.get("line"),
                           "user_code": frame.get("loc")})
        record.guards = guards
        record.guard_codes = [g["text"] for g in guards]
        self._write_guards(record)

    def _intern(self, value: Any) -> Optional[str]:
        if isinstance(value, str):
            return value
        if not isinstance(value, int) or value < 0:
            return None
        if value not in self._interned and self.api.intern_table is not None:
            self._interned.update({v: k for k, v in self.api.intern_table.items()})
        return self._interned.get(value)

    def _guards_from_tree(self, record: CompileRecord) -> List[dict]:
        """Leaf guards of the printed guard tree, each with the user line its comment names."""
        known = {f.filename for f in self.functions.values()}
        files: Dict[str, str] = {}  # file-name tail in a comment -> the file it names
        guards, source = [], None
        for line in (record.guard_tree or "").splitlines():
            manager = _TREE_MANAGER.search(line) if "GuardManager" in line else None
            if manager:
                source = manager.group(1)
                continue
            match = _TREE_LEAF.search(line)
            if not match:
                continue
            kind, rest = match.group(1), match.group(2)
            text, user_code, user_file, user_line = rest.strip(), None, None, None
            where = _TREE_WHERE.search(rest) if "# " in rest and _TREE_WHERE_END.search(rest) else None
            if where:
                text, user_code = rest[:where.start()].strip(), where.group(1).strip()
                tail, user_line = where.group(2), int(where.group(3))
                user_file = files.get(tail)
                if user_file is None:
                    user_file = files[tail] = next((k for k in known if k.endswith(tail)), tail)
            elif "  # " in rest:
                text = rest.split("  # ", 1)[0].strip()
            guards.append({"text": text, "kind": kind, "source": _guard_source(text) or source,
                           "user_file": user_file, "user_line": user_line, "user_code": user_code})
        return guards

    def _write_guards(self, record: CompileRecord) -> None:
        if record.guard_tree and not any(g.get("from_tree") is False for g in record.guards):
            from_tree = self._guards_from_tree(record)
            if len(from_tree) >= len(record.guards):
                record.guards = from_tree
                record.guard_codes = [g["text"] for g in from_tree]
        lines = ["# Guards of compile %s: the cache entry is used only when all of them hold." % record.compile_id, ""]
        if record.guard_tree:
            lines += ["## Guard tree (as Dynamo checks it)", record.guard_tree, ""]
        if record.guards:
            lines.append("## Each guard and the user line it came from")
            for g in record.guards:
                where = ("%s:%s  %s" % (g["user_file"], g["user_line"], (g["user_code"] or "").strip())
                         if g["user_line"] is not None else "(no user line: set up by Dynamo itself)")
                lines += ["- " + g["text"], "    from " + where]
        rel_txt, rel_json = record.dir + "/guards.txt", record.dir + "/guards.json"
        self._write(rel_txt, "\n".join(lines) + "\n")
        self._write(rel_json, _files.json_lines({"compile_id": record.compile_id, "guards": record.guards}))
        record.add_file({"kind": "guards", "path": rel_txt})
        record.add_file({"kind": "guards_json", "path": rel_json})

    def _write_graph_nodes(self, record: CompileRecord, kind: str, n: int, graph: int, payload: str) -> None:
        if kind != "captured_graph":
            return
        nodes = _parse_graph_nodes(payload)
        rel = "%s/graph_nodes_%d.json" % (record.dir, n)
        self._write(rel, _files.json_lines({"graph": graph, "kind": kind, "nodes": nodes}))
        record.add_file({"kind": "graph_nodes", "path": rel, "graph": graph})

    def _kernels_of(self, code: str) -> List[dict]:
        """Each kernel of an Inductor output file with the captured-graph nodes it computes.

        Source nodes come from Inductor's "Source Nodes" comment above the kernel or its call
        (Triton and extern kernels), else from the metadata recorded while Inductor generated the
        C++ kernel (see _patch_kernel_origins); a kernel with neither has no source nodes.
        """
        from ..report.links import parse_inductor_kernels
        recorded = dict(self._kernel_origins)   # recorded while this code was generated
        self._kernel_origins.clear()
        kernels = []
        for kernel in parse_inductor_kernels(code):
            nodes, aten, origin = list(kernel.source_nodes), list(kernel.original_aten), None
            if nodes:
                origin = "comment"
            elif kernel.name in recorded:
                nodes, aten, origin = list(recorded[kernel.name][0]), list(recorded[kernel.name][1]), "inductor_metadata"
            kernels.append({"name": kernel.name,
                            "line": kernel.def_line or (kernel.call_lines[0] if kernel.call_lines else None),
                            "source_nodes": nodes, "original_aten": aten, "from": origin})
        return kernels

    def _link_kernels(self, record: CompileRecord, kernels: List[dict]) -> None:
        """Fill `kernels` of the captured-graph nodes that the forward (or inference) kernels name."""
        by_node: Dict[str, List[str]] = collections.defaultdict(list)
        for kernel in kernels:
            for node in kernel["source_nodes"]:
                if kernel["name"] not in by_node[node]:
                    by_node[node].append(kernel["name"])
        if not by_node:
            return
        graph = self._graph_index(record)
        for entry in record.files:
            if entry["kind"] != "graph_nodes" or entry.get("graph") != graph:
                continue
            path = self._abs(entry["path"])
            try:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
            except (OSError, ValueError):
                continue
            for node in data["nodes"]:
                node["kernels"] = node["kernels"] + [k for k in by_node.get(node["name"], ()) if k not in node["kernels"]]
            self._write(entry["path"], _files.json_lines(data))

    # -- bytecode hook --------------------------------------------------------------------
    def on_bytecode(self, original: types.CodeType, transformed: types.CodeType) -> Optional[types.CodeType]:
        try:
            return self._on_bytecode(original, transformed)
        except Exception as exc:
            self.note_error("bytecode hook for %s" % original.co_name, exc)
            return None

    def _on_bytecode(self, original: types.CodeType, transformed: types.CodeType) -> Optional[types.CodeType]:
        cid = self.api.current_compile_id()
        if cid is None or getattr(cid, "frame_id", None) is None:
            return None
        record = self.compiles.get("%d/%d" % (cid.frame_id, cid.frame_compile_id or 0))
        if record is None:
            record = CompileRecord(compile_id="%d/%d" % (cid.frame_id, cid.frame_compile_id or 0),
                                   frame_id=cid.frame_id, attempt=cid.frame_compile_id or 0)
            if self.pending_recompile_reason is not None and record.attempt > 0:
                record.recompile_reason, self.pending_recompile_reason = self.pending_recompile_reason, None
            self.compiles[record.compile_id] = record
        _, glb = _compiling_frame()
        self._write_resume_functions(record, transformed, glb, original)
        self._attach(record, original)
        if self.log_bytecode:
            _bytecode_log.info("transformed code of %s (compile %s):\n%s", original.co_name, record.compile_id,
                               _decompile_text(transformed))
        replacement = self._write_transformed(record, original, transformed, glb)
        self._write_resume_files(record)
        self._write_overview(self._function_for(original))
        self.write_manifest()
        return replacement

    def _write_resume_functions(self, record: CompileRecord, transformed: types.CodeType,
                                glb: Optional[dict], original: types.CodeType) -> None:
        if glb is None:
            return
        for name in transformed.co_names:
            if not name.startswith("__resume_at_"):
                continue
            fn = glb.get(name)
            code = getattr(fn, "__code__", None)
            if isinstance(code, types.CodeType):
                self.resume_names.setdefault(code, name)
                record.resume_sources[name] = code  # decompiled once the directory is known

    def _write_resume_files(self, record: CompileRecord) -> None:
        for name, code in list(record.resume_sources.items()):
            if not isinstance(code, types.CodeType):
                continue
            rel = "%s/resume_%s.py" % (record.dir, _files.safe_name(name))
            # (Objects among its constants, a dtype that torch.autocast's prologue passes, are
            # globals of the source, named as the transformed code's are.)
            src, constants = _decompile_with_constants(code, "__uncompile_const_%s_" % _files.safe_name(name).lstrip("_"))
            path = self._abs(rel)
            header = ("# Resume function %s (%s): Dynamo calls it after the graph break to run the rest of %s.\n"
                      "# It is compiled as a frame of its own; the code that runs is in that compile's "
                      "transformed.py.\n" % (name, code.co_name, self._root_code(code).co_name))
            header += _constants_header(constants, "")
            text = header + _recompilable(src, code)
            candidate = _compile_or_none(text, path)
            if candidate is not None and _compiles_alone(src, text):
                record.compiled_sources.add(name)
            ok, note = _codemap.verify_equivalent(code, text, None if candidate is None else
                                                  _codemap.find_code_for(candidate, code), constants)
            self._write(rel, text if candidate is not None else header + _as_comment(src))
            record.add_file({"kind": "resume", "path": rel, "name": name, "verified": ok,
                             "note": note if ok else note + "; Dynamo's bytecode kept"})
            record.resume_sources[name] = src

    def _write_transformed(self, record: CompileRecord, original: types.CodeType,
                           transformed: types.CodeType, glb: Optional[dict]) -> Optional[types.CodeType]:
        rel = record.dir + "/transformed.py"
        path = self._abs(rel)
        # Objects Dynamo put among the constants become globals, named per compile like its own.
        prefix = "__uncompile_const_%d_%d_" % (record.frame_id, record.attempt)
        src, constants = _decompile_with_constants(transformed, prefix)
        if constants and glb is None:
            constants = None  # nowhere to install them: not verified
        record.transformed_source = src
        what = "%s (%s:%d)" % (getattr(original, "co_qualname", original.co_name), original.co_filename,
                               original.co_firstlineno)
        header = ("# Dynamo's transformed code of %s, compile %s, decompiled by uncompile.\n" % (what, record.compile_id))
        header += _constants_header(constants or {}, " (a global while it runs)")
        body = _recompilable(src, transformed)
        # Checked as the file it becomes when verified the usual way (Dynamo's code: same value
        # flow), so that, comments aside, what was compiled and checked is what gets written.
        usual_note = _verified_note("same value flow")
        text = header + usual_note + body
        candidate = _compile_or_none(text, path)
        if candidate is not None and _compiles_alone(src, body):
            record.compiled_sources.add("transformed")
        ok, note = (False, "constants with no module to hold them") if constants is None else \
            _codemap.verify_equivalent(transformed, text, None if candidate is None else
                                       _codemap.find_code_for(candidate, transformed), constants)
        if ok:
            glb.update(constants or {})
            text = header + _verified_note(note) + body
            self._write(rel, text)
            # Compiled from exactly the text written, so the lines a debugger shows are the file's:
            # the candidate is that, unless the note has another number of lines (comments only).
            if _verified_note(note).count("\n") != usual_note.count("\n"):
                candidate = compile(text, path, "exec", dont_inherit=True)
            replacement = _codemap.find_code_for(candidate, transformed)
            record.add_file({"kind": "transformed", "path": rel, "verified": True, "note": note})
            return replacement
        body = src if candidate is not None else _as_comment(src)
        text = (header + "# NOT VERIFIED (%s): the source below is uncompile's best reading, but Dynamo's own\n"
                "# bytecode is what runs. It is listed after the source, one instruction a line; breakpoints\n"
                "# on those lines are hit.\n" % note) + body
        text += "\n\ndef __dynamo_bytecode__():  # never called: the instructions of %s that run\n" % transformed.co_name
        first_line = text.count("\n") + 1
        text += "".join("    %s\n" % line for _, line in _codemap.listing_lines(transformed))
        self._write(rel, text)
        replacement = _codemap.retarget(transformed, path, first_line)
        record.add_file({"kind": "transformed", "path": rel, "verified": False,
                         "note": note + "; Dynamo's bytecode kept" + (", mapped to the listing" if replacement else "")})
        warnings.warn(NotVerifiedWarning(
            "uncompile: decompiled transformed code of %s (compile %s) is not verified equivalent (%s); "
            "Dynamo's own bytecode runs, listed in %s" % (what, record.compile_id, note, path)), stacklevel=2)
        return replacement

    # -- cache entries, overview, manifest ------------------------------------------------
    def _read_cache_entries(self) -> None:
        by_code: Dict[Any, List[CompileRecord]] = collections.defaultdict(list)
        for record in self.compiles.values():
            if record.code is not None:
                by_code[record.code].append(record)
        for code, records in by_code.items():
            try:
                entries = self.api.get_cache_entries(code)
            except Exception:
                continue
            for position, entry in enumerate(entries):
                cid = str(getattr(entry, "compile_id", ""))
                for record in records:
                    if record.compile_id == cid:
                        record.cache_entry = position
                        backend = getattr(entry, "backend", None)
                        record.backend = (getattr(backend, "compiler_name", None) or
                                          getattr(backend, "__name__", None) or
                                          (type(backend).__name__ if backend is not None else None))
                        if record.guard_tree is None and getattr(entry, "guard_manager", None) is not None and record.dir:
                            record.guard_tree = str(entry.guard_manager).strip("\n")
                            self._write_guards(record)

    def _write_overview(self, function: FunctionRecord) -> None:
        rel = function.dir + "/overview.py"
        try:
            text = _overview.render(function)
        except Exception as exc:
            self.note_error("overview of %s" % function.name, exc)
            text = "# overview of %s could not be written: %s\n" % (function.name, exc)
        self._write(rel, text)

    def manifest(self) -> dict:
        import uncompile
        functions = []
        for function in self.functions.values():
            compiles = []
            for record in sorted(function.compiles, key=lambda r: (r.frame_id, r.attempt)):
                compiles.append({
                    "compile_id": record.compile_id, "frame_id": record.frame_id, "attempt": record.attempt,
                    "cache_entry": getattr(record, "cache_entry", None),
                    "compile_time_s": record.compile_time_s, "backend": record.backend,
                    "recompile_reason": record.recompile_reason,
                    "resume_function": record.resume_name,
                    "code_name": record.code.co_name if record.code is not None else None,
                    "graph_breaks": record.graph_breaks,
                    "files": record.files,
                })
            functions.append({
                "name": function.name, "qualname": function.qualname, "filename": function.filename,
                "firstlineno": function.firstlineno, "dir": function.dir,
                "files": {"original": function.dir + "/original.py", "overview": function.dir + "/overview.py"},
                "compiles": compiles,
            })
        return {"format": "uncompile-dump", "format_version": FORMAT_VERSION,
                "python": "%d.%d.%d" % sys.version_info[:3], "torch": self.api.version,
                "uncompile": uncompile.__version__, "rank": self.rank, "world_size": self.world_size,
                "functions": functions, "notes": self.notes, "errors": self.errors}

    def write_manifest(self) -> None:
        name = "manifest.json" if self.rank is None else "manifest.rank%d.json" % self.rank
        self._write(name, json.dumps(self.manifest(), indent=1, default=str))


_RESERVED = {"rank", "compiled_autograd_id", "frame_id", "frame_compile_id", "attempt", "severity",
             "timestamp", "pathname", "thread", "subgraph_name", "has_payload", "stack"}


@functools.lru_cache(maxsize=None)
def _debugger_files() -> Tuple[str, ...]:
    # bdb.py and pdb.py of the standard library (where os.py is); not imported, which costs time.
    stdlib = os.path.dirname(os.path.realpath(os.__file__))
    return tuple(os.path.join(stdlib, name) for name in ("bdb.py", "pdb.py"))


def _is_debugger_code(code: types.CodeType) -> bool:
    filename = code.co_filename
    if "pydevd" in filename or "debugpy" in filename:  # IDE debuggers (VS Code, PyCharm)
        return True
    if not filename.endswith(("bdb.py", "pdb.py")):
        return False
    return os.path.realpath(filename) in _debugger_files()


def _verified_note(how: str) -> str:
    if how == "same value flow":
        return ("# Verified: it performs the same operations on the same values in the same order as Dynamo's\n"
                "# bytecode (names __stackN hold what Dynamo kept on the stack). This is the code that runs;\n"
                "# breakpoints here are hit.\n")
    return "# Verified equivalent: this is the code that runs; breakpoints here are hit.\n"


def _constants_header(constants: Dict[str, Any], how: str) -> str:
    """Comment lines naming each stand-in global of a decompiled source and the object it holds."""
    lines = ""
    for name, value in constants.items():
        shown = repr(value).replace("\n", " ")
        lines += "# %s: a constant of Dynamo's code%s: %s\n" % (name, how, shown if len(shown) < 120 else shown[:117] + "...")
    return lines


def _decompile_text(code: types.CodeType) -> str:
    return _decompile_with_constants(code, "__uncompile_const_")[0]


def _decompile_with_constants(code: types.CodeType, prefix: str) -> Tuple[str, Dict[str, Any]]:
    """The decompiled source, and the objects that stand for constants marshal cannot write (the
    source loads them as globals named `prefix` + a number)."""
    from .. import _core
    from .._bridge import marshal_code
    try:
        marshalled = marshal_code(code, prefix, code_values=True)
        # Dynamo's own globals and the constants' stand-ins are never rebound: kept in place.
        stable = _codemap.DYNAMO_GLOBAL_PREFIXES + (prefix,)
        text, _ = _core.decompile(marshalled.data, marshalled.version, marshalled.placeholders, list(stable))
        return text, marshalled.constants
    except Exception as exc:
        return "# uncompile could not decompile %s: %s\n" % (code.co_name, exc), {}


def _compile_or_none(text: str, path: str) -> Optional[types.CodeType]:
    try:
        return compile(text, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError):
        return None


def _compiles_alone(src: str, recompilable: str) -> bool:
    """Whether `src` (one function definition) compiles at top level, known without compiling it,
    given that `recompilable` (what _recompilable made of it, after comments) compiled: they differ
    by an indentation of four spaces (tabs aside) and the function around it, which `src` needs
    only for a `nonlocal` of its own, and by `from __future__` imports, which could make valid what
    is not without them (barry_as_FLUFL). Where that cannot be told, the overview compiles it."""
    return "nonlocal" not in src and "\t" not in src and "from __future__" not in recompilable


def _recompilable(src: str, code: types.CodeType) -> str:
    """`src`, decompiled from `code`, written so that compiling it gives code with the same free
    variables and compiler flags: the `from __future__` imports its module had (they show only as
    flags), and a function around it binding its free variables."""
    import __future__
    features = [name for name in __future__.all_feature_names
                if getattr(__future__, name).compiler_flag not in (0, 0x10)  # 0x10: nested scopes, always on
                and code.co_flags & getattr(__future__, name).compiler_flag]
    future = "from __future__ import %s\n" % ", ".join(features) if features else ""
    return future + _in_closure(src, code.co_freevars)


def _in_closure(src: str, freevars: Tuple[str, ...]) -> str:
    """`src` (one function definition) as written, or, when the code has free variables, nested in
    a function that binds them, so that recompiling it gives the same free variables (torch.compile
    of a module runs Dynamo's code of a closure, `wrap_inline.<locals>.inner`). Verification still
    decides whether the result may run. (The later lines of a multi-line string, a docstring's,
    stay as they are: indented, the string's value would change.)"""
    if not freevars:
        return src
    from .. import _core
    body = src.splitlines()
    unused = _unreferenced(src, freevars)
    if unused is not None and unused[0]:
        # A free variable the code never reads (Dynamo inlined the call that used it) is still one
        # of its free variables: `nonlocal` declares it without adding an instruction.
        names, line = unused
        indent = body[line][:len(body[line]) - len(body[line].lstrip())] if line < len(body) else "    "
        body.insert(line, "%snonlocal %s" % (indent, ", ".join(names)))
    lines = ["def __uncompile_closure__():",
             "    # binds the free variables of the function below; never called",
             "    %s = None" % " = ".join(freevars)]
    return "\n".join(lines) + "\n" + _core.indent_source("\n".join(body), "    ")


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _unreferenced(src: str, freevars: Tuple[str, ...]) -> Optional[Tuple[List[str], int]]:
    """The free variables `src`'s first function never names, and the index of the line where its
    body starts (after a docstring); None when `src` is not such a function."""
    import ast
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return None
    fn = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if fn is None or not fn.body:
        return None
    # A free variable no word of the text spells is named nowhere, and then the tree need not be
    # walked (a non-ASCII name can spell an ASCII one: NFKC normalization).
    words = set(_WORD.findall(src)) if src.isascii() else None
    used: set = set()
    if words is None or any(v in words or (v == "__class__" and "super" in words) for v in freevars):
        used = {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)}
        if "super" in used:
            used.add("__class__")
    first = fn.body[0]
    docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)
    line = first.end_lineno if docstring else first.lineno - 1
    return [v for v in freevars if v not in used], line


def _as_comment(text: str) -> str:
    return "# (does not compile)\n" + "".join("# " + line + "\n" for line in text.splitlines())


def _dedent(text: str) -> str:
    import textwrap
    return textwrap.dedent(text)


def _as_graph_module(payload: str) -> str:
    """`payload` with the class it starts with named GraphModule: what re.sub(r"^class [^(\\n]*\\(",
    "class GraphModule(", payload, count=1) does, without compiling a pattern in every process."""
    if payload.startswith("class "):
        paren = payload.find("(", 6)
        if paren >= 0 and "\n" not in payload[6:paren]:
            return "class GraphModule(" + payload[paren + 1:]
    return payload


def _reason_text(payload: Any) -> Optional[str]:
    if payload is None:
        return None
    try:
        value = json.loads(payload) if isinstance(payload, str) else payload
    except ValueError:
        value = payload
    if isinstance(value, list):
        return "; ".join(str(v) for v in value)
    return str(value)


_FILE_LINE = re.compile(r'File "([^"]+)", line (\d+)')


def _graph_break(payload: str) -> dict:
    user = payload.split("Traceback (most recent call last)", 1)[0]
    hits = _FILE_LINE.findall(user) or _FILE_LINE.findall(payload)
    first = payload.strip().splitlines()[0] if payload.strip() else ""
    reason = first
    match = re.search(r"Graph break[^\n]*\n(?:[^\n]*\n)?\s*Explanation: ([^\n]+)", payload)
    if match:
        reason = match.group(1).strip()
    gb = {"reason": reason, "user_file": hits[-1][0] if hits else None,
          "user_line": int(hits[-1][1]) if hits else None, "detail": payload}
    return gb


_TREE_LEAF = re.compile(r"\+- ([A-Z][A-Z_]+): (.*)$")
_TREE_MANAGER = re.compile(r"GuardManager: source=([^,]+),")
_TREE_WHERE = re.compile(r"\s+# (.*?)\s+# (\S+):(\d+) in \S+\s*$")
# The end _TREE_WHERE needs, found in one cheap scan: a line without it (a guard whose comment
# goes on with a "(HINT: ...)") would otherwise cost _TREE_WHERE's backtracking over the whole line.
_TREE_WHERE_END = re.compile(r":\d+ in \S+\s*$")
_GUARD_KINDS = [("check_tensor", "TENSOR_MATCH"), ("___check_tensors", "TENSOR_MATCH"),
                ("___check_obj_id", "ID_MATCH"), ("___check_type_id", "TYPE_MATCH"),
                ("___check_global_state", "GLOBAL_STATE"), ("hasattr(", "HASATTR"),
                ("___dict_contains", "DICT_CONTAINS"), ("len(", "LENGTH_CHECK")]


def _guard_kind(code: str) -> Optional[str]:
    for needle, kind in _GUARD_KINDS:
        if needle in code:
            return kind
    if re.search(r"\bsize\(\)|\.size\(|\bstride\(", code):
        return "SHAPE_ENV"
    if " == " in code:
        return "EQUALS_MATCH"
    return None


_GUARD_SOURCE = re.compile(r"\b[LG]\[[^\]]+\](?:\.[A-Za-z_]\w*|\[[^\]]+\])*")


def _guard_source(code: str) -> Optional[str]:
    match = _GUARD_SOURCE.search(code)
    return match.group(0) if match else None


_NODE_COMMENT = re.compile(r"#\s*File: (.+?):(\d+) in ([^,]+), code: (.*)$")
_NODE_LINE = re.compile(r"^\s+([A-Za-z_]\w*)(?:\s*:\s*\"[^\"]*\")?\s*=\s*(.+)$")
_CALL = re.compile(r"^([A-Za-z_][\w.]*)\(")
_BINARY = re.compile(r"^[\w.]+ (\*\*|//|==|!=|<=|>=|<<|>>|[*+\-/@%&|^<>]) ")
_OPERATORS = {"*": "mul", "+": "add", "-": "sub", "/": "truediv", "//": "floordiv", "**": "pow", "@": "matmul",
              "%": "mod", "&": "and_", "|": "or_", "^": "xor", "<<": "lshift", ">>": "rshift", "==": "eq",
              "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def _node_target(rhs: str, names: set) -> Tuple[Optional[str], Optional[str]]:
    """(op, target) of one line of FX's printed forward(), as FX prints each kind of node."""
    call = _CALL.match(rhs)
    if call:
        target = call.group(1)
        if target.startswith("self."):
            return "call_module", target
        return ("call_method" if target.split(".", 1)[0] in names and "." in target else "call_function"), target
    binary = _BINARY.match(rhs)
    if binary:
        return "call_function", "operator." + _OPERATORS[binary.group(1)]
    bracket = rhs.find("[")
    if bracket > 0 and _dotted(rhs[:bracket]):  # x[...]
        return "call_function", "operator.getitem"
    if (rhs[:1] in ("-", "~") and _dotted(rhs[1:])) or (rhs.startswith("not ") and _dotted(rhs[4:])):
        return "call_function", {"-": "operator.neg", "~": "operator.invert"}.get(rhs[0], "operator.not_")
    if rhs.startswith("self.") and _dotted(rhs[5:]):
        return "get_attr", rhs[len("self."):]
    return None, None


def _dotted(text: str) -> bool:
    """Whether `text` matches [\\w.]+ (word characters and dots); str methods, not a pattern:
    these lines are few, and compiling patterns for them cost more than matching them."""
    return bool(text) and all(c == "." or c == "_" or c.isalnum() for c in text)


def _parse_graph_nodes(payload: str) -> List[dict]:
    """The nodes of the forward() FX printed, with the user line of FX's "# File:" comment above them."""
    nodes: List[dict] = []
    names: set = set()
    current = None
    in_forward = False
    for line in payload.splitlines():
        stripped = line.strip()
        if stripped.startswith("def forward("):
            in_forward = True
            for arg in re.findall(r"([A-Za-z_]\w*)\s*:", stripped[len("def forward("):]):
                names.add(arg)
                nodes.append({"name": arg, "op": "placeholder", "target": arg, "user_file": None,
                              "user_line": None, "user_code": None, "kernels": []})
            continue
        if not in_forward:
            continue
        if not stripped:
            current = None
            continue
        comment = _NODE_COMMENT.search(stripped)
        if comment:
            current = comment
            continue
        if stripped.startswith("#"):
            continue
        match = _NODE_LINE.match(line.split(";  ", 1)[0])
        if match:
            name, rhs = match.group(1), match.group(2).strip()
            op, target = _node_target(rhs, names)
            names.add(name)
            if op is None:  # "l_x_ = L_x_": FX naming a placeholder
                continue
            nodes.append({"name": name, "op": op, "target": target,
                          "user_file": current.group(1) if current else None,
                          "user_line": int(current.group(2)) if current else None,
                          "user_code": current.group(4).strip() if current else None, "kernels": []})
        elif stripped.startswith("return "):
            nodes.append({"name": "output", "op": "output", "target": "output", "user_file": None,
                          "user_line": None, "user_code": None, "kernels": []})
    return nodes


_KERNEL_METADATA = re.compile(r"Source Nodes: \[(?P<nodes>[^\]]*)\](?:, Original ATen: \[(?P<aten>[^\]]*)\])?")


def _parse_kernel_metadata(text: Any) -> Tuple[List[str], List[str]]:
    """'# Topologically Sorted Source Nodes: [y, cos], Original ATen: [aten.sin]' -> (['y', 'cos'], ['aten.sin'])."""
    match = _KERNEL_METADATA.search(text) if isinstance(text, str) else None
    if not match:
        return [], []
    split = lambda value: [part.strip() for part in (value or "").split(",") if part.strip()]  # noqa: E731
    return split(match.group("nodes")), split(match.group("aten"))
