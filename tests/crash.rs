//! Crash consistency: `corbeau tick`, `game process` and `orders submit` killed with
//! SIGKILL at random moments, then run again. Whatever the moment, the store must hold
//! each game either before or after its phase — never a mix, never a phase applied twice,
//! never an order lost once its command said it was stored.

#![allow(clippy::unwrap_used, clippy::field_reassign_with_default)]

mod support;

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::{Action, NoticeKind, OrderLines, Settings, SubmitMode, hash_secret};
use corbeau::lang::Lang;
use corbeau::service::Service;

use support::TempDir;
use support::backend;
use support::world::{GameSpec, World};

const GAMES: usize = 24;
const ROUNDS: u64 = 60;
const HOUSES: [&str; 3] = ["stark", "lannister", "baratheon"];
const ORDERS: [&str; 3] = ["A win -> cno\nA moa -> gri", "A pie -> viv", "A boi -> prt"];

fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// Past every game's first deadline.
fn later() -> DateTime<Utc> {
    start() + TimeDelta::days(3)
}

fn temp_dir(name: &str) -> TempDir {
    TempDir::new("crash", name)
}

/// A stopped judge whose store (`config.data_dir`) holds `GAMES` running games of three
/// players, each house with its orders in.
fn seed_store(name: &str) -> World {
    let mut w = World::new("crash", name);
    let hash = hash_secret("secret-1234").unwrap();
    let addresses: Vec<String> = HOUSES.iter().map(|h| format!("{h}@example.org")).collect();
    let players: Vec<(&str, &str, Lang)> = HOUSES
        .iter()
        .zip(&addresses)
        .map(|(house, address)| (*house, address.as_str(), Lang::Fr))
        .collect();
    for g in 0..GAMES {
        let id = format!("g{g:02}");
        let spec = GameSpec {
            id: id.clone(),
            name: None,
            variant: "westeros".into(),
            players: 3,
            // A picture costs ~150 ms to draw: one game carries its own (the mails with a
            // picture go through the same crashes), the others none, so that a tick of
            // 24 games stays short enough for 60 rounds.
            settings: Settings {
                pictures: g == 0,
                ..Settings::default()
            },
            moderator: None,
        };
        w.create_game(spec, start());
        w.seat_sharing(&id, &players, &hash, true, start());
        let orders = HOUSES
            .iter()
            .zip(ORDERS)
            .map(|(house, orders)| Action::Submit {
                house: (*house).into(),
                lines: OrderLines::numbered(orders),
                mode: SubmitMode::Replace,
                source: "test".into(),
                expected: None,
            })
            .collect();
        w.act_all(&id, orders, start());
    }
    w.close();
    w
}

fn corbeau(dir: &Path, now: DateTime<Utc>, args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    backend::for_command(&mut cmd, dir);
    cmd.args(args)
        .arg("--data")
        .arg(dir)
        .env("CORBEAU_NOW", now.to_rfc3339())
        .env_remove("CORBEAU_CONFIG")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// Runs a command and kills it with SIGKILL after `delay` unless it ended before; returns
/// whether it ended by itself with success.
fn run_and_kill(mut cmd: Command, input: &str, delay: Duration) -> bool {
    let mut child = cmd.spawn().unwrap();
    if let Some(mut stdin) = child.stdin.take() {
        use std::io::Write;
        let _ = stdin.write_all(input.as_bytes());
    }
    let deadline = Instant::now() + delay;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        if Instant::now() >= deadline {
            child.kill().unwrap();
            child.wait().unwrap();
            return false;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// A small deterministic generator: the delays are random-looking but each run is the same.
fn delay(round: u64, max_ms: u64) -> Duration {
    let x = round
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    Duration::from_micros((x >> 33) % (max_ms * 1000))
}

/// How long a full `tick` over the seeded store takes here, to kill within it: the
/// shortest of three, since one run slowed by the other tests of the binary would put
/// every kill after the tick's end.
fn tick_time(seed: &Path) -> Duration {
    (0..3)
        .map(|n| {
            let dir = temp_dir(&format!("timing-{n}"));
            backend::copy(seed, &dir);
            let started = Instant::now();
            assert!(
                corbeau(&dir, later(), &["tick"])
                    .status()
                    .unwrap()
                    .success()
            );
            started.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// The window the kills of a short command (`args`, `input` on its standard input) land
/// in, in milliseconds: 60, or twice the command's longest run of three when that is
/// longer (a store in PostgreSQL is reached over a connection first; a loaded machine
/// slows some runs), so that some runs end before their kill and some do not.
fn kill_window(seed: &Path, now: DateTime<Utc>, args: &[&str], input: &str) -> u64 {
    let whole = (0..3)
        .map(|n| {
            let dir = temp_dir(&format!("window-{}-{n}", args.join("-")));
            backend::copy(seed, &dir);
            let started = Instant::now();
            assert!(run_and_kill(
                corbeau(&dir, now, args),
                input,
                Duration::from_secs(60)
            ));
            started.elapsed()
        })
        .max()
        .unwrap_or_default();
    (2 * whole.as_millis() as u64 + 1).max(60)
}

/// Every game is whole: its history matches its phase count, the position is the last
/// record's, the orders of the processed phase are all in its record, and each processed
/// phase was told once: a results notice still queued, or the results mails to its three
/// players (in the store's outbox or already in the outbox folder).
fn check_store(dir: &Path, expect_processed: Option<bool>) -> usize {
    check_service(&backend::open_service(dir), expect_processed)
}

/// The Message-IDs of the results mails of each game, in the store's outbox and in the
/// outbox folder (a mail may be in both after a crash: the same id).
fn results_mails(service: &Service) -> HashMap<String, HashSet<String>> {
    let mut mails: HashMap<String, HashSet<String>> = HashMap::new();
    for (_, mail) in service.outbox().unwrap() {
        if mail
            .header("Subject")
            .is_some_and(|s| s.contains("Résultats"))
        {
            let game = mail.game.clone().unwrap_or_default();
            mails.entry(game).or_default().insert(mail.message_id);
        }
    }
    let folder = service.data_dir().join("outbox");
    for entry in std::fs::read_dir(folder).into_iter().flatten() {
        let raw = std::fs::read(entry.unwrap().path()).unwrap_or_default();
        let parsed = mail_parser::MessageParser::default().parse(&raw);
        let Some(m) = parsed else { continue };
        if m.subject().is_some_and(|s| s.contains("Résultats")) {
            let game = m
                .header_raw("X-Corbeau-Game")
                .unwrap_or_default()
                .trim()
                .to_string();
            let id = m.message_id().unwrap_or_default().to_string();
            mails.entry(game).or_default().insert(id);
        }
    }
    mails
}

fn check_service(service: &Service, expect_processed: Option<bool>) -> usize {
    let notices = service.pending_notices().unwrap();
    let mails = results_mails(service);
    let mut processed = 0;
    for game in service.games().unwrap() {
        let records = service.history(game.id()).unwrap();
        assert_eq!(
            records.len() as u32,
            game.played(),
            "{}: history and phase count",
            game.id()
        );
        let results: Vec<u32> = notices
            .iter()
            .filter(|(_, n)| n.game == game.id())
            .filter_map(|(_, n)| match n.kind {
                NoticeKind::Results { index } => Some(index),
                _ => None,
            })
            .collect();
        let sent = mails.get(game.id()).map_or(0, HashSet::len);
        assert!(
            results.iter().all(|i| *i < game.played()),
            "{}: results notices {results:?}",
            game.id()
        );
        assert_eq!(
            results.len() * HOUSES.len() + sent,
            game.played() as usize * HOUSES.len(),
            "{}: results told once (notices {results:?}, mails {sent})",
            game.id()
        );
        match records.last() {
            None => {
                // Still before the phase: every house's orders are there.
                for (house, orders) in HOUSES.iter().zip(ORDERS) {
                    let seat = game.seat(house).unwrap();
                    let texts: Vec<&str> = seat
                        .orders()
                        .iter()
                        .map(|o| o.order.text.as_str())
                        .collect();
                    assert_eq!(
                        texts,
                        orders.lines().collect::<Vec<_>>(),
                        "{}: {house}",
                        game.id()
                    );
                }
            }
            Some(record) => {
                processed += 1;
                assert_eq!(game.played(), 1, "{}: processed once", game.id());
                assert_eq!(record.index, 0);
                assert_eq!(
                    record.position_after,
                    game.position().clone(),
                    "{}: position",
                    game.id()
                );
                assert_eq!(
                    record.submissions.len(),
                    HOUSES.len(),
                    "{}: orders kept",
                    game.id()
                );
                assert_eq!(
                    record.orders.len(),
                    HOUSES.len(),
                    "{}: orders adjudicated",
                    game.id()
                );
                assert!(
                    game.seats().iter().all(|s| s.orders().is_empty()),
                    "{}: new phase",
                    game.id()
                );
            }
        }
        if let Some(done) = expect_processed {
            assert_eq!(!records.is_empty(), done, "{}", game.id());
        }
    }
    processed
}

#[test]
fn tick_killed_at_any_moment_processes_every_game_exactly_once() {
    let world = seed_store("seed-tick");
    let seed = &world.config.data_dir;
    let full = tick_time(seed);
    // Processing the games is a short stretch at the start of a tick (the mails and the
    // picture take the rest), so every other round kills within a window that narrows to
    // the earliest moment a tick was seen past its processing: the kills land there as
    // often as in the mailing, however loaded the machine.
    let mut narrowed = full.as_millis() as u64 + 1;
    let mut partial_rounds = 0;
    for round in 0..ROUNDS {
        let dir = temp_dir(&format!("tick-{round}"));
        backend::copy(seed, &dir);
        let window = if round % 2 == 0 {
            full.as_millis() as u64 + 1
        } else {
            narrowed
        };
        let kill_at = delay(round, window);
        let finished = run_and_kill(corbeau(&dir, later(), &["tick"]), "", kill_at);
        let processed = check_store(&dir, finished.then_some(true));
        if !finished && processed < GAMES {
            partial_rounds += 1;
        } else {
            narrowed = narrowed.min(kill_at.as_millis() as u64 + 1);
        }
        // The restarted judge finishes the work, and does not do it twice.
        assert!(
            corbeau(&dir, later(), &["tick"])
                .status()
                .unwrap()
                .success()
        );
        assert_eq!(check_store(&dir, Some(true)), GAMES);
        assert!(
            corbeau(&dir, later(), &["tick"])
                .status()
                .unwrap()
                .success()
        );
        assert_eq!(check_store(&dir, Some(true)), GAMES);
    }
    assert!(partial_rounds > 0, "no kill landed in the middle of a tick");
}

#[test]
fn process_killed_at_any_moment_leaves_the_phase_before_or_after() {
    let world = seed_store("seed-process");
    let seed = &world.config.data_dir;
    let window = kill_window(seed, start(), &["game", "process", "g00"], "");
    let (mut stored, mut killed) = (0, 0);
    for round in 0..ROUNDS {
        let dir = temp_dir(&format!("process-{round}"));
        backend::copy(seed, &dir);
        let finished = run_and_kill(
            corbeau(&dir, start(), &["game", "process", "g00"]),
            "",
            delay(round, window),
        );
        let service = backend::open_service(&dir);
        check_service(&service, None);
        let played = service.find_game("g00").unwrap().unwrap().played();
        assert!(played <= 1);
        if finished {
            assert_eq!(played, 1, "a process that said it was done is stored");
            stored += 1;
        } else {
            killed += 1;
        }
    }
    assert!(
        stored > 0 && killed > 0,
        "{stored} stored, {killed} killed: widen the delays"
    );
}

#[test]
fn orders_killed_at_any_moment_are_stored_whole_or_not_at_all() {
    let world = seed_store("seed-orders");
    let seed = &world.config.data_dir;
    let new_orders = "A win -> kar\nF bla -> det\nA moa H";
    let window = kill_window(
        seed,
        start(),
        &["orders", "submit", "g03", "stark"],
        new_orders,
    );
    let (mut stored, mut killed) = (0, 0);
    for round in 0..ROUNDS {
        let dir = temp_dir(&format!("orders-{round}"));
        backend::copy(seed, &dir);
        let finished = run_and_kill(
            corbeau(&dir, start(), &["orders", "submit", "g03", "stark"]),
            new_orders,
            delay(round, window),
        );
        let service = backend::open_service(&dir);
        let game = service.find_game("g03").unwrap().unwrap();
        let texts: Vec<&str> = game
            .seat("stark")
            .unwrap()
            .orders()
            .iter()
            .map(|o| o.order.text.as_str())
            .collect();
        let old: Vec<&str> = ORDERS[0].lines().collect();
        let new: Vec<&str> = new_orders.lines().collect();
        assert!(texts == old || texts == new, "round {round}: {texts:?}");
        if finished {
            assert_eq!(texts, new, "orders reported stored are stored");
            stored += 1;
        } else {
            killed += 1;
        }
        drop(service);
    }
    assert!(
        stored > 0 && killed > 0,
        "{stored} stored, {killed} killed: widen the delays"
    );
}

/// A process killed while sled writes a snapshot leaves `snap.<lsn>.generating` behind,
/// which sled 0.34 would take for the newest snapshot and call corruption: the store
/// removes it and opens from the finished snapshot and the log, losing nothing.
#[test]
fn a_snapshot_left_half_written_does_not_stop_the_store() {
    if backend::sled_only("a snapshot file of sled's, written in its folder") {
        return;
    }
    let mut w = World::new("crash", "snapshot");
    let spec = GameSpec {
        id: "g".into(),
        name: None,
        variant: "westeros".into(),
        players: 3,
        settings: Settings::default(),
        moderator: None,
    };
    w.create_game(spec, start());
    w.close();
    let half = w.config.data_dir.join("snap.FFFFFFFFFFFFFFFF.generating");
    std::fs::write(&half, b"half a snapshot").unwrap();
    w.reopen();
    assert_eq!(w.service().game_ids().unwrap(), ["g"]);
    assert!(!half.exists());
}
