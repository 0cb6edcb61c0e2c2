//! From an [`Adjudication`] to a [`ResultsView`]: a pure function of the variant, the
//! position before the phase and what the judge decided.

use crate::game::PhaseRecord;
use crate::judge::{
    Adjudication, CheckedOrder, Failure, GivenOrder, Outcome, PhaseKind, Position, Report, Season,
    Unit, adjustment_counts, free_home_centres, retreat_options,
};
use crate::map::{Owner, ProvinceId, Variant};

use super::describe::{
    command_view, house_ref, order_text, owner_ref, province_place, region_place, unit_at,
    unit_view,
};
use super::reason::{illegal_view, outcome_view};
use crate::game::results::{
    CentreRow, CentreTable, Counts, DislodgedView, HouseOrders, HouseUnits, OrderLine, OutcomeView,
    OwnedUnit, Place, RESULTS_FORMAT, RejectedView, ResultsView, Status, UnitView, VariantRef,
    WeatherView,
};

/// The results of one adjudicated phase. Rejected orders carry their reason only; use
/// [`results_view_with_orders`] to quote them and name their house.
pub fn results_view(
    variant: &Variant,
    before: &Position,
    adjudication: &Adjudication,
) -> ResultsView {
    build(variant, before, adjudication, None)
}

/// The record of a phase the game played, with its results put in the results format
/// ([`results_view_with_orders`]), once: the form the store keeps and every reader reads.
/// The houses the bot played are marked; a player's trial keeps that house's part only.
pub fn phase_record(
    variant: &Variant,
    record: PhaseRecord<crate::game::Adjudicated>,
) -> PhaseRecord {
    let played = &record.results;
    let mut view = results_view_with_orders(
        variant,
        &played.before,
        &played.adjudication,
        &played.orders,
    );
    view.mark_bots(&record.bots);
    if let Some(house) = &played.shown_to {
        view.only_house(house.as_str());
    }
    record.with_results(view.into())
}

/// The results of one adjudicated phase, with the orders given, so that rejected orders are
/// quoted as written and attributed to their house.
pub fn results_view_with_orders(
    variant: &Variant,
    before: &Position,
    adjudication: &Adjudication,
    orders: &[GivenOrder],
) -> ResultsView {
    build(variant, before, adjudication, Some(orders))
}

fn build(
    variant: &Variant,
    before: &Position,
    adjudication: &Adjudication,
    orders: Option<&[GivenOrder]>,
) -> ResultsView {
    let houses = order_lines(variant, before, adjudication);
    let rejected: Vec<RejectedView> = adjudication
        .rejected
        .iter()
        .map(|r| {
            let given = orders.and_then(|o| o.get(r.order));
            RejectedView {
                index: r.order,
                house: given.and_then(|g| g.house).map(|h| house_ref(variant, h)),
                written: given.map(|g| g.order.text.clone()),
                outcome: illegal_view(variant, &r.illegal),
            }
        })
        .collect();
    let dislodged = dislodged_units(variant, before, adjudication);
    let disbanded: Vec<OwnedUnit> = adjudication
        .disbanded
        .iter()
        .map(|u| OwnedUnit {
            house: owner_ref(variant, u.owner),
            unit: unit_view(variant, u),
        })
        .collect();
    let mut counts = Counts {
        rejected: rejected.len(),
        dislodged: dislodged.len(),
        disbanded: disbanded.len(),
        ..Counts::default()
    };
    for line in houses.iter().flat_map(|h| &h.orders) {
        counts.lines += 1;
        counts.orders += usize::from(line.written.is_some());
        match line.outcome.status {
            Status::Succeeded => counts.succeeded += 1,
            Status::Failed => counts.failed += 1,
            Status::Illegal => counts.illegal += 1,
        }
    }
    ResultsView {
        format: RESULTS_FORMAT,
        variant: VariantRef {
            id: variant.id.clone(),
            name: variant.name.clone(),
        },
        rules: (!adjudication.rules.is_default()).then_some(adjudication.rules),
        phase: adjudication.phase,
        next: adjudication.after.phase,
        houses,
        rejected,
        dislodged,
        disbanded,
        centres: centre_table(variant, before, adjudication),
        after: units_after(variant, &adjudication.after),
        counts,
        weather: weather_view(variant, before, &adjudication.after),
    }
}

/// The weather of the phase played and of the next one, on a variant with weather.
pub fn weather_view(variant: &Variant, before: &Position, after: &Position) -> Option<WeatherView> {
    let weather = variant.weather.as_ref()?;
    let state = |position: &Position| {
        let step = position.weather.unwrap_or(weather.start);
        weather
            .state_at(step)
            .map(|s| crate::game::results::WeatherRef {
                id: s.id.clone(),
                name: s.name.clone(),
            })
    };
    let fords = variant
        .borders
        .iter()
        .filter(|b| b.kind == crate::map::BorderKind::Ford)
        .map(|b| crate::game::results::FordView {
            a: province_place(variant, b.between.0),
            b: province_place(variant, b.between.1),
        })
        .collect();
    Some(WeatherView {
        state: state(before)?,
        fords_open: before.fords_open(variant),
        next_state: state(after)?,
        next_fords_open: after.fords_open(variant),
        fords,
    })
}

/// Index of an owner's group: houses in variant order, then neutral units.
fn group(variant: &Variant, owner: Owner) -> usize {
    match owner {
        Owner::House(h) => usize::from(h.0),
        Owner::Neutral => variant.houses.len(),
    }
}

fn owner_of_group(variant: &Variant, g: usize) -> Option<crate::map::HouseId> {
    if g < variant.houses.len() {
        u8::try_from(g).ok().map(crate::map::HouseId)
    } else {
        None
    }
}

fn order_lines(
    variant: &Variant,
    before: &Position,
    adjudication: &Adjudication,
) -> Vec<HouseOrders> {
    let mut groups: Vec<Vec<OrderLine>> = vec![Vec::new(); variant.houses.len() + 1];
    for (index, report) in &adjudication.reports {
        let line = order_line(variant, before, adjudication, *index, report);
        groups[group(variant, report.owner)].push(line);
    }
    groups
        .into_iter()
        .enumerate()
        .filter(|(_, orders)| !orders.is_empty())
        .map(|(g, orders)| HouseOrders {
            house: owner_of_group(variant, g).map(|h| house_ref(variant, h)),
            orders,
            bot: false,
        })
        .collect()
}

fn order_line(
    variant: &Variant,
    before: &Position,
    adjudication: &Adjudication,
    index: Option<usize>,
    report: &Report,
) -> OrderLine {
    let unit = match &report.command {
        CheckedOrder::Waive => None,
        CheckedOrder::Build { kind, region } => {
            let built = adjudication
                .after
                .units
                .iter()
                .find(|u| u.region == *region && u.kind == *kind && report.outcome.succeeded());
            Some(built.map_or_else(
                || unit_at(variant, *kind, *region, None),
                |u| unit_view(variant, u),
            ))
        }
        _ => match unit_before(before, adjudication.phase.kind, report) {
            Some(u) => Some(unit_view(variant, u)),
            None => report
                .unit
                .map(|(kind, region)| unit_at(variant, kind, region, None)),
        },
    };
    let built = match report.command {
        CheckedOrder::Build { .. } => unit.clone(),
        _ => None,
    };
    let command = command_view(variant, before, &report.command, built);
    let (dislodged, dislodged_by) = dislodgement(variant, before, adjudication, report);
    OrderLine {
        index,
        order: order_text(unit.as_ref(), &command),
        unit,
        command,
        written: report.text.clone(),
        outcome: beaten(variant, adjudication, report)
            .unwrap_or_else(|| outcome_view(variant, &report.outcome)),
        dislodged,
        dislodged_by,
    }
}

/// A move the judge failed as a standoff although one of the rivals it names entered the
/// province: that rival was stronger, so the unit was beaten, not held in a standoff
/// (reason `beaten`, naming the province the winner came from; the code stays the judge's
/// `standoff`). None for any other outcome.
fn beaten(variant: &Variant, adjudication: &Adjudication, report: &Report) -> Option<OutcomeView> {
    let (Outcome::Failed(Failure::Standoff { with }), CheckedOrder::Move { to, .. }) =
        (&report.outcome, &report.command)
    else {
        return None;
    };
    let target = variant.province_of(*to);
    let winner = adjudication.reports.iter().find_map(|(_, other)| {
        let (_, from) = other.unit?;
        let from = variant.province_of(from);
        match other.command {
            CheckedOrder::Move { to, .. }
                if other.outcome.succeeded()
                    && variant.province_of(to) == target
                    && with.contains(&from) =>
            {
                Some(from)
            }
            _ => None,
        }
    })?;
    let mut view = outcome_view(variant, &report.outcome);
    view.reason = Some("beaten".to_string());
    view.provinces = vec![province_place(variant, winner)];
    Some(view)
}

/// The unit a report is about, as it stood before the phase (for its dragon name).
fn unit_before<'a>(before: &'a Position, kind: PhaseKind, report: &Report) -> Option<&'a Unit> {
    let (kind_of, region) = report.unit?;
    let same = |u: &&Unit| u.region == region && u.kind == kind_of && u.owner == report.owner;
    let on_board = || before.units.iter().find(same);
    let dislodged = || before.dislodged.iter().map(|d| &d.unit).find(same);
    match kind {
        PhaseKind::Retreat => dislodged().or_else(on_board),
        _ => on_board().or_else(dislodged),
    }
}

/// Whether the reported unit was dislodged in this movement phase, and from where.
fn dislodgement(
    variant: &Variant,
    before: &Position,
    adjudication: &Adjudication,
    report: &Report,
) -> (bool, Option<Place>) {
    if adjudication.phase.kind != PhaseKind::Movement {
        return (false, None);
    }
    let Some((_, region)) = report.unit else {
        return (false, None);
    };
    let same = |u: &Unit| u.region == region && u.owner == report.owner;
    // In a movement phase a unit leaves the board only when dislodged.
    let dislodged = adjudication.after.dislodged.iter().any(|d| same(&d.unit))
        || adjudication.disbanded.iter().any(same)
        || matches!(report.outcome, Outcome::Failed(Failure::Dislodged { .. }));
    if !dislodged {
        return (false, None);
    }
    let province = variant.province_of(region);
    (
        true,
        attacker(variant, before, adjudication, province).map(|p| province_place(variant, p)),
    )
}

/// The origin of the move that entered a province this phase.
fn attacker(
    variant: &Variant,
    before: &Position,
    adjudication: &Adjudication,
    province: ProvinceId,
) -> Option<ProvinceId> {
    let moved_in = adjudication
        .reports
        .iter()
        .find_map(|(_, r)| match r.command {
            CheckedOrder::Move { to, .. }
                if r.outcome.succeeded() && variant.province_of(to) == province =>
            {
                r.unit.map(|(_, region)| variant.province_of(region))
            }
            _ => None,
        });
    moved_in.or_else(|| {
        let unit = before.unit_in(variant, province)?;
        adjudication
            .reports
            .iter()
            .find_map(|(_, r)| match r.outcome {
                Outcome::Failed(Failure::Dislodged { by })
                    if r.unit.map(|(_, region)| region) == Some(before.units[unit].region) =>
                {
                    Some(by)
                }
                _ => None,
            })
    })
}

/// Units dislodged by this phase's moves: those waiting to retreat, with their options,
/// then those disbanded at once.
fn dislodged_units(
    variant: &Variant,
    before: &Position,
    adjudication: &Adjudication,
) -> Vec<DislodgedView> {
    if adjudication.phase.kind != PhaseKind::Movement {
        return Vec::new();
    }
    let after = &adjudication.after;
    let by = |unit: &Unit| {
        attacker(
            variant,
            before,
            adjudication,
            variant.province_of(unit.region),
        )
        .map(|p| province_place(variant, p))
    };
    let waiting = after
        .dislodged
        .iter()
        .enumerate()
        .map(|(i, d)| DislodgedView {
            house: owner_ref(variant, d.unit.owner),
            unit: unit_view(variant, &d.unit),
            by: by(&d.unit),
            retreats: retreat_options(variant, after, i)
                .into_iter()
                .map(|r| region_place(variant, r))
                .collect(),
            disbanded: false,
        });
    let gone = adjudication.disbanded.iter().map(|u| DislodgedView {
        house: owner_ref(variant, u.owner),
        unit: unit_view(variant, u),
        by: by(u),
        retreats: Vec::new(),
        disbanded: true,
    });
    waiting.chain(gone).collect()
}

/// The centre table once ownership is settled: after an autumn phase that leads to no
/// retreat phase (on the position after), or after a winter (on the position before the
/// adjustments, showing what was due).
fn centre_table(
    variant: &Variant,
    before: &Position,
    adjudication: &Adjudication,
) -> Option<CentreTable> {
    let position = match adjudication.phase.season {
        Season::Winter => before,
        Season::Autumn if adjudication.after.phase.kind != PhaseKind::Retreat => {
            &adjudication.after
        }
        _ => return None,
    };
    let units = position.unit_counts(variant);
    let deltas = adjustment_counts(variant, position);
    let rows = variant
        .house_ids()
        .map(|h| {
            let i = usize::from(h.0);
            let mut centres: Vec<String> = variant
                .province_ids()
                .filter(|&p| {
                    variant.province(p).supply && position.owners[usize::from(p.0)] == Some(h)
                })
                .map(|p| variant.province(p).id.clone())
                .collect();
            centres.sort();
            let free = free_home_centres(variant, position, h).len();
            CentreRow {
                house: house_ref(variant, h),
                centres,
                units: units[i],
                adjustment: deltas[i],
                builds: usize::try_from(deltas[i]).unwrap_or(0).min(free),
            }
        })
        .collect();
    let mut unowned: Vec<String> = variant
        .province_ids()
        .filter(|&p| variant.province(p).supply && position.owners[usize::from(p.0)].is_none())
        .map(|p| variant.province(p).id.clone())
        .collect();
    unowned.sort();
    Some(CentreTable { rows, unowned })
}

/// Units on the board after the phase, per house then neutral, in board order.
fn units_after(variant: &Variant, after: &Position) -> Vec<HouseUnits> {
    let mut groups: Vec<Vec<UnitView>> = vec![Vec::new(); variant.houses.len() + 1];
    for unit in &after.units {
        groups[group(variant, unit.owner)].push(unit_view(variant, unit));
    }
    groups
        .into_iter()
        .enumerate()
        .filter(|(_, units)| !units.is_empty())
        .map(|(g, units)| HouseUnits {
            house: owner_of_group(variant, g).map(|h| house_ref(variant, h)),
            units,
        })
        .collect()
}
