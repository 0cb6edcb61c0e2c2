//! The winter adjustment phase: builds in owned, unoccupied home centres, disbands, and
//! civil disorder for a house that disbands fewer units than it must (DATC 2023 rule:
//! units farthest from an owned supply centre go first).

use std::collections::VecDeque;

use crate::map::{HouseId, Owner, ProvinceId, UnitKind, Variant, fold};

use super::edition::DisorderDistance;
use super::outcome::{CheckedOrder, Failure, Illegal, Outcome};
use super::position::{Position, Unit};

/// One adjustment order after legality: the unit (for a disband) and the command.
#[derive(Debug, Clone)]
pub(super) struct AdjustmentOrder {
    /// The house that gave the order (for builds without a house: the centre's house).
    pub house: Option<HouseId>,
    /// The unit to disband, by index in the position.
    pub unit: Option<usize>,
    pub command: CheckedOrder,
}

/// What the adjustments decided.
#[derive(Debug, Clone, Default)]
pub(super) struct AdjustmentResult {
    /// One outcome per order, in order.
    pub outcomes: Vec<Outcome>,
    /// Units removed, by index in the position, with whether it was civil disorder.
    pub removed: Vec<(usize, bool)>,
    /// New units.
    pub built: Vec<Unit>,
}

/// How many builds (positive) or disbands (negative) each house has, by house index.
pub fn adjustment_counts(variant: &Variant, position: &Position) -> Vec<i32> {
    let centres = position.centre_counts(variant);
    let units = position.unit_counts(variant);
    centres
        .iter()
        .zip(&units)
        .map(|(&c, &u)| c as i32 - u as i32)
        .collect()
}

/// Whether a house has anything to decide this winter: disbands due, or builds possible in
/// a free owned home centre.
pub fn has_adjustments(variant: &Variant, position: &Position) -> bool {
    adjustment_counts(variant, position)
        .iter()
        .enumerate()
        .any(|(h, &delta)| {
            delta < 0
                || (delta > 0 && !free_home_centres(variant, position, HouseId(h as u8)).is_empty())
        })
}

/// Where a house may build: its owned home centres, then the towns it owns (armies only),
/// with no unit in them.
pub fn free_home_centres(
    variant: &Variant,
    position: &Position,
    house: HouseId,
) -> Vec<ProvinceId> {
    let towns = variant.province_ids().filter(|&p| variant.province(p).town);
    variant
        .house(house)
        .home
        .iter()
        .copied()
        .chain(towns)
        .filter(|&p| position.owners[usize::from(p.0)] == Some(house))
        .filter(|&p| position.unit_in(variant, p).is_none() && !position.is_closed(p))
        .collect()
}

/// Decides every build, waive and disband, then civil disorder.
pub(super) fn resolve_adjustments(
    variant: &Variant,
    position: &Position,
    orders: &[AdjustmentOrder],
    distance_from: DisorderDistance,
) -> AdjustmentResult {
    let counts = adjustment_counts(variant, position);
    let mut result = AdjustmentResult::default();
    let mut used = vec![0i32; variant.houses.len()];
    let mut built_in: Vec<ProvinceId> = Vec::new();
    let mut dragons_named: Vec<String> = position
        .units
        .iter()
        .filter_map(|u| u.name.clone())
        .collect();
    let mut disbanded: Vec<usize> = Vec::new();
    for order in orders {
        let outcome = match &order.command {
            CheckedOrder::Build { kind, region } => {
                let province = variant.province_of(*region);
                match build_check(variant, position, order.house, *kind, province, &built_in) {
                    Err(illegal) => Outcome::Illegal(illegal),
                    Ok(house) => {
                        let h = usize::from(house.0);
                        if used[h] >= counts[h] {
                            Outcome::Failed(Failure::BeyondAllowance)
                        } else {
                            let name = match kind {
                                UnitKind::Dragon => {
                                    next_dragon_name(variant, house, &dragons_named)
                                }
                                _ => Some(String::new()),
                            };
                            match name {
                                None => Outcome::Illegal(Illegal::NoDragonNameLeft),
                                Some(name) => {
                                    used[h] += 1;
                                    built_in.push(province);
                                    let name = (!name.is_empty()).then_some(name);
                                    if let Some(n) = &name {
                                        dragons_named.push(n.clone());
                                    }
                                    result.built.push(Unit {
                                        owner: Owner::House(house),
                                        kind: *kind,
                                        region: *region,
                                        name,
                                    });
                                    Outcome::Succeeded
                                }
                            }
                        }
                    }
                }
            }
            CheckedOrder::Waive => match order.house {
                Some(house) if counts[usize::from(house.0)] > used[usize::from(house.0)] => {
                    used[usize::from(house.0)] += 1;
                    Outcome::Succeeded
                }
                _ => Outcome::Illegal(Illegal::NoBuildAllowed),
            },
            CheckedOrder::Disband => match order.unit {
                Some(u) => {
                    let Owner::House(house) = position.units[u].owner else {
                        result.outcomes.push(Outcome::Illegal(Illegal::NeutralUnit));
                        continue;
                    };
                    let h = usize::from(house.0);
                    if counts[h] >= 0 {
                        Outcome::Illegal(Illegal::NoDisbandDue)
                    } else if disbanded.contains(&u) {
                        Outcome::Illegal(Illegal::Duplicate)
                    } else if used[h] <= counts[h] {
                        Outcome::Failed(Failure::BeyondAllowance)
                    } else {
                        used[h] -= 1;
                        disbanded.push(u);
                        result.removed.push((u, false));
                        Outcome::Succeeded
                    }
                }
                None => Outcome::Illegal(Illegal::NoSuchUnit),
            },
            _ => Outcome::Illegal(Illegal::WrongPhase),
        };
        result.outcomes.push(outcome);
    }
    for house in variant.house_ids() {
        let h = usize::from(house.0);
        let missing = used[h] - counts[h];
        if counts[h] < 0 && missing > 0 {
            for u in civil_disorder(
                variant,
                position,
                house,
                &disbanded,
                missing as usize,
                distance_from,
            ) {
                result.removed.push((u, true));
            }
        }
    }
    result
}

fn build_check(
    variant: &Variant,
    position: &Position,
    by: Option<HouseId>,
    kind: UnitKind,
    province: ProvinceId,
    built_in: &[ProvinceId],
) -> Result<HouseId, Illegal> {
    let town = variant.province(province).town;
    // A town is its owner's build site, for armies only.
    let site = if town {
        position.owners[usize::from(province.0)].or(by)
    } else {
        variant.province(province).home_of
    };
    let Some(house) = site else {
        return Err(Illegal::NotHomeCentre);
    };
    if by.is_some_and(|b| b != house) {
        return Err(if town {
            Illegal::CentreNotOwned
        } else {
            Illegal::NotHomeCentre
        });
    }
    if town && kind != UnitKind::Army {
        return Err(Illegal::KindNotBuildable);
    }
    if position.owners[usize::from(province.0)] != Some(house) {
        return Err(Illegal::CentreNotOwned);
    }
    if position.unit_in(variant, province).is_some() || built_in.contains(&province) {
        return Err(Illegal::CentreOccupied);
    }
    if !variant.house(house).builds.contains(&kind) {
        return Err(Illegal::KindNotBuildable);
    }
    if adjustment_counts(variant, position)[usize::from(house.0)] <= 0 {
        return Err(Illegal::NoBuildAllowed);
    }
    Ok(house)
}

fn next_dragon_name(variant: &Variant, house: HouseId, taken: &[String]) -> Option<String> {
    variant
        .house(house)
        .dragon_names
        .iter()
        .find(|n| taken.iter().all(|t| fold(t) != fold(n)))
        .cloned()
}

/// The units a house in civil disorder loses: farthest from any supply centre it owns
/// (counting every border, as if any unit could cross land and sea), then fleets before
/// dragons before armies, then by the folded display name of the province. The reasons
/// for each step are in docs/rules.md ("Civil disorder: which units go").
fn civil_disorder(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    already: &[usize],
    count: usize,
    distance_from: DisorderDistance,
) -> Vec<usize> {
    let distances = distance_to_centres(variant, position, house, distance_from);
    let mut candidates: Vec<(usize, u32)> = position
        .units
        .iter()
        .enumerate()
        .filter(|(i, u)| u.owner == Owner::House(house) && !already.contains(i))
        .map(|(i, u)| (i, distances[usize::from(variant.province_of(u.region).0)]))
        .collect();
    let kind_rank = |k: UnitKind| match k {
        UnitKind::Fleet => 0,
        UnitKind::Dragon => 1,
        UnitKind::Army => 2,
    };
    candidates.sort_by(|&(a, da), &(b, db)| {
        let (ua, ub) = (&position.units[a], &position.units[b]);
        db.cmp(&da)
            .then(kind_rank(ua.kind).cmp(&kind_rank(ub.kind)))
            .then_with(|| {
                let name = |u: &Unit| fold(&variant.province(variant.province_of(u.region)).name);
                name(ua).cmp(&name(ub))
            })
    });
    candidates.into_iter().take(count).map(|(i, _)| i).collect()
}

/// Breadth-first distance from every province to the nearest centre the house owns, or
/// to the nearest of its home centres (the 1971 rule).
fn distance_to_centres(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    from: DisorderDistance,
) -> Vec<u32> {
    let mut distance = vec![u32::MAX; variant.provinces.len()];
    let mut queue = VecDeque::new();
    for p in variant.province_ids() {
        let counted = match from {
            DisorderDistance::OwnedCentres => {
                variant.province(p).supply && position.owners[usize::from(p.0)] == Some(house)
            }
            DisorderDistance::HomeCentres => variant.house(house).home.contains(&p),
        };
        if counted {
            distance[usize::from(p.0)] = 0;
            queue.push_back(p);
        }
    }
    while let Some(p) = queue.pop_front() {
        let d = distance[usize::from(p.0)];
        for &q in &variant.dragon_adjacency[usize::from(p.0)] {
            if distance[usize::from(q.0)] == u32::MAX {
                distance[usize::from(q.0)] = d + 1;
                queue.push_back(q);
            }
        }
    }
    distance
}
