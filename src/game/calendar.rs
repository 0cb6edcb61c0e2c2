//! The deadline calendar of a game: when each phase ends, in the game's time zone, on the
//! allowed days and at the time of day, pushed past declared absences, extended by the
//! moderator, with reminders before. Every choice is in docs/deadlines.md.
//!
//! Pure functions of their arguments: the clock is never read here.

mod error;
mod text;
mod weekdays;

pub use super::span::Span;
pub use error::CalendarError;
pub use text::{parse_local_time, parse_time_of_day, parse_time_zone, parse_wall_time};
pub use weekdays::Weekdays;

use chrono::{DateTime, Datelike, Days, NaiveDate, NaiveDateTime, NaiveTime, TimeDelta, Utc};
use chrono::{Offset, TimeZone};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use crate::judge::PhaseKind;

/// When the phases of one game end. Fields left out of a serialized schedule take their
/// [`Default`] value.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
#[serde(default)]
pub struct Schedule {
    /// The zone deadlines are reckoned and shown in; serde as its IANA name (`Europe/Paris`).
    pub time_zone: Tz,
    /// The length of a movement phase.
    pub movement: Span,
    /// The length of a retreat phase.
    pub retreat: Span,
    /// The length of an adjustment phase.
    pub adjustment: Span,
    /// Deadlines are moved forward to this local time (serde `"20:00:00"`; `"20:00"` reads).
    pub time_of_day: Option<NaiveTime>,
    /// The days a deadline may fall on (local days).
    pub weekdays: Weekdays,
    /// After the deadline, how long to wait for missing orders before processing anyway.
    pub grace: Span,
    /// Players without orders are reminded this long before the deadline.
    pub reminders: Vec<Span>,
    /// How far declared absences may push one deadline, in total.
    pub max_absence: Span,
    /// How far one phase's deadline may be extended, in total.
    pub max_extension: Span,
}

impl Default for Schedule {
    /// An email game in France: Europe/Paris, movement 2 days, retreats and adjustments 1
    /// day, deadlines at 20:00 any day, no grace, a reminder 1 day before, absences push a
    /// deadline by 7 days at most and extensions by 3 days at most.
    fn default() -> Schedule {
        Schedule {
            time_zone: Tz::Europe__Paris,
            movement: Span::days(2),
            retreat: Span::days(1),
            adjustment: Span::days(1),
            time_of_day: NaiveTime::from_hms_opt(20, 0, 0),
            weekdays: Weekdays::ALL,
            grace: Span::ZERO,
            reminders: vec![Span::days(1)],
            max_absence: Span::days(7),
            max_extension: Span::days(3),
        }
    }
}

/// A player's declared absence, from `start` (included) to `end` (excluded), in UTC.
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct Absence {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

impl Absence {
    /// Whether the instant falls inside the absence (an empty or reversed one holds none).
    pub fn contains(&self, t: DateTime<Utc>) -> bool {
        self.start <= t && t < self.end
    }
}

impl Schedule {
    /// The length of a phase of this kind.
    pub fn span(&self, kind: PhaseKind) -> Span {
        match kind {
            PhaseKind::Movement => self.movement,
            PhaseKind::Retreat => self.retreat,
            PhaseKind::Adjustment => self.adjustment,
        }
    }

    /// The deadline of a phase of `kind` opened at `opened`: `after(opened, span)` moved
    /// forward by [`snap`](Schedule::snap); then, while it falls inside an absence, `snap` of
    /// that absence's end. If absences would push it more than `max_absence` past the
    /// deadline without absences (`base`), it is the latest allowed instant no later than
    /// `after(base, max_absence)` (and never before `base`).
    pub fn deadline(
        &self,
        opened: DateTime<Utc>,
        kind: PhaseKind,
        absences: &[Absence],
    ) -> DateTime<Utc> {
        let base = self.snap(self.after(opened, self.span(kind)));
        self.past_absences(base, base, absences)
    }

    /// A deadline moved past the absences it falls inside, whatever set it (a new phase, an
    /// extension, a resume): while it falls inside an absence, `snap` of that absence's end;
    /// never more than `max_absence` past `base`, the deadline before any absence moved it
    /// (then the latest allowed instant no later than `after(base, max_absence)`, and never
    /// before `deadline`).
    pub fn past_absences(
        &self,
        deadline: DateTime<Utc>,
        base: DateTime<Utc>,
        absences: &[Absence],
    ) -> DateTime<Utc> {
        let limit = self.after(base, self.max_absence);
        let mut moved = deadline;
        // Each push leaves the absence for good (the deadline only grows past its end), so
        // the loop pushes at most once per absence.
        while let Some(absence) = absences.iter().find(|a| a.contains(moved)) {
            moved = self.snap(absence.end);
            if moved > limit {
                return self.snap_back(limit).max(deadline);
            }
        }
        moved
    }

    /// The first allowed instant at or after `t`. With a time of day: that local time on the
    /// first allowed day where it is not before `t`; without: `t` itself on an allowed day,
    /// otherwise local midnight starting the next allowed day. A local time in a
    /// spring-forward gap is the first instant after the gap; one in an autumn fold is the
    /// earlier of its two instants (the later one is not allowed). No weekday at all counts
    /// as every day (see [`Schedule::validate`]).
    pub fn snap(&self, t: DateTime<Utc>) -> DateTime<Utc> {
        let date = self.local(t).date();
        match self.time_of_day {
            Some(time) => (-1..=8)
                .filter_map(|i| self.allowed_day(date, i))
                .map(|day| resolve(self.time_zone, day.and_time(time)))
                .find(|candidate| *candidate >= t)
                .unwrap_or(t),
            None if self.allows(date) => t,
            None => (1..=7)
                .filter_map(|i| self.allowed_day(date, i))
                .map(|day| resolve(self.time_zone, day.and_time(NaiveTime::MIN)))
                .next()
                .unwrap_or(t),
        }
    }

    /// A deadline extended by `by`, given how much this phase was already extended; refused
    /// when `already + by` exceeds `max_extension`. The result is [`after`](Schedule::after)
    /// the deadline by `by`, not snapped: an extension is exact.
    pub fn extend(
        &self,
        deadline: DateTime<Utc>,
        by: Span,
        already: Span,
    ) -> Result<DateTime<Utc>, CalendarError> {
        let total = u64::from(already.as_minutes()) + u64::from(by.as_minutes());
        if total > u64::from(self.max_extension.as_minutes()) {
            return Err(CalendarError::ExtensionTooLong {
                by,
                already,
                max: self.max_extension,
            });
        }
        Ok(self.after(deadline, by))
    }

    /// When to remind players without orders, earliest first: each reminder span
    /// [`before`](Schedule::before) the deadline, leaving out those at or before `opened`
    /// (or at the deadline), without duplicates.
    pub fn reminder_times(
        &self,
        opened: DateTime<Utc>,
        deadline: DateTime<Utc>,
    ) -> Vec<DateTime<Utc>> {
        let mut times: Vec<DateTime<Utc>> = self
            .reminders
            .iter()
            .map(|span| self.before(deadline, *span))
            .filter(|t| opened < *t && *t < deadline)
            .collect();
        times.sort();
        times.dedup();
        times
    }

    /// When the judge stops waiting for missing orders: the deadline plus the grace period.
    pub fn grace_end(&self, deadline: DateTime<Utc>) -> DateTime<Utc> {
        self.after(deadline, self.grace)
    }

    /// Checks the schedule makes sense: every phase lasts more than zero, at least one
    /// weekday is allowed, and every reminder is more than zero and less than the longest
    /// phase. The first problem found is returned.
    pub fn validate(&self) -> Result<(), CalendarError> {
        for kind in [
            PhaseKind::Movement,
            PhaseKind::Retreat,
            PhaseKind::Adjustment,
        ] {
            if self.span(kind).is_zero() {
                return Err(CalendarError::ZeroPhase { kind });
            }
        }
        if self.weekdays.is_empty() {
            return Err(CalendarError::NoWeekday);
        }
        let longest = self.movement.max(self.retreat).max(self.adjustment);
        if let Some(reminder) = self
            .reminders
            .iter()
            .find(|r| r.is_zero() || **r >= longest)
        {
            return Err(CalendarError::InvalidReminder {
                reminder: *reminder,
                longest,
            });
        }
        Ok(())
    }

    /// `t` plus a span as the game's wall clock counts it: the whole days first, on the local
    /// calendar (same local time, whatever a clock change in between), then the remaining
    /// hours and minutes exactly. `after(Saturday 20:00, 2d)` is Monday 20:00 even across a
    /// clock change (47 or 49 hours); `after(t, 90m)` is always 90 minutes later.
    pub fn after(&self, t: DateTime<Utc>, span: Span) -> DateTime<Utc> {
        let (days, rest) = span.split_days();
        let moved = if days == 0 {
            t
        } else {
            match self.local(t).checked_add_days(Days::new(u64::from(days))) {
                Some(local) => resolve(self.time_zone, local),
                None => DateTime::<Utc>::MAX_UTC,
            }
        };
        plus(moved, TimeDelta::minutes(i64::from(rest)))
    }

    /// `t` minus a span, the inverse of [`after`](Schedule::after): the hours and minutes
    /// exactly first, then the whole days on the local calendar.
    pub fn before(&self, t: DateTime<Utc>, span: Span) -> DateTime<Utc> {
        let (days, rest) = span.split_days();
        let moved = plus(t, -TimeDelta::minutes(i64::from(rest)));
        if days == 0 {
            return moved;
        }
        match self
            .local(moved)
            .checked_sub_days(Days::new(u64::from(days)))
        {
            Some(local) => resolve(self.time_zone, local),
            None => DateTime::<Utc>::MIN_UTC,
        }
    }

    /// The latest allowed instant at or before `t` (the mirror of `snap`); without a time of
    /// day, on a day not allowed, it is 23:59 local of the last allowed day.
    fn snap_back(&self, t: DateTime<Utc>) -> DateTime<Utc> {
        let date = self.local(t).date();
        let last_minute = NaiveTime::from_hms_opt(23, 59, 0).unwrap_or(NaiveTime::MIN);
        match self.time_of_day {
            Some(time) => (-8..=1)
                .rev()
                .filter_map(|i| self.allowed_day(date, i))
                .map(|day| resolve(self.time_zone, day.and_time(time)))
                .find(|candidate| *candidate <= t)
                .unwrap_or(t),
            None if self.allows(date) => t,
            None => (-7..=-1)
                .rev()
                .filter_map(|i| self.allowed_day(date, i))
                .map(|day| resolve(self.time_zone, day.and_time(last_minute)))
                .next()
                .unwrap_or(t),
        }
    }

    /// The instant of a wall-clock time in the game's zone (in a spring-forward gap: the
    /// first instant after it; in an autumn fold: the earlier of its two instants).
    pub fn instant(&self, local: NaiveDateTime) -> DateTime<Utc> {
        resolve(self.time_zone, local)
    }

    /// The wall-clock time of an instant in the game's zone.
    fn local(&self, t: DateTime<Utc>) -> NaiveDateTime {
        t.with_timezone(&self.time_zone).naive_local()
    }

    /// Whether a deadline may fall on this local date (no weekday at all counts as every day).
    fn allows(&self, date: NaiveDate) -> bool {
        self.weekdays.is_empty() || self.weekdays.contains(date.weekday())
    }

    /// The date `offset` days from `date`, if it is an allowed day.
    fn allowed_day(&self, date: NaiveDate, offset: i64) -> Option<NaiveDate> {
        let day = date.checked_add_signed(TimeDelta::try_days(offset)?)?;
        self.allows(day).then_some(day)
    }
}

/// `t + delta`, saturating at the ends of chrono's range instead of panicking.
fn plus(t: DateTime<Utc>, delta: TimeDelta) -> DateTime<Utc> {
    t.checked_add_signed(delta)
        .unwrap_or(if delta > TimeDelta::zero() {
            DateTime::<Utc>::MAX_UTC
        } else {
            DateTime::<Utc>::MIN_UTC
        })
}

/// The instant of a local time in a zone: the earlier of two in an autumn fold, the first
/// instant after the gap for a time skipped by a spring-forward change.
fn resolve(tz: Tz, local: NaiveDateTime) -> DateTime<Utc> {
    match tz.from_local_datetime(&local) {
        chrono::LocalResult::Single(t) => t.with_timezone(&Utc),
        chrono::LocalResult::Ambiguous(a, b) => a.min(b).with_timezone(&Utc),
        chrono::LocalResult::None => gap_end(tz, local),
    }
}

/// The first instant whose wall time is at or after `local`, a time inside a gap: the instant
/// the clock jumped. The offsets a day before and a day after bound it; a binary search on
/// seconds finds it.
fn gap_end(tz: Tz, local: NaiveDateTime) -> DateTime<Utc> {
    let offset_at = |t: DateTime<Utc>| {
        i64::from(
            tz.offset_from_utc_datetime(&t.naive_utc())
                .fix()
                .local_minus_utc(),
        )
    };
    let guess = local.and_utc();
    let (before, after) = (
        offset_at(plus(guess, -TimeDelta::days(1))),
        offset_at(plus(guess, TimeDelta::days(1))),
    );
    let low = guess.timestamp() - before.max(after);
    let high = guess.timestamp() - before.min(after);
    let wall_reaches = |secs: i64| {
        DateTime::from_timestamp(secs, 0)
            .is_some_and(|t| tz.from_utc_datetime(&t.naive_utc()).naive_local() >= local)
    };
    let (mut low, mut high) = (low, high);
    while low < high {
        let middle = low + (high - low) / 2;
        if wall_reaches(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    DateTime::from_timestamp(high, 0).unwrap_or(guess)
}
