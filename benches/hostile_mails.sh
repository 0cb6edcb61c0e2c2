#!/bin/bash
# One hostile mail at a time through `corbeau tick` on a fresh store (a running game with
# one processed phase): prints CPU, wall time and peak memory (docs/performance.md).
# Usage: benches/hostile_mails.sh CASE  (after `cargo build --release`); CASE is one of the
# names below.
BIN=${BIN:-target/release/corbeau}; BIN=$(realpath "$BIN")
W=${TMPDIR:-/tmp}/corbeau-hostile-mails; rm -rf $W; mkdir -p $W; cd $W
mod=$($BIN game new essai --players 3 --moderator moi@example.org | sed -n 's/.*: \([a-z0-9]*\)$/\1/p' | tail -1)
sec=$($BIN player add essai stark alice@example.org | sed -n 's/.*: \([a-z0-9]*\)$/\1/p' | tail -1)
$BIN player add essai lannister bob@example.org >/dev/null; $BIN player add essai baratheon carol@example.org >/dev/null
$BIN game start essai >/dev/null; $BIN orders essai stark <<<"A win -> cno" >/dev/null 2>&1 || true
$BIN game process essai >/dev/null; $BIN tick >/dev/null; rm -f corbeau-data/outbox/*.eml
hdr() { printf 'From: %s\nSubject: %s\nMessage-ID: <%s@example.org>\n\n' "$1" "${2:-corbeau}" "$RANDOM$RANDOM$RANDOM"; }
junk() { python3 -c "
import random,string
random.seed(1); n=0; out=[]
while n < $1:
    l=''.join(random.choice(string.ascii_letters+' ') for _ in range(random.randint(5,60))); out.append(l); n+=len(l)+1
print('\n'.join(out))"; }
case $1 in
  signon300) { hdr mallory@example.org; for i in $(seq 300); do echo "PARTIE essai Stark wrongsecret"; done; } ;;
  signon299) { hdr mallory@example.org; for i in $(seq 299); do echo "PARTIE essai Stark wrongsecret"; done; } ;;
  signon2000) { hdr mallory@example.org; for i in $(seq 2000); do echo "PARTIE essai Stark wrongsecret"; done; } ;;
  orders5000) { hdr alice@example.org; echo "PARTIE essai Stark $sec"; for i in $(seq 5000); do echo "A win -> cno"; done; } ;;
  orders299) { hdr alice@example.org; echo "PARTIE essai Stark $sec"; for i in $(seq 298); do echo "A win -> cno"; done; } ;;
  junk) { hdr mallory@example.org; junk 262000; } ;;
  junk-signed) { hdr alice@example.org; echo "PARTIE essai Stark $sec"; junk 261900; } ;;
  junk299-signed) { hdr alice@example.org; echo "PARTIE essai Stark $sec"; python3 -c "
import random,string
random.seed(1)
print('\n'.join(''.join(random.choice(string.ascii_letters+' ') for _ in range(random.randint(5,60))) for _ in range(299)))"; } ;;
  history299) { hdr alice@example.org; echo "PARTIE essai Stark $sec"; for i in $(seq 299); do echo "HISTORIQUE"; done; } ;;
  status299) { hdr alice@example.org; echo "PARTIE essai Stark $sec"; for i in $(seq 299); do echo "ETAT"; done; } ;;
  preview299) { hdr moi@example.org; echo "MODERATEUR essai $mod"; for i in $(seq 299); do echo "APERCU"; done; } ;;
  list299) { hdr alice@example.org; for i in $(seq 299); do echo "LISTE"; done; } ;;
  help299) { hdr alice@example.org; for i in $(seq 299); do echo "AIDE"; done; } ;;
  observe299) { hdr eve@example.org; for i in $(seq 299); do echo "OBSERVER essai"; done; } ;;
esac > corbeau-data/incoming/new/m.eml
/usr/bin/time -f "$1: user %U s, sys %S s, wall %e s, max RSS %M KiB" $BIN tick >/dev/null
echo "   mail $(wc -c < corbeau-data/incoming/cur/m.eml* 2>/dev/null || echo ?) bytes; reply $(cat corbeau-data/outbox/*.eml 2>/dev/null | wc -c) bytes; $(ls corbeau-data/outbox/*.eml 2>/dev/null | wc -l) mail(s)"
