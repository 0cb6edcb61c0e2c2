//! The keywords of the mail command language, in French and English, and how a line's
//! leading keyword is recognised: case, accents, hyphens and a trailing colon do not matter.

use unicode_normalization::char::is_combining_mark;

use crate::lang::Lang;
use crate::map::fold;

/// What a keyword asks for, whatever its spelling; an argument error names it so that the
/// reply can show the expected form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Keyword {
    SignOn,
    Moderator,
    Orders,
    PartialOrders,
    Ready,
    NotReady,
    Status,
    List,
    History,
    Draw,
    NoDraw,
    Concede,
    Resign,
    Address,
    Absence,
    Language,
    Observe,
    Unobserve,
    Press,
    GreyPress,
    Broadcast,
    GreyBroadcast,
    /// The line that ends a press message (`FIN PRESSE`, `END PRESS`).
    PressEnd,
    Help,
    Stop,
    Start,
    Process,
    Preview,
    Pause,
    Resume,
    Extend,
    Rollback,
    AddPlayer,
    ReplacePlayer,
    RemovePlayer,
    EndGame,
    /// The moderator allows or forbids observers.
    Observers,
    /// The board as it stands, as a picture (`CARTE`, `MAP`).
    Map,
    /// The moderator turns the pictures of the game's mails on or off.
    Pictures,
    /// The moderator changes a setting of the game (`RÉGLER GRÂCE 6h`, `SET GRACE 6h`).
    Set,
    // The habits of njudge players.
    /// A player or the moderator changes their own secret (`SET PASSWORD`).
    Password,
    // Creating a game, who plays, summary, eject, alert.
    /// A new game, its sender its moderator (`CRÉER`, `CREATE`).
    Create,
    /// Who plays a game (`QUI JOUE`, `WHOGAME`).
    WhoGame,
    /// A game's centres by year, players and result (`BILAN`, `SUMMARY`).
    Summary,
    /// The moderator's press to one house (`ALERTER`, `ALERT`).
    Alert,
    // Joining a game.
    /// A stranger takes a free seat of an open game (`REJOINDRE`, `JOIN`).
    Join,
    /// A stranger asks for a given house (`RELEVER`, `TAKEOVER`).
    TakeOver,
    /// The moderator gives a house to the address that asked for it.
    Approve,
    /// The moderator refuses a request for a house.
    Reject,
    /// An address on the judge's standby list or off it (`REMPLAÇANT`, `STANDBY`).
    Standby,
    /// The moderator mails the game's free houses to the standby list (`ANNONCER`,
    /// `ANNOUNCE`).
    Announce,
    // Orders for later phases.
    /// The lines after it, up to the next, are orders for a later phase (`PHASE`).
    Phase,
    /// Removes every block of orders for later phases (`EFFACER`, `CLEAR`).
    ClearAhead,
    // njudge's shorthand.
    /// A player's private notes, to `ENDDIARY` (`JOURNAL` … `FIN JOURNAL`).
    Diary,
    /// The line that ends a diary block.
    DiaryEnd,
    // What njudge's veterans ask for that this judge answers its own way.
    /// njudge's files (`GET rules`, `GET map`): the help, or the board's picture.
    Get,
    /// njudge's look-up of an address: answered, never with an address.
    WhoIs,
    /// A player's own time zone for deadlines (`RÉGLER FUSEAU`, `SET ZONE`).
    Zone,
    // Players' records.
    /// The sender's own record across the judge's games (`FIABILITÉ`, `RECORD`).
    Record,
}

/// One way of writing a keyword: its words as [`fold`] gives them (lower case, no accents,
/// one space between words), and the language it betrays, `None` when both write it so.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Spelling {
    pub words: &'static str,
    pub keyword: Keyword,
    pub lang: Option<Lang>,
}

const fn fr(words: &'static str, keyword: Keyword) -> Spelling {
    Spelling {
        words,
        keyword,
        lang: Some(Lang::Fr),
    }
}

const fn en(words: &'static str, keyword: Keyword) -> Spelling {
    Spelling {
        words,
        keyword,
        lang: Some(Lang::En),
    }
}

const fn both(words: &'static str, keyword: Keyword) -> Spelling {
    Spelling {
        words,
        keyword,
        lang: None,
    }
}

/// Every spelling of every keyword. docs/email.md lists them all (a test checks it), and
/// tests/mail_commands.rs checks that none of them starts an order on the shipped maps.
///
/// `fin` is also Finland's id on the classic map, and `pas` the id of Passe-du-Prince on
/// Westeros: `FIN` is the end of the mail only when alone on its line, and `pas` is no
/// keyword by itself, only in `PAS PRET` and `PAS NUL`. `REMOVE` alone is the English
/// disband (`Remove gol`), hence `REMOVE PLAYER`.
pub const SPELLINGS: &[Spelling] = &[
    fr("partie", Keyword::SignOn),
    fr("jeu", Keyword::SignOn),
    en("signon", Keyword::SignOn),
    en("sign on", Keyword::SignOn),
    fr("moderateur", Keyword::Moderator),
    fr("moderatrice", Keyword::Moderator),
    en("moderator", Keyword::Moderator),
    fr("ordres", Keyword::Orders),
    en("orders", Keyword::Orders),
    fr("ordres partiels", Keyword::PartialOrders),
    en("partial orders", Keyword::PartialOrders),
    fr("pret", Keyword::Ready),
    fr("prete", Keyword::Ready),
    en("ready", Keyword::Ready),
    fr("pas pret", Keyword::NotReady),
    fr("pas prete", Keyword::NotReady),
    en("not ready", Keyword::NotReady),
    fr("etat", Keyword::Status),
    fr("statut", Keyword::Status),
    en("status", Keyword::Status),
    fr("liste", Keyword::List),
    en("list", Keyword::List),
    fr("historique", Keyword::History),
    en("history", Keyword::History),
    fr("nul", Keyword::Draw),
    en("draw", Keyword::Draw),
    fr("pas nul", Keyword::NoDraw),
    en("no draw", Keyword::NoDraw),
    fr("conceder", Keyword::Concede),
    en("concede", Keyword::Concede),
    fr("abandonner", Keyword::Resign),
    en("resign", Keyword::Resign),
    fr("adresse", Keyword::Address),
    en("address", Keyword::Address),
    both("absence", Keyword::Absence),
    fr("langue", Keyword::Language),
    en("language", Keyword::Language),
    fr("observer", Keyword::Observe),
    en("observe", Keyword::Observe),
    fr("ne plus observer", Keyword::Unobserve),
    en("unobserve", Keyword::Unobserve),
    fr("presse", Keyword::Press),
    en("press", Keyword::Press),
    fr("presse grise", Keyword::GreyPress),
    en("grey press", Keyword::GreyPress),
    en("gray press", Keyword::GreyPress),
    fr("diffusion", Keyword::Broadcast),
    en("broadcast", Keyword::Broadcast),
    fr("diffusion grise", Keyword::GreyBroadcast),
    en("grey broadcast", Keyword::GreyBroadcast),
    en("gray broadcast", Keyword::GreyBroadcast),
    fr("fin presse", Keyword::PressEnd),
    fr("fin de presse", Keyword::PressEnd),
    fr("fin diffusion", Keyword::PressEnd),
    fr("fin de diffusion", Keyword::PressEnd),
    en("end press", Keyword::PressEnd),
    en("endpress", Keyword::PressEnd),
    en("end broadcast", Keyword::PressEnd),
    fr("aide", Keyword::Help),
    en("help", Keyword::Help),
    fr("fin", Keyword::Stop),
    en("end", Keyword::Stop),
    en("signoff", Keyword::Stop),
    en("sign off", Keyword::Stop),
    fr("demarrer", Keyword::Start),
    en("start", Keyword::Start),
    fr("traiter", Keyword::Process),
    en("process", Keyword::Process),
    fr("apercu", Keyword::Preview),
    en("preview", Keyword::Preview),
    both("pause", Keyword::Pause),
    fr("reprendre", Keyword::Resume),
    en("resume", Keyword::Resume),
    fr("prolonger", Keyword::Extend),
    en("extend", Keyword::Extend),
    fr("annuler", Keyword::Rollback),
    en("rollback", Keyword::Rollback),
    fr("ajouter", Keyword::AddPlayer),
    en("add", Keyword::AddPlayer),
    fr("remplacer", Keyword::ReplacePlayer),
    en("replace", Keyword::ReplacePlayer),
    fr("retirer", Keyword::RemovePlayer),
    en("remove player", Keyword::RemovePlayer),
    fr("terminer", Keyword::EndGame),
    en("end game", Keyword::EndGame),
    en("endgame", Keyword::EndGame),
    fr("observateurs", Keyword::Observers),
    fr("observatrices", Keyword::Observers),
    en("observers", Keyword::Observers),
    fr("carte", Keyword::Map),
    en("map", Keyword::Map),
    fr("images", Keyword::Pictures),
    en("pictures", Keyword::Pictures),
    // The player's own pictures, spelled as the other player settings.
    fr("regler images", Keyword::Pictures),
    en("set pictures", Keyword::Pictures),
    fr("regler fuseau", Keyword::Zone),
    fr("regler fuseau horaire", Keyword::Zone),
    en("set zone", Keyword::Zone),
    en("set time zone", Keyword::Zone),
    en("set timezone", Keyword::Zone),
    fr("regler", Keyword::Set),
    en("set", Keyword::Set),
    // The habits of njudge players: their spellings of commands corbeau has.
    en("set password", Keyword::Password),
    fr("regler mot de passe", Keyword::Password),
    fr("regler secret", Keyword::Password),
    en("set wait", Keyword::NotReady),
    en("set nowait", Keyword::Ready),
    en("set no wait", Keyword::Ready),
    en("set address", Keyword::Address),
    en("set absence", Keyword::Absence),
    en("set draw", Keyword::Draw),
    en("set nodraw", Keyword::NoDraw),
    en("set no draw", Keyword::NoDraw),
    // Creating a game, who plays, summary, eject, alert.
    fr("creer", Keyword::Create),
    en("create", Keyword::Create),
    fr("qui joue", Keyword::WhoGame),
    en("whogame", Keyword::WhoGame),
    fr("bilan", Keyword::Summary),
    en("summary", Keyword::Summary),
    fr("expulser", Keyword::RemovePlayer),
    en("eject", Keyword::RemovePlayer),
    fr("alerter", Keyword::Alert),
    en("alert", Keyword::Alert),
    // Joining a game.
    fr("rejoindre", Keyword::Join),
    en("join", Keyword::Join),
    fr("relever", Keyword::TakeOver),
    en("takeover", Keyword::TakeOver),
    en("take over", Keyword::TakeOver),
    fr("approuver", Keyword::Approve),
    en("approve", Keyword::Approve),
    fr("refuser", Keyword::Reject),
    en("reject", Keyword::Reject),
    fr("remplacant", Keyword::Standby),
    en("standby", Keyword::Standby),
    fr("annoncer", Keyword::Announce),
    en("announce", Keyword::Announce),
    // Orders for later phases; readiness for a block's phase as njudge writes it
    // (`SET WAIT`, `SET NOWAIT`), in French too.
    both("phase", Keyword::Phase),
    fr("effacer", Keyword::ClearAhead),
    en("clear", Keyword::ClearAhead),
    fr("regler attente", Keyword::NotReady),
    fr("regler sans attente", Keyword::Ready),
    fr("journal", Keyword::Diary),
    en("diary", Keyword::Diary),
    fr("fin journal", Keyword::DiaryEnd),
    fr("fin de journal", Keyword::DiaryEnd),
    en("enddiary", Keyword::DiaryEnd),
    en("end diary", Keyword::DiaryEnd),
    // njudge's requests, answered with what this judge has instead.
    en("get", Keyword::Get),
    en("whois", Keyword::WhoIs),
    // Players' records.
    fr("fiabilite", Keyword::Record),
    fr("mon bilan", Keyword::Record),
    en("record", Keyword::Record),
    en("my record", Keyword::Record),
];

/// The first words of commands of other judges (njudge, DPjudge) that corbeau does not
/// have, folded as [`SPELLINGS`], with the keyword that does the same here, if any. A
/// line starting with one is answered "unknown command" and is no order (docs/email.md,
/// "Commands of other judges"); tests/mail_commands.rs checks that none of them starts
/// an order on the shipped maps.
pub const FOREIGN: &[(&str, Option<Keyword>)] = &[
    ("manual", Some(Keyword::Help)),
    ("iamalso", Some(Keyword::Address)),
    ("i am also", Some(Keyword::Address)),
    ("register", None),
    ("become", None),
    ("force begin", Some(Keyword::Start)),
    ("official", Some(Keyword::Broadcast)),
    ("set preference", None),
    ("set preferences", None),
    ("set nolist", None),
    ("set list", None),
    ("set moderate", None),
    ("set unmoderate", None),
    ("set dedication", None),
    ("set level", None),
];

/// The most words in a spelling (`regler mot de passe`).
pub(super) const MAX_WORDS: usize = 4;

/// A line's leading keyword and what follows it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Head<'a> {
    pub spelling: &'static Spelling,
    /// The keyword as written (`Prêt`, `SIGN-ON`), to quote it back.
    pub written: &'a str,
    /// The rest of the line after the keyword and an optional colon, trimmed.
    pub rest: &'a str,
}

impl Head<'_> {
    pub(super) fn keyword(&self) -> Keyword {
        self.spelling.keyword
    }

    /// Whether nothing but punctuation follows the keyword (`PRÊT.`, `FIN !`).
    pub(super) fn bare(&self) -> bool {
        !self.rest.chars().any(char::is_alphanumeric)
    }
}

/// The keyword a (trimmed) line starts with, the longest spelling first, so that
/// `PRESSE GRISE` is not read as `PRESSE` followed by `GRISE`.
pub(super) fn read_head(line: &str) -> Option<Head<'_>> {
    let words = head_words(line);
    (1..=words.len()).rev().find_map(|n| {
        let spelling = SPELLINGS.iter().find(|s| s.words == phrase(&words, n))?;
        let (written, rest) = split_after(line, &words, n)?;
        Some(Head {
            spelling,
            written,
            rest,
        })
    })
}

/// A line starting with a command of another judge that corbeau lacks: the command as
/// written, and the keyword doing the same here, if any. Only when it is longer than
/// any spelling of ours it starts with (`SET PREFERENCE`, not `SET GRACE`).
pub(super) fn read_foreign(line: &str) -> Option<(&str, Option<Keyword>)> {
    let words = head_words(line);
    let ours = read_head(line).map_or(0, |h| h.spelling.words.split(' ').count());
    (ours + 1..=words.len()).rev().find_map(|n| {
        let &(_, here) = FOREIGN.iter().find(|(w, _)| *w == phrase(&words, n))?;
        let (written, _) = split_after(line, &words, n)?;
        Some((written, here))
    })
}

/// The first `n` words, folded, one space between.
fn phrase(words: &[Word], n: usize) -> String {
    words
        .iter()
        .take(n)
        .map(|w| w.folded.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The line split after its `n`th word: the words as written, and the rest after an
/// optional colon, both trimmed.
fn split_after<'a>(line: &'a str, words: &[Word], n: usize) -> Option<(&'a str, &'a str)> {
    let end = words.get(n.checked_sub(1)?)?.end;
    let (written, rest) = line.split_at_checked(end)?;
    let rest = rest.trim_start();
    let rest = rest.strip_prefix(':').unwrap_or(rest).trim();
    Some((written.trim(), rest))
}

struct Word {
    folded: String,
    /// Byte offset just after the word in the line.
    end: usize,
}

/// The first few words of a line that could belong to a keyword: runs of letters,
/// separated by blanks or hyphens (`SIGN-ON`). A run glued to a digit (`A1`, `w1`) is no
/// keyword word, and neither is anything after it.
fn head_words(line: &str) -> Vec<Word> {
    let is_letter = |c: char| c.is_alphabetic() || is_combining_mark(c);
    let mut words = Vec::new();
    let mut chars = line.char_indices().peekable();
    while words.len() < MAX_WORDS {
        while chars
            .next_if(|&(_, c)| c.is_whitespace() || c == '-')
            .is_some()
        {}
        let Some(&(start, _)) = chars.peek() else {
            break;
        };
        let mut end = start;
        while let Some((i, c)) = chars.next_if(|&(_, c)| is_letter(c)) {
            end = i + c.len_utf8();
        }
        let glued = chars.peek().is_some_and(|&(_, c)| c.is_alphanumeric());
        let Some(word) = line.get(start..end).filter(|w| !w.is_empty() && !glued) else {
            break;
        };
        words.push(Word {
            folded: fold(word),
            end,
        });
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keyword(line: &str) -> Option<(Keyword, &str, &str)> {
        read_head(line).map(|h| (h.keyword(), h.written, h.rest))
    }

    #[test]
    fn spellings_are_folded_unique_and_short() {
        for (i, s) in SPELLINGS.iter().enumerate() {
            assert_eq!(fold(s.words), s.words, "{} is not folded", s.words);
            assert!(s.words.split(' ').count() <= MAX_WORDS, "{}", s.words);
            assert!(
                SPELLINGS.iter().skip(i + 1).all(|o| o.words != s.words),
                "{} twice",
                s.words
            );
        }
    }

    #[test]
    fn foreign_commands_are_folded_short_and_none_of_ours() {
        for (words, _) in FOREIGN {
            assert_eq!(fold(words), *words, "{words} is not folded");
            assert!(words.split(' ').count() <= MAX_WORDS, "{words}");
            assert!(
                SPELLINGS.iter().all(|s| s.words != *words),
                "{words} is ours"
            );
        }
        // A longer keyword of ours wins over a foreign one it starts like.
        assert_eq!(read_foreign("SET GRACE 6h"), None);
        assert_eq!(read_foreign("SET PASSWORD x"), None);
        assert_eq!(
            read_foreign("Set Preference: stark"),
            Some(("Set Preference", None))
        );
        assert_eq!(
            read_foreign("MANUAL"),
            Some(("MANUAL", Some(Keyword::Help)))
        );
        assert_eq!(read_foreign("Manually"), None);
    }

    #[test]
    fn case_accents_hyphens_and_colons_do_not_matter() {
        assert_eq!(keyword("PRÊT"), Some((Keyword::Ready, "PRÊT", "")));
        assert_eq!(keyword("pret."), Some((Keyword::Ready, "pret", ".")));
        assert_eq!(
            keyword("Pre\u{302}t"),
            Some((Keyword::Ready, "Pre\u{302}t", ""))
        );
        assert_eq!(
            keyword("Sign-On: w1 Stark x"),
            Some((Keyword::SignOn, "Sign-On", "w1 Stark x"))
        );
        assert_eq!(
            keyword("PARTIE:w1 Stark x"),
            Some((Keyword::SignOn, "PARTIE", "w1 Stark x"))
        );
        assert_eq!(
            keyword("presse  grise : à Stark"),
            Some((Keyword::GreyPress, "presse  grise", "à Stark"))
        );
    }

    #[test]
    fn words_glued_to_digits_are_no_keywords() {
        assert_eq!(keyword("pause1"), None);
        assert_eq!(keyword("A1 Ner tient"), None);
        assert_eq!(keyword("Pas-Lst"), None);
        assert_eq!(keyword("Fin-Swe"), Some((Keyword::Stop, "Fin", "-Swe")));
    }
}
