"""Writing the dump: stable readable names, atomic writes, the rank of this process."""
import json
import os
import re
import tempfile
from typing import Any, Optional, Tuple


def safe_name(text: str, limit: int = 80) -> str:
    """A file-name part: letters, digits, '_', '-' and '.', no leading dot."""
    cleaned = re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip(".") or "_"
    return cleaned[:limit]


def function_dir_name(name: str, filename: str, firstlineno: int) -> str:
    stem = os.path.splitext(os.path.basename(filename or "unknown"))[0]
    return "%s_%s_L%d" % (safe_name(name), safe_name(stem), firstlineno)


def atomic_write(path: str, text: str) -> None:
    """Write to a temporary file beside `path`, then rename: no reader sees half a file."""
    directory = os.path.dirname(path)
    os.makedirs(directory, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-%d-" % os.getpid(), dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def process_rank() -> Tuple[Optional[int], Optional[int]]:
    """(rank, world_size) when several processes share the dump, else (None, None)."""
    rank = world = None
    try:
        import torch.distributed as dist
        if dist.is_available() and dist.is_initialized():
            rank, world = dist.get_rank(), dist.get_world_size()
    except Exception:
        pass
    if rank is None:
        env_rank, env_world = os.environ.get("RANK"), os.environ.get("WORLD_SIZE")
        if env_rank is not None and env_world is not None and env_world.isdigit() and env_rank.isdigit():
            rank, world = int(env_rank), int(env_world)
    if world is None or world <= 1:
        return None, None
    return rank, world


def json_lines(obj: Any) -> str:
    """JSON with each top-level key, and each item of a top-level list, on a line of its own:
    readable, and written by json's C encoder (any `indent=` makes json use its slow pure-Python
    one, which cost more than the rest of a dump's guard writing)."""
    if not isinstance(obj, dict):
        return json.dumps(obj, default=str)
    parts = []
    for key, value in obj.items():
        if isinstance(value, list) and value:
            items = ",\n  ".join(json.dumps(item, default=str) for item in value)
            parts.append(" %s: [\n  %s\n ]" % (json.dumps(key), items))
        else:
            parts.append(" %s: %s" % (json.dumps(key), json.dumps(value, default=str)))
    return "{\n" + ",\n".join(parts) + "\n}"

