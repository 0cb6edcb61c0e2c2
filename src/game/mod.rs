pub mod calendar;
pub mod span;
