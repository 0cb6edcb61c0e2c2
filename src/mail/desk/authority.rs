//! Who writes: the sign-ons of a player and of the moderator (one secret checked a
//! mail, the throttle before it), and what a command needs its sender to be.

use chrono::{DateTime, Utc};

use crate::game::AuditLine;
use crate::game::calendar::format_deadline;
use crate::game::{Game, GameError, SubmitMode, secret_matches};
use crate::map::Variant;

use super::super::command::{Located, SECRET_MASK};
use super::super::refusal::Refusal;
use super::super::throttle::{Guard, Subject};
use super::section::ReplySection;
use super::{Desk, Role, fold_id, house_name, same_address};

/// What of a sign-on's words may be quoted as its house: the house the map names exactly
/// (then words after the secret are extra), else the first word if the map takes it for
/// a misspelt house, else nothing (it may be the secret, typed before the house). Returns
/// the house as shown, how many words it took, and whether extra words followed.
pub(super) fn shown_house(
    variant: &Variant,
    house: &str,
    secret: &str,
) -> (Option<String>, usize, bool) {
    if let Some((name, _, words, extra)) = split_sign_on(variant, house, secret) {
        return (Some(name), words, extra);
    }
    match house.split_whitespace().next() {
        Some(first) if crate::position::house_named(variant, first).is_some() => {
            (Some(first.to_string()), 1, false)
        }
        _ => (None, 0, false),
    }
}

/// A sign-on's house and secret, read with the map: the house is the longest run of
/// words after the game that names a house exactly (`Maison Stark`), the secret the word
/// after it, and words after that are extra (`merci`). `None` when no run names a house
/// exactly: the parser's reading stands (every word but the last is the house, matched
/// loosely, the last the secret). Returns the house as written, the secret, how many
/// words the house took, and whether extra words followed.
pub(super) fn split_sign_on(
    variant: &Variant,
    house: &str,
    secret: &str,
) -> Option<(String, String, usize, bool)> {
    let words: Vec<&str> = house.split_whitespace().chain([secret]).collect();
    (1..words.len()).rev().find_map(|n| {
        let name = words.get(..n)?.join(" ");
        let name = name.trim_matches(|c: char| !c.is_alphanumeric());
        variant.house_by_name(name)?;
        let secret = words.get(n)?;
        Some((name.to_string(), secret.to_string(), n, n + 1 < words.len()))
    })
}

impl Desk<'_> {
    /// Why a player's command is refused without a sign-on: none was given, or it failed.
    pub(super) fn not_signed_on(&self) -> Refusal {
        if let Some(until) = &self.throttled {
            Refusal::Throttled {
                game: self.game_id.clone().unwrap_or_default(),
                until: until.clone(),
            }
        } else if self.locked_out {
            Refusal::BadSignOn {
                game: self.game_id.clone().unwrap_or_default(),
            }
        } else {
            Refusal::NotSignedOn
        }
    }

    pub(super) fn require_house(&mut self, located: &Located) -> Option<String> {
        match &self.role {
            Role::House(h) => Some(h.clone()),
            _ => {
                let refusal = self.not_signed_on();
                self.refuse(located, refusal);
                None
            }
        }
    }

    pub(super) fn require_moderator(&mut self, located: &Located) -> bool {
        if self.role == Role::Moderator {
            return true;
        }
        let refusal = if let Some(until) = &self.throttled {
            Refusal::Throttled {
                game: self.game_id.clone().unwrap_or_default(),
                until: until.clone(),
            }
        } else if self.locked_out {
            Refusal::BadModeratorSecret {
                game: self.game_id.clone().unwrap_or_default(),
            }
        } else {
            Refusal::NotModerator
        };
        self.refuse(located, refusal);
        false
    }

    /// Checks that a command naming `named` stays on the mail's one game.
    pub(super) fn same_game(
        &mut self,
        game: &Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
    ) -> bool {
        let named = fold_id(named);
        match (game, &self.game_id) {
            (_, Some(first)) if *first != named => {
                let first = first.clone();
                self.refuse(located, Refusal::OneGamePerMail { first });
                false
            }
            (Some((g, _)), _) if g.id == named => {
                self.game_id = Some(named);
                true
            }
            _ => {
                // An unknown game is still the mail's one game: a later sign-on for
                // another game is refused as such, not reported unknown.
                self.game_id = Some(named.clone());
                let e = self
                    .service
                    .load(&named)
                    .err()
                    .unwrap_or(GameError::UnknownGame {
                        id: named,
                        nearest: None,
                    });
                let message = self.game_message(&e);
                self.error(located, message);
                false
            }
        }
    }

    /// `PARTIE game house secret`: the one secret this mail may have checked, unless the
    /// throttle refuses it unchecked.
    pub(super) fn sign_on(
        &mut self,
        game: &mut Option<(&mut Game, &Variant)>,
        located: &Located,
        named: &str,
        house: &str,
        secret: &str,
    ) -> Result<(), GameError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some((g, variant)) = game else {
            return Ok(());
        };
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let (shown, _, _) = shown_house(variant, house, secret);
        let (house, secret) = match split_sign_on(variant, house, secret) {
            Some((house, secret, _, _)) => (house, secret),
            None => (house.to_string(), secret.to_string()),
        };
        let seat = g
            .house_id(variant, &house)
            .ok()
            .and_then(|h| g.seat(&h))
            .filter(|s| !s.resigned);
        let player = seat.and_then(|s| s.player.as_ref().map(|p| (s.house.clone(), p.clone())));
        let shown = shown.unwrap_or_else(|| SECRET_MASK.to_string());
        let from = self.mail.from.clone();
        // The registered address is not locked out by others' failures on its house: a
        // guesser cannot keep the player out of the game.
        let mut guards = vec![(Subject::Sender(from.clone()), true)];
        if let Some((id, p)) = &player {
            let house = Subject::House {
                game: g.id.clone(),
                house: id.clone(),
            };
            guards.push((house, !same_address(&p.address, &from)));
        }
        if let Some(until) = self.throttled(&guards)? {
            self.note(AuditLine::SignOnRefused {
                house: Some(shown.to_string()),
                from: from.clone(),
                throttled: true,
            });
            self.lock_out();
            let until = format_deadline(until, g.settings.schedule.time_zone, self.lang);
            self.throttled = Some(until.clone());
            let game = g.id.clone();
            self.refuse(located, Refusal::Throttled { game, until });
            return Ok(());
        }
        match player {
            Some((house, p)) if secret_matches(&secret, &p.secret) => {
                self.guards_passed(&guards)?;
                self.lang = p.lang;
                if p.address != self.mail.from {
                    self.owner = Some(p.address.clone());
                }
                self.role = Role::House(house.clone());
                self.locked_out = false;
                self.mode = SubmitMode::Replace;
                let name = house_name(variant, &house);
                let section = ReplySection::SignedOn {
                    house: name,
                    game: g.id.clone(),
                    extra: self.extra_words,
                };
                self.section(located.line, &located.text, section);
            }
            player => {
                // A house nobody plays puts nobody at risk: the sender is counted, nobody
                // is told.
                let target = player.map(|(house, _)| Some(house));
                self.guards_failed(&guards, target)?;
                self.lock_out();
                self.note(AuditLine::SignOnRefused {
                    house: Some(shown.to_string()),
                    from: from.clone(),
                    throttled: false,
                });
                let game = g.id.clone();
                self.refuse(located, Refusal::BadSignOn { game });
            }
        }
        Ok(())
    }

    /// `MODERATEUR game secret`, as a player's sign-on.
    pub(super) fn moderator_sign_on(
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
        let id = g.id.clone();
        let Some(moderator) = g.moderator.clone() else {
            self.refuse(located, Refusal::NoModerator { game: id });
            return Ok(());
        };
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let from = self.mail.from.clone();
        let guards = [
            (Subject::Sender(from.clone()), true),
            (
                Subject::Moderator { game: id.clone() },
                !same_address(&moderator.address, &from),
            ),
        ];
        if let Some(until) = self.throttled(&guards)? {
            self.note(AuditLine::SignOnRefused {
                house: None,
                from: from.clone(),
                throttled: true,
            });
            self.lock_out();
            let until = format_deadline(until, g.settings.schedule.time_zone, self.lang);
            self.throttled = Some(until.clone());
            self.refuse(located, Refusal::Throttled { game: id, until });
            return Ok(());
        }
        if secret_matches(secret, &moderator.secret) {
            self.guards_passed(&guards)?;
            // The moderator's language is the game's (`LANGUE` changes it).
            self.lang = g.settings.lang;
            self.role = Role::Moderator;
            self.locked_out = false;
            let data = ReplySection::Moderator {
                game: id,
                extra: self.extra_words,
            };
            self.section(located.line, &located.text, data);
        } else {
            self.guards_failed(&guards, Some(None))?;
            self.lock_out();
            self.note(AuditLine::SignOnRefused {
                house: None,
                from: from.clone(),
                throttled: false,
            });
            self.refuse(located, Refusal::BadModeratorSecret { game: id });
        }
        Ok(())
    }

    /// A sign-on failed or was refused: nothing more is done for the game in this mail.
    pub(super) fn lock_out(&mut self) {
        self.role = Role::Nobody;
        self.locked_out = true;
    }

    /// The stored counter of a subject, or a fresh one.
    pub(super) fn guard(&self, subject: &Subject) -> Result<Guard, GameError> {
        Ok(self
            .service
            .guard(&subject.key())?
            .unwrap_or_else(|| Guard::new(self.now)))
    }

    /// Until when the throttle refuses a secret for these subjects (those marked `true`
    /// are checked), if it does.
    pub(super) fn throttled(
        &self,
        guards: &[(Subject, bool)],
    ) -> Result<Option<DateTime<Utc>>, GameError> {
        let mut until = None;
        for (subject, _) in guards.iter().filter(|(_, checked)| *checked) {
            if let Some(key_until) = self.guard(subject)?.locked(self.now) {
                until = until.max(Some(key_until));
            }
        }
        Ok(until)
    }

    /// A right secret: the counters that exist start a new window.
    pub(super) fn guards_passed(&mut self, guards: &[(Subject, bool)]) -> Result<(), GameError> {
        for (subject, _) in guards {
            if let Some(mut guard) = self.service.guard(&subject.key())? {
                guard.succeed(self.now);
                self.effects.guards.push((subject.key(), Some(guard)));
            }
        }
        Ok(())
    }

    /// A wrong secret, counted for every subject. When it starts a lockout the house's
    /// player (`notify`: `Some(Some(house))`; `Some(None)`: the moderator's sign-on) and
    /// the moderator are told, once: the house's (or the moderator's) counter remembers
    /// it, else the sender's. Expired counters are forgotten in the same transaction.
    pub(super) fn guards_failed(
        &mut self,
        guards: &[(Subject, bool)],
        notify: Option<Option<String>>,
    ) -> Result<(), GameError> {
        let mut counted: Vec<(Subject, Guard)> = Vec::new();
        let mut locked_until = None;
        for (subject, _) in guards {
            let mut guard = self.guard(subject)?;
            if guard.fail(self.now) {
                locked_until = locked_until.max(guard.locked_until);
            }
            counted.push((subject.clone(), guard));
        }
        // The counter that remembers the telling: the target's if there is one.
        let teller = counted
            .iter()
            .find(|(s, _)| !matches!(s, Subject::Sender(_)))
            .or(counted.first());
        let told = teller.is_some_and(|(_, g)| g.told);
        if let (Some(until), Some(house), false) = (locked_until, notify, told) {
            for (_, guard) in &mut counted {
                guard.told = true;
            }
            let houses = house.iter().cloned().collect();
            self.effects.notify(
                crate::game::NoticeKind::SignOnThrottled { house, until },
                houses,
            );
            self.note(AuditLine::SignOnsThrottled { until });
        }
        let written: Vec<String> = counted.iter().map(|(s, _)| s.key()).collect();
        for (subject, guard) in counted {
            self.effects.guards.push((subject.key(), Some(guard)));
        }
        for key in self.service.guards_to_forget(self.now)? {
            if !written.contains(&key) {
                self.effects.guards.push((key, None));
            }
        }
        Ok(())
    }
}
