//! DATC v2.4 cases that DATC v3.0 decides otherwise. corbeau follows v3.0; `corbeau datc`
//! reports these v2.4 cases as differing, not failing, and docs/rules.md explains each.

/// (case id, why v3.0 differs).
pub const V3_DIFFERENCES: &[(&str, &str)] = &[
    (
        "6.B.2",
        "a fleet moving to a multi-coast province must name the coast, even when only one coast is reachable (2023 rules)",
    ),
    (
        "6.G.8",
        "an army ordered `via convoy` with no convoying fleet stays put; it does not fall back on a move by land (2023 rules)",
    ),
];
