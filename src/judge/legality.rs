//! From an order as written to a command the judge can follow: find the unit, check that
//! its house may order it and that the order is possible at all in this phase. An illegal
//! order is reported to its author with the reason; the unit then holds (seed 004).

use crate::map::{
    Crossing, HouseId, Owner, ProvinceId, ProvinceKind, RegionId, UnitKind, Variant, fold,
};
use crate::order::{Instruction, Location, Order, UnitSpec};

use super::outcome::{CheckedOrder, Illegal};
use super::position::{PhaseKind, Position, Unit};

/// Which list of units an order speaks of: those on the board, or those dislodged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum UnitPool {
    Board,
    Dislodged,
}

/// Units of one pool (the board, or the dislodged) with an index by province, built once
/// per phase so that finding a unit costs no scan of the board.
pub struct Board<'a> {
    pub units: Vec<&'a Unit>,
    at: Vec<Option<usize>>,
}

impl<'a> Board<'a> {
    pub fn new(variant: &Variant, units: impl Iterator<Item = &'a Unit>) -> Board<'a> {
        let units: Vec<&Unit> = units.collect();
        let mut at = vec![None; variant.provinces.len()];
        for (i, u) in units.iter().enumerate() {
            at[usize::from(variant.province_of(u.region).0)] = Some(i);
        }
        Board { units, at }
    }
}

/// The board and the dislodged units of a position, indexed.
pub(super) struct Boards<'a> {
    pub board: Board<'a>,
    pub dislodged: Board<'a>,
}

impl<'a> Boards<'a> {
    pub(super) fn new(variant: &Variant, position: &'a Position) -> Boards<'a> {
        Boards {
            board: Board::new(variant, position.units.iter()),
            dislodged: Board::new(variant, position.dislodged.iter().map(|d| &d.unit)),
        }
    }
}

/// Finds the one unit a spec describes in a pool.
pub fn find_unit(board: &Board<'_>, spec: &UnitSpec) -> Result<usize, Illegal> {
    let named = |u: &Unit| {
        spec.name
            .as_ref()
            .is_none_or(|name| u.name.as_ref().is_some_and(|n| fold(n) == fold(name)))
    };
    let found = match spec.at {
        Some(at) => board.at[usize::from(at.province.0)].filter(|&i| named(board.units[i])),
        None if spec.name.is_some() => {
            let mut matches = (0..board.units.len()).filter(|&i| named(board.units[i]));
            let first = matches.next();
            if matches.next().is_some() {
                return Err(Illegal::AmbiguousUnit);
            }
            first
        }
        None => None,
    };
    let index = found.ok_or(Illegal::NoSuchUnit)?;
    match spec.kind {
        Some(kind) if kind != board.units[index].kind => Err(Illegal::WrongUnitKind {
            actual: board.units[index].kind,
        }),
        _ => Ok(index),
    }
}

/// Checks that `house` (None: anybody, as in a stateless batch) may order this unit.
pub(super) fn check_owner(unit: &Unit, house: Option<HouseId>) -> Result<(), Illegal> {
    match (unit.owner, house) {
        (Owner::Neutral, _) => Err(Illegal::NeutralUnit),
        (_, None) => Ok(()),
        (Owner::House(h), Some(by)) if h == by => Ok(()),
        (owner, Some(_)) => Err(Illegal::NotYourUnit { owner }),
    }
}

/// An order refused: the unit it was for, when that unit was found (its pool and its
/// index there), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct RefusedOrder {
    pub unit: Option<(UnitPool, usize)>,
    pub why: Illegal,
}

impl RefusedOrder {
    /// The refusal of an order for `unit` (none: its unit was not found).
    fn of(unit: Option<(UnitPool, usize)>) -> impl Fn(Illegal) -> RefusedOrder {
        move |why| RefusedOrder { unit, why }
    }
}

/// The unit an order is for, in the pool the phase uses (none for a build or a waive,
/// which name no unit on the board), with the command it stands for.
pub(super) fn resolve_order(
    variant: &Variant,
    position: &Position,
    boards: &Boards<'_>,
    house: Option<HouseId>,
    order: &Order,
) -> Result<(Option<(UnitPool, usize)>, CheckedOrder), RefusedOrder> {
    match position.phase.kind {
        PhaseKind::Movement => {
            let index = find_unit(&boards.board, &order.unit).map_err(RefusedOrder::of(None))?;
            let found = Some((UnitPool::Board, index));
            let unit = boards.board.units[index];
            check_owner(unit, house).map_err(RefusedOrder::of(found))?;
            movement_command(variant, position, boards, unit, &order.action)
                .map(|c| (found, c))
                .map_err(RefusedOrder::of(found))
        }
        PhaseKind::Retreat => {
            let index = match find_unit(&boards.dislodged, &order.unit) {
                Ok(index) => index,
                Err(e) => {
                    let why = match find_unit(&boards.board, &order.unit) {
                        Ok(_) => Illegal::NotDislodged,
                        Err(_) => e,
                    };
                    return Err(RefusedOrder { unit: None, why });
                }
            };
            let found = Some((UnitPool::Dislodged, index));
            check_owner(boards.dislodged.units[index], house).map_err(RefusedOrder::of(found))?;
            retreat_command(variant, position, index, &order.action)
                .map(|c| (found, c))
                .map_err(RefusedOrder::of(found))
        }
        PhaseKind::Adjustment => match &order.action {
            Instruction::Disband => {
                let index =
                    find_unit(&boards.board, &order.unit).map_err(RefusedOrder::of(None))?;
                let found = Some((UnitPool::Board, index));
                check_owner(boards.board.units[index], house).map_err(RefusedOrder::of(found))?;
                Ok((found, CheckedOrder::Disband))
            }
            Instruction::Build => build_command(variant, position, &order.unit)
                .map(|c| (None, c))
                .map_err(RefusedOrder::of(None)),
            Instruction::Waive => Ok((None, CheckedOrder::Waive)),
            _ => Err(RefusedOrder {
                unit: None,
                why: Illegal::WrongPhase,
            }),
        },
    }
}

fn movement_command(
    variant: &Variant,
    position: &Position,
    boards: &Boards<'_>,
    unit: &Unit,
    action: &Instruction,
) -> Result<CheckedOrder, Illegal> {
    match action {
        Instruction::Hold => Ok(CheckedOrder::Hold),
        Instruction::Move { to, via_convoy, .. } => {
            let command = move_command(variant, position, unit, *to, *via_convoy)?;
            // DATC v3.0 6.D.32: beyond its neighbours an army needs fleets on some sea
            // route, whatever their orders; otherwise the order is illegal and it holds.
            if let CheckedOrder::Move {
                to,
                via_convoy: true,
            } = command
                && !fleet_route_exists(
                    variant,
                    position,
                    variant.province_of(unit.region),
                    variant.province_of(to),
                )
            {
                return Err(Illegal::NoFleetsOnRoute);
            }
            Ok(command)
        }
        Instruction::Support {
            unit: supported,
            to,
        } => support_command(variant, position, boards, unit, supported, *to),
        Instruction::Convoy { unit: army, to } => convoy_command(variant, boards, unit, army, *to),
        Instruction::Retreat { .. }
        | Instruction::Disband
        | Instruction::Build
        | Instruction::Waive => Err(Illegal::WrongPhase),
    }
}

/// A move: the target region, or why it cannot be tried. Armies may go by convoy when a
/// sea route exists; whether fleets carry them is the movement phase's business.
pub fn move_command(
    variant: &Variant,
    position: &Position,
    unit: &Unit,
    to: Location,
    via_convoy: bool,
) -> Result<CheckedOrder, Illegal> {
    let from = variant.province_of(unit.region);
    if to.province == from {
        return Err(Illegal::MoveToOwnProvince);
    }
    if position.is_closed(to.province) {
        return Err(Illegal::ProvinceClosed);
    }
    let target = variant.province(to.province);
    match unit.kind {
        UnitKind::Army => {
            if target.kind == ProvinceKind::Sea {
                return Err(Illegal::WrongTerrain);
            }
            // DATC 6.B.12: a coast written for an army is ignored.
            let region = target.region;
            if !via_convoy && variant.can_move(UnitKind::Army, unit.region, region) {
                return Ok(CheckedOrder::Move {
                    to: region,
                    via_convoy: false,
                });
            }
            let passage = position.passage(variant, unit.owner, Crossing::Move);
            let special = variant.special_crossing(UnitKind::Army, from, to.province, passage);
            if !via_convoy && special == Some(Ok(())) {
                return Ok(CheckedOrder::Move {
                    to: region,
                    via_convoy: false,
                });
            }
            if variant.province(from).kind == ProvinceKind::Coast
                && target.kind == ProvinceKind::Coast
                && sea_route_exists(variant, from, to.province)
            {
                Ok(CheckedOrder::Move {
                    to: region,
                    via_convoy: true,
                })
            } else {
                Err(match special {
                    Some(Err(barrier)) => Illegal::of_barrier(barrier),
                    _ => Illegal::NotAdjacent,
                })
            }
        }
        UnitKind::Dragon => {
            if via_convoy {
                return Err(Illegal::CannotBeConvoyed);
            }
            if variant.can_move(UnitKind::Dragon, unit.region, target.region) {
                Ok(CheckedOrder::Move {
                    to: target.region,
                    via_convoy: false,
                })
            } else {
                Err(Illegal::NotAdjacent)
            }
        }
        UnitKind::Fleet => {
            if via_convoy {
                return Err(Illegal::CannotBeConvoyed);
            }
            if target.kind == ProvinceKind::Land {
                return Err(Illegal::WrongTerrain);
            }
            fleet_target(variant, unit.region, to).map(|region| CheckedOrder::Move {
                to: region,
                via_convoy: false,
            })
        }
    }
}

/// The region a fleet in `from` reaches when told to go to `to` (DATC 6.B.1–6.B.3).
pub(super) fn fleet_target(
    variant: &Variant,
    from: RegionId,
    to: Location,
) -> Result<RegionId, Illegal> {
    let reachable: Vec<RegionId> = variant.fleet_adjacency[usize::from(from.0)]
        .iter()
        .copied()
        .filter(|&r| variant.province_of(r) == to.province)
        .collect();
    match (to.coast, reachable.as_slice()) {
        (_, []) => Err(Illegal::NotAdjacent),
        (Some(coast), _) if reachable.contains(&coast) => Ok(coast),
        (Some(_), _) => Err(Illegal::CoastNotReachable),
        // DATC v3.0 6.B.2 (2023 rules): a multi-coast province needs its coast, even when
        // only one can be reached.
        (None, [one]) if variant.province(to.province).coasts.is_empty() => Ok(*one),
        (None, _) => Err(Illegal::CoastNeeded),
    }
}

/// Whether sea province `sea` lies on some chain of seas from `from` to `to` in which
/// every sea is needed: no sea of the chain touches `from` but the first, none touches
/// `to` but the last, and none touches another but its neighbours in the chain. A fleet
/// that no such chain passes through would make an unnecessary convoy (DATC v3.0 6.G.19:
/// the Western Mediterranean, behind the Gulf of Lyon that touches Spain, on the way from
/// Marseilles).
pub(super) fn sea_on_route(
    variant: &Variant,
    from: ProvinceId,
    to: ProvinceId,
    sea: ProvinceId,
) -> bool {
    if !sea_between(variant, from, to, sea) {
        return false;
    }
    let starts: Vec<ProvinceId> = seas_touching(variant, from).collect();
    let mut search = NeededRoute {
        variant,
        from,
        to,
        sea,
        path: Vec::new(),
        // A huge map could hold very many chains: past this many steps, any chain will do.
        budget: 100_000,
    };
    for &first in &starts {
        match search.extend(first) {
            Some(true) => return true,
            Some(false) => {}
            None => return true,
        }
    }
    false
}

/// Whether sea province `sea` can be reached by seas from the coasts of both `from` and
/// `to`: a fleet there could take part in a convoy between them, needed or not.
pub(super) fn sea_between(
    variant: &Variant,
    from: ProvinceId,
    to: ProvinceId,
    sea: ProvinceId,
) -> bool {
    sea_search(variant, from, |s| s == sea, |_| true)
        && sea_search(variant, to, |s| s == sea, |_| true)
}

/// The search of a chain of needed seas through one sea.
struct NeededRoute<'a> {
    variant: &'a Variant,
    from: ProvinceId,
    to: ProvinceId,
    sea: ProvinceId,
    path: Vec<ProvinceId>,
    budget: u32,
}

impl NeededRoute<'_> {
    /// Whether the chain so far, followed by `next`, leads on to a whole chain through the
    /// sea; None when the budget is spent.
    fn extend(&mut self, next: ProvinceId) -> Option<bool> {
        self.budget = self.budget.checked_sub(1)?;
        self.path.push(next);
        let found = if fleet_touches(self.variant, next, self.to) {
            // The chain is whole: any sea after this one would not be needed.
            Some(self.path.contains(&self.sea))
        } else {
            let mut found = Some(false);
            let before = self.path.len() - 1;
            let candidates: Vec<ProvinceId> = seas_touching(self.variant, next).collect();
            for m in candidates {
                let needed = !self.path.contains(&m)
                    && !fleet_touches(self.variant, m, self.from)
                    && self.path[..before]
                        .iter()
                        .all(|&p| !fleet_touches(self.variant, p, m));
                if needed {
                    match self.extend(m) {
                        Some(false) => {}
                        other => {
                            found = other;
                            break;
                        }
                    }
                }
            }
            found
        };
        self.path.pop();
        found
    }
}

/// Whether some sea that `wanted` accepts is reachable from the coasts of `from` through
/// seas that `open` lets through (the sea found must be open too).
fn sea_search(
    variant: &Variant,
    from: ProvinceId,
    wanted: impl Fn(ProvinceId) -> bool,
    open: impl Fn(ProvinceId) -> bool,
) -> bool {
    // Called for every army that may go by sea, in every phase: on a map of a few hundred
    // provinces the marks and the frontier live on the stack, and the search stops at the
    // first sea wanted.
    const SMALL: usize = 256;
    let count = variant.provinces.len();
    let (mut seen_small, mut frontier_small) = ([false; SMALL], [ProvinceId(0); SMALL]);
    let (mut seen_large, mut frontier_large) = (Vec::new(), Vec::new());
    let (seen, frontier): (&mut [bool], &mut [ProvinceId]) = if count <= SMALL {
        (&mut seen_small[..count], &mut frontier_small[..count])
    } else {
        seen_large.resize(count, false);
        frontier_large.resize(count, ProvinceId(0));
        (&mut seen_large, &mut frontier_large)
    };
    // Each province enters the frontier once at most: `count` places are enough.
    let mut len = 0;
    let visit =
        |sea: ProvinceId, seen: &mut [bool], frontier: &mut [ProvinceId], len: &mut usize| {
            let index = usize::from(sea.0);
            if open(sea) && seen.get(index).is_some_and(|s| !s) {
                seen[index] = true;
                if let Some(slot) = frontier.get_mut(*len) {
                    *slot = sea;
                    *len += 1;
                }
                return wanted(sea);
            }
            false
        };
    for sea in seas_touching(variant, from) {
        if visit(sea, seen, frontier, &mut len) {
            return true;
        }
    }
    let mut next = 0;
    while let Some(&sea) = frontier.get(next).filter(|_| next < len) {
        next += 1;
        for beyond in seas_touching(variant, sea) {
            if visit(beyond, seen, frontier, &mut len) {
                return true;
            }
        }
    }
    false
}

/// Whether a chain of seas that `open` lets through joins two coastal provinces.
fn sea_chain_joins(
    variant: &Variant,
    from: ProvinceId,
    to: ProvinceId,
    open: impl Fn(ProvinceId) -> bool,
) -> bool {
    sea_search(variant, from, |s| fleet_touches(variant, s, to), open)
}

/// Whether some chain of sea provinces joins two coastal provinces (a convoy could exist).
pub fn sea_route_exists(variant: &Variant, from: ProvinceId, to: ProvinceId) -> bool {
    sea_chain_joins(variant, from, to, |_| true)
}

/// Whether a chain of sea provinces, each holding a fleet, joins two coastal provinces.
fn fleet_route_exists(
    variant: &Variant,
    position: &Position,
    from: ProvinceId,
    to: ProvinceId,
) -> bool {
    let mut has_fleet = vec![false; variant.provinces.len()];
    for u in position.units.iter().filter(|u| u.kind == UnitKind::Fleet) {
        has_fleet[usize::from(variant.province_of(u.region).0)] = true;
    }
    sea_chain_joins(variant, from, to, |s| has_fleet[usize::from(s.0)])
}

/// The sea provinces a fleet could reach from any coast of `province`.
pub fn seas_touching(
    variant: &Variant,
    province: ProvinceId,
) -> impl Iterator<Item = ProvinceId> + '_ {
    let p = variant.province(province);
    std::iter::once(p.region)
        .chain(p.coasts.iter().copied())
        .flat_map(move |r| variant.fleet_adjacency[usize::from(r.0)].iter())
        .map(move |&r| variant.province_of(r))
        .filter(move |&q| variant.province(q).kind == ProvinceKind::Sea)
}

/// Whether a fleet in sea province `sea` borders province `to` (any coast).
pub fn fleet_touches(variant: &Variant, sea: ProvinceId, to: ProvinceId) -> bool {
    let region = variant.province(sea).region;
    variant.fleet_adjacency[usize::from(region.0)]
        .iter()
        .any(|&r| variant.province_of(r) == to)
}

/// Whether `unit` may support a hold or a move into `province` now: within its reach, by
/// the borders that carry a support for its house in this weather, and not into a closed
/// province. The bot asks it too.
pub fn can_support_into(
    variant: &Variant,
    position: &Position,
    unit: &Unit,
    province: ProvinceId,
) -> bool {
    let passage = position.passage(variant, unit.owner, Crossing::Support);
    !position.is_closed(province)
        && variant.can_reach_province_by(unit.kind, unit.region, province, passage)
}

fn support_command(
    variant: &Variant,
    position: &Position,
    boards: &Boards<'_>,
    supporter: &Unit,
    supported: &UnitSpec,
    to: Option<Location>,
) -> Result<CheckedOrder, Illegal> {
    let spec = UnitSpec {
        kind: None,
        ..supported.clone()
    };
    let index = find_unit(&boards.board, &spec).map_err(|_| Illegal::NothingToSupport)?;
    let target = boards.board.units[index];
    if std::ptr::eq(target, supporter) {
        return Err(Illegal::SupportSelf);
    }
    if target.owner == Owner::Neutral {
        return Err(Illegal::SupportToNeutral);
    }
    let unit = variant.province_of(target.region);
    let into = to.map_or(unit, |l| l.province);
    if position.is_closed(into) {
        return Err(Illegal::ProvinceClosed);
    }
    let passage = position.passage(variant, supporter.owner, Crossing::Support);
    if !can_support_into(variant, position, supporter, into) {
        let from = variant.province_of(supporter.region);
        return Err(
            match variant.special_crossing(supporter.kind, from, into, passage) {
                Some(Err(barrier)) => Illegal::of_barrier(barrier),
                _ => Illegal::SupportOutOfReach,
            },
        );
    }
    Ok(match to {
        None => CheckedOrder::SupportHold { unit },
        Some(to) => CheckedOrder::SupportMove {
            unit,
            to: to.province,
            // Only a fleet's move keeps its coast (DATC 6.B.12; by the variant's rules,
            // dragons never need one), so only for a fleet can a coast in the support
            // tell moves apart.
            // Kept for an army or a dragon, it would never match the move it names.
            coast: to.coast.filter(|_| target.kind == UnitKind::Fleet),
        },
    })
}

fn convoy_command(
    variant: &Variant,
    boards: &Boards<'_>,
    fleet: &Unit,
    army: &UnitSpec,
    to: Location,
) -> Result<CheckedOrder, Illegal> {
    let at = variant.province_of(fleet.region);
    if fleet.kind != UnitKind::Fleet || variant.province(at).kind != ProvinceKind::Sea {
        return Err(Illegal::CannotConvoy);
    }
    let spec = UnitSpec {
        kind: None,
        ..army.clone()
    };
    let index = find_unit(&boards.board, &spec).map_err(|_| Illegal::NothingToConvoy)?;
    let army = boards.board.units[index];
    if army.kind != UnitKind::Army {
        return Err(Illegal::CannotBeConvoyed);
    }
    Ok(CheckedOrder::Convoy {
        army: variant.province_of(army.region),
        to: to.province,
    })
}

pub(super) fn retreat_command(
    variant: &Variant,
    position: &Position,
    index: usize,
    action: &Instruction,
) -> Result<CheckedOrder, Illegal> {
    let dislodged = &position.dislodged[index];
    let to = match action {
        Instruction::Disband => return Ok(CheckedOrder::Disband),
        Instruction::Move {
            to,
            via_convoy: false,
            ..
        }
        | Instruction::Retreat { to } => *to,
        Instruction::Move {
            via_convoy: true, ..
        } => return Err(Illegal::CannotBeConvoyed),
        _ => return Err(Illegal::WrongPhase),
    };
    let unit = &dislodged.unit;
    let region = match move_command(variant, position, unit, to, false)? {
        CheckedOrder::Move {
            to,
            via_convoy: false,
        } => to,
        // DATC 6.H.11–6.H.13: no convoy in a retreat.
        _ => return Err(Illegal::NotAdjacent),
    };
    let province = variant.province_of(region);
    if Some(province) == dislodged.attacker_from {
        return Err(Illegal::RetreatToAttackerProvince);
    }
    if position.unit_in(variant, province).is_some() {
        return Err(Illegal::RetreatOccupied);
    }
    if position.contested.contains(&province) {
        return Err(Illegal::RetreatContested);
    }
    // A retreat is no attack: it cannot force a garrison of another house.
    if position
        .garrison_in(province)
        .is_some_and(|g| g.owner != unit.owner)
    {
        return Err(Illegal::RetreatGarrisoned);
    }
    Ok(CheckedOrder::Retreat { to: region })
}

fn build_command(
    variant: &Variant,
    position: &Position,
    spec: &UnitSpec,
) -> Result<CheckedOrder, Illegal> {
    let (Some(kind), Some(at)) = (spec.kind, spec.at) else {
        return Err(Illegal::NoSuchUnit);
    };
    if position.is_closed(at.province) {
        return Err(Illegal::ProvinceClosed);
    }
    let province = variant.province(at.province);
    let region = match kind {
        UnitKind::Fleet => {
            if province.kind == ProvinceKind::Land {
                return Err(Illegal::WrongTerrain);
            }
            match (at.coast, province.coasts.is_empty()) {
                (_, true) => province.region,
                (Some(coast), false) => coast,
                // DATC 6.B.14: a fleet built on a multi-coast province needs its coast.
                (None, false) => return Err(Illegal::CoastNeeded),
            }
        }
        UnitKind::Army if province.kind == ProvinceKind::Sea => return Err(Illegal::WrongTerrain),
        UnitKind::Army | UnitKind::Dragon => province.region,
    };
    Ok(CheckedOrder::Build { kind, region })
}
