"""Writing the dump: stable readable names, atomic writes, the rank of this process."""
import itertools
import json
import json.encoder
import os
import re
import tempfile
from typing import Any, Callable, Optional, Tuple


_NAME_CHARS = {ord(c): None for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-"}


def safe_name(text: str, limit: int = 80) -> str:
    """A file-name part: letters, digits, '_', '-' and '.', no leading dot."""
    # Most names need no change: then no pattern is compiled or run.
    cleaned = text if not text.translate(_NAME_CHARS) else re.sub(r"[^A-Za-z0-9_.-]+", "_", text)
    return (cleaned.strip(".") or "_")[:limit]


def function_dir_name(name: str, filename: str, firstlineno: int) -> str:
    stem = os.path.splitext(os.path.basename(filename or "unknown"))[0]
    return "%s_%s_L%d" % (safe_name(name), safe_name(stem), firstlineno)


_temporary_names = itertools.count()
# O_EXCL: never write into a file someone else created; O_NOFOLLOW: nor through a planted link.
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)


def atomic_write(path: str, text: str) -> None:
    """Write to a temporary file beside `path`, then rename: no reader sees half a file.

    A dump writes a dozen files per compile, so this is the short path: a name unique to this
    process and call (mkstemp's random names, a text-mode file object and a makedirs on every
    write cost several times the write itself); the directory is made only when it is missing.
    """
    directory, name = os.path.split(path)
    tmp = os.path.join(directory, ".tmp-%d-%d-%s" % (os.getpid(), next(_temporary_names), name))
    try:
        fd = os.open(tmp, _CREATE, 0o666)
    except FileNotFoundError:
        os.makedirs(directory, exist_ok=True)
        fd = os.open(tmp, _CREATE, 0o666)
    except FileExistsError:  # left by a crashed process that had this pid: another name
        fd, tmp = tempfile.mkstemp(prefix=".tmp-%d-" % os.getpid(), dir=directory)
    try:
        try:
            data = memoryview(text.encode("utf-8"))
            while data:
                data = data[os.write(fd, data):]
        finally:
            os.close(fd)
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


def _item_encoder() -> Callable[[Any], str]:
    """The JSON text of one value, as json.dumps(value, default=str) writes it.

    A dump encodes each guard and graph node on its own (json_lines), hundreds per compile, and
    json.dumps builds an encoder object, and under it json's C encoder, for every one of them: here
    the C encoder is made once. It does not look for circular references (json.dumps would raise
    ValueError, this RecursionError): a dump encodes trees of its own records.
    """
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator: the pure-Python encoder, one object for all calls
        return json.JSONEncoder(default=str).encode
    encode = make(None, str, json.encoder.encode_basestring_ascii, None, ": ", ", ", False, False, True)
    return lambda value: "".join(encode(value, 0))


_encode = _item_encoder()


def json_lines(obj: Any) -> str:
    """JSON with each top-level key, and each item of a top-level list, on a line of its own:
    readable, and written by json's C encoder (any `indent=` makes json use its slow pure-Python
    one, which cost more than the rest of a dump's guard writing)."""
    encode = _encode
    if not isinstance(obj, dict):
        return encode(obj)
    parts = []
    for key, value in obj.items():
        if isinstance(value, list) and value:
            items = ",\n  ".join(map(encode, value))
            parts.append(" %s: [\n  %s\n ]" % (encode(key), items))
        else:
            parts.append(" %s: %s" % (encode(key), encode(value)))
    return "{\n" + ",\n".join(parts) + "\n}"
