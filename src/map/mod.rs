//! Variants: provinces, coasts, adjacency for each unit kind, houses and setups, loaded
//! from the TOML files of `games/` and checked on load.

pub mod drawing;
mod load;
pub mod names;
mod pin;
pub mod scope;
mod variant;

pub use load::{
    EMBEDDED, MapError, MapProblem, load_variant, load_variant_file, parse_variant, variant_source,
};
pub use names::{NameIndex, fold, fold_into, likeness, nearest_of};
pub use pin::{PinnedVariant, VariantHash, VariantSource};
pub use variant::{
    Barrier, Border, BorderKind, Crossing, GarrisonStart, House, HouseId, Owner, Passage, Province,
    ProvinceId, ProvinceKind, Region, RegionId, Setup, StartingUnit, UnitKind, Variant, Victory,
    Weather, WeatherState,
};
