//! The resolver against a second, deliberately simple one written for this test: on random
//! small positions (armies of two houses on inland Europe, holds, moves and supports, no
//! convoys), the reference tries every combination of move outcomes and keeps those that
//! agree with the strengths they imply. The fast resolver must give one of them, and the
//! one when there is only one. Its rules: DATC v3.0 §5 (attack, hold, defend and prevent
//! strengths), no self-dislodgement, a support cut by an attack from elsewhere or by the
//! supporter's dislodgement. Circular movement admits several answers; so may other
//! cycles: then only membership is checked.

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;

use corbeau::judge::{Command, GivenOrder, Outcome, Phase, Position, Unit, adjudicate};
use corbeau::map::{HouseId, Owner, ProvinceId, UnitKind, Variant, load_variant};
use corbeau::order::parse_order;

fn classique() -> &'static Variant {
    static V: OnceLock<Variant> = OnceLock::new();
    V.get_or_init(|| load_variant("classique").expect("classique"))
}

const AREA: &[&str] = &[
    "mun", "ber", "kie", "ruh", "bur", "boh", "sil", "pru", "war", "gal", "tyr", "vie", "bud",
];

/// Every consistent combination of move outcomes, by unit (None: not a move).
fn reference(units: &[(Owner, ProvinceId)], commands: &[Command], v: &Variant) -> Vec<Vec<bool>> {
    let n = units.len();
    let target: Vec<Option<ProvinceId>> = commands
        .iter()
        .map(|c| match c {
            Command::Move { to, .. } => Some(v.province_of(*to)),
            _ => None,
        })
        .collect();
    let at = |p: ProvinceId| units.iter().position(|u| u.1 == p);
    let moves: Vec<usize> = (0..n).filter(|&i| target[i].is_some()).collect();
    let mut found = Vec::new();
    for mask in 0u32..(1 << moves.len()) {
        let mut ok = vec![false; n];
        for (b, &i) in moves.iter().enumerate() {
            ok[i] = mask & (1 << b) != 0;
        }
        let stays = |i: usize| target[i].is_none() || !ok[i];
        let dislodged =
            |i: usize| stays(i) && (0..n).any(|k| target[k] == Some(units[i].1) && ok[k]);
        // Valid supports of unit `i`'s order (hold or move), by supporter.
        let support_valid = |s: usize| -> bool {
            let exempt = match commands[s] {
                Command::SupportMove { to, .. } => Some(to),
                _ => None,
            };
            let cut = (0..n).any(|k| {
                target[k] == Some(units[s].1)
                    && Some(units[k].1) != exempt
                    && units[k].0 != units[s].0
            });
            !cut && !dislodged(s)
        };
        let supports = |i: usize, excluding: Option<Owner>| -> u32 {
            (0..n)
                .filter(|&s| excluding != Some(units[s].0))
                .filter(|&s| match commands[s] {
                    Command::SupportHold { unit } => unit == units[i].1 && target[i].is_none(),
                    Command::SupportMove { unit, to, .. } => {
                        unit == units[i].1 && target[i] == Some(to)
                    }
                    _ => false,
                })
                .filter(|&s| support_valid(s))
                .count() as u32
        };
        let h2h = |i: usize| -> Option<usize> {
            let j = at(target[i]?)?;
            (target[j] == Some(units[i].1)).then_some(j)
        };
        let attack = |i: usize| -> u32 {
            let Some(t) = target[i] else { return 0 };
            match at(t) {
                Some(d) if h2h(i) == Some(d) || stays(d) => {
                    if units[d].0 == units[i].0 {
                        0
                    } else {
                        1 + supports(i, Some(units[d].0))
                    }
                }
                _ => 1 + supports(i, None),
            }
        };
        let prevent = |k: usize| -> u32 {
            match h2h(k) {
                Some(j) if ok[j] => 0,
                _ => 1 + supports(k, None),
            }
        };
        let hold = |p: ProvinceId| -> u32 {
            match at(p) {
                None => 0,
                Some(u) if target[u].is_some() => u32::from(!ok[u]),
                Some(u) => 1 + supports(u, None),
            }
        };
        let consistent = moves.iter().all(|&i| {
            let t = target[i].expect("a move");
            let a = attack(i);
            let beaten = match h2h(i) {
                Some(j) => a <= 1 + supports(j, None),
                None => a <= hold(t),
            };
            let rivals = (0..n).any(|k| k != i && target[k] == Some(t) && a <= prevent(k));
            ok[i] == (!beaten && !rivals)
        });
        if consistent {
            found.push(ok);
        }
    }
    found
}

fn arb_board() -> impl Strategy<Value = Vec<(usize, u8, u8, u16, u16)>> {
    prop::collection::vec(
        (0..AREA.len(), 0u8..2, 0u8..4, any::<u16>(), any::<u16>()),
        2..7,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn the_resolver_agrees_with_brute_force(draws in arb_board()) {
        let v = classique();
        let mut units: Vec<(Owner, ProvinceId)> = Vec::new();
        for &(p, h, _, _, _) in &draws {
            let province = v.names.province(AREA[p]).expect("province");
            if units.iter().all(|u| u.1 != province) {
                units.push((Owner::House(HouseId(h + 1)), province));
            }
        }
        let mut position = Position::empty(v, Phase::first(1901));
        for &(owner, p) in &units {
            position.units.push(Unit { owner, kind: UnitKind::Army, region: v.province(p).region, name: None });
        }
        let source: Arc<str> = Arc::from("reference");
        let mut given = Vec::new();
        for (i, &(_, p)) in units.iter().enumerate() {
            let (_, _, kind, a, b) = draws[i.min(draws.len() - 1)];
            let me = &v.province(p).id;
            let near = &v.army_adjacency[usize::from(p.0)];
            let pick = |n: u16| near[usize::from(n) % near.len()];
            let other = units[usize::from(a) % units.len()].1;
            let text = match kind {
                0 => format!("A {me} H"),
                1 => format!("A {me} -> {}", v.province(pick(b)).id),
                2 => format!("A {me} S A {}", v.province(other).id),
                _ => {
                    let o = usize::from(a) % units.len();
                    let to = &v.army_adjacency[usize::from(units[o].1 .0)];
                    let to = &to[usize::from(b) % to.len()];
                    format!("A {me} S A {} -> {}", v.province(units[o].1).id, v.province(*to).id)
                }
            };
            if let Ok(Some(order)) = parse_order(v, &source, 1, &text) {
                given.push(GivenOrder { house: None, order });
            }
        }
        let result = adjudicate(v, &position, &given);
        let commands: Vec<Command> = result.reports.iter().map(|(_, r)| r.command.clone()).collect();
        let got: Vec<bool> = result
            .reports
            .iter()
            .map(|(_, r)| matches!(r.command, Command::Move { .. }) && r.outcome == Outcome::Succeeded)
            .collect();
        let answers = reference(&units, &commands, v);
        prop_assert!(!answers.is_empty(), "no consistent outcome: {:?}", commands);
        if answers.len() == 1 {
            prop_assert_eq!(&got, &answers[0], "orders {:?}", commands);
        } else {
            prop_assert!(answers.contains(&got), "got {:?}, consistent {:?}, orders {:?}", got, answers, commands);
        }
    }
}
