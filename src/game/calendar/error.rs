//! Why a moderator's span, days, time, date, zone or schedule was refused, as typed values
//! (`report` words them, with what was expected and an example).

use crate::judge::PhaseKind;

use super::Span;

/// A calendar setting or input that corbeau cannot use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CalendarError {
    /// Not a span: no number, or a number without a unit (`48`, `deux jours`).
    InvalidSpan { input: String },
    /// A span with a unit that is none of w/s, d/j, h, m (`2x`).
    UnknownSpanUnit { input: String, unit: String },
    /// A span longer than [`Span::MAX`] (365 days).
    SpanTooLong { input: String },
    /// A word that is no day of the week in a list of days (`lun-vne`).
    UnknownWeekday {
        input: String,
        word: String,
        /// The nearest day name, if one is close.
        nearest: Option<&'static str>,
    },
    /// A list of days that allows none.
    NoWeekday,
    /// Not a time of day (`25h`, `20:7`).
    InvalidTimeOfDay { input: String },
    /// Not a date and time (`22 nov`).
    InvalidDateTime { input: String },
    /// Not an IANA time zone name.
    UnknownTimeZone {
        input: String,
        /// The nearest zone name, if one is close.
        nearest: Option<&'static str>,
    },
    /// A phase of length zero in a schedule.
    ZeroPhase { kind: PhaseKind },
    /// A reminder of zero, or one no shorter than the longest phase (never sent).
    InvalidReminder { reminder: Span, longest: Span },
    /// An extension that would take the phase's extensions beyond the schedule's maximum.
    ExtensionTooLong { by: Span, already: Span, max: Span },
}

impl CalendarError {
    /// A stable code, for templates and tools (`calendar.invalid_span`).
    pub fn code(&self) -> &'static str {
        match self {
            CalendarError::InvalidSpan { .. } => "calendar.invalid_span",
            CalendarError::UnknownSpanUnit { .. } => "calendar.unknown_span_unit",
            CalendarError::SpanTooLong { .. } => "calendar.span_too_long",
            CalendarError::UnknownWeekday { .. } => "calendar.unknown_weekday",
            CalendarError::NoWeekday => "calendar.no_weekday",
            CalendarError::InvalidTimeOfDay { .. } => "calendar.invalid_time_of_day",
            CalendarError::InvalidDateTime { .. } => "calendar.invalid_date_time",
            CalendarError::UnknownTimeZone { .. } => "calendar.unknown_time_zone",
            CalendarError::ZeroPhase { .. } => "calendar.zero_phase",
            CalendarError::InvalidReminder { .. } => "calendar.invalid_reminder",
            CalendarError::ExtensionTooLong { .. } => "calendar.extension_too_long",
        }
    }
}
