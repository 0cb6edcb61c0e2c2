//! Attacks on the judge, each replayed as a test (issue 9): one module per area.

#![allow(clippy::unwrap_used)]

mod support;

#[path = "hostile/signon.rs"]
mod signon;
