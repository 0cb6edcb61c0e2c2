//! Attacks on the judge (issue 9), one module per area: tests/hostile/<area>.rs.

#![allow(clippy::unwrap_used)]

#[path = "hostile/loops.rs"]
mod loops;
mod support;
