"""Seeds a torrent with libtorrent's Python binding (Debian's python3-libtorrent, run by
/usr/bin/python3): seed_torrent.py TORRENT DIRECTORY PORT. Checks the files in DIRECTORY, prints
"seeding" once every piece is had, then seeds on 127.0.0.1:PORT (no DHT, LSD, UPnP or NAT-PMP;
peers come through the torrent's tracker, or connect) until stdin closes. Prints "missing" and
exits 1 when the files are not whole."""
import os
import sys
import time

import libtorrent as lt

torrent, directory, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
session = lt.session({
    "listen_interfaces": f"127.0.0.1:{port}",
    "enable_dht": False, "enable_lsd": False, "enable_upnp": False, "enable_natpmp": False,
    "allow_multiple_connections_per_ip": True, "enable_outgoing_utp": False,
    "alert_mask": lt.alert_category.status | lt.alert_category.error,
})
params = lt.add_torrent_params()
params.ti = lt.torrent_info(torrent)
params.save_path = os.path.abspath(directory)
handle = session.add_torrent(params)
deadline = time.time() + 60
checked = False
while not checked and time.time() < deadline:
    session.wait_for_alert(500)
    checked = any(isinstance(alert, lt.torrent_checked_alert) for alert in session.pop_alerts())
if not checked or not handle.status().is_seeding:
    print("missing", flush=True)
    sys.exit(1)
handle.force_reannounce()
print("seeding", flush=True)
sys.stdin.read()
