//! The resolver against a second, deliberately simple one written for this test: on random
//! small positions (armies of two houses on inland Europe, holds, moves and supports, no
//! convoys), the reference tries every combination of move outcomes and keeps those that
//! agree with the strengths they imply. The fast resolver must give one of them, and the
//! one when there is only one. Its rules: DATC v3.0 §5 (attack, hold, defend and prevent
//! strengths), no self-dislodgement, a support cut by an attack from elsewhere or by the
//! supporter's dislodgement, a support naming a coast matching only a move to that coast. Circular movement admits several answers; so may other
//! cycles: then only membership is checked.

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;

use corbeau::case::{Case, Expect, VariantCache, case_steps, read_cases};
use corbeau::judge::{
    CheckedOrder, GivenOrder, Outcome, Phase, PhaseKind, Position, Unit, adjudicate,
};
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
fn reference(
    units: &[(Owner, ProvinceId)],
    commands: &[CheckedOrder],
    v: &Variant,
) -> Vec<Vec<bool>> {
    let n = units.len();
    let target: Vec<Option<ProvinceId>> = commands
        .iter()
        .map(|c| match c {
            CheckedOrder::Move { to, .. } => Some(v.province_of(*to)),
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
                CheckedOrder::SupportMove { to, .. } => Some(to),
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
                    CheckedOrder::SupportHold { unit } => unit == units[i].1 && target[i].is_none(),
                    CheckedOrder::SupportMove { unit, to, coast } => {
                        unit == units[i].1
                            && target[i] == Some(to)
                            && coast_matches(coast, &commands[i])
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

/// The answer the reference gives when there is one to give: the only consistent outcome,
/// or, when several are (circular movement), the one where most moves succeed — the DATC
/// rule that a ring of moves all move — provided it is the only one with that many.
fn reference_answer(answers: &[Vec<bool>]) -> Option<&Vec<bool>> {
    let count = |a: &Vec<bool>| a.iter().filter(|&&b| b).count();
    let best = answers.iter().map(count).max()?;
    let mut top = answers.iter().filter(|a| count(a) == best);
    let first = top.next()?;
    top.next().is_none().then_some(first)
}

/// What the reference says of each unit's order, given the outcome of every move: a move
/// succeeds as decided; a hold (or illegal order) "succeeds" when the unit is not
/// dislodged; a support when it matches the supported unit's order, is not cut by an
/// attack from another house (other than from where the support is aimed) and its unit is
/// not dislodged.
fn reference_verdicts(
    units: &[(Owner, ProvinceId)],
    commands: &[CheckedOrder],
    ok: &[bool],
    v: &Variant,
) -> (Vec<bool>, Vec<bool>) {
    let n = units.len();
    let target: Vec<Option<ProvinceId>> = commands
        .iter()
        .map(|c| match c {
            CheckedOrder::Move { to, .. } => Some(v.province_of(*to)),
            _ => None,
        })
        .collect();
    let moved = |i: usize| target[i].is_some() && ok[i];
    let dislodged: Vec<bool> = (0..n)
        .map(|i| !moved(i) && (0..n).any(|k| target[k] == Some(units[i].1) && moved(k)))
        .collect();
    let at = |p: ProvinceId| units.iter().position(|u| u.1 == p);
    let verdicts = (0..n)
        .map(|i| match commands[i] {
            CheckedOrder::Move { .. } => ok[i],
            CheckedOrder::SupportHold { unit } => {
                let matched = at(unit).is_some_and(|u| target[u].is_none());
                matched && !dislodged[i] && !cut(i, None, units, &target)
            }
            CheckedOrder::SupportMove { unit, to, coast } => {
                let matched = at(unit)
                    .is_some_and(|u| target[u] == Some(to) && coast_matches(coast, &commands[u]));
                matched && !dislodged[i] && !cut(i, Some(to), units, &target)
            }
            _ => !dislodged[i],
        })
        .collect();
    (verdicts, dislodged)
}

/// A support that names a coast supports only a move to that coast (DATC v3.0 6.B.9).
fn coast_matches(coast: Option<corbeau::map::RegionId>, command: &CheckedOrder) -> bool {
    match (coast, command) {
        (Some(c), CheckedOrder::Move { to, .. }) => c == *to,
        _ => true,
    }
}

fn cut(
    s: usize,
    exempt: Option<ProvinceId>,
    units: &[(Owner, ProvinceId)],
    target: &[Option<ProvinceId>],
) -> bool {
    (0..units.len()).any(|k| {
        target[k] == Some(units[s].1) && Some(units[k].1) != exempt && units[k].0 != units[s].0
    })
}

/// Whether the reference can express this case: one movement phase, no dragon, no convoy,
/// no garrison.
/// Returns the units, the commands (an illegal order counts as a hold) and, by unit, the
/// index of the case order it answers when the judge accepted that order.
#[allow(clippy::type_complexity)]
fn expressible(
    cache: &mut VariantCache,
    case: &Case,
) -> Option<(
    std::sync::Arc<Variant>,
    Vec<(Owner, ProvinceId)>,
    Vec<CheckedOrder>,
    Vec<Option<usize>>,
)> {
    if case.skip.is_some() || case.steps.len() != 1 {
        return None;
    }
    let (v, steps) = case_steps(cache, case).ok()?;
    let (position, given) = steps.into_iter().next()?;
    // A garrison is beyond the reference, like a dragon: the storm cases check it.
    if position.phase.kind != PhaseKind::Movement || !position.garrisons.is_empty() {
        return None;
    }
    let result = adjudicate(&v, &position, &given);
    let mut units = Vec::new();
    let mut commands = Vec::new();
    let mut index = Vec::new();
    for (i, r) in &result.reports {
        let (kind, region) = r.unit?;
        if kind == UnitKind::Dragon {
            return None;
        }
        let command = match (&r.outcome, &r.command) {
            (Outcome::Illegal(_), _) => CheckedOrder::Hold,
            (
                _,
                CheckedOrder::Move {
                    via_convoy: true, ..
                }
                | CheckedOrder::Convoy { .. },
            ) => return None,
            (
                _,
                c @ (CheckedOrder::Hold
                | CheckedOrder::Move { .. }
                | CheckedOrder::SupportHold { .. }
                | CheckedOrder::SupportMove { .. }),
            ) => c.clone(),
            _ => return None,
        };
        let accepted = !matches!(r.outcome, Outcome::Illegal(_));
        units.push((r.owner, v.province_of(region)));
        commands.push(command);
        index.push(i.filter(|_| accepted));
    }
    Some((v, units, commands, index))
}

/// Case orders by the index `read_orders` gives them (orders that do not parse have none).
fn parsed_orders(v: &Variant, case: &Case) -> Vec<(usize, Option<Expect>)> {
    let source: Arc<str> = Arc::from("case");
    case.steps[0]
        .iter()
        .filter(|o| matches!(parse_order(v, &source, o.line, &o.text), Ok(Some(_))))
        .map(|o| o.expect.clone())
        .enumerate()
        .collect()
}

/// The reference is checked against every DATC and variant case it can express before the
/// property test trusts it: each expected outcome of an accepted order, and the units after.
#[test]
fn the_reference_passes_the_datc_cases_it_can_express() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut cache = VariantCache::default();
    let (mut checked, mut expectations, mut total) = (0usize, 0usize, 0usize);
    let mut problems = Vec::new();
    for dir in ["datc", "variant"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .expect("case directory")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "case"))
            .collect();
        files.sort();
        for file in files {
            let text = std::fs::read_to_string(&file).expect("case file");
            let name = format!(
                "tests/{dir}/{}",
                file.file_name().expect("name").to_string_lossy()
            );
            let cases = read_cases(&name, &text).unwrap_or_else(|e| panic!("{e}"));
            for case in &cases {
                total += 1;
                let Some((v, units, commands, index)) = expressible(&mut cache, case) else {
                    continue;
                };
                let answers = reference(&units, &commands, &v);
                let Some(ok) = reference_answer(&answers) else {
                    problems.push(format!(
                        "{name} {}: no single answer among {answers:?}",
                        case.id
                    ));
                    continue;
                };
                let (verdicts, dislodged) = reference_verdicts(&units, &commands, ok, &v);
                let expected = parsed_orders(&v, case);
                let before = expectations;
                for (u, i) in index.iter().enumerate() {
                    let Some(i) = i else { continue };
                    let Some((_, Some(expect))) = expected.get(*i) else {
                        continue;
                    };
                    expectations += 1;
                    let right = match expect {
                        Expect::Succeeds => verdicts[u],
                        Expect::Fails(_) => !verdicts[u],
                    };
                    if !right {
                        problems.push(format!(
                            "{name}:{} case {}: {:?} expected {expect:?}, the reference says {}",
                            case.line,
                            case.id,
                            commands[u],
                            if verdicts[u] { "succeeds" } else { "fails" }
                        ));
                    }
                }
                let compared_after = case.after.is_some();
                if let Some(after) = &case.after {
                    let mut wanted: Vec<ProvinceId> = after
                        .iter()
                        .filter_map(|l| {
                            // `england: F spa/sc` or `spa(sc)`: the province is what counts.
                            let region = l.split_whitespace().nth(2)?;
                            v.names.province(region.split(['/', '(']).next()?)
                        })
                        .collect();
                    let mut got: Vec<ProvinceId> = (0..units.len())
                        .filter(|&u| !dislodged[u])
                        .map(|u| match commands[u] {
                            CheckedOrder::Move { to, .. } if ok[u] => v.province_of(to),
                            _ => units[u].1,
                        })
                        .collect();
                    wanted.sort();
                    got.sort();
                    if wanted != got {
                        problems.push(format!(
                            "{name}:{} case {}: units after differ",
                            case.line, case.id
                        ));
                    }
                }
                if compared_after || expectations > before {
                    checked += 1;
                }
            }
        }
    }
    println!("reference: {checked} of {total} cases checked ({expectations} expected outcomes)");
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
    assert!(checked >= 200, "only {checked} cases expressible");
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
        let commands: Vec<CheckedOrder> = result.reports.iter().map(|(_, r)| r.command.clone()).collect();
        let got: Vec<bool> = result
            .reports
            .iter()
            .map(|(_, r)| matches!(r.command, CheckedOrder::Move { .. }) && r.outcome == Outcome::Succeeded)
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
