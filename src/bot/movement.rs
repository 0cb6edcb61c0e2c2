//! The movement phase: each unit's best-valued destination, with no two units into one
//! province and no unit into a province an own unit keeps; then convoys for armies that
//! gain by one, then supports from the units that stay.

use crate::judge::{Position, Unit, can_support_into, move_command, seas_touching};
use crate::map::{HouseId, Owner, ProvinceId, ProvinceKind, RegionId, UnitKind, Variant};
use crate::order::{Instruction, Location};

use super::value::{Values, reach};
use super::{Orders, Rng, location};

/// Near-equal choices are told apart by up to this share of their value, at random.
const NOISE: f64 = 0.08;
/// An attack on a province another unit stands in may bounce: it counts for less.
const OCCUPIED: f64 = 0.7;
/// A convoy must gain at least this much over the army's plain choice.
const CONVOY_GAIN: f64 = 1.0;

/// What a unit was told.
#[derive(Debug, Clone, PartialEq)]
enum Plan {
    Stay,
    Move { to: RegionId, via_convoy: bool },
    SupportHold { unit: usize },
    SupportMove { unit: usize, to: RegionId },
    Convoy { army: usize, to: RegionId },
}

/// The regions a unit may be told to move to, without a convoy: every legal one, as the
/// judge decides it (arrows and fords for its house in this weather, no closed province).
pub(super) fn moves(variant: &Variant, position: &Position, unit: &Unit) -> Vec<RegionId> {
    match unit.kind {
        UnitKind::Fleet => variant.fleet_adjacency[usize::from(unit.region.0)]
            .iter()
            .copied()
            .filter(|&r| !position.is_closed(variant.province_of(r)))
            .collect(),
        kind => {
            let from = variant.province_of(unit.region);
            let candidates = match kind {
                UnitKind::Army => variant.army_neighbours_by(
                    from,
                    position.passage(variant, unit.owner, crate::map::Crossing::Move),
                ),
                _ => reach(variant, kind, unit.region),
            };
            candidates
                .into_iter()
                .filter(|&p| {
                    move_command(variant, position, unit, Location::province(p), false).is_ok()
                })
                .map(|p| variant.province(p).region)
                .collect()
        }
    }
}

pub(super) fn plan(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    values: &Values,
    rng: &mut Rng,
) -> Vec<crate::order::Order> {
    let own: Vec<usize> = (0..position.units.len())
        .filter(|&i| position.units[i].owner == Owner::House(house))
        .collect();
    let province = |i: usize| variant.province_of(position.units[i].region);
    // Every choice of every unit, best first.
    let mut choices: Vec<(f64, usize, Option<RegionId>)> = Vec::new();
    for &i in &own {
        let unit = &position.units[i];
        let here = values.of(unit.kind, province(i));
        choices.push((here * (1.0 + NOISE * rng.unit()), i, None));
        for to in moves(variant, position, unit) {
            let p = variant.province_of(to);
            let mut v = values.of(unit.kind, p);
            if values.occupant[usize::from(p.0)]
                .is_some_and(|o| position.units[o].owner != Owner::House(house))
            {
                v *= OCCUPIED;
            }
            choices.push((v * (1.0 + NOISE * rng.unit()), i, Some(to)));
        }
    }
    choices.sort_by(|a, b| b.0.total_cmp(&a.0));
    let n = variant.provinces.len();
    let mut plans: Vec<Option<Plan>> = vec![None; position.units.len()];
    // Who will stand in each province at the end, among own units.
    let mut claimed: Vec<Option<usize>> = vec![None; n];
    for &(_, i, to) in &choices {
        if plans[i].is_some() {
            continue;
        }
        match to {
            None => {
                let here = usize::from(province(i).0);
                if claimed[here].is_none() {
                    claimed[here] = Some(i);
                    plans[i] = Some(Plan::Stay);
                }
            }
            Some(to) => {
                let p = usize::from(variant.province_of(to).0);
                let kept = values.occupant[p].is_some_and(|o| {
                    position.units[o].owner == Owner::House(house) && plans[o] == Some(Plan::Stay)
                });
                if claimed[p].is_none() && !kept {
                    claimed[p] = Some(i);
                    plans[i] = Some(Plan::Move {
                        to,
                        via_convoy: false,
                    });
                }
            }
        }
    }
    // A unit whose every way was taken stays; a move then into its province, or a swap
    // of two own units (they would bounce off each other), becomes a support of it.
    for &i in &own {
        if plans[i].is_none() {
            plans[i] = Some(Plan::Stay);
        }
    }
    loop {
        let mut changed = false;
        for &i in &own {
            let Some(Plan::Move { to, .. }) = plans[i] else {
                continue;
            };
            let p = variant.province_of(to);
            let Some(o) = values.occupant[usize::from(p.0)] else {
                continue;
            };
            if position.units[o].owner != Owner::House(house) {
                continue;
            }
            let blocked = match plans[o] {
                Some(Plan::Move { to: back, .. }) => variant.province_of(back) == province(i),
                _ => true,
            };
            if blocked {
                // A move along an arrow carries no support back: the unit then stays.
                plans[i] = Some(
                    if matches!(plans[o], Some(Plan::Move { .. }))
                        || !can_support_into(variant, position, &position.units[i], p)
                    {
                        Plan::Stay
                    } else {
                        Plan::SupportHold { unit: o }
                    },
                );
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    let mut taken: Vec<bool> = vec![false; n];
    for &i in &own {
        match plans[i] {
            Some(Plan::Move { to, .. }) => taken[usize::from(variant.province_of(to).0)] = true,
            _ => taken[usize::from(province(i).0)] = true,
        }
    }
    convoys(variant, position, values, &own, &mut plans, &mut taken);
    supports(variant, position, house, values, &own, &mut plans, rng);
    let mut out = Orders::new(variant);
    for &i in &own {
        let unit = &position.units[i];
        let action = match plans[i].clone().unwrap_or(Plan::Stay) {
            Plan::Stay => Instruction::Hold,
            Plan::Move { to, via_convoy } => Instruction::Move {
                to: location(variant, to),
                via_convoy,
                path: Vec::new(),
            },
            Plan::SupportHold { unit: o } => Instruction::Support {
                unit: out.other(&position.units[o]).0,
                to: None,
            },
            Plan::SupportMove { unit: o, to } => Instruction::Support {
                unit: out.other(&position.units[o]).0,
                to: Some(out.target(to).0),
            },
            Plan::Convoy { army, to } => Instruction::Convoy {
                unit: out.other(&position.units[army]).0,
                to: out.target(to).0,
            },
        };
        out.push(unit, action);
    }
    out.list
}

/// An army on a coast that stays, beside an own fleet at sea that stays, goes by that
/// fleet to the best coast it touches, when that is worth clearly more than staying.
fn convoys(
    variant: &Variant,
    position: &Position,
    values: &Values,
    own: &[usize],
    plans: &mut [Option<Plan>],
    taken: &mut [bool],
) {
    for &a in own {
        let army = &position.units[a];
        let from = variant.province_of(army.region);
        if army.kind != UnitKind::Army
            || plans[a] != Some(Plan::Stay)
            || variant.province(from).kind != ProvinceKind::Coast
        {
            continue;
        }
        let here = values.of(UnitKind::Army, from);
        let mut best: Option<(f64, usize, ProvinceId)> = None;
        for &f in own {
            let fleet = &position.units[f];
            let sea = variant.province_of(fleet.region);
            if fleet.kind != UnitKind::Fleet
                || plans[f] != Some(Plan::Stay)
                || variant.province(sea).kind != ProvinceKind::Sea
                || !seas_touching(variant, from).any(|s| s == sea)
            {
                continue;
            }
            for to in seas_touching_coasts(variant, sea) {
                if to == from
                    || taken[usize::from(to.0)]
                    || variant.army_adjacency[usize::from(from.0)].contains(&to)
                {
                    continue;
                }
                let target = Location::province(to);
                if move_command(variant, position, army, target, true).is_err() {
                    continue;
                }
                let v = values.of(UnitKind::Army, to);
                if v > here + CONVOY_GAIN && best.is_none_or(|(b, _, _)| v > b) {
                    best = Some((v, f, to));
                }
            }
        }
        if let Some((_, f, to)) = best {
            let region = variant.province(to).region;
            plans[a] = Some(Plan::Move {
                to: region,
                via_convoy: true,
            });
            plans[f] = Some(Plan::Convoy {
                army: a,
                to: region,
            });
            taken[usize::from(to.0)] = true;
        }
    }
}

/// The coastal provinces a fleet in sea province `sea` touches.
fn seas_touching_coasts(variant: &Variant, sea: ProvinceId) -> Vec<ProvinceId> {
    let mut out: Vec<ProvinceId> = variant.fleet_adjacency
        [usize::from(variant.province(sea).region.0)]
    .iter()
    .map(|&r| variant.province_of(r))
    .filter(|&p| variant.province(p).kind == ProvinceKind::Coast)
    .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Each unit that stays supports the own move it can reach that needs it most (into a
/// province another unit holds, or that others could enter), else the hold of a
/// threatened own neighbour, else holds.
fn supports(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    values: &Values,
    own: &[usize],
    plans: &mut [Option<Plan>],
    rng: &mut Rng,
) {
    let moves: Vec<(usize, RegionId)> = own
        .iter()
        .filter_map(|&i| match plans[i] {
            Some(Plan::Move { to, .. }) => Some((i, to)),
            _ => None,
        })
        .collect();
    let mut given = vec![0u32; position.units.len()];
    let mut order: Vec<usize> = own
        .iter()
        .copied()
        .filter(|&i| plans[i] == Some(Plan::Stay))
        .collect();
    // Who offers first is drawn, so that no unit always gets the first pick.
    for k in (1..order.len()).rev() {
        order.swap(k, rng.below(k + 1));
    }
    for s in order {
        let supporter = &position.units[s];
        let here = variant.province_of(supporter.region);
        let mut best: Option<(f64, Plan, usize)> = None;
        for &(m, to) in &moves {
            let p = variant.province_of(to);
            if p == here || !can_support_into(variant, position, supporter, p) {
                continue;
            }
            let i = usize::from(p.0);
            let held =
                values.occupant[i].is_some_and(|o| position.units[o].owner != Owner::House(house));
            let need = if held {
                2.0
            } else if values.threat[i] > 0 {
                1.0
            } else {
                0.0
            };
            if need == 0.0 {
                continue;
            }
            let mover = &position.units[m];
            let score = need * values.of(mover.kind, p) / f64::from(1 + given[m]);
            if best.as_ref().is_none_or(|(b, _, _)| score > *b) {
                best = Some((score, Plan::SupportMove { unit: m, to }, m));
            }
        }
        for &t in own {
            if t == s || matches!(plans[t], Some(Plan::Move { .. })) {
                continue;
            }
            let target = &position.units[t];
            let p = variant.province_of(target.region);
            let i = usize::from(p.0);
            if values.threat[i] == 0 || !can_support_into(variant, position, supporter, p) {
                continue;
            }
            let score = 0.5 * f64::from(values.threat[i]) * values.of(target.kind, p)
                / f64::from(1 + given[t]);
            if best.as_ref().is_none_or(|(b, _, _)| score > *b) {
                best = Some((score, Plan::SupportHold { unit: t }, t));
            }
        }
        if let Some((_, plan, whom)) = best {
            given[whom] += 1;
            plans[s] = Some(plan);
        }
    }
}

/// For each unit, one of: hold, any legal move, a support to hold of any unit of a house
/// in reach, drawn uniformly.
pub(super) fn random(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    rng: &mut Rng,
) -> Vec<crate::order::Order> {
    let mut out = Orders::new(variant);
    let mut at: Vec<Option<usize>> = vec![None; variant.provinces.len()];
    for (i, u) in position.units.iter().enumerate() {
        at[usize::from(variant.province_of(u.region).0)] = Some(i);
    }
    for unit in position
        .units
        .iter()
        .filter(|u| u.owner == Owner::House(house))
    {
        let mut options: Vec<Instruction> = vec![Instruction::Hold];
        for to in moves(variant, position, unit) {
            options.push(Instruction::Move {
                to: location(variant, to),
                via_convoy: false,
                path: Vec::new(),
            });
        }
        for p in reach(variant, unit.kind, unit.region) {
            if let Some(o) = at[usize::from(p.0)]
                && position.units[o].owner != Owner::Neutral
                && can_support_into(variant, position, unit, p)
            {
                options.push(Instruction::Support {
                    unit: out.other(&position.units[o]).0,
                    to: None,
                });
            }
        }
        let pick = options.swap_remove(rng.below(options.len()));
        out.push(unit, pick);
    }
    out.list
}
