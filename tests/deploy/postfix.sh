#!/usr/bin/env bash
# The deploy guide, run (docs/deploy.md): every block of it tagged `sh deploy`, in order,
# as written, as root, in the source folder — the build of the package, its installation,
# the configuration, Postfix with the judge's alias, the moderator's commands, a mail to
# the judge —; then a turn played by mail through Postfix: the players read their secrets
# in their welcome mails in /var/mail, mail their orders with sendmail and get the
# judge's answers; the moderator processes the phase; the judge's unit sends the results.
#
# systemd is not PID 1 here (a container, a CI machine), so the block tagged `sh systemd`
# is not run: the test runs the installed unit's ExecStart= by hand instead, as the
# unit's User=/Group=, with its SupplementaryGroups= (drop-ins included), its
# WorkingDirectory= and NoNewPrivileges=, no capabilities and a bare environment; the
# unit's other sandboxing (ProtectSystem= and the like) needs systemd and is not tried.
#
# Needs root on Debian (it installs the package and Postfix, adds local users for the
# players, and changes Postfix's main.cf); anywhere else it says so and skips. What it
# finds in place (/etc/corbeau, /var/lib/corbeau, main.cf, /usr/local/bin/corbeau) is
# moved aside first and put back at the end, the package purged; CORBEAU_DEPLOY_KEEP=1
# leaves everything installed instead, to look at a failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
guide=docs/deploy.md
started=$(date +%s)

if [ "$(id -u)" != 0 ]; then
    echo "tests/deploy/postfix.sh: skipped: it must run as root (it installs a package and Postfix)"
    exit 0
fi
if [ ! -f /etc/debian_version ] || ! command -v apt-get >/dev/null; then
    echo "tests/deploy/postfix.sh: skipped: it needs Debian (apt-get, dpkg)"
    exit 0
fi

say() { printf '== deploy test: %s\n' "$*"; }
fail() {
    printf 'tests/deploy/postfix.sh: FAILED: %s\n' "$*" >&2
    if command -v postqueue >/dev/null; then
        echo "-- postqueue -p:" >&2
        postqueue -p >&2 || true
    fi
    if [ -s "$blocks/judge.log" ]; then
        echo "-- the judge's output:" >&2
        cat "$blocks/judge.log" >&2
    fi
    exit 1
}
# The mails of the guide's domain left in Postfix's queue (by a failed run): dropped, so
# that none is delivered later to what this test puts back.
drop_queued() {
    if command -v postqueue >/dev/null; then
        postqueue -p 2>/dev/null | awk '/^[0-9A-F]+[*!]? / { id = $1 } /@example\.org/ && id { print id }' |
            tr -d '*!' | sort -u | postsuper -d - >/dev/null 2>&1 || true
    fi
}

# The guide's blocks, one file each, numbered in order: `sh deploy` ones to run, and the
# `sh systemd` one, which marks where the judge starts.
blocks=$(mktemp -d /tmp/corbeau-deploy.XXXXXX)
awk -v dir="$blocks" '
    /^```/ {
        if (file != "") { close(file); file = ""; next }
        if ($0 == "```sh deploy") { n++; file = sprintf("%s/%02d.deploy", dir, n); printf "" > file; next }
        if ($0 == "```sh systemd") { n++; file = sprintf("%s/%02d.systemd", dir, n); printf "" > file; next }
        next
    }
    file != "" { print > file }
' "$guide"
ls "$blocks"/*.deploy >/dev/null 2>&1 || fail "no \`sh deploy\` block in $guide"
ls "$blocks"/*.systemd >/dev/null 2>&1 || fail "no \`sh systemd\` block in $guide"

# What was there before, moved aside and put back at the end (a corbeau built by hand
# in /usr/local/bin would come first in PATH).
moved="/etc/corbeau /var/lib/corbeau /etc/systemd/system/corbeau.service.d
    /etc/systemd/system/corbeau-tick.service.d /usr/local/bin/corbeau"
backup=$(mktemp -d /var/tmp/corbeau-deploy-backup.XXXXXX)
postfix_was_running=no
if command -v postfix >/dev/null && postfix status >/dev/null 2>&1; then
    postfix_was_running=yes
fi
for path in $moved; do
    if [ -e "$path" ]; then
        mkdir -p "$backup$(dirname "$path")"
        mv "$path" "$backup$path"
    fi
done
[ -f /etc/postfix/main.cf ] && cp -a /etc/postfix/main.cf "$backup/main.cf"
judge_pid=""
cleanup() {
    status=$?
    if [ -n "$judge_pid" ]; then
        # The judge and what it started (a sendmail waiting for its timeout).
        kill -KILL -- "-$judge_pid" 2>/dev/null || true
        wait "$judge_pid" 2>/dev/null || true
    fi
    drop_queued
    if [ "${CORBEAU_DEPLOY_KEEP:-}" = 1 ]; then
        say "left installed (CORBEAU_DEPLOY_KEEP=1); what was there before is in $backup"
        exit "$status"
    fi
    dpkg --purge corbeau >/dev/null 2>&1 || true
    # shellcheck disable=SC2086 # the list of paths, one word each
    rm -rf $moved
    for path in $moved; do
        if [ -e "$backup$path" ]; then mv "$backup$path" "$path"; fi
    done
    if [ -f "$backup/main.cf" ]; then cp -a "$backup/main.cf" /etc/postfix/main.cf; fi
    if command -v postfix >/dev/null; then
        if [ "$postfix_was_running" = yes ]; then
            postfix reload >/dev/null 2>&1 || true
        else
            postfix stop >/dev/null 2>&1 || true
        fi
    fi
    rm -rf "$backup" "$blocks"
    exit "$status"
}
trap cleanup EXIT

# The players and the moderator of the guide's game are local users of this machine, so
# that Postfix delivers their mail to /var/mail/USER; only the mail that comes after
# this point counts.
declare -A seen
for user in vous alice bob carol; do
    id "$user" >/dev/null 2>&1 || useradd --no-create-home --shell /usr/sbin/nologin "$user"
    seen[$user]=$(stat -c %s "/var/mail/$user" 2>/dev/null || echo 0)
done
new_mail() { tail -c +"$((${seen[$1]} + 1))" "/var/mail/$1" 2>/dev/null || true; }
# wait_for USER REGEX WHAT: the new mail of USER matches REGEX within a minute.
wait_for() {
    for _ in $(seq 60); do
        if new_mail "$1" | grep -Eq "$2"; then return 0; fi
        sleep 1
    done
    fail "no $3 in /var/mail/$1 after 60 s"
}

# cargo-deb is built by the guide's first block when missing; Rust's own tools must be
# there already (the tests were built with them).
command -v cargo >/dev/null || fail "cargo is not in PATH"
export PATH="$HOME/.cargo/bin:$PATH"

# systemd not being PID 1, no postinst starts Postfix: it is started after each block
# that leaves it installed and stopped, as the system would have.
postfix_up() {
    if command -v postfix >/dev/null && ! postfix status >/dev/null 2>&1; then
        postfix start >/dev/null 2>&1 || fail "postfix start"
    fi
}
postfix_up
drop_queued
for block in "$blocks"/*; do
    case "$block" in
    *.systemd)
        say "$(basename "$block"): needs systemd as PID 1; the unit's ExecStart runs by hand below"
        continue
        ;;
    esac
    say "$(basename "$block"): $(head -n 1 "$block")"
    if ! (cd "$root" && bash -euo pipefail "$block") 2>&1 | tee "$block.out"; then
        printf -- '-- the block:\n%s\n' "$(cat "$block")" >&2
        fail "the guide's block $(basename "$block") failed"
    fi
    postfix_up
done

# What the package installed, where docs/deploy.md says.
for path in /usr/bin/corbeau /usr/share/man/man1/corbeau.1.gz /usr/share/man/man1/corbeau-game-new.1.gz \
    /usr/share/man/man5/corbeau.toml.5.gz /usr/share/bash-completion/completions/corbeau \
    /usr/share/zsh/vendor-completions/_corbeau /usr/share/fish/vendor_completions.d/corbeau.fish \
    /usr/lib/systemd/system/corbeau.service /usr/lib/systemd/system/corbeau-tick.service \
    /usr/lib/systemd/system/corbeau-tick.timer /usr/lib/sysusers.d/corbeau.conf \
    /usr/lib/tmpfiles.d/corbeau.conf /usr/share/doc/corbeau/deploy.md; do
    [ -f "$path" ] || fail "the package installed no $path"
done
dpkg-query -W -f='${Conffiles}\n' corbeau | grep -q '^ /etc/corbeau/corbeau.toml ' ||
    fail "/etc/corbeau/corbeau.toml is not a conffile"
[ "$(stat -c '%U:%G %a' /etc/corbeau/corbeau.toml)" = "root:corbeau 640" ] ||
    fail "/etc/corbeau/corbeau.toml is $(stat -c '%U:%G %a' /etc/corbeau/corbeau.toml)"
[ "$(stat -c '%U:%G %a' /var/lib/corbeau)" = "corbeau:corbeau 750" ] ||
    fail "/var/lib/corbeau is $(stat -c '%U:%G %a' /var/lib/corbeau)"
if command -v readelf >/dev/null && readelf -S /usr/bin/corbeau | grep -Eq '\.(debug_info|symtab)'; then
    fail "/usr/bin/corbeau is not stripped"
fi
say "installed: /usr/bin/corbeau ($(stat -c %s /usr/bin/corbeau) bytes, stripped), man pages, completions, units"

# The guide's mail to the judge (AIDE, from the moderator) is answered through the alias;
# its `ingest` sent the mails the moderator's commands stored ("the game begins").
# (A bounce would quote the AIDE mail's own headers: the answer is the judge's mail.)
wait_for vous '^From: .*juge@example\.org' "answer from the judge to the guide's AIDE mail"
for user in alice bob carol; do
    wait_for "$user" '^From: .*juge@example\.org' "mail from the judge"
done
# Each `player add` of the guide printed its player's secret, for the moderator to pass
# on: the line after the one naming the player's address.
declare -A secret
for user in alice bob carol; do
    secret[$user]=$(cat "$blocks"/*.out | awk -v who="$user@example.org" '
        index($0, who) { found = 1; next }
        found && /secret/ { print $NF; exit }')
    [ -n "${secret[$user]}" ] || fail "no secret printed for $user by the guide's commands"
done
# The guide's `player add … --welcome` queued each player's welcome: it reached the
# player through Postfix with the secret the command printed.
for user in alice bob carol; do
    new_mail "$user" | grep -Eq "^(Votre secret :|Your secret:) ${secret[$user]}\$" ||
        fail "no welcome mail with its secret in /var/mail/$user"
done
say "the judge's mails came through Postfix, the welcomes with the secrets: ${secret[*]}"

# The players' orders, mailed to the judge with sendmail; each gets its answer.
orders() {
    printf 'From: %s@example.org\nTo: juge@example.org\nSubject: ordres\nMessage-ID: <orders-%s.%s@example.org>\n\n%s\n' \
        "$1" "$1" "$$" "$2" | /usr/sbin/sendmail -f "$1@example.org" juge@example.org
}
orders alice "PARTIE essai Stark ${secret[alice]}
A win -> cno
A moa -> gri"
orders bob "SIGNON essai Lannister ${secret[bob]}
A pie -> viv"
orders carol "PARTIE essai Baratheon ${secret[carol]}
A boi -> prt"
for user in alice bob carol; do
    wait_for "$user" "^In-Reply-To: <orders-$user\.$$@example\.org>" "answer to the orders"
done
say "each player's orders were answered"

# The moderator processes the phase; the results wait in the judge's outbox for its next
# pass, which the unit makes.
runuser -u corbeau -- corbeau --config /etc/corbeau/corbeau.toml game process essai ||
    fail "game process"
for user in alice bob carol; do
    if new_mail "$user" | grep -q '^:: counts:'; then
        fail "the results reached $user before the judge's unit ran"
    fi
done

# The unit, as systemd would start it (see the head of this file).
unit=/usr/lib/systemd/system/corbeau.service
[ -f "$unit" ] || fail "$unit is not installed"
# The unit's lines, then its drop-ins', which come after it.
unit_lines() {
    cat "$unit"
    cat /etc/systemd/system/corbeau.service.d/*.conf 2>/dev/null || true
}
setting() { unit_lines | sed -n "s/^$1=//p" | tail -n 1; }
exec_start=$(setting ExecStart)
user=$(setting User)
group=$(setting Group)
groups=$(unit_lines | sed -n 's/^SupplementaryGroups=//p' | tr -s ' \n' ',' | sed 's/,$//')
workdir=$(setting WorkingDirectory)
[ -n "$exec_start" ] && [ -n "$user" ] || fail "$unit: no ExecStart= or no User="
[ "$(setting NoNewPrivileges)" = yes ] || fail "$unit: NoNewPrivileges= is not yes"
say "systemd is not PID 1 here: running the unit's ExecStart by hand: $exec_start (user $user, groups ${groups:-none})"
group_args=(--clear-groups)
if [ -n "$groups" ]; then group_args=(--groups "$groups"); fi
# shellcheck disable=SC2086 # ExecStart's words, as systemd splits them
(cd "${workdir:-/}" && exec setsid env -i PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8 \
    setpriv --reuid "$user" --regid "${group:-$user}" "${group_args[@]}" --no-new-privs \
    --inh-caps=-all --bounding-set=-all -- $exec_start) >"$blocks/judge.log" 2>&1 &
judge_pid=$!
for user in alice bob carol; do
    wait_for "$user" '^:: counts:' "results mail"
done
kill -TERM "$judge_pid"
wait "$judge_pid" || fail "the judge did not stop cleanly on SIGTERM: $(cat "$blocks/judge.log")"
judge_pid=""
say "the results reached every house, sent by the unit's command"
say "passed in $(($(date +%s) - started)) s"
