//! Orders as a player wrote them, names already resolved against the variant but units not
//! yet found on the board: `A1 Ner soutient Balerion Gos->Som`.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer, de, ser};

use crate::map::{ProvinceId, RegionId, UnitKind, scope};

/// Where something was written; displays as `ordres.txt:3:14`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourcePos {
    pub source: Arc<str>,
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for SourcePos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.source, self.line, self.column)
    }
}

/// A place in a text kept as its line alone.
mod line_only {
    use super::*;

    pub(super) fn serialize<S: Serializer>(span: &SourcePos, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(span.line)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SourcePos, D::Error> {
        Ok(SourcePos {
            source: Arc::from(""),
            line: u32::deserialize(d)?,
            column: 1,
        })
    }
}

/// A province as written, with the coast if one was given (`spa/nc`, `Win (co)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Location {
    pub province: ProvinceId,
    /// The coast region, when the order names one.
    pub coast: Option<RegionId>,
}

/// Written as the place's label: `win`, or `win/est` for a coast.
impl Serialize for Location {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let variant = scope::current().ok_or_else(|| ser::Error::custom(scope::NO_SCOPE))?;
        let label = match self.coast {
            Some(coast) => variant.region_label(coast),
            None => variant.province(self.province).id.clone(),
        };
        s.serialize_str(&label)
    }
}

impl<'de> Deserialize<'de> for Location {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Location, D::Error> {
        let variant = scope::current().ok_or_else(|| de::Error::custom(scope::NO_SCOPE))?;
        let label = String::deserialize(d)?;
        let unknown =
            || de::Error::custom(format!("no place {label} in the variant {}", variant.id));
        if label.contains('/') {
            let coast = variant.region_by_label(&label).ok_or_else(unknown)?;
            Ok(Location {
                province: variant.province_of(coast),
                coast: Some(coast),
            })
        } else {
            Ok(Location::province(
                variant.province_by_id(&label).ok_or_else(unknown)?,
            ))
        }
    }
}

impl Location {
    pub fn province(province: ProvinceId) -> Location {
        Location {
            province,
            coast: None,
        }
    }
}

/// A unit as written: any of kind, number, dragon name and province may be missing, as
/// long as together they pick out one unit (`A1 Ner`, `Balerion`, `Ner`, `F Crb`).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct UnitSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<UnitKind>,
    /// The player's own numbering (`A1`); kept for the reply, not used to find the unit.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub number: Option<u32>,
    /// A dragon's name (`Balerion`), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<Location>,
}

/// What an order asks of its unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Instruction {
    /// `tient`, `H`, `hold`.
    Hold,
    /// `-> Som`, `se déplace vers Som`, optionally `via convoi`. In a retreat phase a move
    /// is read as a retreat.
    Move {
        to: Location,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        via_convoy: bool,
        /// The seas of njudge's convoy path (`A Yor-Nth-Nwy`), in order: said by the
        /// player, checked against their own convoys for the reply, never by the judge
        /// (the army goes by whatever convoys carry it). Empty for any other move.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        path: Vec<Location>,
    },
    /// `soutient A Ner` (to hold) or `soutient Balerion Gos -> Som` (a move).
    Support {
        unit: UnitSpec,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<Location>,
    },
    /// `convoie A Cla -> Goe`, or the seed's verb-less `F Crb A Cla->Goe`.
    Convoy { unit: UnitSpec, to: Location },
    /// `retraite vers Som`, `R Som`.
    Retreat { to: Location },
    /// `dissoudre`, `disband`: in a retreat or adjustment phase.
    Disband,
    /// `construire A Win`: the unit spec of the order is the unit to build.
    Build,
    /// `renoncer`, `waive`: a build given up.
    Waive,
}

/// One order line: an optional house (`Stark:`), the unit and what it is told to do. A
/// game keeps its orders in this form (places written as the variant's ids, see
/// [`scope`]), so that a line is parsed once, when it is received.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Order {
    /// The house as written before a colon (`Stark:`, `England:`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub house: Option<String>,
    /// The ordered unit (for a build: the unit to build; for a waive: empty).
    pub unit: UnitSpec,
    pub action: Instruction,
    /// Where the order starts, for messages. A kept order keeps only its line (in the
    /// player's mail): it is never read again, so no message points into it.
    #[serde(rename = "line", with = "line_only")]
    pub span: SourcePos,
    /// The order's text as written, for quoting it back.
    pub text: String,
}
