//! Attacks on the judge, each replayed as a test (issue 9): one module per area.

#[path = "hostile/orders.rs"]
mod orders;
mod support;
