#!/bin/bash
# One turn through the binary, for two builds side by side (docs/performance.md):
#   benches/turn.sh setup BIN DIR     a store in DIR with a running game of three
#   benches/turn.sh run BIN DIR [N]   a copy of it, N mails of the three players (orders,
#                                     ETAT, press to all) read by one `tick`; with PASS=1
#                                     the deadline is past, and the same tick processes the
#                                     phase and writes its results.
# With STORE=postgresql://… (an empty database, a new one for each run), `run` copies
# the store of DIR into it (`corbeau store copy`, not timed) and the tick works there.
# With STORE=postgres, the same on a server of the run's own: Debian's initdb and pg_ctl,
# a cluster in a temporary folder (owned by nobody when run as root), syncing its writes
# as a real server does, stopped and removed at the end.
# Either way the tick's own time is printed.
set -e
BIN=$(realpath "$2"); DIR=$3

# A throwaway PostgreSQL server and an empty database in it; STORE becomes its URL.
throwaway_postgres() {
  PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  PGAS=()
  [ -x "$PGBIN/initdb" ] || { echo "PostgreSQL is not installed: apt-get install -y postgresql" >&2; exit 1; }
  PGDIR=$(mktemp -d)
  if [ "$(id -u)" = 0 ]; then chown nobody: "$PGDIR"; PGAS=(runuser -u nobody --); fi
  local port
  port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "${PGAS[@]}" "$PGBIN/initdb" -D "$PGDIR/cluster" -U corbeau --auth=trust -E UTF8 >/dev/null
  "${PGAS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/cluster" -l "$PGDIR/log" -w \
    -o "-p $port -k $PGDIR -c listen_addresses=127.0.0.1" start >/dev/null
  trap '"${PGAS[@]}" "$PGBIN/pg_ctl" -D "$PGDIR/cluster" -m fast -w stop >/dev/null; rm -rf "$PGDIR"' EXIT
  "$PGBIN/createdb" -h 127.0.0.1 -p "$port" -U corbeau turn
  STORE="postgresql://corbeau@127.0.0.1:$port/turn"
}
case $1 in
setup)
  rm -rf "$DIR"; mkdir -p "$DIR"; cd "$DIR"
  export CORBEAU_NOW="2026-03-23T08:00:00Z"
  "$BIN" game new essai --players 3 --moderator moi@example.org >/dev/null
  for h in stark lannister baratheon; do
    "$BIN" player add essai $h "$h@example.org" --secret "secret-$h-2026" >/dev/null
  done
  "$BIN" game start essai >/dev/null
  "$BIN" tick >/dev/null 2>&1; rm -f corbeau-data/outbox/*.eml ;;
run)
  T=$(realpath "$DIR"); N=${4:-30}; W=$(mktemp -d); cp -a "$T/." "$W/"; cd "$W"
  i=0
  while [ $i -lt "$N" ]; do
    for h in stark lannister baratheon; do
      case $h in stark) o="A win -> cno";; lannister) o="A pie -> viv";; *) o="A boi -> prt";; esac
      printf 'From: %s@example.org\nSubject: ordres\nMessage-ID: <%s.%s@example.org>\n\nPARTIE essai %s secret-%s-2026\n%s\nETAT\nPRESSE A TOUS\nbonjour %s\nFIN PRESSE\n' \
        $h $i $h $h $h "$o" $i > corbeau-data/incoming/new/m$i.$h.eml
    done
    i=$((i+3))
  done
  if [ "$STORE" = postgres ]; then throwaway_postgres; fi
  if [ -n "$STORE" ]; then
    "$BIN" store copy --from corbeau-data --to "$STORE" >/dev/null
    rm -rf corbeau-data/db corbeau-data/conf corbeau-data/snap.*
    export CORBEAU_STORE=$STORE
  fi
  if [ -n "$PASS" ]; then export CORBEAU_NOW="2026-05-01T08:00:00Z"; else export CORBEAU_NOW="2026-03-23T09:00:00Z"; fi
  began=$(date +%s.%N)
  "$BIN" tick >/dev/null 2>&1
  echo "tick: $(echo "$(date +%s.%N) - $began" | bc) s" >&2
  echo "$(ls corbeau-data/outbox/*.eml | wc -l) mails written" >&2
  cd /; rm -rf "$W" ;;
esac
