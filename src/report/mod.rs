//! Results of one adjudicated phase, as a player reads them (French or English text from
//! the templates of `templates/`) and as tools read them (JSON). The formats are described
//! in `docs/results-format.md`; what results contain is said there too.

pub mod ahead;
mod asks;
mod audit;
mod build;
mod calendar;
pub mod conditional;
mod describe;
mod errors;
pub mod game_text;
mod localize;
mod orders;
mod reason;
mod render;
mod setting;
pub mod standing;
pub mod summary;

/// The results' data types live with the game, whose history keeps them.
pub use crate::game::results::{
    CentreRow, CentreTable, CommandView, Counts, DislodgedView, HouseOrders, HouseRef, HouseUnits,
    OrderLine, OutcomeView, OwnedUnit, PhaseResults, Place, RESULTS_FORMAT, RejectedView,
    ResultsProblem, ResultsView, Status, UnitView, UnreadableResults, VariantRef,
};
pub use asks::{Ask, DislodgedBrief, PhaseAsk};
pub use build::{phase_record, results_view, results_view_with_orders, weather_view};
pub use calendar::{for_reader, format_deadline, set_reader};
pub use describe::{order_text, province_place, region_place, unit_view};
pub use game_text::phase_words;
pub use localize::{localize, localized};
pub use orders::{GameRef, OrdersView, Reach, checked_orders, orders_view};
/// Outcomes as template data: tests render every code through the templates with it.
pub use reason::{illegal_view, outcome_view};
pub use render::{
    ORDERS_TEMPLATE, RESULTS_TEMPLATE, RenderError, local_templates, render_results,
    render_template, wrap,
};
pub use setting::{press_words, shown_words};

/// The results as pretty-printed JSON (the `--json` output).
pub fn results_json(view: &ResultsView) -> String {
    // Serializing plain structs of strings and numbers cannot fail.
    serde_json::to_string_pretty(view).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
