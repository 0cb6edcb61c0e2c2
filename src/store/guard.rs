//! The record of one sign-on counter, as the `guards` tree keeps it: a neutral value the
//! store can read, write and forget without knowing the policy (when the failures are
//! told, and to whom: `service::auth`, which counts with it).
//!
//! What the store itself needs of it lives here: when an entry may be forgotten
//! ([`Guard::expired`], after [`FORGET_AFTER`]) and how many entries are kept at most
//! ([`MAX_ENTRIES`]) — the tree's retention, not the policy's decisions.

use chrono::{DateTime, TimeDelta, Utc};
use serde::{Deserialize, Serialize};

/// An entry with no failure for this long is forgotten: its owner, who never signed on
/// meanwhile, is not told of failures older than that.
pub const FORGET_AFTER: TimeDelta = TimeDelta::days(30);
/// The most entries kept; beyond, the oldest are forgotten. Entries are per seat (a
/// house of a game, a game's moderator), never per sender, so a forger writing from ever
/// new addresses adds none.
pub const MAX_ENTRIES: usize = 10_000;

/// The failed sign-ons of one seat (a house of a game, a game's moderator) since its
/// owner was last told of them. Entries written by earlier versions (a window, lockouts)
/// read as failures since the window began; their lock is no longer honoured.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Guard {
    /// Wrong secrets since the owner was last told.
    pub failures: u32,
    /// The first of them.
    #[serde(alias = "window")]
    pub first: DateTime<Utc>,
    /// The last of them.
    pub last: DateTime<Utc>,
    /// The owner and the moderator were sent a notice of these failures.
    pub told: bool,
}

impl Guard {
    pub fn new(now: DateTime<Utc>) -> Guard {
        Guard {
            failures: 0,
            first: now,
            last: now,
            told: false,
        }
    }

    /// Whether the entry may be forgotten at `now`.
    pub fn expired(&self, now: DateTime<Utc>) -> bool {
        now - self.last >= FORGET_AFTER
    }
}
