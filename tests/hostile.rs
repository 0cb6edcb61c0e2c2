mod support;
#[path = "hostile/mta.rs"]
mod mta;
