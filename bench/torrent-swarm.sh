# Scenarios T1 and T4 (sourced by bench/run.sh): the 1 GiB file as a torrent, seeded on loopback
# by one aria2c and by four (`aria2c -V --seed-ratio=0.0`), each set announced to a tracker of its
# own (Debian's opentracker, whitelisting the torrent), no DHT, LSD or peer exchange. haul and
# aria2c leech it in turns, each run from nothing (`--seed-time=0`: done when whole).
# Needs: opentracker, /usr/bin/python3 with python3-libtorrent (to make the torrent).
# Sets COMMAND[T1:…] and COMMAND[T4:…]; stops its processes on exit (SWARM_PIDS).

SWARM="$OUT/swarm"
SWARM_PIDS=()
rm -rf "$SWARM" && mkdir -p "$SWARM/seed"
# The seeders read the 1 GiB file under the name the runs verify ("file").
ln "$DATA/1g.bin" "$SWARM/seed/file" 2>/dev/null || cp "$DATA/1g.bin" "$SWARM/seed/file"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
wait_for_port() {
  for _ in $(seq 600); do (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0; sleep 0.05; done
  echo "bench: nothing listens on $1" >&2; exit 2
}
for set in 1 4; do
  tracker_port=$(free_port)
  /usr/bin/python3 "$ROOT/Tests/HaulTestSupport/Scripts/make_torrent.py" "$SWARM/seed/file" "$SWARM/t$set.torrent" \
    --piece-length $((1 << 20)) --tracker "http://127.0.0.1:$tracker_port/announce" > "$SWARM/t$set.hash"
  mkdir -p "$SWARM/tracker$set" && cp "$SWARM/t$set.hash" "$SWARM/tracker$set/whitelist"
  opentracker -i 127.0.0.1 -p "$tracker_port" -P "$tracker_port" -d "$SWARM/tracker$set" -w whitelist \
    > /dev/null 2>&1 &
  SWARM_PIDS+=("$!")
  wait_for_port "$tracker_port"
  for _ in $(seq "$set"); do
    port=$(free_port)
    aria2c --no-conf -q --enable-dht=false --enable-dht6=false --bt-enable-lpd=false --enable-peer-exchange=false \
      --listen-port="$port" --dir="$SWARM/seed" -V --seed-ratio=0.0 "$SWARM/t$set.torrent" > /dev/null 2>&1 &
    SWARM_PIDS+=("$!")
    wait_for_port "$port"
  done
  LEECH_PORT=$(free_port)
  COMMAND[T$set:haul]="$HAUL get -q --seed-time=0 --enable-dht=false --interface=127.0.0.1 --listen-port=0 -d . $SWARM/t$set.torrent"
  COMMAND[T$set:aria2c]="aria2c -q --no-conf --seed-time=0 --enable-dht=false --enable-dht6=false --bt-enable-lpd=false --enable-peer-exchange=false --listen-port=$LEECH_PORT --file-allocation=none -d . $SWARM/t$set.torrent"
done
stop_swarm() { kill "${SWARM_PIDS[@]}" 2>/dev/null; wait "${SWARM_PIDS[@]}" 2>/dev/null || true; }

# torrent_table SCENARIO: each tool's best and median wall, CPU and memory, against aria2c's.
torrent_table() {
  local scenario=$1 name
  echo
  echo "| tool | wall s | median wall s | CPU s | max RSS MiB | wall vs aria2c (median) | CPU vs aria2c |"
  echo "|---|---|---|---|---|---|---|"
  for name in haul aria2c; do
    echo "| $name | ${WALL[$scenario:$name]} | $(median "${WALLS[$scenario:$name]}") | ${CPU[$scenario:$name]} | $(echo "scale=1; ${RSS[$scenario:$name]} / 1024" | bc) | $(echo "scale=2; $(median "${WALLS[$scenario:$name]}") / $(median "${WALLS[$scenario:aria2c]}")" | bc)x | $(echo "scale=2; ${CPU[$scenario:$name]} / ${CPU[$scenario:aria2c]}" | bc)x |"
  done
}
