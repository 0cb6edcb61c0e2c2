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
mod setting;
pub mod span;
mod victory;

pub use audit::AuditLine;
pub use error::phase_words;
pub use error::{GameError, StorageFailure};
pub use lifecycle::{Adjudicated, NewGame, ResultsMaker, check_address, check_game_id, create};
pub use model::Bounced;
pub use model::{
    AuditEntry, Ending, Game, GameStatus, Moderator, Notice, NoticeKind, Observer, ObserverRequest,
    PhaseRecord, Player, Press, Seat, Settings, StoredOrder, Submission, SubmitMode, Trigger, Vote,
};
pub use orders::{OrderLines, OrderProblem, looks_like_prose};
pub use repin::{Incompatibility, move_to_variant};
pub use secret::{hash_secret, new_secret, secret_checks, secret_matches, with_sieve};
pub use setting::{MAX_GRACE, MAX_REMINDERS, Setting, SettingChanged, SettingKind, press_words};
pub use victory::survivors;
