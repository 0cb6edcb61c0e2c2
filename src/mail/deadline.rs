//! The games due at a deadline, as a pass goes through them. On sled, one at a time, the
//! store let go between two when someone waits for it: a phase is processed in a
//! fraction of a second, but many falling due together would keep a moderator's command
//! waiting for all of them. On PostgreSQL, claimed a few at a time, so that several
//! judges sharing the database each take their part and adjudicate it while another
//! commits (docs/storage.md, "Several judges at once").

use chrono::{DateTime, Utc};

use crate::service::{ServiceError, TickReport};

use super::pass::Hold;

/// Processes or reminds every game due at `now` that no other judge has in hand.
pub(super) fn tick_due(
    hold: &mut Hold<'_>,
    now: DateTime<Utc>,
    report: &mut TickReport,
) -> Result<(), ServiceError> {
    if !hold.service()?.claims_games() {
        for id in hold.service()?.due_games(now)? {
            hold.breathe();
            hold.service()?.tick_one(&id, now, report);
        }
        return Ok(());
    }
    // Each game is tried once a pass, as on sled: one that fails stays due, and is not
    // claimed again before the next pass.
    let mut tried = Vec::new();
    loop {
        hold.breathe();
        let wait = hold.wait();
        if !hold
            .service()?
            .tick_claimed(now, wait, &mut tried, report)?
        {
            return Ok(());
        }
    }
}
