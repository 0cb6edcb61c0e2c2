//! Why the judge refuses a mail command (as opposed to the game refusing the action),
//! worded for the player or moderator in their language.

use crate::game::GameError;
use crate::lang::Lang;
use crate::map::Variant;
use crate::say;

#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// An order or a player's command with no sign-on before it.
    NotSignedOn,
    /// A house's command (orders, readiness, votes…) from the moderator, who has no house
    /// to give it for by mail.
    HouseCommand,
    /// A moderator's command without `MODERATOR game secret` before it.
    NotModerator,
    /// Wrong house or secret (never says which, so as not to help a guesser).
    BadSignOn {
        game: String,
    },
    BadModeratorSecret {
        game: String,
    },
    /// The game has no moderator who could sign on.
    NoModerator {
        game: String,
    },
    /// A second game in one mail.
    OneGamePerMail {
        first: String,
    },
    /// A command that needs a game, with none named.
    NoGame,
    /// The game's press setting forbids this press.
    PressForbidden {
        setting: String,
    },
    /// Grey press to a game that does not allow it.
    GreyForbidden,
    /// Nobody to send the press to (houses without players, or none named).
    NoRecipient,
    /// A second `PROCESS` or `ROLLBACK` in one mail.
    ProcessOnce,
    /// The phase asked for in `HISTORY` was not played.
    NoSuchPhase(String),
    /// `HISTORY` before the first phase was played.
    NothingPlayed,
    AlreadyObserving,
    /// `UNOBSERVE` with a secret that matches no observer.
    BadObserverSecret,
    /// A span the moderator wrote that cannot be read.
    BadSpan(String),
    /// The message was too large to be read.
    TooLarge {
        size: usize,
        limit: usize,
    },
    /// `ADRESSE` to the judge's own address or to one already in the game; which of the
    /// two is not said, so that nobody learns another player's address this way.
    AddressUnavailable(String),
    /// A second sign-on (or secret) in one mail: refused without being checked, so that
    /// one mail buys one guess.
    OneSecretPerMail,
    /// A line of a word or two right after a sign-on that lacked its secret: taken for
    /// the secret, hidden from the quote and not read.
    SecretOnItsOwnLine,
    /// The moderator does not allow observers in this game.
    ObserversForbidden,
    /// `CARTE` from an address the game does not write to, without a sign-on: the
    /// picture goes only to its players, moderator and observers.
    MapForStrangers {
        game: String,
    },
    /// `OBSERVER … CONFIRMER` with no request waiting from this address.
    NoObserverRequest {
        game: String,
    },
    /// `OBSERVER … CONFIRMER` with the wrong token.
    BadObserverToken,
    /// Too many requests to observe wait for their confirmation.
    TooManyObserverRequests,
    /// A mail of more commands than the judge reads: none was read.
    TooManyCommands {
        count: usize,
        limit: usize,
    },
}

impl Refusal {
    /// The refusal in the reader's language, from the message catalogue (`refusal.*`).
    pub fn message(&self, lang: Lang) -> String {
        use Refusal::*;
        match self {
            NotSignedOn => say!(lang, "refusal.not_signed_on"),
            NotModerator => say!(lang, "refusal.not_moderator"),
            HouseCommand => say!(lang, "refusal.house_command"),
            BadSignOn { game } => say!(lang, "refusal.bad_sign_on", game),
            BadModeratorSecret { game } => say!(lang, "refusal.bad_moderator_secret", game),
            NoModerator { game } => say!(lang, "refusal.no_moderator", game),
            OneGamePerMail { first } => say!(lang, "refusal.one_game_per_mail", first),
            NoGame => say!(lang, "refusal.no_game"),
            PressForbidden { setting } => say!(lang, "refusal.press_forbidden", setting),
            GreyForbidden => say!(lang, "refusal.grey_forbidden"),
            NoRecipient => say!(lang, "refusal.no_recipient"),
            ProcessOnce => say!(lang, "refusal.process_once"),
            NoSuchPhase(phase) => say!(lang, "refusal.no_such_phase", phase),
            NothingPlayed => say!(lang, "refusal.nothing_played"),
            AlreadyObserving => say!(lang, "refusal.already_observing"),
            BadObserverSecret => say!(lang, "refusal.bad_observer_secret"),
            // Already worded (a span's own error, in the reader's language).
            BadSpan(e) => e.clone(),
            OneSecretPerMail => say!(lang, "refusal.one_secret_per_mail"),
            SecretOnItsOwnLine => say!(lang, "refusal.secret_on_its_own_line"),
            MapForStrangers { game } => say!(lang, "refusal.map_for_strangers", game),
            ObserversForbidden => say!(lang, "refusal.observers_forbidden"),
            NoObserverRequest { game } => say!(lang, "refusal.no_observer_request", game),
            BadObserverToken => say!(lang, "refusal.bad_observer_token"),
            TooManyCommands { count, limit } => {
                say!(lang, "refusal.too_many_commands", count, limit)
            }
            TooManyObserverRequests => say!(lang, "refusal.too_many_observer_requests"),
            TooLarge { size, limit } => say!(
                lang,
                "refusal.too_large",
                size_kib = size / 1024,
                limit_kib = limit / 1024
            ),
            AddressUnavailable(address) => say!(lang, "refusal.address_unavailable", address),
        }
    }
}

/// A game's refusal worded for a mail: where the game's own message points to the command
/// line (`corbeau game list`, `player replace`), the mail command is named instead.
pub fn game_error(e: &GameError, lang: Lang, variant: Option<&Variant>) -> String {
    match e {
        GameError::UnknownGame { id, nearest } => {
            say!(lang, "refusal.unknown_game", id, nearest)
        }
        GameError::SeatTaken { house, address } => {
            say!(lang, "refusal.seat_taken", house, address)
        }
        // The game refuses a concession to one's own house so (the mail's vote words are
        // read by the command parser, never by the game).
        GameError::BadVote(house) => say!(lang, "refusal.concede_to_self", house),
        GameError::MissingPlayers(houses) => say!(lang, "refusal.missing_players", houses),
        e => match variant {
            Some(variant) => e.message_in(lang, variant),
            None => e.message(lang),
        },
    }
}
