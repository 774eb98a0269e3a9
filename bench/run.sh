#!/usr/bin/env bash
# haul's benchmark: nginx on 127.0.0.1 serves generated data; haul and its peers download the
# same work in one run; every download is verified by sha256; a table of figures and ratios is
# printed (and written to bench/out/latest.md).
#
# Usage: bench/run.sh [ROUNDS]   (default 3; the best round of each tool is reported)
#        HAUL_BASELINE=PATH bench/run.sh  also runs an earlier haul build, and compares the two
#        SCENARIOS="E F G" bench/run.sh   runs only those scenarios (default: all, A to G and the
#        queue-file and UI runs)
# Needs: nginx curl wget2 aria2c axel tmux python3 /usr/bin/time sha256sum cc (`make bench` installs them) and a
# release build of haul (`make bench` builds it).
set -euo pipefail

ROUNDS=${1:-3}
SCENARIOS=${SCENARIOS:-A B C D E E10 E100 F F10 F100 G L M T1 T4 Q U}
wants() { [[ " $SCENARIOS " == *" $1 "* ]]; }
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
HAUL="$ROOT/.build/release/haul"
EMULATOR="$ROOT/.build/release/LinkEmulatorTool"
OUT="$HERE/out"
DATA="$OUT/data"
RUNS="$OUT/runs"
SIZE_MIB=1024

for tool in nginx curl wget2 aria2c axel python3 openssl /usr/bin/time sha256sum bc tmux opentracker; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "bench: $tool is missing; run 'make bench'" >&2; exit 2; }
done
[ -x "$HAUL" ] || { echo "bench: $HAUL is missing; run 'make bench' (it builds haul in release mode)" >&2; exit 2; }
[ -x "$EMULATOR" ] || { echo "bench: $EMULATOR is missing; run 'make bench' (it builds the link emulator)" >&2; exit 2; }
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
# Scenarios C's and D's floor (bench/libcurl-loop.c): a libcurl loop as curl -Z's, one thread and
# nothing else, saving by curl's file path (loop-creat) and by haul's (loop-unnamed: a file with
# no name, its mark, then its name). What haul takes beyond loop-unnamed is its own work. And
# what the file system alone costs a file by each path (bench/file-paths.c), without a download.
LOOP="$OUT/libcurl-loop"
FILE_PATHS="$OUT/file-paths"
if wants C || wants D; then
  CC=${CC:-$(command -v cc || command -v gcc || command -v clang || true)}
  [ -n "$CC" ] || { echo "bench: no C compiler for bench/libcurl-loop.c; run 'make bench'" >&2; exit 2; }
  mkdir -p "$OUT"
  # Both name their unnamed files by haul's own calls.
  CFILES=(-I "$ROOT/Sources/CFiles/include" "$ROOT/Sources/CFiles/CFiles.c")
  "$CC" -O2 -o "$LOOP" "$HERE/libcurl-loop.c" "${CFILES[@]}" -lcurl
  "$CC" -O2 -o "$FILE_PATHS" "$HERE/file-paths.c" "${CFILES[@]}"
fi

mkdir -p "$DATA" "$RUNS" "$OUT/trash"
mountpoint -q "$RUNS" && umount "$RUNS"
# Runs write to a new ext4 made for this run (as root, with mkfs.ext4): a long-used file
# system creates files at a speed that drifts by half over minutes (after a deletion of many
# files, during another's writeback), which moved the figures more than the tools differ.
# BENCH_RUNS_ON_DISK=1, or no root, writes them under bench/out/runs on the disk as it is;
# there old runs are moved aside now and deleted only after measuring.
RUNS_FS="the disk as it is"
if [ "$(id -u)" = 0 ] && [ -z "${BENCH_RUNS_ON_DISK:-}" ] && command -v mkfs.ext4 >/dev/null; then
  rm -rf "$RUNS" && mkdir -p "$RUNS"
  truncate -s 12G "$OUT/runs.img"
  mkfs.ext4 -q -F "$OUT/runs.img" && mount -o loop "$OUT/runs.img" "$RUNS" && RUNS_FS="a new ext4 (loop device)"
elif [ -n "$(ls -A "$RUNS")" ]; then
  mv "$RUNS" "$OUT/trash/runs-$(date +%s)"
  mkdir -p "$RUNS"
fi
release_runs() { mountpoint -q "$RUNS" && umount "$RUNS"; rm -f "$OUT/runs.img"; }

# MARK: - Data
if [ ! -f "$DATA/1g.bin" ] || [ "$(stat -c %s "$DATA/1g.bin")" != $((SIZE_MIB << 20)) ]; then
  echo "generating $SIZE_MIB MiB of data…" >&2
  head -c $((SIZE_MIB << 20)) /dev/urandom > "$DATA/1g.bin"
  sha256sum "$DATA/1g.bin" | cut -d' ' -f1 > "$DATA/1g.sha256"
fi
EXPECTED=$(cat "$DATA/1g.sha256")
if [ ! -f "$DATA/small/list.txt" ]; then
  echo "generating 1000 x 16 KiB files…" >&2
  mkdir -p "$DATA/small"
  for i in $(seq -w 0 999); do head -c 16384 /dev/urandom > "$DATA/small/f$i"; done
  (cd "$DATA/small" && cat f* | sha256sum | cut -d' ' -f1 > ../small.sha256)
fi
EXPECTED_SMALL=$(cat "$DATA/small.sha256")
if [ ! -f "$DATA/64m.bin" ] || [ "$(stat -c %s "$DATA/64m.bin")" != $((64 << 20)) ]; then
  head -c $((64 << 20)) "$DATA/1g.bin" > "$DATA/64m.bin"
  sha256sum "$DATA/64m.bin" | cut -d' ' -f1 > "$DATA/64m.sha256"
fi
EXPECTED_CAPPED=$(cat "$DATA/64m.sha256")
# Scenarios L and M: 300 MiB and 12 MiB of the same data.
for size in 300 12; do
  if [ ! -f "$DATA/${size}m.bin" ] || [ "$(stat -c %s "$DATA/${size}m.bin")" != $((size << 20)) ]; then
    head -c $((size << 20)) "$DATA/1g.bin" > "$DATA/${size}m.bin"
    sha256sum "$DATA/${size}m.bin" | cut -d' ' -f1 > "$DATA/${size}m.sha256"
  fi
done
EXPECTED_L=$(cat "$DATA/300m.sha256")
EXPECTED_M=$(cat "$DATA/12m.sha256")

# MARK: - nginx
# Ports below the kernel's ephemeral range (32768+), so no client socket holds them: plain
# HTTP, then HTTPS with HTTP/2, then HTTPS with HTTP/1.1 only (scenario D).
port_in_use() {
  for p in "$@"; do (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && return 0; done
  return 1
}
PORT=$(shuf -i 20000-31990 -n 1)
while port_in_use "$PORT" $((PORT + 1)) $((PORT + 2)); do PORT=$(shuf -i 20000-31990 -n 1); done
PORT_H2=$((PORT + 1))
PORT_H1=$((PORT + 2))
NGX="$OUT/nginx"
mkdir -p "$NGX"
# A self-signed certificate for 127.0.0.1, trusted by each client as its own authority.
CERT="$NGX/cert.pem"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$NGX/key.pem" -out "$CERT" -days 2 \
  -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 2>/dev/null
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
        # Scenario B: a server that caps each connection at 4 MiB/s.
        location /capped/ {
            alias $DATA/;
            limit_rate 4m;
        }
        # Scenario L: nginx's own per-connection cap, which sends a second's worth at once.
        location /rate2m/ {
            alias $DATA/;
            limit_rate 2m;
        }
        # Scenario M: 200 KiB/s a connection, under the user's limit of 500K.
        location /rate200k/ {
            alias $DATA/;
            limit_rate 200k;
        }
    }
    # Scenario D: the small files over HTTPS, with and without HTTP/2.
    ssl_certificate $CERT;
    ssl_certificate_key $NGX/key.pem;
    http2_max_concurrent_streams 128;
    server { listen 127.0.0.1:$PORT_H2 ssl http2; root $DATA; }
    server { listen 127.0.0.1:$PORT_H1 ssl; root $DATA; }
}
CONF
"$NGINX" -p "$NGX" -c "$NGX/nginx.conf" &
NGINX_PID=$!
trap 'kill $NGINX_PID 2>/dev/null; wait $NGINX_PID 2>/dev/null || true; release_runs' EXIT
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$PORT/1g.sha256" && break; sleep 0.05; done
kill -0 $NGINX_PID 2>/dev/null || { echo "bench: nginx did not start; see $NGX/error.log" >&2; exit 2; }
URL="http://127.0.0.1:$PORT/1g.bin"
URL_CAPPED="http://127.0.0.1:$PORT/capped/64m.bin"
URL_L="http://127.0.0.1:$PORT/rate2m/300m.bin"
URL_M="http://127.0.0.1:$PORT/rate200k/12m.bin"

# MARK: - Real links
# The link emulator (Tests/HaulTestSupport/LinkEmulator.swift) in front of nginx's HTTPS port
# with HTTP/2: 50 ms of round trip (25 ms each way), and for scenario E a cap of 2 MiB/s on each
# TCP connection, as a path or a server's per-connection limit imposes.
start_emulator() {  # start_emulator VARIABLE ARGS...: the emulator's port into VARIABLE
  local var=$1 portfile="$NGX/emulator-$1.port"; shift
  rm -f "$portfile"
  "$EMULATOR" "$@" > "$portfile" &
  EMULATOR_PIDS+=("$!")
  for _ in $(seq 200); do [ -s "$portfile" ] && break; sleep 0.05; done
  [ -s "$portfile" ] || { echo "bench: the link emulator did not start" >&2; exit 2; }
  printf -v "$var" %s "$(head -1 "$portfile")"
}
EMULATOR_PIDS=()
trap 'kill $NGINX_PID "${EMULATOR_PIDS[@]}" 2>/dev/null; wait $NGINX_PID 2>/dev/null || true; release_runs' EXIT
start_emulator EMU_CAPPED "$PORT_H2" --rate $((2 << 20)) --delay 25
# Scenario E again at 10 ms and at 100 ms of round trip.
start_emulator EMU_CAPPED10 "$PORT_H2" --rate $((2 << 20)) --delay 5
start_emulator EMU_CAPPED100 "$PORT_H2" --rate $((2 << 20)) --delay 50
start_emulator EMU_RTT "$PORT_H2" --delay 25
# Scenario F again at 10 ms and at 100 ms of round trip.
start_emulator EMU_RTT10 "$PORT_H2" --delay 5
start_emulator EMU_RTT100 "$PORT_H2" --delay 50
URL_E="https://127.0.0.1:$EMU_CAPPED/64m.bin"
URL_G="https://127.0.0.1:$EMU_RTT/1g.bin"

for i in $(seq -w 0 999); do echo "http://127.0.0.1:$PORT/small/f$i"; done > "$DATA/small/list.txt"
sed "s#http://127.0.0.1:$PORT/#https://127.0.0.1:$PORT_H2/#" "$DATA/small/list.txt" > "$DATA/list-h2.txt"
sed "s#http://127.0.0.1:$PORT/#https://127.0.0.1:$PORT_H1/#" "$DATA/small/list.txt" > "$DATA/list-h1.txt"
sed "s#http://127.0.0.1:$PORT/#https://127.0.0.1:$EMU_RTT/#" "$DATA/small/list.txt" > "$DATA/list-f.txt"
sed "s#http://127.0.0.1:$PORT/#https://127.0.0.1:$EMU_RTT10/#" "$DATA/small/list.txt" > "$DATA/list-f10.txt"
sed "s#http://127.0.0.1:$PORT/#https://127.0.0.1:$EMU_RTT100/#" "$DATA/small/list.txt" > "$DATA/list-f100.txt"

# MARK: - Measuring
# Tools take turns within each round; the best round of each is kept. Scenario A removes each
# verified 1 GiB file before the next run, so every tool meets the same page-cache state;
# scenario C keeps its 1000 files (moved aside with the run, deleted at the end).
declare -A WALL CPU RSS TAILS
# Every run's wall time, for the median (the best of a few runs moves with the machine's phases).
declare -A WALLS
declare -A COMMAND=(
  [A:haul]="$HAUL get -q -o file $URL"
  [A:curl]="curl -s -o file $URL"
  [A:wget2]="wget2 -q --no-config -O file $URL"
  [A:aria2c]="aria2c -q -x1 -s1 --file-allocation=none --allow-overwrite=true -o file $URL"
  [B:haul]="$HAUL get -q -x 16 -s 16 -k 1M -o file $URL_CAPPED"
  [B:curl]="curl -s -o file $URL_CAPPED"
  [B:aria2c]="aria2c -q -x16 -s16 -k1M --file-allocation=none --allow-overwrite=true -o file $URL_CAPPED"
  [B:axel]="axel -q -n 16 -o file $URL_CAPPED"
  [C:haul]="$HAUL get -q -j 16 -i $DATA/small/list.txt -d files"
  [C:curl]="curl -s -Z --parallel-max 16 --create-dirs --output-dir files --remote-name-all $(tr '\n' ' ' < "$DATA/small/list.txt")"
  [C:wget2]="wget2 -q --no-config --max-threads=16 -i $DATA/small/list.txt -P files"
  [C:aria2c]="aria2c -q -j16 --file-allocation=none -i $DATA/small/list.txt -d files"
  [C:loop-creat]="$LOOP creat $DATA/small/list.txt"
  [C:loop-unnamed]="$LOOP unnamed $DATA/small/list.txt"
  [D:haul-h2]="$HAUL get -q -j 16 --ca-certificate $CERT -i $DATA/list-h2.txt -d files"
  [D:haul-h1]="$HAUL get -q -j 16 --ca-certificate $CERT -i $DATA/list-h1.txt -d files"
  [D:curl-h2]="curl -s -Z --parallel-max 16 --http2 --cacert $CERT --create-dirs --output-dir files --remote-name-all $(tr '\n' ' ' < "$DATA/list-h2.txt")"
  [D:curl-h1]="curl -s -Z --parallel-max 16 --http1.1 --cacert $CERT --create-dirs --output-dir files --remote-name-all $(tr '\n' ' ' < "$DATA/list-h1.txt")"
  [D:loop-unnamed-h2]="$LOOP unnamed $DATA/list-h2.txt $CERT h2"
  [D:loop-unnamed-h1]="$LOOP unnamed $DATA/list-h1.txt $CERT h1"
  [E:haul]="$HAUL get -q -x 16 -s 16 -k 1M --ca-certificate $CERT -o file $URL_E"
  [E:curl]="curl -s --cacert $CERT -o file $URL_E"
  [E:aria2c]="aria2c -q -x16 -s16 -k1M --ca-certificate=$CERT --file-allocation=none --allow-overwrite=true -o file $URL_E"
  [E:axel]="axel -q -k -n 16 -o file $URL_E"
  # No connection options: haul decides how many (--split-mode=auto).
  [E:haul-defaults]="$HAUL get -q --ca-certificate $CERT -o file $URL_E"
  [F:haul]="$HAUL get -q -j 16 --ca-certificate $CERT -i $DATA/list-f.txt -d files"
  [F:haul-defaults]="$HAUL get -q --ca-certificate $CERT -i $DATA/list-f.txt -d files"
  [F:curl]="curl -s -Z --parallel-max 16 --cacert $CERT --create-dirs --output-dir files --remote-name-all $(tr '\n' ' ' < "$DATA/list-f.txt")"
  [F:wget2]="wget2 -q --no-config --max-threads=16 --ca-certificate=$CERT -i $DATA/list-f.txt -P files"
  [F:aria2c]="aria2c -q -j16 --ca-certificate=$CERT --file-allocation=none -i $DATA/list-f.txt -d files"
  [L:haul]="$HAUL get -q -x 16 -s 16 -k 1M -o file $URL_L"
  [L:haul-defaults]="$HAUL get -q -o file $URL_L"
  [L:aria2c]="aria2c -q -x16 -s16 -k1M --file-allocation=none --allow-overwrite=true -o file $URL_L"
  [M:haul-defaults]="$HAUL get -q --max-download-limit 500K -o file $URL_M"
  [M:aria2c]="aria2c -q -x16 -s16 -k1M --max-download-limit=500K --file-allocation=none --allow-overwrite=true -o file $URL_M"
  [G:haul]="$HAUL get -q --ca-certificate $CERT -o file $URL_G"
  [G:curl]="curl -s --cacert $CERT -o file $URL_G"
  # wget2's HTTP/2 flow-control window holds it to about 1 MB/s at 50 ms (834 s for the GiB,
  # measured): it runs over HTTP/1.1 here, as its fastest.
  [G:wget2]="wget2 -q --no-config --no-http2 --ca-certificate=$CERT -O file $URL_G"
)
# E10, E100, F10 and F100: E's commands through the capped 10 ms and 100 ms links, F's on the
# lists through the 10 ms and 100 ms links.
for key in "${!COMMAND[@]}"; do
  if [[ $key == E:* ]]; then
    COMMAND[E10:${key#E:}]="${COMMAND[$key]//:$EMU_CAPPED\//:$EMU_CAPPED10/}"
    COMMAND[E100:${key#E:}]="${COMMAND[$key]//:$EMU_CAPPED\//:$EMU_CAPPED100/}"
  fi
  [[ $key == F:* ]] || continue
  COMMAND[F10:${key#F:}]="${COMMAND[$key]//list-f.txt/list-f10.txt}"
  COMMAND[F100:${key#F:}]="${COMMAND[$key]//list-f.txt/list-f100.txt}"
done
F_TOOLS=(haul haul-defaults curl wget2 aria2c)
D_TOOLS=(haul-h2 haul-h1 curl-h2 curl-h1 loop-unnamed-h2 loop-unnamed-h1)
TOOLS=(haul curl wget2 aria2c)
# HAUL_BASELINE=PATH: another haul binary (an earlier build) runs every haul command too, in
# the same rounds, as NAME-before; a table compares the two at the end.
BEFORE=() D_BEFORE=()
if [ -n "${HAUL_BASELINE:-}" ]; then
  [ -x "$HAUL_BASELINE" ] || { echo "bench: HAUL_BASELINE=$HAUL_BASELINE is not a program" >&2; exit 2; }
  for key in A:haul B:haul C:haul D:haul-h2 D:haul-h1 E:haul E:haul-defaults E10:haul-defaults \
    E100:haul-defaults F:haul F10:haul F100:haul G:haul; do
    COMMAND[$key-before]="${COMMAND[$key]/$HAUL/$HAUL_BASELINE}"
  done
  BEFORE=(haul-before) D_BEFORE=(haul-h2-before haul-h1-before)
fi

# verify SCENARIO DIR: prints the sha256 of what the run produced.
verify() {
  case $1 in
    A|B|E|E10|E100|G|L|M|T1|T4) sha256sum "$2/file" 2>/dev/null | cut -d' ' -f1 ;;
    C|D|F|F10|F100) [ "$(ls "$2/files" 2>/dev/null | wc -l)" = 1000 ] && (cd "$2/files" && cat f* | sha256sum | cut -d' ' -f1) ;;
  esac
}

now_ms() { date +%s%3N; }

# median "W1 W2 …": the middle of the wall times (the lower middle of an even count).
median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# run_once SCENARIO NAME ROUND: one verified run; updates the best figures of SCENARIO:NAME.
run_once() {
  local key="$1:$2" dir="$RUNS/$1-$2-$3" wall user sys rss sum cpu expected start end
  mkdir -p "$dir"
  sync
  # shellcheck disable=SC2086
  # Each run gets a new state directory (haul's store), so no run continues another's queue.
  # Scenario B's runs are watched for how long their last 5% of the bytes take (bench/tail.py).
  local watch=()
  [ "$1" = B ] && watch=(python3 "$ROOT/bench/tail.py" . $((64 << 20)) "$dir/tail" --)
  # The wall time to the millisecond (time's %e has 10 ms steps, a tenth of scenario C's runs),
  # except for B, whose watcher would be timed too: its runs take half a second.
  start=$(now_ms)
  (cd "$dir" && XDG_STATE_HOME="$dir/state" "${watch[@]}" /usr/bin/time -o "$dir/time" -f "%e %U %S %M" \
    ${COMMAND[$key]} >/dev/null 2>"$dir/stderr") || true
  end=$(now_ms)
  read -r wall user sys rss < <(tail -1 "$dir/time")
  [ "$1" = B ] || wall=$(echo "scale=3; ($end - $start) / 1000" | bc | sed 's/^\./0./')
  sum=$(verify "$1" "$dir" || true)
  case $1 in
    A|G|T1|T4) expected=$EXPECTED ;;
    B|E|E10|E100) expected=$EXPECTED_CAPPED ;;
    L) expected=$EXPECTED_L ;;
    M) expected=$EXPECTED_M ;;
    *) expected=$EXPECTED_SMALL ;;
  esac
  if [ "$sum" != "$expected" ]; then
    echo "bench: $key round $3 produced wrong output (sha256 ${sum:-none})" >&2
    tail -5 "$dir/stderr" >&2
    exit 1
  fi
  case $1 in A|B|E|G|L|M|T1|T4) rm -f "$dir/file" ;; esac
  cpu=$(echo "$user + $sys" | bc)
  WALLS[$key]="${WALLS[$key]:-} $wall"
  if [ -z "${WALL[$key]:-}" ] || [ "$(echo "$wall < ${WALL[$key]}" | bc)" = 1 ]; then
    WALL[$key]=$wall; CPU[$key]=$cpu; RSS[$key]=$rss
  fi
  if [ "$1" = B ]; then
    local share
    read -r _ _ share < "$dir/tail"
    TAILS[$key]="${TAILS[$key]:+${TAILS[$key]}, }$(echo "$share * 100 / 1" | bc)%"
  fi
}

C_FLOOR=(loop-creat loop-unnamed)
for scenario in A C; do
  wants "$scenario" || continue
  echo "scenario $scenario, $ROUNDS rounds…" >&2
  floor=()
  [ "$scenario" = C ] && floor=("${C_FLOOR[@]}")
  for round in $(seq "$ROUNDS"); do
    for name in "${TOOLS[@]}" "${BEFORE[@]}" "${floor[@]}"; do run_once "$scenario" "$name" "$round"; done
  done
done
if wants C; then
  mkdir -p "$RUNS/file-paths"
  # Each line: way, median and best microseconds a file.
  FILE_PATH_COSTS=$("$FILE_PATHS" "$RUNS/file-paths" "$ROUNDS") || { echo "bench: $FILE_PATHS failed" >&2; exit 1; }
fi
if wants D; then
  echo "scenario D, $ROUNDS rounds…" >&2
  for round in $(seq "$ROUNDS"); do
    for name in "${D_TOOLS[@]}" "${D_BEFORE[@]}"; do run_once D "$name" "$round"; done
  done
fi
# Scenarios B and E: axel in place of wget2; the single connection (curl) once, as it takes
# 16 s (B) or 32 s (E). E also runs haul with its defaults (no connection options).
for scenario in B E E10 E100; do
  wants "$scenario" || continue
  echo "scenario $scenario, $ROUNDS rounds…" >&2
  run_once "$scenario" curl 1
  extra=()
  [ "$scenario" != B ] && extra=(haul-defaults)
  for round in $(seq "$ROUNDS"); do
    for name in haul "${extra[@]}" aria2c axel "${BEFORE[@]}"; do run_once "$scenario" "$name" "$round"; done
  done
done
for scenario in F F10 F100; do
  wants "$scenario" || continue
  echo "scenario $scenario, $ROUNDS rounds…" >&2
  for round in $(seq "$ROUNDS"); do
    for name in "${F_TOOLS[@]}" "${BEFORE[@]}"; do run_once "$scenario" "$name" "$round"; done
  done
done
# Scenarios L and M: no flags against aria2c as a user tunes it.
for scenario in L M; do
  wants "$scenario" || continue
  echo "scenario $scenario, $ROUNDS rounds…" >&2
  names=(haul-defaults aria2c)
  [ "$scenario" = L ] && names=(haul haul-defaults aria2c)
  for round in $(seq "$ROUNDS"); do
    for name in "${names[@]}"; do run_once "$scenario" "$name" "$round"; done
  done
done
# Scenarios T1 and T4: a torrent from one aria2c seeder and from four (bench/torrent-swarm.sh).
if wants T1 || wants T4; then
  # shellcheck source=bench/torrent-swarm.sh
  . "$HERE/torrent-swarm.sh"
  trap 'stop_swarm; kill $NGINX_PID "${EMULATOR_PIDS[@]}" 2>/dev/null; wait $NGINX_PID 2>/dev/null || true; release_runs' EXIT
  for scenario in T1 T4; do
    wants "$scenario" || continue
    echo "scenario $scenario, $ROUNDS rounds (and one not counted, while the seeders settle)…" >&2
    for name in haul aria2c; do run_once "$scenario" "$name" 0; done
    unset "WALL[$scenario:haul]" "WALL[$scenario:aria2c]" "WALLS[$scenario:haul]" "WALLS[$scenario:aria2c]"
    for round in $(seq "$ROUNDS"); do
      for name in haul aria2c; do run_once "$scenario" "$name" "$round"; done
    done
  done
fi
if wants G; then
  echo "scenario G, $ROUNDS rounds…" >&2
  for round in $(seq "$ROUNDS"); do
    for name in haul curl wget2 "${BEFORE[@]}"; do run_once G "$name" "$round"; done
  done
fi

# MARK: - Queue file of 100,000 lines
if wants Q; then
# Plain lines are read and queued, then run: every URL points at port 1, which refuses at
# once, so the figures are parsing, queueing and 100,000 quick failures. The paused variant
# (every entry `pause=true`) is read, queued and written back with --save-session, and must
# come back whole (a round trip); nothing runs.
for i in $(seq 0 99999); do echo "http://127.0.0.1:1/f$i"; done > "$RUNS/100k.txt"
sed 's/$/\n pause=true/' "$RUNS/100k.txt" > "$RUNS/100k-paused.txt"
# The earlier scenarios' files are written out first, so that the kernel's writing them back
# does not share the run: these figures are haul's.
sync
/usr/bin/time -o "$RUNS/100k.time" -f "%e %M" "$HAUL" get -q -m 1 -j 16 -i "$RUNS/100k.txt" -d "$RUNS/100k" \
  --state-dir "$RUNS/100k-state" >/dev/null 2>&1 || true
read -r QUEUE_WALL QUEUE_RSS < <(tail -1 "$RUNS/100k.time")
/usr/bin/time -o "$RUNS/100k-paused.time" -f "%e %M" "$HAUL" get -q -i "$RUNS/100k-paused.txt" \
  --state-dir "$RUNS/100k-paused-state" --save-session "$RUNS/100k-saved.txt" >/dev/null 2>&1 || true
read -r PAUSED_WALL PAUSED_RSS < <(tail -1 "$RUNS/100k-paused.time")
SAVED=$(grep -c '^http' "$RUNS/100k-saved.txt" || true)
[ "$SAVED" = 100000 ] || { echo "bench: the saved session holds $SAVED entries, not 100000" >&2; exit 1; }
# The same, ten times longer: a million paused entries.
seq 0 999999 | sed 's#.*#http://127.0.0.1:1/f&\n pause=true#' > "$RUNS/1m-paused.txt"
sync
/usr/bin/time -o "$RUNS/1m-paused.time" -f "%e %M" "$HAUL" get -q -i "$RUNS/1m-paused.txt" \
  --state-dir "$RUNS/1m-paused-state" --save-session "$RUNS/1m-saved.txt" >/dev/null 2>&1 || true
read -r MILLION_WALL MILLION_RSS < <(tail -1 "$RUNS/1m-paused.time")
SAVED=$(grep -c '^http' "$RUNS/1m-saved.txt" || true)
[ "$SAVED" = 1000000 ] || { echo "bench: the saved session holds $SAVED entries, not 1000000" >&2; exit 1; }
# That session read back (each entry with its gid) into a new state directory, and saved again:
# the gids must come back as they were.
/usr/bin/time -o "$RUNS/1m-session.time" -f "%e %M" "$HAUL" get -q -i "$RUNS/1m-saved.txt" \
  --state-dir "$RUNS/1m-session-state" --save-session "$RUNS/1m-resaved.txt" >/dev/null 2>&1 || true
read -r SESSION_WALL SESSION_RSS < <(tail -1 "$RUNS/1m-session.time")
cmp -s "$RUNS/1m-saved.txt" "$RUNS/1m-resaved.txt" || { echo "bench: the session read back was saved differently" >&2; exit 1; }
rm -rf "$RUNS/1m-paused.txt" "$RUNS/1m-saved.txt" "$RUNS/1m-resaved.txt" "$RUNS/1m-paused-state" "$RUNS/1m-session-state"
fi

# MARK: - The full-screen UI
if wants U; then
# T1: the 100,000-entry paused queue file opened in the UI (tmux, 120x40): time until the first
# frame shows all of it, then keys (End, Home, pages, j) with haul's own frame timings
# (--frame-stats). T2: 1 GiB with the UI open against headless haul get, each until the file
# has its final name.
TMUX_SOCKET="haul-bench-$$"
tmux_cmd() { tmux -L "$TMUX_SOCKET" "$@" 2>/dev/null; }
wait_for_pane() {  # wait_for_pane TEXT SECONDS
  local deadline=$(( $(now_ms) + $2 * 1000 ))
  while ! tmux_cmd capture-pane -p -t t1 | grep -q -- "$1"; do
    [ "$(now_ms)" -gt "$deadline" ] && return 1
    sleep 0.01
  done
}
# One tmux server for every run, started first, so its start-up is not counted against haul.
tmux_cmd new-session -d -s keeper "sleep 3600"
T1_START=$(now_ms)
tmux_cmd new-session -d -s t1 -x 120 -y 40 "cd $RUNS && TERM=xterm-256color $HAUL -i $RUNS/100k-paused.txt --state-dir $RUNS/ui-state -d $RUNS/ui --frame-stats $RUNS/ui-frames.txt"
wait_for_pane "100000 paused" 60 || { echo "bench: the UI never showed the 100,000 entries" >&2; tmux_cmd kill-server; exit 1; }
UI_FIRST_FRAME=$(echo "scale=2; ($(now_ms) - $T1_START) / 1000" | bc)
for key in End Home NPage NPage NPage NPage NPage End PPage PPage PPage Home; do tmux_cmd send-keys -t t1 "$key"; sleep 0.05; done
for _ in $(seq 40); do tmux_cmd send-keys -t t1 j; sleep 0.02; done
tmux_cmd send-keys -t t1 q
sleep 1
tmux_cmd kill-session -t t1 || true
UI_FRAMES=$(cat "$RUNS/ui-frames.txt" 2>/dev/null || echo "no frame statistics written")

# T1 with a million paused entries: the first frame (the file is read behind it), the count
# reaching the million, then scrolling, a filter typed and cleared, and a sort by name, each
# waited for, with haul's own frame timings.
seq 0 999999 | sed 's#.*#http://127.0.0.1:1/f&\n pause=true#' > "$RUNS/1m-ui.txt"
T1M_START=$(now_ms)
tmux_cmd new-session -d -s t1 -x 120 -y 40 "cd $RUNS && TERM=xterm-256color $HAUL -i $RUNS/1m-ui.txt --state-dir $RUNS/ui-1m-state -d $RUNS/ui --frame-stats $RUNS/ui-1m-frames.txt"
wait_for_pane " haul " 60 || { echo "bench: the UI never drew its first frame" >&2; tmux_cmd kill-server; exit 1; }
UI_1M_FIRST_FRAME=$(echo "scale=2; ($(now_ms) - $T1M_START) / 1000" | bc)
wait_for_pane "1000000 paused" 120 || { echo "bench: the UI never showed the 1,000,000 entries" >&2; tmux_cmd kill-server; exit 1; }
UI_1M_ALL=$(echo "scale=2; ($(now_ms) - $T1M_START) / 1000" | bc)
for key in End Home NPage NPage NPage End PPage Home; do tmux_cmd send-keys -t t1 "$key"; sleep 0.05; done
for key in / f 9 9 9 9 9; do tmux_cmd send-keys -t t1 "$key"; sleep 0.05; done
FILTER_START=$(now_ms)
sleep 0.2
while tmux_cmd capture-pane -p -t t1 | head -2 | grep -q "filtering"; do sleep 0.02; done
UI_1M_FILTER=$(echo "scale=2; ($(now_ms) - $FILTER_START) / 1000" | bc)
tmux_cmd send-keys -t t1 Enter; sleep 0.1; tmux_cmd send-keys -t t1 /; sleep 0.1; tmux_cmd send-keys -t t1 Escape
sleep 0.2
SORT_START=$(now_ms)
tmux_cmd send-keys -t t1 s
sleep 0.2
while tmux_cmd capture-pane -p -t t1 | head -2 | grep -q "sorting"; do sleep 0.02; done
UI_1M_SORT=$(echo "scale=2; ($(now_ms) - $SORT_START) / 1000" | bc)
for _ in $(seq 20); do tmux_cmd send-keys -t t1 j; sleep 0.02; done
tmux_cmd send-keys -t t1 q
sleep 1
tmux_cmd kill-session -t t1 || true
rm -f "$RUNS/1m-ui.txt"
UI_1M_FRAMES=$(cat "$RUNS/ui-1m-frames.txt" 2>/dev/null || echo "no frame statistics written")

# What tmux itself costs to start a command in a new session (the shell, the pane), best of 3,
# so that the UI run is not charged for it.
SPAWN_MS=""
for round in 1 2 3; do
  rm -f "$RUNS/spawned"; start=$(now_ms)
  tmux_cmd new-session -d -s "spawn$round" "touch $RUNS/spawned; sleep 1"
  while [ ! -f "$RUNS/spawned" ]; do sleep 0.005; done
  took=$(( $(now_ms) - start )); tmux_cmd kill-session -t "spawn$round" || true
  if [ -z "$SPAWN_MS" ] || [ "$took" -lt "$SPAWN_MS" ]; then SPAWN_MS=$took; fi
done

# Both in a tmux pane (the UI, and `haul get` as a user would run it in the same terminal),
# each from its start until the file has its final name, so the comparison is the UI's own
# cost; `haul get` outside tmux is shown too. Five rounds at least, taking turns going first:
# whichever runs second meets the disk still writing back the first one's gigabyte.
best_ui=""; best_headless=""; best_plain=""
T2_ROUNDS=$(( ROUNDS > 5 ? ROUNDS : 5 ))
for round in $(seq "$T2_ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then modes="ui headless plain"; else modes="headless ui plain"; fi
  for mode in $modes; do
    dir="$RUNS/T2-$mode-$round"; mkdir -p "$dir"; sync
    start=$(now_ms)
    case $mode in
      ui) tmux_cmd new-session -d -s "$mode$round" -x 120 -y 40 "cd $dir && TERM=xterm-256color $HAUL $URL -o file --state-dir $dir/state" ;;
      headless) tmux_cmd new-session -d -s "$mode$round" -x 120 -y 40 "cd $dir && TERM=xterm-256color $HAUL get $URL -o file --state-dir $dir/state; sleep 2" ;;
      plain) (cd "$dir" && "$HAUL" get -q -o file --state-dir "$dir/state" "$URL" >/dev/null 2>&1) ;;
    esac
    while [ ! -f "$dir/file" ]; do sleep 0.005; done
    end=$(now_ms)
    [ "$mode" = plain ] || end=$(( end - SPAWN_MS ))
    [ "$mode" = ui ] && { tmux_cmd send-keys -t "$mode$round" q; sleep 0.3; }
    tmux_cmd kill-session -t "$mode$round" || true
    [ "$(sha256sum "$dir/file" | cut -d' ' -f1)" = "$EXPECTED" ] || { echo "bench: T2 $mode produced a wrong file" >&2; exit 1; }
    rm -f "$dir/file"
    took=$(echo "scale=3; ($end - $start) / 1000" | bc)
    best="best_$mode"
    if [ -z "${!best}" ] || [ "$(echo "$took < ${!best}" | bc)" = 1 ]; then printf -v "$best" %s "$took"; fi
  done
done
tmux_cmd kill-server || true
UI_RATIO=$(echo "scale=2; $best_headless / $best_ui" | bc)
fi

# MARK: - Report
# small_files_table SCENARIO [NAME…]: the 1000-files table, wall time against curl -Z's (the best
# runs', and the median runs'), for the tools and then any NAME run besides them.
small_files_table() {
  local scenario=$1 name ratio median_wall median_curl
  shift
  median_curl=$(median "${WALLS[$scenario:curl]}")
  echo
  echo "| tool | wall s | CPU s | max RSS MiB | wall vs curl -Z | median wall s | median vs curl -Z |"
  echo "|---|---|---|---|---|---|---|"
  for name in "${TOOLS[@]}" "$@"; do
    ratio=$(echo "scale=2; ${WALL[$scenario:$name]} / ${WALL[$scenario:curl]}" | bc)
    median_wall=$(median "${WALLS[$scenario:$name]}")
    echo "| $name | ${WALL[$scenario:$name]} | ${CPU[$scenario:$name]} | $(echo "scale=1; ${RSS[$scenario:$name]} / 1024" | bc) | ${ratio}x | $median_wall | $(echo "scale=2; $median_wall / $median_curl" | bc)x |"
  done
}
# split_table SCENARIO REFERENCE_WALL REFERENCE_NAME: the 16-connection table, wall time against
# the reference and speed-up over one connection (curl); scenario B adds the tail shares.
split_table() {
  local scenario=$1 reference=$2 label=$3 name ratio speedup tails=""
  [ "$scenario" = B ] && tails=" share of the time on the last 5% of bytes, each run |"
  echo
  echo "| tool | wall s | CPU s | max RSS MiB | wall vs $label | faster than one connection (curl) | median wall s |$tails"
  echo "|---|---|---|---|---|---|---|${tails:+---|}"
  local names=(haul curl aria2c axel)
  [ "$scenario" != B ] && names=(haul haul-defaults curl aria2c axel)
  for name in "${names[@]}"; do
    ratio=$(echo "scale=2; ${WALL[$scenario:$name]} / $reference" | bc)
    speedup=$(echo "scale=1; ${WALL[$scenario:curl]} / ${WALL[$scenario:$name]}" | bc)
    echo "| $name | ${WALL[$scenario:$name]} | ${CPU[$scenario:$name]} | $(echo "scale=1; ${RSS[$scenario:$name]} / 1024" | bc) | ${ratio}x | ${speedup}x | $(median "${WALLS[$scenario:$name]}") |${tails:+ ${TAILS[$scenario:$name]} |}"
  done
}
# one_file_table SCENARIO REFERENCE TOOL...: the 1 GiB table, throughput against REFERENCE's and
# CPU against curl's.
one_file_table() {
  local scenario=$1 reference=$2 name mbs tput cpur; shift 2
  echo
  echo "| tool | wall s | MB/s | CPU s | max RSS MiB | throughput vs $reference | CPU vs curl |"
  echo "|---|---|---|---|---|---|---|"
  for name in "$@"; do
    mbs=$(echo "scale=0; 1073.741824 / ${WALL[$scenario:$name]}" | bc)
    tput=$(echo "scale=2; ${WALL[$scenario:$reference]} / ${WALL[$scenario:$name]}" | bc)
    cpur=$(echo "scale=2; ${CPU[$scenario:$name]} / ${CPU[$scenario:curl]}" | bc)
    echo "| $name | ${WALL[$scenario:$name]} | $mbs | ${CPU[$scenario:$name]} | $(echo "scale=1; ${RSS[$scenario:$name]} / 1024" | bc) | ${tput}x | ${cpur}x |"
  done
}
MACHINE="$(nproc) cores, $(free -g | awk '/Mem:/{print $2}') GiB, $(uname -r), $(. /etc/os-release; echo "$PRETTY_NAME")"
{
  echo "Run $(date -u '+%Y-%m-%d %H:%M UTC') on $MACHINE; loopback nginx, warm cache, files written to $RUNS_FS, best of $ROUNDS"
  if wants A; then
  echo
  echo "Scenario A: 1 GiB, one connection, to disk"
  one_file_table A wget2 "${TOOLS[@]}"
  fi
  if wants B; then
  echo
  echo "Scenario B: 64 MiB from a server capping each connection at 4 MiB/s, 16 connections"
  split_table B "${WALL[B:axel]}" axel
  fi
  if wants C; then
  echo
  echo "Scenario C: 1000 x 16 KiB from a list, 16 at a time"
  small_files_table C "${C_FLOOR[@]}"
  echo
  echo "loop-creat and loop-unnamed: scenario C's floor, bench/libcurl-loop.c (one libcurl multi loop, as" \
    "curl -Z's), saving by curl's file path and by haul's (a file with no name, marked, then named)."
  echo
  echo "The file system alone, a 16 KiB file on one thread (bench/file-paths.c, median and best of $ROUNDS):" \
    "$(awk '{printf "%s%s %s µs (%s)", sep, $1, $2, $3; sep="; "}' <<< "$FILE_PATH_COSTS")." \
    "creat is curl's path; marked is haul's (unnamed, marked, then named)."
  fi
  if wants D; then
  echo
  echo "Scenario D: scenario C over HTTPS (nginx, a self-signed certificate), HTTP/2 against HTTP/1.1"
  echo
  # Each tool against curl -Z over the same protocol, best and median (issue 17's goal is haul
  # at or below curl -Z over HTTP/2).
  echo "| tool | protocol | wall s | CPU s | max RSS MiB | wall vs curl -Z | median wall s | median vs curl -Z | HTTP/1.1 wall / HTTP/2 wall |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for tool in haul curl loop-unnamed; do
    gain=$(echo "scale=2; ${WALL[D:$tool-h1]} / ${WALL[D:$tool-h2]}" | bc)
    for proto in h2 h1; do
      key=D:$tool-$proto
      median_wall=$(median "${WALLS[$key]}") median_curl=$(median "${WALLS[D:curl-$proto]}")
      echo "| $tool | $([ $proto = h2 ] && echo HTTP/2 || echo HTTP/1.1) | ${WALL[$key]} | ${CPU[$key]} | $(echo "scale=1; ${RSS[$key]} / 1024" | bc) | $(echo "scale=2; ${WALL[$key]} / ${WALL[D:curl-$proto]}" | bc)x | $median_wall | $(echo "scale=2; $median_wall / $median_curl" | bc)x | $([ $proto = h2 ] && echo "${gain}x" || echo "") |"
    done
  done
  echo
  echo "loop-unnamed: scenario D's floor, bench/libcurl-loop.c over HTTPS (one libcurl multi loop, as curl -Z's," \
    "its HTTP/2 transfers sharing one connection), saving by haul's file path."
  fi
  if wants E; then
  echo
  echo "Scenario E: 64 MiB over HTTPS (HTTP/2 offered) through the link emulator: 2 MiB/s per TCP connection, 50 ms round trip, 16 connections"
  split_table E "$(printf '%s\n' "${WALL[E:aria2c]}" "${WALL[E:axel]}" | sort -n | head -1)" "the best peer"
  fi
  for scenario in E10 E100; do
    wants "$scenario" || continue
    echo
    echo "Scenario $scenario: scenario E through a capped link of ${scenario#E} ms round trip"
    split_table "$scenario" "$(printf '%s\n' "${WALL[$scenario:aria2c]}" "${WALL[$scenario:axel]}" | sort -n | head -1)" \
      "the best peer"
  done
  if wants F; then
  echo
  echo "Scenario F: 1000 x 16 KiB over HTTPS with HTTP/2 through the link emulator (50 ms round trip), 16 at a time"
  small_files_table F haul-defaults
  fi
  for scenario in F10 F100; do
    wants "$scenario" || continue
    echo
    echo "Scenario $scenario: scenario F through a link of ${scenario#F} ms round trip"
    small_files_table "$scenario" haul-defaults
  done
  if wants G; then
  echo
  echo "Scenario G: 1 GiB over HTTPS through the link emulator (50 ms round trip, no cap), one connection"
  one_file_table G curl haul curl wget2
  fi
  if wants T1; then
  echo
  echo "Scenario T1: a 1 GiB torrent (1 MiB pieces) from one aria2c seeder, through opentracker, loopback"
  torrent_table T1
  fi
  if wants T4; then
  echo
  echo "Scenario T4: the same torrent from four aria2c seeders"
  torrent_table T4
  fi
  if wants L; then
  echo
  echo "Scenario L: 300 MiB from nginx with \`limit_rate 2m\` (each connection: 2 MiB at once, then 2 MiB a second), loopback"
  echo
  echo "| tool | wall s | median wall s | wall vs aria2c -x16 |"
  echo "|---|---|---|---|"
  for name in haul haul-defaults aria2c; do
    echo "| $name | ${WALL[L:$name]} | $(median "${WALLS[L:$name]}") | $(echo "scale=2; ${WALL[L:$name]} / ${WALL[L:aria2c]}" | bc)x |"
  done
  fi
  if wants M; then
  echo
  echo "Scenario M: 12 MiB from nginx with \`limit_rate 200k\`, the user's limit 500K (both tools)"
  echo
  echo "| tool | wall s | median wall s | KiB/s (median) |"
  echo "|---|---|---|---|"
  for name in haul-defaults aria2c; do
    echo "| $name | ${WALL[M:$name]} | $(median "${WALLS[M:$name]}") | $(echo "scale=0; 12288 / $(median "${WALLS[M:$name]}")" | bc) |"
  done
  fi
  if wants Q; then
  echo
  echo "Queue file of 100,000 URLs: read, queued and each attempted once (refused at once) in ${QUEUE_WALL} s, peak RSS $(echo "scale=1; $QUEUE_RSS / 1024" | bc) MiB"
  echo
  echo "Queue file of 100,000 paused entries: read, queued and saved back whole in ${PAUSED_WALL} s, peak RSS $(echo "scale=1; $PAUSED_RSS / 1024" | bc) MiB"
  echo
  echo "Queue file of 1,000,000 paused entries: read, queued and saved back whole in ${MILLION_WALL} s, peak RSS $(echo "scale=1; $MILLION_RSS / 1024" | bc) MiB"
  echo
  echo "That session (each entry with its gid) read back, queued and saved again: ${SESSION_WALL} s, peak RSS $(echo "scale=1; $SESSION_RSS / 1024" | bc) MiB"
  fi
  if wants U; then
  echo
  echo "Full-screen UI (tmux 120x40): the 100,000-entry queue file on screen ${UI_FIRST_FRAME} s after start; frames while scrolling it:"
  echo
  echo '```'
  echo "$UI_FRAMES"
  echo '```'
  echo
  echo "A 1,000,000-entry queue file: first frame ${UI_1M_FIRST_FRAME} s after start, all of it read and shown at ${UI_1M_ALL} s; a 6-key filter worked out in ${UI_1M_FILTER} s and a sort by name in ${UI_1M_SORT} s, the keys answering meanwhile. Frames while scrolling, filtering and sorting it:"
  echo
  echo '```'
  echo "$UI_1M_FRAMES"
  echo '```'
  echo
  echo "1 GiB with the UI open: ${best_ui} s; \`haul get\` in the same terminal: ${best_headless} s; UI speed vs headless ${UI_RATIO}x (both in a tmux pane, less the ${SPAWN_MS} ms tmux takes to start a command; best of $T2_ROUNDS, alternating which goes first). \`haul get -q\` outside tmux: ${best_plain} s"
  fi
  if [ -n "${HAUL_BASELINE:-}" ]; then
  echo
  echo "haul against the baseline ($HAUL_BASELINE), in the same rounds"
  echo
  echo "| scenario | haul wall s | baseline wall s | wall now / before | median now / before | haul CPU s | baseline CPU s | CPU now / before |"
  echo "|---|---|---|---|---|---|---|---|"
  for key in A:haul B:haul C:haul D:haul-h2 D:haul-h1 E:haul F:haul G:haul; do
    [ -n "${WALL[$key]:-}" ] && [ -n "${WALL[$key-before]:-}" ] || continue
    now=$(median "${WALLS[$key]}") before=$(median "${WALLS[$key-before]}")
    echo "| $key | ${WALL[$key]} | ${WALL[$key-before]} | $(echo "scale=2; ${WALL[$key]} / ${WALL[$key-before]}" | bc)x | $(echo "scale=2; $now / $before" | bc)x ($now s, $before s) | ${CPU[$key]} | ${CPU[$key-before]} | $(echo "scale=2; ${CPU[$key]} / ${CPU[$key-before]}" | bc)x |"
  done
  fi
} | tee "$OUT/latest.md"

# The run as data: bench/results/DATE.json (or in BENCH_RECORD_DIR), each tool's best and median
# wall, CPU and RSS by scenario, with the machine; history is these files, not prose.
RECORD="${BENCH_RECORD_DIR:-$HERE/results}/$(date -u '+%Y-%m-%dT%H%MZ').json"
number() { awk -v value="$1" 'BEGIN { printf "%g", value }'; }
{
  printf '{"date": "%s", "machine": "%s", "filesOn": "%s", "rounds": %s, "commit": "%s", "runs": [' \
    "$(date -u '+%Y-%m-%dT%H:%M:%SZ')" "$MACHINE" "$RUNS_FS" "$ROUNDS" "$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null)"
  separator=""
  for key in $(printf '%s\n' "${!WALL[@]}" | sort); do
    printf '%s\n  {"scenario": "%s", "tool": "%s", "wall": %s, "medianWall": %s, "cpu": %s, "rssKiB": %s}' \
      "$separator" "${key%%:*}" "${key#*:}" "$(number "${WALL[$key]}")" "$(number "$(median "${WALLS[$key]}")")" \
      "$(number "${CPU[$key]}")" "$(number "${RSS[$key]}")"
    separator=","
  done
  printf '\n]}\n'
} > "$RECORD"
echo "bench: the record is $RECORD" >&2

rm -rf "$OUT/trash"
