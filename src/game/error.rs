//! What a moderator or a player did that the game refuses, as typed values: `report`
//! words them for a player or a moderator in French or English (and `Display` in English).
//! Nothing is changed when one of these is returned.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::map::MapError;

use super::HouseKey;
use super::calendar::CalendarError;
use super::model::GameStatus;
use super::secret::SecretFailure;
use super::span::Span;

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
        houses: Vec<HouseKey>,
    },
    /// The house is in the variant but not among this game's players.
    HouseNotInGame(HouseKey),
    SeatTaken {
        house: HouseKey,
        address: super::Address,
    },
    NoPlayer(HouseKey),
    BadAddress(String),
    AddressTaken {
        address: super::Address,
        house: HouseKey,
    },
    /// The action needs another status.
    Status {
        action: &'static str,
        status: GameStatus,
    },
    MissingPlayers(Vec<HouseKey>),
    /// `process --phase` named another phase than the one being played.
    WrongPhase {
        /// The phase as the guard wrote it.
        given: String,
        current: crate::judge::Phase,
    },
    BadPhase(String),
    /// The order set has lines that are not orders, or orders for units the house does
    /// not own: nothing was stored.
    OrdersRefused(Vec<super::orders::OrderProblem>),
    NothingToOrder {
        house: HouseKey,
    },
    /// More orders than a house can mean in one phase (a mail of thousands of lines):
    /// refused whole, so that what a game keeps, and reads at each mail, stays small.
    TooManyOrders {
        count: usize,
        max: usize,
    },
    NothingToRollback,
    /// `READY` while the house's orders hold one the judge finds illegal: processed now,
    /// that order would be carried out as a hold or a disband the player did not mean.
    ReadyWithIllegalOrders(HouseKey),
    /// An absence that ends before it starts, or is already over.
    BadAbsence,
    /// Orders after the deadline and its grace period: the deadline, shown in the game's
    /// time zone.
    Late {
        deadline: DateTime<Utc>,
        zone: Tz,
    },
    Calendar(CalendarError),
    BadPosition(String),
    BadVote(String),
    /// No new secret, token or salt could be made (the system's random source or the
    /// hashing failed): nothing was changed.
    Secret(SecretFailure),
    /// The judge's own address (or an alias) given for a player or the moderator: the
    /// judge would write to itself.
    JudgeAddress(super::Address),
    /// `game variant`: the new version cannot read what the game holds.
    VariantIncompatible {
        file: String,
        problems: Vec<super::repin::Incompatibility>,
    },
    /// `game variant`: the game already plays this content under this name.
    VariantUnchanged {
        name: String,
    },
    /// The actor may not ask for this action (the audit trail's name of the action).
    NotAllowed {
        action: &'static str,
    },
    /// A player's new address is another player's or the moderator's (which, not said).
    AddressUnavailable(super::Address),
    ObserversForbidden,
    AlreadyObserving,
    TooManyObserverRequests,
    /// No request to observe waits for this address (or it expired).
    NoObserverRequest {
        game: String,
    },
    /// The game has as many observers as allowed.
    ObserversFull {
        game: String,
        cap: usize,
    },
    BadObserverToken,
    /// Not an observer, or not the observer's secret (which, not said).
    BadObserverSecret,
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
    /// A rule edition that is none of those the judge knows.
    UnknownRules {
        input: String,
    },
    /// The rules changed after the start: the game keeps those it began with.
    RulesAfterStart {
        rules: crate::judge::Edition,
    },
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
    // The habits of njudge players.
    /// A draw naming a house that is out of the game (no unit, no centre).
    DrawWithout(HouseKey),
    /// A secret chosen by its owner that is too easy to guess (the rule: [`super::secret::check_chosen`]).
    WeakSecret {
        min: usize,
    },
    /// A secret chosen by its owner that is one of the common leaked passwords
    /// ([`super::secret::is_common`]).
    CommonSecret,
    // Creating a game, who plays, summary.
    /// A value of `SET ADDRESSES` that is neither shown nor hidden.
    NotShownOrHidden {
        input: String,
    },
    // Joining a game.
    /// A setting that takes yes or no got something else.
    NotYesNo {
        input: String,
    },
    /// A number of missed phases before civil disorder that is no number, or too many.
    BadMissedCount {
        input: String,
        max: u32,
    },
    /// A time zone the judge does not know (`SET ZONE`, `player set --zone`).
    UnknownZone {
        input: String,
    },
    /// A percentage (the minimum reliability) that is no whole number from 0 to 100.
    BadPercent {
        input: String,
    },
    /// `JOIN` to a game whose moderator gives the seats.
    GameClosed {
        game: String,
    },
    /// `JOIN` to a game whose every seat is taken.
    NoFreeSeat {
        game: String,
    },
    /// The house asked for is played (by whom is not said to a stranger).
    HousePlayed(HouseKey),
    /// The address already plays in the game, or moderates it.
    AlreadyInGame {
        game: String,
    },
    /// A request for the house already waits for the moderator.
    AlreadyAsked(HouseKey),
    /// No request for the house waits.
    NoSeatRequest(HouseKey),
    /// A confirmation whose token is not the judge's for this request and address.
    BadConsentToken,
    /// A confirmation whose token's time ran out.
    ConsentTokenExpired,
    /// The moderator removed this address from the game: only the moderator seats it
    /// again.
    Ejected {
        game: String,
    },
    /// Several addresses ask for the house: the moderator's answer must name one.
    WhichRequest {
        house: HouseKey,
        addresses: Vec<super::Address>,
    },
    /// So many confirmed requests wait in the game that no more are taken.
    TooManySeatRequests,
    // Orders for later phases.
    /// Orders written ahead for a phase already played, or being played.
    AheadPast {
        phase: crate::judge::Phase,
        current: crate::judge::Phase,
    },
    /// Orders written ahead for a phase later than the last year allowed.
    AheadTooFar {
        phase: crate::judge::Phase,
        last: i32,
    },
    /// A house holds as many blocks of orders ahead as allowed.
    AheadTooMany {
        max: usize,
    },
    /// A block of orders ahead longer than allowed.
    AheadTooLong {
        lines: usize,
        max: usize,
    },
}

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
