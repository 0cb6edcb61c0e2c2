//! Retreats and winter adjustments: the bot's best-valued retreat, builds and disbands,
//! and their random counterparts.

use crate::judge::{Position, adjustment_counts, free_home_centres, retreat_options};
use crate::map::{HouseId, Owner, ProvinceId, ProvinceKind, RegionId, UnitKind, Variant, fold};
use crate::order::{Instruction, Order};

use super::value::{Values, reach};
use super::{Orders, Rng, location};

const NOISE: f64 = 0.08;
/// A dragon flies over land and sea: worth a little more than what its centre shows.
const DRAGON_BONUS: f64 = 1.15;

/// Each dislodged unit of the house retreats to its best-valued free province, two never to
/// the same one, or is disbanded.
pub(super) fn retreats(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    values: &Values,
    rng: &mut Rng,
) -> Vec<Order> {
    let mut out = Orders::new(variant);
    let mut used: Vec<ProvinceId> = Vec::new();
    for (i, d) in position.dislodged.iter().enumerate() {
        if d.unit.owner != Owner::House(house) {
            continue;
        }
        let best = retreat_options(variant, position, i)
            .into_iter()
            .filter(|&r| !used.contains(&variant.province_of(r)))
            .map(|r| {
                let v = values.of(d.unit.kind, variant.province_of(r));
                (v * (1.0 + NOISE * rng.unit()), r)
            })
            .max_by(|a, b| a.0.total_cmp(&b.0));
        match best {
            Some((_, to)) => {
                used.push(variant.province_of(to));
                out.push(
                    &d.unit,
                    Instruction::Retreat {
                        to: location(variant, to),
                    },
                );
            }
            None => out.push(&d.unit, Instruction::Disband),
        }
    }
    out.list
}

pub(super) fn random_retreats(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    rng: &mut Rng,
) -> Vec<Order> {
    let mut out = Orders::new(variant);
    for (i, d) in position.dislodged.iter().enumerate() {
        if d.unit.owner != Owner::House(house) {
            continue;
        }
        let options = retreat_options(variant, position, i);
        let pick = rng.below(options.len() + 1);
        match options.get(pick) {
            Some(&to) => out.push(
                &d.unit,
                Instruction::Retreat {
                    to: location(variant, to),
                },
            ),
            None => out.push(&d.unit, Instruction::Disband),
        }
    }
    out.list
}

/// Every unit the house could build this winter: (kind, region), in the free owned home
/// centres, of the kinds it may build.
fn buildable(variant: &Variant, position: &Position, house: HouseId) -> Vec<(UnitKind, RegionId)> {
    let mut out = Vec::new();
    for p in free_home_centres(variant, position, house) {
        let province = variant.province(p);
        for &kind in &variant.house(house).builds {
            match kind {
                UnitKind::Fleet if province.kind == ProvinceKind::Land => {}
                UnitKind::Fleet if !province.coasts.is_empty() => {
                    out.extend(province.coasts.iter().map(|&c| (kind, c)));
                }
                UnitKind::Army if province.kind == ProvinceKind::Sea => {}
                // A town is a build site for armies only.
                _ if province.town && kind != UnitKind::Army => {}
                _ => out.push((kind, province.region)),
            }
        }
    }
    out
}

/// How many dragons the house could still name (a dragon built needs a free name).
fn dragon_names_left(variant: &Variant, position: &Position, house: HouseId) -> usize {
    variant
        .house(house)
        .dragon_names
        .iter()
        .filter(|n| {
            position
                .units
                .iter()
                .all(|u| u.name.as_ref().is_none_or(|t| fold(t) != fold(n)))
        })
        .count()
}

/// Builds: the units worth most where they could go next, one per centre. Disbands: the
/// units worth least where they stand and could go.
pub(super) fn adjustments(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    values: &Values,
    rng: &mut Rng,
) -> Vec<Order> {
    let worth = |kind: UnitKind, region: RegionId| {
        let here = values.of(kind, variant.province_of(region));
        let best = reach(variant, kind, region)
            .into_iter()
            .map(|p| values.of(kind, p))
            .fold(here, f64::max);
        if kind == UnitKind::Dragon {
            best * DRAGON_BONUS
        } else {
            best
        }
    };
    adjust_by(variant, position, house, |kind, region, _| {
        worth(kind, region) * (1.0 + NOISE * rng.unit())
    })
}

/// The builds or disbands due: the builds of highest `score` first, the units of lowest
/// `score` disbanded (`score(kind, region, building)`).
fn adjust_by(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    mut score: impl FnMut(UnitKind, RegionId, bool) -> f64,
) -> Vec<Order> {
    let delta = adjustment_counts(variant, position)[usize::from(house.0)];
    let mut out = Orders::new(variant);
    if delta > 0 {
        let mut options: Vec<(f64, UnitKind, RegionId)> = buildable(variant, position, house)
            .into_iter()
            .map(|(k, r)| (score(k, r, true), k, r))
            .collect();
        options.sort_by(|a, b| b.0.total_cmp(&a.0));
        pick_builds(variant, position, house, delta, options, &mut out);
    } else if delta < 0 {
        let mut units: Vec<(f64, usize)> = position
            .units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.owner == Owner::House(house))
            .map(|(i, u)| (score(u.kind, u.region, false), i))
            .collect();
        units.sort_by(|a, b| a.0.total_cmp(&b.0));
        for &(_, i) in units.iter().take(delta.unsigned_abs() as usize) {
            out.push(&position.units[i], Instruction::Disband);
        }
    }
    out.list
}

/// Takes builds from `options` in order: one per province, no more dragons than names.
fn pick_builds(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    delta: i32,
    options: Vec<(f64, UnitKind, RegionId)>,
    out: &mut Orders<'_>,
) {
    let mut names = dragon_names_left(variant, position, house);
    let mut built: Vec<ProvinceId> = Vec::new();
    for (_, kind, region) in options {
        if built.len() >= delta.unsigned_abs() as usize {
            break;
        }
        let p = variant.province_of(region);
        if built.contains(&p) || (kind == UnitKind::Dragon && names == 0) {
            continue;
        }
        if kind == UnitKind::Dragon {
            names -= 1;
        }
        built.push(p);
        out.build(kind, region);
    }
}

pub(super) fn random_adjustments(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    rng: &mut Rng,
) -> Vec<Order> {
    // A uniform draw per option; `1 - u` for builds, whose highest score comes first.
    adjust_by(variant, position, house, |_, _, building| {
        let u = rng.unit();
        if building { 1.0 - u } else { u }
    })
}
