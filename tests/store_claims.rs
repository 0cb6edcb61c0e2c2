//! Several judges on one PostgreSQL database at a deadline, through the binary, on a real
//! server (tests/support/pg.rs): each claims its part of the games due, so that two
//! `tick`s at once process every game once, send each results mail once, and both do
//! part of the work; a judge killed while it holds claims leaves its games to the other at
//! once, and no claim of its behind; a judge stuck with its connection open keeps its
//! games until its lease runs out, and not before; a moderator's command waits less than
//! a second while two judges work through a deadline (docs/storage.md, "Several judges at
//! once").

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;
use std::process::{Child, Output, Stdio};
use std::time::{Duration, Instant};

use mail_parser::MessageParser;

use support::TempDir;
use support::due::{self, DUE};
use support::judge::{at, root, run, said};
use support::pg::Postgres;

/// Two judges' folders on one new database holding `games` games due at [`DUE`], the
/// claims lasting `lease` seconds; the database's URL.
fn two_judges(
    pg: &Postgres,
    name: &str,
    games: usize,
    pictures: bool,
    lease: u64,
) -> (String, [TempDir; 2]) {
    let url = pg.database();
    let config = format!("[store]\nurl = \"{url}\"\nlease_seconds = {lease}\n");
    let first = root(&format!("claims-{name}-a"), &config);
    let second = root(&format!("claims-{name}-b"), &config);
    let seed = root(&format!("claims-{name}-seed"), "");
    due::make_games(&seed, games, pictures);
    due::copy_into_database(&seed, &url);
    for dir in [&first, &second] {
        due::share_key(&seed, dir);
    }
    (url, [first, second])
}

fn tick(dir: &Path) -> Child {
    at(dir, DUE, &["tick", "--json"])
        .env("CORBEAU_STORE_WAIT", "5")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The games a `tick --json` says it processed.
fn processed(out: &Output) -> Vec<String> {
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .last()
        .unwrap_or_else(|| panic!("{}", said(out)));
    let value: serde_json::Value = serde_json::from_str(line).unwrap();
    value["processed"]
        .as_array()
        .unwrap()
        .iter()
        .map(|pair| pair[0].as_str().unwrap().to_string())
        .collect()
}

/// The results mails in the outbox folders of `dirs`: how many of each (game, recipient).
fn results_mails(dirs: &[&Path]) -> BTreeMap<(String, String), usize> {
    let mut found = BTreeMap::new();
    for dir in dirs {
        let Ok(entries) = fs::read_dir(dir.join("data/outbox")) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.extension().is_none_or(|x| x != "eml") {
                continue;
            }
            let raw = fs::read(&path).unwrap();
            let mail = MessageParser::default().parse(&raw).unwrap();
            if !mail.subject().is_some_and(|s| s.contains("Résultats")) {
                continue;
            }
            let game = mail
                .header_raw("X-Corbeau-Game")
                .unwrap()
                .trim()
                .to_string();
            let to = mail
                .to()
                .and_then(|to| to.first())
                .and_then(|a| a.address())
                .unwrap()
                .to_string();
            *found.entry((game, to)).or_insert(0) += 1;
        }
    }
    found
}

/// Every game of `games` has exactly one phase processed, and each of its four results
/// mails (three players, the moderator) was sent once over both judges; no claim is
/// left.
fn each_once(pg: &Postgres, url: &str, dirs: &[&Path], games: usize) {
    // One record a game: a game processed twice would have two (its next deadline is
    // days away).
    let records = pg.sql(url, "SELECT count(*) FROM phases");
    assert_eq!(records, games.to_string(), "phase records");
    let mails = results_mails(dirs);
    for i in 1..=games {
        for who in [
            format!("stark{i}@example.org"),
            format!("lannister{i}@example.org"),
            format!("baratheon{i}@example.org"),
            format!("mod{i}@example.org"),
        ] {
            let n = mails
                .get(&(format!("g{i}"), who.clone()))
                .copied()
                .unwrap_or(0);
            assert_eq!(n, 1, "results of g{i} to {who}");
        }
    }
    assert_eq!(mails.len(), games * 4, "{mails:?}");
    assert_eq!(pg.sql(url, "SELECT count(*) FROM claims"), "0");
    assert_eq!(pg.sql(url, "SELECT count(*) FROM outbox"), "0");
}

#[test]
fn two_judges_share_a_deadline_each_game_processed_and_mailed_once() {
    let pg = Postgres::start("claims-share");
    let games = 40;
    let (url, [first, second]) = two_judges(&pg, "share", games, true, 60);
    // Started one after the other, the first judge may do every game before the second
    // has opened the store: both are held at their first claim until both wait there,
    // then let go together.
    let mut gate = pg.session(&url);
    gate.run("BEGIN; LOCK TABLE claims IN ACCESS EXCLUSIVE MODE;");
    let judges = [tick(&first), tick(&second)];
    let give_up = Instant::now() + Duration::from_secs(60);
    loop {
        let waiting = pg.sql(
            &url,
            "SELECT count(*) FROM pg_stat_activity \
             WHERE application_name = 'corbeau' AND wait_event = 'relation' \
             AND query LIKE '%claims%'",
        );
        if waiting == "2" {
            break;
        }
        assert!(Instant::now() < give_up, "the judges never both waited");
        std::thread::sleep(Duration::from_millis(20));
    }
    gate.run("COMMIT;");
    let outs: Vec<Output> = judges
        .into_iter()
        .map(|j| j.wait_with_output().unwrap())
        .collect();
    for out in &outs {
        assert_eq!(out.status.code(), Some(0), "{}", said(out));
    }
    let (a, b) = (processed(&outs[0]), processed(&outs[1]));
    println!("first judge: {} games, second: {}", a.len(), b.len());
    assert!(
        !a.is_empty() && !b.is_empty(),
        "both judges work: {a:?} / {b:?}"
    );
    let all: BTreeSet<&String> = a.iter().chain(&b).collect();
    assert_eq!(
        all.len(),
        a.len() + b.len(),
        "a game processed twice: {a:?} / {b:?}"
    );
    assert_eq!(all.len(), games, "{a:?} / {b:?}");
    each_once(&pg, &url, &[&first, &second], games);
}

/// The live claims of the judge whose process id is `pid`: the games they name.
fn claims_of(pg: &Postgres, url: &str, pid: u32) -> Vec<String> {
    let text = pg.sql(
        url,
        &format!(
            "SELECT convert_from(game, 'UTF8') FROM claims \
             WHERE holder LIKE '{pid}/%' AND until > now() ORDER BY game"
        ),
    );
    text.lines()
        .map(str::to_string)
        .filter(|l| !l.is_empty())
        .collect()
}

/// A judge killed while it holds claims: its connection is gone with it, so its claims
/// are over at once, lease or not. The other judge (started right after, in its pass or
/// the next) processes the games it had not done, each once; and its claim forgets the dead
/// judge's claims on games no longer due, one it had committed but not yet given up
/// (killed between the two) among them, which nobody else would ever give up: no claim
/// is left.
#[test]
fn a_judge_killed_with_claims_leaves_its_games_to_the_other_at_once() {
    let pg = Postgres::start("claims-kill");
    let games = 40;
    let (url, [first, second]) = two_judges(&pg, "kill", games, false, 60);
    let mut doomed = tick(&first);
    let pid = doomed.id();
    // Killed the moment it holds claims: in the middle of its part of the deadline. The
    // other judge starts then: started together, it may take every game first (a judge
    // lets the store go to another that waits), and the first would die holding none.
    let give_up = Instant::now() + Duration::from_secs(30);
    let mut left = Vec::new();
    while Instant::now() < give_up {
        left = claims_of(&pg, &url, pid);
        if !left.is_empty() || doomed.try_wait().unwrap().is_some() {
            break;
        }
    }
    doomed.kill().unwrap();
    let dead = doomed.wait_with_output().unwrap();
    assert!(
        !left.is_empty(),
        "the judge never held a claim: {}",
        said(&dead)
    );
    let out = tick(&second).wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    // Long before the 60 s lease: the next pass finds nothing left to process, or what
    // the dead judge's connection still held (the server had not yet seen it gone) when
    // the first pass last claimed; its own claim forgets whatever claim the dead judge
    // left on a game it had done.
    let again = tick(&second).wait_with_output().unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", said(&again));
    println!(
        "killed holding {} claims; the other judge did {} games, then {}",
        left.len(),
        processed(&out).len(),
        processed(&again).len()
    );
    each_once(&pg, &url, &[&first, &second], games);
}

/// A judge alive but stuck (its connection still open) keeps its claims until the lease
/// runs out: here a claim on one game held by a connection the server has (its
/// checkpointer's), for 8 s. A pass within the lease leaves that game; one after it
/// processes it.
#[test]
fn a_stuck_judges_claim_holds_until_its_lease_runs_out() {
    let pg = Postgres::start("claims-stuck");
    let games = 3;
    let lease = 8;
    let (url, [first, _]) = two_judges(&pg, "stuck", games, false, lease);
    let stuck = pg
        .sql(
            &url,
            "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'",
        )
        .trim()
        .to_string();
    assert!(!stuck.is_empty(), "no checkpointer");
    let game = pg
        .sql(
            &url,
            "SELECT convert_from(value, 'UTF8') FROM wake ORDER BY key LIMIT 1",
        )
        .trim()
        .to_string();
    pg.sql(
        &url,
        &format!(
            "INSERT INTO claims (game, holder, until) VALUES (convert_to('{game}', 'UTF8'), \
             '1/{stuck}@0', now() + make_interval(secs => {lease})) \
             ON CONFLICT (game) DO UPDATE SET holder = EXCLUDED.holder, until = EXCLUDED.until"
        ),
    );
    let claimed_at = Instant::now();
    let out = tick(&first).wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    let done = processed(&out);
    assert!(
        claimed_at.elapsed() < Duration::from_secs(lease - 1),
        "too slow to tell"
    );
    assert!(
        !done.contains(&game),
        "{game} taken within its lease: {done:?}"
    );
    assert_eq!(done.len(), games - 1, "{done:?}");
    std::thread::sleep(Duration::from_secs(lease + 1).saturating_sub(claimed_at.elapsed()));
    let again = tick(&first).wait_with_output().unwrap();
    assert_eq!(again.status.code(), Some(0), "{}", said(&again));
    assert_eq!(processed(&again), [game]);
}

#[test]
fn a_moderators_command_waits_less_than_a_second_while_two_judges_share_a_deadline() {
    let pg = Postgres::start("claims-wait");
    let games = 60;
    let (url, [first, second]) = two_judges(&pg, "wait", games, true, 60);
    let show = || {
        let mut show = at(&first, DUE, &["game", "show", "g1", "--json"]);
        show.env("CORBEAU_STORE_WAIT", "5");
        let began = Instant::now();
        let out = run(&mut show, "");
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
        began.elapsed()
    };
    let alone = (0..3).map(|_| show()).min().unwrap();
    let mut judges = [tick(&first), tick(&second)];
    let mut waits = Vec::new();
    while judges.iter_mut().any(|j| j.try_wait().unwrap().is_none()) {
        waits.push(show().saturating_sub(alone));
        std::thread::sleep(Duration::from_millis(50));
    }
    for judge in judges {
        let out = judge.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", said(&out));
    }
    each_once(&pg, &url, &[&first, &second], games);
    assert!(waits.len() >= 5, "{waits:?}");
    let longest = waits.iter().max().copied().unwrap_or_default();
    println!(
        "{} commands, each {alone:?} alone; the longest wait {longest:?}",
        waits.len()
    );
    assert!(
        longest < Duration::from_secs(1),
        "the longest wait: {longest:?} of {waits:?}"
    );
}
