//! Who writes: the sign-ons of a player and of the moderator (one secret checked a
//! mail; failures counted per seat and told, never a lock), and what a command needs its
//! sender to be.

use crate::game::{Event, GameError, HouseKey, SubmitMode};
use crate::lang::Lang;
use crate::map::Variant;
use crate::report::format_deadline;
use crate::service::guard::Guard;
use crate::service::{AuthFailure, Claim, ServiceError, Session};

use super::super::command::{Located, SECRET_MASK};
use super::super::refusal::Refusal;
use super::section::ReplySection;
use super::{Desk, Role, fold_id, house_name};

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
        if self.locked_out {
            Refusal::BadSignOn {
                game: self.game_id.clone().unwrap_or_default(),
            }
        } else {
            Refusal::NotSignedOn
        }
    }

    pub(super) fn require_house(&mut self, located: &Located) -> Option<HouseKey> {
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
        let refusal = if self.locked_out {
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
        game: &Option<Session<'_>>,
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
            (Some(session), _) if session.game().id() == named => {
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
                    .unwrap_or(ServiceError::Game(GameError::UnknownGame {
                        id: named,
                        nearest: None,
                    }));
                let message = self.service_message(&e);
                self.error(located, message);
                false
            }
        }
    }

    /// `PARTIE game house secret`: the one secret this mail may have checked. The right
    /// secret is always accepted, whoever failed before (docs/email.md, "Sign-on, secrets
    /// and throttling").
    pub(super) fn sign_on(
        &mut self,
        game: &mut Option<Session<'_>>,
        located: &Located,
        named: &str,
        house: &str,
        secret: &str,
    ) -> Result<(), ServiceError> {
        if !self.same_game(game, located, named) {
            return Ok(());
        }
        let Some(session) = game else {
            return Ok(());
        };
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        let variant = session.variant();
        let (shown, _, _) = shown_house(variant, house, secret);
        let (house, secret) = match split_sign_on(variant, house, secret) {
            Some((house, secret, _, _)) => (house, secret),
            None => (house.to_string(), secret.to_string()),
        };
        let g = session.game();
        let shown = shown.unwrap_or_else(|| SECRET_MASK.to_string());
        let id = g.id().to_string();
        let zone = g.settings().schedule.time_zone;
        // A name that is no house of the map claims no seat: nothing to check or count.
        let signed = match g.house_id(variant, &house) {
            Ok(house) => session
                .authenticate(
                    Claim::House(house.clone()),
                    &secret,
                    &self.mail.from,
                    self.now,
                )?
                .map(|signed| (house, signed)),
            Err(_) => Err(AuthFailure::Vacant),
        };
        match signed {
            Ok((house, signed)) => {
                let elsewhere = signed.elsewhere.is_some();
                self.signed_on(signed.lang, signed.elsewhere);
                let name = house_name(session.variant(), &house, self.lang);
                self.role = Role::House(house);
                self.mode = SubmitMode::Replace;
                let section = ReplySection::SignedOn {
                    house: name,
                    game: id,
                    extra: self.extra_words,
                    elsewhere,
                };
                self.section(located.line, &located.text, section);
                self.failed_sign_ons(signed.failed, zone);
            }
            Err(_) => {
                self.lock_out();
                session.note(Event::SignOnRefused {
                    claimed: Some(shown),
                    from: self.mail.from.clone(),
                });
                self.refuse(located, Refusal::BadSignOn { game: id });
            }
        }
        Ok(())
    }

    /// `MODERATEUR game secret`, as a player's sign-on. From another address than the
    /// moderator's, the moderator gets a copy of the answer.
    pub(super) fn moderator_sign_on(
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
        let g = session.game();
        let id = g.id().to_string();
        let zone = g.settings().schedule.time_zone;
        // Said before the one secret of the mail is spent: no secret is checked.
        if g.moderator().is_none() {
            self.refuse(located, Refusal::NoModerator { game: id });
            return Ok(());
        }
        if self.secret_spent {
            self.refuse(located, Refusal::OneSecretPerMail);
            return Ok(());
        }
        self.secret_spent = true;
        match session.authenticate(Claim::Moderator, secret, &self.mail.from, self.now)? {
            Ok(signed) => {
                let elsewhere = signed.elsewhere.is_some();
                self.signed_on(signed.lang, signed.elsewhere);
                self.role = Role::Moderator;
                let data = ReplySection::Moderator {
                    game: id,
                    extra: self.extra_words,
                    elsewhere,
                };
                self.section(located.line, &located.text, data);
                self.failed_sign_ons(signed.failed, zone);
            }
            Err(_) => {
                self.lock_out();
                session.note(Event::SignOnRefused {
                    claimed: None,
                    from: self.mail.from.clone(),
                });
                self.refuse(located, Refusal::BadModeratorSecret { game: id });
            }
        }
        Ok(())
    }

    /// A right secret: the answer is in the owner's language, and goes to their
    /// registered address too when the sender's is another.
    fn signed_on(&mut self, lang: Lang, elsewhere: Option<String>) {
        self.lang = lang;
        self.locked_out = false;
        if elsewhere.is_some() {
            self.owner = elsewhere;
        }
    }

    /// A sign-on failed or was refused: nothing more is done for the game in this mail.
    pub(super) fn lock_out(&mut self) {
        self.role = Role::Nobody;
        self.locked_out = true;
    }

    /// The answer's section on the failures the owner is told of.
    fn failed_sign_ons(&mut self, failed: Option<Guard>, zone: chrono_tz::Tz) {
        if let Some(failed) = failed {
            let section = ReplySection::FailedSignOns {
                count: failed.failures,
                first: format_deadline(failed.first, zone, self.lang),
                last: format_deadline(failed.last, zone, self.lang),
            };
            self.section(0, "", section);
        }
    }
}
