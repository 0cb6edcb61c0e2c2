//! The houses of a game, as the game names them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::map::{HouseId, Variant};

/// A house of a game: the variant's id for it (`stark`), as the store keeps it and the
/// results print it. A type of its own, so that a house is never mistaken for an address,
/// a game or a name as a player wrote it: it is made only from the variant
/// ([`HouseKey::of`], [`HouseKey::named`]) or read back from the store.
///
/// Not the judge's [`HouseId`], an index into one version of the variant: a game outlives
/// versions (`corbeau game variant`), and its errors, notices and audit lines are worded
/// and stored without the variant at hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct HouseKey(String);

impl HouseKey {
    /// The key of one of the variant's houses.
    pub fn of(variant: &Variant, house: HouseId) -> HouseKey {
        HouseKey(variant.house(house).id.clone())
    }

    /// The house a player or moderator wrote (its id, a name, an alias or a close
    /// misspelling), if the variant has one by that name.
    pub fn named(variant: &Variant, written: &str) -> Option<HouseKey> {
        match crate::position::house_named(variant, written) {
            Some(crate::map::Owner::House(h)) => Some(HouseKey::of(variant, h)),
            _ => None,
        }
    }

    /// The judge's index of the house in `variant` (none: a house of another version).
    pub fn in_variant(&self, variant: &Variant) -> Option<HouseId> {
        variant.house_by_id(&self.0)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A key reads as the id it is (`seat.house().len()`, `&key` where a `&str` is asked);
/// the other way, only the variant makes one.
impl std::ops::Deref for HouseKey {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for HouseKey {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for HouseKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `pad`, not `write_str`: the tables align houses with `{:<12}`.
        f.pad(&self.0)
    }
}

impl PartialEq<str> for HouseKey {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for HouseKey {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// A key written by a test for a house it knows the variant has (`"stark".into()`);
/// compiled only for tests: the judge makes keys only from the variant.
#[cfg(any(test, feature = "test-hooks"))]
impl From<&str> for HouseKey {
    fn from(id: &str) -> HouseKey {
        HouseKey(id.to_string())
    }
}
