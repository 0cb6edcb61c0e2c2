//! Joining: a stranger takes a seat by mail (`JOIN`, `TAKEOVER`), once the address it
//! came from sent back the token mailed there, and the moderator answers a request
//! (`APPROVE`, `REJECT`). The rules are the game's (`game/rules/join.rs`,
//! `game/rules/consent.rs`); here is the mail's side: the address is the sender's, the
//! token and the welcome go to it, and one address holds only so many new seats
//! (docs/email.md, "Joining a game").

use chrono::{DateTime, TimeDelta, Utc};

use crate::game::{
    Action, Actor, Asked, ConsentKey, Event, GameError, HouseKey, Settings, consent_token,
    consent_valid, has_keyed_sieve, secret_matches, sieve_passes,
};
use crate::lang::Lang;
use crate::say;
use crate::service::{ServiceError, Session};

use super::super::command::Located;
use super::section::ReplySection;
use super::{Desk, same_address};

/// The window of `[judge] seats_per_day`.
const SEAT_WINDOW: TimeDelta = TimeDelta::hours(24);

/// How long a token mailed for a seat keeps a repeat of the request from mailing the
/// address again. Shorter than the token's life: the repeat may be the owner's own
/// request, after a forger's answered first and was thrown away; the owner then waits a
/// day at most, and a forger mails its victim once a day at most.
const REPEAT_SILENCED: TimeDelta = TimeDelta::hours(24);

impl Desk<'_> {
    /// `JOIN game [house]`, and its confirmation `JOIN game [house] CONFIRM token`.
    pub(super) fn join(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: Option<&str>,
        token: Option<&str>,
    ) -> Result<(), ServiceError> {
        let house = match house {
            Some(written) => match self.house_named(game, located, written) {
                Some(house) => Some(house),
                None => return Ok(()),
            },
            None => None,
        };
        let Some(session) = game else {
            return Ok(());
        };
        let checked = session
            .game()
            .may_join(&self.mail.from, house.as_ref())
            .map(|_| ());
        let asked = Asked::Join {
            game: session.game().id().to_string(),
            house: house.as_ref().map(HouseKey::to_string),
        };
        let action = Action::Join {
            address: self.mail.from.clone(),
            house,
            lang: self.lang,
        };
        self.consented(game, located, checked, asked, token, action)
    }

    /// `TAKEOVER game house`, and its confirmation `TAKEOVER game house CONFIRM token`.
    pub(super) fn take_over(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: &str,
        token: Option<&str>,
    ) -> Result<(), ServiceError> {
        let Some(house) = self.house_named(game, located, house) else {
            return Ok(());
        };
        let Some(session) = game else {
            return Ok(());
        };
        let checked = session
            .game()
            .may_take_over(&self.mail.from, &house)
            .map(|_| ());
        let asked = Asked::TakeOver {
            game: session.game().id().to_string(),
            house: house.to_string(),
        };
        let action = Action::TakeOver {
            address: self.mail.from.clone(),
            house,
            lang: self.lang,
        };
        self.consented(game, located, checked, asked, token, action)
    }

    /// A request's refusal; for a house already played, with the houses still free and
    /// the command that asks for one, as `LISTE` says them.
    fn seat_refusal(&self, game: &Option<Session<'_>>, e: &GameError) -> String {
        let message = self.game_message(e);
        let (GameError::HousePlayed(_), Some(session)) = (e, game.as_ref()) else {
            return message;
        };
        let g = session.game();
        match self.how_to_join(g, &g.free_houses()) {
            Some(free) => say!(self.lang, "join.played_then_free", refusal = message, free),
            None => message,
        }
    }

    /// A seat asked for: without a token, the token mailed to the asking address (once
    /// while it is good); with the token that address was sent, the seat itself.
    fn consented(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        checked: Result<(), GameError>,
        asked: Asked,
        token: Option<&str>,
        action: Action,
    ) -> Result<(), ServiceError> {
        let from = self.mail.from.clone();
        // The judge's own address would make it write to itself.
        let checked = checked.and_then(|()| {
            if self.config.judge.is_own(&from) {
                Err(GameError::JudgeAddress(from.clone()))
            } else {
                Ok(())
            }
        });
        if let Err(e) = checked {
            let message = self.seat_refusal(game, &e);
            self.error(located, message);
            return Ok(());
        }
        if let Some(message) = self.below_minimum(game, &from)? {
            self.error(located, message);
            return Ok(());
        }
        if let Some(message) = self.seats_bound()? {
            self.error(located, message);
            return Ok(());
        }
        let key = self.service.consent_key()?;
        let Some(token) = token else {
            return self.ask_consent(game, located, &key, &asked);
        };
        if let Err(e) = consent_valid(&key, &asked, &from, token, self.now)
            && !self.holds_secret(token)?
        {
            let message = self.game_message(&e);
            self.error(located, message);
            return Ok(());
        }
        self.stranger_asks(game, located, action)
    }

    /// The refusal of a seat to an address whose record is below the game's minimum
    /// (`SET MIN RELIABILITY`), said before any token is mailed: the figure, the minimum
    /// and the record it comes from. The record is the judge's own count, which no mail
    /// changes.
    fn below_minimum(
        &self,
        game: &Option<Session<'_>>,
        from: &str,
    ) -> Result<Option<String>, ServiceError> {
        let Some(min) = game
            .as_ref()
            .map(|s| s.game().settings().min_reliability)
            .filter(|min| *min > 0)
        else {
            return Ok(None);
        };
        let record = self.service.record(from)?;
        if record.reliability() >= min {
            return Ok(None);
        }
        let game = game.as_ref().map(|s| s.game().id().to_string());
        Ok(Some(say!(
            self.lang,
            "record.below_minimum",
            game,
            min,
            record = crate::report::standing::record_text(&record, self.lang)
        )))
    }

    /// Whether `word`, written in a token's place, is a secret the sender's address holds
    /// on this judge (a house it plays, a game it moderates or observes, in any game):
    /// that secret was mailed to this address, so its owner has shown that it reads its
    /// mail there, and the request needs no token (docs/email.md, "Joining a game").
    ///
    /// The cost is bounded as a sign-on's: the keyed sieve kept beside each hash turns a
    /// wrong word away for microseconds, and a mail gets one full check at most, whether
    /// it matched or not. A wrong word is not counted as a failed sign-on: it names no
    /// seat, and a token mistyped is the common case.
    pub(super) fn holds_secret(&mut self, word: &str) -> Result<bool, ServiceError> {
        /// The hashes of one address looked at, at most: more seats than anyone holds.
        const MOST_HELD: usize = 64;
        if self.gate.holder_checked || word.trim().is_empty() {
            return Ok(false);
        }
        let from = self.mail.from.clone();
        let mut held: Vec<String> = Vec::new();
        for g in self.service.games()?.iter() {
            let players = g
                .seats()
                .iter()
                .filter(|s| !s.resigned())
                .filter_map(|s| s.player())
                .filter(|p| same_address(p.address(), &from))
                .map(|p| p.secret().to_string());
            let moderator = g
                .moderator()
                .filter(|m| same_address(&m.address, &from))
                .map(|m| m.secret.clone());
            let observers = g
                .observers()
                .iter()
                .filter(|o| same_address(&o.address, &from))
                .map(|o| o.secret.clone());
            held.extend(players.chain(moderator).chain(observers));
            if held.len() >= MOST_HELD {
                break;
            }
        }
        held.truncate(MOST_HELD);
        // A hash with the key's sieve is checked in full only when the word passes it; one
        // without (written before the key) only as the mail's one full check.
        let candidate = held
            .iter()
            .find(|h| has_keyed_sieve(h) && sieve_passes(word, h))
            .or_else(|| held.iter().find(|h| !has_keyed_sieve(h)));
        let Some(stored) = candidate else {
            return Ok(false);
        };
        self.gate.holder_checked = true;
        Ok(secret_matches(word, stored))
    }

    /// The token of a request, in the answer to the asking address: a forger who writes
    /// in someone else's name never sees it. A repeat while the first token is good is
    /// not mailed again.
    fn ask_consent(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        key: &ConsentKey,
        asked: &Asked,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        if session.game().consent_pending(&from, self.now) {
            self.answer.repeat_request += 1;
            let message = say!(self.lang, "consent.already_sent");
            self.section(located.line, &located.text, ReplySection::Seat { message });
            return Ok(());
        }
        let Some((token, expires)) = consent_token(key, asked, &from, self.now) else {
            return Ok(());
        };
        let action = Action::AskSeat {
            address: from.clone(),
            expires: expires.min(self.now + REPEAT_SILENCED),
        };
        if let Err(e) = session.execute(&Actor::Stranger(from.clone()), action, self.now) {
            let message = self.game_message(&e);
            self.error(located, message);
            return Ok(());
        }
        let zone = session.game().settings().schedule.time_zone;
        let section = consent_section(self.lang, asked, &from, &token, expires, zone);
        self.section(located.line, &located.text, section);
        Ok(())
    }

    /// Refuses a seat to an address already holding `[judge] seats_per_day` seats it
    /// took in open games within 24 hours, saying when the next may be taken.
    ///
    /// The bound counts seats held, not requests made: anyone may write a `From:`, so a
    /// count of requests would let a forger spend an address's quota. A seat a forger
    /// takes in the address's name sends its secret to that address, whose owner
    /// resigns it with that secret and has the quota back at once.
    fn seats_bound(&self) -> Result<Option<String>, ServiceError> {
        let address = &self.mail.from;
        let cap = usize::try_from(self.config.judge.seats_per_day).unwrap_or(usize::MAX);
        let taken = self
            .service
            .seats_held_since(address, self.now - SEAT_WINDOW)?;
        if taken.len() < cap {
            return Ok(None);
        }
        let oldest = taken.iter().min().copied().unwrap_or(self.now);
        let until = crate::report::format_deadline(
            oldest + SEAT_WINDOW,
            Settings::default().schedule.time_zone,
            self.lang,
        );
        let count = taken.len();
        Ok(Some(say!(self.lang, "join.too_many", count, until)))
    }

    /// A seat asked for by the sender's address, within the address's bound, one a
    /// mail (a seat draws a secret, which costs as much as checking one), carried out
    /// in the sender's name, welcomed at that address.
    fn stranger_asks(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        action: Action,
    ) -> Result<(), ServiceError> {
        if !self.spends_secret(located, Ok(())) {
            return Ok(());
        }
        let Some(session) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        // The judge's own address would make it write to itself.
        let done = if self.config.judge.is_own(&from) {
            Err(GameError::JudgeAddress(from.clone()))
        } else {
            // `now`, not the arrival: a game this seat fills starts now, its deadline
            // counted from the moment it is read.
            session.execute(&Actor::Stranger(from), action, self.now)
        };
        match done {
            Ok(events) => self.seat_events(game, located, &events)?,
            Err(e) => {
                let message = self.seat_refusal(game, &e);
                self.error(located, message);
            }
        }
        Ok(())
    }

    /// `APPROVE house [address]` (`approve`) or `REJECT house [address]`, by the
    /// moderator.
    pub(super) fn decide(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: &str,
        address: Option<String>,
        approve: bool,
    ) -> Result<(), ServiceError> {
        let Some(house) = self.house_named(game, located, house) else {
            return Ok(());
        };
        let action = if approve {
            Action::Approve {
                house,
                address: address.map(crate::game::Address::from),
            }
        } else {
            Action::Reject {
                house,
                address: address.map(crate::game::Address::from),
            }
        };
        if let Some(events) = self.act_events(game, located, action) {
            self.seat_events(game, located, &events)?;
        }
        Ok(())
    }

    /// The welcome mail of a seat given, and the reply's words for what happened.
    fn seat_events(
        &mut self,
        game: &Option<Session<'_>>,
        located: &Located,
        events: &[Event],
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let (g, variant) = (session.game(), session.variant());
        let lang = self.lang;
        let name = |house: &HouseKey| variant.house_name_in(house, lang);
        let moderator = self.gate.role == super::Role::Moderator;
        let mut messages = Vec::new();
        for event in events {
            let message = match event {
                Event::Seated { house, address, .. } => {
                    if let Some(mut welcome) = super::board::Welcome::of(event) {
                        welcome.asked = !moderator;
                        let mail = super::board::welcome_mail(
                            self.service,
                            self.config,
                            g,
                            variant,
                            &welcome,
                            self.now,
                        )?;
                        self.effects.mails.push(mail.seal());
                    }
                    if moderator {
                        crate::say!(lang, "join.reply_approved", house = name(house), address)
                    } else {
                        crate::say!(
                            lang,
                            "join.reply_seated",
                            house = name(house),
                            game = g.id()
                        )
                    }
                }
                Event::Started { .. } => {
                    crate::say!(lang, "join.reply_started", deadline = g.deadline_text(lang))
                }
                Event::SeatAsked { house, .. } => {
                    crate::say!(lang, "join.reply_asked", house = name(house), game = g.id())
                }
                Event::SeatRefused { house, address, .. } => {
                    crate::say!(lang, "join.reply_rejected", house = name(house), address)
                }
                _ => continue,
            };
            messages.push(message);
        }
        for message in messages {
            self.section(located.line, &located.text, ReplySection::Seat { message });
        }
        Ok(())
    }
}

/// The answer that carries a token: what was asked in the address's name, when the token
/// expires, and the line to send back from the same address.
pub(super) fn consent_section(
    lang: Lang,
    asked: &Asked,
    address: &str,
    token: &str,
    expires: DateTime<Utc>,
    zone: chrono_tz::Tz,
) -> ReplySection {
    let expires = crate::report::format_deadline(expires, zone, lang);
    let (kind, game, words) = match asked {
        Asked::Join { game, house } => ("join", game, house.clone().unwrap_or_default()),
        Asked::TakeOver { game, house } => ("takeover", game, house.clone()),
        Asked::Create {
            game,
            variant,
            players,
        } => {
            let words = say!(lang, "consent.create_words", variant, players);
            ("create", game, words)
        }
        // The standby list words its own request (`standby`).
        Asked::Standby { .. } => {
            return ReplySection::Note {
                message: say!(lang, "standby.usage"),
            };
        }
    };
    ReplySection::Consent {
        message: say!(lang, "consent.asked", kind, game, words, address, expires),
        line: say!(lang, "consent.line", kind, game, words, token),
        ignore: say!(lang, "consent.ignore"),
    }
}
