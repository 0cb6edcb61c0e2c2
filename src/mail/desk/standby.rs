//! The judge's standby list: people willing to take over a house in any game of this
//! judge, who get one mail when a moderator announces a game's free houses. An address
//! joins or leaves only by sending back the token mailed to it (as a seat is asked for:
//! `join`), so a forger can neither put an address on the list nor take it off; the
//! list is never shown, and each announcement goes to each address alone.

use chrono::TimeDelta;

use crate::game::{Asked, GameStatus, Settings, consent_token, consent_valid};
use crate::say;
use crate::service::{ServiceError, Session, Standby};

use super::super::command::Located;
use super::section::ReplySection;
use super::{Desk, same_address};

/// The most addresses the list holds: an announcement costs a mail each.
pub(super) const MAX_STANDBY: usize = 200;

/// One announcement per game in this window, whatever the moderator sends.
const ANNOUNCE_WINDOW: TimeDelta = TimeDelta::hours(24);

impl Desk<'_> {
    /// `STANDBY ON|OFF [CONFIRM <token>]`: without a token, the token mailed back to the
    /// sender's address; with it, the address on the list, or off it.
    pub(super) fn standby(
        &mut self,
        located: &Located,
        on: bool,
        token: Option<&str>,
    ) -> Result<(), ServiceError> {
        let address = self.mail.from.clone();
        let list = self.service.standby()?;
        let listed = list.iter().any(|s| same_address(&s.address, &address));
        if on == listed {
            let message = say!(self.lang, "standby.already", on);
            self.section(located.line, &located.text, ReplySection::Note { message });
            return Ok(());
        }
        if on && list.len() >= MAX_STANDBY {
            let message = say!(self.lang, "standby.full", max = MAX_STANDBY);
            self.error(located, message);
            return Ok(());
        }
        let key = self.service.consent_key()?;
        let asked = Asked::Standby { on };
        let Some(token) = token else {
            if let Some((token, expires)) = consent_token(&key, &asked, &address, self.now) {
                let zone = Settings::default().schedule.time_zone;
                let expires = crate::report::format_deadline(expires, zone, self.lang);
                let section = ReplySection::Consent {
                    message: say!(self.lang, "standby.asked", on, address, expires),
                    line: say!(self.lang, "standby.line", on, token),
                    ignore: say!(self.lang, "standby.ignore"),
                };
                self.section(located.line, &located.text, section);
            }
            return Ok(());
        };
        if let Err(e) = consent_valid(&key, &asked, &address, token, self.now) {
            let message = self.game_message(&e);
            self.error(located, message);
            return Ok(());
        }
        let entry = Standby {
            address: address.to_string(),
            lang: self.lang,
            since: self.now,
        };
        // Written with the reply, in one transaction: an answer never says what was not
        // kept, nor is anything kept that the reply does not say.
        self.effects
            .standby
            .push((address.to_string(), on.then_some(entry)));
        let message = say!(self.lang, "standby.done", on);
        self.section(located.line, &located.text, ReplySection::Note { message });
        Ok(())
    }

    /// `ANNOUNCE`, from the moderator signed on: one mail to each address on the list
    /// (those already in the game left out) naming the game, its free houses and the
    /// line that takes one; once a day a game.
    pub(super) fn announce(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let (g, variant) = (session.game(), session.variant());
        let zone = g.settings().schedule.time_zone;
        let vacant = g.free_houses();
        let free: Vec<_> = g
            .seats()
            .iter()
            .map(|s| s.house().clone())
            .filter(|h| vacant.contains(h) || g.seat(h).is_some_and(|s| s.civil_disorder()))
            .collect();
        if free.is_empty() || g.status() == GameStatus::Finished {
            let message = say!(self.lang, "standby.nothing_free", game = g.id());
            self.error(located, message);
            return Ok(());
        }
        if let Some(last) = self.service.standby_announced(g.id())?
            && last + ANNOUNCE_WINDOW > self.now
        {
            let until = crate::report::format_deadline(last + ANNOUNCE_WINDOW, zone, self.lang);
            let message = say!(self.lang, "standby.too_soon", game = g.id(), until);
            self.error(located, message);
            return Ok(());
        }
        let mut told = 0;
        for entry in self.service.standby()? {
            if super::queries::knows(g, &entry.address) {
                continue;
            }
            let lang = entry.lang;
            let houses: Vec<String> = free
                .iter()
                .map(|h| variant.house_name_in(h, lang))
                .collect();
            let ids: Vec<String> = free.iter().map(ToString::to_string).collect();
            let subject = say!(lang, "standby.subject", game = g.id());
            let body = say!(
                lang,
                "standby.announce",
                game = g.id(),
                name = g.name(),
                variant = g.variant().name.as_str(),
                phase = crate::report::game_text::phase_text(g.phase(), lang),
                houses,
                ids,
                open = g.settings().open
            );
            // A mail read as plain text: each paragraph broken at 78 characters.
            let body: Vec<String> = body
                .lines()
                .map(|line| crate::report::wrap(line, Some(78), None))
                .collect();
            let body = body.join("\n");
            let mail =
                super::super::compose::mail(self.config, &entry.address, subject, body, self.now);
            self.effects.mails.push(mail.about(g.id()).seal());
            told += 1;
        }
        self.effects.announced.push((g.id().to_string(), self.now));
        let message = say!(self.lang, "standby.announced", game = g.id(), count = told);
        self.section(located.line, &located.text, ReplySection::Note { message });
        Ok(())
    }
}
