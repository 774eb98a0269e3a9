"""Makes a .torrent of a file or a folder with libtorrent's Python binding (Debian's
python3-libtorrent, run by /usr/bin/python3): make_torrent.py PATH OUT [--v1|--v2|--hybrid]
[--piece-length N] [--tracker URL]... [--web-seed URL]..."""
import argparse
import os
import sys

import libtorrent as lt

parser = argparse.ArgumentParser()
parser.add_argument("path")
parser.add_argument("out")
kind = parser.add_mutually_exclusive_group()
kind.add_argument("--v1", action="store_const", dest="kind", const="v1")
kind.add_argument("--v2", action="store_const", dest="kind", const="v2")
kind.add_argument("--hybrid", action="store_const", dest="kind", const="hybrid")
parser.add_argument("--piece-length", type=int, default=0)
parser.add_argument("--tracker", action="append", default=[])
parser.add_argument("--web-seed", action="append", default=[])
args = parser.parse_args()

files = lt.file_storage()
lt.add_files(files, args.path)
flags = {"v1": lt.create_torrent.v1_only, "v2": lt.create_torrent.v2_only, "hybrid": 0}[args.kind or "v1"]
torrent = lt.create_torrent(files, args.piece_length, flags=flags)
for tier, url in enumerate(args.tracker):
    torrent.add_tracker(url, tier)
for url in args.web_seed:
    torrent.add_url_seed(url)
torrent.set_creator("haul tests")
lt.set_piece_hashes(torrent, os.path.dirname(os.path.abspath(args.path)))
with open(args.out, "wb") as out:
    out.write(lt.bencode(torrent.generate()))
info = lt.torrent_info(args.out)
print(str(info.info_hashes().v1) if args.kind != "v2" else str(info.info_hashes().v2))
sys.exit(0)
