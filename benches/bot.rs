//! Speed of the built-in players, printed as figures (no pass/fail): `cargo bench --bench
//! bot`. The time of one house's decision, for the bot and for the yardstick, on a
//! seven-house position: the classic map in spring 1901, and a mid-game position (the
//! yardstick's own game, after five years on the classic map, four on Westeros).

use std::hint::black_box;
use std::time::{Duration, Instant};

use corbeau::bot::{Player, dumb_orders, orders};
use corbeau::judge::{GivenOrder, PhaseKind, Position, adjudicate};
use corbeau::map::{HouseId, Variant, load_variant};
use corbeau::order::Order;

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

/// The position after `years` of bots playing every house, at its next movement phase.
fn mid_game(variant: &Variant, years: i32) -> Position {
    let mut position = Position::starting(variant, None).expect("a full setup");
    let houses = variant.full_setup().expect("a full setup").houses.clone();
    let mut step = 0;
    while position.phase.year < variant.first_year + years
        || position.phase.kind != PhaseKind::Movement
    {
        let given: Vec<GivenOrder> = houses
            .iter()
            .flat_map(|&h| {
                Player::Dumb
                    .orders(variant, &position, h, step)
                    .into_iter()
                    .map(move |order| GivenOrder {
                        house: Some(h),
                        order,
                    })
            })
            .collect();
        position = adjudicate(variant, &position, &given).after;
        step += 1;
    }
    position
}

/// One player's decision for a house.
type Decide = fn(&Variant, &Position, HouseId, u64) -> Vec<Order>;

fn decisions(budget: Duration, name: &str, variant: &Variant, position: &Position) {
    let houses = variant.full_setup().expect("a full setup").houses.clone();
    let players: [(&str, Decide); 2] = [("bot", orders), ("dumb", dumb_orders)];
    for (player, decide) in players {
        let mut seed = 0u64;
        let (runs, secs) = time(budget, || {
            for &h in &houses {
                seed += 1;
                black_box(decide(variant, position, h, seed));
            }
        });
        let per = secs * 1000.0 / (runs as f64 * houses.len() as f64);
        println!(
            "{player} {name} ({}, {} houses, {} units): {per:.3} ms per house decision ({runs} runs)",
            position.phase,
            houses.len(),
            position.units.len()
        );
    }
}

fn main() {
    let budget = Duration::from_millis(
        std::env::var("CORBEAU_BENCH_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(2000),
    );
    let classic = load_variant("classique").expect("the classic map");
    let start = Position::starting(&classic, None).expect("a full setup");
    decisions(budget, "classique start", &classic, &start);
    decisions(
        budget,
        "classique mid-game",
        &classic,
        &mid_game(&classic, 5),
    );
    let westeros = load_variant("westeros").expect("Westeros");
    decisions(
        budget,
        "westeros mid-game",
        &westeros,
        &mid_game(&westeros, 4),
    );
}
