#!/bin/bash
# Whole-module check: compile every top-level Lib/*.py of one interpreter to .pyc and run
# `uncompile verify` on all of them (what `uncompile FILE.pyc` gives, module by module).
#   tools/modcheck.sh 3.11            (UNCOMPILE_CLI: the CLI to use; MODCHECK_DIR: where to write)
# Prints the summary line; details per code object in $MODCHECK_DIR/mods-VER.out.
set -e
v=$1
py=$(ls -d "$(pyenv root)"/versions/"$v".*/bin/python | tail -1)
d=${MODCHECK_DIR:-/tmp/modcheck}/mods-$v
rm -rf "$d"; mkdir -p "$d"
"$py" - "$d" <<'PY'
import glob, os, py_compile, sys, sysconfig
out = sys.argv[1]
for f in sorted(glob.glob(os.path.join(sysconfig.get_paths()["stdlib"], "*.py"))):
    try:
        py_compile.compile(f, os.path.join(out, os.path.basename(f) + "c"), doraise=True)
    except py_compile.PyCompileError:
        pass
PY
"${UNCOMPILE_CLI:-uncompile}" verify "$d"/*.pyc > "$d.out" 2>&1 || true
tail -1 "$d.out"
