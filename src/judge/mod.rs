//! The adjudicator: a pure function of a variant, a position and the orders given, which
//! returns every order's outcome with its reason and the position of the next phase.

mod adjust;
mod edition;
mod legality;
mod movement;
mod outcome;
mod position;
mod retreat;
mod standing;

pub use adjust::{adjustment_counts, free_home_centres, has_adjustments};
pub use edition::{ConvoyUse, DisorderDistance, Edition, UnknownEdition};
pub use legality::{
    Board, can_support_into, find_unit, fleet_touches, move_command, sea_route_exists,
    seas_touching,
};
pub use outcome::{CheckedOrder, Failure, Illegal, Outcome, Report};
pub use position::{Dislodged, Garrison, Phase, PhaseKind, Position, Season, Unit};
pub use retreat::retreat_options;
pub use standing::{leaders, reaching_victory};

use crate::map::{HouseId, Owner, Variant};
use crate::order::Order;

use adjust::AdjustmentOrder;
use legality::{Boards, RefusedOrder, UnitPool, resolve_order};

/// An order with the house that gave it (None: a batch file without house names, where
/// any house's unit may be ordered).
#[derive(Debug, Clone, PartialEq)]
pub struct GivenOrder {
    pub house: Option<HouseId>,
    pub order: Order,
}

/// An order that names no unit the judge could find, or that was overridden.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejected {
    /// Index of the order in the input.
    pub order: usize,
    pub illegal: Illegal,
}

/// Everything a phase decided.
#[derive(Debug, Clone, PartialEq)]
pub struct Adjudication {
    /// The phase adjudicated.
    pub phase: Phase,
    /// The rule edition it was adjudicated under.
    pub rules: Edition,
    /// One report per unit (movement, retreat) or per adjustment order, with the index of
    /// the order it answers, if any.
    pub reports: Vec<(Option<usize>, Report)>,
    /// Orders that could not be attached to a unit.
    pub rejected: Vec<Rejected>,
    /// Units that left the board this phase (dislodged neutrals, failed retreats, disbands).
    pub disbanded: Vec<Unit>,
    /// The position of the next phase that has something to decide.
    pub after: Position,
}

/// Adjudicates one phase under the default rules (the 2023 edition).
pub fn adjudicate(variant: &Variant, position: &Position, orders: &[GivenOrder]) -> Adjudication {
    adjudicate_under(variant, position, orders, Edition::default())
}

/// Adjudicates one phase under the rules of `edition`.
pub fn adjudicate_under(
    variant: &Variant,
    position: &Position,
    orders: &[GivenOrder],
    edition: Edition,
) -> Adjudication {
    let mut adjudication = match position.phase.kind {
        PhaseKind::Movement => adjudicate_movement(variant, position, orders, edition),
        PhaseKind::Retreat => adjudicate_retreats(variant, position, orders),
        PhaseKind::Adjustment => adjudicate_adjustments(variant, position, orders, edition),
    };
    adjudication.rules = edition;
    adjudication
}

/// Why `house` may not give this order at all, when it names a unit of the phase's pool
/// that belongs to another house or to nobody (`NotYourUnit`, `NeutralUnit`): such an
/// order is refused when it is submitted, before it could be stored.
pub fn not_yours(
    variant: &Variant,
    position: &Position,
    house: HouseId,
    order: &Order,
) -> Option<Illegal> {
    let boards = Boards::new(variant, position);
    match resolve_order(variant, position, &boards, Some(house), order) {
        Err(RefusedOrder {
            why: illegal @ (Illegal::NotYourUnit { .. } | Illegal::NeutralUnit),
            ..
        }) => Some(illegal),
        _ => None,
    }
}

/// For each unit of a pool, the index of the last order given to it, plus the rejected ones.
struct Assignment {
    commands: Vec<Option<(usize, CheckedOrder)>>,
    illegal: Vec<Option<(usize, Illegal)>>,
    rejected: Vec<Rejected>,
}

impl Assignment {
    /// The command of each unit, `default` for a unit without a legal order.
    fn commands_or(&self, default: CheckedOrder) -> Vec<CheckedOrder> {
        self.commands
            .iter()
            .map(|c| {
                c.as_ref()
                    .map_or_else(|| default.clone(), |(_, c)| c.clone())
            })
            .collect()
    }

    /// The order a unit's report answers, and its outcome (an illegal order's reason wins).
    fn outcome_of(&self, unit: usize, decided: &Outcome) -> (Option<usize>, Outcome) {
        match (&self.illegal[unit], &self.commands[unit]) {
            (Some((index, illegal)), _) => (Some(*index), Outcome::Illegal(illegal.clone())),
            (None, Some((index, _))) => (Some(*index), decided.clone()),
            (None, None) => (None, decided.clone()),
        }
    }
}

fn assign(
    variant: &Variant,
    position: &Position,
    orders: &[GivenOrder],
    pool_len: usize,
) -> Assignment {
    let mut a = Assignment {
        commands: vec![None; pool_len],
        illegal: vec![None; pool_len],
        rejected: Vec::new(),
    };
    let boards = Boards::new(variant, position);
    for (index, given) in orders.iter().enumerate() {
        let unit = match resolve_order(variant, position, &boards, given.house, &given.order) {
            Ok((Some((_, unit)), command)) => Some((unit, Ok(command))),
            // Only builds and waives name no unit, and they are no orders of a movement
            // or retreat phase (`resolve_order` refuses them there).
            Ok((None, _)) => {
                a.rejected.push(Rejected {
                    order: index,
                    illegal: Illegal::WrongPhase,
                });
                None
            }
            // An order for a unit its house may not order (another house's, a neutral one)
            // is illegal and changes nothing (DATC 6.A.6): it never takes the place of the
            // owner's order, whether it comes before or after it.
            Err(RefusedOrder {
                unit: Some(_),
                why: illegal @ (Illegal::NotYourUnit { .. } | Illegal::NeutralUnit),
            }) => {
                a.rejected.push(Rejected {
                    order: index,
                    illegal,
                });
                None
            }
            Err(RefusedOrder {
                unit: Some((_, unit)),
                why: illegal,
            }) => Some((unit, Err(illegal))),
            Err(RefusedOrder {
                unit: None,
                why: illegal,
            }) => {
                a.rejected.push(Rejected {
                    order: index,
                    illegal,
                });
                None
            }
        };
        let Some((unit, command)) = unit else {
            continue;
        };
        // A later order for the same unit replaces an earlier one.
        let earlier = a.commands[unit]
            .take()
            .map(|(i, _)| i)
            .or_else(|| a.illegal[unit].take().map(|(i, _)| i));
        if let Some(earlier) = earlier {
            a.rejected.push(Rejected {
                order: earlier,
                illegal: Illegal::Replaced,
            });
        }
        match command {
            Ok(command) => a.commands[unit] = Some((index, command)),
            Err(illegal) => a.illegal[unit] = Some((index, illegal)),
        }
    }
    a
}

fn adjudicate_movement(
    variant: &Variant,
    position: &Position,
    orders: &[GivenOrder],
    edition: Edition,
) -> Adjudication {
    let a = assign(variant, position, orders, position.units.len());
    let commands = a.commands_or(CheckedOrder::Hold);
    let moved = movement::resolve_movement(variant, position, commands, edition.convoy_use());
    let mut after = Position {
        phase: position.phase.next(),
        units: Vec::with_capacity(position.units.len()),
        dislodged: Vec::new(),
        contested: moved.contested.clone(),
        owners: position.owners.clone(),
        weather: position.weather,
        // A garrison on the losing side is gone for good.
        garrisons: position
            .garrisons
            .iter()
            .filter(|g| !moved.garrisons_taken.contains(&g.province))
            .cloned()
            .collect(),
        closed: position.closed.clone(),
    };
    let mut reports = Vec::with_capacity(position.units.len());
    let mut disbanded = Vec::new();
    for (i, unit) in position.units.iter().enumerate() {
        let (order, outcome) = a.outcome_of(i, &moved.outcomes[i]);
        reports.push((
            order,
            Report {
                owner: unit.owner,
                unit: Some((unit.kind, unit.region)),
                command: moved.commands[i].clone(),
                outcome,
                text: order.map(|o| orders[o].order.text.clone()),
            },
        ));
        match moved.dislodged_by[i] {
            Some(_) if unit.owner == Owner::Neutral => disbanded.push(unit.clone()),
            Some((by, by_convoy)) => after.dislodged.push(Dislodged {
                unit: unit.clone(),
                attacker_from: (!by_convoy).then_some(by),
            }),
            None => after.units.push(Unit {
                region: moved.destinations[i],
                ..unit.clone()
            }),
        }
    }
    disband_trapped_units(variant, &mut after, &mut disbanded);
    skip_idle_phases(variant, &mut after);
    Adjudication {
        phase: position.phase,
        rules: Edition::default(),
        reports,
        rejected: a.rejected,
        disbanded,
        after,
    }
}

/// A dislodged unit with nowhere to retreat has nothing to decide: it is disbanded at once
/// (as in the DATC v2.4 files), and a retreat phase is played only for the others.
fn disband_trapped_units(variant: &Variant, after: &mut Position, disbanded: &mut Vec<Unit>) {
    let trapped: Vec<bool> = (0..after.dislodged.len())
        .map(|i| retreat_options(variant, after, i).is_empty())
        .collect();
    let mut index = 0;
    after.dislodged.retain(|d| {
        let keep = !trapped[index];
        index += 1;
        if !keep {
            disbanded.push(d.unit.clone());
        }
        keep
    });
}

fn adjudicate_retreats(
    variant: &Variant,
    position: &Position,
    orders: &[GivenOrder],
) -> Adjudication {
    let a = assign(variant, position, orders, position.dislodged.len());
    let commands = a.commands_or(CheckedOrder::Disband);
    let (outcomes, survivors) = retreat::resolve_retreats(variant, position, &commands);
    let mut after = Position {
        phase: position.phase.next(),
        units: position.units.clone(),
        dislodged: Vec::new(),
        contested: Vec::new(),
        owners: position.owners.clone(),
        weather: position.weather,
        garrisons: position.garrisons.clone(),
        closed: position.closed.clone(),
    };
    let mut reports = Vec::new();
    let mut disbanded = Vec::new();
    for (i, d) in position.dislodged.iter().enumerate() {
        let (order, outcome) = a.outcome_of(i, &outcomes[i]);
        reports.push((
            order,
            Report {
                owner: d.unit.owner,
                unit: Some((d.unit.kind, d.unit.region)),
                command: commands[i].clone(),
                outcome,
                text: order.map(|o| orders[o].order.text.clone()),
            },
        ));
        match &survivors[i] {
            Some(unit) => after.units.push(unit.clone()),
            None => disbanded.push(d.unit.clone()),
        }
    }
    skip_idle_phases(variant, &mut after);
    Adjudication {
        phase: position.phase,
        rules: Edition::default(),
        reports,
        rejected: a.rejected,
        disbanded,
        after,
    }
}

fn adjudicate_adjustments(
    variant: &Variant,
    position: &Position,
    orders: &[GivenOrder],
    edition: Edition,
) -> Adjudication {
    let mut list = Vec::new();
    let mut indices = Vec::new();
    let mut rejected = Vec::new();
    let boards = Boards::new(variant, position);
    for (index, given) in orders.iter().enumerate() {
        match resolve_order(variant, position, &boards, given.house, &given.order) {
            Ok((unit, command)) => {
                let unit = unit.and_then(|(pool, u)| (pool == UnitPool::Board).then_some(u));
                list.push(AdjustmentOrder {
                    house: given
                        .house
                        .or_else(|| unit.and_then(|u| house_of(&position.units[u]))),
                    unit,
                    command,
                });
                indices.push(index);
            }
            Err(RefusedOrder { why: illegal, .. }) => rejected.push(Rejected {
                order: index,
                illegal,
            }),
        }
    }
    let decided =
        adjust::resolve_adjustments(variant, position, &list, edition.disorder_distance());
    let mut reports = Vec::new();
    for ((order, outcome), &index) in list.iter().zip(decided.outcomes).zip(&indices) {
        // A waive is about no unit.
        let (owner, unit) = match (&order.command, order.unit) {
            (CheckedOrder::Build { kind, region }, _) => (
                order
                    .house
                    .or_else(|| variant.province(variant.province_of(*region)).home_of)
                    .map_or(Owner::Neutral, Owner::House),
                Some((*kind, *region)),
            ),
            (_, Some(u)) => {
                let unit = &position.units[u];
                (unit.owner, Some((unit.kind, unit.region)))
            }
            (_, None) => (order.house.map_or(Owner::Neutral, Owner::House), None),
        };
        reports.push((
            Some(index),
            Report {
                owner,
                unit,
                command: order.command.clone(),
                outcome,
                text: Some(orders[index].order.text.clone()),
            },
        ));
    }
    let mut removed = vec![false; position.units.len()];
    let mut disbanded = Vec::new();
    for &(u, civil_disorder) in &decided.removed {
        removed[u] = true;
        let unit = &position.units[u];
        disbanded.push(unit.clone());
        if civil_disorder {
            reports.push((
                None,
                Report {
                    owner: unit.owner,
                    unit: Some((unit.kind, unit.region)),
                    command: CheckedOrder::Disband,
                    outcome: Outcome::Succeeded,
                    text: None,
                },
            ));
        }
    }
    let mut units: Vec<Unit> = position
        .units
        .iter()
        .zip(&removed)
        .filter(|(_, gone)| !**gone)
        .map(|(u, _)| u.clone())
        .collect();
    units.extend(decided.built);
    let mut after = Position {
        phase: position.phase.next(),
        units,
        dislodged: Vec::new(),
        contested: Vec::new(),
        owners: position.owners.clone(),
        weather: position.weather,
        garrisons: position.garrisons.clone(),
        closed: position.closed.clone(),
    };
    skip_idle_phases(variant, &mut after);
    Adjudication {
        phase: position.phase,
        rules: Edition::default(),
        reports,
        rejected,
        disbanded,
        after,
    }
}

fn house_of(unit: &Unit) -> Option<HouseId> {
    match unit.owner {
        Owner::House(h) => Some(h),
        Owner::Neutral => None,
    }
}

/// Moves past retreat and adjustment phases with nothing to decide; supply centres change
/// hands on the way into winter.
fn skip_idle_phases(variant: &Variant, position: &mut Position) {
    loop {
        match position.phase.kind {
            PhaseKind::Movement => return,
            PhaseKind::Retreat => {
                if !position.dislodged.is_empty() {
                    return;
                }
                position.contested.clear();
                position.phase = position.phase.next();
            }
            PhaseKind::Adjustment => {
                take_centres(variant, position);
                if has_adjustments(variant, position) {
                    return;
                }
                position.phase = position.phase.next();
            }
        }
    }
}

/// After autumn, a house owns every supply centre and town one of its units stands in, and
/// every centre its controlling garrisons still hold.
pub fn take_centres(variant: &Variant, position: &mut Position) {
    for unit in &position.units {
        let province = variant.province_of(unit.region);
        let p = variant.province(province);
        if let (true, Owner::House(h)) = (p.supply || p.town, unit.owner) {
            position.owners[usize::from(province.0)] = Some(h);
        }
    }
    for g in &position.garrisons {
        if let (true, Owner::House(h)) = (g.controls, g.owner) {
            position.owners[usize::from(g.province.0)] = Some(h);
        }
    }
}
