mod support;
#[path = "hostile/flow.rs"]
mod flow;
