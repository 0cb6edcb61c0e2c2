//! What a phase asks of one house: the units it orders, the retreats its dislodged units
//! may make, the builds or disbands due, or nothing. Computed once from a position and
//! rendered by every mail that tells it (results, reminder, welcome, preview) through the
//! same template macro, so they all say it the same way (docs/email.md, "What the phase
//! asks of you").

use serde::Serialize;

use crate::judge::{Phase, PhaseKind, Position, retreat_options};
use crate::map::{HouseId, Owner, Variant};

use super::describe::house_ref;
use super::orders::Allowance;
use super::{HouseRef, Place, UnitView, region_place, unit_view};

/// What the phase of a position asks of one house.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PhaseAsk {
    /// The house asked (localized as any `house` of a view).
    pub house: HouseRef,
    /// The phase asking: the position's.
    pub phase: Phase,
    #[serde(flatten)]
    pub ask: Ask,
}

/// The house's part of the phase.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Ask {
    /// A movement phase: this many units to order.
    Orders { count: usize },
    /// A retreat phase: each dislodged unit of the house and where it may go.
    Retreats { units: Vec<DislodgedBrief> },
    /// An adjustment phase with builds possible: how many, and where.
    Builds { count: u32, places: Vec<Place> },
    /// An adjustment phase with disbands due.
    Disbands { count: u32 },
    /// Nothing to decide: no unit, no dislodged unit, no build possible, no disband due.
    Nothing,
}

/// A dislodged unit of a house, and the places it may retreat to (none: it disbands).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DislodgedBrief {
    pub unit: UnitView,
    pub retreats: Vec<Place>,
}

impl PhaseAsk {
    /// What `position`'s phase asks of `house`. The counts are the ones the game decides
    /// with (`Game::houses_deciding`, the adjudicator's allowance), so a house told
    /// "nothing to do" is one the game does not wait for.
    pub fn of(variant: &Variant, position: &Position, house: HouseId) -> PhaseAsk {
        let owned = |o: Owner| o == Owner::House(house);
        let ask = match position.phase.kind {
            PhaseKind::Movement => {
                let count = position.units.iter().filter(|u| owned(u.owner)).count();
                if count == 0 {
                    Ask::Nothing
                } else {
                    Ask::Orders { count }
                }
            }
            PhaseKind::Retreat => {
                let units: Vec<_> = position
                    .dislodged
                    .iter()
                    .enumerate()
                    .filter(|(_, d)| owned(d.unit.owner))
                    .map(|(i, d)| DislodgedBrief {
                        unit: unit_view(variant, &d.unit),
                        retreats: retreat_options(variant, position, i)
                            .into_iter()
                            .map(|r| region_place(variant, r))
                            .collect(),
                    })
                    .collect();
                if units.is_empty() {
                    Ask::Nothing
                } else {
                    Ask::Retreats { units }
                }
            }
            PhaseKind::Adjustment => {
                let allowance = Allowance::of(variant, position, house);
                if allowance.disbands > 0 {
                    Ask::Disbands {
                        count: allowance.disbands,
                    }
                } else if allowance.builds > 0 {
                    Ask::Builds {
                        count: allowance.builds,
                        places: allowance.places,
                    }
                } else {
                    Ask::Nothing
                }
            }
        };
        PhaseAsk {
            house: house_ref(variant, house),
            phase: position.phase,
            ask,
        }
    }

    /// [`PhaseAsk::of`] for a house named by its id or name; none for a house the variant
    /// does not know.
    pub fn of_named(variant: &Variant, position: &Position, house: &str) -> Option<PhaseAsk> {
        variant
            .house_by_name(house)
            .map(|id| PhaseAsk::of(variant, position, id))
    }

    /// The dislodged units it asks to retreat (a retreat phase), else none.
    pub fn retreats(&self) -> &[DislodgedBrief] {
        match &self.ask {
            Ask::Retreats { units } => units,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::judge::Season;
    use crate::map::{UnitKind, Variant};

    fn classic() -> (Variant, Position) {
        let variant = crate::map::load_variant("classique").expect("classic");
        let position = Position::starting(&variant, None).expect("seven players");
        (variant, position)
    }

    fn house(variant: &Variant, name: &str) -> HouseId {
        variant.house_by_name(name).expect("a classic house")
    }

    fn province(variant: &Variant, id: &str) -> usize {
        usize::from(variant.province_by_id(id).expect("a classic province").0)
    }

    #[test]
    fn a_movement_counts_the_units_and_a_house_without_any_has_nothing_to_do() {
        let (v, mut p) = classic();
        assert_eq!(
            PhaseAsk::of(&v, &p, house(&v, "russia")).ask,
            Ask::Orders { count: 4 }
        );
        let france = house(&v, "france");
        p.units.retain(|u| u.owner != Owner::House(france));
        assert_eq!(PhaseAsk::of(&v, &p, france).ask, Ask::Nothing);
    }

    #[test]
    fn a_winter_asks_the_disbands_due_and_builds_only_where_a_home_centre_is_free() {
        let (v, mut p) = classic();
        p.phase.season = Season::Winter;
        p.phase.kind = PhaseKind::Adjustment;
        let (france, germany) = (house(&v, "france"), house(&v, "germany"));
        // France takes Munich: Germany has a unit more than its centres; France a centre
        // more than its units, but every home centre of its holds a unit.
        p.owners[province(&v, "mun")] = Some(france);
        assert_eq!(
            PhaseAsk::of(&v, &p, germany).ask,
            Ask::Disbands { count: 1 }
        );
        assert_eq!(PhaseAsk::of(&v, &p, france).ask, Ask::Nothing);
        // Paris emptied: two builds due, one possible, there.
        p.units.retain(|u| {
            !(u.owner == Owner::House(france)
                && u.kind == UnitKind::Army
                && v.province(v.province_of(u.region)).id == "par")
        });
        match PhaseAsk::of(&v, &p, france).ask {
            Ask::Builds { count, places } => {
                assert_eq!(count, 1);
                let ids: Vec<_> = places.iter().map(|p| p.id.as_str()).collect();
                assert_eq!(ids, ["par"]);
            }
            other => panic!("{other:?}"),
        }
    }
}
