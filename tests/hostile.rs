#[path = "hostile/flow.rs"]
mod flow;
mod support;
