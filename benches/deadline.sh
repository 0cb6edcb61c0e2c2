#!/bin/sh
# One deadline shared by many games (docs/performance.md): N games of three houses with a
# moderator, pictures on, all due at the same instant; one `corbeau tick` processes a phase
# of each and writes their results mails (the file transport: one .eml each). Prints the
# games due, the mails written, the tick's seconds, its CPU seconds and its peak memory.
#   sh benches/deadline.sh N [BIN]          BIN: target/release/corbeau by default
# The store of N games is made once (in-process, by the ignored test `bench_store` of
# tests/deadline.rs: through the binary a game takes a second to set up) and kept in
# ${DEADLINE_CACHE:-/tmp/corbeau-deadline}-N; each run copies it.
# CACHE_MB=M writes `[store] cache_mb = M` into the copy's corbeau.toml.
# DEADLINE_STORE=postgres runs the tick on PostgreSQL: a throwaway server (initdb and
# pg_ctl of Debian's newest /usr/lib/postgresql/*/bin, fsync on, on the loopback; run as
# `nobody` when the bench runs as root) gets the copy by `corbeau store copy` (not
# timed), and is stopped and removed after. The peak memory is the judge's, not the
# server's.
set -e
N=${1:?games}; B=$(realpath "${2:-target/release/corbeau}")
C=${DEADLINE_CACHE:-/tmp/corbeau-deadline}-$N
if [ ! -f "$C/ready" ]; then
  rm -rf "$C"
  CORBEAU_DEADLINE_DIR="$C" CORBEAU_DEADLINE_GAMES="$N" \
    cargo test -q --release --test deadline -- --ignored --exact bench_store >/dev/null
  touch "$C/ready"
fi
W=$(mktemp -d); cp -a "$C/." "$W/"; cd "$W"
[ -n "$CACHE_MB" ] && printf '[store]\ncache_mb = %s\n' "$CACHE_MB" >> corbeau.toml
export CORBEAU_CONFIG="$W/corbeau.toml" CORBEAU_NOW="2026-05-01T08:00:00Z"
if [ "${DEADLINE_STORE:-sled}" = postgres ]; then
  PG=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)
  as_server() { if [ "$(id -u)" = 0 ]; then runuser -u nobody -- "$@"; else "$@"; fi; }
  mkdir "$W/pg"; [ "$(id -u)" = 0 ] && chown nobody: "$W/pg"
  PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  as_server "$PG/initdb" -D "$W/pg/cluster" -U corbeau --auth=trust -E UTF8 --no-sync >/dev/null
  as_server "$PG/pg_ctl" -D "$W/pg/cluster" -l "$W/pg/log" -w \
    -o "-p $PORT -k $W/pg -c listen_addresses=127.0.0.1" start >/dev/null
  trap 'as_server "$PG/pg_ctl" -D "$W/pg/cluster" -m immediate -w stop >/dev/null; cd /; rm -rf "$W"' EXIT
  "$PG/createdb" -h 127.0.0.1 -p "$PORT" -U corbeau deadline
  URL="postgresql://corbeau@127.0.0.1:$PORT/deadline"
  "$B" store copy --from "$W/data" --to "$URL" >/dev/null
  export CORBEAU_STORE="$URL"
else
  trap 'cd /; rm -rf "$W"' EXIT
fi
/usr/bin/time -f "%e %M %U %S" -o time.txt "$B" tick > tick.out 2> tick.err || { cat tick.err; exit 1; }
read -r secs kb user sys < time.txt
mails=$(find data/outbox -name '*.eml' 2>/dev/null | wc -l)
echo "games due: $N, store: ${DEADLINE_STORE:-sled}, mails: $mails, seconds: $secs, peak MB: $((kb / 1024)), CPU user $user s, system $sys s, $(uptime | sed 's/.*load/load/')"
