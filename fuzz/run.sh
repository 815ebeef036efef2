#!/usr/bin/env bash
# Build fuzz_reader (clang, libFuzzer, ASan + UBSan), write the seed corpus, fuzz for N seconds.
#
#   fuzz/run.sh [SECONDS]        (default 600)
#
# Environment: BUILD_DIR (default build-fuzz), JOBS for ninja, PYTHONS (space-separated
# interpreters for the seeds; default: pyenv's 3.8-3.13, else python3), FUZZ_ARGS (extra
# libFuzzer flags). Everything generated goes to fuzz/corpus-work/, which git ignores.
# Exit status: 0 when the run is clean, libFuzzer's status when it found a crash, timeout or OOM
# (the input is then in fuzz/corpus-work/artifacts/).
set -euo pipefail

seconds="${1:-600}"
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${BUILD_DIR:-$root/build-fuzz}"
work="$root/fuzz/corpus-work"

command -v clang++ >/dev/null || { echo "run.sh: clang++ not found (see fuzz/README.md)" >&2; exit 2; }

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DUNCOMPILE_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build" ${JOBS:+-j "$JOBS"} fuzz_reader

mkdir -p "$work/seeds" "$work/corpus" "$work/artifacts"
if [[ -z "${PYTHONS:-}" ]]; then
    PYTHONS=""
    if command -v pyenv >/dev/null; then
        for v in 3.8 3.9 3.10 3.11 3.12 3.13; do
            exe="$(ls -d "$(pyenv root)"/versions/"$v".*/bin/python 2>/dev/null | sort -V | tail -n 1 || true)"
            [[ -n "$exe" ]] && PYTHONS="$PYTHONS $exe"
        done
    fi
    [[ -n "$PYTHONS" ]] || PYTHONS="python3"
fi
for py in $PYTHONS; do
    "$py" "$root/fuzz/make_corpus.py" "$work/seeds"
done

# New inputs go to corpus/ (kept between runs); seeds/ and the checked-in regressions are read only.
cd "$work"
set +e
"$build/fuzz_reader" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$work/artifacts/" ${FUZZ_ARGS:-} \
    corpus seeds "$root/tests/data/fuzz_regressions" 2>&1 | tee "$work/fuzz.log" | grep -E "^#[0-9]+[[:space:]]+(INITED|DONE)|ERROR|SUMMARY|runtime error|^stat::|Test unit written"
status="${PIPESTATUS[0]}"
set -e
if [[ "$status" != 0 ]]; then
    echo "run.sh: fuzz_reader exited with status $status; full log in $work/fuzz.log" >&2
fi
exit "$status"
