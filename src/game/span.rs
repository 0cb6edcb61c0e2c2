//! A span of time as a moderator writes it ("48h", "2j", "1d12h"): the length of a phase,
//! a grace period, a reminder, an extension. Rules: docs/deadlines.md.

use std::fmt;
use std::str::FromStr;

use chrono::TimeDelta;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::calendar::CalendarError;

const MINUTES_PER_HOUR: u32 = 60;
const MINUTES_PER_DAY: u32 = 24 * MINUTES_PER_HOUR;
const MINUTES_PER_WEEK: u32 = 7 * MINUTES_PER_DAY;

/// A whole number of minutes, from zero to 365 days: "48h", "2d", "2j", "1d12h", "90m", "1w".
///
/// Displays in the canonical short form, in days, hours and minutes (`1d12h`, `2d`, `90m`
/// prints as `1h30m`, zero as `0h`); serde uses that string.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Span(u32);

/// The units a moderator may write, with their length in minutes (French and English).
const UNITS: &[(&str, u32)] = &[
    ("w", MINUTES_PER_WEEK),
    ("wk", MINUTES_PER_WEEK),
    ("week", MINUTES_PER_WEEK),
    ("weeks", MINUTES_PER_WEEK),
    ("s", MINUTES_PER_WEEK),
    ("sem", MINUTES_PER_WEEK),
    ("semaine", MINUTES_PER_WEEK),
    ("semaines", MINUTES_PER_WEEK),
    ("d", MINUTES_PER_DAY),
    ("day", MINUTES_PER_DAY),
    ("days", MINUTES_PER_DAY),
    ("j", MINUTES_PER_DAY),
    ("jour", MINUTES_PER_DAY),
    ("jours", MINUTES_PER_DAY),
    ("h", MINUTES_PER_HOUR),
    ("hr", MINUTES_PER_HOUR),
    ("hrs", MINUTES_PER_HOUR),
    ("hour", MINUTES_PER_HOUR),
    ("hours", MINUTES_PER_HOUR),
    ("heure", MINUTES_PER_HOUR),
    ("heures", MINUTES_PER_HOUR),
    ("m", 1),
    ("mn", 1),
    ("min", 1),
    ("mins", 1),
    ("minute", 1),
    ("minutes", 1),
];

impl Span {
    /// No time at all (a grace period of none).
    pub const ZERO: Span = Span(0);
    /// The longest span: 365 days.
    pub const MAX: Span = Span(365 * MINUTES_PER_DAY);

    /// A span of `n` minutes, saturating at [`Span::MAX`].
    pub const fn minutes(n: u32) -> Span {
        if n > Span::MAX.0 { Span::MAX } else { Span(n) }
    }

    /// A span of `n` hours, saturating at [`Span::MAX`].
    pub const fn hours(n: u32) -> Span {
        Span::minutes(n.saturating_mul(MINUTES_PER_HOUR))
    }

    /// A span of `n` days of 24 hours, saturating at [`Span::MAX`].
    pub const fn days(n: u32) -> Span {
        Span::minutes(n.saturating_mul(MINUTES_PER_DAY))
    }

    /// The span as a chrono duration.
    pub fn as_delta(self) -> TimeDelta {
        TimeDelta::minutes(i64::from(self.0))
    }

    /// The length in minutes.
    pub const fn as_minutes(self) -> u32 {
        self.0
    }

    /// Whether the span is zero.
    pub const fn is_zero(self) -> bool {
        self.0 == 0
    }

    /// The whole days of the span (what [`Schedule::after`](super::calendar::Schedule::after)
    /// counts on the calendar) and the rest, in minutes.
    pub const fn split_days(self) -> (u32, u32) {
        (self.0 / MINUTES_PER_DAY, self.0 % MINUTES_PER_DAY)
    }

    /// The sum of two spans, or None beyond [`Span::MAX`].
    pub const fn checked_add(self, other: Span) -> Option<Span> {
        let sum = self.0 as u64 + other.0 as u64;
        if sum > Span::MAX.0 as u64 {
            None
        } else {
            Some(Span(sum as u32))
        }
    }

    /// The span with `day` as the letter of days (the other units are the same in French
    /// and English): `report` gives the letter of a language (`Span::text`).
    pub fn written(self, day: &str) -> String {
        let (days, rest) = self.split_days();
        let (hours, minutes) = (rest / MINUTES_PER_HOUR, rest % MINUTES_PER_HOUR);
        let mut out = String::new();
        if days > 0 {
            out.push_str(&format!("{days}{day}"));
        }
        if hours > 0 {
            out.push_str(&format!("{hours}h"));
        }
        if minutes > 0 {
            out.push_str(&format!("{minutes}m"));
        }
        if out.is_empty() {
            out.push_str("0h");
        }
        out
    }
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The stored and English form, never a moderator's wording.
        f.write_str(&self.written("d"))
    }
}

impl fmt::Debug for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Span({self})")
    }
}

impl FromStr for Span {
    type Err = CalendarError;

    /// Reads numbers each followed by a unit, in any case, spaces allowed: `48h`, `2 jours`,
    /// `1d 12h`, `1s` (semaine) or `1w`, and `0` alone. The parts add up.
    fn from_str(input: &str) -> Result<Span, CalendarError> {
        let invalid = || CalendarError::InvalidSpan {
            input: input.trim().to_string(),
        };
        let text = input.trim().to_lowercase();
        if text == "0" {
            return Ok(Span::ZERO);
        }
        let mut rest = text.as_str();
        let mut total: u64 = 0;
        if rest.is_empty() {
            return Err(invalid());
        }
        while !rest.is_empty() {
            let digits_end = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            let (digits, after) = rest.split_at(digits_end);
            if digits.is_empty() {
                return Err(invalid());
            }
            let after = after.trim_start();
            let unit_end = after
                .find(|c: char| !c.is_alphabetic())
                .unwrap_or(after.len());
            let (unit, after) = after.split_at(unit_end);
            if unit.is_empty() {
                return Err(invalid());
            }
            let Some(&(_, per_unit)) = UNITS.iter().find(|(name, _)| *name == unit) else {
                return Err(CalendarError::UnknownSpanUnit {
                    input: input.trim().to_string(),
                    unit: unit.to_string(),
                });
            };
            // More than nine digits is beyond any span we accept, and would overflow.
            let too_long = || CalendarError::SpanTooLong {
                input: input.trim().to_string(),
            };
            if digits.len() > 9 {
                return Err(too_long());
            }
            let number: u64 = digits.parse().map_err(|_| invalid())?;
            total += number * u64::from(per_unit);
            if total > u64::from(Span::MAX.0) {
                return Err(too_long());
            }
            rest = after.trim_start();
        }
        u32::try_from(total)
            .map(Span)
            .map_err(|_| CalendarError::SpanTooLong {
                input: input.trim().to_string(),
            })
    }
}

impl Serialize for Span {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Span {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Span, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_form_uses_days_hours_minutes() {
        assert_eq!(Span::minutes(90).to_string(), "1h30m");
        assert_eq!(Span::hours(36).to_string(), "1d12h");
        assert_eq!(Span::days(7).written("j"), "7j");
        assert_eq!(Span::ZERO.to_string(), "0h");
    }

    #[test]
    fn constructors_saturate() {
        assert_eq!(Span::days(400), Span::MAX);
        assert_eq!(Span::hours(u32::MAX), Span::MAX);
        assert_eq!(Span::MAX.checked_add(Span::minutes(1)), None);
    }
}
