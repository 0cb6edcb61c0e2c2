//! The languages corbeau speaks to players and moderators.

use std::fmt;
use std::str::FromStr;

/// French (the default) or English.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    #[default]
    Fr,
    En,
}

impl Lang {
    /// `fr` or `en`: the folder of `templates/` for this language.
    pub fn code(self) -> &'static str {
        match self {
            Lang::Fr => "fr",
            Lang::En => "en",
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Lang {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "fr" | "french" | "français" | "francais" => Ok(Lang::Fr),
            "en" | "english" | "anglais" => Ok(Lang::En),
            other => Err(format!("unknown language `{other}` (fr or en)")),
        }
    }
}
