//! Speed of the email judge, printed as figures (no pass/fail): `cargo bench --bench mail`.
//! - mails of orders ingested per second by a 7-player Westeros game: through the library
//!   one by one (`ingest_one`), through a Maildir (`deliver`, then one `ingest_maildir`),
//!   and through the binary (`corbeau ingest` with the mail on stdin), on disk and on
//!   tmpfs to show what the flushes cost;
//! - from the deadline to the last results mail in the outbox folder: one `pass` over a
//!   7-player game whose orders are all in, and its steps (tick, notices to mails, drain).
//!
//! With `CORBEAU_BENCH_STORE=postgres`, every store of the bench is a database of a
//! PostgreSQL server started for the run (Debian's `initdb` and `pg_ctl`, a cluster in a
//! temporary folder, as the tests start theirs, but writing to disk as a real server
//! does), a new database per store; the data directories (spool, outbox folder) stay on
//! disk, and the figures on tmpfs are left out.
//!
//! Sizes: `CORBEAU_BENCH_MAILS` (mails per library figure, default 500),
//! `CORBEAU_BENCH_SPAWNS` (runs of the binary, default 100), `CORBEAU_BENCH_RUNS` (deadline
//! passes, default 20).

#[path = "support/example.rs"]
mod example;
// The tests' own server, of which the bench needs only a part.
#[allow(dead_code)]
#[path = "../tests/support/pg.rs"]
mod pg;
use example::example_orders;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use argon2::password_hash::{PasswordHasher, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use chrono::{DateTime, TimeDelta, Utc};
use corbeau::config::Config;
use corbeau::game::{Moderator, NewGame, Settings, SubmitMode, hash_secret, secret_matches};
use corbeau::lang::Lang;
use corbeau::mail::dispatch::Handled;
use corbeau::mail::maildir::{deliver, ingest_maildir, ingest_one};
use corbeau::mail::notify::queue_notices;
use corbeau::mail::pass::pass;
use corbeau::mail::send::drain;
use corbeau::mail::transport::Transport;
use corbeau::report::render_template;
use corbeau::service::Service;
use corbeau::store::Store;
use serde_json::json;

const GAME: &str = "w";
const SECRET: &str = "bench-secret";
const MODERATOR: &str = "mestre@citadelle.test";
const HOUSES: [&str; 7] = [
    "stark",
    "greyjoy",
    "lannister",
    "baratheon",
    "tyrell",
    "martell",
    "targaryen",
];

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .expect("time")
        .with_timezone(&Utc)
}

fn start() -> DateTime<Utc> {
    at("2026-11-22T10:00:00Z")
}

/// The bench's PostgreSQL (`CORBEAU_BENCH_STORE=postgres`): the server, and the database
/// of each data directory.
struct Databases {
    server: pg::Postgres,
    names: std::sync::Mutex<std::collections::HashMap<PathBuf, String>>,
}

static DATABASES: std::sync::OnceLock<Option<Databases>> = std::sync::OnceLock::new();

fn databases() -> Option<&'static Databases> {
    DATABASES
        .get_or_init(|| {
            let choice = std::env::var("CORBEAU_BENCH_STORE").unwrap_or_default();
            match choice.as_str() {
                "" | "sled" => None,
                "postgres" | "postgresql" => {
                    let server = pg::Postgres::start_durable("bench");
                    server.stop_after(std::process::id());
                    Some(Databases {
                        server,
                        names: Default::default(),
                    })
                }
                other => panic!("CORBEAU_BENCH_STORE={other}: `sled` (the default) or `postgres`"),
            }
        })
        .as_ref()
}

/// The database that keeps the store of `data` on PostgreSQL, created empty the first
/// time; none on sled.
fn database_for(data: &Path) -> Option<String> {
    let dbs = databases()?;
    let mut names = dbs.names.lock().expect("databases");
    if let Some(name) = names.get(data) {
        return Some(dbs.server.url(name));
    }
    let url = dbs.server.database();
    let name = url.rsplit('/').next().expect("a database name").to_string();
    names.insert(data.to_path_buf(), name);
    Some(url)
}

/// Where the stores are, as the tables say it: the disk's files, or the database.
fn store_on() -> &'static str {
    if databases().is_some() {
        "PostgreSQL"
    } else {
        "disk"
    }
}

/// Where the stores go: the temporary directory (a disk), and tmpfs when there is one.
struct Places {
    disk: PathBuf,
    tmpfs: Option<PathBuf>,
}

impl Places {
    fn find() -> Places {
        let shm = Path::new("/dev/shm");
        Places {
            disk: std::env::temp_dir(),
            // A store in PostgreSQL is where the server keeps its files.
            tmpfs: (databases().is_none()
                && shm.is_dir()
                && std::fs::metadata(shm).is_ok_and(|m| !m.permissions().readonly()))
            .then(|| shm.to_path_buf()),
        }
    }
}

fn fresh_dir(base: &Path, name: &str) -> PathBuf {
    let d = base.join(format!("corbeau-bench-mail-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("bench dir");
    d
}

fn address(house: &str) -> String {
    format!("{house}@example.org")
}

/// A player's mail: sign-on and full orders for the house's units, no PRET (the phase
/// stays open while mails come in).
fn order_mail(n: usize, house: &str, orders: &str, tag: &str) -> Vec<u8> {
    let body = format!("PARTIE {GAME} {house} {SECRET}\n{orders}");
    format!(
        "From: Joueur <{}>\r\nTo: Corbeau <corbeau@localhost>\r\nSubject: ordres\r\n\
         Message-ID: <{n}.{tag}@player.test>\r\nDate: Sun, 22 Nov 2026 11:00:00 +0100\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\
         Content-Transfer-Encoding: 8bit\r\n\r\n{}",
        address(house),
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// `count` mails from the seven houses in turn.
fn order_mails(count: usize, orders: &[(String, String)], tag: &str) -> Vec<Vec<u8>> {
    (0..count)
        .map(|n| {
            let (house, text) = &orders[n % orders.len()];
            order_mail(n, house, text, tag)
        })
        .collect()
}

/// The secret's hash with the judge's own parameters (Argon2id defaults).
fn judge_hash() -> String {
    hash_secret(SECRET).expect("hash")
}

/// The secret's hash with the smallest Argon2 cost, to show what the rest of a mail costs.
fn cheap_hash() -> String {
    let params = Params::new(8, 1, 1, None).expect("argon2 params");
    let salt = SaltString::encode_b64(b"bench-salt-16byt").expect("salt");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
        .hash_password(SECRET.as_bytes(), &salt)
        .expect("hash")
        .to_string()
}

/// A judge on `dir`: the store and a configuration whose data directory it is.
fn judge(dir: &Path) -> (Service, Config) {
    let store = match database_for(dir) {
        Some(url) => {
            std::fs::create_dir_all(dir).expect("data dir");
            let url: corbeau::store::DatabaseUrl = url.parse().expect("url");
            Store::open_database(dir, &url, Duration::from_secs(5)).expect("store")
        }
        None => Store::open(dir).expect("store"),
    };
    let service = Service::on(store).expect("store");
    let config = Config {
        data_dir: dir.to_path_buf(),
        ..Config::default()
    };
    (service, config)
}

/// A running 7-player Westeros game with every house seated and a moderator.
fn new_game(service: &Service, hash: &str) {
    let now = start();
    let new = NewGame {
        id: GAME.into(),
        name: None,
        variant: "westeros".into(),
        players: 7,
        settings: Settings::default(),
        moderator: Some(Moderator {
            address: MODERATOR.into(),
            secret: hash.into(),
        }),
    };
    service.create(new, "bench", now).expect("create");
    service
        .shape_for_tests(GAME, "bench", "seed", now, |g, v, _| {
            for house in HOUSES {
                g.add_player(
                    &corbeau::game::HouseKey::named(v, house).expect("a house"),
                    &address(house),
                    hash.into(),
                    Lang::Fr,
                    now,
                )?;
            }
            g.start(v, now)
        })
        .expect("seed");
    // The news of the start is not part of what is measured.
    queue_notices(service, &Config::default(), now).expect("notices");
    for (key, _) in service.outbox().expect("outbox") {
        service.outbox_sent(key).expect("forget");
    }
}

/// Seconds per call of `f`, over `runs` calls.
fn per_call(runs: usize, mut f: impl FnMut()) -> f64 {
    let began = Instant::now();
    for _ in 0..runs {
        f();
    }
    began.elapsed().as_secs_f64() / runs as f64
}

fn ms(seconds: f64) -> String {
    format!("{:.2} ms", seconds * 1000.0)
}

fn median(sorted: &[Duration]) -> Duration {
    sorted[sorted.len() / 2]
}

fn main() {
    // As the binary does before it opens a store: the sieves need the judge's key.
    corbeau::game::install_sieve_key(corbeau::game::SieveKey::random().expect("key"));
    let mails = env_number("CORBEAU_BENCH_MAILS", 500).max(7);
    let spawns = env_number("CORBEAU_BENCH_SPAWNS", 100).max(1);
    let runs = env_number("CORBEAU_BENCH_RUNS", 20).max(1);
    let places = Places::find();
    let orders = example_orders();
    let began = Instant::now();
    println!(
        "stores in {} (disk){}",
        places.disk.display(),
        places
            .tmpfs
            .as_ref()
            .map(|t| format!(" and {} (tmpfs)", t.display()))
            .unwrap_or_default()
    );
    if let Some(dbs) = databases() {
        println!(
            "stores in PostgreSQL: a server of its own on port {}, its files in {}",
            dbs.server.port,
            dbs.server.dir().display()
        );
    }
    let load = load_average();
    pieces(&places);
    ingest(&places, &orders, mails, spawns);
    deadline(&places, &orders, runs);
    println!(
        "\nbench ran for {:.0} s; load average {load} at the start, {} at the end",
        began.elapsed().as_secs_f64(),
        load_average()
    );
}

/// The machine's 1-minute load average (Linux), to tell a quiet run from a busy one.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// What every mail pays whatever the store (checking the secret, rendering a template),
/// and what making a file durable costs where the stores are.
fn pieces(places: &Places) {
    let hash = judge_hash();
    let cheap = cheap_hash();
    println!("\n| piece | time |\n|---|---:|");
    let argon = per_call(10, || assert!(secret_matches(SECRET, &hash)));
    println!(
        "| secret check, Argon2id as the judge hashes (m = 19 MiB, t = 2) | {} |",
        ms(argon)
    );
    let argon = per_call(100, || assert!(secret_matches(SECRET, &cheap)));
    println!(
        "| secret check, Argon2id at its smallest cost (m = 8 KiB, t = 1) | {} |",
        ms(argon)
    );
    // A storm of wrong secrets: the sieve turns almost all of them away (the rare one
    // that passes it pays the full check, counted in the mean).
    let mut guess = 0u32;
    let sieved = per_call(2000, || {
        guess += 1;
        std::hint::black_box(secret_matches(&format!("guess{guess}"), &hash));
    });
    println!(
        "| wrong secret against the judge's hash, turned away by the sieve | {} |",
        ms(sieved)
    );
    let data = json!({"kind": "reply", "game": {"id": GAME}, "subject": "ordres"});
    let render = |dir: Option<&Path>| {
        per_call(200, || {
            let v = minijinja::Value::from_serialize(&data);
            std::hint::black_box(render_template("subject.txt", v, Lang::Fr, dir).expect("render"));
        })
    };
    println!(
        "| rendering subject.txt, the templates compiled once and kept | {} |",
        ms(render(None))
    );
    // An override file edited in the last second is not trusted to show a later change:
    // the templates are compiled at every render, as they all were before they were kept.
    let dir = fresh_dir(&std::env::temp_dir(), "templates");
    std::fs::create_dir_all(dir.join("fr")).expect("templates dir");
    std::fs::write(
        dir.join("fr/help.txt"),
        include_str!("../templates/fr/help.txt"),
    )
    .expect("override");
    println!(
        "| rendering subject.txt, the 9 templates of the language compiled first (an override file just edited) | {} |",
        ms(render(Some(&dir)))
    );
    let _ = std::fs::remove_dir_all(&dir);
    let mut bases = vec![("disk", places.disk.clone())];
    if let Some(t) = &places.tmpfs {
        bases.push(("tmpfs", t.clone()));
    }
    for (on, base) in bases {
        let (file, folder) = fsync_time(&base);
        println!("| writing a 4 kB file and `fsync` on {on} | {} |", ms(file));
        println!(
            "| renaming it into place and `fsync` of the directory on {on} | {} |",
            ms(folder)
        );
    }
}

/// Seconds to write and sync a small file, and to rename it into place and sync the
/// directory: what the outbox folder and a Maildir delivery pay per mail.
fn fsync_time(base: &Path) -> (f64, f64) {
    let dir = fresh_dir(base, "fsync");
    std::fs::create_dir_all(dir.join("tmp")).expect("tmp");
    let block = vec![b'x'; 4096];
    let (mut file, mut folder) = (Duration::ZERO, Duration::ZERO);
    let runs = 50;
    for n in 0..runs {
        let tmp = dir.join("tmp").join(format!("{n}.eml"));
        let began = Instant::now();
        let mut f = std::fs::File::create(&tmp).expect("create");
        f.write_all(&block).expect("write");
        f.sync_all().expect("fsync");
        file += began.elapsed();
        let began = Instant::now();
        std::fs::rename(&tmp, dir.join(format!("{n}.eml"))).expect("rename");
        std::fs::File::open(&dir)
            .and_then(|d| d.sync_all())
            .expect("fsync dir");
        folder += began.elapsed();
    }
    let _ = std::fs::remove_dir_all(&dir);
    (
        file.as_secs_f64() / f64::from(runs),
        folder.as_secs_f64() / f64::from(runs),
    )
}

/// Mails per second, and the mean seconds per mail of the first and the last tenth.
struct Rate {
    per_second: f64,
    first: f64,
    last: f64,
}

impl Rate {
    fn of(times: &[Duration]) -> Rate {
        let total: f64 = times.iter().map(Duration::as_secs_f64).sum();
        let tenth = (times.len() / 10).max(1);
        let mean = |part: &[Duration]| {
            part.iter().map(Duration::as_secs_f64).sum::<f64>() / part.len() as f64
        };
        Rate {
            per_second: times.len() as f64 / total,
            first: mean(&times[..tenth]),
            last: mean(&times[times.len() - tenth..]),
        }
    }
}

/// One library figure: mails through `ingest_one` on a fresh store in `base`.
fn ingest_one_rate(base: &Path, name: &str, hash: &str, mails: &[Vec<u8>]) -> Rate {
    let dir = fresh_dir(base, name);
    let (service, config) = judge(&dir);
    new_game(&service, hash);
    let now = start();
    let mut times = Vec::with_capacity(mails.len());
    for raw in mails {
        let one = Instant::now();
        let handled = ingest_one(&service, &config, raw, now)
            .expect("store")
            .expect("readable");
        assert!(
            matches!(handled, Handled::Answered { game: Some(_) }),
            "{handled:?}"
        );
        times.push(one.elapsed());
    }
    check_orders(&service);
    drop(service);
    let _ = std::fs::remove_dir_all(&dir);
    Rate::of(&times)
}

/// Every house's orders were taken (the mails were read as orders, not refused).
fn check_orders(service: &Service) {
    let game = service.load(GAME).expect("game");
    for house in HOUSES {
        let seat = game.seat(house).expect("seat");
        assert!(!seat.orders().is_empty(), "{house} has no orders");
    }
}

fn ingest(places: &Places, orders: &[(String, String)], mails: usize, spawns: usize) {
    let hash = judge_hash();
    let cheap = cheap_hash();
    let list = order_mails(mails, orders, "lib");
    println!(
        "\n{mails} mails of orders (sign-on, the house's 3 orders, no PRET) from the 7 players in turn, one game\n"
    );
    println!("| how | store on | mails/s | ms per mail | first tenth | last tenth |");
    println!("|---|---|---:|---:|---:|---:|");
    let row = |how: &str, on: &str, rate: Rate| {
        println!(
            "| {how} | {on} | {:.1} | {:.2} | {:.2} | {:.2} |",
            rate.per_second,
            1000.0 / rate.per_second,
            rate.first * 1000.0,
            rate.last * 1000.0
        );
    };
    row(
        "`ingest_one`",
        store_on(),
        ingest_one_rate(&places.disk, "one-disk", &hash, &list),
    );
    if let Some(tmpfs) = &places.tmpfs {
        row(
            "`ingest_one`",
            "tmpfs",
            ingest_one_rate(tmpfs, "one-tmpfs", &hash, &list),
        );
    }
    row(
        "`ingest_one`, cheapest Argon2 hash",
        store_on(),
        ingest_one_rate(&places.disk, "cheap-disk", &cheap, &list),
    );
    if let Some(tmpfs) = &places.tmpfs {
        row(
            "`ingest_one`, cheapest Argon2 hash",
            "tmpfs",
            ingest_one_rate(tmpfs, "cheap-tmpfs", &cheap, &list),
        );
    }
    let (delivered, carried) = maildir_rate(&places.disk, &hash, &list);
    println!(
        "| `deliver` {mails} files into a Maildir (write, fsync, rename) | disk | {delivered:.0} | {:.2} | | |",
        1000.0 / delivered
    );
    println!(
        "| then one `ingest_maildir` | {} | {carried:.1} | {:.2} | | |",
        store_on(),
        1000.0 / carried
    );
    let (rate, idle) = binary_rate(&places.disk, &hash, orders, spawns);
    row(
        &format!("`corbeau ingest` < mail, {spawns} runs (process, spool, store open, pass)"),
        store_on(),
        rate,
    );
    println!(
        "| for comparison: `corbeau tick` with nothing to do (process, store open, empty pass) | {} | | {:.2} | | |",
        store_on(),
        idle * 1000.0
    );
}

/// Mails/s of `deliver` into a Maildir, then of one `ingest_maildir` over them.
fn maildir_rate(base: &Path, hash: &str, mails: &[Vec<u8>]) -> (f64, f64) {
    let dir = fresh_dir(base, "maildir");
    let (service, config) = judge(&dir.join("data"));
    new_game(&service, hash);
    let inbox = dir.join("inbox");
    let began = Instant::now();
    for raw in mails {
        deliver(&inbox, raw).expect("deliver");
    }
    let delivered = mails.len() as f64 / began.elapsed().as_secs_f64();
    let began = Instant::now();
    let report = ingest_maildir(&service, &config, &inbox, start()).expect("maildir");
    let carried = mails.len() as f64 / began.elapsed().as_secs_f64();
    assert_eq!(report.answered, mails.len(), "{report:?}");
    check_orders(&service);
    drop(service);
    let _ = std::fs::remove_dir_all(&dir);
    (delivered, carried)
}

/// `corbeau ingest --data DIR` with one mail on stdin, run `spawns` times; and seconds per
/// `corbeau tick` with nothing to do on the same store.
fn binary_rate(base: &Path, hash: &str, orders: &[(String, String)], spawns: usize) -> (Rate, f64) {
    let dir = fresh_dir(base, "binary");
    let data = dir.join("data");
    {
        let (service, _) = judge(&data);
        new_game(&service, hash);
    }
    let mails = order_mails(spawns, orders, "bin");
    let mut times = Vec::with_capacity(mails.len());
    for raw in &mails {
        let one = Instant::now();
        let mut child = corbeau("ingest", &dir, &data)
            .stdin(Stdio::piped())
            .spawn()
            .expect("corbeau ingest");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(raw)
            .expect("mail to stdin");
        assert!(
            child.wait().expect("wait").success(),
            "corbeau ingest failed"
        );
        times.push(one.elapsed());
    }
    assert_eq!(
        results_in(&data.join("outbox")),
        mails.len(),
        "one reply per mail in the outbox"
    );
    let idle = per_call(20, || {
        let status = corbeau("tick", &dir, &data)
            .stdin(Stdio::null())
            .status()
            .expect("corbeau tick");
        assert!(status.success(), "corbeau tick failed");
    });
    let _ = std::fs::remove_dir_all(&dir);
    (Rate::of(&times), idle)
}

/// `corbeau SUBCOMMAND` on the data directory `data`, run in `dir`, at the bench's time.
fn corbeau(subcommand: &str, dir: &Path, data: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_corbeau"));
    match database_for(data) {
        Some(url) => command.env("CORBEAU_STORE", url),
        None => command.env_remove("CORBEAU_STORE"),
    };
    command
        .arg(subcommand)
        .arg("--data")
        .arg(data)
        .current_dir(dir)
        .env("CORBEAU_NOW", start().to_rfc3339())
        .env_remove("CORBEAU_CONFIG")
        .env_remove("CORBEAU_DATA")
        .env_remove("CORBEAU_LANG")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit());
    command
}

/// A fresh store with the 7 houses' orders in; returns the judge and a time past the
/// deadline.
fn ordered_game(
    dir: &Path,
    hash: &str,
    orders: &[(String, String)],
) -> (Service, Config, DateTime<Utc>) {
    let (service, config) = judge(dir);
    new_game(&service, hash);
    let now = start();
    for (house, text) in orders {
        service
            .shape_for_tests(GAME, "bench", "orders", now, |g, v, _| {
                g.submit(
                    v,
                    &corbeau::game::HouseKey::named(v, house).expect("a house"),
                    &corbeau::game::OrderLines::numbered(text),
                    SubmitMode::Replace,
                    "bench",
                    now,
                )
            })
            .expect("orders");
    }
    let deadline = service
        .load(GAME)
        .expect("game")
        .deadline()
        .expect("deadline");
    (service, config, deadline + TimeDelta::seconds(1))
}

/// The mails in an outbox folder.
fn results_in(outbox: &Path) -> usize {
    std::fs::read_dir(outbox)
        .map(|d| {
            d.filter_map(Result::ok)
                .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                .count()
        })
        .unwrap_or(0)
}

/// From the deadline to the last results mail in the outbox folder.
fn deadline(places: &Places, orders: &[(String, String)], runs: usize) {
    let hash = judge_hash();
    println!(
        "\nfrom the deadline to the results in the outbox folder: 7 players + moderator, one `pass` at the deadline, {runs} runs on a fresh store each\n"
    );
    println!("| step | store on | median | max |");
    println!("|---|---|---:|---:|");
    let mut bases = vec![(store_on(), places.disk.clone())];
    if let Some(t) = &places.tmpfs {
        bases.push(("tmpfs", t.clone()));
    }
    for (on, base) in &bases {
        let mut whole = Vec::new();
        let mut steps: [Vec<Duration>; 3] = Default::default();
        let mut record = Vec::new();
        for run in 0..runs {
            let dir = fresh_dir(base, &format!("deadline-{run}"));
            let (service, config, now) = ordered_game(&dir, &hash, orders);
            let transport = Transport::folder(config.outbox_dir());
            let began = Instant::now();
            let report = pass(&service, &config, &transport, now).expect("pass");
            whole.push(began.elapsed());
            assert_eq!(report.tick.processed.len(), 1, "the game was processed");
            assert_eq!(results_in(&config.outbox_dir()), 8, "7 players + moderator");
            drop(service);
            let _ = std::fs::remove_dir_all(&dir);

            let dir = fresh_dir(base, &format!("steps-{run}"));
            let (service, config, now) = ordered_game(&dir, &hash, orders);
            let transport = Transport::folder(config.outbox_dir());
            let began = Instant::now();
            let tick = service.tick(now).expect("tick");
            steps[0].push(began.elapsed());
            assert_eq!(tick.processed.len(), 1, "the game was processed");
            let began = Instant::now();
            let queued = queue_notices(&service, &config, now).expect("notices");
            steps[1].push(began.elapsed());
            assert_eq!(queued.queued, 8, "7 players + moderator");
            let began = Instant::now();
            let sent = drain(&service, &transport, &config.judge, now).expect("drain");
            steps[2].push(began.elapsed());
            assert_eq!(sent.sent, 8, "7 players + moderator");
            let index = service
                .last_phase(GAME)
                .expect("store")
                .expect("record")
                .index;
            let began = Instant::now();
            std::hint::black_box(service.phase_played(GAME, index).expect("record"));
            record.push(began.elapsed());
            drop(service);
            let _ = std::fs::remove_dir_all(&dir);
        }
        let row = |what: &str, times: &mut Vec<Duration>| {
            times.sort();
            println!(
                "| {what} | {on} | {} | {} |",
                ms(median(times).as_secs_f64()),
                ms(times[times.len() - 1].as_secs_f64())
            );
        };
        row("whole `pass`", &mut whole);
        row(
            "`service.tick`: load, adjudicate, record, commit + flush",
            &mut steps[0],
        );
        row(
            "`queue_notices`: results text, 8 mails, commit + flush",
            &mut steps[1],
        );
        row(
            "`drain`: 8 .eml written + fsync, each forgotten by the store + flush",
            &mut steps[2],
        );
        row(
            "one phase record read from the store (`queue_notices` reads 2 per results notice)",
            &mut record,
        );
    }
}
