#!/bin/sh
# One deadline shared by many games (docs/performance.md): N games of three houses with a
# moderator, pictures on, all due at the same instant; one `corbeau tick` processes a phase
# of each and writes their results mails (the file transport: one .eml each). Prints the
# games due, the mails written, the tick's seconds and its peak memory.
#   sh benches/deadline.sh N [BIN]          BIN: target/release/corbeau by default
# The store of N games is made once (in-process, by the ignored test `bench_store` of
# tests/deadline.rs: through the binary a game takes a second to set up) and kept in
# ${DEADLINE_CACHE:-/tmp/corbeau-deadline}-N; each run copies it.
# CACHE_MB=M writes `[store] cache_mb = M` into the copy's corbeau.toml.
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
/usr/bin/time -f "%e %M %U %S" -o time.txt "$B" tick > tick.out 2> tick.err || { cat tick.err; exit 1; }
read -r secs kb user sys < time.txt
mails=$(find data/outbox -name '*.eml' 2>/dev/null | wc -l)
echo "games due: $N, mails: $mails, seconds: $secs, peak MB: $((kb / 1024)), CPU user $user s, system $sys s"
cd / && rm -rf "$W"
