//! What a moderator or a player did that the game refuses, worded for them in French or
//! English. Nothing is changed when one of these is returned.

use std::fmt;

use crate::lang::Lang;
use crate::map::MapError;

use super::calendar::CalendarError;
use super::model::GameStatus;

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
}

impl GameError {
    /// The message in a player's or moderator's language.
    pub fn message(&self, lang: Lang) -> String {
        use GameError::*;
        let fr = lang == Lang::Fr;
        match self {
            UnknownGame { id, nearest } => {
                let hint = nearest
                    .as_ref()
                    .map(|n| {
                        if fr {
                            format!(" (vouliez-vous dire « {n} » ?)")
                        } else {
                            format!(" (did you mean `{n}`?)")
                        }
                    })
                    .unwrap_or_default();
                if fr {
                    format!("aucune partie « {id} »{hint} ; `corbeau game list` les montre toutes")
                } else {
                    format!("no game `{id}`{hint}; `corbeau game list` shows them all")
                }
            }
            GameExists(id) => lang_pick(
                fr,
                format!("la partie « {id} » existe déjà : choisissez un autre nom"),
                format!("game `{id}` already exists: choose another name"),
            ),
            BadGameId(id) => lang_pick(
                fr,
                format!(
                    "nom de partie « {id} » invalide : lettres minuscules, chiffres et tirets, 1 à 32 caractères (ex. westeros-1)"
                ),
                format!(
                    "invalid game name `{id}`: lowercase letters, digits and dashes, 1 to 32 characters (e.g. westeros-1)"
                ),
            ),
            Variant(e) => e.to_string(),
            NoSetup {
                variant,
                players,
                available,
            } => {
                let list = join(available.iter().map(u8::to_string));
                lang_pick(
                    fr,
                    format!(
                        "la variante {variant} ne se joue pas à {players} joueurs (possible : {list})"
                    ),
                    format!(
                        "variant {variant} has no setup for {players} players (possible: {list})"
                    ),
                )
            }
            UnknownHouse { name, houses } => lang_pick(
                fr,
                format!(
                    "maison inconnue « {name} » (maisons : {})",
                    houses.join(", ")
                ),
                format!("unknown house `{name}` (houses: {})", houses.join(", ")),
            ),
            HouseNotInGame(h) => lang_pick(
                fr,
                format!("la maison {h} ne joue pas dans cette partie (ses unités y sont neutres)"),
                format!("house {h} does not play in this game (its units are neutral)"),
            ),
            SeatTaken { house, address } => lang_pick(
                fr,
                format!(
                    "la maison {house} est déjà jouée par {address} : utilisez `player replace`"
                ),
                format!("house {house} is already played by {address}: use `player replace`"),
            ),
            NoPlayer(h) => lang_pick(
                fr,
                format!("personne ne joue la maison {h}"),
                format!("nobody plays house {h}"),
            ),
            BadAddress(a) => lang_pick(
                fr,
                format!("adresse électronique invalide « {a} » (ex. joueur@exemple.fr)"),
                format!("invalid email address `{a}` (e.g. player@example.org)"),
            ),
            AddressTaken { address, house } => lang_pick(
                fr,
                format!("{address} joue déjà la maison {house} dans cette partie"),
                format!("{address} already plays house {house} in this game"),
            ),
            Status { action, status } => {
                let (s_fr, s_en) = match status {
                    GameStatus::Forming => ("n'a pas commencé", "has not started"),
                    GameStatus::Running => ("est en cours", "is running"),
                    GameStatus::Paused => ("est en pause", "is paused"),
                    GameStatus::Finished => ("est terminée", "is over"),
                };
                lang_pick(
                    fr,
                    format!("impossible ({}) : la partie {s_fr}", action_fr(action)),
                    format!("cannot {action}: the game {s_en}"),
                )
            }
            MissingPlayers(houses) => lang_pick(
                fr,
                format!(
                    "il manque des joueurs pour : {} (`corbeau player add`)",
                    houses.join(", ")
                ),
                format!(
                    "players missing for: {} (`corbeau player add`)",
                    houses.join(", ")
                ),
            ),
            WrongPhase { given, current } => lang_pick(
                fr,
                format!(
                    "la phase en cours est « {} », pas « {given} » : rien n'a été fait",
                    phase_fr(current)
                ),
                format!("the current phase is `{current}`, not `{given}`: nothing was done"),
            ),
            BadPhase(p) => lang_pick(
                fr,
                format!(
                    "phase illisible « {p} » (ex. « printemps 298 mouvements », « spring 298 movement »)"
                ),
                format!("unreadable phase `{p}` (e.g. `spring 298 movement`)"),
            ),
            OrdersRefused(errors) => {
                let head = lang_pick(
                    fr,
                    "ordres refusés, rien n'a été enregistré :".to_string(),
                    "orders refused, nothing was stored:".to_string(),
                );
                let mut text = head;
                for e in errors {
                    text.push_str("\n  ");
                    text.push_str(&e.message(lang));
                    text.push_str("\n    > ");
                    text.push_str(&e.text);
                }
                text
            }
            NothingToOrder { house } => lang_pick(
                fr,
                format!("la maison {house} n'a rien à ordonner dans cette phase"),
                format!("house {house} has nothing to order in this phase"),
            ),
            NothingToRollback => lang_pick(
                fr,
                "aucune phase jouée : rien à annuler".to_string(),
                "no phase played yet: nothing to roll back".to_string(),
            ),
            BadAbsence => lang_pick(
                fr,
                "absence invalide : la fin doit suivre le début et être à venir".to_string(),
                "invalid absence: it must end after it starts, in the future".to_string(),
            ),
            Late { deadline } => lang_pick(
                fr,
                format!("trop tard : la date limite était {deadline} ; rien n'a été enregistré"),
                format!("too late: the deadline was {deadline}; nothing was stored"),
            ),
            Calendar(e) => e.message(lang),
            BadPosition(e) => e.clone(),
            BadVote(v) => lang_pick(
                fr,
                format!("vote inconnu « {v} » (nul, concéder MAISON, aucun)"),
                format!("unknown vote `{v}` (draw, concede HOUSE, none)"),
            ),
            Store(e) => e.to_string(),
            Internal(e) => lang_pick(
                fr,
                format!("erreur interne de corbeau, merci de la signaler : {e}"),
                format!("internal error in corbeau, please report it: {e}"),
            ),
            VariantIncompatible { file, problems } => {
                let list: String = problems
                    .iter()
                    .map(|p| format!("\n  - {}", p.message(lang)))
                    .collect();
                lang_pick(
                    fr,
                    format!(
                        "la partie ne peut pas passer à la variante {file} ; rien n'a été changé :{list}"
                    ),
                    format!(
                        "the game cannot move to the variant {file}; nothing was changed:{list}"
                    ),
                )
            }
            VariantUnchanged { name } => lang_pick(
                fr,
                format!("la partie joue déjà cette version de {name} : rien n'a été changé"),
                format!("the game already plays this version of {name}: nothing was changed"),
            ),
            JudgeAddress(a) => lang_pick(
                fr,
                format!(
                    "{a} est l'adresse du juge lui-même : personne ne peut jouer ni modérer à cette adresse"
                ),
                format!("{a} is the judge's own address: nobody can play or moderate there"),
            ),
        }
    }
}

/// The French words for the actions that [`GameError::Status`] names in English.
fn action_fr(action: &str) -> &str {
    match action {
        "add a player" => "ajouter un joueur",
        "replace a player" => "remplacer un joueur",
        "remove a player" => "retirer un joueur",
        "start" => "commencer",
        "submit orders" => "donner des ordres",
        "declare ready" => "se déclarer prêt",
        "vote" => "voter",
        "pause" => "mettre en pause",
        "resume" => "reprendre",
        "extend the deadline" => "repousser la date limite",
        "declare an absence" => "déclarer une absence",
        "process" => "traiter la phase",
        "end the game" => "terminer la partie",
        "edit the position" => "modifier la position",
        other => other,
    }
}

/// A phase written `spring 298 movement` in French words, in the form `--phase` reads.
fn phase_fr(phase: &str) -> String {
    use crate::judge::{PhaseKind, Season};
    let Some(p) = crate::position::parse_phase(phase) else {
        return phase.to_string();
    };
    let season = match p.season {
        Season::Spring => "printemps",
        Season::Autumn => "automne",
        Season::Winter => "hiver",
    };
    let kind = match p.kind {
        PhaseKind::Movement => "mouvements",
        PhaseKind::Retreat => "retraites",
        PhaseKind::Adjustment => "ajustements",
    };
    format!("{season} {} {kind}", p.year)
}

fn lang_pick(fr: bool, in_fr: String, in_en: String) -> String {
    if fr { in_fr } else { in_en }
}

fn join(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join(", ")
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
