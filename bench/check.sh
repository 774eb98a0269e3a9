#!/usr/bin/env bash
# make bench-check: the figures that do not move with the machine (instructions counted by
# valgrind, memory per queued entry), compared with bench/thresholds.json. Wall times move by a
# third from minute to minute on a shared machine; these move by a percent or two, so a change
# that makes haul's start or its queue costlier shows here, in CI if wanted, as swift-nio's
# benchmark thresholds do. Exit status 1 when a figure is above its threshold by more than the
# tolerance; a figure far below says the threshold may be lowered.
#
# Needs valgrind and a release build (`make bench-check` builds it).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
HAUL="$ROOT/.build/release/haul"
THRESHOLDS="$HERE/thresholds.json"
[ -x "$HAUL" ] || { echo "bench-check: $HAUL is missing; run 'make build'" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "bench-check: valgrind is missing (apt-get install valgrind)" >&2; exit 2; }

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export XDG_STATE_HOME="$WORK/state"
# valgrind cannot read the release binary's debug information: it runs a stripped copy.
strip -o "$WORK/haul" "$HAUL"

# instructions COMMAND...: the instructions valgrind counts for a run of COMMAND.
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null \
    | awk '/Collected :/ { print $NF }'
}
# peak_kib COMMAND...: the most memory a run of COMMAND held (KiB).
peak_kib() {
  /usr/bin/time -o "$WORK/time" -f %M "$@" >/dev/null 2>&1 || true
  tail -1 "$WORK/time"
}
# paused N: a queue file of N paused entries.
paused() {
  seq 0 $(($1 - 1)) | sed 's#.*#http://127.0.0.1:1/f&\n pause=true#' > "$WORK/paused-$1.txt"
}

paused 1000
paused 10000
paused 100000
start=$(instructions "$WORK/haul" --version)
queue=$(instructions "$WORK/haul" get -q -i "$WORK/paused-10000.txt" --state-dir "$WORK/s10k" \
  --save-session "$WORK/saved-10k.txt")
small=$(peak_kib "$HAUL" get -q -i "$WORK/paused-1000.txt" --state-dir "$WORK/s1k" --save-session "$WORK/saved-1k.txt")
large=$(peak_kib "$HAUL" get -q -i "$WORK/paused-100000.txt" --state-dir "$WORK/s100k" \
  --save-session "$WORK/saved-100k.txt")
[ "$(grep -c '^http' "$WORK/saved-100k.txt")" = 100000 ] || { echo "bench-check: the session lost entries" >&2; exit 1; }
# The stores those runs wrote (a 100,000-entry one among them) are dropped and written out before
# the timed runs: their writeback landed on scenario C, which fsyncs its own store, and made haul's
# median there a third slower than the same binary's alone.
rm -rf "$WORK/s1k" "$WORK/s10k" "$WORK/s100k"
sync

# The ratio goals of C, D and F: a run of bench/run.sh (5 rounds: medians of 3 on two busy cores moved
# C by a fifth between runs minutes apart), its record read. RATIOS=0 skips
# them (they need nginx, the link emulator and the peers, and some minutes).
record=""
if [ "${RATIOS:-1}" = 1 ]; then
  echo "bench-check: scenarios C, D, F and F100 for the ratio goals…" >&2
  BENCH_RECORD_DIR="$WORK" SCENARIOS="C D F F100" bash "$HERE/run.sh" 5 > "$WORK/ratios.md" 2> "$WORK/ratios.log" \
    || { cat "$WORK/ratios.log" >&2; exit 2; }
  record=$(ls "$WORK"/*.json | head -n 1)
fi

python3 - "$THRESHOLDS" "$start" "$queue" "$small" "$large" "$record" <<'PYTHON'
import json, sys
thresholds = json.load(open(sys.argv[1]))
start, queue, small, large = (int(value) for value in sys.argv[2:6])
measured = {
    "start-instructions": start,
    "instructions-per-queued-entry": (queue - start) / 10000,
    "bytes-per-queued-entry": (large - small) * 1024 / 99000,
}
tolerance = thresholds["tolerance"]
failed = False
print(f"| figure | measured | threshold | measured / threshold |")
print(f"|---|---|---|---|")
for name, value in measured.items():
    limit = thresholds["figures"][name]
    ratio = value / limit
    verdict = ""
    if ratio > 1 + tolerance:
        verdict, failed = " ABOVE", True
    elif ratio < 1 - 2 * tolerance:
        verdict = " (well below: the threshold may be lowered)"
    print(f"| {name} | {value:,.0f} | {limit:,.0f} | {ratio:.3f}{verdict} |")
if len(sys.argv) > 6 and sys.argv[6]:
    medians = {(run["scenario"], run["tool"]): run["medianWall"] for run in json.load(open(sys.argv[6]))["runs"]}
    print()
    print("| ratio goal | haul's median | against (best) | ratio | goal |")
    print("|---|---|---|---|---|")
    for goal in thresholds["ratios"]:
        own = medians.get((goal["scenario"], goal["tool"]))
        others = [medians[(goal["scenario"], tool)] for tool in goal["over"] if (goal["scenario"], tool) in medians]
        if own is None or not others:
            print(f"| {goal['scenario']} {goal['tool']} | not measured | | | {goal['goal']} ABOVE |")
            failed = True
            continue
        best = min(others)
        ratio = own / best
        verdict = " ABOVE" if ratio > goal["max"] * (1 + tolerance) else ""
        failed = failed or bool(verdict)
        against = "/".join(goal["over"])
        print(f"| {goal['scenario']} {goal['tool']} | {own:.3f} | {against} {best:.3f} | {ratio:.2f}x | "
              f"{goal['max']}x: {goal['goal']}{verdict} |")
sys.exit(1 if failed else 0)
PYTHON
