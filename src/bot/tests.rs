#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use super::*;
use crate::judge::{GivenOrder, Outcome, PhaseKind, Position, adjudicate, adjustment_counts};
use crate::map::{Variant, load_variant};
use crate::order::parse_order;

/// Why the judge would not take these orders from `house` as they are: an order refused
/// or found illegal, two orders for one unit, a unit of a movement or retreat phase left
/// without an order, or more builds or disbands than due.
fn faults(variant: &Variant, position: &Position, house: HouseId, orders: &[Order]) -> Vec<String> {
    let given: Vec<GivenOrder> = orders
        .iter()
        .map(|o| GivenOrder {
            house: Some(house),
            order: o.clone(),
        })
        .collect();
    let done = adjudicate(variant, position, &given);
    let mut out: Vec<String> = done
        .rejected
        .iter()
        .map(|r| format!("{}: {:?}", orders[r.order].text, r.illegal))
        .collect();
    for (index, report) in &done.reports {
        if let Outcome::Illegal(why) = &report.outcome {
            let text = index.map_or("?".to_string(), |i| orders[i].text.clone());
            out.push(format!("{text}: {why:?}"));
        }
    }
    let mine = Owner::House(house);
    let due = match position.phase.kind {
        PhaseKind::Movement => position.units.iter().filter(|u| u.owner == mine).count(),
        PhaseKind::Retreat => position
            .dislodged
            .iter()
            .filter(|d| d.unit.owner == mine)
            .count(),
        PhaseKind::Adjustment => {
            let delta = adjustment_counts(variant, position)[usize::from(house.0)];
            if orders.len() > delta.unsigned_abs() as usize {
                out.push(format!(
                    "{} orders for an adjustment of {delta}",
                    orders.len()
                ));
            }
            if delta < 0 && orders.len() != delta.unsigned_abs() as usize {
                out.push(format!("{} disbands for {delta}", orders.len()));
            }
            orders.len()
        }
    };
    if orders.len() != due {
        out.push(format!("{} orders for {due} units", orders.len()));
    }
    out
}

fn variants() -> Vec<Variant> {
    ["westeros", "classique"]
        .iter()
        .map(|v| load_variant(v).unwrap())
        .collect()
}

/// Plays a game of `years` from the start with the given player for every house, and
/// calls `visit` on every position reached with each house that has something to do.
fn play(
    variant: &Variant,
    seed: u64,
    years: i32,
    player: impl Fn(usize) -> Player,
    mut visit: impl FnMut(&Position, HouseId),
) {
    let mut position = Position::starting(variant, None).unwrap();
    let houses = variant.full_setup().unwrap().houses.clone();
    let mut step = 0u64;
    while position.phase.year < variant.first_year + years {
        let mut given = Vec::new();
        for (k, &house) in houses.iter().enumerate() {
            visit(&position, house);
            let s = seed.wrapping_mul(1_000_003).wrapping_add(step);
            for order in player(k).orders(variant, &position, house, s) {
                given.push(GivenOrder {
                    house: Some(house),
                    order,
                });
            }
        }
        position = adjudicate(variant, &position, &given).after;
        step += 1;
    }
}

/// Over random positions reached by bots and random players (retreats and builds
/// included), every order the bot gives is legal, one per unit, on both variants.
#[test]
fn every_bot_order_is_legal_on_reachable_positions() {
    let mut checked = [0usize; 3];
    for variant in variants() {
        for seed in 0..12u64 {
            let mix = |k: usize| match (k as u64 + seed) % 3 {
                0 => Player::Dumb,
                1 => Player::Random,
                _ => Player::Hold,
            };
            play(&variant, seed, 8, mix, |position, house| {
                for s in 0..3u64 {
                    for player in [Player::Dumb, Player::Random] {
                        let orders = player.orders(&variant, position, house, seed * 7 + s);
                        let wrong = faults(&variant, position, house, &orders);
                        assert!(
                            wrong.is_empty(),
                            "{} {} {} {:?}: {wrong:?}",
                            variant.id,
                            position.phase,
                            variant.house(house).id,
                            player
                        );
                    }
                }
                let kind = position.phase.kind as usize;
                checked[kind] += 1;
            });
        }
    }
    // Retreats and adjustments were met, not only movement phases.
    assert!(checked.iter().all(|&n| n > 20), "{checked:?}");
}

#[test]
fn the_same_seed_gives_the_same_orders() {
    for variant in variants() {
        let mut differ = 0;
        play(
            &variant,
            3,
            5,
            |_| Player::Dumb,
            |position, house| {
                let a = dumb_orders(&variant, position, house, 42);
                assert_eq!(a, dumb_orders(&variant, position, house, 42));
                if a != dumb_orders(&variant, position, house, 43) {
                    differ += 1;
                }
            },
        );
        // The seed matters somewhere: near-equal choices are drawn.
        assert!(differ > 0, "{}", variant.id);
    }
}

/// The text of each order reads back, through the order parser, as the order itself: what
/// the results quote is what the bot ordered.
#[test]
fn order_texts_read_back_as_the_orders() {
    let source: Arc<str> = Arc::from("bot");
    for variant in variants() {
        play(
            &variant,
            5,
            4,
            |k| {
                if k % 2 == 0 {
                    Player::Dumb
                } else {
                    Player::Random
                }
            },
            |position, house| {
                for player in Player::ALL {
                    for order in player.orders(&variant, position, house, 9) {
                        let read = parse_order(&variant, &source, order.span.line, &order.text)
                            .unwrap_or_else(|e| panic!("{}: {e:?}", order.text))
                            .unwrap();
                        assert_eq!(
                            (&read.unit.kind, &read.unit.at, &read.action),
                            (&order.unit.kind, &order.unit.at, &order.action),
                            "{}",
                            order.text
                        );
                    }
                }
            },
        );
    }
}

/// Westeros: the dragon moves and neutral forces stand in the way; no order goes to a
/// neutral unit or supports one.
#[test]
fn westeros_dragons_move_and_neutrals_are_left_alone() {
    let variant = load_variant("westeros").unwrap();
    let position = Position::starting(&variant, None).unwrap();
    assert!(position.units.iter().any(|u| u.owner == Owner::Neutral));
    for player in [Player::Bot, Player::Dumb] {
        let mut dragon_orders = 0;
        for house in variant.full_setup().unwrap().houses.clone() {
            let orders = player.orders(&variant, &position, house, 1);
            assert!(faults(&variant, &position, house, &orders).is_empty());
            dragon_orders += orders
                .iter()
                .filter(|o| o.unit.kind == Some(UnitKind::Dragon))
                .count();
        }
        let dragons = position
            .units
            .iter()
            .filter(|u| u.kind == UnitKind::Dragon && u.owner != Owner::Neutral)
            .count();
        assert!(dragons > 0);
        assert_eq!(dragon_orders, dragons, "{player:?}");
    }
}
