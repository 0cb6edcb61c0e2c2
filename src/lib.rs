//! corbeau: a play-by-email judge for Diplomacy-style games, with the Westeros variant.

// A `pub` item says who reads it: one the crate's users cannot reach is `pub(crate)`.
#![warn(unreachable_pub)]

pub mod bot;
pub mod case;
pub mod cli;
pub mod config;
pub mod draw;
pub mod file;
pub mod game;
pub mod judge;
pub mod lang;
pub mod mail;
pub mod map;
pub mod order;
pub mod position;
pub mod publish;
pub mod report;
pub mod service;
pub mod store;
pub mod wording;
