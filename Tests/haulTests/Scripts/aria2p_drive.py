"""Drives a running haul daemon with aria2p, as a user of aria2p would, and prints what it saw
as one JSON object. Used by haulTests/DaemonAria2pTests.swift.

usage: aria2p_drive.py PORT SLOW_URL QUICK_URL MISSING_URL
"""
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import aria2p

port, slow_url, quick_url, missing_url = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
cli = [str(Path(sys.executable).parent / "aria2p"), "--port", port]
api = aria2p.API(aria2p.Client(host="http://127.0.0.1", port=int(port)))
report = {"notifications": [], "steps": {}}
lock = threading.Lock()


def heard(kind):
    def record(_api, gid):
        with lock:
            report["notifications"].append([kind, gid])
    return record


api.listen_to_notifications(
    threaded=True, on_download_start=heard("start"), on_download_pause=heard("pause"),
    on_download_stop=heard("stop"), on_download_complete=heard("complete"), on_download_error=heard("error"),
    timeout=1)
time.sleep(0.5)


def run(*arguments):
    done = subprocess.run(cli + list(arguments), capture_output=True, text=True, timeout=30)
    return {"status": done.returncode, "out": done.stdout, "err": done.stderr}


def status(gid):
    return api.get_download(gid).status


def wait_for(gid, wanted, seconds=30):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if status(gid) in wanted:
            return status(gid)
        time.sleep(0.1)
    return status(gid)


steps = report["steps"]
# aria2p add: the CLI prints "Created download GID".
# One connection (split=1): the server sends the first request slowly, so the download is still
# running when it is paused, however busy the machine (helpers of an automatic split are fast).
added = run("add", "-o", "split=1", slow_url)
steps["add"] = added
slow = added["out"].split()[-1] if added["out"] else ""
steps["slow_active"] = wait_for(slow, {"active"})
steps["ls"] = run("show")
steps["pause"] = run("pause", slow)
steps["slow_paused"] = wait_for(slow, {"paused"})
steps["resume"] = run("resume", slow)
steps["slow_after_resume"] = wait_for(slow, {"active", "complete"})
steps["slow_final"] = wait_for(slow, {"complete", "error"}, 60)

quick = api.add_uris([quick_url], options={"out": "quick.bin"})
steps["quick_final"] = wait_for(quick.gid, {"complete", "error"})
missing = api.add_uris([missing_url])
steps["missing_final"] = wait_for(missing.gid, {"complete", "error"})
missing.update()
steps["missing_error"] = [missing.error_code, missing.error_message]

paused = api.add_uris([quick_url], options={"pause": "true", "out": "never.bin"})
steps["paused_status"] = status(paused.gid)
steps["remove"] = run("remove", paused.gid)
steps["downloads"] = sorted([d.gid, d.status, d.name] for d in api.get_downloads())
steps["gids"] = {"slow": slow, "quick": quick.gid, "missing": missing.gid, "paused": paused.gid}
time.sleep(0.5)
api.stop_listening()
print(json.dumps(report))
