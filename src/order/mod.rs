//! The order language of `grammar/orders.ebnf`: its AST, the nom parser and its errors.

mod ast;

pub use ast::{Action, Location, Order, Span, UnitSpec};
