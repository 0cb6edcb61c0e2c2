//! Property tests of the judge on random legal order sets, on Westeros and on the classic
//! map. Each unit gets a random order among hold, a move to a random neighbour, a support
//! of a neighbouring unit's hold or move, and a convoy (armies sometimes try a move by
//! convoy). Orders are written as text and read by the order parser, as a player's would be.
//!
//! After each phase: no province holds two units; every unit is accounted for exactly once
//! (on the board, where it was or in a neighbouring province; dislodged; or disbanded);
//! every order gets exactly one outcome; the same input gives the same result; and the
//! retreat phase that follows, with default or random retreat orders, never puts two units
//! in one province. Games run for several turns from the starting position, and on random
//! crowded boards.
//!
//! The case count is modest (128) so that the suite stays fast; raise it with
//! `PROPTEST_CASES=1000 cargo test --release --test props`.

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;

use corbeau::judge::{
    Adjudication, CheckedOrder, GivenOrder, Phase, PhaseKind, Position, Season, Unit, adjudicate,
    fleet_touches, move_command, retreat_options, seas_touching,
};
use corbeau::map::{Owner, ProvinceKind, RegionId, UnitKind, Variant, load_variant};
use corbeau::order::{Location, parse_order};

fn westeros() -> &'static Variant {
    static V: OnceLock<Variant> = OnceLock::new();
    V.get_or_init(|| load_variant("westeros").expect("games/westeros.toml loads"))
}

fn classique() -> &'static Variant {
    static V: OnceLock<Variant> = OnceLock::new();
    V.get_or_init(|| load_variant("classique").expect("games/classique.toml loads"))
}

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(128);
    ProptestConfig {
        cases,
        ..ProptestConfig::default()
    }
}

/// One random draw per unit: which kind of order, and numbers to pick its targets with.
type Choice = (u8, u16, u16, u16);

fn choices(len: usize) -> impl Strategy<Value = Vec<Choice>> {
    prop::collection::vec((0u8..16, any::<u16>(), any::<u16>(), any::<u16>()), len)
}

fn pick<T: Copy>(list: &[T], n: u16) -> Option<T> {
    if list.is_empty() {
        None
    } else {
        list.get(usize::from(n) % list.len()).copied()
    }
}

fn province_of(variant: &Variant, unit: &Unit) -> corbeau::map::ProvinceId {
    variant.province_of(unit.region)
}

/// `A win`, `F win/ouest`, `D pey`: the unit as an order names it.
fn unit_words(variant: &Variant, unit: &Unit) -> String {
    format!(
        "{} {}",
        unit.kind.letter(),
        variant.region_label(unit.region)
    )
}

/// The regions a unit could move to in one step (no convoy), as the judge's map says.
fn neighbours(variant: &Variant, unit: &Unit) -> Vec<RegionId> {
    variant
        .region_ids()
        .filter(|&r| variant.can_move(unit.kind, unit.region, r))
        .collect()
}

/// Whether a unit standing at `from` may be found at `to` after a movement phase: where it
/// was, a neighbour, or (an army) a coast the judge would let it reach by convoy.
fn may_end_at(variant: &Variant, unit: &Unit, to: RegionId) -> bool {
    if to == unit.region || variant.can_move(unit.kind, unit.region, to) {
        return true;
    }
    let by_sea = Location {
        province: variant.province_of(to),
        coast: None,
    };
    // The maps of these properties have no border of a kind of its own: an empty board
    // asks what the borders alone allow.
    let board = Position::empty(variant, corbeau::judge::Phase::first(variant.first_year));
    unit.kind == UnitKind::Army
        && matches!(
            move_command(variant, &board, unit, by_sea, true),
            Ok(CheckedOrder::Move { to: there, .. }) if there == to
        )
}

/// What a unit was drawn to do, before supports and convoys pick whom to help.
#[derive(Clone, Copy, PartialEq)]
enum Intent {
    Hold,
    /// A move to a neighbour, or (an army) across the water.
    Move(corbeau::map::ProvinceId),
    Support,
    Convoy,
}

/// Units standing in a province this unit could move to.
fn neighbouring_units(variant: &Variant, position: &Position, i: usize) -> Vec<usize> {
    let near = neighbours(variant, &position.units[i]);
    position
        .units
        .iter()
        .enumerate()
        .filter(|(j, u)| {
            *j != i
                && near
                    .iter()
                    .any(|&r| variant.province_of(r) == province_of(variant, u))
        })
        .map(|(j, _)| j)
        .collect()
}

/// Random orders for every unit of the position, as text. Most supports and convoys help
/// a neighbour's actual order (so that attacks succeed and units are dislodged); the
/// others help at random (and often match nothing).
fn random_orders(variant: &Variant, position: &Position, choices: &[Choice]) -> Vec<String> {
    let draws: Vec<Choice> = choices
        .iter()
        .copied()
        .cycle()
        .take(position.units.len())
        .collect();
    let mut intents = Vec::with_capacity(draws.len());
    let mut texts = Vec::with_capacity(draws.len());
    for (i, &(what, a, b, c)) in draws.iter().enumerate() {
        let unit = &position.units[i];
        let me = unit_words(variant, unit);
        let (intent, text) = match what {
            0..=1 => (Intent::Hold, format!("{me} H")),
            2..=7 => match pick(&neighbours(variant, unit), a) {
                Some(to) => (
                    Intent::Move(variant.province_of(to)),
                    format!("{me} -> {}", variant.region_label(to)),
                ),
                None => (Intent::Hold, format!("{me} H")),
            },
            8..=12 => (Intent::Support, String::new()),
            13..=14
                if unit.kind == UnitKind::Fleet
                    && variant.province(province_of(variant, unit)).kind == ProvinceKind::Sea =>
            {
                (Intent::Convoy, String::new())
            }
            _ => match army_by_convoy(variant, position, i, b, c) {
                Some((to, text)) => (Intent::Move(to), text),
                None => (Intent::Hold, format!("{me} H")),
            },
        };
        intents.push(intent);
        texts.push(text);
    }
    for (i, &(what, a, b, c)) in draws.iter().enumerate() {
        let random = c % 4 == 0;
        match intents[i] {
            Intent::Support => {
                texts[i] = support_text(variant, position, &intents, i, (what, a, b, c), random)
            }
            Intent::Convoy => {
                texts[i] = convoy_text(variant, position, &intents, i, (what, a, b, c), random)
            }
            _ => {}
        }
    }
    texts
}

fn support_text(
    variant: &Variant,
    position: &Position,
    intents: &[Intent],
    i: usize,
    (what, a, b, _): Choice,
    random: bool,
) -> String {
    let unit = &position.units[i];
    let me = unit_words(variant, unit);
    let near = neighbours(variant, unit);
    let reaches = |p: corbeau::map::ProvinceId| {
        p != province_of(variant, unit) && near.iter().any(|&n| variant.province_of(n) == p)
    };
    let near_units = neighbouring_units(variant, position, i);
    if !random {
        // Help what the neighbour actually does, when this unit can reach it.
        let helpful: Vec<usize> = position
            .units
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .filter(|&(j, _)| match intents[j] {
                Intent::Move(to) => reaches(to),
                _ => near_units.contains(&j),
            })
            .map(|(j, _)| j)
            .collect();
        if let Some(j) = pick(&helpful, a) {
            let other = unit_words(variant, &position.units[j]);
            return match intents[j] {
                Intent::Move(to) => format!("{me} S {other} -> {}", variant.province(to).id),
                _ => format!("{me} S {other}"),
            };
        }
    }
    let Some(j) = pick(&near_units, a) else {
        return format!("{me} H");
    };
    let other = &position.units[j];
    if what % 2 == 0 {
        return format!("{me} S {}", unit_words(variant, other));
    }
    let reach: Vec<RegionId> = neighbours(variant, other)
        .into_iter()
        .filter(|&r| reaches(variant.province_of(r)))
        .collect();
    match pick(&reach, b) {
        Some(to) => format!(
            "{me} S {} -> {}",
            unit_words(variant, other),
            variant.province(variant.province_of(to)).id
        ),
        None => format!("{me} H"),
    }
}

fn convoy_text(
    variant: &Variant,
    position: &Position,
    intents: &[Intent],
    i: usize,
    (_, a, b, c): Choice,
    random: bool,
) -> String {
    let unit = &position.units[i];
    let me = unit_words(variant, unit);
    let coastal = |p: corbeau::map::ProvinceId| variant.province(p).kind == ProvinceKind::Coast;
    if !random {
        // Carry an army that is moving from one coast to another.
        let moving: Vec<usize> = (0..position.units.len())
            .filter(|&j| {
                position.units[j].kind == UnitKind::Army
                    && coastal(province_of(variant, &position.units[j]))
                    && matches!(intents[j], Intent::Move(to) if coastal(to))
            })
            .collect();
        if let Some(j) = pick(&moving, a)
            && let Intent::Move(to) = intents[j]
        {
            return format!(
                "{me} C {} -> {}",
                unit_words(variant, &position.units[j]),
                variant.province(to).id
            );
        }
    }
    // Any army on a shore of this sea, to any other shore of it.
    let shores: Vec<corbeau::map::ProvinceId> = neighbours(variant, unit)
        .iter()
        .map(|&r| variant.province_of(r))
        .filter(|&p| coastal(p))
        .collect();
    let armies: Vec<usize> = position
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.kind == UnitKind::Army && shores.contains(&province_of(variant, u)))
        .map(|(j, _)| j)
        .collect();
    match (pick(&armies, b), pick(&shores, c)) {
        (Some(army), Some(to)) if to != province_of(variant, &position.units[army]) => format!(
            "{me} C {} -> {}",
            unit_words(variant, &position.units[army]),
            variant.province(to).id
        ),
        _ => format!("{me} H"),
    }
}

/// An army on a coast goes to a coast that a sea it touches also touches.
fn army_by_convoy(
    variant: &Variant,
    position: &Position,
    i: usize,
    b: u16,
    c: u16,
) -> Option<(corbeau::map::ProvinceId, String)> {
    let unit = &position.units[i];
    let here = province_of(variant, unit);
    if unit.kind != UnitKind::Army || variant.province(here).kind != ProvinceKind::Coast {
        return None;
    }
    let seas: Vec<corbeau::map::ProvinceId> = seas_touching(variant, here).collect();
    let sea = pick(&seas, b)?;
    let shores: Vec<corbeau::map::ProvinceId> = variant
        .province_ids()
        .filter(|&p| {
            p != here
                && variant.province(p).kind == ProvinceKind::Coast
                && fleet_touches(variant, sea, p)
        })
        .collect();
    let to = pick(&shores, c)?;
    let via = if c.is_multiple_of(2) {
        " via convoy"
    } else {
        ""
    };
    Some((
        to,
        format!(
            "{} -> {}{via}",
            unit_words(variant, unit),
            variant.province(to).id
        ),
    ))
}

fn give(variant: &Variant, owner: Owner, text: &str, line: u32) -> GivenOrder {
    let source: Arc<str> = Arc::from("props");
    let order = match parse_order(variant, &source, line, text) {
        Ok(Some(order)) => order,
        other => panic!("`{text}` does not parse: {other:?}"),
    };
    GivenOrder {
        house: match owner {
            Owner::House(h) => Some(h),
            Owner::Neutral => None,
        },
        order,
    }
}

fn movement_orders(variant: &Variant, position: &Position, choices: &[Choice]) -> Vec<GivenOrder> {
    position
        .units
        .iter()
        .zip(random_orders(variant, position, choices))
        .enumerate()
        .map(|(i, (unit, text))| give(variant, unit.owner, &text, i as u32 + 1))
        .collect()
}

fn retreat_orders(variant: &Variant, position: &Position, choices: &[Choice]) -> Vec<GivenOrder> {
    position
        .dislodged
        .iter()
        .enumerate()
        .zip(choices.iter().cycle())
        .filter_map(|((i, d), &(what, a, _, _))| {
            let me = unit_words(variant, &d.unit);
            let text = match what % 4 {
                0 => format!("{me} disband"),
                1 => return None,
                _ => match pick(&retreat_options(variant, position, i), a) {
                    Some(to) => format!("{me} R {}", variant.region_label(to)),
                    None => format!("{me} disband"),
                },
            };
            Some(give(variant, d.unit.owner, &text, i as u32 + 1))
        })
        .collect()
}

/// No province holds two units on the board.
fn one_unit_a_province(variant: &Variant, position: &Position) -> Result<(), String> {
    let mut seen = vec![false; variant.provinces.len()];
    for unit in &position.units {
        let p = province_of(variant, unit);
        if std::mem::replace(&mut seen[usize::from(p.0)], true) {
            return Err(format!(
                "two units in {} at {}",
                variant.province(p).id,
                position.phase
            ));
        }
    }
    Ok(())
}

fn same_unit(a: &Unit, b: &Unit) -> bool {
    a.owner == b.owner && a.kind == b.kind && a.name == b.name
}

/// Every unit before the phase is found exactly once after it: on the board where it may
/// have gone, or dislodged or disbanded where it stood. A perfect matching (Kuhn).
fn accounted_for(
    variant: &Variant,
    before: &[Unit],
    on_board: &[Unit],
    in_place: &[Unit],
) -> Result<(), String> {
    let after: Vec<(&Unit, bool)> = on_board
        .iter()
        .map(|u| (u, true))
        .chain(in_place.iter().map(|u| (u, false)))
        .collect();
    if before.len() != after.len() {
        return Err(format!(
            "{} units before, {} after ({} on the board, {} dislodged or disbanded)",
            before.len(),
            after.len(),
            on_board.len(),
            in_place.len()
        ));
    }
    let edges: Vec<Vec<usize>> = before
        .iter()
        .map(|b| {
            after
                .iter()
                .enumerate()
                .filter(|(_, (a, may_move))| {
                    same_unit(b, a)
                        && if *may_move {
                            may_end_at(variant, b, a.region)
                        } else {
                            a.region == b.region
                        }
                })
                .map(|(j, _)| j)
                .collect()
        })
        .collect();
    let mut owner_of: Vec<Option<usize>> = vec![None; after.len()];
    fn augment(
        i: usize,
        edges: &[Vec<usize>],
        owner_of: &mut [Option<usize>],
        seen: &mut [bool],
    ) -> bool {
        for &j in &edges[i] {
            if std::mem::replace(&mut seen[j], true) {
                continue;
            }
            if owner_of[j].is_none_or(|k| augment(k, edges, owner_of, seen)) {
                owner_of[j] = Some(i);
                return true;
            }
        }
        false
    }
    for (i, unit) in before.iter().enumerate() {
        let mut seen = vec![false; after.len()];
        if !augment(i, &edges, &mut owner_of, &mut seen) {
            return Err(format!(
                "{} {} {:?} is not accounted for (or went beyond its neighbours)",
                unit.kind,
                variant.region_label(unit.region),
                unit.owner
            ));
        }
    }
    Ok(())
}

/// Every order given has exactly one outcome: a report or a rejection.
fn one_outcome_an_order(adjudication: &Adjudication, orders: usize) -> Result<(), String> {
    let mut count = vec![0; orders];
    for (index, _) in &adjudication.reports {
        if let Some(i) = index {
            count[*i] += 1;
        }
    }
    for r in &adjudication.rejected {
        count[r.order] += 1;
    }
    match count.iter().position(|&c| c != 1) {
        Some(i) => Err(format!("order {i} has {} outcomes", count[i])),
        None => Ok(()),
    }
}

fn deterministic(
    variant: &Variant,
    position: &Position,
    orders: &[GivenOrder],
    first: &Adjudication,
) -> Result<(), String> {
    let again = adjudicate(variant, position, orders);
    if format!("{first:?}") == format!("{again:?}") {
        Ok(())
    } else {
        Err("the same input gave two different results".to_string())
    }
}

fn texts(orders: &[GivenOrder]) -> String {
    orders
        .iter()
        .map(|o| o.order.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Plays `turns` movement phases (with the retreat and adjustment phases between them)
/// from `position`, checking every property on the way.
fn play(
    variant: &Variant,
    mut position: Position,
    turns: &[Vec<Choice>],
) -> Result<(), TestCaseError> {
    for choices in turns {
        if position.phase.kind != PhaseKind::Movement {
            break;
        }
        let orders = movement_orders(variant, &position, choices);
        let context = || format!("{}\norders:\n{}", position.phase, texts(&orders));
        let moved = adjudicate(variant, &position, &orders);
        let check = one_unit_a_province(variant, &moved.after)
            .and_then(|()| {
                let in_place: Vec<Unit> = moved
                    .after
                    .dislodged
                    .iter()
                    .map(|d| d.unit.clone())
                    .chain(moved.disbanded.iter().cloned())
                    .collect();
                accounted_for(variant, &position.units, &moved.after.units, &in_place)
            })
            .and_then(|()| one_outcome_an_order(&moved, orders.len()))
            .and_then(|()| deterministic(variant, &position, &orders, &moved));
        if let Err(e) = check {
            return Err(TestCaseError::fail(format!("{e}\n{}", context())));
        }
        position = moved.after;
        if position.phase.kind == PhaseKind::Retreat {
            // Default orders: every dislodged unit is disbanded.
            let default = adjudicate(variant, &position, &[]);
            one_unit_a_province(variant, &default.after).map_err(TestCaseError::fail)?;
            // Random retreats, standoffs included.
            let orders = retreat_orders(variant, &position, choices);
            let retreated = adjudicate(variant, &position, &orders);
            let everyone: Vec<Unit> = position
                .units
                .iter()
                .chain(position.dislodged.iter().map(|d| &d.unit))
                .cloned()
                .collect();
            let check = one_unit_a_province(variant, &retreated.after)
                .and_then(|()| {
                    accounted_for(
                        variant,
                        &everyone,
                        &retreated.after.units,
                        &retreated.disbanded,
                    )
                })
                .and_then(|()| one_outcome_an_order(&retreated, orders.len()))
                .and_then(|()| deterministic(variant, &position, &orders, &retreated));
            if let Err(e) = check {
                return Err(TestCaseError::fail(format!(
                    "retreats at {}: {e}\norders:\n{}",
                    position.phase,
                    texts(&orders)
                )));
            }
            position = retreated.after;
        }
        if position.phase.kind == PhaseKind::Adjustment {
            // No orders: builds are not made, disbands are decided by civil disorder.
            let adjusted = adjudicate(variant, &position, &[]);
            let check = one_unit_a_province(variant, &adjusted.after).and_then(|()| {
                let units: Vec<Unit> = adjusted.after.units.clone();
                accounted_for(variant, &position.units, &units, &adjusted.disbanded)
            });
            if let Err(e) = check {
                return Err(TestCaseError::fail(format!(
                    "adjustments at {}: {e}",
                    position.phase
                )));
            }
            position = adjusted.after;
        }
    }
    Ok(())
}

/// A crowded random board: about `density` in 16 provinces hold a unit of a random house
/// (or a neutral one), of a kind that may stand there.
fn random_position(variant: &Variant, cells: &[Choice], density: u8) -> Position {
    let phase = Phase {
        year: variant.first_year,
        season: Season::Spring,
        kind: PhaseKind::Movement,
    };
    let mut position = Position::starting(variant, None).expect("a full setup");
    position.phase = phase;
    position.units.clear();
    let houses = variant.houses.len();
    for (p, &(roll, kind, owner, coast)) in variant.province_ids().zip(cells.iter().cycle()) {
        if roll >= density {
            continue;
        }
        let province = variant.province(p);
        let kinds: &[UnitKind] = match province.kind {
            ProvinceKind::Land => &[UnitKind::Army, UnitKind::Dragon],
            ProvinceKind::Coast => &[UnitKind::Army, UnitKind::Fleet, UnitKind::Dragon],
            ProvinceKind::Sea => &[UnitKind::Fleet, UnitKind::Dragon],
        };
        let kind = kinds[usize::from(kind) % kinds.len()];
        let region = if kind == UnitKind::Fleet && !province.coasts.is_empty() {
            province.coasts[usize::from(coast) % province.coasts.len()]
        } else {
            province.region
        };
        assert!(variant.can_stand(kind, region));
        let owner = match usize::from(owner) % (houses + 1) {
            h if h == houses => Owner::Neutral,
            h => Owner::House(corbeau::map::HouseId(h as u8)),
        };
        position.units.push(Unit {
            owner,
            kind,
            region,
            name: None,
        });
    }
    position
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn westeros_games_from_the_start(turns in prop::collection::vec(choices(24), 4)) {
        let variant = westeros();
        let start = Position::starting(variant, None).expect("westeros has a 7-player setup");
        play(variant, start, &turns)?;
    }

    #[test]
    fn westeros_games_with_fewer_players(players in 3u8..=6, turns in prop::collection::vec(choices(24), 3)) {
        let variant = westeros();
        let start = Position::starting(variant, Some(players)).expect("westeros has setups for 3 to 7");
        play(variant, start, &turns)?;
    }

    #[test]
    fn classique_games_from_the_start(turns in prop::collection::vec(choices(22), 4)) {
        let variant = classique();
        let start = Position::starting(variant, None).expect("classique has a full setup");
        play(variant, start, &turns)?;
    }

    #[test]
    fn westeros_crowded_boards(cells in choices(54), density in 6u8..=14, turns in prop::collection::vec(choices(54), 2)) {
        let variant = westeros();
        let start = random_position(variant, &cells, density);
        play(variant, start, &turns)?;
    }

    #[test]
    fn classique_crowded_boards(cells in choices(75), density in 6u8..=14, turns in prop::collection::vec(choices(75), 2)) {
        let variant = classique();
        let start = random_position(variant, &cells, density);
        play(variant, start, &turns)?;
    }
}

/// The absent houses' starting units stand as neutral units (SPEC.md §2).
#[test]
fn absent_houses_units_are_neutral() {
    let variant = westeros();
    let full = Position::starting(variant, None).expect("7 players");
    let three = Position::starting(variant, Some(3)).expect("3 players");
    assert_eq!(full.units.len(), three.units.len());
    let setup = variant.setup(3).expect("3-player setup");
    for unit in &three.units {
        match unit.owner {
            Owner::House(h) => assert!(setup.houses.contains(&h)),
            Owner::Neutral => {}
        }
    }
    let neutral = |p: &Position| p.units.iter().filter(|u| u.owner == Owner::Neutral).count();
    assert_eq!(neutral(&full), 2, "Port-Réal and Les Eyrié");
    assert_eq!(
        neutral(&three),
        2 + 3 * 4,
        "plus the units of Greyjoy, Tyrell, Martell, Targaryen"
    );
}

/// The accounting check itself catches a lost unit, a unit that jumped beyond its
/// neighbours, and a unit that changed hands.
#[test]
fn the_accounting_check_catches_mistakes() {
    let variant = westeros();
    let start = Position::starting(variant, None).expect("7 players");
    let units = start.units.clone();
    assert!(accounted_for(variant, &units, &units, &[]).is_ok());
    assert!(accounted_for(variant, &units, &units[1..], &[]).is_err());
    let mut jumped = units.clone();
    let far = variant
        .province(variant.province_by_id("pas").expect("pas"))
        .region;
    jumped[0].region = far;
    assert!(accounted_for(variant, &units, &jumped, &[]).is_err());
    let mut turned = units.clone();
    turned[0].owner = Owner::Neutral;
    assert!(accounted_for(variant, &units, &turned, &[]).is_err());
    let mut moved = units.clone();
    let win = variant
        .province(variant.province_by_id("win").expect("win"))
        .region;
    let roc = variant
        .province(variant.province_by_id("roc").expect("roc"))
        .region;
    let i = moved.iter().position(|u| u.region == win).expect("A win");
    moved[i].region = roc;
    assert!(accounted_for(variant, &units, &moved, &[]).is_ok());
    assert!(accounted_for(variant, &units, &moved, &units[..1]).is_err());
    assert!(accounted_for(variant, &units, &units[1..], &units[..1]).is_ok());
}
