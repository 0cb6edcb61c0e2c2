//! Failed sign-ons, counted per seat (a house of a game, a game's moderator) and told,
//! never used to refuse anyone: the secrets are long enough that guessing them by mail is
//! hopeless, and the sieve kept beside each hash (`game::secret`) turns a wrong secret
//! away for microseconds, so a storm of wrong secrets costs the judge little without any
//! lock. A lock would be worse than useless: keyed on the sender, a forged `From:` locks
//! the owner out; keyed on the seat, any rival does.
//!
//! What the counter is for: the owner learns of the failures in the answer to their next
//! sign-on, and when they pile up ([`FAILURES_TOLD`]) the owner and the moderator get a
//! notice, once. The counters live in the store's `guards` tree, written in the same
//! transaction as the rest of the mail's effects (docs/email.md, "Sign-on, secrets and
//! throttling"; docs/storage.md).
//!
//! The counter itself ([`Guard`]) is a neutral record the store keeps (reached through the
//! service); the policy — what a failure or a right secret does to it — is here.

use chrono::{DateTime, Utc};

pub use crate::service::guard::{FORGET_AFTER, Guard, MAX_ENTRIES};

/// Failures on one seat after which its owner and the moderator get a notice (once,
/// until the owner signs on and is told).
pub const FAILURES_TOLD: u32 = 5;

/// The seat whose sign-ons are counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Sign-ons as a house of a game (ids).
    House { game: String, house: String },
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

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeDelta;

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
