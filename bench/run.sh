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
# A port below the kernel's ephemeral range (32768+), so no client socket holds it.
PORT=$(shuf -i 20000-32000 -n 1)
while (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do PORT=$(shuf -i 20000-32000 -n 1); done
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
kill -0 $NGINX_PID 2>/dev/null || { echo "bench: nginx did not start; see $NGX/error.log" >&2; exit 2; }
URL="http://127.0.0.1:$PORT/1g.bin"

# MARK: - Measuring
# Tools take turns within each round, and each verified output is removed before the next
# run, so every tool meets the same page-cache state; the best round of each is kept.
declare -A WALL CPU RSS
declare -A COMMAND=(
  [haul]="$HAUL get -q -o file $URL"
  [curl]="curl -s -o file $URL"
  [wget2]="wget2 -q --no-config -O file $URL"
  [aria2c]="aria2c -q -x1 -s1 --file-allocation=none --allow-overwrite=true -o file $URL"
)
TOOLS=(haul curl wget2 aria2c)

# run_once NAME ROUND: one verified download; updates the best figures of NAME.
run_once() {
  local name=$1 round=$2 dir="$RUNS/$1-$2" wall user sys rss sum cpu
  mkdir -p "$dir"
  sync
  # shellcheck disable=SC2086
  (cd "$dir" && /usr/bin/time -o "$dir/time" -f "%e %U %S %M" ${COMMAND[$name]} >/dev/null 2>"$dir/stderr") || true
  read -r wall user sys rss < "$dir/time"
  sum=$(sha256sum "$dir/file" 2>/dev/null | cut -d' ' -f1 || true)
  if [ "$sum" != "$EXPECTED" ]; then
    echo "bench: $name round $round produced a wrong file (sha256 ${sum:-none})" >&2
    cat "$dir/stderr" >&2
    exit 1
  fi
  rm -f "$dir/file"
  cpu=$(echo "$user + $sys" | bc)
  if [ -z "${WALL[$name]:-}" ] || [ "$(echo "$wall < ${WALL[$name]}" | bc)" = 1 ]; then
    WALL[$name]=$wall; CPU[$name]=$cpu; RSS[$name]=$rss
  fi
}

echo "1 GiB over one connection, $ROUNDS rounds…" >&2
for round in $(seq "$ROUNDS"); do
  for name in "${TOOLS[@]}"; do run_once "$name" "$round"; done
done

# MARK: - Report
MACHINE="$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -r), $(. /etc/os-release; echo "$PRETTY_NAME")"
{
  echo "Scenario A: 1 GiB, one connection, to disk (loopback nginx, warm cache, best of $ROUNDS)"
  echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on $MACHINE"
  echo
  echo "| tool | wall s | MB/s | CPU s | max RSS MiB | throughput vs wget2 | CPU vs curl |"
  echo "|---|---|---|---|---|---|---|"
  for name in "${TOOLS[@]}"; do
    mbs=$(echo "scale=0; 1073.741824 / ${WALL[$name]}" | bc)
    tput=$(echo "scale=2; ${WALL[wget2]} / ${WALL[$name]}" | bc)
    cpur=$(echo "scale=2; ${CPU[$name]} / ${CPU[curl]}" | bc)
    echo "| $name | ${WALL[$name]} | $mbs | ${CPU[$name]} | $(echo "scale=1; ${RSS[$name]} / 1024" | bc) | ${tput}x | ${cpur}x |"
  done
} | tee "$OUT/latest.md"

rm -rf "$OUT/trash"
