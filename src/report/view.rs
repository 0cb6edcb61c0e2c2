//! The results of one phase as data: what a player reads, before any wording. Templates
//! (`templates/{fr,en}/results.txt`) and `--json` both start from a [`ResultsView`]; the
//! JSON fields are documented in `docs/results-format.md`.

use serde::Serialize;

use crate::judge::Phase;
use crate::map::UnitKind;

/// Version of the results format (JSON fields and text header); bumped on breaking changes.
pub const RESULTS_FORMAT: u32 = 1;

/// Everything the results of one adjudicated phase show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultsView {
    /// [`RESULTS_FORMAT`].
    pub format: u32,
    pub variant: VariantRef,
    /// The phase adjudicated.
    pub phase: Phase,
    /// The next phase with something to decide.
    pub next: Phase,
    /// Orders per house in variant order, then the neutral units; houses without any
    /// order or unit report are left out.
    pub houses: Vec<HouseOrders>,
    /// Orders that could not be attached to a unit, or were replaced by a later one.
    pub rejected: Vec<RejectedView>,
    /// Units dislodged this phase, with where they may retreat (or disbanded at once).
    pub dislodged: Vec<DislodgedView>,
    /// Units that left the board this phase (in a movement phase: the dislodged units
    /// disbanded at once, also listed in `dislodged`).
    pub disbanded: Vec<OwnedUnit>,
    /// The supply-centre table, after an autumn phase (once retreats are done) or a winter.
    pub centres: Option<CentreTable>,
    /// Units on the board after the phase, per house, then neutral units.
    pub after: Vec<HouseUnits>,
    pub counts: Counts,
}

/// Which variant was played.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VariantRef {
    pub id: String,
    pub name: String,
}

/// A house, by id and display name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HouseRef {
    pub id: String,
    pub name: String,
}

/// A province or one of its coasts, as the text names it: `Winterfell (win/est)`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Place {
    /// The region label: the province id, or `id/coast` for a coast.
    pub id: String,
    /// The province id.
    pub province: String,
    /// The province's display name.
    pub name: String,
    /// The coast id, when the place is a coast.
    pub coast: Option<String>,
}

/// A unit: kind, where it stands, and a dragon's name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnitView {
    pub kind: UnitKind,
    /// `A`, `F` or `D`.
    pub letter: char,
    pub at: Place,
    /// A dragon's name (`Balerion`).
    pub dragon: Option<String>,
}

/// The orders of one house (or of the neutral units, `house: null`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HouseOrders {
    pub house: Option<HouseRef>,
    pub orders: Vec<OrderLine>,
}

/// One unit's (or one adjustment's) line in the results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OrderLine {
    /// The index of the order in the input, when one was given.
    pub index: Option<usize>,
    /// The unit ordered; for a build, the unit built; for a waive, none.
    pub unit: Option<UnitView>,
    /// The order the judge carried out, normalized (`A ner -> som`, `F crb C A cla -> goe`).
    /// For an illegal order, the hold (or disband) that replaced it.
    pub order: String,
    pub command: CommandView,
    /// The order as written, when there was one.
    pub written: Option<String>,
    pub outcome: OutcomeView,
    /// Whether the unit was dislodged this phase (whatever its own order did).
    pub dislodged: bool,
    /// The province the dislodging attack came from, when known.
    pub dislodged_by: Option<Place>,
}

/// The order the judge carried out, with names resolved, for templates to word.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum CommandView {
    Hold,
    Move { to: Place, via_convoy: bool },
    SupportHold { unit: UnitView },
    SupportMove { unit: UnitView, to: Place },
    Convoy { unit: UnitView, to: Place },
    Retreat { to: Place },
    Disband,
    Build { unit: UnitView },
    Waive,
}

/// `succeeded`, `failed` or `illegal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Succeeded,
    Failed,
    Illegal,
}

/// What became of an order, with the facts its reason names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OutcomeView {
    pub status: Status,
    /// The judge's stable code: `succeeded`, `standoff`, `illegal:not-adjacent`.
    pub code: String,
    /// The failure or illegality code without prefix (`standoff`, `not-adjacent`); none
    /// when the order succeeded.
    pub reason: Option<String>,
    /// The provinces the reason names: standoff with, defended by, cut by, dislodged by,
    /// lost head to head against.
    pub provinces: Vec<Place>,
    /// The owner of the unit, for `not-your-unit` (none: a neutral unit).
    pub house: Option<HouseRef>,
    /// The actual unit kind, for `wrong-unit-kind`.
    pub kind: Option<UnitKind>,
}

/// An order the judge could not attach to a unit, or that a later order replaced.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RejectedView {
    /// The index of the order in the input.
    pub index: usize,
    /// The house that gave it, when known.
    pub house: Option<HouseRef>,
    /// The order as written, when known.
    pub written: Option<String>,
    /// Always `illegal`, with the reason.
    pub outcome: OutcomeView,
}

/// A unit dislodged this phase: waiting for its retreat order, or disbanded at once (a
/// neutral unit, or a unit with nowhere to retreat).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DislodgedView {
    pub house: Option<HouseRef>,
    pub unit: UnitView,
    /// The province the dislodging unit came from.
    pub by: Option<Place>,
    /// Where it may retreat; empty when it was disbanded.
    pub retreats: Vec<Place>,
    /// Disbanded at once: a neutral unit, or no retreat possible.
    pub disbanded: bool,
}

/// The supply-centre table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CentreTable {
    /// One row per house in variant order.
    pub rows: Vec<CentreRow>,
    /// Supply centres owned by nobody.
    pub unowned: Vec<String>,
}

/// One house's line of the supply-centre table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CentreRow {
    pub house: HouseRef,
    /// Province ids of the centres owned, sorted.
    pub centres: Vec<String>,
    /// Units on the board (in winter: before the adjustments).
    pub units: usize,
    /// Centres minus units: builds (positive) or disbands (negative) due this winter.
    pub adjustment: i32,
    /// Builds that can be made at most: free owned home centres, capped by `adjustment`.
    pub builds: usize,
}

/// A unit with its house (none: a neutral unit).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OwnedUnit {
    pub house: Option<HouseRef>,
    pub unit: UnitView,
}

/// The units of one house on the board after the phase.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HouseUnits {
    pub house: Option<HouseRef>,
    pub units: Vec<UnitView>,
}

/// Totals, for the header and for tools.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Counts {
    /// Lines in `houses`: one per unit (movement, retreat) or adjustment.
    pub lines: usize,
    /// Lines that answer a written order.
    pub orders: usize,
    pub succeeded: usize,
    pub failed: usize,
    pub illegal: usize,
    /// Rejected orders (not counted in `lines`).
    pub rejected: usize,
    pub dislodged: usize,
    pub disbanded: usize,
}
