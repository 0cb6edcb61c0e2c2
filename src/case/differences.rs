//! DATC v2.4 cases that DATC v3.0 decides otherwise. corbeau follows v3.0; `corbeau datc`
//! reports these v2.4 cases as differing, not failing, and docs/rules.md explains each.

/// (case id, why v3.0 differs).
pub const V3_DIFFERENCES: &[(&str, &str)] = &[];
