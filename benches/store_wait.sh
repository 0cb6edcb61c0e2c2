#!/bin/sh
# A moderator's command beside a long pass: N mails (default 3000) in a Maildir, one
# `corbeau tick` over them, and `corbeau game list` every 100 ms beside it. Prints how
# many commands ran, how many failed, and their waits (ms), then the tick's time.
#   cargo build --release && sh benches/store_wait.sh target/release/corbeau 3000
# ALONE=1 runs the tick without the commands (its time alone).
set -e
B=$(realpath "${1:-target/release/corbeau}"); N=${2:-3000}
W=$(mktemp -d); cd "$W"
mkdir -p inbox/new inbox/cur inbox/tmp
printf 'data_dir = "data"\n[mail]\nmaildir = "inbox"\n' > corbeau.toml
i=1; while [ $i -le "$N" ]; do
  printf 'From: p%d@example.org\r\nSubject: t\r\nMessage-ID: <%d@x>\r\n\r\nAIDE\r\n' $i $i > inbox/new/$(printf '%05d' $i).m
  i=$((i+1)); done
export CORBEAU_CONFIG="$W/corbeau.toml"
"$B" game list >/dev/null
( /usr/bin/time -f "tick: %e s" "$B" tick > tick.out 2>tick.err ) &
sleep 0.3; max=0; n=0; fail=0
while kill -0 $! 2>/dev/null; do
  [ -n "$ALONE" ] && { sleep 0.2; continue; }
  s=$(date +%s%N); "$B" game list >/dev/null 2>>list.err || fail=$((fail+1))
  e=$(( ($(date +%s%N)-s)/1000000 )); n=$((n+1)); [ $e -gt $max ] && max=$e
  echo $e >> waits.txt; sleep 0.1
done
echo "commands: $n, failed: $fail, max ms: $max"
[ -f waits.txt ] && sort -n waits.txt | awk '{a[NR]=$1} END {print "median ms", a[int(NR/2)+1], "p90 ms", a[int(NR*0.9)]}'
cat tick.err
cd / && rm -rf "$W"
