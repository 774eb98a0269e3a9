#!/usr/bin/env bash
# Runs each libFuzzer target of HaulFuzz for SECONDS (default 5) on the committed seed corpus
# and prints a line per target: inputs run, time, crashes. Exits 1 when any target broke a
# property or crashed; the input is kept under .build-fuzz/crashes/ (replay it with
# `swift run HaulFuzz TARGET FILE`).
#   usage: Tests/HaulFuzz/fuzz.sh [SECONDS] [TARGET...]
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-5}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(queue-file content-disposition content-range http-date netrc cookies theme config
    multipart rpc-request metalink numbers split-liveness)

mkdir -p .build-fuzz/crashes
swift build --scratch-path .build-fuzz --product HaulFuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING -Xswiftc -use-ld=lld >.build-fuzz/build.log 2>&1 || {
    cat .build-fuzz/build.log
    echo "fuzz: the fuzzing build failed" >&2
    exit 1
}
failed=0
printf '%-20s %12s %8s %8s\n' target inputs seconds crashes
for target in "${targets[@]}"; do
    corpus=.build-fuzz/corpus/$target
    mkdir -p "$corpus"
    log=.build-fuzz/$target.log
    # TOMLKit's C glue leaks the strings it hands over (not haul's code): leaks are not crashes there.
    leaks=1
    case "$target" in theme | config) leaks=0 ;; esac
    ASAN_OPTIONS=detect_leaks=$leaks HAUL_FUZZ_TARGET=$target .build-fuzz/debug/HaulFuzz "$corpus" "Tests/HaulFuzz/Corpus/$target" \
        -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -detect_leaks=$leaks -print_final_stats=1 \
        -artifact_prefix=".build-fuzz/crashes/$target-" >"$log" 2>&1
    status=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -1)
    crashes=0
    if [ $status -ne 0 ]; then
        crashes=1
        failed=1
        grep -E 'property broken|ERROR|Fatal error|SUMMARY' "$log" | head -5 >&2
    fi
    printf '%-20s %12s %8s %8s\n' "$target" "${runs:-?}" "${took:-$seconds}" "$crashes"
done
exit $failed
