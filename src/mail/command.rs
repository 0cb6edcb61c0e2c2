//! The mail command language (French and English): the cleaned body of a mail read as a
//! list of commands. The grammar is `grammar/mail.ebnf`; `docs/email.md` documents it.

use crate::lang::Lang;

/// One command of a mail, with the line it came from (1-based, in the cleaned body) and
/// the text of that line, for the reply.
#[derive(Debug, Clone, PartialEq)]
pub struct Located {
    pub line: usize,
    pub text: String,
    pub command: Result<Command, CommandError>,
}

/// A mail read as commands.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Script {
    pub commands: Vec<Located>,
    /// The language of the keywords used, if they say (`PARTIE` → fr, `SIGNON` → en).
    pub lang: Option<Lang>,
}

/// Who a press message goes to.
#[derive(Debug, Clone, PartialEq)]
pub enum PressTo {
    /// Every house and the moderator (broadcast).
    All,
    /// These houses (as written; the dispatcher resolves names).
    Houses(Vec<String>),
    /// The moderator only.
    Moderator,
}

/// How a game is ended by its moderator.
#[derive(Debug, Clone, PartialEq)]
pub enum EndBy {
    Win(Vec<String>),
    Draw,
    Concede(String),
    Abandon,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `SIGNON game house secret` / `PARTIE game maison secret`: the commands that follow
    /// are this house's.
    SignOn {
        game: String,
        house: String,
        secret: String,
    },
    /// `MODERATOR game secret` / `MODERATEUR partie secret`.
    Moderator { game: String, secret: String },
    /// `ORDERS` / `ORDRES` (replace the whole set) or `PARTIAL ORDERS` / `ORDRES PARTIELS`
    /// (replace only the units named): the order lines that follow.
    Orders { partial: bool },
    /// A line that is no command, after a sign-on: an order, for the engine's parser.
    Order(String),
    /// `READY` / `PRET`, `NOT READY` / `PAS PRET`.
    Ready(bool),
    /// `STATUS` / `ETAT`.
    Status,
    /// `LIST` / `LISTE`: the games of this judge.
    List,
    /// `HISTORY [phase]` / `HISTORIQUE [phase]`: the results of a phase (the last if none).
    History(Option<String>),
    /// `DRAW` / `NUL` (true), `NO DRAW` / `PAS NUL` (false: the vote withdrawn).
    Draw(bool),
    /// `CONCEDE house` / `CONCEDER maison`.
    Concede(String),
    /// `RESIGN` / `ABANDONNER`.
    Resign,
    /// `ADDRESS new@example.org` / `ADRESSE …`.
    Address(String),
    /// `ABSENCE from to` (dates as `game player absence` takes them).
    Absence { from: String, to: String },
    /// `LANGUAGE en` / `LANGUE fr`: the player's language for every later mail.
    Language(Lang),
    /// `OBSERVE game` / `OBSERVER partie`: receive the results (no secret needed; the
    /// answer gives one to stop).
    Observe { game: String },
    /// `UNOBSERVE game secret` / `NE PLUS OBSERVER partie secret`.
    Unobserve { game: String, secret: String },
    /// `PRESS TO house, house` … `END PRESS` / `PRESSE A maison, maison` … `FIN PRESSE`;
    /// `GREY PRESS` / `PRESSE GRISE` for an anonymous one; `BROADCAST` / `DIFFUSION` for
    /// all.
    Press {
        to: PressTo,
        grey: bool,
        body: String,
    },
    /// `HELP` / `AIDE`.
    Help,
    /// `END` / `FIN` (alone on a line): everything after it is ignored.
    Stop,
    // Moderator commands.
    /// `START` / `DEMARRER`.
    Start,
    /// `PROCESS phase` / `TRAITER phase`: the phase is a guard (as njudge's PROCESS).
    Process(String),
    /// `PREVIEW` / `APERCU`: adjudicate without saving.
    Preview,
    /// `PAUSE`.
    Pause,
    /// `RESUME` / `REPRENDRE`.
    Resume,
    /// `EXTEND 2d` / `PROLONGER 2j`.
    Extend(String),
    /// `ROLLBACK phase` / `ANNULER phase`.
    Rollback(String),
    /// `ADD house address [lang]` / `AJOUTER maison adresse [langue]`.
    AddPlayer {
        house: String,
        address: String,
        lang: Option<Lang>,
    },
    /// `REPLACE house address [lang]` / `REMPLACER maison adresse [langue]`.
    ReplacePlayer {
        house: String,
        address: String,
        lang: Option<Lang>,
    },
    /// `REMOVE house` / `RETIRER maison`.
    RemovePlayer(String),
    /// `END GAME …` / `TERMINER …`: `WIN house…`, `DRAW`, `CONCEDE house`, `ABANDON`.
    EndGame(EndBy),
}

/// A line that could not be read as a command.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CommandError {
    #[error("unknown command `{0}`")]
    Unknown(String),
    #[error("`{command}` needs {expected}")]
    Arguments {
        command: String,
        expected: &'static str,
    },
    #[error("the press message has no end marker (`END PRESS`)")]
    PressWithoutEnd,
}

impl CommandError {
    /// The error for a player or a moderator, in their language.
    pub fn message(&self, lang: Lang) -> String {
        let _ = lang;
        todo!("helper C")
    }
}

/// Reads a cleaned body as commands.
pub fn parse(body: &str) -> Script {
    let _ = body;
    todo!("helper C")
}
