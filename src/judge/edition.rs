//! Rule editions: the published rulebooks differ on a few points the DATC names, and a
//! game, a batch run or a test case picks one. Each edition is only the set of choices on
//! which it differs; everything else is the same judge. The sources are in docs/rules.md.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A rulebook edition. The default is the 2023 rulebook, the DATC v3.0 preference.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Edition {
    #[default]
    #[serde(rename = "2023")]
    Rules2023,
    #[serde(rename = "1982")]
    Rules1982,
    #[serde(rename = "1971")]
    Rules1971,
    /// The Diplomacy Player's Technical Guide.
    #[serde(rename = "dptg")]
    Dptg,
}

/// When an army ordered to a neighbour goes by sea rather than by land.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConvoyUse {
    /// Any convoy ordered for the move carries the army, whoever ordered it (an army can be
    /// "kidnapped"); if the convoy is disrupted, the army goes by land after all.
    AnyConvoy,
    /// `via convoy`, or a fleet of the army's own house ordered to convoy it from a sea on
    /// some route.
    OwnFleet,
    /// `via convoy`, or a fleet of the army's own house ordered to convoy it from a sea the
    /// route needs (an unnecessary convoy shows no intent).
    OwnNeededFleet,
}

/// From where a house's units are counted when civil disorder removes the farthest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DisorderDistance {
    /// The supply centres the house owns at this adjustment.
    OwnedCentres,
    /// The house's home centres, whoever owns them.
    HomeCentres,
}

impl Edition {
    pub const ALL: [Edition; 4] = [
        Edition::Rules2023,
        Edition::Rules1982,
        Edition::Rules1971,
        Edition::Dptg,
    ];

    /// The name written in settings, case files and on the command line.
    pub fn code(self) -> &'static str {
        match self {
            Edition::Rules2023 => "2023",
            Edition::Rules1982 => "1982",
            Edition::Rules1971 => "1971",
            Edition::Dptg => "dptg",
        }
    }

    // By reference: serde's `skip_serializing_if` hands a reference.
    #[allow(clippy::trivially_copy_pass_by_ref)]
    pub fn is_default(&self) -> bool {
        *self == Edition::default()
    }

    pub fn convoy_use(self) -> ConvoyUse {
        match self {
            Edition::Rules2023 => ConvoyUse::OwnNeededFleet,
            Edition::Rules1982 | Edition::Dptg => ConvoyUse::OwnFleet,
            Edition::Rules1971 => ConvoyUse::AnyConvoy,
        }
    }

    pub fn disorder_distance(self) -> DisorderDistance {
        match self {
            Edition::Rules1971 => DisorderDistance::HomeCentres,
            Edition::Rules2023 | Edition::Rules1982 | Edition::Dptg => {
                DisorderDistance::OwnedCentres
            }
        }
    }
}

impl fmt::Display for Edition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A name that is no edition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownEdition(pub String);

impl FromStr for Edition {
    type Err = UnknownEdition;

    fn from_str(text: &str) -> Result<Edition, UnknownEdition> {
        let text = text.trim();
        Edition::ALL
            .into_iter()
            .find(|e| e.code().eq_ignore_ascii_case(text))
            .ok_or_else(|| UnknownEdition(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_edition_reads_back_its_code() {
        for e in Edition::ALL {
            assert_eq!(e.code().parse::<Edition>(), Ok(e));
        }
        assert_eq!("DPTG".parse::<Edition>(), Ok(Edition::Dptg));
        assert!("2000".parse::<Edition>().is_err());
        assert_eq!(Edition::default(), Edition::Rules2023);
    }
}
