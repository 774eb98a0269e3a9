#!/usr/bin/env python3
"""Where a run waits in the kernel: every uninterruptible sleep (D state) of the tool's threads.

Usage: waits.py ROUNDS DIR -- COMMAND...

Runs COMMAND ROUNDS times under `perf record -g` (root; the scheduler's switches with their
kernel stacks, and connect() calls), each time in a new DIR/run with XDG_STATE_HOME=DIR/run/state.
A thread switched out in D state waits until it is switched in again; each wait is put under
  phase      start (before the tool's first connect()) or run
  thread     main (the process's first thread) or other
  reason     the first kernel function of its stack that is not the scheduler's or a lock's own
             (`expand_files`, `filemap_fault`, `__ext4_get_inode_loc`, `lock_mm_and_find_vma`...)
and the waits are printed, longest first, as milliseconds a run and how many there were in all.
CPU profiles do not show these: a thread waiting in D state spends no CPU. Issue 17's eighteenth
session found with it a 10 ms wait of haul's engine thread in `expand_files` (docs/benchmarks.md).
A tool started through a shell should be exec'd by it (`bash -c 'exec curl ...'`). Needs perf
(Debian's linux-perf).
"""
import os
import re
import subprocess
import sys
from collections import Counter

from perfrun import record

EVENTS = "sched:sched_switch,syscalls:sys_enter_connect"
HEADER = re.compile(r"\s*(\S+)\s+(\d+)/(\d+)\s+([\d.]+):\s+(\S+):\s*(.*)")
SWITCH = re.compile(r"prev_pid=(\d+) .*prev_state=(\S+) ==> .*next_pid=(\d+)")
# The scheduler's and the locks' own frames: a wait's reason is the first frame after them.
PLUMBING = re.compile(r"^(__schedule|schedule\w*|io_schedule\w*|rwsem_\w+|down_(read|write)\w*|"
                      r"wait_for_completion\w*|out_of_line_wait_on_bit\w*|__wait_on_bit\w*|bit_wait\w*|"
                      r"folio_wait\w*|__folio_lock\w*|mutex_lock\w*|__mutex_lock\w*|rt_mutex\w*|"
                      r"percpu_\w+|synchronize_rcu\w*)$")


def reason(frames):
    """The first telling function of a wait's kernel stack (innermost first)."""
    for symbol in frames:
        if not PLUMBING.match(symbol):
            return symbol
    return frames[-1] if frames else "?"


def one_run(directory, command):
    """{(phase, thread, reason): (milliseconds, count)} of one run's D-state waits."""
    data = record(directory, command, ["-g", "-e", EVENTS], "waits.py")
    script = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,tid,time,event,trace,ip,sym"],
                            capture_output=True, text=True, check=True).stdout
    waiting = {}
    first_connect = None
    totals = Counter()
    counts = Counter()
    for block in script.split("\n\n"):
        lines = block.strip().splitlines()
        match = HEADER.match(lines[0]) if lines else None
        if not match:
            continue
        pid, time, event, trace = int(match[2]), float(match[4]), match[5], match[6]
        if event.endswith("sys_enter_connect") and first_connect is None:
            first_connect = time
        switch = SWITCH.search(trace) if event.endswith("sched_switch") else None
        if not switch:
            continue
        previous, state, following = int(switch[1]), switch[2], int(switch[3])
        if state.startswith("D"):
            frames = [line.split(None, 1)[-1].strip() for line in lines[1:]]
            thread = "main" if previous == pid else "other"
            waiting[previous] = (time, "start" if first_connect is None else "run", thread, reason(frames))
        if following in waiting:
            began, phase, thread, why = waiting.pop(following)
            totals[(phase, thread, why)] += (time - began) * 1e3
            counts[(phase, thread, why)] += 1
    return {key: (totals[key], counts[key]) for key in totals}


def main():
    if len(sys.argv) < 5 or sys.argv[3] != "--" or not sys.argv[1].isdigit() or int(sys.argv[1]) < 1:
        sys.exit(__doc__)
    rounds, directory, command = int(sys.argv[1]), sys.argv[2], sys.argv[4:]
    milliseconds, counts = Counter(), Counter()
    for _ in range(rounds):
        for key, (waited, count) in one_run(os.path.join(directory, "run"), command).items():
            milliseconds[key] += waited
            counts[key] += count
    if not milliseconds:
        print("no waits in D state")
    for (phase, thread, why), waited in milliseconds.most_common(20):
        print(f"{waited / rounds:8.2f} ms a run  {counts[(phase, thread, why)]:5d} waits  {phase:5s} {thread:5s} {why}")


if __name__ == "__main__":
    main()
