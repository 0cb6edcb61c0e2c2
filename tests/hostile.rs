#[path = "hostile/mta.rs"]
mod mta;
mod support;
