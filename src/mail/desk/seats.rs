//! Seats: the moderator's seating of players, a player's resignation, and an address's
//! own request to observe (asked, confirmed, ended). Joining and taking over by consent
//! are `join`; a player's new address, `address`; a new game, `community`.

use crate::game::{Action, Actor, Event, GameError, HouseKey};
use crate::lang::Lang;
use crate::service::{ServiceError, Session};

use super::super::command::Located;
use super::Desk;
use super::gate::Role;
use super::section::ReplySection;
use crate::report::format_deadline;

impl Desk<'_> {
    pub(super) fn seat(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: String,
        address: &str,
        lang: Option<Lang>,
        replace: bool,
    ) -> Result<(), ServiceError> {
        if self.config.judge.is_own(address) {
            let message = self.game_message(&GameError::JudgeAddress(address.trim().into()));
            self.error(located, message);
            return Ok(());
        }
        let Some(house) = self.house_named(game, located, &house) else {
            return Ok(());
        };
        let action = Action::Seat {
            house,
            address: address.into(),
            secret: None,
            lang,
            replace,
        };
        let Some(events) = self.act_events(game, located, action) else {
            return Ok(());
        };
        let Some(session) = game else {
            return Ok(());
        };
        for event in &events {
            let (Event::Seated { house, address, .. }, Some(welcome)) =
                (event, super::board::Welcome::of(event))
            else {
                continue;
            };
            let mail = super::board::welcome_mail(
                self.service,
                self.config,
                session.game(),
                session.variant(),
                &welcome,
                self.now,
            )?;
            self.effects.mails.push(mail.seal());
            let house = session.variant().house_name_in(house, self.lang);
            let address = address.clone();
            let section = if replace {
                ReplySection::Replaced {
                    house,
                    address: address.into(),
                }
            } else {
                ReplySection::Added {
                    house,
                    address: address.into(),
                }
            };
            self.section(located.line, &located.text, section);
        }
        Ok(())
    }

    /// `ABANDONNER`: the house's player leaves the game.
    pub(super) fn resign(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: HouseKey,
    ) {
        if self.act(game, located, Action::Resign { house }) {
            self.section(located.line, &located.text, ReplySection::Resigned);
            self.gate.role = Role::Nobody;
        }
    }

    /// `OBSERVER game`: nobody observes without consent, so the request only waits for
    /// its address to confirm it; the token goes in the answer, which goes to that very
    /// address (a forged sender never sees it).
    pub(super) fn observe(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        // Making the token costs as much as checking a secret: one a mail.
        let checked = session.game().may_ask_to_observe(&from, self.now);
        if self.spends_secret(located, checked) {
            let action = Action::AskObserve {
                address: from.clone(),
                lang: self.lang,
            };
            let asked = session.execute(&Actor::Stranger(from.clone()), action, self.now);
            self.observer_answer(session, located, asked);
        }
        Ok(())
    }

    /// `OBSERVER game CONFIRMER token`, from the address that asked: it observes from now
    /// on, with a secret to stop.
    pub(super) fn confirm_observe(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        token: &str,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        let cap = self.config.mail.caps.observers_per_game as usize;
        let checked = session.game().may_confirm_observing(&from, cap, self.now);
        if self.spends_secret(located, checked.map(|_| ())) {
            let action = Action::ConfirmObserve {
                address: from.clone(),
                token: token.to_string(),
                cap,
            };
            let joined = session.execute(&Actor::Stranger(from.clone()), action, self.now);
            if matches!(joined, Err(GameError::BadObserverToken)) {
                session.note(Event::ObserverBadToken { address: from });
            }
            self.observer_answer(session, located, joined);
        }
        Ok(())
    }

    /// `NE PLUS OBSERVER game secret`, from the observing address: one secret checked.
    pub(super) fn unobserve(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        secret: &str,
    ) -> Result<(), ServiceError> {
        let Some(session) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        let checked = session.game().observer_at(&from).map(|_| ());
        if self.spends_secret(located, checked) {
            let action = Action::Unobserve {
                address: from.clone(),
                secret: secret.to_string(),
            };
            let left = session.execute(&Actor::Observer(from), action, self.now);
            self.observer_answer(session, located, left);
        }
        Ok(())
    }

    /// The answer to a request to observe, its confirmation or its end.
    fn observer_answer(
        &mut self,
        session: &Session<'_>,
        located: &Located,
        done: Result<Vec<Event>, GameError>,
    ) {
        let events = match done {
            Ok(events) => events,
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
                return;
            }
        };
        let g = session.game();
        for event in events {
            let section = match event {
                Event::ObserverAsked {
                    address,
                    token,
                    expires,
                } => {
                    let zone = g.settings().schedule.time_zone;
                    ReplySection::ObserveAsked {
                        game: g.id().to_string(),
                        address: address.into(),
                        asked: format_deadline(self.now, zone, self.lang),
                        expires: format_deadline(expires, zone, self.lang),
                        token: token.0,
                    }
                }
                Event::ObserverJoined { secret, .. } => ReplySection::Observing {
                    game: g.id().to_string(),
                    secret: secret.0,
                },
                Event::ObserverLeft { .. } => ReplySection::Unobserved,
                _ => continue,
            };
            self.section(located.line, &located.text, section);
        }
    }
}
