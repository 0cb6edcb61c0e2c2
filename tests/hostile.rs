//! Attacks on the judge, one module per area: tests/hostile/<area>.rs.

#![allow(clippy::unwrap_used)]

#[path = "hostile/caps.rs"]
mod caps;
#[path = "hostile/community.rs"]
mod community;
#[path = "hostile/course.rs"]
mod course;
#[path = "hostile/engine.rs"]
mod engine;
#[path = "hostile/files.rs"]
mod files;
#[path = "hostile/flow.rs"]
mod flow;
#[path = "hostile/join.rs"]
mod join;
#[path = "hostile/loops.rs"]
mod loops;
#[path = "hostile/mta.rs"]
mod mta;
#[path = "hostile/orders.rs"]
mod orders;
#[path = "hostile/signon.rs"]
mod signon;
mod support;
#[path = "hostile/variant_names.rs"]
mod variant_names;
