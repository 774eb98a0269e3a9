"""One run of a tool under `perf record`, for bench/phases.py and bench/kernel.py."""
import os
import shutil
import subprocess
import sys


def record(directory, command, perf_options, caller):
    """Runs `command` under `perf record perf_options` in a new `directory`, with
    XDG_STATE_HOME=directory/state, and returns the recording's path; exits naming `caller`
    and what went wrong when the tool or perf fails."""
    shutil.rmtree(directory, ignore_errors=True)
    os.makedirs(directory)
    data = os.path.join(directory, "perf.data")
    environment = dict(os.environ, XDG_STATE_HOME=os.path.join(directory, "state"))
    recorded = subprocess.run(["perf", "record", "-q"] + perf_options + ["-o", data, "--"] + command, cwd=directory,
                              env=environment, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if recorded.returncode != 0:
        sys.exit(f"{caller}: {' '.join(command)} (under perf record) exited {recorded.returncode}: "
                 f"{recorded.stderr.strip()[-300:]}")
    return data
