//! Why a moderator's span, days, time, date, zone or schedule was refused, in French or
//! English, with what was expected and an example.

use crate::judge::PhaseKind;
use crate::lang::Lang;
use crate::say;

use super::Span;

/// A calendar setting or input that corbeau cannot use.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CalendarError {
    /// Not a span: no number, or a number without a unit (`48`, `deux jours`).
    #[error("{}", self.message(Lang::En))]
    InvalidSpan { input: String },
    /// A span with a unit that is none of w/s, d/j, h, m (`2x`).
    #[error("{}", self.message(Lang::En))]
    UnknownSpanUnit { input: String, unit: String },
    /// A span longer than [`Span::MAX`] (365 days).
    #[error("{}", self.message(Lang::En))]
    SpanTooLong { input: String },
    /// A word that is no day of the week in a list of days (`lun-vne`).
    #[error("{}", self.message(Lang::En))]
    UnknownWeekday {
        input: String,
        word: String,
        /// The nearest day name, if one is close.
        nearest: Option<&'static str>,
    },
    /// A list of days that allows none.
    #[error("{}", self.message(Lang::En))]
    NoWeekday,
    /// Not a time of day (`25h`, `20:7`).
    #[error("{}", self.message(Lang::En))]
    InvalidTimeOfDay { input: String },
    /// Not a date and time (`22 nov`).
    #[error("{}", self.message(Lang::En))]
    InvalidDateTime { input: String },
    /// Not an IANA time zone name.
    #[error("{}", self.message(Lang::En))]
    UnknownTimeZone {
        input: String,
        /// The nearest zone name, if one is close.
        nearest: Option<&'static str>,
    },
    /// A phase of length zero in a schedule.
    #[error("{}", self.message(Lang::En))]
    ZeroPhase { kind: PhaseKind },
    /// A reminder of zero, or one no shorter than the longest phase (never sent).
    #[error("{}", self.message(Lang::En))]
    InvalidReminder { reminder: Span, longest: Span },
    /// An extension that would take the phase's extensions beyond the schedule's maximum.
    #[error("{}", self.message(Lang::En))]
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

    /// The message for a moderator: what was wrong, what is expected, an example; from
    /// the catalogue entry of its [`code`](Self::code).
    pub fn message(&self, lang: Lang) -> String {
        let span = |span: &Span| span.text(lang);
        match self {
            CalendarError::InvalidSpan { input } => say!(lang, "calendar.invalid_span", input),
            CalendarError::UnknownSpanUnit { input, unit } => {
                say!(lang, "calendar.unknown_span_unit", input, unit)
            }
            CalendarError::SpanTooLong { input } => say!(lang, "calendar.span_too_long", input),
            CalendarError::UnknownWeekday {
                input,
                word,
                nearest,
            } => say!(lang, "calendar.unknown_weekday", input, word, nearest),
            CalendarError::NoWeekday => say!(lang, "calendar.no_weekday"),
            CalendarError::InvalidTimeOfDay { input } => {
                say!(lang, "calendar.invalid_time_of_day", input)
            }
            CalendarError::InvalidDateTime { input } => {
                say!(lang, "calendar.invalid_date_time", input)
            }
            CalendarError::UnknownTimeZone { input, nearest } => {
                say!(lang, "calendar.unknown_time_zone", input, nearest)
            }
            CalendarError::ZeroPhase { kind } => {
                let kind = match kind {
                    PhaseKind::Movement => say!(lang, "zero_phase_kind.movement"),
                    PhaseKind::Retreat => say!(lang, "zero_phase_kind.retreat"),
                    PhaseKind::Adjustment => say!(lang, "zero_phase_kind.adjustment"),
                };
                say!(lang, "calendar.zero_phase", kind)
            }
            CalendarError::InvalidReminder { reminder, longest } => say!(
                lang,
                "calendar.invalid_reminder",
                reminder = span(reminder),
                longest = span(longest)
            ),
            CalendarError::ExtensionTooLong { by, already, max } => {
                let left = max.as_minutes().saturating_sub(already.as_minutes());
                let left = (left > 0).then(|| span(&Span::minutes(left)));
                say!(
                    lang,
                    "calendar.extension_too_long",
                    by = span(by),
                    already = span(already),
                    max = span(max),
                    left
                )
            }
        }
    }
}
