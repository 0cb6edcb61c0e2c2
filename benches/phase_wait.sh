#!/bin/sh
# A moderator's command beside a pass that processes many phases: G games (default 10)
# of seven houses, their deadlines passed, one `corbeau tick` that processes a phase of
# each (with its pictures and its results mails), and `corbeau game show` every 50 ms
# beside it. Prints how many commands ran, how many failed, their waits (ms), then the
# tick's time and what it did.
#   cargo build --release --all-targets && sh benches/phase_wait.sh target/release/corbeau 10
# ALONE=1 runs the tick without the commands (its time alone).
set -e
B=$(realpath "${1:-target/release/corbeau}"); G=${2:-10}
W=$(mktemp -d); cd "$W"
printf 'data_dir = "data"\n' > corbeau.toml
export CORBEAU_CONFIG="$W/corbeau.toml" CORBEAU_NOW="2026-03-23T08:00:00Z"
i=1; while [ $i -le "$G" ]; do
  "$B" game new "g$i" --players 7 --moderator "mod$i@example.org" >/dev/null
  for h in stark greyjoy lannister baratheon tyrell martell targaryen; do
    "$B" player add "g$i" $h "$h$i@example.org" --secret "secret-$h-2026" >/dev/null
  done
  "$B" game start "g$i" >/dev/null
  i=$((i+1)); done
export CORBEAU_NOW="2026-05-01T08:00:00Z"
( /usr/bin/time -f "tick: %e s" "$B" tick > tick.out 2>tick.err ) &
sleep 0.05; max=0; n=0; fail=0
while kill -0 $! 2>/dev/null; do
  [ -n "$ALONE" ] && { sleep 0.05; continue; }
  s=$(date +%s%N); "$B" game show g1 >/dev/null 2>>show.err || fail=$((fail+1))
  e=$(( ($(date +%s%N)-s)/1000000 )); n=$((n+1)); [ $e -gt $max ] && max=$e
  echo $e >> waits.txt; sleep 0.05
done
echo "games: $G, commands: $n, failed: $fail, max ms: $max"
[ -f waits.txt ] && sort -n waits.txt | awk '{a[NR]=$1} END {print "median ms", a[int(NR/2)+1], "p90 ms", a[int(NR*0.9)]}'
cat tick.err
cd / && rm -rf "$W"
