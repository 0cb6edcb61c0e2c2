//! Failed sign-ons, counted per house (and per game for the moderator) and per sender
//! address, so that secrets cannot be guessed by mail: after [`FAILURES_ALLOWED`] wrong
//! secrets within [`WINDOW`], sign-ons are refused without any hash check for a while,
//! [`FIRST_LOCK`] at first and twice as long at each new lockout, up to [`LONGEST_LOCK`].
//!
//! The counters live in the store's `guards` tree, written in the same transaction as the
//! rest of the mail's effects, so that a restart forgets nothing; an entry with no failure
//! for [`FORGET_AFTER`] and no lock running is forgotten, and the tree never holds more
//! than [`MAX_ENTRIES`] (docs/email.md, "Sign-on and throttling"; docs/storage.md).
//!
//! The counter itself ([`Guard`]) is a neutral record the store keeps (reached through the
//! service); the policy — what a failure or a right secret does to it — is here.

use chrono::{DateTime, TimeDelta, Utc};

pub use crate::service::guard::{FORGET_AFTER, Guard, MAX_ENTRIES};

/// Wrong secrets allowed within [`WINDOW`] before a lockout.
pub const FAILURES_ALLOWED: u32 = 5;
/// The window in which failures are counted.
pub const WINDOW: TimeDelta = TimeDelta::hours(1);
/// The first lockout; each next one doubles.
pub const FIRST_LOCK: TimeDelta = TimeDelta::minutes(15);
/// The longest lockout.
pub const LONGEST_LOCK: TimeDelta = TimeDelta::hours(24);

/// What is counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subject {
    /// Sign-ons as a house of a game (ids).
    House { game: String, house: String },
    /// Sign-ons as a game's moderator.
    Moderator { game: String },
    /// Secrets sent from this address (folded to lower case), whatever they were for.
    Sender(String),
}

impl Subject {
    /// The key in the store's `guards` tree: the kind, then its names, NUL-separated (no
    /// game id, house id or address holds a NUL byte).
    pub fn key(&self) -> String {
        match self {
            Subject::House { game, house } => format!("house\0{game}\0{house}"),
            Subject::Moderator { game } => format!("moderator\0{game}"),
            Subject::Sender(address) => format!("sender\0{}", address.to_lowercase()),
        }
    }
}

/// The policy on the failures of one [`Subject`].
impl Guard {
    /// Counts a failure at `now`; says whether it started a lockout.
    pub fn fail(&mut self, now: DateTime<Utc>) -> bool {
        if now - self.window >= WINDOW {
            self.failures = 0;
            self.window = now;
        }
        self.failures += 1;
        self.last = now;
        if self.failures < FAILURES_ALLOWED {
            return false;
        }
        self.lockouts += 1;
        self.locked_until = Some(now + lock_length(self.lockouts));
        self.failures = 0;
        self.window = now;
        true
    }

    /// A right secret: the window starts again (the lockouts are remembered until the
    /// entry is forgotten, so that a guesser gains nothing from the player's sign-ons).
    pub fn succeed(&mut self, now: DateTime<Utc>) {
        self.failures = 0;
        self.window = now;
    }
}

/// The length of the `n`th lockout (from 1).
pub fn lock_length(n: u32) -> TimeDelta {
    let doublings = n.saturating_sub(1).min(16);
    let length = FIRST_LOCK * (1_i32 << doublings);
    length.min(LONGEST_LOCK)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(minutes: i64) -> DateTime<Utc> {
        DateTime::UNIX_EPOCH + TimeDelta::minutes(minutes)
    }

    #[test]
    fn five_failures_in_an_hour_lock_for_a_growing_time() {
        let mut g = Guard::new(at(0));
        for i in 0..4 {
            assert!(!g.fail(at(i)));
            assert_eq!(g.locked(at(i)), None);
        }
        assert!(g.fail(at(4)));
        assert_eq!(g.locked(at(5)), Some(at(4 + 15)));
        assert_eq!(g.locked(at(19)), None);
        for i in 0..4 {
            assert!(!g.fail(at(20 + i)));
        }
        assert!(g.fail(at(24)));
        assert_eq!(g.locked(at(25)), Some(at(24 + 30)));
        assert_eq!(lock_length(3), TimeDelta::hours(1));
        assert_eq!(lock_length(7), TimeDelta::hours(16));
        assert_eq!(lock_length(8), LONGEST_LOCK);
        assert_eq!(lock_length(u32::MAX), LONGEST_LOCK);
    }

    #[test]
    fn failures_spread_over_hours_never_lock() {
        let mut g = Guard::new(at(0));
        for i in 0..20 {
            assert!(!g.fail(at(i * 15)), "failure {i}");
        }
    }

    #[test]
    fn entries_are_forgotten_after_quiet_days_not_during_a_lock() {
        let mut g = Guard::new(at(0));
        for i in 0..5 {
            g.fail(at(i));
        }
        assert!(!g.expired(at(60)));
        assert!(g.expired(at(4 + 2 * 24 * 60)));
        g.lockouts = 20;
        g.locked_until = Some(at(10 * 24 * 60));
        assert!(!g.expired(at(4 + 2 * 24 * 60)));
    }

    #[test]
    fn addresses_are_counted_whatever_their_case() {
        assert_eq!(
            Subject::Sender("Eve@Example.org".into()).key(),
            Subject::Sender("eve@example.org".into()).key()
        );
    }
}
