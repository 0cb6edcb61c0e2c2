//! What a moderator or a player did that the game refuses, worded for them in French or
//! English. Nothing is changed when one of these is returned.

use std::fmt;

use crate::lang::Lang;
use crate::map::MapError;
use crate::say;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use super::calendar::{CalendarError, format_deadline};
use super::model::GameStatus;
use super::span::Span;

/// A failure of the storage under the games, as the game layer sees it (the store's own
/// error stays in the store; `service` maps it).
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

#[derive(Debug)]
pub enum GameError {
    UnknownGame {
        id: String,
        nearest: Option<String>,
    },
    GameExists(String),
    BadGameId(String),
    Variant(MapError),
    NoSetup {
        variant: String,
        players: u8,
        available: Vec<u8>,
    },
    UnknownHouse {
        name: String,
        houses: Vec<String>,
    },
    /// The house is in the variant but not among this game's players.
    HouseNotInGame(String),
    SeatTaken {
        house: String,
        address: String,
    },
    NoPlayer(String),
    BadAddress(String),
    AddressTaken {
        address: String,
        house: String,
    },
    /// The action needs another status.
    Status {
        action: &'static str,
        status: GameStatus,
    },
    MissingPlayers(Vec<String>),
    /// `process --phase` named another phase than the one being played.
    WrongPhase {
        given: String,
        current: String,
    },
    BadPhase(String),
    /// The order set has lines that are not orders, or orders for units the house does
    /// not own: nothing was stored.
    OrdersRefused(Vec<super::orders::OrderProblem>),
    NothingToOrder {
        house: String,
    },
    /// More orders than a house can mean in one phase (a mail of thousands of lines):
    /// refused whole, so that what a game keeps, and reads at each mail, stays small.
    TooManyOrders {
        count: usize,
        max: usize,
    },
    NothingToRollback,
    /// An absence that ends before it starts, or is already over.
    BadAbsence,
    /// Orders after the deadline and its grace period.
    Late {
        deadline: String,
    },
    Calendar(CalendarError),
    BadPosition(String),
    BadVote(String),
    /// The store could not be read or written (the service maps the store's errors to
    /// this: the game knows no store).
    Store(StorageFailure),
    /// Something that should not happen (a bug), with what was going on.
    Internal(String),
    /// The judge's own address (or an alias) given for a player or the moderator: the
    /// judge would write to itself.
    JudgeAddress(String),
    /// `game variant`: the new version cannot read what the game holds.
    VariantIncompatible {
        file: String,
        problems: Vec<super::repin::Incompatibility>,
    },
    /// `game variant`: the game already plays this content under this name.
    VariantUnchanged {
        name: String,
    },
    /// A press setting that is none of full, broadcast, grey, none.
    UnknownPress {
        input: String,
    },
    /// A deadline set at or before the present moment.
    DeadlinePast {
        asked: DateTime<Utc>,
        now: DateTime<Utc>,
        zone: Tz,
    },
    /// A deadline set further ahead than any span reaches.
    DeadlineTooFar {
        asked: DateTime<Utc>,
        max: Span,
        zone: Tz,
    },
    /// A deadline set while the game is paused, whose resume gives the deadline back.
    DeadlineWhilePaused,
    /// A grace period beyond the longest allowed.
    GraceTooLong {
        grace: Span,
        max: Span,
    },
    /// More reminders than one deadline may have.
    TooManyReminders {
        count: usize,
        max: usize,
    },
}

impl GameError {
    /// The message in a player's or moderator's language, from the message catalogue
    /// (`game_error.*`).
    pub fn message(&self, lang: Lang) -> String {
        use GameError::*;
        match self {
            UnknownGame { id, nearest } => say!(lang, "game_error.unknown_game", id, nearest),
            GameExists(id) => say!(lang, "game_error.game_exists", id),
            BadGameId(id) => say!(lang, "game_error.bad_game_id", id),
            // The variant's own error (its file and line).
            Variant(e) => e.message(lang),
            NoSetup {
                variant,
                players,
                available,
            } => say!(lang, "game_error.no_setup", variant, players, available),
            UnknownHouse { name, houses } => say!(lang, "game_error.unknown_house", name, houses),
            HouseNotInGame(house) => say!(lang, "game_error.house_not_in_game", house),
            SeatTaken { house, address } => {
                say!(lang, "game_error.seat_taken", house, address)
            }
            NoPlayer(house) => say!(lang, "game_error.no_player", house),
            BadAddress(address) => say!(lang, "game_error.bad_address", address),
            AddressTaken { address, house } => {
                say!(lang, "game_error.address_taken", address, house)
            }
            Status { action, status } => say!(
                lang,
                "game_error.status",
                action = action_words(action, lang),
                status = status_words(*status, lang)
            ),
            MissingPlayers(houses) => say!(lang, "game_error.missing_players", houses),
            WrongPhase { given, current } => say!(
                lang,
                "game_error.wrong_phase",
                given,
                current = phase_plain(current, lang)
            ),
            BadPhase(phase) => say!(lang, "game_error.bad_phase", phase),
            OrdersRefused(errors) => {
                let mut text = say!(lang, "game_error.orders_refused");
                for e in errors {
                    text.push_str("\n  ");
                    text.push_str(&e.message(lang));
                    text.push_str("\n    > ");
                    text.push_str(&e.text);
                }
                text
            }
            NothingToOrder { house } => say!(lang, "game_error.nothing_to_order", house),
            TooManyOrders { count, max } => say!(lang, "game_error.too_many_orders", count, max),
            NothingToRollback => say!(lang, "game_error.nothing_to_rollback"),
            BadAbsence => say!(lang, "game_error.bad_absence"),
            Late { deadline } => say!(lang, "game_error.late", deadline),
            Calendar(e) => e.message(lang),
            BadPosition(e) => e.clone(),
            BadVote(vote) => say!(lang, "game_error.bad_vote", vote),
            // The store's own message (in English, like every error of the store).
            Store(e) => e.to_string(),
            Internal(error) => say!(lang, "game_error.internal", error),
            VariantIncompatible { file, problems } => {
                let problems: Vec<String> = problems.iter().map(|p| p.message(lang)).collect();
                say!(lang, "game_error.variant_incompatible", file, problems)
            }
            VariantUnchanged { name } => say!(lang, "game_error.variant_unchanged", name),
            JudgeAddress(address) => say!(lang, "game_error.judge_address", address),
            UnknownPress { input } => say!(lang, "game_error.unknown_press", input),
            DeadlinePast { asked, now, zone } => say!(
                lang,
                "game_error.deadline_past",
                asked = format_deadline(*asked, *zone, lang),
                now = format_deadline(*now, *zone, lang)
            ),
            DeadlineTooFar { asked, max, zone } => say!(
                lang,
                "game_error.deadline_too_far",
                asked = format_deadline(*asked, *zone, lang),
                max = max.text(lang)
            ),
            DeadlineWhilePaused => say!(lang, "game_error.deadline_while_paused"),
            GraceTooLong { grace, max } => say!(
                lang,
                "game_error.grace_too_long",
                grace = grace.text(lang),
                max = max.text(lang)
            ),
            TooManyReminders { count, max } => {
                say!(lang, "game_error.too_many_reminders", count, max)
            }
        }
    }
}

/// The action that [`GameError::Status`] names (by its English words, as the game gives
/// them) in the reader's language.
fn action_words(action: &str, lang: Lang) -> String {
    match action {
        "add a player" => say!(lang, "action.add_player"),
        "replace a player" => say!(lang, "action.replace_player"),
        "remove a player" => say!(lang, "action.remove_player"),
        "start" => say!(lang, "action.start"),
        "submit orders" => say!(lang, "action.submit_orders"),
        "declare ready" => say!(lang, "action.declare_ready"),
        "vote" => say!(lang, "action.vote"),
        "pause" => say!(lang, "action.pause"),
        "resume" => say!(lang, "action.resume"),
        "extend the deadline" => say!(lang, "action.extend_deadline"),
        "declare an absence" => say!(lang, "action.declare_absence"),
        "process" => say!(lang, "action.process"),
        "end the game" => say!(lang, "action.end_game"),
        "edit the position" => say!(lang, "action.edit_position"),
        "change a setting" => say!(lang, "action.change_setting"),
        "set the deadline" => say!(lang, "action.set_deadline"),
        other => other.to_string(),
    }
}

/// What a game in this status is, after "the game".
fn status_words(status: GameStatus, lang: Lang) -> String {
    match status {
        GameStatus::Forming => say!(lang, "status_is.forming"),
        GameStatus::Running => say!(lang, "status_is.running"),
        GameStatus::Paused => say!(lang, "status_is.paused"),
        GameStatus::Finished => say!(lang, "status_is.finished"),
    }
}

/// A phase (stored as `spring 298 movement`) in the reader's words, in the form `--phase`
/// reads: `printemps 298 mouvements`.
fn phase_plain(phase: &str, lang: Lang) -> String {
    match crate::position::parse_phase(phase) {
        Some(p) => phase_words(p, lang, "phase.plain"),
        None => phase.to_string(),
    }
}

/// A phase through the catalogue entry `code` (`phase.plain` or `phase.text`).
pub fn phase_words(phase: crate::judge::Phase, lang: Lang, code: &str) -> String {
    phase.words(lang, code)
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Lang::En))
    }
}

impl std::error::Error for GameError {}

impl From<CalendarError> for GameError {
    fn from(e: CalendarError) -> GameError {
        GameError::Calendar(e)
    }
}

impl From<MapError> for GameError {
    fn from(e: MapError) -> GameError {
        GameError::Variant(e)
    }
}
