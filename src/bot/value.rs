//! What each province is worth to one house, for each kind of unit: the supply centres
//! and their owners make the first values, which then spread to the neighbours a unit of
//! that kind could reach, so that a unit far from any centre still sees where to go.

use crate::judge::{Position, Season};
use crate::map::{HouseId, Owner, ProvinceId, ProvinceKind, RegionId, UnitKind, Variant};

/// An unowned centre: the cheapest gain on the board.
const FREE_CENTRE: f64 = 10.0;
/// Another house's centre: worth taking, more so from a large house (the leader is the one
/// to stop).
const ENEMY_CENTRE: f64 = 6.0;
const PER_ENEMY_CENTRE: f64 = 0.6;
/// One's own centre, for each enemy unit that could enter it next phase.
const DEFENCE: f64 = 5.0;
/// A home centre lost is a build site lost.
const HOME_DEFENCE: f64 = 2.0;
/// A centre held by a neutral force needs two units to take.
const NEUTRAL_HELD: f64 = 0.6;

/// How much each blurring pass counts, nearest first. In autumn the centres a unit stands
/// on at the end count most: ownership changes then.
const SPRING_WEIGHTS: [f64; 7] = [1.0, 2.0, 1.2, 0.7, 0.4, 0.2, 0.1];
const AUTUMN_WEIGHTS: [f64; 7] = [3.0, 1.5, 0.8, 0.4, 0.2, 0.1, 0.05];

/// The values of one position for one house.
pub(super) struct Values {
    /// Value of each province for an army, a fleet and a dragon (by `kind_index`).
    by_kind: [Vec<f64>; 3],
    /// Number of other houses' units that could move into each province.
    pub threat: Vec<u32>,
    /// The unit standing in each province (index into `position.units`).
    pub occupant: Vec<Option<usize>>,
}

pub(super) fn kind_index(kind: UnitKind) -> usize {
    match kind {
        UnitKind::Army => 0,
        UnitKind::Fleet => 1,
        UnitKind::Dragon => 2,
    }
}

/// The provinces a unit of `kind` in `region` could move to (no convoy).
pub(super) fn reach(variant: &Variant, kind: UnitKind, region: RegionId) -> Vec<ProvinceId> {
    let from = usize::from(variant.province_of(region).0);
    match kind {
        UnitKind::Army => variant.army_adjacency[from].clone(),
        UnitKind::Dragon => variant.dragon_adjacency[from].clone(),
        UnitKind::Fleet => {
            let mut out: Vec<ProvinceId> = variant.fleet_adjacency[usize::from(region.0)]
                .iter()
                .map(|&r| variant.province_of(r))
                .collect();
            out.dedup();
            out
        }
    }
}

/// The provinces a unit of `kind` standing anywhere in province `p` could reach: the map a
/// kind's values spread over.
fn neighbours(variant: &Variant, kind: UnitKind, p: ProvinceId) -> Vec<ProvinceId> {
    let province = variant.province(p);
    match kind {
        UnitKind::Army if province.kind == ProvinceKind::Sea => Vec::new(),
        UnitKind::Army => variant.army_adjacency[usize::from(p.0)].clone(),
        UnitKind::Dragon => variant.dragon_adjacency[usize::from(p.0)].clone(),
        UnitKind::Fleet => {
            let mut out: Vec<ProvinceId> = std::iter::once(province.region)
                .chain(province.coasts.iter().copied())
                .flat_map(|r| variant.fleet_adjacency[usize::from(r.0)].iter())
                .map(|&r| variant.province_of(r))
                .collect();
            out.sort_unstable();
            out.dedup();
            out
        }
    }
}

impl Values {
    pub(super) fn new(variant: &Variant, position: &Position, house: HouseId) -> Values {
        let n = variant.provinces.len();
        let mut occupant = vec![None; n];
        let mut threat = vec![0u32; n];
        for (i, unit) in position.units.iter().enumerate() {
            occupant[usize::from(variant.province_of(unit.region).0)] = Some(i);
            if let Owner::House(h) = unit.owner
                && h != house
            {
                for p in reach(variant, unit.kind, unit.region) {
                    threat[usize::from(p.0)] += 1;
                }
            }
        }
        let centres = position.centre_counts(variant);
        let base: Vec<f64> = variant
            .province_ids()
            .map(|p| {
                let province = variant.province(p);
                if !province.supply {
                    return 0.0;
                }
                let i = usize::from(p.0);
                let mut value = match position.owners[i] {
                    Some(h) if h == house => {
                        let per = if province.home_of == Some(house) {
                            DEFENCE + HOME_DEFENCE
                        } else {
                            DEFENCE
                        };
                        per * f64::from(threat[i].min(3))
                    }
                    Some(h) => ENEMY_CENTRE + PER_ENEMY_CENTRE * centres[usize::from(h.0)] as f64,
                    None => FREE_CENTRE,
                };
                if occupant[i].is_some_and(|u| position.units[u].owner == Owner::Neutral) {
                    value *= NEUTRAL_HELD;
                }
                value
            })
            .collect();
        let weights = if position.phase.season == Season::Autumn {
            &AUTUMN_WEIGHTS
        } else {
            &SPRING_WEIGHTS
        };
        let by_kind = [UnitKind::Army, UnitKind::Fleet, UnitKind::Dragon]
            .map(|kind| spread(variant, kind, &base, weights));
        Values {
            by_kind,
            threat,
            occupant,
        }
    }

    /// What a unit of `kind` standing in `p` is worth there.
    pub(super) fn of(&self, kind: UnitKind, p: ProvinceId) -> f64 {
        self.by_kind[kind_index(kind)][usize::from(p.0)]
    }
}

/// The weighted sum of the base values and of their successive blurs over the map of
/// `kind`: each pass gives a province its own value plus its neighbours', over five.
fn spread(variant: &Variant, kind: UnitKind, base: &[f64], weights: &[f64]) -> Vec<f64> {
    let adjacency: Vec<Vec<ProvinceId>> = variant
        .province_ids()
        .map(|p| neighbours(variant, kind, p))
        .collect();
    let mut layer = base.to_vec();
    let mut total: Vec<f64> = base.iter().map(|v| v * weights[0]).collect();
    for &w in &weights[1..] {
        let next: Vec<f64> = adjacency
            .iter()
            .enumerate()
            .map(|(p, near)| {
                (layer[p] + near.iter().map(|q| layer[usize::from(q.0)]).sum::<f64>()) / 5.0
            })
            .collect();
        for (t, v) in total.iter_mut().zip(&next) {
            *t += w * v;
        }
        layer = next;
    }
    total
}
