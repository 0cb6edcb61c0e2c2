#[path = "hostile/engine.rs"]
mod engine;
mod support;
