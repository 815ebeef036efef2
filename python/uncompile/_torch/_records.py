"""What one dump session knows: functions, their compiles, and the files written for them."""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set


@dataclass
class CompileRecord:
    compile_id: str                    # "frame/attempt", Dynamo's frame id and frame compile id
    frame_id: int
    attempt: int
    dir: str = ""                      # relative to the dump dir, "" until the function is known
    code: Any = None                   # the code object Dynamo compiled (user code or a resume function)
    resume_name: Optional[str] = None  # "__resume_at_30_1" when `code` is a resume function
    cache_entry: Optional[int] = None           # position in the code's cache-entry list, 0 = newest
    compile_time_s: Optional[float] = None
    backend: Optional[str] = None
    recompile_reason: Optional[str] = None
    graph_breaks: List[dict] = field(default_factory=list)
    files: List[dict] = field(default_factory=list)
    counters: Dict[str, int] = field(default_factory=dict)
    graphs: List[tuple] = field(default_factory=list)   # (kind, n, source) for the overview
    compiled_graphs: Set[tuple] = field(default_factory=set)  # (kind, n) whose dumped file compiled
    guard_codes: List[str] = field(default_factory=list)
    guard_tree: Optional[str] = None
    guards: List[dict] = field(default_factory=list)
    transformed_source: Optional[str] = None
    resume_sources: Dict[str, str] = field(default_factory=dict)
    compiled_sources: Set[str] = field(default_factory=set)  # "transformed", resume names: their source compiles alone
    pending: List[tuple] = field(default_factory=list)  # (kind, metadata, payload) seen before the dir was known

    def next_index(self, kind: str) -> int:
        n = self.counters.get(kind, 0)
        self.counters[kind] = n + 1
        return n

    def add_file(self, entry: dict) -> None:
        self.files = [f for f in self.files if f["path"] != entry["path"]]
        self.files.append(entry)


@dataclass
class FunctionRecord:
    name: str
    qualname: str
    filename: str
    firstlineno: int
    dir: str
    code: Any
    compiles: List[CompileRecord] = field(default_factory=list)
    original_written: bool = False
