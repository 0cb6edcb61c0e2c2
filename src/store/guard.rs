//! The record of one sign-on counter, as the `guards` tree keeps it: a neutral value the
//! store can read, write and forget without knowing the throttle's policy (how many
//! failures lock, for how long: `mail::throttle`, which counts with it).
//!
//! What the store itself needs of it lives here: when an entry may be forgotten
//! ([`Guard::expired`], after [`FORGET_AFTER`]) and how many entries are kept at most
//! ([`MAX_ENTRIES`]) — the tree's retention, not the throttle's decisions.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

/// An entry with no failure for this long (and no lock running) is forgotten.
pub const FORGET_AFTER: TimeDelta = TimeDelta::days(2);
/// The most entries kept; beyond, the oldest are forgotten (an attacker writing from
/// ever new addresses still meets the house's own counter).
pub const MAX_ENTRIES: usize = 10_000;

/// The failed sign-ons of one subject (a house, a game's moderator, a sender address).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    /// Failures in the current window.
    pub failures: u32,
    /// When the current window began.
    pub window: DateTime<Utc>,
    /// Lockouts so far: the next one lasts twice as long.
    pub lockouts: u32,
    /// Sign-ons are refused unchecked until then.
    pub locked_until: Option<DateTime<Utc>>,
    /// The house's player and the moderator were told of a lockout.
    pub told: bool,
    /// The last failure.
    pub last: DateTime<Utc>,
}

impl Guard {
    pub fn new(now: DateTime<Utc>) -> Guard {
        Guard {
            failures: 0,
            window: now,
            lockouts: 0,
            locked_until: None,
            told: false,
            last: now,
        }
    }

    /// Until when sign-ons are refused, if a lock runs at `now`.
    pub fn locked(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.locked_until.filter(|until| *until > now)
    }

    /// Whether the entry may be forgotten at `now`.
    pub fn expired(&self, now: DateTime<Utc>) -> bool {
        self.locked(now).is_none() && now - self.last >= FORGET_AFTER
    }
}
