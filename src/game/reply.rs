//! The answer to a set of orders: each order as the judge understood it (illegal ones with
//! their reason), the units still without orders, and the deadline; the data of the
//! `orders.txt` template.

use serde::Serialize;

use crate::judge::Phase;
use crate::lang::Lang;
use crate::map::Variant;
use crate::report::{HouseRef, OrderLine, RejectedView, UnitView};

use super::{Game, GameError};

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
}

#[derive(Debug, Clone, Serialize)]
pub struct GameRef {
    pub id: String,
    pub name: String,
}

impl Game {
    /// What the judge understood of a house's current orders.
    pub fn orders_view(
        &self,
        variant: &Variant,
        house: &str,
        lang: Lang,
    ) -> Result<OrdersView, GameError> {
        let view = self.check_orders(variant, house)?;
        let h = variant
            .house_by_name(house)
            .ok_or_else(|| GameError::HouseNotInGame(house.to_string()))?;
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
        let missing = if self.phase.kind == crate::judge::PhaseKind::Adjustment {
            Vec::new()
        } else {
            rest.into_iter().filter_map(|o| o.unit).collect()
        };
        Ok(OrdersView {
            game: GameRef {
                id: self.id.clone(),
                name: self.name.clone(),
            },
            house: house_ref,
            phase: self.phase,
            deadline: self.deadline_text(lang),
            deadline_utc: self.deadline.map(|d| d.to_rfc3339()),
            orders,
            rejected: view.rejected,
            missing,
            ready: self.seat(house).is_some_and(|s| s.ready),
        })
    }
}
