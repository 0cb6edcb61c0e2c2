//! Attacks on the judge (issue 9), one module per area: tests/hostile/<area>.rs.

#![allow(clippy::unwrap_used)]

mod support;
#[path = "hostile/loops.rs"]
mod loops;
