//! What the service's work on stored games can end in besides success: the game's refusal,
//! the store failing, a template that does not render, or a bug of corbeau's, each its
//! own variant. Mail, the command line and the published pages decide from the variant
//! what to do (refuse, try again later, report a bug) and word it with [`message`].
//! Nothing is committed when one of these is returned.
//!
//! [`message`]: ServiceError::message

use std::fmt;

use crate::game::GameError;
use crate::lang::Lang;
use crate::map::MapError;
use crate::report::RenderError;
use crate::say;
use crate::store::StoreError;

/// A failure of the storage under the games, as the layers above the store see it (the
/// store's own error stays in the store; [`From<StoreError>`] maps it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StorageFailure {
    /// Busy or failing for now (held by another process, a read or write error, no room
    /// for a copy): nothing was done, and trying again later may work (exit code 75).
    Transient(String),
    /// The store is damaged: a value that does not read (a bug or a disk fault).
    Damaged(String),
    /// The store refuses to be used as it is (written by a newer corbeau, a migration that
    /// cannot run): the message says what to do.
    Refused(String),
}

impl fmt::Display for StorageFailure {
    /// The store's own message (in English, like every error of the store).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StorageFailure::Transient(m)
            | StorageFailure::Damaged(m)
            | StorageFailure::Refused(m) => f.write_str(m),
        }
    }
}

/// Something the service found that cannot happen unless corbeau has a bug: what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Bug {
    /// Processing a phase gave no phase record.
    NoPhaseRecord,
    /// A session whose action failed was committed (the caller ignored the failure).
    SpoiledSession,
    /// A broadcast press message did not encode as JSON for the audit trail.
    Broadcast(String),
    /// The store was opened for a pass and is not there.
    StoreNotOpen,
    /// Seating a player gave no event saying so.
    SeatWithoutEvent,
    /// A map picture could not be drawn (other than a variant without drawing data).
    Draw(String),
}

impl fmt::Display for Bug {
    /// In English, for the bug report (the same words whatever the reader's language).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bug::NoPhaseRecord => f.write_str("processing gave no phase record"),
            Bug::SpoiledSession => f.write_str("a session whose action failed was committed"),
            Bug::Broadcast(e) => write!(f, "broadcast: {e}"),
            Bug::StoreNotOpen => f.write_str("store"),
            Bug::SeatWithoutEvent => f.write_str("a seat without its event"),
            Bug::Draw(e) => f.write_str(e),
        }
    }
}

#[derive(Debug)]
pub enum ServiceError {
    /// The game refuses the action (or could not make a secret for it).
    Game(GameError),
    /// The store could not be read or written.
    Store(StorageFailure),
    /// A template (built in, or a moderator's override) could not be read or rendered.
    Render(RenderError),
    /// A bug in corbeau.
    Bug(Bug),
}

impl ServiceError {
    /// The message in a player's or moderator's language: the game's refusal as the game
    /// words it, the store's own message, and a bug or a template that does not render as
    /// a bug to report (`game_error.internal`).
    pub fn message(&self, lang: Lang) -> String {
        match self {
            ServiceError::Game(e) => e.message(lang),
            // The store's own message (in English, like every error of the store).
            ServiceError::Store(e) => e.to_string(),
            ServiceError::Render(e) => say!(lang, "game_error.internal", error = e.to_string()),
            ServiceError::Bug(e) => say!(lang, "game_error.internal", error = e.to_string()),
        }
    }
}

impl fmt::Display for ServiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for ServiceError {}

impl From<GameError> for ServiceError {
    fn from(e: GameError) -> ServiceError {
        ServiceError::Game(e)
    }
}

/// A variant file that does not read, met by the service while pinning or reading one,
/// is the game's refusal as the game words it.
impl From<MapError> for ServiceError {
    fn from(e: MapError) -> ServiceError {
        ServiceError::Game(GameError::Variant(e))
    }
}

impl From<RenderError> for ServiceError {
    fn from(e: RenderError) -> ServiceError {
        ServiceError::Render(e)
    }
}

impl From<Bug> for ServiceError {
    fn from(e: Bug) -> ServiceError {
        ServiceError::Bug(e)
    }
}

/// The store's errors as the layers above it carry them: the store is named only here
/// (and in the command line). A game id taken is the game's refusal, as the game words it.
impl From<StoreError> for ServiceError {
    fn from(e: StoreError) -> ServiceError {
        let message = e.to_string();
        match e {
            StoreError::Exists(id) => ServiceError::Game(GameError::GameExists(id)),
            StoreError::Locked(_)
            | StoreError::Open { .. }
            | StoreError::Io(_)
            | StoreError::Database(_)
            | StoreError::Unreachable { .. }
            | StoreError::LockedDatabase(_)
            | StoreError::WriteUnlocked
            | StoreError::NoRoom { .. }
            | StoreError::Backup { .. } => ServiceError::Store(StorageFailure::Transient(message)),
            StoreError::Corrupt(_) => ServiceError::Store(StorageFailure::Damaged(message)),
            StoreError::NewerSchema { .. }
            | StoreError::NewerDatabase { .. }
            | StoreError::NotEmpty(_)
            | StoreError::Migration { .. } => ServiceError::Store(StorageFailure::Refused(message)),
        }
    }
}
