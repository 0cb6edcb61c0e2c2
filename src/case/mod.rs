//! Adjudication test cases: the project's own case format (`tests/datc/*.case`,
//! `tests/variant/*.case`, described in `docs/case-format.md`), the jDip text format of the
//! DATC v2.4 file, and the DATC v3.0 JSON (read only to convert it). `corbeau datc` and
//! `tests/datc.rs` run cases through the same [`run_case`].

mod datc_json;
mod differences;
mod jdip;
mod run;
mod text;

pub use crate::position::{
    PositionError, format_phase, house_named, parse_phase, read_position, unit_text, write_position,
};
pub use datc_json::convert_datc_json;
pub use differences::V3_DIFFERENCES;
pub use jdip::{read_jdip, read_jdip_each};
pub use run::{
    CaseStatus, CaseStep, CaseVerdict, VariantCache, case_position, case_steps, run_case,
};
pub use text::{read_cases, write_cases};

use crate::judge::{Edition, Phase};

/// What an order is expected to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expect {
    Succeeds,
    /// Fails, optionally for a given reason (a code such as `standoff`, `support-cut`,
    /// `illegal`, `illegal:not-adjacent`).
    Fails(Option<String>),
}

/// One order of a case, with what it should do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseOrder {
    /// `England: F nth -> pic`, as the order language reads it.
    pub text: String,
    pub expect: Option<Expect>,
    pub line: u32,
}

/// A test case: a position, one or more phases of orders, and what should come of them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Case {
    pub id: String,
    pub title: String,
    /// Where the facts come from (`DATC v3.0 6.A.5`).
    pub sources: Vec<String>,
    pub variant: String,
    /// The rule edition the case is adjudicated under (`rules 1971`; the default: 2023).
    pub rules: Edition,
    pub phase: Option<Phase>,
    /// Supply-centre owners (`England: lon edi`); none given: each house owns its homes.
    pub owners: Option<Vec<String>>,
    /// Units on the board (`England: A lvp`).
    pub units: Vec<String>,
    /// Dislodged units with where their attacker came from (`Turkey: F ank`, `bla`).
    pub dislodged: Vec<(String, Option<String>)>,
    pub contested: Vec<String>,
    /// The weather (`storm`, or `storm 3` for a position on the track), in a variant
    /// with weather; none: where the track starts.
    pub weather: Option<String>,
    /// Garrisons (`Lannister: cas 1`, `controls` after the strength to keep the centre).
    pub garrisons: Vec<String>,
    /// Provinces closed for the game.
    pub closed: Vec<String>,
    /// The houses expected to win at once on the final position (claim points or
    /// centres, then tie-breaks); empty: nobody. None: not checked.
    pub victory: Option<Vec<String>>,
    /// Orders, one list per phase adjudicated in turn.
    pub steps: Vec<Vec<CaseOrder>>,
    /// Units expected on the board at the end; None: not checked.
    pub after: Option<Vec<String>>,
    /// Dislodged units expected at the end (checked when `after` is).
    pub after_dislodged: Vec<String>,
    /// Units expected removed in the last phase (civil disorder); None: not checked.
    pub disbanded: Option<Vec<String>>,
    /// Why the case is not run (a known disagreement, recorded, never deleted).
    pub skip: Option<String>,
    /// File and line where the case starts, for messages.
    pub file: String,
    pub line: u32,
}
