//! Games: their players, phases, orders, deadlines and endings, as values the store keeps.

mod action;
mod actor;
mod address;
mod audit;
pub mod calendar;
mod conditional;
mod error;
mod event;
mod house;
mod model;
mod orders;
mod repin;
pub mod results;
mod rules;
mod secret;
mod setting;
pub mod span;
mod standing;
#[cfg(any(test, feature = "test-hooks"))]
mod testing;
mod victory;
mod weather;

pub use action::{Action, ActionKind, EndBy, Needs, PhaseGuard};
pub use actor::Actor;
pub use address::{Address, same_address};
pub use audit::AuditLine;
pub use conditional::{BlockProblem, ConditionNote, MAX_BLOCK_DEPTH, Step};
pub use error::GameError;
pub use event::{Event, Missed, Revealed, Trace};
pub use house::HouseKey;
pub use model::Bounced;
pub use model::{AheadBlock, AheadDrop};
pub use model::{AskerHistory, ConsentAsked, Leaving, PastPlayer};
pub use model::{
    AuditEntry, Ending, Game, GameStatus, Moderator, Notice, NoticeKind, Observer, ObserverRequest,
    PhaseRecord, Player, Press, Seat, Settings, StoredOrder, Submission, SubmitMode, Trigger, Vote,
};
pub use orders::{
    OrderLines, OrderProblem, OrderProblemKind, ReadOrders, looks_like_prose, read_submission,
    read_submission_noted,
};
pub use repin::{Incompatibility, move_to_variant};
pub use rules::{
    Adjudicated, MAX_OBSERVER_REQUESTS, NewGame, OBSERVER_TOKEN_LIFE, check_address, check_game_id,
    create,
};
pub use rules::{
    Asked, CONSENT_TOKEN_LIFE, ConsentKey, MAX_CONSENT_ASKED, consent_token, consent_valid,
};
pub use rules::{MAX_AHEAD_BLOCKS, MAX_AHEAD_LINES, MAX_YEARS_AHEAD};
#[cfg(any(test, feature = "test-hooks"))]
pub use secret::secret_checks;
pub use secret::sieve_passes;
pub use secret::{
    MIN_CHOSEN, SecretFailure, SieveKey, derived_key, has_keyed_sieve, hash_secret,
    install_sieve_key, is_common, new_secret, secret_matches, with_sieve, without_unkeyed_sieve,
};
pub use setting::{
    MAX_GRACE, MAX_REMINDERS, Setting, SettingChanged, SettingKind, read_rules, read_zone,
};
pub use standing::{PlayerRecord, RecordMark, finished_marks, phase_marks};
pub use victory::survivors;
