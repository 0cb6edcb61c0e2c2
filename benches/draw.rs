//! Speed of the board pictures, printed as figures (no pass/fail): `cargo bench --bench draw`.
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

/// Runs `f` repeatedly for about `budget`; returns (runs, seconds).
fn time(budget: Duration, mut f: impl FnMut()) -> (u64, f64) {
    let start = Instant::now();
    let mut runs = 0;
    while start.elapsed() < budget || runs < 3 {
        f();
        runs += 1;
    }
    (runs, start.elapsed().as_secs_f64())
}

fn report(what: &str, (runs, secs): (u64, f64)) {
    println!(
        "{what:<44} {:>8.2} ms/run  ({runs} runs)",
        secs * 1000.0 / runs as f64
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
    report(
        "load westeros (with its drawing)",
        time(budget, || {
            black_box(load_variant("westeros").ok());
        }),
    );
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
    report(
        "westeros example turn: SVG",
        time(budget, || {
            black_box(svg(&picture).ok());
        }),
    );
    let mut size = 0;
    report(
        &format!("westeros example turn: PNG {PNG_WIDTH} px"),
        time(budget, || {
            size = png(&picture, PNG_WIDTH).map_or(0, |b| b.len());
        }),
    );
    println!(
        "{:<44} {:>8} bytes",
        "westeros example turn: PNG size", size
    );
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
    report(
        &format!("classique start: PNG {PNG_WIDTH} px"),
        time(budget, || {
            size = png(&picture, PNG_WIDTH).map_or(0, |b| b.len());
        }),
    );
    println!("{:<44} {:>8} bytes", "classique start: PNG size", size);
}
