//! The retreat phase: each dislodged unit retreats to a free neighbour or is disbanded.
//! Two retreats to one province disband both (DATC 6.H.7); a unit without a valid retreat
//! order is disbanded.

use crate::map::{ProvinceId, Variant};

use super::outcome::{CheckedOrder, Failure, Outcome};
use super::position::{Position, Unit};

/// Where each dislodged unit ends: `Some(unit)` if it retreated, `None` if disbanded.
pub(super) fn resolve_retreats(
    variant: &Variant,
    position: &Position,
    commands: &[CheckedOrder],
) -> (Vec<Outcome>, Vec<Option<Unit>>) {
    let targets: Vec<Option<ProvinceId>> = commands
        .iter()
        .map(|c| match c {
            CheckedOrder::Retreat { to } => Some(variant.province_of(*to)),
            _ => None,
        })
        .collect();
    let mut outcomes = Vec::with_capacity(commands.len());
    let mut survivors = Vec::with_capacity(commands.len());
    for (i, command) in commands.iter().enumerate() {
        let unit = &position.dislodged[i].unit;
        match (command, targets[i]) {
            (CheckedOrder::Retreat { to }, Some(province)) => {
                let rivals = targets.iter().filter(|&&t| t == Some(province)).count();
                if rivals > 1 {
                    outcomes.push(Outcome::Failed(Failure::RetreatStandoff));
                    survivors.push(None);
                } else {
                    outcomes.push(Outcome::Succeeded);
                    survivors.push(Some(Unit {
                        region: *to,
                        ..unit.clone()
                    }));
                }
            }
            _ => {
                outcomes.push(Outcome::Succeeded);
                survivors.push(None);
            }
        }
    }
    (outcomes, survivors)
}

/// Where a dislodged unit (by index in `position.dislodged`) may retreat.
pub fn retreat_options(
    variant: &Variant,
    position: &Position,
    index: usize,
) -> Vec<crate::map::RegionId> {
    let Some(dislodged) = position.dislodged.get(index) else {
        return Vec::new();
    };
    let unit = &dislodged.unit;
    let mut options = Vec::new();
    for region in candidate_regions(variant, position, unit) {
        let to = crate::order::Location {
            province: variant.province_of(region),
            coast: variant.region(region).coast.is_some().then_some(region),
        };
        let action = crate::order::Instruction::Retreat { to };
        if let Ok(CheckedOrder::Retreat { to }) =
            super::legality::retreat_command(variant, position, index, &action)
            && !options.contains(&to)
        {
            options.push(to);
        }
    }
    options
}

fn candidate_regions(
    variant: &Variant,
    position: &Position,
    unit: &Unit,
) -> Vec<crate::map::RegionId> {
    use crate::map::UnitKind;
    let from = variant.province_of(unit.region);
    match unit.kind {
        UnitKind::Fleet => variant.fleet_adjacency[usize::from(unit.region.0)].clone(),
        UnitKind::Army => variant
            .army_neighbours_by(
                from,
                position.passage(variant, unit.owner, crate::map::Crossing::Move),
            )
            .iter()
            .map(|&p| variant.province(p).region)
            .collect(),
        UnitKind::Dragon => variant.dragon_adjacency[usize::from(from.0)]
            .iter()
            .map(|&p| variant.province(p).region)
            .collect(),
    }
}
