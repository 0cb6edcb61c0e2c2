//! Mail that comes back: a bounce naming a player's address, or a mail server refusing a
//! mail for good. Either way the address is flagged in the game (`game show`, the
//! moderator's STATUS) and the moderator is told once, by a notice; a bounce is never
//! answered. Also: whether a received mail claims to come from the judge itself.

use chrono::{DateTime, Utc};

use crate::config::{Config, Judge};
use crate::game::{Action, Actor, Address, Game};
use crate::service::{Effects, Service, ServiceError};

use super::inbound::Inbound;
use super::inbound::bounce::Bounce;
use super::outmail::domain_of;
use crate::service::Envelope;

/// Whether the mail claims to come from the judge (From, Sender or Reply-To is the judge's
/// address or an alias): answering it would be writing to itself.
pub fn from_the_judge(config: &Config, mail: &Inbound) -> bool {
    config.judge.is_own(&mail.from) || mail.authors.iter().any(|a| config.judge.is_own(a))
}

/// Whether a Message-ID is one the judge made (`corbeau.…@` its domain or an alias's).
pub fn is_judge_message_id(judge: &Judge, id: &str) -> bool {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    let Some((local, domain)) = id.rsplit_once('@') else {
        return false;
    };
    local.starts_with("corbeau.")
        && std::iter::once(&judge.address)
            .chain(&judge.aliases)
            .any(|own| domain_of(own).eq_ignore_ascii_case(domain))
}

/// Acts on a bounce: flags the players whose address failed and queues the moderator's
/// notice, marking the bounce as seen in the same transaction. A bounce that names no
/// player, or that returns a mail the judge did not send, is only marked as seen.
pub fn record(
    service: &Service,
    config: &Config,
    mail: &Inbound,
    bounce: &Bounce,
    now: DateTime<Utc>,
) -> Result<(), ServiceError> {
    // A returned copy with another sender's id is backscatter (spam forged in the judge's
    // name); a guessed bounce must show it returns the judge's own mail.
    let ours = bounce
        .message_id
        .as_deref()
        .map(|id| is_judge_message_id(&config.judge, id));
    let trusted = match ours {
        Some(ours) => ours,
        None => bounce.standard,
    };
    let games: Vec<Game> = if trusted {
        service
            .games()?
            .into_iter()
            .filter(|g| bounce.game.as_ref().is_none_or(|id| *id == g.id()))
            .filter(|g| {
                g.seats().iter().any(|s| {
                    s.player()
                        .as_ref()
                        .is_some_and(|p| bounce.recipients.iter().any(|x| x == p.address()))
                })
            })
            .collect()
    } else {
        Vec::new()
    };
    let Some((last, others)) = games.split_last() else {
        service.mark_seen(&mail.message_id)?;
        return Ok(());
    };
    // One transaction per game; the bounce is marked seen with the last. A crash between
    // two leaves a flag already set, which a second delivery does not set or tell again.
    for (game, seen) in others
        .iter()
        .map(|g| (g, None))
        .chain([(last, Some(mail.message_id.clone()))])
    {
        let mut session = service.session_of(game.clone())?;
        let bounced = Action::Bounced {
            addresses: bounce.recipients.iter().map(Address::from).collect(),
            reason: bounce.reason.clone(),
        };
        session.execute(&Actor::Judge, bounced, now)?;
        let extra = Effects {
            seen,
            ..Effects::default()
        };
        session.commit("judge", "bounce", extra, now)?;
    }
    Ok(())
}

/// Sets aside a mail the transport refused for good, and tells the moderator of the game
/// it was about (flagging the player's address), all in one transaction. A mail to the
/// moderator's own address tells nobody (the notice would fail the same way).
pub fn set_aside(
    service: &Service,
    key: u64,
    mail: &Envelope,
    reason: &str,
    now: DateTime<Utc>,
) -> Result<(), ServiceError> {
    let before = match &mail.game {
        Some(id) => service.find_game(id)?,
        None => None,
    };
    let undeliverable = Action::Undeliverable {
        address: mail.to.as_str().into(),
        reason: reason.to_string(),
    };
    service.outbox_set_aside(key, mail, before.map(|g| (g, undeliverable)), now)
}
