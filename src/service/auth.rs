//! Who writes, established by secret: a sign-on checked against its seat, and the
//! failed ones counted per seat (a house of a game, a game's moderator) and told, never
//! used to refuse anyone. The secrets are long enough that guessing them by mail is
//! hopeless, and the sieve kept beside each hash (`game::secret`) turns a wrong secret
//! away for microseconds, so a storm of wrong secrets costs the judge little without any
//! lock. A lock would be worse than useless: keyed on the sender, a forged `From:` locks
//! the owner out; keyed on the seat, any rival does.
//!
//! What the counter is for: the owner learns of the failures in the answer to their next
//! sign-on, and when they pile up ([`FAILURES_TOLD`]) the owner and the moderator get a
//! notice, once. The counters live in the store's `guards` tree, written by the session's
//! commit with the rest of what the mail did (docs/email.md, "Sign-on, secrets and
//! throttling"; docs/storage.md).
//!
//! The counter itself ([`Guard`]) is a neutral record the store keeps; the policy — what
//! a failure or a right secret does to it — is here. What a sign-on looks like in a mail
//! (one secret a mail, the house as written, the answer's sections) is the mail desk's.

use chrono::{DateTime, Utc};

use crate::game::{Actor, AuditLine, NoticeKind, same_address};
use crate::lang::Lang;

use super::guard::Guard;
use super::{ServiceError, Session};
use crate::game::HouseKey;

/// Failures on one seat after which its owner and the moderator get a notice (once,
/// until the owner signs on and is told).
pub const FAILURES_TOLD: u32 = 5;

/// The seat a sign-on claims.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The player of this house (its id).
    House(HouseKey),
    /// The game's moderator.
    Moderator,
}

/// A right secret: who the sender is for the game, and what their answer tells them.
#[derive(Debug, Clone, PartialEq)]
pub struct SignedOn {
    pub actor: Actor,
    /// The language the seat's owner reads (the moderator's is the game's).
    pub lang: Lang,
    /// The failures counted on the seat since its owner was last told (now forgotten),
    /// if any.
    pub failed: Option<Guard>,
    /// The owner's registered address, when the sender wrote from another.
    pub elsewhere: Option<String>,
}

/// Why a sign-on did not establish anyone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AuthFailure {
    /// Nobody holds the seat (a house nobody plays or whose player resigned, a game with
    /// no moderator): no secret was checked and nothing is counted, since nobody is at
    /// risk.
    Vacant,
    /// The secret is not the seat's: the failure is counted.
    WrongSecret,
}

/// The seat whose sign-ons are counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Sign-ons as a house of a game (ids).
    House { game: String, house: HouseKey },
    /// Sign-ons as a game's moderator.
    Moderator { game: String },
}

impl Subject {
    /// The key in the store's `guards` tree: the kind, then its names, NUL-separated (no
    /// game id or house id holds a NUL byte).
    pub fn key(&self) -> String {
        match self {
            Subject::House { game, house } => format!("house\0{game}\0{house}"),
            Subject::Moderator { game } => format!("moderator\0{game}"),
        }
    }
}

/// The policy on the failures of one [`Subject`].
impl Guard {
    /// Counts a failure at `now`; says whether the owner and the moderator are now to be
    /// sent a notice (the [`FAILURES_TOLD`]th failure since the owner was last told).
    pub fn fail(&mut self, now: DateTime<Utc>) -> bool {
        if self.failures == 0 {
            self.first = now;
        }
        self.failures = self.failures.saturating_add(1);
        self.last = now;
        if self.failures >= FAILURES_TOLD && !self.told {
            self.told = true;
            return true;
        }
        false
    }
}

impl Session<'_> {
    /// Checks `secret` for the seat `claim` names, for a sign-on written from `from` at
    /// `now`. The right secret is always accepted, whoever failed before; it forgets the
    /// seat's counter and hands its failures back to be told. A wrong one is counted (a
    /// notice and an audit line at the [`FAILURES_TOLD`]th), and expired counters are
    /// forgotten with it. The counters are written by [`Session::commit`]. The outer
    /// error is the store's (the counters could not be read): nothing was decided.
    pub fn authenticate(
        &mut self,
        claim: Claim,
        secret: &str,
        from: &str,
        now: DateTime<Utc>,
    ) -> Result<Result<SignedOn, AuthFailure>, ServiceError> {
        let game = self.game();
        let id = game.id().to_string();
        let seat = match claim {
            Claim::House(house) => game
                .seat(&house)
                .filter(|s| !s.resigned())
                .and_then(|s| s.player())
                .map(|p| (Some(house), p.address().to_string(), p.lang())),
            // The moderator's language is the game's (`LANGUE` changes it).
            Claim::Moderator => game
                .moderator()
                .as_ref()
                .map(|m| (None, m.address.clone(), game.settings().lang)),
        };
        let Some((house, owner, lang)) = seat else {
            return Ok(Err(AuthFailure::Vacant));
        };
        let subject = match &house {
            Some(house) => Subject::House {
                game: id,
                house: house.clone(),
            },
            None => Subject::Moderator { game: id },
        };
        if !self.signs_on(house.as_ref(), secret) {
            self.count_failure(&subject, house, now)?;
            return Ok(Err(AuthFailure::WrongSecret));
        }
        let failed = self.forget_failures(&subject)?;
        let actor = match house {
            Some(house) => Actor::House(house),
            None => Actor::Moderator,
        };
        Ok(Ok(SignedOn {
            actor,
            lang,
            failed,
            elsewhere: (!same_address(&owner, from)).then_some(owner),
        }))
    }

    /// The owner signed on: the failures counted since they were last told, if any, which
    /// their answer now tells (the counter is forgotten).
    fn forget_failures(&mut self, subject: &Subject) -> Result<Option<Guard>, ServiceError> {
        let key = subject.key();
        let kept = self.service.guard(&key)?;
        if kept.is_some() {
            self.guards.push((key, None));
        }
        Ok(kept.filter(|g| g.failures > 0))
    }

    /// A wrong secret for a seat (`house`: a house's; `None`: the moderator's), counted.
    /// At [`FAILURES_TOLD`] failures the owner and the moderator get a notice, once.
    /// Expired counters are forgotten in the same transaction.
    fn count_failure(
        &mut self,
        subject: &Subject,
        house: Option<HouseKey>,
        now: DateTime<Utc>,
    ) -> Result<(), ServiceError> {
        let key = subject.key();
        let mut guard = self.service.guard(&key)?.unwrap_or_else(|| Guard::new(now));
        if guard.fail(now) {
            let failures = guard.failures;
            let houses = house.iter().cloned().collect();
            let kind = NoticeKind::SignOnFailures {
                house: house.clone(),
                failures,
                since: guard.first,
            };
            self.notify(kind, houses);
            self.note(AuditLine::SignOnFailures { house, failures });
        }
        for forgotten in self.service.guards_to_forget(now)? {
            if forgotten != key {
                self.guards.push((forgotten, None));
            }
        }
        self.guards.push((key, Some(guard)));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeDelta;

    use super::super::guard::FORGET_AFTER;

    fn at(minutes: i64) -> DateTime<Utc> {
        DateTime::UNIX_EPOCH + TimeDelta::minutes(minutes)
    }

    #[test]
    fn failures_are_counted_and_the_notice_asked_once() {
        let mut g = Guard::new(at(0));
        for i in 1..FAILURES_TOLD {
            assert!(!g.fail(at(i.into())));
        }
        assert!(g.fail(at(10)));
        for i in 0..100 {
            assert!(!g.fail(at(20 + i)));
        }
        assert_eq!(g.failures, FAILURES_TOLD + 100);
        assert_eq!((g.first, g.last), (at(1), at(119)));
    }

    #[test]
    fn entries_are_forgotten_after_a_quiet_month() {
        let mut g = Guard::new(at(0));
        g.fail(at(0));
        assert!(!g.expired(at(60)));
        assert!(g.expired(at(0) + FORGET_AFTER));
    }

    #[test]
    fn an_entry_of_the_old_lockouts_still_reads() {
        let old = r#"{"failures":3,"window":"2026-03-23T08:00:00Z","lockouts":2,
            "locked_until":"2026-03-23T09:00:00Z","told":true,"last":"2026-03-23T08:04:00Z"}"#;
        let g: Guard = serde_json::from_str(old).unwrap();
        assert_eq!(g.failures, 3);
        assert!(g.told);
    }
}
