mod support;
#[path = "hostile/engine.rs"]
mod engine;
