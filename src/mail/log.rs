//! One line of the operator's log for each mail read, at the `info` level (shown by
//! default): its Message-ID, its sender as the mail writes it, and what became of it, so
//! that an administrator can follow a mail from the mail server's log to the judge's.
//! The sender is the mail's own claim (From, or Reply-To when it gives one): the line
//! says so, and proves nothing about who wrote it.

use crate::lang::operator;
use crate::say;

use super::inbound::Inbound;

/// What became of a mail read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Fate {
    /// Its commands were carried out (those the game took); the game it named, if any.
    CarriedOut { game: Option<String> },
    /// Its Message-ID was already acted on.
    Duplicate,
    /// The mail server's filter marked it as spam, by this header.
    Spam(String),
    /// A delivery failure report.
    Bounce,
    /// Sent by a program (auto-reply, mailing list, mail system).
    Automatic,
    /// It claims to come from the judge's own address.
    FromTheJudge,
}

/// The log line of a mail read and handled.
pub(crate) fn mail_read(mail: &Inbound, fate: &Fate) {
    let lang = operator();
    let (id, from) = (mail.message_id.as_str(), mail.from.as_str());
    let (kind, text) = match fate {
        Fate::CarriedOut { game } => (
            "carried-out",
            say!(lang, "mail_log.carried_out", id, from, game),
        ),
        Fate::Duplicate => ("duplicate", say!(lang, "mail_log.duplicate", id, from)),
        Fate::Spam(header) => ("spam", say!(lang, "mail_log.spam", id, from, header)),
        Fate::Bounce => ("bounce", say!(lang, "mail_log.bounce", id, from)),
        Fate::Automatic => ("automatic", say!(lang, "mail_log.automatic", id, from)),
        Fate::FromTheJudge => (
            "from-the-judge",
            say!(lang, "mail_log.from_the_judge", id, from),
        ),
    };
    let game = match fate {
        Fate::CarriedOut { game: Some(game) } => game.as_str(),
        _ => "",
    };
    tracing::info!(message_id = id, from, fate = kind, game, "{text}");
}

/// The log line of a mail set aside (quarantined) in `file`: its Message-ID and sender
/// when its headers could be read.
pub(crate) fn mail_set_aside(id: Option<&str>, from: Option<&str>, file: &str, why: &str) {
    let text = say!(operator(), "mail_log.set_aside", id, from, file, why);
    tracing::info!(
        message_id = id.unwrap_or_default(),
        from = from.unwrap_or_default(),
        fate = "set-aside",
        file,
        "{text}"
    );
}
