//! Attacks on the judge, each replayed as a test (issue 9): one module per area.

mod support;
#[path = "hostile/orders.rs"]
mod orders;
