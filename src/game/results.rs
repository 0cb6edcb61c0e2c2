//! The results of one phase as data: what a player reads, before any wording. A phase
//! record keeps them typed ([`PhaseResults`]); the report layer builds them and renders
//! every text and JSON view from them (templates `templates/{fr,en}/results.txt`, `--json`).
//! They live with the game, below the report layer, so that the game's history can name
//! them. The JSON fields are documented in `docs/results-format.md`: the stored form is that
//! JSON, so the types read back what any corbeau of this format wrote.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::judge::Phase;
use crate::map::UnitKind;

/// Version of the results format (JSON fields and text header); bumped on breaking changes.
/// Stored results of another version do not read ([`PhaseResults::Unreadable`]): a bump
/// comes with a store migration of the stored results.
pub const RESULTS_FORMAT: u32 = 1;

/// Everything the results of one adjudicated phase show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ResultsView {
    /// [`RESULTS_FORMAT`].
    pub format: u32,
    pub variant: VariantRef,
    /// The rule edition, when it is not the default (2023): named so that readers of an
    /// old-school game know why a convoy carried an army its owner did not ask for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<crate::judge::Edition>,
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
    /// On a variant with weather: the weather of the phase played and of the next one, and
    /// the fords (absent on other variants, and in results written before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weather: Option<WeatherView>,
}

impl ResultsView {
    /// Marks the orders of `houses` as the built-in player's, for every reader to see.
    pub fn mark_bots(&mut self, houses: &[crate::game::HouseKey]) {
        for group in &mut self.houses {
            group.bot = group
                .house
                .as_ref()
                .is_some_and(|h| houses.iter().any(|b| b.as_str() == h.id));
        }
    }

    /// The results as one house may read a trial of its own orders: its orders, units,
    /// dislodgements and centres, nothing of any other house (a player's
    /// `PREVIEW`), and the counts of what is left.
    pub fn only_house(&mut self, house: &str) {
        let own = |h: &Option<HouseRef>| h.as_ref().is_some_and(|h| h.id == house);
        self.houses.retain(|h| own(&h.house));
        self.rejected.retain(|r| own(&r.house));
        self.dislodged.retain(|d| own(&d.house));
        self.disbanded.retain(|d| own(&d.house));
        self.after.retain(|a| own(&a.house));
        if let Some(table) = &mut self.centres {
            table.rows.retain(|r| r.house.id == house);
            table.unowned.clear();
        }
        let mut counts = Counts {
            rejected: self.rejected.len(),
            dislodged: self.dislodged.len(),
            disbanded: self.disbanded.len(),
            ..Counts::default()
        };
        for line in self.houses.iter().flat_map(|h| &h.orders) {
            counts.lines += 1;
            counts.orders += usize::from(line.written.is_some());
            match line.outcome.status {
                Status::Succeeded => counts.succeeded += 1,
                Status::Failed => counts.failed += 1,
                Status::Illegal => counts.illegal += 1,
            }
        }
        self.counts = counts;
    }
}

/// Which variant was played.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VariantRef {
    pub id: String,
    pub name: String,
}

/// A house, by id and display name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HouseRef {
    pub id: String,
    pub name: String,
}

/// A province or one of its coasts, as the text names it: `Winterfell (win/est)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UnitView {
    pub kind: UnitKind,
    /// `A`, `F` or `D`.
    pub letter: char,
    pub at: Place,
    /// A dragon's name (`Balerion`).
    pub dragon: Option<String>,
}

/// The orders of one house (or of the neutral units, `house: null`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HouseOrders {
    pub house: Option<HouseRef>,
    pub orders: Vec<OrderLine>,
    /// The built-in player gave this house's orders (absent when not, and in
    /// results written before it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

/// One unit's (or one adjustment's) line in the results.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Succeeded,
    Failed,
    Illegal,
}

/// What became of an order, with the facts its reason names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CentreTable {
    /// One row per house in variant order (the texts leave out a house holding nothing).
    pub rows: Vec<CentreRow>,
    /// Supply centres owned by nobody.
    pub unowned: Vec<String>,
}

/// One house's line of the supply-centre table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OwnedUnit {
    pub house: Option<HouseRef>,
    pub unit: UnitView,
}

/// The units of one house on the board after the phase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HouseUnits {
    pub house: Option<HouseRef>,
    pub units: Vec<UnitView>,
}

/// The weather around a phase: the state during the phase played (`state`) and during the
/// next one (`next_state`), whether each leaves the fords open, and every ford.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeatherView {
    pub state: WeatherRef,
    pub fords_open: bool,
    pub next_state: WeatherRef,
    pub next_fords_open: bool,
    pub fords: Vec<FordView>,
}

/// A state of the weather track, by id and display name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeatherRef {
    pub id: String,
    pub name: String,
}

/// A ford, by the two provinces it joins.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FordView {
    pub a: Place,
    pub b: Place,
}

/// Totals, for the header and for tools.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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

/// The results as a phase record keeps them: the typed [`ResultsView`], written as its
/// JSON (docs/results-format.md). Results stored that do not read as this format (a record
/// missing a field, a value of the wrong type) are kept as they were stored, with what was
/// wrong: the history still opens, the other phases read as usual, this phase says its
/// results cannot be shown and why, and nothing rewrites what was stored.
#[derive(Debug, Clone, PartialEq)]
pub enum PhaseResults {
    Read(Box<ResultsView>),
    Unreadable(UnreadableResults),
}

/// Stored results that are not of this format, kept as they were.
#[derive(Debug, Clone, PartialEq)]
pub struct UnreadableResults {
    /// The JSON as stored, written back unchanged.
    pub stored: Value,
    pub problem: ResultsProblem,
}

/// Why stored results do not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultsProblem {
    /// They say another version of the format than [`RESULTS_FORMAT`] (written by a later
    /// corbeau): read as this one, they could say something else than they meant.
    Format { found: u32 },
    /// Not of the format's shape: the JSON reader's message, which names the field
    /// (``missing field `counts` ``, ``invalid type: string "x", expected usize``).
    Shape { detail: String },
}

impl PhaseResults {
    /// The results, when they read as this format.
    pub fn view(&self) -> Option<&ResultsView> {
        match self {
            PhaseResults::Read(view) => Some(view),
            PhaseResults::Unreadable(_) => None,
        }
    }
}

impl From<ResultsView> for PhaseResults {
    fn from(view: ResultsView) -> PhaseResults {
        PhaseResults::Read(Box::new(view))
    }
}

impl Serialize for PhaseResults {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            PhaseResults::Read(view) => view.serialize(serializer),
            PhaseResults::Unreadable(u) => u.stored.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for PhaseResults {
    /// Through a JSON value first, so that results of another shape are kept whole rather
    /// than failing the whole record (and with it the game's history).
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<PhaseResults, D::Error> {
        let stored = Value::deserialize(deserializer)?;
        let problem = match ResultsView::deserialize(&stored) {
            Ok(view) if view.format == RESULTS_FORMAT => return Ok(view.into()),
            Ok(view) => ResultsProblem::Format { found: view.format },
            Err(e) => ResultsProblem::Shape {
                detail: e.to_string(),
            },
        };
        Ok(PhaseResults::Unreadable(UnreadableResults {
            stored,
            problem,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stored results of this format, as the golden spring results are written.
    fn spring() -> Value {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/golden/results-westeros-spring.json"
        );
        let text = std::fs::read_to_string(path).expect("the spring golden is readable");
        serde_json::from_str(&text).expect("the spring golden is JSON")
    }

    #[test]
    fn stored_results_read_typed_and_write_back_the_same_json() {
        let stored = spring();
        let results: PhaseResults = serde_json::from_value(stored.clone()).expect("reads");
        let view = results.view().expect("the golden is of this format");
        assert_eq!(view.format, RESULTS_FORMAT);
        assert!(!view.houses.is_empty());
        let written = serde_json::to_string_pretty(&results).expect("writes");
        let again = serde_json::to_string_pretty(&stored).expect("writes");
        assert_eq!(written, again);
    }

    #[test]
    fn results_missing_a_field_are_kept_as_stored_with_the_field_named() {
        let mut stored = spring();
        stored.as_object_mut().expect("an object").remove("counts");
        let results: PhaseResults = serde_json::from_value(stored.clone()).expect("still reads");
        let PhaseResults::Unreadable(u) = &results else {
            panic!("results without counts read as the format: {results:?}");
        };
        let ResultsProblem::Shape { detail } = &u.problem else {
            panic!("{:?}", u.problem);
        };
        assert!(detail.contains("`counts`"), "{detail}");
        assert_eq!(serde_json::to_value(&results).expect("writes"), stored);
    }

    #[test]
    fn results_of_a_later_format_are_kept_as_stored_not_read_as_this_one() {
        let mut stored = spring();
        stored["format"] = Value::from(RESULTS_FORMAT + 1);
        let results: PhaseResults = serde_json::from_value(stored.clone()).expect("still reads");
        let PhaseResults::Unreadable(u) = &results else {
            panic!("a later format read as this one: {results:?}");
        };
        assert_eq!(
            u.problem,
            ResultsProblem::Format {
                found: RESULTS_FORMAT + 1
            }
        );
        assert_eq!(serde_json::to_value(&results).expect("writes"), stored);
    }

    /// docs/results-format.md: a key that may be `null` reads as `null` when absent, an
    /// unknown key is ignored; a wrong type makes the results unreadable.
    #[test]
    fn absent_nullable_keys_read_as_null_and_unknown_keys_are_ignored() {
        let mut stored = spring();
        let line = &mut stored["houses"][0]["orders"][0];
        let line = line.as_object_mut().expect("an order line");
        assert!(line.remove("dislodged_by").is_some());
        line.insert("later".into(), Value::Bool(true));
        let results: PhaseResults = serde_json::from_value(stored).expect("reads");
        let view = results.view().expect("still of this format");
        assert_eq!(view.houses[0].orders[0].dislodged_by, None);
        assert_eq!(view, &serde_json::from_value(spring()).expect("reads"));

        let mut wrong = spring();
        wrong["counts"]["lines"] = Value::String("many".into());
        let results: PhaseResults = serde_json::from_value(wrong).expect("still reads");
        assert!(results.view().is_none());
    }
}
