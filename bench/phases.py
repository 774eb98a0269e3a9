#!/usr/bin/env python3
"""Where a run's wall time goes: its start, then its transfers, watched by the kernel.

Usage: phases.py ROUNDS DIR -- COMMAND...

Runs COMMAND ROUNDS times under `perf record` (root; tracepoints only, so the tool runs at
nearly its own speed), each time in a new DIR/run with XDG_STATE_HOME=DIR/run/state, and prints
the medians of:
  start      exec of the tool to its first connect()
  transfers  first connect() to exit_group()
  busiest    on-CPU time after the first connect() of the tool's busiest thread (haul's engine
             thread; curl's only one), from sched_stat_runtime
  others     on-CPU time after the first connect() of all its other threads together (haul's
             queue, checkpointer and main thread: what competes with the busiest for a core)
A tool started through a shell should be exec'd by it (`bash -c 'exec curl ...'`): the last exec
counts. Needs perf (Debian's linux-perf).
"""
import os
import re
import statistics
import subprocess
import sys
from collections import Counter

from perfrun import record

EVENTS = "sched:sched_process_exec,syscalls:sys_enter_connect,syscalls:sys_enter_exit_group,sched:sched_stat_runtime"
LINE = re.compile(r"\s*(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)")


def one_run(directory, command):
    """(start ms, transfers ms, busiest thread's and the other threads' ms after the first connect)."""
    data = record(directory, command, ["-e", EVENTS], "phases.py")
    script = subprocess.run(["perf", "script", "-i", data, "-F", "tid,time,event,trace"], capture_output=True,
                            text=True, check=True).stdout
    events = []
    for line in script.splitlines():
        match = LINE.match(line)
        if match:
            events.append((float(match[2]), int(match[1]), match[3], match[4]))
    events.sort()
    execs = [t for t, _, event, _ in events if event.endswith("sched_process_exec")]
    connects = [t for t, _, event, _ in events if event.endswith("sys_enter_connect") and execs and t >= execs[-1]]
    exits = [t for t, _, event, _ in events if event.endswith("sys_enter_exit_group")]
    if not (execs and connects and exits):
        sys.exit(f"phases.py: {' '.join(command)} made no connection (or perf saw no exec or exit)")
    exec_at, connect_at, exit_at = execs[-1], connects[0], exits[-1]
    runtime = Counter()
    for t, tid, event, trace in events:
        found = re.search(r"runtime=(\d+)", trace) if event.endswith("sched_stat_runtime") else None
        if found and t >= connect_at:
            runtime[tid] += int(found[1])
    busiest = runtime.most_common(1)[0][1] / 1e6 if runtime else 0.0
    others = sum(runtime.values()) / 1e6 - busiest
    return (connect_at - exec_at) * 1e3, (exit_at - connect_at) * 1e3, busiest, others


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--" or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__)
    rounds, directory, command = int(sys.argv[1]), sys.argv[2], sys.argv[4:]
    runs = [one_run(os.path.join(directory, "run"), command) for _ in range(rounds)]
    names = ("start", "transfers", "busiest", "others")
    print("  ".join(f"{name} {statistics.median(run[i] for run in runs):.1f} ms" for i, name in enumerate(names)))


if __name__ == "__main__":
    main()
