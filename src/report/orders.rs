//! The answer to a set of orders: each order as the judge understood it (illegal ones with
//! their reason), the units still without orders, and the deadline; the data of the
//! `orders.txt` template.

use serde::Serialize;

use crate::game::{Game, GameError, HouseKey};
use crate::judge::{Phase, PhaseKind, Position, adjustment_counts, free_home_centres};
use crate::lang::Lang;
use crate::map::{HouseId, Variant};

use super::build::results_view_with_orders;
use super::describe::{province_place, region_place};
use crate::game::results::{HouseRef, OrderLine, Place, RejectedView, ResultsView, UnitView};

#[derive(Debug, Clone, Serialize)]
pub struct OrdersView {
    pub game: GameRef,
    pub house: HouseRef,
    pub phase: Phase,
    /// For people, in the game's time zone.
    pub deadline: String,
    pub deadline_utc: Option<String>,
    /// The orders given, in the order written.
    pub orders: Vec<OrderLine>,
    /// Orders that name no unit of the house, or were replaced by a later one.
    pub rejected: Vec<RejectedView>,
    /// Units (or, in a retreat, dislodged units) without an order.
    pub missing: Vec<UnitView>,
    /// Whether the house declared itself ready.
    pub ready: bool,
    /// For each move that cannot reach its destination: where the unit could go.
    pub reach: Vec<Reach>,
    /// In an adjustment phase, what the house may or must do.
    pub allowance: Option<Allowance>,
}

/// A house's builds or disbands in an adjustment phase, stated in the answer to its
/// orders: a build beyond it is ignored, and players must know the number before the
/// results tell them.
#[derive(Debug, Clone, Serialize)]
pub struct Allowance {
    /// Units to build (more centres than units), limited by the free home centres.
    pub builds: u32,
    /// Units to disband (more units than centres).
    pub disbands: u32,
    /// Where the house may build: its owned home centres without a unit.
    pub places: Vec<Place>,
}

impl Allowance {
    pub(super) fn of(variant: &Variant, position: &Position, house: HouseId) -> Allowance {
        let delta = adjustment_counts(variant, position)[usize::from(house.0)];
        let free = free_home_centres(variant, position, house);
        let builds = u32::try_from(delta.max(0)).unwrap_or(0);
        Allowance {
            builds: builds.min(u32::try_from(free.len()).unwrap_or(u32::MAX)),
            disbands: delta.unsigned_abs() * u32::from(delta < 0),
            places: if builds > 0 {
                free.into_iter()
                    .map(|p| province_place(variant, p))
                    .collect()
            } else {
                Vec::new()
            },
        }
    }
}

/// Where a unit whose move is illegal could go (the suggestion of the answer).
#[derive(Debug, Clone, Serialize)]
pub struct Reach {
    /// The order's index in `orders`.
    pub index: usize,
    pub places: Vec<Place>,
}

/// Reasons for which the unit's reach is the useful suggestion.
const OUT_OF_REACH: &[&str] = &[
    "not-adjacent",
    "no-fleets-on-route",
    "coast-not-reachable",
    "coast-needed",
    "ford-closed",
    "house-border",
    "province-closed",
];

#[derive(Debug, Clone, Serialize)]
pub struct GameRef {
    pub id: String,
    pub name: String,
}

/// The orders of one house as the judge understands them (`Game::check_orders`): each
/// order's outcome if it were adjudicated alone, so illegal ones show with their reason,
/// and the units still without orders.
pub fn checked_orders(
    game: &Game,
    variant: &Variant,
    house: &HouseKey,
) -> Result<ResultsView, GameError> {
    let checked = game.check_orders(variant, house)?;
    Ok(results_view_with_orders(
        variant,
        &checked.before,
        &checked.adjudication,
        &checked.orders,
    ))
}

/// What the judge understood of a house's current orders in `game`.
pub fn orders_view(
    game: &Game,
    variant: &Variant,
    house: &HouseKey,
    lang: Lang,
) -> Result<OrdersView, GameError> {
    let view = checked_orders(game, variant, house)?;
    let h = variant
        .house_by_name(house)
        .ok_or_else(|| GameError::HouseNotInGame(house.clone()))?;
    let house_ref = HouseRef {
        id: variant.house(h).id.clone(),
        name: variant.house(h).name.clone(),
    };
    let lines: Vec<OrderLine> = view
        .houses
        .into_iter()
        .filter(|g| g.house.as_ref().is_some_and(|r| r.id == house_ref.id))
        .flat_map(|g| g.orders)
        .collect();
    let (mut orders, rest): (Vec<OrderLine>, Vec<OrderLine>) =
        lines.into_iter().partition(|o| o.index.is_some());
    orders.sort_by_key(|o| o.index);
    let adjusting = game.phase().kind == PhaseKind::Adjustment;
    let missing = if adjusting {
        Vec::new()
    } else {
        rest.into_iter().filter_map(|o| o.unit).collect()
    };
    let reach = orders
        .iter()
        .filter(|o| {
            o.outcome
                .reason
                .as_deref()
                .is_some_and(|r| OUT_OF_REACH.contains(&r))
        })
        .filter_map(|o| {
            let unit = o.unit.as_ref()?;
            Some(Reach {
                index: o.index?,
                places: reachable(variant, game.position(), h, unit),
            })
        })
        .filter(|r| !r.places.is_empty())
        .collect();
    Ok(OrdersView {
        game: GameRef {
            id: game.id().to_string(),
            name: game.name().to_string(),
        },
        house: house_ref,
        phase: game.phase(),
        deadline: game.deadline_text(lang),
        deadline_utc: game.deadline().map(|d| d.to_rfc3339()),
        orders,
        rejected: view.rejected,
        missing,
        ready: game.seat(house).is_some_and(|s| s.ready()),
        reach,
        allowance: adjusting.then(|| Allowance::of(variant, game.position(), h)),
    })
}

/// The provinces a unit can move to from where it stands (its regions for a fleet).
/// Arrows, fords in this weather and closed provinces count as the judge counts them.
fn reachable(
    variant: &Variant,
    position: &crate::judge::Position,
    house: crate::map::HouseId,
    unit: &UnitView,
) -> Vec<Place> {
    let Some(from) = variant
        .region_ids()
        .find(|&r| variant.region_label(r) == unit.at.id)
    else {
        return Vec::new();
    };
    let passage = position.passage(
        variant,
        crate::map::Owner::House(house),
        crate::map::Crossing::Move,
    );
    variant
        .region_ids()
        .filter(|&to| variant.province_of(to) != variant.province_of(from))
        .filter(|&to| !position.is_closed(variant.province_of(to)))
        .filter(|&to| {
            variant.can_stand(unit.kind, to) && variant.can_move_by(unit.kind, from, to, passage)
        })
        .map(|to| region_place(variant, to))
        .collect()
}
