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

Prints the figures and exits 1 when a check fails. `--keep` keeps the directory.
"""

import argparse
import os
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


def setup(binary, root, env, count, rng):
    for sub in ["inbox/new", "inbox/cur", "inbox/tmp"]:
        os.makedirs(os.path.join(root, sub))
    with open(os.path.join(root, "corbeau.toml"), "w") as f:
        f.write(
            'data_dir = "data"\n[judge]\naddress = "juge@example.org"\n'
            'admin = "admin@example.org"\n[serve]\ninterval = 1\n'
            '[mail]\nmaildir = "inbox"\nreplies_per_hour = 0\n'
        )
    run(binary, env, "game", "new", GAME, "--players", "7", "--no-pictures")
    for house in HOUSES:
        run(binary, env, "player", "add", GAME, house, address(house), "--secret", secret(house))
    run(binary, env, "game", "start", GAME)
    return queue(rng, count)


def kill_loop(binary, root, env, mails, batch, kills, max_ms, rng):
    """Starts tick or serve, kills it after a random time; returns the kills done and the
    runs started, killed or not."""
    done = 0
    started = 0
    waiting = list(mails)
    while done < kills or waiting:
        for _ in range(rng.randint(0, batch) if batch else len(waiting)):
            if waiting:
                put(root, waiting.pop(0))
        command = rng.choice(["tick", "serve"])
        child = subprocess.Popen(
            [binary, command], env=env, cwd=root,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        started += 1
        time.sleep(rng.uniform(0, max_ms) / 1000)
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
            done += 1
        child.wait()
    return done, started


def headers(text):
    head = text.split("\r\n\r\n", 1)[0]
    return head


def check(root, mails):
    problems = []
    new = os.listdir(os.path.join(root, "inbox/new"))
    cur = os.listdir(os.path.join(root, "inbox/cur"))
    flagged = [c for c in cur if c.endswith(":2,FS")]
    seen = sorted(c.split(":2,")[0] for c in cur)
    names = sorted(name for name, _, _ in mails)
    if new:
        problems.append(f"{len(new)} mail(s) left in new/")
    if flagged:
        problems.append(f"{len(flagged)} mail(s) set aside: {flagged[:5]}")
    if seen != names:
        problems.append(f"cur/ holds {len(seen)} mail(s), {len(set(seen))} distinct, for {len(names)}")
    if os.path.exists(os.path.join(root, "data/quarantine.log")):
        with open(os.path.join(root, "data/quarantine.log")) as f:
            problems.append("quarantine.log: " + f.read()[:500])
    answers = {}
    press = {}
    outbox = os.path.join(root, "data/outbox")
    files = [f for f in os.listdir(outbox) if f.endswith(".eml")] if os.path.isdir(outbox) else []
    for name in files:
        with open(os.path.join(outbox, name), encoding="utf-8", errors="replace") as f:
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
        if got != 1:
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
    return problems, len(files), copies


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("binary", nargs="?", default="target/release/corbeau")
    p.add_argument("--mails", type=int, default=1000)
    p.add_argument("--kills", type=int, default=1000)
    p.add_argument("--max-ms", type=float, default=400)
    p.add_argument("--batch", type=int, default=0)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--keep", action="store_true")
    a = p.parse_args()
    seed = a.seed if a.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    binary = os.path.realpath(a.binary)
    root = tempfile.mkdtemp(prefix="corbeau-kill-")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CORBEAU_")}
    env["CORBEAU_CONFIG"] = os.path.join(root, "corbeau.toml")
    env["CORBEAU_STORE_WAIT"] = "5"
    began = time.time()
    mails = setup(binary, root, env, a.mails, rng)
    kills, started = kill_loop(binary, root, env, mails, a.batch, a.kills, a.max_ms, rng)
    final = subprocess.run([binary, "tick"], env=env, cwd=root, capture_output=True, text=True)
    problems, sent, copies = check(root, mails)
    print(
        f"seed {seed}: {a.mails} mails (batch {a.batch or 'all'}), {kills} SIGKILLs over {started} runs, "
        f"{time.time() - began:.0f} s; outbox: {sent} mails, {copies} press copies; "
        f"last tick exit {final.returncode}"
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
