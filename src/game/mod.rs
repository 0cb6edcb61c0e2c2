//! Games: their players, phases, orders, deadlines and endings, as values the store keeps.

mod audit;
pub mod calendar;
mod error;
mod lifecycle;
mod model;
mod orders;
mod repin;
pub mod results;
mod secret;
pub mod span;
mod victory;

pub use audit::AuditLine;
pub use error::{GameError, StorageFailure};
pub use lifecycle::{Adjudicated, NewGame, ResultsMaker, check_address, check_game_id, create};
pub use model::Bounced;
pub use model::{
    AuditEntry, Ending, Game, GameStatus, Moderator, Notice, NoticeKind, Observer, ObserverRequest,
    PhaseRecord, Player, Press, Seat, Settings, StoredOrder, Submission, SubmitMode, Trigger, Vote,
};
pub use orders::{OrderLines, OrderProblem, OrderProblemKind, looks_like_prose};
pub use repin::{Incompatibility, move_to_variant};
pub use secret::{hash_secret, new_secret, secret_checks, secret_matches, with_sieve};
pub use victory::survivors;
