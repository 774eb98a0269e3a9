#!/usr/bin/env bash
# Makes docs/queue.png, README's picture of the live queue, from the real screen: haul runs in a
# tmux pane of 120×30 against a local demo server (four downloads under way, one saved, one
# failed, two waiting, the detail pane open), the pane is captured with its colours, drawn as HTML and photographed by headless
# Chromium. `make screenshot` runs it; nothing in the picture is drawn by hand.
#
# usage: contrib/screenshot/screenshot.sh HAUL_BINARY OUTPUT_PNG
set -euo pipefail

haul=$(readlink -f "$1")
output=$(readlink -f "$2")
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
socket="haul-screenshot-$$"
cleanup() {
    tmux -L "$socket" kill-server 2>/dev/null || true
    [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 "$here/demo_server.py" "$port" &
server=$!
for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
    sleep 0.1
done

base="http://127.0.0.1:$port"
urls=(
    "$base/release-notes.html?size=48000"
    "$base/missing/firmware-nonfree.tar.gz"
    "$base/debian-12.8.0-amd64-DVD-1.iso?size=4000000000&rate=9000000"
    "$base/ubuntu-24.04.1-live-server-amd64.iso?size=2770000000&rate=6500000"
    "$base/archlinux-2024.12.01-x86_64.iso?size=1200000000&rate=3100000"
    "$base/linux-6.12.4.tar.xz?size=148000000&rate=2200000"
    "$base/Fedora-Workstation-Live-x86_64-41.iso?size=2300000000&rate=1000000"
    "$base/openwrt-23.05.5-x86-64-generic-ext4-combined.img.gz?size=12000000&rate=400000"
)
quoted=$(printf " '%s'" "${urls[@]}")
tmux -L "$socket" new-session -d -x 120 -y 30 \
    "cd '$work' && XDG_STATE_HOME='$work/state' XDG_CONFIG_HOME='$work/config' TERM=xterm-256color \
     '$haul' -d downloads -j 4 -m 1$quoted; sleep 60"
# Long enough for the speeds and the graph to settle, the small file to be saved, the 404 said.
sleep 12
# The detail pane of the first active download.
tmux -L "$socket" send-keys Down Down Enter
sleep 1.5
tmux -L "$socket" capture-pane -e -p > "$work/screen.ansi"
python3 "$here/ansi_html.py" 120 < "$work/screen.ansi" > "$work/screen.html"
chromium --headless=new --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --window-size=1140,585 --screenshot="$output" "file://$work/screen.html" > /dev/null 2>&1
[ -s "$output" ] || { echo "screenshot.sh: Chromium made no picture" >&2; exit 1; }
echo "$output"
