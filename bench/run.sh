#!/usr/bin/env bash
# haul's benchmark: nginx on 127.0.0.1 serves generated data; haul and its peers download the
# same work in one run; every download is verified by sha256; a table of figures and ratios is
# printed (and written to bench/out/latest.md).
#
# Usage: bench/run.sh [ROUNDS]   (default 3; the best round of each tool is reported)
# Needs: nginx curl wget2 aria2c /usr/bin/time sha256sum (`make bench` installs them) and a
# release build of haul (`make bench` builds it).
set -euo pipefail

ROUNDS=${1:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
HAUL="$ROOT/.build/release/haul"
OUT="$HERE/out"
DATA="$OUT/data"
RUNS="$OUT/runs"
SIZE_MIB=1024

for tool in nginx curl wget2 aria2c /usr/bin/time sha256sum bc; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "bench: $tool is missing; run 'make bench'" >&2; exit 2; }
done
[ -x "$HAUL" ] || { echo "bench: $HAUL is missing; run 'make bench' (it builds haul in release mode)" >&2; exit 2; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

mkdir -p "$DATA" "$RUNS" "$OUT/trash"
# This file system slows down creating files right after many were deleted: move old runs
# aside now and delete them only after measuring.
if [ -n "$(ls -A "$RUNS")" ]; then mv "$RUNS" "$OUT/trash/runs-$(date +%s)"; mkdir -p "$RUNS"; fi

# MARK: - Data
if [ ! -f "$DATA/1g.bin" ] || [ "$(stat -c %s "$DATA/1g.bin")" != $((SIZE_MIB << 20)) ]; then
  echo "generating $SIZE_MIB MiB of data…" >&2
  head -c $((SIZE_MIB << 20)) /dev/urandom > "$DATA/1g.bin"
  sha256sum "$DATA/1g.bin" | cut -d' ' -f1 > "$DATA/1g.sha256"
fi
EXPECTED=$(cat "$DATA/1g.sha256")

# MARK: - nginx
PORT=$(shuf -i 20000-60000 -n 1)
while (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do PORT=$(shuf -i 20000-60000 -n 1); done
NGX="$OUT/nginx"
mkdir -p "$NGX"
cat > "$NGX/nginx.conf" <<CONF
user root;
worker_processes 1;
daemon off;
pid $NGX/nginx.pid;
error_log $NGX/error.log;
events { worker_connections 1024; }
http {
    access_log off;
    sendfile on;
    tcp_nopush on;
    keepalive_requests 100000;
    client_body_temp_path $NGX/body;
    proxy_temp_path $NGX/proxy;
    fastcgi_temp_path $NGX/fastcgi;
    uwsgi_temp_path $NGX/uwsgi;
    scgi_temp_path $NGX/scgi;
    server {
        listen 127.0.0.1:$PORT;
        root $DATA;
    }
}
CONF
"$NGINX" -p "$NGX" -c "$NGX/nginx.conf" &
NGINX_PID=$!
trap 'kill $NGINX_PID 2>/dev/null; wait $NGINX_PID 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/1g.sha256" && break; sleep 0.05; done
URL="http://127.0.0.1:$PORT/1g.bin"

# MARK: - Measuring
# measure NAME COMMAND…: runs COMMAND ROUNDS times writing $RUNS/NAME-R/file; keeps the best
# wall time with its CPU and RSS; fails the run if a download's sha256 is wrong.
declare -A WALL CPU RSS
measure() {
  local name=$1; shift
  local best="" round dir wall user sys cpu rss
  for round in $(seq "$ROUNDS"); do
    dir="$RUNS/$name-$round"; mkdir -p "$dir"
    sync
    (cd "$dir" && /usr/bin/time -o "$dir/time" -f "%e %U %S %M" "$@" >/dev/null 2>"$dir/stderr") || true
    read -r wall user sys rss < "$dir/time"
    local sum; sum=$(sha256sum "$dir/file" 2>/dev/null | cut -d' ' -f1 || true)
    if [ "$sum" != "$EXPECTED" ]; then echo "bench: $name round $round produced a wrong file (sha256 $sum)" >&2; cat "$dir/stderr" >&2; exit 1; fi
    cpu=$(echo "$user + $sys" | bc)
    if [ -z "$best" ] || [ "$(echo "$wall < ${WALL[$name]}" | bc)" = 1 ]; then
      best=1; WALL[$name]=$wall; CPU[$name]=$cpu; RSS[$name]=$rss
    fi
  done
}

echo "1 GiB over one connection, $ROUNDS rounds each…" >&2
measure haul   "$HAUL" get -q -o file "$URL"
measure curl   curl -s -o file "$URL"
measure wget2  wget2 -q --no-config -O file "$URL"
measure aria2c aria2c -q -x1 -s1 --file-allocation=none --allow-overwrite=true -o file "$URL"

# MARK: - Report
MACHINE="$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -r), $(. /etc/os-release; echo "$PRETTY_NAME")"
{
  echo "Scenario A: 1 GiB, one connection, to disk (loopback nginx, warm cache, best of $ROUNDS)"
  echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on $MACHINE"
  echo
  echo "| tool | wall s | MB/s | CPU s | max RSS MiB | throughput vs wget2 | CPU vs curl |"
  echo "|---|---|---|---|---|---|---|"
  for name in haul curl wget2 aria2c; do
    mbs=$(echo "scale=0; 1073.741824 / ${WALL[$name]}" | bc)
    tput=$(echo "scale=2; ${WALL[wget2]} / ${WALL[$name]}" | bc)
    cpur=$(echo "scale=2; ${CPU[$name]} / ${CPU[curl]}" | bc)
    echo "| $name | ${WALL[$name]} | $mbs | ${CPU[$name]} | $(( ${RSS[$name]} / 1024 )) | ${tput}x | ${cpur}x |"
  done
} | tee "$OUT/latest.md"

rm -rf "$OUT/trash"
