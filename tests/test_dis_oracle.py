"""The native disassembler against CPython's own `dis`, over a whole standard library.

For every CPython 3.8 - 3.13 found under `pyenv root` (or $UNCOMPILE_PYENV_ROOT), this compiles
that interpreter's stdlib with tools/dis_oracle.py (run by that interpreter), which writes a .pyc
and the canonical `dis` records of each file, then runs `uncompile dis --format=records` on the
.pyc files and compares, one code object at a time.

Environment:
    UNCOMPILE_CLI               the native CLI (default: `uncompile` on PATH); skipped if absent
    UNCOMPILE_PYENV_ROOT        pyenv root to search instead of `pyenv root`
    UNCOMPILE_ORACLE_LIMIT      compile only the first N stdlib files (quick local runs)
    UNCOMPILE_ORACLE_JOBS       parallel oracle shards / CLI batches (default 2)
    UNCOMPILE_ORACLE_REPORT_DIR write every mismatch, with its diff, to DIR/oracle-<ver>.txt

Each version prints `ORACLE <ver> files=N code_objects=N matched=N rate=XX.XXX%` to stderr (shown
with `pytest -rA`) and records it as the `oracle_summary` property.
"""
import difflib
import glob
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = os.path.join(REPO, "tools", "dis_oracle.py")
VERSIONS = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13"]
BATCH = 200
SHOW_DIFFS = 5
DIFF_LINES = 16


def _jobs():
    try:
        return max(1, int(os.environ.get("UNCOMPILE_ORACLE_JOBS", "2")))
    except ValueError:
        return 2


def _pyenv_root():
    env = os.environ.get("UNCOMPILE_PYENV_ROOT")
    if env:
        return env
    try:
        r = subprocess.run(["pyenv", "root"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           universal_newlines=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    root = r.stdout.strip()
    return root if r.returncode == 0 and root else None


def _find_interpreter(ver):
    """The newest <root>/versions/<ver>.<patch>/bin/python (plain CPython builds only)."""
    root = _pyenv_root()
    if not root:
        return None
    found = []
    for d in glob.glob(os.path.join(root, "versions", ver + ".*")):
        m = re.match(re.escape(ver) + r"\.(\d+)$", os.path.basename(d))
        py = os.path.join(d, "bin", "python")
        if m and os.access(py, os.X_OK):
            found.append((int(m.group(1)), py))
    return max(found)[1] if found else None


def _find_cli():
    cli = os.environ.get("UNCOMPILE_CLI")
    if cli:
        return cli if os.access(cli, os.X_OK) else None
    cli = shutil.which("uncompile")
    if cli is None:
        return None
    # A pyenv shim exists on PATH even where the active version lacks the command (exit 127).
    try:
        r = subprocess.run([cli, "--help"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return None if r.returncode == 127 else cli


# ----------------------------------------------------------------------------------------------
# running the oracle and the CLI


def _run_oracle(python, stdlib, outdir):
    cmd = [python, ORACLE, "--src-root", stdlib, "--out", outdir]
    limit = os.environ.get("UNCOMPILE_ORACLE_LIMIT")
    if limit:
        cmd += ["--limit", str(int(limit))]
    n = _jobs()
    procs = [
        subprocess.Popen(cmd + ["--shard", "%d/%d" % (k, n)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, universal_newlines=True)
        for k in range(n)
    ]
    logs = []
    for p in procs:
        out, err = p.communicate(timeout=1800)
        logs.append(out.strip())
        assert p.returncode == 0, "dis_oracle.py failed (%s):\n%s\n%s" % (python, out, err[-4000:])
    bases = []
    for idx in sorted(glob.glob(os.path.join(outdir, "index*.txt"))):
        with open(idx) as f:
            bases += [line.strip() for line in f if line.strip()]
    return sorted(bases), logs


def _run_cli(cli, paths):
    """{path: ("ok", [lines]) | ("error", message)} for the paths the CLI answered; crashes noted."""
    r = subprocess.run([cli, "dis", "--format=records"] + paths, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=900)
    text = r.stdout.decode("utf-8", "replace")
    wanted = set(paths)
    res = {}
    cur = None
    for line in text.split("\n"):
        if line.startswith("file "):
            cur = line[5:]
            res[cur] = ("ok", [])
            continue
        if line.startswith("error "):
            rest = line[6:]
            hit = next((p for p in paths if rest == p or rest.startswith(p + " ")), None)
            if hit is not None:
                res[hit] = ("error", rest[len(hit):].strip() or "(no message)")
                cur = None
                continue
        if not line.strip() or cur is None:
            continue
        res[cur][1].append(line)
    note = None
    stray = [p for p in res if p not in wanted]
    if stray:
        note = "unexpected `file` path in CLI output: %r" % stray[0]
    elif r.returncode != 0 and not any(v[0] == "error" for v in res.values()):
        note = "exit %d, stderr: %s" % (r.returncode, r.stderr.decode("utf-8", "replace")[-500:].strip())
    return {p: v for p, v in res.items() if p in wanted}, note


def _run_cli_safe(cli, paths):
    try:
        return _run_cli(cli, paths)
    except subprocess.TimeoutExpired:
        return {}, "timeout on a batch starting with " + paths[0]


def _cli_all(cli, paths):
    batches = [paths[i:i + BATCH] for i in range(0, len(paths), BATCH)]
    results = {}
    notes = []
    with ThreadPoolExecutor(max_workers=_jobs()) as ex:
        for res, note in ex.map(lambda b: _run_cli_safe(cli, b), batches):
            results.update(res)
            if note:
                notes.append(note)
    # A crash drops the rest of its batch: give every unanswered file a run of its own.
    missing = [p for p in paths if p not in results]
    if missing and len(paths) > 1:
        with ThreadPoolExecutor(max_workers=_jobs()) as ex:
            for res, note in ex.map(lambda p: _run_cli_safe(cli, [p]), missing):
                results.update(res)
                if note and len(notes) < 20:
                    notes.append(note)
    return results, notes


# ----------------------------------------------------------------------------------------------
# comparing


def _blocks(lines):
    blocks = []
    for line in lines:
        if line.startswith("code ") or not blocks:
            blocks.append([])
        blocks[-1].append(line)
    return blocks


def _pair(exp, act):
    """Pairs (expected index, actual index or None) of code blocks, aligned on their headers."""
    if len(exp) == len(act):
        return [(i, i) for i in range(len(exp))]
    sm = difflib.SequenceMatcher(None, [b[0] for b in exp], [b[0] for b in act], autojunk=False)
    pairs = []
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        for k in range(i2 - i1):
            pairs.append((i1 + k, j1 + k if k < j2 - j1 else None))
    return pairs


def _diff(exp_block, act_block):
    d = list(difflib.unified_diff(exp_block, act_block or [], "expected", "uncompile",
                                  n=1, lineterm=""))
    if len(d) > DIFF_LINES:
        d = d[:DIFF_LINES] + ["... (%d more diff lines)" % (len(d) - DIFF_LINES)]
    return "\n".join(d)


def _compare(outdir, bases, results):
    n_code = 0
    matched = 0
    mismatches = []  # (base, header, text)
    for base in bases:
        with open(os.path.join(outdir, base + ".expected"), "rb") as f:
            exp = _blocks(f.read().decode("utf-8", "surrogatepass").split("\n")[:-1])
        n_code += len(exp)
        got = results.get(os.path.join(outdir, base + ".pyc"))
        if got is None or got[0] == "error":
            why = "no output from the CLI" if got is None else "CLI error: " + got[1]
            for b in exp:
                mismatches.append((base, b[0], why))
            continue
        act = _blocks(got[1])
        for i, j in _pair(exp, act):
            if j is not None and exp[i] == act[j]:
                matched += 1
            else:
                mismatches.append((base, exp[i][0], _diff(exp[i], act[j] if j is not None else None)))
    return n_code, matched, mismatches


# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("ver", VERSIONS)
def test_dis_matches_cpython(ver, tmp_path, record_property):
    python = _find_interpreter(ver)
    if python is None:
        pytest.skip("CPython %s not found under `pyenv root` (or $UNCOMPILE_PYENV_ROOT)" % ver)
    cli = _find_cli()
    if cli is None:
        pytest.skip("uncompile CLI not built (set UNCOMPILE_CLI or put `uncompile` on PATH)")

    stdlib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])"],
        stdout=subprocess.PIPE, universal_newlines=True, check=True, timeout=120,
    ).stdout.strip()
    outdir = str(tmp_path / "oracle")
    bases, logs = _run_oracle(python, stdlib, outdir)
    assert bases, "dis_oracle.py compiled no files from %s: %s" % (stdlib, logs)

    results, notes = _cli_all(cli, [os.path.join(outdir, b + ".pyc") for b in bases])
    n_code, matched, mismatches = _compare(outdir, bases, results)
    rate = 100.0 * matched / n_code if n_code else 0.0

    summary = "ORACLE %s files=%d code_objects=%d matched=%d rate=%.3f%%" % (
        ver, len(bases), n_code, matched, rate)
    shown = "\n\n".join("--- %s: %s\n%s" % m for m in mismatches[:SHOW_DIFFS])
    report = "\n".join(
        [summary, "python: " + python, "stdlib: " + stdlib, "cli: " + cli] + logs
        + ["CLI: " + n for n in notes[:5]]
    )
    if mismatches:
        report += "\nfirst %d of %d mismatching code objects:\n%s" % (
            min(SHOW_DIFFS, len(mismatches)), len(mismatches), shown)
    print(report, file=sys.stderr)
    record_property("oracle_summary", summary)

    report_dir = os.environ.get("UNCOMPILE_ORACLE_REPORT_DIR")
    if report_dir:
        os.makedirs(report_dir, exist_ok=True)
        with open(os.path.join(report_dir, "oracle-%s.txt" % ver), "w", encoding="utf-8",
                  errors="backslashreplace") as f:
            f.write(summary + "\n")
            for m in mismatches:
                f.write("\n--- %s: %s\n%s\n" % m)

    assert n_code > 0, summary
    assert matched == n_code, report
    shutil.rmtree(outdir, ignore_errors=True)  # ~200 MB a version; kept only when failing
