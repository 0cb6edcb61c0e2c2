//! Speed and size of stored games, printed as figures (no pass/fail): `cargo bench --bench
//! games`.
//! - one 7-player Westeros turn: store → adjudicate → render → store;
//! - `tick` over 10 000 stored games of which 1 000 are due;
//! - store size per game-year.

#[path = "support/example.rs"]
mod example;
use example::example_orders;

use std::path::PathBuf;
use std::time::Instant;

use chrono::{DateTime, TimeDelta, Utc};
use corbeau::game::{
    Actor, HouseKey, NewGame, OrderLines, Settings, SubmitMode, Trigger, hash_secret,
};
use corbeau::lang::Lang;
use corbeau::report::{RESULTS_TEMPLATE, render_template};
use corbeau::service::Service;

const HOUSES: [&str; 7] = [
    "stark",
    "greyjoy",
    "lannister",
    "baratheon",
    "tyrell",
    "martell",
    "targaryen",
];

fn at(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s)
        .expect("time")
        .with_timezone(&Utc)
}

fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("corbeau-bench-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// A running 7-player game with every house seated.
fn new_game(service: &Service, id: &str, hash: &str, now: DateTime<Utc>) {
    let new = NewGame {
        id: id.into(),
        name: None,
        variant: "westeros".into(),
        players: 7,
        settings: Settings::default(),
        moderator: None,
    };
    service.create(new, "bench", now).expect("create");
    service
        .shape_for_tests(id, "bench", "seed", now, |g, v, _| {
            for house in HOUSES {
                g.add_player(
                    &HouseKey::named(v, house).expect("a house"),
                    &format!("{house}@example.org"),
                    hash.into(),
                    Lang::Fr,
                    now,
                )?;
            }
            g.start(v, now)
        })
        .expect("seed");
}

fn main() {
    let hash = hash_secret("bench-secret").expect("hash");
    let start = at("2026-11-22T10:00:00Z");
    let orders = example_orders();
    turn(&hash, start, &orders);
    tick(&hash, start);
    size(&hash, start, &orders);
}

fn turn(hash: &str, start: DateTime<Utc>, orders: &[(String, String)]) {
    let d = dir("turn");
    let service = Service::open(&d).expect("store");
    let turns = 50;
    for i in 0..turns {
        new_game(&service, &format!("t{i}"), hash, start);
        for (house, text) in orders {
            service
                .shape_for_tests(&format!("t{i}"), "bench", "orders", start, |g, v, _| {
                    g.submit(
                        v,
                        &HouseKey::named(v, house).expect("a house"),
                        &OrderLines::numbered(text),
                        SubmitMode::Replace,
                        "bench",
                        start,
                    )
                })
                .expect("orders");
        }
    }
    let began = Instant::now();
    for i in 0..turns {
        let (game, record) = service
            .process(
                &format!("t{i}"),
                &Actor::Moderator,
                Trigger::Moderator,
                None,
                start,
            )
            .expect("process");
        let results = record.results.view().expect("results of this format");
        let game = serde_json::json!({"id": game.id(), "name": game.name(), "index": 0, "deadline": null, "deadline_utc": null, "ending": null});
        let data = minijinja::context! { game, ..minijinja::Value::from_serialize(results) };
        let text = render_template(RESULTS_TEMPLATE, data, Lang::Fr, None).expect("render");
        std::hint::black_box(text);
    }
    let per_turn = began.elapsed().as_secs_f64() / f64::from(turns);
    println!(
        "one 7-player westeros turn (load, adjudicate, record, commit + fsync, render): {:.2} ms",
        per_turn * 1000.0
    );
    drop(service);
    let _ = std::fs::remove_dir_all(&d);
}

fn tick(hash: &str, start: DateTime<Utc>) {
    let d = dir("tick");
    let service = Service::open(&d).expect("store");
    let total = 10_000;
    let due = 1_000;
    let began = Instant::now();
    for i in 0..total {
        // Games started earlier are due at `now`; the rest start later.
        let opened = if i < due {
            start
        } else {
            start + TimeDelta::days(5)
        };
        new_game(&service, &format!("g{i:05}"), hash, opened);
    }
    println!(
        "stored {total} running 7-player games in {:.1} s ({} MB on disk)",
        began.elapsed().as_secs_f64(),
        service.disk_size().expect("size") / 1_000_000
    );
    let now = start + TimeDelta::days(3);
    let began = Instant::now();
    let report = service.tick(now).expect("tick");
    let took = began.elapsed().as_secs_f64();
    assert_eq!(report.processed.len(), due, "due games processed");
    println!(
        "tick over {total} games, {due} due: {:.2} s ({:.2} ms per processed game)",
        took,
        took * 1000.0 / due as f64
    );
    let began = Instant::now();
    let report = service.tick(now).expect("tick");
    println!(
        "tick again with nothing due: {:.0} µs ({} processed)",
        began.elapsed().as_secs_f64() * 1e6,
        report.processed.len()
    );
    drop(service);
    let _ = std::fs::remove_dir_all(&d);
}

fn size(hash: &str, start: DateTime<Utc>, orders: &[(String, String)]) {
    let d = dir("size");
    let service = Service::open(&d).expect("store");
    new_game(&service, "y", hash, start);
    let empty = service.disk_size().expect("size");
    let mut now = start;
    let mut phases = 0;
    while service.load("y").expect("game").phase().year < 301 {
        let game = service.load("y").expect("game");
        if game.phase().year == 298 && phases == 0 {
            for (house, text) in orders {
                service
                    .shape_for_tests("y", "bench", "orders", now, |g, v, _| {
                        g.submit(
                            v,
                            &HouseKey::named(v, house).expect("a house"),
                            &OrderLines::numbered(text),
                            SubmitMode::Replace,
                            "bench",
                            now,
                        )
                    })
                    .expect("orders");
            }
        }
        now += TimeDelta::days(3);
        service
            .process("y", &Actor::Judge, Trigger::Deadline, None, now)
            .expect("process");
        phases += 1;
    }
    let records = service.history("y").expect("phases");
    let game = service.load("y").expect("game");
    let variant = service.variant(game.variant()).expect("variant");
    // Written as the store writes them: places and houses as the variant's ids.
    let json: usize = corbeau::map::scope::within(&variant, || {
        records
            .iter()
            .map(|r| {
                serde_json::to_vec(r)
                    .map(|v| v.len())
                    .expect("a record writes")
            })
            .sum()
    });
    let disk = service.disk_size().expect("size");
    println!(
        "store size: 3 game-years ({phases} phases) of one 7-player game: {} kB of records ({} kB per game-year), {} kB more on disk",
        json / 1000,
        json / 3000,
        disk.saturating_sub(empty) / 1000
    );
    drop(service);
    let _ = std::fs::remove_dir_all(&d);
}
