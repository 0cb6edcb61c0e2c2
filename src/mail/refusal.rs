//! Why the judge refuses a mail command (as opposed to the game refusing the action),
//! worded for the player or moderator in their language.

use crate::game::GameError;
use crate::lang::Lang;

#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// An order or a player's command with no sign-on before it.
    NotSignedOn,
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
        setting: &'static str,
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
    /// Too many wrong secrets lately, from this address or for this house: refused
    /// without being checked (it says nothing of whether the secret was right).
    Throttled {
        game: String,
        /// When to try again, in the reader's words.
        until: String,
    },
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
    pub fn message(&self, lang: Lang) -> String {
        use Refusal::*;
        let fr = lang == Lang::Fr;
        let pick = |a: String, b: String| if fr { a } else { b };
        match self {
            NotSignedOn => pick(
                "il faut d'abord s'identifier : PARTIE <partie> <maison> <secret>".into(),
                "sign on first: SIGNON <game> <house> <secret>".into(),
            ),
            NotModerator => pick(
                "commande du modérateur : il faut d'abord MODERATEUR <partie> <secret>".into(),
                "a moderator's command: send MODERATOR <game> <secret> first".into(),
            ),
            BadSignOn { game } => pick(
                format!(
                    "maison ou secret incorrect pour la partie {game} : rien de ce message n'a été exécuté pour cette partie"
                ),
                format!(
                    "wrong house or secret for the game {game}: nothing in this message was done for that game"
                ),
            ),
            BadModeratorSecret { game } => pick(
                format!("secret du modérateur incorrect pour la partie {game}"),
                format!("wrong moderator's secret for the game {game}"),
            ),
            NoModerator { game } => pick(
                format!("la partie {game} n'a pas de modérateur par courrier"),
                format!("the game {game} has no moderator by mail"),
            ),
            OneGamePerMail { first } => pick(
                format!(
                    "un message ne concerne qu'une partie ({first}) : envoyez un autre message pour une autre partie"
                ),
                format!(
                    "one message is about one game ({first}): send another message for another game"
                ),
            ),
            NoGame => pick(
                "cette commande porte sur une partie : commencez par PARTIE <partie> <maison> <secret>".into(),
                "this command is about a game: start with SIGNON <game> <house> <secret>".into(),
            ),
            PressForbidden { setting } => pick(
                format!("la presse de cette partie est « {setting} » : ce message n'est pas permis"),
                format!("this game's press is `{setting}`: this message is not allowed"),
            ),
            GreyForbidden => pick(
                "cette partie n'autorise pas la presse anonyme (grise)".into(),
                "this game does not allow anonymous (grey) press".into(),
            ),
            NoRecipient => pick(
                "personne à qui transmettre ce message".into(),
                "nobody to pass this message to".into(),
            ),
            ProcessOnce => pick(
                "une seule phase traitée ou annulée par message : envoyez un autre message".into(),
                "one phase processed or rolled back per message: send another message".into(),
            ),
            NoSuchPhase(phase) => pick(
                format!("aucune phase jouée ne s'appelle « {phase} »"),
                format!("no phase played is called `{phase}`"),
            ),
            NothingPlayed => pick(
                "aucune phase n'a encore été jouée dans cette partie".into(),
                "no phase of this game has been played yet".into(),
            ),
            AlreadyObserving => pick(
                "cette adresse reçoit déjà les résultats de cette partie".into(),
                "this address already receives this game's results".into(),
            ),
            BadObserverSecret => pick(
                "ce secret n'est celui d'aucun observateur de cette partie".into(),
                "this secret is no observer's of this game".into(),
            ),
            BadSpan(e) => e.clone(),
            OneSecretPerMail => pick(
                "une seule identification par message : cette ligne n'a pas été vérifiée ; \
                 écrivez un message par identification"
                    .into(),
                "one sign-on per message: this line was not checked; send one message per \
                 sign-on"
                    .into(),
            ),
            Throttled { game, until } => pick(
                format!(
                    "trop d'identifications manquées pour la partie {game} : elles sont refusées \
                     sans vérification jusqu'au {until} ; rien de ce message n'a été exécuté \
                     pour cette partie"
                ),
                format!(
                    "too many failed sign-ons for the game {game}: they are refused unchecked \
                     until {until}; nothing in this message was done for that game"
                ),
            ),
            MapForStrangers { game } => pick(
                format!(
                    "la carte n'est envoyée qu'aux joueurs, au modérateur et aux observateurs \
                     de la partie : identifiez-vous d'abord (PARTIE {game} <maison> <secret>), \
                     ou demandez à l'observer (OBSERVER {game})"
                ),
                format!(
                    "the map goes only to the game's players, moderator and observers: sign \
                     on first (SIGNON {game} <house> <secret>), or ask to observe it \
                     (OBSERVE {game})"
                ),
            ),
            ObserversForbidden => pick(
                "le modérateur de cette partie n'accepte pas d'observateurs".into(),
                "the moderator of this game allows no observers".into(),
            ),
            NoObserverRequest { game } => pick(
                format!(
                    "aucune demande d'observation n'attend de confirmation de cette adresse \
                     (ou elle a expiré) : envoyez d'abord OBSERVER {game}"
                ),
                format!(
                    "no request to observe waits for this address to confirm it (or it \
                     expired): send OBSERVE {game} first"
                ),
            ),
            BadObserverToken => pick(
                "ce jeton n'est pas celui envoyé à cette adresse".into(),
                "this token is not the one sent to this address".into(),
            ),
            TooManyCommands { count, limit } => pick(
                format!(
                    "votre message contient {count} commandes ou ordres, plus que les {limit} \
                     que le juge lit dans un message : il n'a pas été lu, rien n'a été \
                     exécuté. Envoyez vos commandes en plusieurs messages."
                ),
                format!(
                    "your message holds {count} commands or orders, more than the {limit} the \
                     judge reads in one message: it was not read, nothing was done. Send your \
                     commands in several messages."
                ),
            ),
            TooManyObserverRequests => pick(
                "trop de demandes d'observation attendent leur confirmation : réessayez \
                 dans quelques jours"
                    .into(),
                "too many requests to observe wait for their confirmation: try again in a \
                 few days"
                    .into(),
            ),
            TooLarge { size, limit } => pick(
                format!(
                    "votre message fait {} Kio, plus que les {} Kio que le juge lit : il n'a pas été lu. Renvoyez vos commandes seules, sans pièce jointe ni citation.",
                    size / 1024,
                    limit / 1024
                ),
                format!(
                    "your message is {} KiB, more than the {} KiB the judge reads: it was not read. Send your commands alone, without attachments or quotes.",
                    size / 1024,
                    limit / 1024
                ),
            ),
            AddressUnavailable(address) => pick(
                format!(
                    "l'adresse {address} ne peut pas servir dans cette partie (c'est celle du juge ou d'un autre participant) : votre adresse n'a pas changé"
                ),
                format!(
                    "the address {address} cannot be used in this game (it is the judge's or another participant's): your address did not change"
                ),
            ),
        }
    }
}

/// A game's refusal worded for a mail: where the game's own message points to the command
/// line (`corbeau game list`, `player replace`), the mail command is named instead.
pub fn game_error(e: &GameError, lang: Lang) -> String {
    let fr = lang == Lang::Fr;
    match e {
        GameError::UnknownGame { id, nearest } => {
            let hint = match (nearest, fr) {
                (Some(n), true) => format!(" (vouliez-vous dire « {n} » ?)"),
                (Some(n), false) => format!(" (did you mean `{n}`?)"),
                (None, _) => String::new(),
            };
            if fr {
                format!("aucune partie « {id} »{hint} ; LISTE donne les parties de ce juge")
            } else {
                format!("no game `{id}`{hint}; LIST gives the games of this judge")
            }
        }
        GameError::SeatTaken { house, address } => {
            if fr {
                format!(
                    "la maison {house} est déjà jouée par {address} : REMPLACER {house} <adresse> la confie à quelqu'un d'autre"
                )
            } else {
                format!(
                    "house {house} is already played by {address}: REPLACE {house} <address> gives it to someone else"
                )
            }
        }
        // The game refuses a concession to one's own house so (the mail's vote words are
        // read by the command parser, never by the game).
        GameError::BadVote(house) => {
            if fr {
                format!("la maison {house} ne peut pas concéder la partie à elle-même")
            } else {
                format!("house {house} cannot concede the game to itself")
            }
        }
        GameError::MissingPlayers(houses) => {
            let houses = houses.join(", ");
            if fr {
                format!("il manque des joueurs pour : {houses} (AJOUTER <maison> <adresse>)")
            } else {
                format!("players missing for: {houses} (ADD <house> <address>)")
            }
        }
        e => e.message(lang),
    }
}
