//! The order language of `grammar/orders.ebnf`: its AST, the nom parser and its errors.

mod ast;
pub mod condition;
mod error;
pub mod parse;
mod token;

pub use ast::{Instruction, Location, Order, SourcePos, UnitSpec};
pub use condition::{BlockLine, Condition, ConditionError, block_line, parse_condition};
pub use error::{Expectation, OrderError, Suggestion};
pub use parse::{MAX_LINE_CHARS, parse_order, parse_orders, parse_unit_line};
pub use token::is_word_char;
