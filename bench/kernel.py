#!/usr/bin/env python3
"""Where a run's CPU goes, user against kernel, and in the kernel by system call.

Usage: kernel.py ROUNDS DIR -- COMMAND...

Runs COMMAND ROUNDS times under `perf record -g` (root; cpu-clock samples at FREQUENCY a second,
kernel stacks included), each time in a new DIR/run with XDG_STATE_HOME=DIR/run/state, and
prints the medians, in milliseconds of samples, of:
  busiest    the thread with the most samples (haul's engine thread; curl's only one)
  others     every other thread of the tool together
each split into user time and kernel time, and the kernel time by what it was spent in: the
system call a sample's kernel stack began with (`linkat`, `pwrite64`, `openat`...), a page fault,
or `other` (interrupts, the scheduler). A tool started through a shell should be exec'd by it
(`bash -c 'exec curl ...'`). Sampling costs the tool time, so compare tools run the same way,
not these figures with wall times. Needs perf (Debian's linux-perf).
"""
import os
import re
import statistics
import subprocess
import sys
from collections import Counter, defaultdict

from perfrun import record

FREQUENCY = 10000
SYSCALL = re.compile(r"^(?:__x64_sys_|__do_sys_|__se_sys_|ksys_)(\w+)$")


def category(kernel_frames):
    """What a kernel sample was spent in, from its frames (innermost first)."""
    for symbol in reversed(kernel_frames):
        found = SYSCALL.match(symbol)
        if found:
            return found[1]
        if symbol in ("asm_exc_page_fault", "exc_page_fault"):
            return "page fault"
    return "other"


def samples(data):
    """(tid, kernel category or None for user) for each sample of the recording at `data`."""
    script = subprocess.run(["perf", "script", "-i", data, "-F", "tid,ip,sym"], capture_output=True, text=True,
                            check=True).stdout
    tid, frames = None, []
    for line in script.splitlines() + [""]:
        if line.strip() and not line.startswith("\t"):
            tid, frames = line.split()[0], []
        elif line.strip():
            address, _, symbol = line.strip().partition(" ")
            frames.append((address.startswith("ffff"), symbol.split("+")[0]))
        elif tid is not None:
            kernel = frames and frames[0][0]
            yield tid, category([symbol for is_kernel, symbol in frames if is_kernel]) if kernel else None
            tid = None


def one_run(directory, command):
    """{('busiest'|'others', 'user'|'kernel'|category): ms} for one run of `command`."""
    data = record(directory, command, ["-g", "-F", str(FREQUENCY)], "kernel.py")
    by_thread = defaultdict(Counter)
    for tid, where in samples(data):
        by_thread[tid]["user" if where is None else "kernel"] += 1
        if where is not None:
            by_thread[tid][where] += 1
    if not by_thread:
        sys.exit(f"kernel.py: perf recorded no sample of {' '.join(command)}")
    busiest = max(by_thread, key=lambda tid: sum(by_thread[tid][key] for key in ("user", "kernel")))
    figures = Counter()
    for tid, counts in by_thread.items():
        role = "busiest" if tid == busiest else "others"
        for key, count in counts.items():
            figures[(role, key)] += count * 1000 / FREQUENCY
    return figures


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--" or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__)
    rounds, directory, command = int(sys.argv[1]), sys.argv[2], sys.argv[4:]
    runs = [one_run(os.path.join(directory, "run"), command) for _ in range(rounds)]
    for role in ("busiest", "others"):
        keys = {key for run in runs for (each, key) in run if each == role} - {"user", "kernel"}
        median = {key: statistics.median(run[(role, key)] for run in runs) for key in keys | {"user", "kernel"}}
        calls = sorted(keys, key=lambda key: -median[key])
        print(f"{role}: user {median['user']:.1f} ms, kernel {median['kernel']:.1f} ms: "
              + ", ".join(f"{key} {median[key]:.1f}" for key in calls if median[key] >= 0.5))


if __name__ == "__main__":
    main()
