#!/usr/bin/env python3
"""How long the last 5% of a download takes, watched from outside the tool.

Usage: tail.py DIR SIZE OUT -- COMMAND...

Runs COMMAND in DIR and, every 2 ms until it exits, adds up the disk blocks of the files in DIR
(every tool here writes its file sparsely, so blocks are bytes written). Writes one line to
OUT: "WALL T95 TAIL_FRACTION", where T95 is when 95% of SIZE bytes were on disk and TAIL_FRACTION is
the share of the wall time spent after that.
"""
import os
import subprocess
import sys
import time


def written(directory):
    total = 0
    for entry in os.scandir(directory):
        try:
            if entry.is_file(follow_symlinks=False):
                total += entry.stat(follow_symlinks=False).st_blocks * 512
        except FileNotFoundError:
            pass  # renamed or removed between listing and stat
    return total


def main():
    if len(sys.argv) < 6 or sys.argv[4] != "--":
        sys.exit("usage: tail.py DIR SIZE OUT -- COMMAND...")
    directory, size, out, command = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[5:]
    start = time.monotonic()
    process = subprocess.Popen(command, cwd=directory)
    t95 = None
    while process.poll() is None:
        if t95 is None and written(directory) >= 0.95 * size:
            t95 = time.monotonic() - start
        time.sleep(0.002)
    wall = time.monotonic() - start
    if process.returncode != 0:
        sys.exit(f"tail.py: {command[0]} exited with {process.returncode}")
    if t95 is None:
        t95 = wall
    with open(out, "w") as file:
        file.write(f"{wall:.3f} {t95:.3f} {(wall - t95) / wall:.3f}\n")


main()
