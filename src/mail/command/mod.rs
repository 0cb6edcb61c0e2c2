//! The mail command language (French and English): the cleaned body of a mail read as a
//! list of commands. The grammar is `grammar/mail.ebnf`; `docs/email.md` documents it.
//!
//! The parser knows no game: it reads keywords, keeps their arguments as written and
//! hands every other line on as an order, for the dispatcher (which knows whether orders
//! may come there) and the order parser.

mod args;
mod keywords;
mod message;

pub use keywords::{FOREIGN, Keyword, SPELLINGS, Spelling};

use crate::game::SettingKind;
use crate::lang::Lang;
use keywords::Head;

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

/// How a game is ended by its moderator: the service's own type.
pub use crate::game::EndBy;

/// One command of a mail (every spelling of every keyword: [`SPELLINGS`]).
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
    /// A line that starts with no keyword: an order for the engine's parser (or prose,
    /// which that parser refuses). The dispatcher takes it only after a sign-on.
    Order(String),
    /// `READY` / `PRET`, `NOT READY` / `PAS PRET`.
    Ready(bool),
    /// `STATUS` / `ETAT`.
    Status,
    /// `LIST [game]` / `LISTE [partie]`: the games of this judge, or the one named.
    List { game: Option<String> },
    /// `HISTORY [game] [phase]` / `HISTORIQUE [partie] [phase]`: the results of a phase
    /// (the last if none), of the game named or signed on to.
    History {
        game: Option<String>,
        phase: Option<String>,
    },
    /// `DRAW` / `NUL` (true), `NO DRAW` / `PAS NUL` (false: the vote withdrawn).
    Draw(bool),
    /// `CONCEDE house` / `CONCEDER maison`.
    Concede(String),
    /// `RESIGN` / `ABANDONNER`.
    Resign,
    /// `ADDRESS new@example.org` / `ADRESSE …`: asks for the change, which the code mailed
    /// to the new address confirms (`ADDRESS new@example.org <code>`).
    Address {
        address: String,
        code: Option<String>,
    },
    /// `ABSENCE from to`: each a date and an optional time, as written (as
    /// `game player absence` takes them).
    Absence { from: String, to: String },
    /// `LANGUAGE en` / `LANGUE fr`: the player's language for every later mail.
    Language(Lang),
    /// `OBSERVE game` / `OBSERVER partie`: asks to receive the results; the answer, sent
    /// to the asking address, holds the token that confirms it (`ConfirmObserve`).
    Observe { game: String },
    /// `UNOBSERVE game secret` / `NE PLUS OBSERVER partie secret`.
    Unobserve { game: String, secret: String },
    /// `OBSERVE game CONFIRM token` / `OBSERVER partie CONFIRMER jeton`: the address
    /// that asked to observe confirms with the token the judge mailed it.
    ConfirmObserve { game: String, token: String },
    /// `OBSERVERS yes|no` / `OBSERVATEURS oui|non`: the moderator allows or forbids
    /// observers (forbidding ends the current ones).
    Observers(bool),
    /// `PRESS TO house, house` … `END PRESS` / `PRESSE A maison, maison` … `FIN PRESSE`;
    /// `GREY PRESS` / `PRESSE GRISE` for an anonymous one; `BROADCAST` / `DIFFUSION` for
    /// all. The body is the lines between, verbatim, blank lines at both ends dropped;
    /// never empty.
    Press {
        to: PressTo,
        grey: bool,
        body: String,
    },
    /// `MAP [game]` / `CARTE [partie]`: the board as it stands, as a picture, with the
    /// phase and deadline; the game is the one signed on to, else the one named.
    Map { game: Option<String> },
    /// `PICTURES yes|no` / `IMAGES oui|non` (also `SET PICTURES on|off` / `RÉGLER
    /// IMAGES oui|non`): the moderator turns the pictures of the game's mails on or off
    /// (for players on slow links); a player, those of their own mails.
    Pictures(bool),
    /// `SET ZONE <zone>` / `RÉGLER FUSEAU <fuseau>`: the zone as written, read by the
    /// desk, which says why an unknown one is refused.
    Zone(String),
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
    /// `REMOVE PLAYER house` / `RETIRER maison` (`REMOVE` alone is the English disband,
    /// `Remove gol`).
    RemovePlayer(String),
    /// `END GAME …` / `TERMINER …`: `WIN house…`, `DRAW`, `CONCEDE house`, `ABANDON`.
    EndGame(EndBy<String>),
    /// `SET <setting> <value>` / `RÉGLER <réglage> <valeur>`: the setting named (`GRÂCE`,
    /// `PRESSE`, `RAPPELS`, `JOURS`, `ÉCHÉANCE`…), its value as written (the game reads it).
    Set { kind: SettingKind, value: String },
    // The habits of njudge players.
    /// `DRAW house house…` / `NUL maison maison…`: a vote for a draw shared by these
    /// houses only (as written; the dispatcher resolves them).
    DrawWith(Vec<String>),
    /// `SET PASSWORD new` / `RÉGLER MOT DE PASSE nouveau`: the sender's new secret.
    Password(String),
    /// A command of another judge that corbeau lacks (`WHOIS`, `GET`): the command as
    /// written, and the keyword doing the same here, if any.
    Foreign {
        written: String,
        here: Option<Keyword>,
    },
    // Creating a game, who plays, summary, alert.
    /// `CREATE <game> [VARIANT <name>] [PLAYERS <n>]` / `CRÉER <partie> [VARIANTE <nom>]
    /// [JOUEURS <n>]`: a new game, moderated by the sender (`[judge] creators`).
    Create {
        game: String,
        variant: Option<String>,
        players: Option<u8>,
        /// `… CONFIRMER <jeton>`: the confirmation, from the address that asked.
        token: Option<String>,
    },
    /// `WHOGAME <game>` / `QUI JOUE <partie>`: the game's seats, for anyone.
    WhoGame { game: String },
    /// `SUMMARY [game]` / `BILAN [partie]`: centres by year, players, result, for anyone;
    /// without a game, the one signed on to.
    Summary { game: Option<String> },
    /// njudge's `GET <file>`: the board's picture for `GET map`, else the help.
    Get { map: bool },
    /// njudge's `WHOIS <address>`: answered without any address.
    WhoIs,
    /// `RECORD` / `FIABILITÉ`: the sender's own record, for the address it writes from.
    Record,
    /// `ALERT <house> [text]` / `ALERTER <maison> [texte]`: the moderator's press to that
    /// house, the rest of the line, or else the lines up to `END PRESS`.
    Alert { house: String, body: String },
    // Joining a game.
    /// `JOIN game [house]` / `REJOINDRE partie [maison]`: a free seat of an open game.
    /// With `CONFIRMER <jeton>` at the end, the confirmation from the address that asked.
    Join {
        game: String,
        house: Option<String>,
        token: Option<String>,
    },
    /// `TAKEOVER game house` / `RELEVER partie maison`, confirmed as `JOIN` is.
    TakeOver {
        game: String,
        house: String,
        token: Option<String>,
    },
    /// `STANDBY ON|OFF` / `REMPLAÇANT OUI|NON`: the sender's address on the judge's
    /// standby list, or off it; with `CONFIRM <token>` at the end, the confirmation
    /// from the address.
    Standby { on: bool, token: Option<String> },
    /// `ANNOUNCE` / `ANNONCER`: the moderator signed on mails the game's free houses to
    /// the standby list.
    Announce,
    /// `APPROVE house [address]` / `APPROUVER maison [adresse]`: the moderator gives the
    /// house to the address that asked for it (named when several ask).
    Approve {
        house: String,
        address: Option<String>,
    },
    /// `REJECT house [address]` / `REFUSER maison [adresse]`: the moderator refuses the
    /// request of the address, or every request for the house.
    Reject {
        house: String,
        address: Option<String>,
    },
    // Orders for later phases.
    /// `PHASE <season> <year> [<phase>]`: the lines after it, up to the next `PHASE` line,
    /// a sign-on or the end of the mail, are orders for that phase; none when the phase
    /// could not be read (those lines are then no orders at all). `written`: what
    /// followed the keyword.
    Phase {
        phase: Option<crate::judge::Phase>,
        written: String,
    },
    /// `EFFACER` / `CLEAR`: every block of orders for later phases removed.
    ClearAhead,
    /// njudge's `DIARY` … `ENDDIARY` / `JOURNAL` … `FIN JOURNAL`: a player's private
    /// notes, which this judge sets aside unread and does not keep (docs/email.md), so
    /// that they never count as orders; how many lines they held.
    Diary { lines: usize },
}

impl Command {
    /// The game this command names, as written, if it names one: the dispatcher opens
    /// the first game a mail names. The match lists every command, without a catch-all,
    /// so that a new command does not compile until it says whether it names a game.
    pub fn game(&self) -> Option<&str> {
        match self {
            Command::SignOn { game, .. }
            | Command::Moderator { game, .. }
            | Command::Observe { game }
            | Command::Unobserve { game, .. }
            | Command::ConfirmObserve { game, .. }
            | Command::Map {
                game: Some(game), ..
            }
            | Command::Create { game, .. }
            | Command::WhoGame { game }
            | Command::Summary { game: Some(game) }
            | Command::List { game: Some(game) }
            | Command::History {
                game: Some(game), ..
            } => Some(game),
            Command::Join { game, .. } | Command::TakeOver { game, .. } => Some(game),
            Command::Map { game: None }
            | Command::Orders { .. }
            | Command::Order(_)
            | Command::Ready(_)
            | Command::Status
            | Command::List { game: None }
            | Command::History { game: None, .. }
            | Command::Summary { game: None }
            | Command::Get { .. }
            | Command::WhoIs
            | Command::Record
            | Command::Draw(_)
            | Command::Concede(_)
            | Command::Resign
            | Command::Address { .. }
            | Command::Absence { .. }
            | Command::Language(_)
            | Command::Observers(_)
            | Command::Press { .. }
            | Command::Pictures(_)
            | Command::Zone(_)
            | Command::Help
            | Command::Stop
            | Command::Start
            | Command::Process(_)
            | Command::Preview
            | Command::Pause
            | Command::Resume
            | Command::Extend(_)
            | Command::Rollback(_)
            | Command::AddPlayer { .. }
            | Command::ReplacePlayer { .. }
            | Command::RemovePlayer(_)
            | Command::EndGame(_)
            | Command::Set { .. }
            | Command::DrawWith(_)
            | Command::Password(_)
            | Command::Foreign { .. }
            | Command::Phase { .. }
            | Command::ClearAhead => None,
            Command::Alert { .. } | Command::Approve { .. } | Command::Reject { .. } => None,
            Command::Standby { .. } | Command::Announce => None,
            Command::Diary { .. } => None,
        }
    }
}

/// A line that could not be read as a command; [`CommandError::message`] words it for
/// players, `Display` for logs.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum CommandError {
    /// A keyword whose arguments do not fit its form (missing, extra or malformed).
    #[error("`{command}` needs {usage} (got `{found}`)", usage = .keyword.usage(Lang::En))]
    Arguments {
        /// The keyword as written.
        command: String,
        keyword: Keyword,
        /// What followed the keyword, as written.
        found: String,
    },
    /// A press message with no end marker: the rest of the mail was taken as its text.
    #[error("the press message has no end marker (`END PRESS`)")]
    PressWithoutEnd,
    /// A press message with nothing between its header and its end marker.
    #[error("the press message is empty")]
    EmptyPress,
    /// An end marker (`FIN PRESSE`) with no press message open.
    #[error("`{command}` ends no press message")]
    PressEndWithoutPress { command: String },
    /// A diary with no end marker: the rest of the mail, `lines` lines, was taken as it.
    #[error("the diary has no end marker (`ENDDIARY`)")]
    DiaryWithoutEnd { lines: usize },
    /// A diary's end marker with no diary open.
    #[error("`{command}` ends no diary")]
    DiaryEndWithoutDiary { command: String },
}

/// Reads a cleaned body as commands, one a line. Blank lines, comment lines (`# …`) and
/// lines of mere punctuation (`-----`) are skipped; a press message takes the lines up to
/// its end marker; `FIN`/`END` alone ends the reading.
pub fn parse(body: &str) -> Script {
    let lines: Vec<&str> = body
        .split('\n')
        .map(|l| l.strip_suffix('\r').unwrap_or(l))
        .collect();
    let mut script = Script::default();
    let mut next = 0;
    while let Some(raw) = lines.get(next) {
        let line = next + 1;
        next += 1;
        let text = raw.trim();
        if is_filler(text) {
            continue;
        }
        let located = |command| Located {
            line,
            text: text.to_string(),
            command,
        };
        // `END IF` (and every block line of a conditional) belongs to the orders: the
        // `END` of it does not end the mail.
        if crate::order::block_line(text).is_some() {
            script
                .commands
                .push(located(Ok(Command::Order(text.to_string()))));
            continue;
        }
        if let Some((written, here)) = keywords::read_foreign(text) {
            let written = written.to_string();
            script
                .commands
                .push(located(Ok(Command::Foreign { written, here })));
            continue;
        }
        let Some(head) = keywords::read_head(text).filter(|h| !is_finland(h)) else {
            script
                .commands
                .push(located(Ok(Command::Order(text.to_string()))));
            continue;
        };
        script.lang = script.lang.or(head.spelling.lang);
        let command = if is_press(head.keyword()) || is_alert_header(&head) {
            let (command, after) = press(&head, &lines, next);
            next = after;
            command
        } else if head.keyword() == Keyword::Diary && head.bare() {
            let (command, after) = diary(&lines, next);
            next = after;
            command
        } else {
            args::command(&head)
        };
        let stop = command == Ok(Command::Stop);
        script.commands.push(located(command));
        if stop {
            break;
        }
    }
    script
}

/// A keyword line that may carry a secret (a sign-on, the moderator's sign-on, an
/// observer's secret or confirmation token), split so that it can be quoted back
/// without the secret, whatever surrounds it.
#[derive(Debug, Clone, PartialEq)]
pub struct SecretLine<'a> {
    pub keyword: Keyword,
    /// The keyword as written.
    pub written: &'a str,
    /// The words after the keyword (the game first).
    pub words: Vec<&'a str>,
}

/// What a hidden secret is quoted as.
pub const SECRET_MASK: &str = "********";

/// Whether `word` alone is a command's keyword (`PRET`, `ADDRESS`): a word of the
/// command language, never a secret worth checking.
pub fn is_keyword(word: &str) -> bool {
    keywords::read_head(word.trim()).is_some()
}

/// The line `text` if it starts with a keyword that carries a secret.
pub fn secret_line(text: &str) -> Option<SecretLine<'_>> {
    let head = keywords::read_head(text.trim())?;
    let keyword = head.keyword();
    let carries = matches!(
        keyword,
        Keyword::SignOn
            | Keyword::Moderator
            | Keyword::Unobserve
            | Keyword::Observe
            | Keyword::Password
    );
    // A request's confirmation carries its token as its last word.
    let carries = carries
        || (matches!(
            keyword,
            Keyword::Join | Keyword::TakeOver | Keyword::Create | Keyword::Standby
        ) && confirmation_at(head.rest).is_some());
    (carries && !is_finland(&head)).then(|| SecretLine {
        keyword,
        written: head.written,
        words: head.rest.split_whitespace().collect(),
    })
}

/// Where the confirmation word of a request's confirmation is (`… CONFIRMER <jeton>`),
/// if the line is one.
fn confirmation_at(rest: &str) -> Option<usize> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let at = words.len().checked_sub(2)?;
    (at > 0 && words.get(at).is_some_and(|w| args::is_confirm(w))).then_some(at)
}

impl SecretLine<'_> {
    /// How many of the words may be shown when nothing more is known: the game, and for
    /// a confirmation its keyword. A sign-on's house is shown only by the dispatcher,
    /// which knows the map: without it, the secret could be the word after the game.
    pub fn safe_words(&self) -> usize {
        let shown = match self.keyword {
            Keyword::Observe if self.words.get(1).is_some_and(|w| args::is_confirm(w)) => 2,
            // Everything up to `CONFIRMER`, not the token after it.
            Keyword::Join | Keyword::TakeOver | Keyword::Create | Keyword::Standby => {
                self.words.len().saturating_sub(1)
            }
            // Nothing but the new secret follows `SET PASSWORD`.
            Keyword::Password => 0,
            _ => 1,
        };
        shown.min(self.words.len())
    }

    /// The words after the first `shown`, which the quote hides.
    pub fn hidden(&self, shown: usize) -> &[&str] {
        self.words.get(shown..).unwrap_or_default()
    }

    /// The line with the words after the first `shown` replaced by one [`SECRET_MASK`].
    pub fn masked(&self, shown: usize) -> String {
        let mut text = self.written.to_string();
        for word in self.words.iter().take(shown) {
            text.push(' ');
            text.push_str(word);
        }
        if !self.hidden(shown).is_empty() {
            text.push(' ');
            text.push_str(SECRET_MASK);
        }
        text
    }

    /// What follows the keyword, masked the same way.
    pub fn masked_rest(&self, shown: usize) -> String {
        let mut words: Vec<&str> = self.words.iter().take(shown).copied().collect();
        if !self.hidden(shown).is_empty() {
            words.push(SECRET_MASK);
        }
        words.join(" ")
    }
}

/// Lines that say nothing: blank, a comment as in order files, or only separators.
fn is_filler(text: &str) -> bool {
    text.starts_with('#') || !text.chars().any(char::is_alphanumeric)
}

/// `FIN` followed by more is an order on the classic map, where `fin` is Finland
/// (`Fin H`, `Fin-Swe`); alone, it ends the mail.
fn is_finland(head: &Head<'_>) -> bool {
    head.spelling.words == "fin" && !head.bare()
}

fn is_press(keyword: Keyword) -> bool {
    matches!(
        keyword,
        Keyword::Press | Keyword::GreyPress | Keyword::Broadcast | Keyword::GreyBroadcast
    )
}

/// A press message whose header was read at `lines[body_start - 1]`: its text runs to the
/// end marker. Returns the command and where reading goes on; without an end marker,
/// nowhere, since the rest of the mail is the unended text and no command.
fn press(
    head: &Head<'_>,
    lines: &[&str],
    body_start: usize,
) -> (Result<Command, CommandError>, usize) {
    let rest = lines.get(body_start..).unwrap_or_default();
    let Some(end) = rest.iter().position(|l| is_press_end(l)) else {
        return (Err(CommandError::PressWithoutEnd), lines.len());
    };
    let after = body_start + end + 1;
    let text = rest.get(..end).unwrap_or_default();
    let first = text.iter().position(|l| !l.trim().is_empty());
    let last = text.iter().rposition(|l| !l.trim().is_empty());
    let body = match (first, last) {
        (Some(first), Some(last)) => text.get(first..=last).unwrap_or_default().join("\n"),
        _ => String::new(),
    };
    let command = match args::command(head) {
        Ok(_) if body.is_empty() => Err(CommandError::EmptyPress),
        Ok(Command::Press { to, grey, .. }) => Ok(Command::Press { to, grey, body }),
        Ok(Command::Alert { house, .. }) => Ok(Command::Alert { house, body }),
        other => other,
    };
    (command, after)
}

/// `ALERT <house>` alone on its line opens a message that runs to `END PRESS`; with more
/// words on the line, those words are the whole message.
fn is_alert_header(head: &Head<'_>) -> bool {
    head.keyword() == Keyword::Alert && head.rest.split_whitespace().count() == 1
}

/// A diary whose header was read at `lines[body_start - 1]`: its lines run to the end
/// marker, or, without one, to the end of the mail (as a press message's do). Returns the
/// command and where reading goes on.
fn diary(lines: &[&str], body_start: usize) -> (Result<Command, CommandError>, usize) {
    let rest = lines.get(body_start..).unwrap_or_default();
    let is_end = |l: &&str| {
        keywords::read_head(l.trim()).is_some_and(|h| h.keyword() == Keyword::DiaryEnd && h.bare())
    };
    let end = rest.iter().position(is_end);
    let text = rest.get(..end.unwrap_or(rest.len())).unwrap_or_default();
    let count = text.iter().filter(|l| !l.trim().is_empty()).count();
    match end {
        Some(end) => (Ok(Command::Diary { lines: count }), body_start + end + 1),
        None => (
            Err(CommandError::DiaryWithoutEnd { lines: count }),
            lines.len(),
        ),
    }
}

fn is_press_end(line: &str) -> bool {
    keywords::read_head(line.trim()).is_some_and(|h| h.keyword() == Keyword::PressEnd && h.bare())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(body: &str) -> Vec<Option<String>> {
        parse(body)
            .commands
            .iter()
            .map(|c| c.command.as_ref().ok()?.game().map(str::to_string))
            .collect()
    }

    #[test]
    fn the_commands_that_name_a_game_say_which() {
        let body = "SIGNON g1 France s\nMODERATEUR g2 s\nOBSERVE g3\n\
                    OBSERVER g4 CONFIRMER jeton\nUNOBSERVE g5 s\nCARTE g6\n";
        let games = ["g1", "g2", "g3", "g4", "g5", "g6"].map(|g| Some(g.to_string()));
        assert_eq!(named(body), games);
    }

    #[test]
    fn the_others_name_none() {
        let body = "MAP\nORDERS\nPar-Bur\nREADY\nSTATUS\nLIST\nHISTORY\nDRAW\n\
                    RESIGN\nHELP\nSTART\nPAUSE\nSET GRACE 6h\nEND\n";
        let games = named(body);
        assert_eq!(games.len(), 14);
        assert!(games.iter().all(Option::is_none), "{games:?}");
    }
}
