//! The poison-mail guard sets aside only the mail that kills: `corbeau tick` and `corbeau
//! serve` killed with SIGKILL over a queue of mail — half the kills at the moment a mail
//! is taken in hand (the worst moment for the guard: two such kills in a row on one mail
//! set it aside unread before deaths were tried alone), half at random — then run to the
//! end: every mail handled once, none set aside, one answer each, one copy of each press
//! message per house it names. benches/kill_loop.py does the same at scale.
//!
//! The loop always reaches its count of kills, however fast the machine: a queue emptied
//! before the last kill (a fast pass gets through many mails before a random moment) is
//! filled again with a new batch, and every batch is checked at the end.

#![allow(clippy::unwrap_used)]

mod support;

use std::collections::HashMap;
use std::fs;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant, SystemTime};

use support::judge::{corbeau, deliver, files, mail, root, run, said};

const GAME: &str = "tuer";
const HOUSES: [&str; 7] = [
    "stark",
    "greyjoy",
    "lannister",
    "baratheon",
    "tyrell",
    "martell",
    "targaryen",
];
/// Mails a batch; a new batch is delivered whenever the queue is empty before the last
/// kill.
const MAILS: usize = 40;
const KILLS: usize = 30;
/// Runs at most: a run ends without a kill only when its pass got through the queue,
/// which is then filled again, so this bound is never reached but by a judge that
/// neither takes mail nor ends.
const RUNS: usize = KILLS * 20;

/// A mail of the queue: its Message-ID, and the houses its press goes to with its token
/// (none for the rest).
type Queued = (String, Option<(Vec<&'static str>, String)>);

fn secret(house: &str) -> String {
    format!("secret-{house}-2026")
}

fn ok(dir: &Path, args: &[&str]) {
    let out = run(corbeau(dir).args(args), "");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", said(&out));
}

/// A small random source: the moments need only differ from run to run.
struct Dice(u64);

impl Dice {
    fn next(&mut self, below: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % below
    }
}

/// A batch of the queue (`batch` numbers its mails apart from the other batches').
fn queue(dir: &Path, dice: &mut Dice, batch: usize) -> Vec<Queued> {
    let now = SystemTime::now();
    let mut press = Vec::new();
    for k in 0..MAILS {
        let n = batch * MAILS + k;
        let house = HOUSES[n % HOUSES.len()];
        let sign_on = format!("PARTIE {GAME} {house} {}", secret(house));
        let (body, sent) = match n % 4 {
            0 => (format!("{sign_on}\nORDRES\nA win H\nFIN"), None),
            1 | 2 => {
                let to: Vec<_> = (1..=2 + dice.next(2) as usize)
                    .map(|k| HOUSES[(n + k) % HOUSES.len()])
                    .collect();
                let token = format!("jeton-{n}-presse");
                (
                    format!(
                        "{sign_on}\nPRESSE À {}\nNouvelle {token}.\nFIN PRESSE",
                        to.join(", ")
                    ),
                    Some((to, token)),
                )
            }
            _ => (sign_on, None),
        };
        let raw = mail(
            &format!("{house}@example.org"),
            &format!("m{n}@kill.example.org"),
            &body,
        );
        deliver(
            dir,
            &format!("{}.M{n:04}P1.kill", 1_700_000_000 + n),
            &raw,
            now,
        );
        press.push((format!("<m{n}@kill.example.org>"), sent));
    }
    press
}

/// Kills `child` once the mark of the mail in hand differs from `before`, or after
/// `delay` when given; `false` if it ended first (the queue is done).
fn kill_when(dir: &Path, child: &mut Child, before: &str, delay: Option<Duration>) -> bool {
    let mark = dir.join("data/handling");
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(60) {
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        let due = match delay {
            Some(delay) => began.elapsed() >= delay,
            None => fs::read_to_string(&mark).is_ok_and(|m| !m.is_empty() && m != before),
        };
        // The queue is done (the last mail may have been the one in hand before, whose
        // mark does not change): a `serve` would wait for mail for ever.
        if delay.is_none() && files(&dir.join("inbox/new")).is_empty() {
            child.kill().unwrap();
            child.wait().unwrap();
            return false;
        }
        if due {
            child.kill().unwrap();
            child.wait().unwrap();
            return true;
        }
        std::thread::sleep(Duration::from_micros(500));
    }
    panic!("the judge neither ended nor took a mail in 60 s");
}

#[test]
fn random_kills_over_a_queue_lose_no_mail_and_set_none_aside() {
    let dir = root("killloop", "replies_per_hour = 0\n[serve]\ninterval = 1\n");
    ok(
        &dir,
        &["game", "new", GAME, "--players", "7", "--no-pictures"],
    );
    for house in HOUSES {
        let address = format!("{house}@example.org");
        let secret = secret(house);
        ok(
            &dir,
            &["player", "add", GAME, house, &address, "--secret", &secret],
        );
    }
    ok(&dir, &["game", "start", GAME]);
    let seed = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    let mut dice = Dice(seed);
    let mut press = queue(&dir, &mut dice, 0);
    let mut batches = 1;
    let mut kills = 0;
    let mut runs = 0;
    while kills < KILLS && runs < RUNS {
        if files(&dir.join("inbox/new")).is_empty() {
            press.extend(queue(&dir, &mut dice, batches));
            batches += 1;
        }
        runs += 1;
        let command = if dice.next(2) == 0 { "tick" } else { "serve" };
        let before = fs::read_to_string(dir.join("data/handling")).unwrap_or_default();
        let mut child = corbeau(&dir)
            .arg(command)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let delay = (kills % 2 == 1).then(|| Duration::from_millis(dice.next(300)));
        if kill_when(&dir, &mut child, &before, delay) {
            kills += 1;
        }
    }
    let out = run(corbeau(&dir).arg("tick"), "");
    let text = said(&out);
    assert_eq!(out.status.code(), Some(0), "seed {seed}: {text}");
    let context =
        format!("seed {seed}, {kills} kills over {runs} runs, batches: {batches}: {text}");
    assert_eq!(kills, KILLS, "{context}");
    assert!(files(&dir.join("inbox/new")).is_empty(), "{context}");
    let cur = files(&dir.join("inbox/cur"));
    assert_eq!(cur.len(), press.len(), "{context}");
    assert!(cur.iter().all(|f| f.ends_with(":2,S")), "{cur:?} {context}");
    assert!(!dir.join("data/quarantine.log").exists(), "{context}");
    let mut answers: HashMap<String, usize> = HashMap::new();
    let mut copies: HashMap<(String, String), usize> = HashMap::new();
    for entry in fs::read_dir(dir.join("data/outbox")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "eml") {
            continue;
        }
        let text = fs::read_to_string(&path).unwrap();
        let head = text.split("\r\n\r\n").next().unwrap_or_default();
        let header = |name: &str| {
            head.lines()
                .find_map(|l| l.strip_prefix(name))
                .map(str::trim)
                .unwrap_or_default()
                .to_string()
        };
        let reply = header("In-Reply-To:");
        if !reply.is_empty() {
            *answers.entry(reply).or_default() += 1;
            continue;
        }
        for (id, sent) in &press {
            if let Some((_, token)) = sent
                && text.contains(token.as_str())
            {
                *copies.entry((id.clone(), header("To:"))).or_default() += 1;
            }
        }
    }
    for (id, sent) in &press {
        assert_eq!(answers.get(id), Some(&1), "{id}: {context}");
        let Some((to, _)) = sent else { continue };
        for house in to {
            let key = (id.clone(), format!("{house}@example.org"));
            assert_eq!(copies.get(&key), Some(&1), "{key:?}: {context}");
        }
    }
    println!("{context}");
}
