//! The moderator's commands, and the commands that change a game's people: votes,
//! seats, a player's address, observers.

use crate::game::AuditLine;
use crate::game::calendar::format_deadline;
use crate::game::span::Span;
use crate::game::{
    Game, GameError, Observer, ObserverRequest, Setting, SettingKind, Trigger, Vote, check_address,
    hash_secret, new_secret, secret_matches,
};
use crate::lang::Lang;
use crate::map::Variant;
use crate::report::game_text::{ending_text, phase_text, status_word};
use crate::service::Action;

use super::super::command::Located;
use super::super::refusal::Refusal;
use super::section::{Moderated, ReplySection};
use super::{Desk, Role, house_name, same_address};

/// Requests to observe a game waiting for confirmation, at most.
pub(super) const MAX_OBSERVER_REQUESTS: usize = 20;

/// How long the token of a request to observe is good for.
pub(super) const OBSERVER_TOKEN_LIFE: chrono::TimeDelta = chrono::TimeDelta::days(3);

/// Why `from` may not ask to observe (or confirm it): the moderator forbids observers, or
/// it observes already.
pub(super) fn observing_refused(game: &Game, from: &str) -> Option<Refusal> {
    if !game.settings.observers {
        Some(Refusal::ObserversForbidden)
    } else if game
        .observers
        .iter()
        .any(|o| same_address(&o.address, from))
    {
        Some(Refusal::AlreadyObserving)
    } else {
        None
    }
}

impl Desk<'_> {
    pub(super) fn moderate(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        action: Action,
        kind: fn(Moderated) -> ReplySection,
    ) {
        // An action is only done on a game (`act` refuses it without one).
        if self.require_moderator(located)
            && self.act(game, located, action)
            && let Some((g, variant)) = game
        {
            let data = Moderated {
                phase: phase_text(g.phase, self.lang),
                deadline: g.deadline_text(self.lang),
                status: status_word(g.status, self.lang),
                ending: g
                    .ending
                    .as_ref()
                    .map(|e| ending_text(e, variant, self.lang)),
            };
            self.section(located.line, &located.text, kind(data));
        }
    }

    pub(super) fn vote(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
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
            let ending = game
                .as_ref()
                .and_then(|(g, v)| g.ending.as_ref().map(|e| ending_text(e, v, self.lang)));
            let vote = match vote {
                None => "none".to_string(),
                Some(Vote::Draw) => "draw".to_string(),
                Some(Vote::Concede(h)) => {
                    game.as_ref().map_or(h.clone(), |(_, v)| house_name(v, &h))
                }
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
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        house: String,
        address: &str,
        lang: Option<Lang>,
        replace: bool,
    ) -> Result<(), GameError> {
        if !self.require_moderator(located) {
            return Ok(());
        }
        if self.config.judge.is_own(address) {
            let message = self.game_message(&GameError::JudgeAddress(address.trim().into()));
            self.error(located, message);
            return Ok(());
        }
        let secret = new_secret()?;
        // A player added without a language speaks the game's.
        let lang = lang
            .or_else(|| game.as_ref().map(|(g, _)| g.settings.lang))
            .unwrap_or(self.config.lang);
        let action = Action::Seat {
            house: house.clone(),
            address: address.to_string(),
            secret_hash: hash_secret(&secret)?,
            lang,
            replace,
        };
        if !self.act(game, located, action) {
            return Ok(());
        }
        let Some((g, variant)) = game else {
            return Ok(());
        };
        let name = g
            .house_id(variant, &house)
            .map(|h| house_name(variant, &h))
            .unwrap_or(house);
        let address = check_address(address)?;
        let welcome = super::board::Welcome {
            house: &name,
            address: &address,
            secret: &secret,
            lang,
            replace,
        };
        let mail =
            super::board::welcome_mail(self.service, self.config, g, variant, &welcome, self.now)?;
        self.effects.mails.push(mail.seal());
        let section = if replace {
            ReplySection::Replaced {
                house: name,
                address,
            }
        } else {
            ReplySection::Added {
                house: name,
                address,
            }
        };
        self.section(located.line, &located.text, section);
        Ok(())
    }

    pub(super) fn change_address(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        address: &str,
    ) {
        let Some(house) = self.require_house(located) else {
            return;
        };
        let Some((g, _)) = game else {
            return;
        };
        let address = match g.free_address(&house, address) {
            // The judge's own address would make it write to itself; another player's
            // would merge two houses' mail; the moderator's would take the moderator's
            // mail and name. Which of them is not said: the reply must not tell who plays
            // what.
            Ok(a)
                if self.config.judge.is_own(&a)
                    || g.moderator
                        .as_ref()
                        .is_some_and(|m| same_address(&m.address, &a)) =>
            {
                self.note(AuditLine::AddressRefused {
                    house: house.clone(),
                    address: a.clone(),
                });
                self.refuse(located, Refusal::AddressUnavailable(a));
                return;
            }
            Err(GameError::AddressTaken { address, .. }) => {
                self.note(AuditLine::AddressRefused {
                    house: house.clone(),
                    address: address.clone(),
                });
                self.refuse(located, Refusal::AddressUnavailable(address));
                return;
            }
            Ok(a) => a,
            Err(e) => {
                let message = self.game_message(&e);
                self.error(located, message);
                return;
            }
        };
        let Some(player) = g.seat_mut(&house).and_then(|s| s.player.as_mut()) else {
            return;
        };
        // A new address starts without the old one's delivery failures.
        if player.address != address {
            player.bounced = None;
        }
        let old = std::mem::replace(&mut player.address, address.clone());
        // The old address hears of the change too: a forger with the secret cannot take a
        // house away unnoticed.
        if old != self.mail.from {
            self.owner = Some(old.clone());
        }
        self.note(AuditLine::AddressChanged {
            house: house.clone(),
            old: old.clone(),
            new: address.clone(),
        });
        self.section(
            located.line,
            &located.text,
            ReplySection::Address { address },
        );
    }

    /// `OBSERVER game`: nobody observes without consent, so the request only waits for
    /// its address to confirm it; the token goes in the answer, which goes to that very
    /// address (a forged sender never sees it).
    pub(super) fn observe(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
    ) -> Result<(), GameError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some((g, _)) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        if let Some(refusal) = observing_refused(g, &from) {
            self.refuse(located, refusal);
            return Ok(());
        }
        let now = self.now;
        g.observer_requests
            .retain(|r| r.expires > now && !same_address(&r.address, &from));
        if g.observer_requests.len() >= MAX_OBSERVER_REQUESTS {
            self.refuse(located, Refusal::TooManyObserverRequests);
            return Ok(());
        }
        // Hashing the token costs as much as checking a secret: one a mail.
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let token = new_secret()?;
        let expires = now + OBSERVER_TOKEN_LIFE;
        g.observer_requests.push(ObserverRequest {
            address: from.clone(),
            token: hash_secret(&token)?,
            lang: self.lang,
            asked: now,
            expires,
        });
        let zone = g.settings.schedule.time_zone;
        let id = g.id.clone();
        self.note(AuditLine::ObserverAsked { from: from.clone() });
        let section = ReplySection::ObserveAsked {
            game: id,
            address: from,
            asked: format_deadline(now, zone, self.lang),
            expires: format_deadline(expires, zone, self.lang),
            token,
        };
        self.section(located.line, &located.text, section);
        Ok(())
    }

    /// `OBSERVER game CONFIRMER token`, from the address that asked: it observes from now
    /// on, with a secret to stop.
    pub(super) fn confirm_observe(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
        token: &str,
    ) -> Result<(), GameError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some((g, _)) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        if let Some(refusal) = observing_refused(g, &from) {
            self.refuse(located, refusal);
            return Ok(());
        }
        let now = self.now;
        let request = g
            .observer_requests
            .iter()
            .position(|r| r.expires > now && same_address(&r.address, &from));
        let Some(request) = request else {
            let game = g.id.clone();
            self.refuse(located, Refusal::NoObserverRequest { game });
            return Ok(());
        };
        // Each observer gets every result with its picture: their number is capped. The
        // request is kept until it expires, for the moderator to see (`game show`) and
        // for a confirmation once an observer has left.
        let cap = self.config.mail.caps.observers_per_game;
        if g.observers.len() >= cap as usize {
            let game = g.id.clone();
            let message = crate::say!(self.lang, "caps.observers_full", game, cap);
            self.error(located, message);
            return Ok(());
        }
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let hash = g.observer_requests.get(request).map(|r| r.token.clone());
        if !hash.is_some_and(|h| secret_matches(token, &h)) {
            self.note(AuditLine::ObserverBadToken { from: from.clone() });
            self.refuse(located, Refusal::BadObserverToken);
            return Ok(());
        }
        let asked = g.observer_requests.remove(request);
        let secret = new_secret()?;
        g.observers.push(Observer {
            address: asked.address,
            secret: hash_secret(&secret)?,
            lang: asked.lang,
            since: now,
        });
        let id = g.id.clone();
        self.note(AuditLine::ObserverJoined { from: from.clone() });
        let section = ReplySection::Observing { game: id, secret };
        self.section(located.line, &located.text, section);
        Ok(())
    }

    /// `NE PLUS OBSERVER game secret`, from the observing address: one secret checked.
    pub(super) fn unobserve(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
        secret: &str,
    ) -> Result<(), GameError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some((g, _)) = game else {
            return Ok(());
        };
        let from = self.mail.from.clone();
        let Some(at) = g
            .observers
            .iter()
            .position(|o| same_address(&o.address, &from))
        else {
            self.refuse(located, Refusal::BadObserverSecret);
            return Ok(());
        };
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let hash = g.observers.get(at).map(|o| o.secret.clone());
        if hash.is_some_and(|h| secret_matches(secret, &h)) {
            g.observers.remove(at);
            self.note(AuditLine::ObserverLeft { from: from.clone() });
            self.section(located.line, &located.text, ReplySection::Unobserved);
        } else {
            self.refuse(located, Refusal::BadObserverSecret);
        }
        Ok(())
    }
}

impl Desk<'_> {
    /// `ABANDONNER`: the house's player leaves the game.
    pub(super) fn resign(&mut self, game: &mut Option<(&mut Game, &Variant)>, located: &Located) {
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
        game: &mut Option<(&mut Game, &Variant)>,
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
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        lang: Lang,
    ) {
        let line = located.line;
        let text = located.text.as_str();
        if self.role == Role::Moderator
            && let Some((g, _)) = game
        {
            // The moderator's results, notices and answers.
            g.settings.lang = lang;
            self.lang = lang;
            self.note(AuditLine::Language { house: None, lang });
            self.section(line, text, ReplySection::Language);
        } else if let Some(house) = self.require_house(located)
            && let Some((g, _)) = game
            && let Some(p) = g.seat_mut(&house).and_then(|s| s.player.as_mut())
        {
            p.lang = lang;
            self.lang = lang;
            self.note(AuditLine::Language {
                house: Some(house.clone()),
                lang,
            });
            self.section(line, text, ReplySection::Language);
        }
    }

    /// `OBSERVATEURS oui|non`.
    pub(super) fn observers(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        allowed: bool,
    ) {
        let action = Action::Observers { allowed };
        let removed = game.as_ref().map_or(0, |(g, _)| g.observers.len());
        if self.require_moderator(located) && self.act(game, located, action) {
            let removed = if allowed { 0 } else { removed };
            let section = ReplySection::Observers { allowed, removed };
            self.section(located.line, &located.text, section);
        }
    }

    /// `IMAGES oui|non`.
    pub(super) fn pictures(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        on: bool,
    ) {
        let action = Action::Pictures { on };
        if self.require_moderator(located) && self.act(game, located, action) {
            self.section(located.line, &located.text, ReplySection::Pictures { on });
        }
    }

    /// `TRAITER phase`: once a mail.
    pub(super) fn process(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        phase: String,
    ) {
        if self.phase_changed() {
            self.refuse(located, Refusal::ProcessOnce);
        } else {
            let action = Action::Process {
                phase: Some(phase),
                trigger: Trigger::Moderator,
            };
            self.moderate(game, located, action, ReplySection::Processed);
        }
    }

    /// `PROLONGER span`: the deadline put off.
    pub(super) fn extend(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        span: &str,
    ) {
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
        game: &mut Option<(&mut Game, &Variant)>,
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
        if !self.act(game, located, Action::Set(setting)) {
            return;
        }
        let (Some((g, _)), Some(AuditLine::SettingChanged { change })) =
            (game.as_ref(), self.effects.audit.last())
        else {
            return;
        };
        let section = ReplySection::Set {
            change: change.say(self.lang, g.settings.schedule.time_zone),
            deadline: change
                .moved_deadline()
                .is_none()
                .then(|| g.deadline_text(self.lang)),
        };
        self.section(located.line, &located.text, section);
    }

    /// `ANNULER phase`: the last phase undone, once a mail.
    pub(super) fn rollback(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        phase: String,
    ) -> Result<(), GameError> {
        if !self.require_moderator(located) {
            return Ok(());
        }
        // The last phase is read from the store, which does not hold yet what
        // this mail processed or undid.
        if self.phase_changed() {
            self.refuse(located, Refusal::ProcessOnce);
            return Ok(());
        }
        let Some((g, _)) = game else {
            return Ok(());
        };
        match self.service.last_phase(&g.id)? {
            None => {
                let message = self.game_message(&GameError::NothingToRollback);
                self.error(located, message);
            }
            Some(last) => {
                let action = Action::Rollback {
                    last: Box::new(last),
                    phase: Some(phase),
                };
                self.moderate(game, located, action, ReplySection::RolledBack);
            }
        }
        Ok(())
    }
}
