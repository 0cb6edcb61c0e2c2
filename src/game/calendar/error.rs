//! Why a moderator's span, days, time, date, zone or schedule was refused, in French or
//! English, with what was expected and an example.

use crate::judge::PhaseKind;
use crate::lang::Lang;

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

    /// The message for a moderator: what was wrong, what is expected, an example.
    pub fn message(&self, lang: Lang) -> String {
        match lang {
            Lang::Fr => self.french(),
            Lang::En => self.english(),
        }
    }

    fn french(&self) -> String {
        let fr = |span: &Span| span.text(Lang::Fr);
        match self {
            CalendarError::InvalidSpan { input } => format!(
                "durée « {input} » incomprise : on attend un nombre suivi d'une unité, \
                 par exemple 48h, 2j, 1j12h, 90m ou 1s (une semaine)"
            ),
            CalendarError::UnknownSpanUnit { input, unit } => format!(
                "unité « {unit} » inconnue dans la durée « {input} » : utilisez s (semaine), \
                 j (jour), h (heure) ou m (minute), par exemple 1j12h"
            ),
            CalendarError::SpanTooLong { input } => {
                format!("durée « {input} » trop longue : au plus 365 jours (365j)")
            }
            CalendarError::UnknownWeekday {
                input,
                word,
                nearest,
            } => format!(
                "jour « {word} » inconnu dans « {input} »{} : on attend des jours comme \
                 lun-ven, lun,mer,ven, sam,dim ou tous",
                nearest.map_or(String::new(), |n| format!(" (vouliez-vous dire « {n} » ?)"))
            ),
            CalendarError::NoWeekday => "aucun jour n'est permis pour les dates limites : \
                 donnez au moins un jour, par exemple lun-ven ou tous"
                .to_string(),
            CalendarError::InvalidTimeOfDay { input } => format!(
                "heure « {input} » incomprise : on attend une heure entre 00:00 et 23:59, \
                 par exemple 20:00, 20h, 20h30 ou 8:30"
            ),
            CalendarError::InvalidDateTime { input } => format!(
                "date « {input} » incomprise : on attend par exemple 2026-11-22 20:00, \
                 22/11/2026 20h, 2026-11-22 (minuit) ou 2026-11-22T20:00:00+01:00"
            ),
            CalendarError::UnknownTimeZone { input, nearest } => format!(
                "fuseau horaire « {input} » inconnu{} : on attend un nom IANA comme \
                 Europe/Paris, America/New_York ou UTC",
                nearest.map_or(String::new(), |n| format!(" (vouliez-vous dire {n} ?)"))
            ),
            CalendarError::ZeroPhase { kind } => format!(
                "une phase {} ne peut pas durer 0 : donnez une durée, par exemple 2j",
                match kind {
                    PhaseKind::Movement => "de mouvements",
                    PhaseKind::Retreat => "de retraites",
                    PhaseKind::Adjustment => "d'ajustements",
                }
            ),
            CalendarError::InvalidReminder { reminder, longest } => format!(
                "rappel {} avant la date limite impossible : un rappel doit être de plus \
                 de 0 et de moins que la plus longue phase ({}), par exemple 1j",
                fr(reminder),
                fr(longest)
            ),
            CalendarError::ExtensionTooLong { by, already, max } => {
                let left = max.as_minutes().saturating_sub(already.as_minutes());
                let left = if left == 0 {
                    "aucune prolongation n'est plus possible".to_string()
                } else {
                    format!(
                        "on peut encore prolonger de {} au plus",
                        fr(&Span::minutes(left))
                    )
                };
                format!(
                    "prolongation de {} refusée : cette phase a déjà été prolongée de {} et \
                     le total ne peut dépasser {} ; {left}",
                    fr(by),
                    fr(already),
                    fr(max)
                )
            }
        }
    }

    fn english(&self) -> String {
        match self {
            CalendarError::InvalidSpan { input } => format!(
                "cannot read the span `{input}`: expected a number and a unit, \
                 such as 48h, 2d, 1d12h, 90m or 1w"
            ),
            CalendarError::UnknownSpanUnit { input, unit } => format!(
                "unknown unit `{unit}` in the span `{input}`: use w (week), d (day), \
                 h (hour) or m (minute), e.g. 1d12h"
            ),
            CalendarError::SpanTooLong { input } => {
                format!("the span `{input}` is too long: at most 365 days (365d)")
            }
            CalendarError::UnknownWeekday {
                input,
                word,
                nearest,
            } => format!(
                "unknown day `{word}` in `{input}`{}: expected days such as \
                 mon-fri, mon,wed,fri, sat,sun or all",
                nearest.map_or(String::new(), |n| format!(" (did you mean `{n}`?)"))
            ),
            CalendarError::NoWeekday => "no day is allowed for deadlines: \
                 give at least one day, e.g. mon-fri or all"
                .to_string(),
            CalendarError::InvalidTimeOfDay { input } => format!(
                "cannot read the time of day `{input}`: expected a time from 00:00 to 23:59, \
                 such as 20:00, 20h, 20h30 or 8:30"
            ),
            CalendarError::InvalidDateTime { input } => format!(
                "cannot read the date `{input}`: expected e.g. 2026-11-22 20:00, \
                 22/11/2026 20h, 2026-11-22 (midnight) or 2026-11-22T20:00:00+01:00"
            ),
            CalendarError::UnknownTimeZone { input, nearest } => format!(
                "unknown time zone `{input}`{}: expected an IANA name such as \
                 Europe/Paris, America/New_York or UTC",
                nearest.map_or(String::new(), |n| format!(" (did you mean {n}?)"))
            ),
            CalendarError::ZeroPhase { kind } => format!(
                "a {} phase cannot last 0: give a span, e.g. 2d",
                match kind {
                    PhaseKind::Movement => "movement",
                    PhaseKind::Retreat => "retreat",
                    PhaseKind::Adjustment => "adjustment",
                }
            ),
            CalendarError::InvalidReminder { reminder, longest } => format!(
                "a reminder {reminder} before the deadline cannot be sent: a reminder must be \
                 more than 0 and less than the longest phase ({longest}), e.g. 1d"
            ),
            CalendarError::ExtensionTooLong { by, already, max } => {
                let left = max.as_minutes().saturating_sub(already.as_minutes());
                let left = if left == 0 {
                    "no further extension is possible".to_string()
                } else {
                    format!("at most {} more is possible", Span::minutes(left))
                };
                format!(
                    "cannot extend by {by}: this phase was already extended by {already} and \
                     the total may not exceed {max}; {left}"
                )
            }
        }
    }
}
