//! One received mail carried out: its commands read, the sender authenticated by secret,
//! each action applied to the game, and everything it causes — the game's change, the
//! reply, press to other houses, the welcome mail of a new player, the mark that this
//! Message-ID was acted on — committed in one transaction. A mail delivered twice finds
//! its mark and does nothing; a crash before the commit leaves nothing done.
//!
//! Carrying out a mail never processes a phase by itself (except the moderator's
//! `PROCESS`): a phase made due by the last `READY` is processed by the tick of the same
//! pass (`mail::pass`).

use chrono::{DateTime, Utc};

use crate::config::Config;
use crate::service::{Service, ServiceError};

use super::command;
use super::desk::{Desk, Quota, fold_id, read_sign_ons, same_text};
use super::inbound::Inbound;
use super::log::Fate;

pub use super::desk::MAX_COMMANDS;

/// What became of one received mail.
#[derive(Debug, Clone, PartialEq)]
pub enum Handled {
    /// Its Message-ID was already acted on: nothing done.
    Duplicate,
    /// An automatic message (bounce, auto-reply): marked as seen, not answered.
    Ignored,
    /// Marked as spam by the mail server's filter: neither answered nor carried out, and
    /// not marked as seen, so that the administrator may hand it in again without the
    /// mark should it be a player's.
    Spam,
    /// Carried out and answered; the game it was about, if any.
    Answered { game: Option<String> },
}

/// Carries out one received mail that reached the judge `now`.
pub fn handle(
    service: &Service,
    config: &Config,
    mail: &Inbound,
    now: DateTime<Utc>,
) -> Result<Handled, ServiceError> {
    handle_arrived(service, config, mail, now, now)
}

/// Carries out one received mail at `now` that reached the judge at `arrival` (its
/// Maildir delivery or spool time, never later than `now`): the game's actions (orders,
/// `PRÊT`, votes…) are judged as of `arrival`, so that a mail that came in before the
/// deadline is on time however late the pass that reads it (docs/deadlines.md).
pub fn handle_arrived(
    service: &Service,
    config: &Config,
    mail: &Inbound,
    now: DateTime<Utc>,
    arrival: DateTime<Utc>,
) -> Result<Handled, ServiceError> {
    let (handled, fate) = carry_out(service, config, mail, now, arrival)?;
    super::log::mail_read(mail, &fate);
    Ok(handled)
}

fn carry_out(
    service: &Service,
    config: &Config,
    mail: &Inbound,
    now: DateTime<Utc>,
    arrival: DateTime<Utc>,
) -> Result<(Handled, Fate), ServiceError> {
    let arrival = arrival.min(now);
    if service.already_seen(&mail.message_id)? {
        return Ok((Handled::Duplicate, Fate::Duplicate));
    }
    // Before anything is done: a forged bounce or a forged sign-on that the filter caught
    // changes nothing, and its forged sender hears nothing (backscatter).
    if let Some(header) = &mail.spam {
        return Ok((Handled::Spam, Fate::Spam(header.clone())));
    }
    if let Some(bounce) = &mail.bounce {
        super::bounces::record(service, config, mail, bounce, now)?;
        return Ok((Handled::Ignored, Fate::Bounce));
    }
    // Never answer a robot, nor the judge itself (a forged From or Reply-To): either
    // would start a loop (docs/email.md, "Mail that is never answered").
    let from_the_judge = super::bounces::from_the_judge(config, mail);
    if mail.automatic || from_the_judge {
        service.mark_seen(&mail.message_id)?;
        let fate = if from_the_judge {
            Fate::FromTheJudge
        } else {
            Fate::Automatic
        };
        return Ok((Handled::Ignored, fate));
    }
    let mut script = if mail.too_large {
        command::Script::default()
    } else {
        command::parse(&mail.body)
    };
    // A mail of more commands than anyone writes is refused whole, unread: carrying out
    // each line (a secret, the names nearest to a line that is no order, a phase's
    // results quoted) is what would cost.
    let too_many = script.commands.len();
    let too_many = (too_many > MAX_COMMANDS).then_some(too_many);
    if too_many.is_some() {
        script.commands.clear();
    }
    // `SIGNON Fgame secret`: which game is named depends on the games of this judge.
    read_sign_ons(service, &mut script.commands)?;
    let named = script
        .commands
        .iter()
        .find_map(|c| c.command.as_ref().ok()?.game());
    let game = match &named {
        Some(game) => service.find_game(&fold_id(game))?,
        None => None,
    };
    // Until a sign-on says who writes, answer a known player of the game in their own
    // language, then in the language of the keywords used, then in the judge's.
    let known = game.as_ref().and_then(|g| {
        g.seats()
            .iter()
            .filter_map(|s| s.player())
            .find(|p| p.address() == mail.from)
            .map(|p| p.lang())
    });
    let lang = known.or(script.lang).unwrap_or(config.lang);
    let actor = format!("mail {}", mail.from);
    let quota = Quota::of(service, config.mail.replies_per_hour, &mail.from, now)?;
    let same_text = same_text(service, config, &mail.from, &mail.body, now)?;
    let mut session = game.map(|read| service.session_of(read)).transpose()?;
    let mut desk = Desk::new(service, config, mail, lang, now);
    desk.answer.quota = quota;
    desk.answer.same_text = Some(same_text);
    desk.arrival = arrival;
    desk.answer.too_many = too_many;
    // A command naming a game that does not exist says so at its own line, with the
    // nearest id (`same_game`).
    desk.run(&mut session, &script.commands)?;
    let effects = desk.effects;
    let game = match session {
        Some(session) => Some(
            session
                .commit(&actor, "mail", effects, now)?
                .id()
                .to_string(),
        ),
        None => {
            service.settle_without_game(effects)?;
            None
        }
    };
    // The last READY makes the phase due at once: the pass's tick, which follows the
    // reading of the mail, processes it.
    let fate = Fate::CarriedOut { game: game.clone() };
    Ok((Handled::Answered { game }, fate))
}
