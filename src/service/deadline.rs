//! The games due at a deadline, on a store several judges share (docs/storage.md,
//! "Several judges at once"): a judge claims a few games, adjudicates them with the
//! store's lock let go, and takes the lock again only to commit them, each checked
//! unchanged since it was read. On sled, where one process holds the store, the same
//! path claims every game due and lets nothing go.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::game::{Action, Actor};

use super::{Bug, Effects, Service, ServiceError, Session, TickReport};

/// How many games a judge claims at a time. Their commits are made under the store's
/// lock in one stretch, so few enough that a moderator's command waits well under a
/// second behind them; enough that a claim's round trip is shared by several games.
const CLAIM_BATCH: usize = 8;

/// A game adjudicated while the store's lock was let go: the bytes it was read from,
/// and the session that holds the phase processed, not yet committed.
struct Ahead<'s> {
    bytes: Vec<u8>,
    session: Session<'s>,
}

impl Service {
    /// Whether the deadline's games are claimed a few at a time ([`Service::tick_claimed`])
    /// rather than gone through one by one under the lock: when judges share the store.
    pub fn claims_games(&self) -> bool {
        self.store.claims_games()
    }

    /// Claims the next games due (none of `tried`, which it extends), adjudicates them
    /// with the store's lock let go, takes the lock again (waiting at most `wait`) and
    /// commits each one whose claim is still its own and whose stored game did not change
    /// meanwhile; a game that changed is done again under the lock, from the store. Says
    /// whether it claimed any: none means no game due is left to this judge. The lock is
    /// held again when it returns, unless taking it failed (the error then says so).
    pub fn tick_claimed(
        &self,
        now: DateTime<Utc>,
        wait: Duration,
        tried: &mut Vec<String>,
        report: &mut TickReport,
    ) -> Result<bool, ServiceError> {
        self.store.let_go()?;
        let claimed = match self.store.claim_due(now, tried, CLAIM_BATCH) {
            Ok(claimed) => claimed,
            Err(e) => {
                self.store.take_again(wait)?;
                return Err(e.into());
            }
        };
        if claimed.is_empty() {
            self.store.take_again(wait)?;
            return Ok(false);
        }
        tried.extend(claimed.iter().cloned());
        // The long part, pure: nothing written, so no lock needed.
        let ahead: Vec<Option<Ahead<'_>>> = claimed
            .iter()
            .map(|id| self.adjudicate_ahead(id, now))
            .collect();
        if let Err(e) = self.store.take_again(wait) {
            // Left to the other judges at once rather than after the lease.
            let _ = self.store.unclaim(&claimed);
            return Err(e.into());
        }
        for (n, (id, ahead)) in claimed.iter().zip(ahead).enumerate() {
            // A moderator's command queued meanwhile goes before the next commit, not
            // after the whole batch.
            if n > 0 {
                self.store.give_way(wait)?;
            }
            if let Err(e) = self.commit_claimed(id, ahead, now, report) {
                report.errors.push((id.clone(), e));
            }
        }
        self.store.unclaim(&claimed)?;
        Ok(true)
    }

    /// The game `id` read and its phase processed in a session, if it is due; none when
    /// it is not (a reminder, done at the commit) or cannot be read or processed here (the
    /// commit does it again under the lock, and reports why).
    fn adjudicate_ahead(&self, id: &str, now: DateTime<Utc>) -> Option<Ahead<'_>> {
        let (bytes, game) = self.store.game_read(id).ok()??;
        let trigger = game.due(now)?;
        let mut session = self.session_of(game).ok()?;
        let process = Action::Process {
            expected: None,
            trigger,
        };
        session.execute_alone(&Actor::Judge, process, now).ok()?;
        Some(Ahead { bytes, session })
    }

    /// Under the lock: the phase adjudicated ahead committed if the game is as it was
    /// read and the claim still this judge's; the game done afresh if it changed; left
    /// alone if another judge took the claim over (its lease ran out).
    fn commit_claimed(
        &self,
        id: &str,
        ahead: Option<Ahead<'_>>,
        now: DateTime<Utc>,
        report: &mut TickReport,
    ) -> Result<(), ServiceError> {
        if !self.store.holds_claim(id)? {
            return Ok(());
        }
        match ahead {
            Some(ahead) if self.store.game_is(id, Some(&ahead.bytes))? => {
                let record = ahead.session.record().cloned().ok_or(Bug::NoPhaseRecord)?;
                let who = Actor::Judge;
                ahead
                    .session
                    .commit(&who.audit_name(), "process", Effects::default(), now)?;
                report.processed.push((id.to_string(), record.phase));
            }
            _ => self.tick_one(id, now, report),
        }
        Ok(())
    }
}
