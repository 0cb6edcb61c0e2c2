//! The store on PostgreSQL, through the binary as a mail server and a moderator drive it,
//! on a real server started from Debian's packages for each test (tests/support/pg.rs):
//! the same game on sled and on PostgreSQL reads the same; a game played by mail on
//! PostgreSQL; `store copy` from sled into PostgreSQL and back reads back equal, and
//! refuses a store that holds something; two judges on one database draining the same
//! 60 order mails at once answer each exactly once; a database that is down makes `tick`
//! and `ingest` exit 75 and loses nothing; tables of a newer corbeau are refused; two
//! judges killed at random moments over a queue lose no mail and double none, and leave
//! the game as an uninterrupted run does (benches/kill_loop.py, smaller); a moderator's
//! command waits less than a second while two judges drain a queue.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use chrono::{DateTime, TimeDelta, Utc};
use support::due;
use support::judge::{Clocked, at, body_of, deliver, mail, root, run, said};
use support::pg::Postgres;

const NOW: &str = "2026-03-23T08:00:00Z";
const GAME: &str = "partie";
const MODERATOR: &str = "mod@example.org";

/// The seven players of the classic map: house, address, secret, and one order each.
const PLAYERS: [(&str, &str, &str, &str); 7] = [
    (
        "england",
        "england@example.org",
        "brume-du-nord-7",
        "F lon H",
    ),
    ("france", "france@example.org", "coq-gaulois-42", "A par H"),
    ("germany", "germany@example.org", "aigle-noir-33", "A ber H"),
    ("austria", "austria@example.org", "danube-bleu-8", "A vie H"),
    ("italy", "italy@example.org", "botte-verte-9", "A rom H"),
    ("russia", "russia@example.org", "ours-blanc-10", "A mos H"),
    ("turkey", "turkey@example.org", "croissant-11", "A con H"),
];

fn t0() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc)
}

/// The configuration's lines that put the store in `url`.
fn on(url: &str) -> String {
    format!("[store]\nurl = \"{url}\"\n")
}

/// A judge's folder (on sled when `store` is empty) with a classic game of seven running,
/// pictures off.
fn judge(name: &str, store: &str) -> Clocked {
    let j = Clocked::new(root(&format!("pg-{name}"), store), t0());
    j.ok(&[
        "game",
        "new",
        GAME,
        "--variant",
        "classique",
        "--players",
        "7",
        "--moderator",
        MODERATOR,
        "--game-lang",
        "en",
        "--movement",
        "2d",
        "--at",
        "none",
        "--reminders",
        "none",
    ]);
    let seats: Vec<_> = PLAYERS
        .iter()
        .map(|(house, address, secret, _)| (*house, *address, *secret, "en"))
        .collect();
    j.seat_players(GAME, &seats);
    j.ok(&["game", "pictures", GAME, "non"]);
    j.ok(&["game", "start", GAME]);
    j
}

/// A player's mail of orders.
fn orders_of(player: usize) -> String {
    let (house, _, secret, order) = PLAYERS[player % PLAYERS.len()];
    format!("SIGNON {GAME} {house} {secret}\n{order}\n")
}

/// Sends a player's orders through `ingest`; the body of the one answer.
fn send(j: &mut Clocked, player: usize) -> String {
    let answers = j.post(PLAYERS[player].1, &orders_of(player));
    assert_eq!(answers.len(), 1, "answers: {answers:?}");
    body_of(&answers[0])
}

fn deadline(j: &Clocked) -> DateTime<Utc> {
    let shown = j.show(GAME);
    let text = shown["deadline"]
        .as_str()
        .unwrap_or_else(|| panic!("{shown}"));
    DateTime::parse_from_rfc3339(text)
        .unwrap()
        .with_timezone(&Utc)
}

/// What a moderator reads of a store: the game, its history and its export.
fn reading(j: &Clocked) -> BTreeMap<&'static str, String> {
    BTreeMap::from([
        ("show", j.ok(&["game", "show", GAME, "--json"])),
        ("history", j.ok(&["history", GAME])),
        ("export", j.ok(&["export", GAME])),
        ("list", j.ok(&["game", "list"])),
    ])
}

#[test]
fn the_same_game_reads_the_same_on_sled_and_on_postgresql() {
    let pg = Postgres::start("same");
    let mut on_sled = judge("same-sled", "");
    let mut on_pg = judge("same-pg", &on(&pg.database()));
    for j in [&mut on_sled, &mut on_pg] {
        assert!(send(j, 0).contains('✓'));
        let past = deadline(j) + TimeDelta::minutes(1);
        j.tick(past);
        assert!(send(j, 1).contains('✓'));
    }
    // The secrets' hashes are salted: what else a moderator reads is the same.
    for what in ["history", "list"] {
        assert_eq!(reading(&on_sled)[what], reading(&on_pg)[what], "{what}");
    }
    // The store is in the database: the judge's data directory holds no sled file.
    assert!(!on_pg.dir.join("data/db").exists());
    assert!(on_sled.dir.join("data/db").exists());
}

#[test]
fn a_game_is_played_by_mail_on_postgresql() {
    let pg = Postgres::start("mail");
    let mut j = judge("mail", &on(&pg.database()));
    for player in 0..PLAYERS.len() {
        let answer = send(&mut j, player);
        assert!(answer.contains('✓'), "{answer}");
    }
    // The same mail delivered again is not acted on twice.
    let again = run(
        &mut j.command(&["ingest"]),
        &mail(PLAYERS[0].1, "m1@example.net", &orders_of(0)),
    );
    assert_eq!(again.status.code(), Some(0), "{}", said(&again));
    let replies = support::judge::mails_to(&j.dir, PLAYERS[0].1)
        .into_iter()
        .filter(|m| m.contains("In-Reply-To: <m1@example.net>"))
        .count();
    assert_eq!(replies, 1);
    for (_, address, _, _) in PLAYERS {
        j.news(address);
    }
    let past = deadline(&j) + TimeDelta::minutes(1);
    j.tick(past);
    assert!(deadline(&j) > past, "the phase was not processed");
    for (_, address, _, _) in PLAYERS {
        assert!(!j.news(address).is_empty(), "no results to {address}");
    }
}

#[test]
fn store_copy_from_sled_into_postgresql_and_back_reads_back_equal() {
    let pg = Postgres::start("copy");
    let mut j = judge("copy", "");
    assert!(send(&mut j, 0).contains('✓'));
    let past = deadline(&j) + TimeDelta::minutes(1);
    j.tick(past);
    assert!(send(&mut j, 2).contains('✓'));
    let before = reading(&j);
    let url = pg.database();
    let data = j.dir.join("data").display().to_string();
    let back = j.dir.join("back").display().to_string();
    j.ok(&["store", "copy", "--from", &data, "--to", &url]);
    j.ok(&["store", "copy", "--from", &url, "--to", &back]);

    let mut in_pg = j.command(&["game", "show", GAME, "--json"]);
    in_pg.env("CORBEAU_STORE", &url);
    let out = run(&mut in_pg, "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), before["show"]);

    // The store copied back, read as the judge's own.
    let copy = Clocked::over(&j.dir, j.at);
    fs::rename(j.dir.join("data"), j.dir.join("first")).unwrap();
    fs::rename(j.dir.join("back"), j.dir.join("data")).unwrap();
    assert_eq!(reading(&copy), before);
    // The copy goes on where the original was: a mail it already answered is not
    // answered again, a new one is.
    let mut copy = copy;
    assert!(copy.post(PLAYERS[0].1, &orders_of(0)).is_empty());
    assert!(send(&mut j, 3).contains('✓'));

    // A store that holds something is never written over.
    let first = j.dir.join("first").display().to_string();
    let out = run(
        &mut j.command(&["store", "copy", "--from", &first, "--to", &url]),
        "",
    );
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(said(&out).contains("not empty"), "{}", said(&out));
}

/// Runs `tick` in every judge's folder at once; their outputs.
fn ticks_at_once(dirs: &[&Path], now: &str) -> Vec<std::process::Output> {
    let children: Vec<_> = dirs
        .iter()
        .map(|dir| {
            at(dir, now, &["tick"])
                .env("CORBEAU_STORE_WAIT", "5")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect()
}

/// Every answer in the outbox folders of `dirs`, by the Message-ID it answers.
fn answers(dirs: &[&Path]) -> BTreeMap<String, usize> {
    let mut by_id = BTreeMap::new();
    for dir in dirs {
        let Ok(entries) = fs::read_dir(dir.join("data/outbox")) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let text = fs::read_to_string(entry.path()).unwrap_or_default();
            let Some(id) = text
                .lines()
                .find_map(|l| l.strip_prefix("In-Reply-To: <"))
                .and_then(|l| l.strip_suffix('>'))
            else {
                continue;
            };
            *by_id.entry(id.to_string()).or_insert(0) += 1;
        }
    }
    by_id
}

#[test]
fn two_judges_on_one_database_answer_each_of_60_mails_exactly_once() {
    let pg = Postgres::start("two");
    let url = pg.database();
    let first = judge("two-a", &on(&url));
    let second = Clocked::new(root("pg-two-b", &on(&url)), t0());
    // Both judges keep the same key for the sieves of the secrets.
    due::share_key(&first.dir, &second.dir);
    let dirs = [first.dir.as_path(), second.dir.as_path()];
    // Every mail reaches both judges, as two mail exchangers of one domain would pass
    // it on: each judge must see that the other answered it.
    let modified = SystemTime::now();
    let mut ids = Vec::new();
    for n in 0..60 {
        let player = n % PLAYERS.len();
        let id = format!("order-{n}@example.net");
        let raw = mail(PLAYERS[player].1, &id, &orders_of(player));
        for dir in dirs {
            deliver(dir, &format!("{n:03}.mail"), &raw, modified);
        }
        ids.push(id);
    }
    let now = t0().to_rfc3339();
    for pass in 0..3 {
        for out in ticks_at_once(&dirs, &now) {
            assert_eq!(out.status.code(), Some(0), "pass {pass}: {}", said(&out));
        }
    }
    let answered = answers(&dirs);
    for id in &ids {
        assert_eq!(answered.get(id), Some(&1), "{id}: {answered:?}");
    }
    for dir in dirs {
        let left = fs::read_dir(dir.join("inbox/new")).unwrap().count();
        assert_eq!(left, 0, "mails left in {}", dir.display());
    }
    // Nothing left to send: the outbox rows were all handed to a transport.
    let mut outbox = first.command(&["outbox", "--json"]);
    let out = run(&mut outbox, "");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[]");
}

#[test]
fn a_database_down_makes_tick_and_ingest_exit_75_and_loses_nothing() {
    let pg = Postgres::start("down");
    let mut j = judge("down", &on(&pg.database()));
    let raw = mail(PLAYERS[1].1, "while-down@example.net", &orders_of(1));
    deliver(&j.dir, "down.mail", &raw, SystemTime::now());
    pg.stop();

    let out = run(&mut j.command(&["tick"]), "");
    assert_eq!(out.status.code(), Some(75), "{}", said(&out));
    assert!(
        said(&out).contains("cannot reach the database"),
        "{}",
        said(&out)
    );
    let piped = mail(PLAYERS[2].1, "piped@example.net", &orders_of(2));
    let out = run(&mut j.command(&["ingest"]), &piped);
    assert_eq!(out.status.code(), Some(75), "{}", said(&out));

    pg.start_server();
    // The mail server tries the piped mail again; the pass takes the delivered one.
    let out = run(&mut j.command(&["ingest"]), &piped);
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    j.tick(j.at);
    let answered = answers(&[j.dir.as_path()]);
    assert_eq!(
        answered.get("while-down@example.net"),
        Some(&1),
        "{answered:?}"
    );
    assert_eq!(answered.get("piped@example.net"), Some(&1), "{answered:?}");
    assert!(send(&mut j, 0).contains('✓'));
}

#[test]
fn tables_of_a_newer_corbeau_are_refused_and_left_alone() {
    let pg = Postgres::start("newer");
    let url = pg.database();
    let j = judge("newer", &on(&url));
    pg.sql(&url, "UPDATE corbeau_schema SET version = 99");
    let out = run(&mut j.command(&["game", "list"]), "");
    assert_eq!(out.status.code(), Some(1), "{}", said(&out));
    assert!(said(&out).contains("newer corbeau"), "{}", said(&out));
    assert_eq!(pg.sql(&url, "SELECT version FROM corbeau_schema"), "99");
    assert_eq!(pg.sql(&url, "SELECT count(*) FROM games"), "1");
}

/// A database of an older corbeau is brought to this layout at its first opening, its
/// rows kept: layout 1 had no claims, layout 2 compressed the outbox's mails, layout 3
/// kept each mail's picture with it (no table of pieces).
#[test]
fn tables_of_an_older_corbeau_are_brought_up_to_date_and_keep_their_rows() {
    let pg = Postgres::start("older");
    let url = pg.database();
    let j = judge("older", &on(&url));
    let outbox_storage = "SELECT attstorage FROM pg_attribute \
                          WHERE attrelid = 'outbox'::regclass AND attname = 'value'";
    assert_eq!(pg.sql(&url, outbox_storage), "e");
    let pieces_storage = outbox_storage.replace("'outbox'", "'pieces'");
    assert_eq!(pg.sql(&url, &pieces_storage), "e");
    pg.sql(
        &url,
        "DROP TABLE claims; DROP TABLE pieces; DROP TABLE piece_counts; \
         ALTER TABLE outbox ALTER COLUMN value SET STORAGE EXTENDED; \
         UPDATE corbeau_schema SET version = 1",
    );
    let out = run(&mut j.command(&["game", "list"]), "");
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    assert_eq!(pg.sql(&url, "SELECT version FROM corbeau_schema"), "4");
    assert_eq!(pg.sql(&url, outbox_storage), "e");
    assert_eq!(pg.sql(&url, &pieces_storage), "e");
    assert_eq!(pg.sql(&url, "SELECT count(*) FROM claims"), "0");
    assert_eq!(pg.sql(&url, "SELECT count(*) FROM piece_counts"), "0");
    assert_eq!(pg.sql(&url, "SELECT count(*) FROM games"), "1");
}

#[test]
fn two_judges_killed_at_random_on_one_database_lose_no_mail_and_double_none() {
    let pg = Postgres::start("kill");
    let url = pg.database();
    let seed = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos()
        % 1_000_000;
    // The bench itself, smaller: two judges (`tick` or `serve`) on the database, each
    // killed with SIGKILL at its own random moment, 40 kills over a queue of 100 mails
    // delivered to both; then every mail answered once over both, every press copy sent
    // once, and the game equal to an uninterrupted run's on sled.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/kill_loop.py");
    // The script's folder is made under this one, which goes when the test ends, even
    // if the script stops half-way without removing its own.
    let scratch = support::TempDir::new("pg", "kill");
    let out = Command::new("python3")
        .env("TMPDIR", scratch.path())
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_corbeau"))
        .args(["--database", &url, "--judges", "2", "--compare"])
        .args([
            "--mails",
            "100",
            "--kills",
            "40",
            "--seed",
            &seed.to_string(),
        ])
        .output()
        .unwrap();
    let text = said(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("every mail handled once, every copy sent once"),
        "{text}"
    );
    println!("{text}");
}

#[test]
fn a_moderators_command_waits_less_than_a_second_while_two_judges_drain() {
    let pg = Postgres::start("wait");
    let url = pg.database();
    // Each player sends the same orders again and again: no cap on answers.
    let config = format!(
        "replies_per_hour = 0\n{}[mail.caps]\nsame_text_per_hour = 0\n",
        on(&url)
    );
    let first = judge("wait-a", &config);
    let second = Clocked::new(root("pg-wait-b", &config), t0());
    due::share_key(&first.dir, &second.dir);
    let dirs = [first.dir.as_path(), second.dir.as_path()];
    let modified = SystemTime::now();
    for n in 0..300 {
        let player = n % PLAYERS.len();
        let raw = mail(
            PLAYERS[player].1,
            &format!("busy-{n}@example.net"),
            &orders_of(player),
        );
        for dir in dirs {
            deliver(dir, &format!("{n:03}.mail"), &raw, modified);
        }
    }
    // What the command costs alone (the process, the connection, the reading), the
    // least of three: what it takes beyond this while the judges work is its wait.
    let show = || {
        let mut show = first.command(&["game", "show", GAME, "--json"]);
        show.env("CORBEAU_STORE_WAIT", "5");
        let began = Instant::now();
        let out = run(&mut show, "");
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
        began.elapsed()
    };
    let alone = (0..3).map(|_| show()).min().unwrap();
    let now = t0().to_rfc3339();
    let mut judges: Vec<_> = dirs
        .iter()
        .map(|dir| {
            at(dir, &now, &["tick"])
                .env("CORBEAU_STORE_WAIT", "5")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    // The moderator's commands, one after the other while both judges work.
    let mut waits = Vec::new();
    while judges.iter_mut().any(|j| j.try_wait().unwrap().is_none()) {
        waits.push(show().saturating_sub(alone));
        std::thread::sleep(Duration::from_millis(50));
    }
    for judge in judges {
        let out = judge.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    }
    let left: usize = dirs
        .iter()
        .map(|d| fs::read_dir(d.join("inbox/new")).unwrap().count())
        .sum();
    assert_eq!(left, 0);
    let answered = answers(&dirs);
    assert_eq!(answered.len(), 300, "{answered:?}");
    assert!(answered.values().all(|n| *n == 1), "{answered:?}");
    // Enough commands to have met the judges in every step of their passes.
    assert!(waits.len() >= 5, "{waits:?}");
    let longest = waits.iter().max().copied().unwrap_or_default();
    assert!(
        longest < Duration::from_secs(1),
        "the longest wait: {longest:?} of {waits:?}"
    );
    println!(
        "{} commands, each {alone:?} alone; the longest wait {longest:?}",
        waits.len()
    );
}
