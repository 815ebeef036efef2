"""Compare two raw results of bench/bench_decompile.py function by function.

    python tools/bench_diff.py BEFORE.json AFTER.json [--tool uncompile] [--show N]

For each version in both files, prints how many functions went from equivalent to not
(regressions), from not to equivalent (gains), and how refusals moved; lists up to N regressions
and gains with their reasons. Exits 1 when there is a regression, so a script can gate on it.
"""
import argparse
import json
import sys
from typing import Any, Dict, List, Tuple

Key = Tuple[str, str, int]


def level(row: Dict[str, Any]) -> str:
    if row.get("equivalent"):
        return "equivalent"
    if row.get("recompiles"):
        return "recompiles"
    return row["status"]


def rows_by_key(raw: Dict[str, Any], version: str, tool: str) -> Dict[Key, List[Dict[str, Any]]]:
    out: Dict[Key, List[Dict[str, Any]]] = {}
    for row in raw["versions"][version]["tools"][tool]["rows"]:
        out.setdefault((row["file"], row["qualname"], row["firstlineno"]), []).append(row)
    return out


def reason(row: Dict[str, Any]) -> str:
    return str(row.get("difference") or row.get("error") or "")[:160]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before")
    parser.add_argument("after")
    parser.add_argument("--tool", default="uncompile")
    parser.add_argument("--show", type=int, default=10)
    args = parser.parse_args(argv)
    with open(args.before) as f:
        before = json.load(f)
    with open(args.after) as f:
        after = json.load(f)
    regressed = False
    for version in before["versions"]:
        if version not in after["versions"]:
            continue
        old, new = rows_by_key(before, version, args.tool), rows_by_key(after, version, args.tool)
        lost, gained, moved = [], [], 0
        for key, olds in old.items():
            for o, n in zip(olds, new.get(key, [])):
                lo, ln = level(o), level(n)
                if lo == ln:
                    continue
                moved += 1
                if lo == "equivalent":
                    lost.append((key, lo, ln, reason(n)))
                elif ln == "equivalent":
                    gained.append((key, lo, ln, reason(o)))
        eq = lambda rows: sum(level(r) == "equivalent" for rs in rows.values() for r in rs)
        print("%s: equivalent %d -> %d (%d lost, %d gained, %d changed level)" % (
            version, eq(old), eq(new), len(lost), len(gained), moved))
        for title, items in (("lost", lost), ("gained", gained)):
            for key, lo, ln, why in items[:args.show]:
                print("  %s %s:%s (line %d): %s -> %s  %s" % (title, key[0], key[1], key[2], lo, ln, why))
        regressed = regressed or bool(lost)
    return 1 if regressed else 0


if __name__ == "__main__":
    sys.exit(main())
