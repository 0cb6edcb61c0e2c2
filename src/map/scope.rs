//! The variant a stored value is read and written with.
//!
//! A game's typed values (positions, parsed orders, houses) hold indices into its pinned
//! variant. The store writes them as that variant's own ids (`win/est`, `stark`), never as
//! indices: the JSON stays readable by people and tools, and a later corbeau that numbers
//! a variant's provinces differently, or a moderator's move to a new version of the
//! variant (`corbeau game variant`), reads them right. Serde has no place for such a
//! context, so the one who reads or writes (the store, with the game's pinned variant)
//! names it for the time of the call with [`within`]; the fields below then use it. A
//! value written or read outside any scope is an error, never a guess.

use std::cell::RefCell;
use std::rc::Rc;

use serde::{Deserialize, Deserializer, Serializer, de, ser};

use super::{HouseId, ProvinceId, RegionId, Variant};

thread_local! {
    static SCOPE: RefCell<Vec<Rc<Variant>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with `variant` as the variant of every typed value it reads or writes.
pub fn within<T>(variant: &Rc<Variant>, f: impl FnOnce() -> T) -> T {
    struct Leave;
    impl Drop for Leave {
        fn drop(&mut self) {
            SCOPE.with(|s| s.borrow_mut().pop());
        }
    }
    SCOPE.with(|s| s.borrow_mut().push(variant.clone()));
    let _leave = Leave;
    f()
}

/// The variant of the innermost [`within`], if any.
pub fn current() -> Option<Rc<Variant>> {
    SCOPE.with(|s| s.borrow().last().cloned())
}

pub const NO_SCOPE: &str = "no variant to read or write a game's places and houses with";

fn scoped_ser<S: Serializer>() -> Result<Rc<Variant>, S::Error> {
    current().ok_or_else(|| ser::Error::custom(NO_SCOPE))
}

fn scoped_de<'de, D: Deserializer<'de>>() -> Result<Rc<Variant>, D::Error> {
    current().ok_or_else(|| de::Error::custom(NO_SCOPE))
}

impl Variant {
    /// The region a label names: `win` (the province), `win/est` (a coast).
    pub fn region_by_label(&self, label: &str) -> Option<RegionId> {
        let (province, coast) = match label.split_once('/') {
            Some((p, c)) => (p, Some(c)),
            None => (label, None),
        };
        let province = self.province_by_id(province)?;
        self.region_ids().find(|&r| {
            let region = self.region(r);
            region.province == province && region.coast.as_deref() == coast
        })
    }

    /// The house of an id (exact, as the variant writes it).
    pub fn house_by_id(&self, id: &str) -> Option<HouseId> {
        self.house_ids().find(|&h| self.house(h).id == id)
    }
}

/// A region as its label (`win/est`).
pub mod region {
    use super::*;

    pub fn serialize<S: Serializer>(region: &RegionId, s: S) -> Result<S::Ok, S::Error> {
        let variant = scoped_ser::<S>()?;
        s.serialize_str(&variant.region_label(*region))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RegionId, D::Error> {
        let variant = scoped_de::<D>()?;
        let label = String::deserialize(d)?;
        variant.region_by_label(&label).ok_or_else(|| {
            de::Error::custom(format!("no region {label} in the variant {}", variant.id))
        })
    }
}

/// A province as its id (`win`).
pub mod province {
    use super::*;

    pub fn serialize<S: Serializer>(province: &ProvinceId, s: S) -> Result<S::Ok, S::Error> {
        let variant = scoped_ser::<S>()?;
        s.serialize_str(&variant.province(*province).id)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<ProvinceId, D::Error> {
        let variant = scoped_de::<D>()?;
        named::<D>(&variant, &String::deserialize(d)?)
    }

    pub(super) fn named<'de, D: Deserializer<'de>>(
        variant: &Variant,
        id: &str,
    ) -> Result<ProvinceId, D::Error> {
        variant.province_by_id(id).ok_or_else(|| {
            de::Error::custom(format!("no province {id} in the variant {}", variant.id))
        })
    }
}

/// A province or none, as its id or `null`.
pub mod province_opt {
    use super::*;

    pub fn serialize<S: Serializer>(
        province: &Option<ProvinceId>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match province {
            Some(p) => super::province::serialize(p, s),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<ProvinceId>, D::Error> {
        let variant = scoped_de::<D>()?;
        Option::<String>::deserialize(d)?
            .map(|id| super::province::named::<D>(&variant, &id))
            .transpose()
    }
}

/// A house as its id (`stark`).
pub mod house {
    use super::*;

    pub fn serialize<S: Serializer>(house: &HouseId, s: S) -> Result<S::Ok, S::Error> {
        let variant = scoped_ser::<S>()?;
        s.serialize_str(&variant.house(*house).id)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<HouseId, D::Error> {
        let variant = scoped_de::<D>()?;
        let id = String::deserialize(d)?;
        variant.house_by_id(&id).ok_or_else(|| {
            de::Error::custom(format!("no house {id} in the variant {}", variant.id))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::load_variant;
    use serde::Serialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Sample {
        #[serde(with = "region")]
        at: RegionId,
        #[serde(with = "house")]
        by: HouseId,
    }

    #[test]
    fn values_are_written_as_the_variant_ids_and_read_back() {
        let variant = Rc::new(load_variant("classique").expect("built in"));
        let at = variant.region_by_label("stp/nc").expect("a coast");
        let by = variant.house_by_id("russia").expect("a house");
        let sample = Sample { at, by };
        let text = within(&variant, || serde_json::to_string(&sample)).expect("written");
        assert_eq!(text, r#"{"at":"stp/nc","by":"russia"}"#);
        let back: Sample = within(&variant, || serde_json::from_str(&text)).expect("read");
        assert_eq!(back, sample);
    }

    #[test]
    fn outside_a_scope_nothing_is_guessed() {
        let variant = Rc::new(load_variant("classique").expect("built in"));
        let at = variant.region_by_label("par").expect("a province");
        let by = variant.house_by_id("france").expect("a house");
        assert!(serde_json::to_string(&Sample { at, by }).is_err());
        assert!(serde_json::from_str::<Sample>(r#"{"at":"par","by":"france"}"#).is_err());
        let unknown = within(&variant, || {
            serde_json::from_str::<Sample>(r#"{"at":"xyz","by":"france"}"#)
        });
        assert!(unknown.is_err_and(|e| e.to_string().contains("no region xyz")));
    }
}
