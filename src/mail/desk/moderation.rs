//! The moderator's commands, and the commands that change a game's people: votes,
//! seats, a player's address, observers. Each is an action of the game; what is here is
//! the mail's side of it: who may send it, and the reply's words.

use crate::game::span::Span;
use crate::game::{
    Action, Actor, Event, GameError, PhaseGuard, Setting, SettingKind, Trigger, Vote,
};
use crate::lang::Lang;
use crate::report::format_deadline;
use crate::report::game_text::{ending_text, phase_text, status_word};
use crate::service::{ServiceError, Session};

use super::super::command::Located;
use super::super::refusal::Refusal;
use super::section::{Moderated, ReplySection};
use super::{Desk, Role, house_name};

impl Desk<'_> {
    pub(super) fn moderate(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        action: Action,
        kind: fn(Moderated) -> ReplySection,
    ) {
        // An action is only done on a game (`act` refuses it without one).
        if self.require_moderator(located)
            && self.act(game, located, action)
            && let Some(session) = game
        {
            let (g, variant) = (session.game(), session.variant());
            let data = Moderated {
                phase: phase_text(g.phase(), self.lang),
                deadline: g.deadline_text(self.lang),
                status: status_word(g.status(), self.lang),
                ending: g
                    .ending()
                    .as_ref()
                    .map(|e| ending_text(e, variant, self.lang)),
            };
            self.section(located.line, &located.text, kind(data));
        }
    }

    pub(super) fn vote(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        vote: Option<Vote>,
    ) {
        if let Some(house) = self.require_house(located)
            && self.act(
                game,
                located,
                Action::Vote {
                    house,
                    vote: vote.clone(),
                },
            )
        {
            let ending = game.as_ref().and_then(|s| {
                let (g, v) = (s.game(), s.variant());
                g.ending().map(|e| ending_text(e, v, self.lang))
            });
            let vote = match vote {
                None => "none".to_string(),
                Some(Vote::Draw | Vote::DrawWith(_)) => "draw".to_string(),
                Some(Vote::Concede(h)) => game
                    .as_ref()
                    .map_or(h.to_string(), |s| house_name(s.variant(), &h, self.lang)),
            };
            self.section(
                located.line,
                &located.text,
                ReplySection::Vote { vote, ending },
            );
        }
    }

    pub(super) fn seat(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        house: String,
        address: &str,
        lang: Option<Lang>,
        replace: bool,
    ) -> Result<(), ServiceError> {
        if !self.require_moderator(located) {
            return Ok(());
        }
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
            let house = house_name(session.variant(), house, self.lang);
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

    /// `OBSERVER game`: nobody observes without consent, so the request only waits for
    /// its address to confirm it; the token goes in the answer, which goes to that very
    /// address (a forged sender never sees it).
    pub(super) fn observe(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        named: &str,
    ) -> Result<(), ServiceError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
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
        named: &str,
        token: &str,
    ) -> Result<(), ServiceError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
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
        named: &str,
        secret: &str,
    ) -> Result<(), ServiceError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
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

    /// Whether a command that checks or makes a secret may: the game would look at it,
    /// and this mail has not spent its one hash yet (then it is spent).
    pub(super) fn spends_secret(
        &mut self,
        located: &Located,
        checked: Result<(), GameError>,
    ) -> bool {
        if let Err(e) = checked {
            let message = self.game_message(&e);
            self.error(located, message);
            return false;
        }
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return false;
        }
        self.secret_spent = true;
        true
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

impl Desk<'_> {
    /// `ABANDONNER`: the house's player leaves the game.
    pub(super) fn resign(&mut self, game: &mut Option<Session<'_>>, located: &Located) {
        if let Some(house) = self.require_house(located)
            && self.act(game, located, Action::Resign { house })
        {
            self.section(located.line, &located.text, ReplySection::Resigned);
            self.role = Role::Nobody;
        }
    }

    /// `ABSENCE from to`: a deadline falling in it is put off.
    pub(super) fn absence(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        from: String,
        to: String,
    ) {
        if let Some(house) = self.require_house(located)
            && self.act(game, located, Action::Absence { house, from, to })
        {
            self.section(located.line, &located.text, ReplySection::Absence);
        }
    }

    /// `LANGUE`: the moderator's changes the game's, a player's their own.
    pub(super) fn language(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        lang: Lang,
    ) {
        let house = match self.role {
            Role::Moderator if game.is_some() => None,
            _ => match self.require_house(located) {
                Some(house) => Some(house),
                None => return,
            },
        };
        if self.act(game, located, Action::Language { house, lang }) {
            // The moderator's results, notices and answers, or the player's.
            self.lang = lang;
            self.section(located.line, &located.text, ReplySection::Language);
        }
    }

    /// `OBSERVATEURS oui|non`.
    pub(super) fn observers(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        allowed: bool,
    ) {
        let action = Action::Observers { allowed };
        let removed = game.as_ref().map_or(0, |s| s.game().observers().len());
        if self.require_moderator(located) && self.act(game, located, action) {
            let removed = if allowed { 0 } else { removed };
            let section = ReplySection::Observers { allowed, removed };
            self.section(located.line, &located.text, section);
        }
    }

    /// `IMAGES oui|non`, `RÉGLER IMAGES oui|non`: the moderator's turns the game's
    /// pictures on or off, a player's their own mails' (as `LANGUE`).
    pub(super) fn pictures(&mut self, game: &mut Option<Session<'_>>, located: &Located, on: bool) {
        let house = match self.role {
            Role::Moderator if game.is_some() => None,
            _ => match self.require_house(located) {
                Some(house) => Some(house),
                None => return,
            },
        };
        let own = house.is_some();
        if self.act(game, located, Action::Pictures { house, on }) {
            let section = ReplySection::Pictures { on, own };
            self.section(located.line, &located.text, section);
        }
    }

    /// `TRAITER phase`: once a mail.
    pub(super) fn process(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        phase: String,
    ) {
        if Self::phase_changed(game) {
            self.refuse(located, Refusal::ProcessOnce);
            return;
        }
        match PhaseGuard::read(&phase) {
            Ok(guard) => {
                let action = Action::Process {
                    expected: Some(guard),
                    trigger: Trigger::Moderator,
                };
                self.moderate(game, located, action, ReplySection::Processed);
            }
            Err(e) if self.require_moderator(located) => {
                let message = self.game_message(&e);
                self.error(located, message);
            }
            Err(_) => {}
        }
    }

    /// `PROLONGER span`: the deadline put off.
    pub(super) fn extend(&mut self, game: &mut Option<Session<'_>>, located: &Located, span: &str) {
        match span.parse::<Span>() {
            Ok(by) => self.moderate(game, located, Action::Extend(by), ReplySection::Extended),
            Err(e) => {
                let message = self.game_message(&GameError::Calendar(e));
                self.refuse(located, Refusal::BadSpan(message));
            }
        }
    }

    /// `RÉGLER <réglage> <valeur>`: the value read, then the game's rules
    /// ([`Game::change_setting`]); the reply says what changed, in the moderator's words.
    pub(super) fn set(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        kind: SettingKind,
        value: &str,
    ) {
        if !self.require_moderator(located) {
            return;
        }
        let setting = match Setting::read(kind, value) {
            Ok(setting) => setting,
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
                return;
            }
        };
        let Some(events) = self.act_events(game, located, Action::Set(setting)) else {
            return;
        };
        let Some(session) = game else {
            return;
        };
        let g = session.game();
        for event in events {
            let Event::SettingChanged { change } = event else {
                continue;
            };
            let section = ReplySection::Set {
                change: change.say(self.lang, g.settings().schedule.time_zone),
                deadline: change
                    .moved_deadline()
                    .is_none()
                    .then(|| g.deadline_text(self.lang)),
            };
            self.section(located.line, &located.text, section);
        }
    }

    /// `ANNULER phase`: the last phase undone, once a mail.
    pub(super) fn rollback(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        phase: String,
    ) -> Result<(), ServiceError> {
        if !self.require_moderator(located) {
            return Ok(());
        }
        // The last phase is read from the store, which does not hold yet what
        // this mail processed or undid.
        if Self::phase_changed(game) {
            self.refuse(located, Refusal::ProcessOnce);
            return Ok(());
        }
        let Some(session) = game else {
            return Ok(());
        };
        let last = session.last_phase()?;
        match (last, PhaseGuard::read(&phase)) {
            (None, _) => {
                let message = self.game_message(&GameError::NothingToRollback);
                self.error(located, message);
            }
            (Some(_), Err(e)) => {
                let message = self.game_message(&e);
                self.error(located, message);
            }
            (Some(last), Ok(guard)) => {
                let action = Action::Rollback {
                    last: Box::new(last),
                    expected: Some(guard),
                };
                self.moderate(game, located, action, ReplySection::RolledBack);
            }
        }
        Ok(())
    }
}
