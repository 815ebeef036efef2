"""`uncompile report`: a static HTML site from a dump written by `uncompile.prepare_debug`.

    from uncompile.report import build_report
    index = build_report("dump_dir", "out_dir")      # -> Path of out_dir/index.html

The site works from file:// with no network: one small page per function, per compile and per
compared pair of cache entries, plus an index; CSS and JS are local files. Generation uses the
standard library only and is deterministic (the same dump gives the same bytes).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Optional, Union

from .model import DumpError, load_dump
from .render import iter_pages

MARKER = ".uncompile-report"
_ASSETS = ("report.css", "report.js")


def _asset(name: str) -> bytes:
    try:
        from importlib import resources
        return resources.files(__name__).joinpath("assets", name).read_bytes()
    except (AttributeError, ImportError, FileNotFoundError, TypeError):
        return (Path(__file__).parent / "assets" / name).read_bytes()


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def build_report(dump_dir: Union[str, os.PathLike], out_dir: Optional[Union[str, os.PathLike]] = None) -> Path:
    """Write the report of `dump_dir` into `out_dir` (default: DUMP_DIR/report) and return the
    path of its index.html. Raises DumpError when dump_dir holds no readable manifest, and
    FileExistsError when out_dir is a non-empty directory that is not an earlier report."""
    dump_dir = Path(dump_dir)
    out = Path(out_dir) if out_dir is not None else dump_dir / "report"
    dump = load_dump(dump_dir)
    if out.exists():
        if not out.is_dir():
            raise FileExistsError(f"{out}: exists and is not a directory")
        if any(out.iterdir()) and not (out / MARKER).exists():
            raise FileExistsError(f"{out}: not empty and not an uncompile report; choose another output directory")
        # An earlier report: clear its pages so none of a vanished compile stays behind.
        for sub in ("f", "assets"):
            if (out / sub).is_dir():
                shutil.rmtree(out / sub)
    out.mkdir(parents=True, exist_ok=True)
    _write(out / MARKER, b"written by uncompile report; the whole directory is replaced on the next run\n")
    for name in _ASSETS:
        _write(out / "assets" / name, _asset(name))
    name = dump_dir.resolve().name or str(dump_dir)
    for rel, html in iter_pages(dump, name):
        _write(out / rel, html.encode("utf-8"))
    return out / "index.html"


def main(argv=None) -> int:
    import argparse
    import sys
    parser = argparse.ArgumentParser(prog="uncompile report",
                                     description="Write a static HTML report (works from file://) of a dump made by uncompile.prepare_debug.")
    parser.add_argument("dump_dir", help="the directory given to prepare_debug")
    parser.add_argument("-o", "--output", help="output directory (default: DUMP_DIR/report)")
    args = parser.parse_args(argv)
    try:
        index = build_report(args.dump_dir, args.output)
    except (DumpError, FileExistsError) as e:
        print(f"uncompile report: {e}", file=sys.stderr)
        return 1
    print(index)
    return 0


__all__ = ["DumpError", "build_report", "load_dump", "main"]
