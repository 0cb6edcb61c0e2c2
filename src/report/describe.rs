//! Names for the results: places, units and commands as data, and the normalized order
//! text (`A ner -> som`, `F crb C A cla -> goe`, `A ner S D gos -> som`).

use crate::judge::{CheckedOrder, Position, Unit};
use crate::map::{HouseId, Owner, ProvinceId, RegionId, UnitKind, Variant};

use crate::game::results::{CommandView, HouseRef, Place, UnitView};

/// A region as a place: `win/est`, Winterfell, coast `est`.
pub fn region_place(variant: &Variant, region: RegionId) -> Place {
    let r = variant.region(region);
    let p = variant.province(r.province);
    Place {
        id: variant.region_label(region),
        province: p.id.clone(),
        name: p.name.clone(),
        coast: r.coast.clone(),
    }
}

/// A whole province as a place.
pub fn province_place(variant: &Variant, province: ProvinceId) -> Place {
    region_place(variant, variant.province(province).region)
}

/// A house by id and name.
pub(super) fn house_ref(variant: &Variant, house: HouseId) -> HouseRef {
    let h = variant.house(house);
    HouseRef {
        id: h.id.clone(),
        name: h.name.clone(),
    }
}

/// The house of an owner; none for neutral units.
pub(super) fn owner_ref(variant: &Variant, owner: Owner) -> Option<HouseRef> {
    match owner {
        Owner::House(h) => Some(house_ref(variant, h)),
        Owner::Neutral => None,
    }
}

/// A unit of the board as a view.
pub fn unit_view(variant: &Variant, unit: &Unit) -> UnitView {
    UnitView {
        kind: unit.kind,
        letter: unit.kind.letter(),
        at: region_place(variant, unit.region),
        dragon: unit.name.clone(),
    }
}

/// A unit known only by kind and region (a dragon's name looked up by the caller).
pub(super) fn unit_at(
    variant: &Variant,
    kind: UnitKind,
    region: RegionId,
    dragon: Option<String>,
) -> UnitView {
    UnitView {
        kind,
        letter: kind.letter(),
        at: region_place(variant, region),
        dragon,
    }
}

/// The unit in a province before the phase (the one a support or convoy names); an army
/// in the province itself if none is found, which a legal order never leaves.
pub(super) fn unit_in_province(
    variant: &Variant,
    before: &Position,
    province: ProvinceId,
) -> UnitView {
    match before.unit_in(variant, province) {
        Some(u) => unit_view(variant, &before.units[u]),
        None => unit_at(
            variant,
            UnitKind::Army,
            variant.province(province).region,
            None,
        ),
    }
}

/// The command as data, with the units it names looked up in the position before.
pub(super) fn command_view(
    variant: &Variant,
    before: &Position,
    command: &CheckedOrder,
    built: Option<UnitView>,
) -> CommandView {
    match command {
        CheckedOrder::Hold => CommandView::Hold,
        CheckedOrder::Move { to, via_convoy } => CommandView::Move {
            to: region_place(variant, *to),
            via_convoy: *via_convoy,
        },
        CheckedOrder::SupportHold { unit } => CommandView::SupportHold {
            unit: unit_in_province(variant, before, *unit),
        },
        CheckedOrder::SupportMove { unit, to, coast } => CommandView::SupportMove {
            unit: unit_in_province(variant, before, *unit),
            to: coast.map_or_else(
                || province_place(variant, *to),
                |c| region_place(variant, c),
            ),
        },
        CheckedOrder::Convoy { army, to } => CommandView::Convoy {
            unit: unit_in_province(variant, before, *army),
            to: province_place(variant, *to),
        },
        CheckedOrder::Retreat { to } => CommandView::Retreat {
            to: region_place(variant, *to),
        },
        CheckedOrder::Disband => CommandView::Disband,
        CheckedOrder::Build { kind, region } => CommandView::Build {
            unit: built.unwrap_or_else(|| unit_at(variant, *kind, *region, None)),
        },
        CheckedOrder::Waive => CommandView::Waive,
    }
}

/// The normalized text of an order: `A ner -> som`, `F crb C A cla -> goe`,
/// `A ner S D gos -> som`, `A ner H`, `A ner R som`, `A ner disband`, `build D cla`, `waive`.
pub fn order_text(unit: Option<&UnitView>, command: &CommandView) -> String {
    let own = unit.map(short).unwrap_or_default();
    match command {
        CommandView::Hold => format!("{own} H"),
        CommandView::Move { to, via_convoy } => {
            let via = if *via_convoy { " via convoy" } else { "" };
            format!("{own} -> {}{via}", to.id)
        }
        CommandView::SupportHold { unit } => format!("{own} S {}", short(unit)),
        CommandView::SupportMove { unit, to } => format!("{own} S {} -> {}", short(unit), to.id),
        CommandView::Convoy { unit, to } => format!("{own} C {} -> {}", short(unit), to.id),
        CommandView::Retreat { to } => format!("{own} R {}", to.id),
        CommandView::Disband => format!("{own} disband"),
        CommandView::Build { unit } => format!("build {}", short(unit)),
        CommandView::Waive => "waive".to_string(),
    }
}

/// `A ner`, `F win/est`, `D gos`.
fn short(unit: &UnitView) -> String {
    format!("{} {}", unit.letter, unit.at.id)
}
