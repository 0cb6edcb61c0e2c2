//! A game's clock: deadlines and where they are counted from, absences, the grace
//! period, reminders and when the judge looks at the game again.

use chrono::{DateTime, Utc};

use crate::judge::PhaseKind;
use crate::map::Variant;

use crate::game::calendar::{Absence, Schedule, parse_local_time};
use crate::game::event::Event;
use crate::game::model::{Game, GameStatus, Trigger};
use crate::game::span::Span;
use crate::game::{GameError, HouseKey};

use super::NOT_OVER;

impl Game {
    /// A house's absence, its dates as written in the game's time zone.
    pub(in crate::game) fn absent(
        &mut self,
        variant: &Variant,
        house: &HouseKey,
        from: &str,
        to: &str,
        now: DateTime<Utc>,
    ) -> Result<Event, GameError> {
        let house = self.house_id(variant, house)?;
        let zone = self.settings.schedule.time_zone;
        let start = parse_local_time(from, zone)?;
        let end = parse_local_time(to, zone)?;
        let moved = self.declare_absence(&house, start, end, now)?;
        Ok(Event::Absent {
            house,
            from: start,
            to: end,
            deadline: moved,
        })
    }

    /// Records a player's absence; a deadline falling inside it moves past it (within the
    /// game's cap on absences), whatever set that deadline: the phase's opening, an
    /// extension or a resume. Returns the new deadline when it moved. While the game is
    /// paused the deadline is set again at the resume, which applies the absence then.
    pub fn declare_absence(
        &mut self,
        house: &HouseKey,
        start: DateTime<Utc>,
        end: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<Option<DateTime<Utc>>, GameError> {
        self.require("declare an absence", NOT_OVER)?;
        if end <= start || end <= now {
            return Err(GameError::BadAbsence);
        }
        let seat = self.seat_in(house)?;
        seat.absences.retain(|a| a.end > now);
        seat.absences.push(Absence { start, end });
        let moved = self.push_past_absences(now);
        self.update_wake(now);
        Ok(moved)
    }

    /// Moves a running game's deadline past the absences it falls inside
    /// ([`Schedule::past_absences`](crate::game::calendar::Schedule::past_absences)); the new
    /// deadline when it moved.
    pub(in crate::game) fn push_past_absences(
        &mut self,
        now: DateTime<Utc>,
    ) -> Option<DateTime<Utc>> {
        if self.status != GameStatus::Running {
            return None;
        }
        let deadline = self.deadline?;
        let base = self.absence_base.unwrap_or(deadline);
        let moved = self
            .settings
            .schedule
            .past_absences(deadline, base, &self.absences());
        if moved <= deadline {
            return None;
        }
        self.absence_base = Some(base);
        self.deadline = Some(moved);
        // A deadline moved out of the grace period: the players are told again if it runs.
        self.grace_told = false;
        self.update_wake(now);
        Some(moved)
    }

    /// Sets the deadline of a phase counted from `base` (its absences applied) and forgets
    /// the extensions and absence pushes of the phase before.
    pub(super) fn set_fresh_deadline(&mut self, base: DateTime<Utc>) {
        let schedule = &self.settings.schedule;
        let plain = schedule.deadline(base, self.phase.kind, &[]);
        let deadline = schedule.deadline(base, self.phase.kind, &self.absences());
        self.absence_base = (deadline != plain).then_some(plain);
        self.deadline = Some(deadline);
        self.extended = Span::ZERO;
        self.grace_told = false;
    }

    /// When the judge stops waiting for missing orders: [`Schedule::grace_end`], the one
    /// rule of docs/deadlines.md (whole days on the calendar, so a day of grace across a
    /// clock change still ends at the deadline's local time).
    ///
    /// [`Schedule::grace_end`]: crate::game::calendar::Schedule::grace_end
    pub fn grace_end(&self) -> Option<DateTime<Utc>> {
        self.deadline.map(|d| self.settings.schedule.grace_end(d))
    }

    pub(super) fn past_grace(&self, now: DateTime<Utc>) -> bool {
        self.grace_end().is_some_and(|end| now >= end)
    }

    /// Whether the phase should be processed now, and why.
    pub fn due(&self, now: DateTime<Utc>) -> Option<Trigger> {
        if self.status != GameStatus::Running {
            return None;
        }
        if self.nobody_to_wait_for() {
            return Some(Trigger::Ready);
        }
        let deadline = self.deadline?;
        ((now >= deadline && self.everyone_ordered()) || self.past_grace(now))
            .then_some(Trigger::Deadline)
    }

    /// Every active house with something to decide gave orders or declared itself ready.
    fn everyone_ordered(&self) -> bool {
        self.active_deciders()
            .all(|s| s.ordered.is_some() || s.ready)
    }

    /// Nobody is left to wait for: every active house with something to decide is ready,
    /// or only houses in civil disorder have something to decide while someone still
    /// plays. A game where every house is in civil disorder keeps its deadlines: processed
    /// at once, it would run through its years one pass after another.
    fn nobody_to_wait_for(&self) -> bool {
        self.all_ready()
            || (self.active_deciders().next().is_none()
                && self
                    .seats
                    .iter()
                    .any(|s| s.player.is_some() && !s.civil_disorder))
    }

    /// The reminder due now, if any: the houses to remind. Counts it as sent.
    pub fn take_reminder(&mut self, now: DateTime<Utc>) -> Option<Vec<HouseKey>> {
        let (Some(opened), Some(deadline)) = (self.opened, self.deadline) else {
            return None;
        };
        if self.status != GameStatus::Running || now >= deadline {
            return None;
        }
        let times = self.settings.schedule.reminder_times(opened, deadline);
        let passed = times.iter().filter(|&&t| t <= now).count() as u32;
        if passed <= self.reminders_sent {
            return None;
        }
        // Reminders missed while the judge was stopped are sent once, not one by one.
        self.reminders_sent = passed;
        self.update_wake(now);
        let waiting = self.waiting_for();
        (!waiting.is_empty()).then_some(waiting)
    }

    /// At the deadline, while a grace period runs: the houses still without orders, to be
    /// told that the judge waits for them until the grace period ends. Once per deadline.
    pub fn take_grace_notice(&mut self, now: DateTime<Utc>) -> Option<Vec<HouseKey>> {
        let deadline = self.deadline?;
        if self.status != GameStatus::Running
            || now < deadline
            || self.grace_told
            || self.settings.schedule.grace.is_zero()
            || self.past_grace(now)
        {
            return None;
        }
        self.grace_told = true;
        let waiting = self.waiting_for();
        (!waiting.is_empty()).then_some(waiting)
    }

    /// When the judge must look at this game again.
    pub fn update_wake(&mut self, now: DateTime<Utc>) {
        self.wake = match (self.status, self.opened, self.deadline) {
            (GameStatus::Running, Some(opened), Some(deadline)) => {
                // Due now: everyone ready, or late orders that complete the set (the
                // judge waits for missing orders until the grace ends, not for more).
                let due_now =
                    self.nobody_to_wait_for() || (now >= deadline && self.everyone_ordered());
                let reminder = self
                    .settings
                    .schedule
                    .reminder_times(opened, deadline)
                    .into_iter()
                    .nth(self.reminders_sent as usize);
                let end = if now < deadline {
                    deadline
                } else {
                    self.settings.schedule.grace_end(deadline)
                };
                let wake = reminder.map_or(end, |r| r.min(end));
                Some(if due_now { now.min(wake) } else { wake })
            }
            _ => None,
        };
    }

    /// The clock's look at a game not due: reminders and the grace notice due now; a
    /// wake time that has passed with nothing to do is moved on.
    pub(in crate::game) fn remind(&mut self, now: DateTime<Utc>) -> Vec<Event> {
        let mut events = Vec::new();
        let houses = self.take_reminder(now);
        if let (Some(houses), Some(deadline)) = (houses, self.deadline) {
            events.push(Event::Reminded { houses, deadline });
        }
        // The deadline passed and a grace period runs: the houses without orders are
        // told, once, until when the judge waits for them.
        let late = self.take_grace_notice(now);
        if let (Some(houses), Some(deadline), Some(until)) = (late, self.deadline, self.grace_end())
        {
            events.push(Event::GraceRuns {
                houses,
                deadline,
                until,
            });
        }
        self.update_wake(now);
        events
    }
}

/// Where the next phase's deadline is counted from. A phase processed at its deadline
/// counts from the deadline, not from the moment the judge got to it: otherwise a tick a
/// second late would push a 20:00 deadline to the next day's 20:00, and the cadence would
/// drift. But a judge that was stopped for long must not leave the next phase with little
/// or no time: when counting from the old deadline would give less than half a phase from
/// now, it counts from now. Early processing and the moderator's `process` count from now.
pub(super) fn next_base(
    schedule: &Schedule,
    kind: PhaseKind,
    deadline: Option<DateTime<Utc>>,
    trigger: Trigger,
    now: DateTime<Utc>,
) -> DateTime<Utc> {
    match (trigger, deadline) {
        (Trigger::Deadline, Some(d)) if d <= now => {
            let half = schedule.span(kind).as_delta() / 2;
            if schedule.deadline(d, kind, &[]) >= now + half {
                d
            } else {
                now
            }
        }
        _ => now,
    }
}
