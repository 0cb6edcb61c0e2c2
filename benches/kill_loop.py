#!/usr/bin/env python3
"""The judge killed at random moments over a queue of mail, then checked.

A game of seven houses is set up with the command line; MAILS mails are queued in the
configured Maildir (orders, press to several houses, sign-ons alone, help requests,
each with its own Message-ID and from a seated player): all at once, or with `--batch
B` between 0 and B of them before each run, so that runs also reach the processing of
games and the sending of the outbox. `corbeau tick` or `corbeau serve` (at random) is
then started and sent SIGKILL at a random moment (uniform between 0 and MAX_MS
milliseconds after its start), again and again until KILLS kills are done and every
mail is queued; a last `tick` runs to its end. The check: every mail handled exactly once (moved to `cur/`
flagged `S`, none flagged `FS`, none left in `new/`, no `quarantine.log`), one answer
per mail in the outbox folder, one copy of each press message per house it names.

    cargo build --release
    python3 benches/kill_loop.py target/release/corbeau --mails 1000 --kills 1000 --batch 2

With `--judges 2` and a PostgreSQL database (`--database URL`, or `--postgres` to start a
throwaway server from Debian's packages, as the tests do), two judges share the store:
each has its own folder and Maildir, every mail is delivered to both (as two mail
exchangers of one domain pass it on), and each round starts both, each killed at its own
random moment. The checks count the answers and press copies over both outbox folders,
and, with `--compare`, the game's state (`corbeau game show --json`, `corbeau history`)
must equal that of an uninterrupted run of the same mails on a store of its own.

    python3 benches/kill_loop.py target/release/corbeau --postgres --judges 2 \
        --mails 1000 --kills 400 --compare

Prints the figures and exits 1 when a check fails. `--keep` keeps the directory.
"""

import argparse
import json
import os
import pwd
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HOUSES = ["stark", "greyjoy", "lannister", "baratheon", "tyrell", "martell", "targaryen"]
ORDERS = {
    "stark": "A win H",
    "greyjoy": "F pyk H",
    "lannister": "A cas H",
    "baratheon": "A sto H",
    "tyrell": "A hig H",
    "martell": "A sun H",
    "targaryen": "A dra H",
}
GAME = "kill"


def secret(house):
    return f"secret-{house}-2026"


def address(house):
    return f"{house}@example.org"


def raw_mail(n, house, body):
    return (
        f"From: {address(house)}\r\nTo: juge@example.org\r\nSubject: m{n}\r\n"
        f"Message-ID: <m{n}@kill.example.org>\r\n\r\n{body}\r\n"
    ).encode()


def queue(rng, count):
    """The mails, by file name: raw text, and for press the houses it goes to and its token."""
    mails = []
    for n in range(count):
        house = rng.choice(HOUSES)
        sign_on = f"PARTIE {GAME} {house} {secret(house)}"
        kind = rng.choice(["orders", "press", "press", "sign-on", "help"])
        press = None
        if kind == "orders":
            body = f"{sign_on}\nORDRES\n{ORDERS[house]}\nFIN"
        elif kind == "press":
            to = rng.sample([h for h in HOUSES if h != house], rng.randint(2, 4))
            token = f"token-{n}-press"
            body = f"{sign_on}\nPRESSE À {', '.join(to)}\nNouvelle {token}.\nFIN PRESSE"
            press = (to, token)
        elif kind == "sign-on":
            body = sign_on
        else:
            body = "AIDE"
        mails.append((f"{1_700_000_000 + n}.M{n:05}P1.kill", raw_mail(n, house, body), press))
    return mails


def run(binary, env, *args):
    out = subprocess.run([binary, *args], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{' '.join(args)}: {out.returncode}\n{out.stdout}{out.stderr}")
    return out.stdout


def put(root, mail):
    name, raw, _ = mail
    tmp = os.path.join(root, "inbox/tmp", name)
    with open(tmp, "wb") as f:
        f.write(raw)
    os.rename(tmp, os.path.join(root, "inbox/new", name))


def folder(root):
    """A judge's folder: its configuration and its Maildir."""
    for sub in ["inbox/new", "inbox/cur", "inbox/tmp"]:
        os.makedirs(os.path.join(root, sub))
    with open(os.path.join(root, "corbeau.toml"), "w") as f:
        f.write(
            'data_dir = "data"\n[judge]\naddress = "juge@example.org"\n'
            'admin = "admin@example.org"\n[serve]\ninterval = 1\n'
            '[mail]\nmaildir = "inbox"\nreplies_per_hour = 0\n'
        )


def judge_env(base, root, database):
    env = dict(base)
    env["CORBEAU_CONFIG"] = os.path.join(root, "corbeau.toml")
    if database:
        env["CORBEAU_STORE"] = database
    return env


def setup(binary, roots, envs):
    """The game, set up through the first judge; the others share its key."""
    for root in roots:
        folder(root)
    env = envs[0]
    run(binary, env, "game", "new", GAME, "--players", "7", "--no-pictures")
    for house in HOUSES:
        run(binary, env, "player", "add", GAME, house, address(house), "--secret", secret(house))
    run(binary, env, "game", "start", GAME)
    for root in roots[1:]:
        shutil.copy(os.path.join(roots[0], "data.key"), os.path.join(root, "data.key"))


def kill_loop(binary, roots, envs, mails, batch, kills, max_ms, rng):
    """Starts tick or serve in every judge's folder at once, kills each at its own random
    moment; returns the kills done and the runs started, killed or not."""
    done = 0
    started = 0
    waiting = list(mails)
    while done < kills or waiting:
        for _ in range(rng.randint(0, batch) if batch else len(waiting)):
            if waiting:
                mail = waiting.pop(0)
                for root in roots:
                    put(root, mail)
        began = time.monotonic()
        children = []
        for root, env in zip(roots, envs):
            command = rng.choice(["tick", "serve"])
            children.append((
                began + rng.uniform(0, max_ms) / 1000,
                subprocess.Popen(
                    [binary, command], env=env, cwd=root,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                ),
            ))
            started += 1
        for moment, child in sorted(children, key=lambda c: c[0]):
            time.sleep(max(0.0, moment - time.monotonic()))
            if child.poll() is None:
                child.send_signal(signal.SIGKILL)
                done += 1
            child.wait()
    return done, started


def headers(text):
    head = text.split("\r\n\r\n", 1)[0]
    return head


def check(roots, mails, expected=None):
    """The problems found; `expected` gives the answers each mail should have (those of an
    uninterrupted run: a player's fourth help request in a day, say, is not answered),
    one each when not given."""
    problems = []
    names = sorted(name for name, _, _ in mails)
    files = []
    for root in roots:
        new = os.listdir(os.path.join(root, "inbox/new"))
        cur = os.listdir(os.path.join(root, "inbox/cur"))
        flagged = [c for c in cur if c.endswith(":2,FS")]
        seen = sorted(c.split(":2,")[0] for c in cur)
        if new:
            problems.append(f"{root}: {len(new)} mail(s) left in new/")
        if flagged:
            problems.append(f"{root}: {len(flagged)} mail(s) set aside: {flagged[:5]}")
        if seen != names:
            problems.append(
                f"{root}: cur/ holds {len(seen)} mail(s), {len(set(seen))} distinct, for {len(names)}"
            )
        if os.path.exists(os.path.join(root, "data/quarantine.log")):
            with open(os.path.join(root, "data/quarantine.log")) as f:
                problems.append("quarantine.log: " + f.read()[:500])
        outbox = os.path.join(root, "data/outbox")
        if os.path.isdir(outbox):
            files += [os.path.join(outbox, f) for f in os.listdir(outbox) if f.endswith(".eml")]
    answers = {}
    press = {}
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        head = headers(text)
        to = re.search(r"^To: (.*)$", head, re.M)
        to = to.group(1).strip() if to else ""
        reply = re.search(r"^In-Reply-To: <(m\d+)@kill\.example\.org>", head, re.M)
        if reply:
            answers[reply.group(1)] = answers.get(reply.group(1), 0) + 1
        for token in re.findall(r"token-\d+-press", text):
            if not reply:
                press[(token, to)] = press.get((token, to), 0) + 1
    for n in range(len(mails)):
        got = answers.get(f"m{n}", 0)
        if got != (1 if expected is None else expected.get(f"m{n}", 0)):
            problems.append(f"mail m{n}: {got} answer(s)")
    copies = 0
    for _, _, sent in mails:
        if sent is None:
            continue
        to, token = sent
        for house in to:
            got = press.get((token, address(house)), 0)
            copies += got
            if got != 1:
                problems.append(f"{token} to {house}: {got} copies")
    return problems, len(files), copies, answers


class Postgres:
    """A throwaway PostgreSQL server from Debian's packages (initdb and pg_ctl of the newest
    /usr/lib/postgresql/<version>/bin), its cluster in a temporary folder, on a free port
    of the loopback; run as `nobody` when this script runs as root."""

    def __init__(self, root):
        versions = sorted(
            int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit()
        ) if os.path.isdir("/usr/lib/postgresql") else []
        if not versions:
            sys.exit("PostgreSQL is not installed: apt-get install -y postgresql")
        self.bin = f"/usr/lib/postgresql/{versions[-1]}/bin"
        self.dir = os.path.join(root, "postgres")
        os.makedirs(self.dir)
        if os.geteuid() == 0:
            nobody = pwd.getpwnam("nobody")
            os.chown(self.dir, nobody.pw_uid, nobody.pw_gid)
        import socket
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        data = os.path.join(self.dir, "cluster")
        self.server("initdb", "-D", data, "-U", "corbeau", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.server(
            "pg_ctl", "-D", data, "-l", os.path.join(self.dir, "log"), "-w", "-o",
            f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1", "start",
        )
        self.databases = 0

    def server(self, program, *args, check=True):
        command = [os.path.join(self.bin, program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", "nobody", "--", *command]
        out = subprocess.run(command, cwd=self.dir, capture_output=True, text=True)
        if check and out.returncode != 0:
            sys.exit(f"{program}: {out.stdout}{out.stderr}")

    def database(self):
        self.databases += 1
        name = f"judge{self.databases}"
        subprocess.run(
            [os.path.join(self.bin, "createdb"), "-h", "127.0.0.1", "-p", str(self.port),
             "-U", "corbeau", name],
            check=True,
        )
        return f"postgresql://corbeau@127.0.0.1:{self.port}/{name}"

    def stop(self):
        self.server("pg_ctl", "-D", os.path.join(self.dir, "cluster"), "-m", "immediate",
                    "stop", check=False)


def state(binary, env):
    """What a moderator reads of the game: its state and its history."""
    return {
        "show": json.loads(run(binary, env, "game", "show", GAME, "--json")),
        "history": run(binary, env, "history", GAME),
    }


def uninterrupted(binary, root, base, mails, database):
    """The game's state after the same mails on a store of its own, in one tick."""
    env = judge_env(base, root, database)
    setup(binary, [root], [env])
    for mail in mails:
        put(root, mail)
    run(binary, env, "tick")
    _, _, _, answers = check([root], mails)
    return state(binary, env), answers


TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


def differences(a, b, path=""):
    """Where two states differ, but for the moments things were done (`serve` keeps the
    clock's, not CORBEAU_NOW's): deadlines are compared."""
    if isinstance(a, str) and isinstance(b, str) and TIME.match(a) and TIME.match(b):
        if not any(word in path for word in ("deadline", "wake")):
            return []
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in sorted(set(a) | set(b)):
            out += differences(a.get(k), b.get(k), f"{path}.{k}")
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = []
        for n, (x, y) in enumerate(zip(a, b)):
            out += differences(x, y, f"{path}[{n}]")
        return out
    return [] if a == b else [f"{path}: {str(a)[:80]} != {str(b)[:80]}"]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("binary", nargs="?", default="target/release/corbeau")
    p.add_argument("--mails", type=int, default=1000)
    p.add_argument("--kills", type=int, default=1000)
    p.add_argument("--max-ms", type=float, default=400)
    p.add_argument("--batch", type=int, default=0)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--keep", action="store_true")
    p.add_argument("--judges", type=int, default=1)
    p.add_argument("--database", default=None, help="a PostgreSQL URL to keep the store in")
    p.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL")
    p.add_argument("--compare", action="store_true",
                   help="compare the game with an uninterrupted run of the same mails")
    a = p.parse_args()
    if a.judges > 1 and not (a.database or a.postgres):
        sys.exit("several judges share a store on PostgreSQL: --database URL or --postgres")
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    binary = os.path.realpath(a.binary)
    root = tempfile.mkdtemp(prefix="corbeau-kill-")
    if a.postgres:
        os.chmod(root, 0o755)
    server = Postgres(root) if a.postgres else None
    database = server.database() if server else a.database
    base = {k: v for k, v in os.environ.items() if not k.startswith("CORBEAU_")}
    base["CORBEAU_STORE_WAIT"] = "5"
    if a.compare:
        # `tick` and the setup at one instant (`serve` keeps the clock's), so that the
        # deadlines of both runs are the same.
        base["CORBEAU_NOW"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    roots = [os.path.join(root, f"judge{n}") for n in range(a.judges)]
    envs = [judge_env(base, r, database) for r in roots]
    try:
        began = time.time()
        setup(binary, roots, envs)
        mails = queue(rng, a.mails)
        kills, started = kill_loop(binary, roots, envs, mails, a.batch, a.kills, a.max_ms, rng)
        finals = [
            subprocess.run([binary, "tick"], env=env, cwd=r, capture_output=True, text=True)
            for r, env in zip(roots, envs)
        ]
        elapsed = time.time() - began
        expected, answers = None, None
        if a.compare:
            calm = server.database() if server else None
            expected, answers = uninterrupted(binary, os.path.join(root, "calm"), base, mails, calm)
        problems, sent, copies, _ = check(roots, mails, answers)
        if a.compare:
            problems += [f"game: {d}" for d in differences(state(binary, envs[0]), expected)]
    finally:
        if server:
            server.stop()
    print(
        f"seed {seed}: {a.judges} judge(s) on {'PostgreSQL' if database else 'sled'}, "
        f"{a.mails} mails (batch {a.batch or 'all'}), {kills} SIGKILLs over {started} runs, "
        f"{elapsed:.0f} s; outbox: {sent} mails, {copies} press copies; "
        f"last tick exit {', '.join(str(f.returncode) for f in finals)}"
        + ("; the game equal to an uninterrupted run's" if a.compare else "")
    )
    for problem in problems[:40]:
        print("  " + problem)
    print(f"{len(problems)} problem(s)" if problems else "every mail handled once, every copy sent once")
    if a.keep:
        print(root)
    else:
        shutil.rmtree(root, ignore_errors=True)
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
