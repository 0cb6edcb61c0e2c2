//! Speed of the board pictures, printed as figures (no pass/fail): `cargo bench --bench draw`
//! (`CORBEAU_BENCH_MS`: the time given to each figure, 2 000 ms by default;
//! `CORBEAU_BENCH_ONLY=PNG`: only the figures whose name holds `PNG`;
//! `CORBEAU_BENCH_SAVE=DIR`: the two pictures written there too). Each figure is
//! the wall time of a run and its CPU time (the thread's own, steadier on a loaded machine).
//! - loading a variant with its drawing (the Voronoi diagram is built and checked on load);
//! - the SVG of the Westeros example turn, and its PNG at `PNG_WIDTH` (the mail's picture),
//!   with its size in bytes;
//! - the same PNG for the classic map.

use std::hint::black_box;
use std::sync::Arc;
use std::time::{Duration, Instant};

use corbeau::draw::{PNG_WIDTH, Picture, png, svg};
use corbeau::judge::{GivenOrder, Position, adjudicate};
use corbeau::lang::Lang;
use corbeau::map::{Variant, load_variant};
use corbeau::order::parse_order;

#[path = "support/example.rs"]
mod support;

/// The CPU time this thread has had so far, in seconds (Linux's scheduler statistics;
/// 0 where they cannot be read): on a machine shared with other work, the wall time of a
/// run grows with the load and its CPU time does not.
fn cpu() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(0.0, |ns| ns / 1e9)
}

/// Runs `f` repeatedly for about `budget`; returns (runs, wall seconds, CPU seconds).
fn time(budget: Duration, mut f: impl FnMut()) -> (u64, f64, f64) {
    let start = Instant::now();
    let cpu_start = cpu();
    let mut runs = 0;
    while start.elapsed() < budget || runs < 3 {
        f();
        runs += 1;
    }
    (runs, start.elapsed().as_secs_f64(), cpu() - cpu_start)
}

/// Runs and prints one figure, unless `CORBEAU_BENCH_ONLY` is set and not part of its
/// name (to profile one figure alone).
fn measure(what: &str, budget: Duration, f: impl FnMut()) {
    if let Ok(only) = std::env::var("CORBEAU_BENCH_ONLY")
        && !what.contains(&only)
    {
        return;
    }
    let (runs, secs, cpu) = time(budget, f);
    println!(
        "{what:<44} {:>8.2} ms/run, CPU {:>6.2} ms/run  ({runs} runs)",
        secs * 1000.0 / runs as f64,
        cpu * 1000.0 / runs as f64
    );
}

fn example_orders(variant: &Variant) -> Vec<GivenOrder> {
    let source: Arc<str> = Arc::from("example");
    let mut given = Vec::new();
    for (house, text) in support::example_orders() {
        let house = variant.house_by_name(&house);
        for (n, line) in text.lines().enumerate() {
            if let Ok(Some(order)) = parse_order(variant, &source, n as u32 + 1, line) {
                given.push(GivenOrder { house, order });
            }
        }
    }
    given
}

fn main() {
    let budget = Duration::from_millis(
        std::env::var("CORBEAU_BENCH_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2000),
    );
    measure("load westeros (with its drawing)", budget, || {
        black_box(load_variant("westeros").ok());
    });
    let Ok(westeros) = load_variant("westeros") else {
        eprintln!("westeros does not load");
        return;
    };
    let Some(start) = Position::starting(&westeros, None) else {
        eprintln!("westeros has no setup");
        return;
    };
    let adjudication = adjudicate(&westeros, &start, &example_orders(&westeros));
    let reports: Vec<_> = adjudication.reports.into_iter().map(|(_, r)| r).collect();
    let picture = Picture {
        variant: &westeros,
        position: &adjudication.after,
        orders: &reports,
        played: Some(start.phase),
        title: "Westeros",
        lang: Lang::Fr,
    };
    measure("westeros example turn: SVG", budget, || {
        black_box(svg(&picture).ok());
    });
    let mut size = 0;
    measure(
        &format!("westeros example turn: PNG {PNG_WIDTH} px"),
        budget,
        || {
            size = png(&picture, PNG_WIDTH).map_or(0, |b| b.len());
        },
    );
    println!(
        "{:<44} {:>8} bytes",
        "westeros example turn: PNG size", size
    );
    save("westeros-turn.png", png(&picture, PNG_WIDTH));
    let Ok(classique) = load_variant("classique") else {
        eprintln!("classique does not load");
        return;
    };
    let Some(start) = Position::starting(&classique, None) else {
        eprintln!("classique has no setup");
        return;
    };
    let picture = Picture {
        variant: &classique,
        position: &start,
        orders: &[],
        played: None,
        title: "Diplomatie",
        lang: Lang::Fr,
    };
    measure(
        &format!("classique start: PNG {PNG_WIDTH} px"),
        budget,
        || {
            size = png(&picture, PNG_WIDTH).map_or(0, |b| b.len());
        },
    );
    println!("{:<44} {:>8} bytes", "classique start: PNG size", size);
    save("classique-start.png", png(&picture, PNG_WIDTH));
}

/// Writes a picture into the folder `CORBEAU_BENCH_SAVE` names, if any: to look at it,
/// or compare it with another build's.
fn save(name: &str, picture: Result<Vec<u8>, corbeau::draw::DrawError>) {
    let Ok(folder) = std::env::var("CORBEAU_BENCH_SAVE") else {
        return;
    };
    let path = std::path::Path::new(&folder).join(name);
    match picture.map(|bytes| std::fs::write(&path, bytes)) {
        Ok(Ok(())) => println!("{:<44} {}", "written", path.display()),
        _ => eprintln!("{}: not written", path.display()),
    }
}
