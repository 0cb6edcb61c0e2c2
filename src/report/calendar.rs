//! Dates and spans for people: a deadline in the game's zone and the reader's language
//! (`dimanche 22 novembre 2026 à 20:00 (Europe/Paris)`), a span with the letter of days of
//! the language (`1j12h`, `1d12h`).

use chrono::{DateTime, Datelike, Timelike, Utc};
use chrono_tz::Tz;

use crate::game::Game;
use crate::game::calendar::Span;
use crate::lang::Lang;
use crate::say;

const WEEKDAYS: [&str; 7] = [
    "weekday.monday",
    "weekday.tuesday",
    "weekday.wednesday",
    "weekday.thursday",
    "weekday.friday",
    "weekday.saturday",
    "weekday.sunday",
];

const MONTHS: [&str; 12] = [
    "month.january",
    "month.february",
    "month.march",
    "month.april",
    "month.may",
    "month.june",
    "month.july",
    "month.august",
    "month.september",
    "month.october",
    "month.november",
    "month.december",
];

/// A deadline for people, in the game's zone, to the minute (seconds are dropped):
/// `dimanche 22 novembre 2026 à 20:00 (Europe/Paris)`, `dimanche 1er novembre …`,
/// `Sunday 22 November 2026 at 20:00 (Europe/Paris)`.
pub fn format_deadline(t: DateTime<Utc>, tz: Tz, lang: Lang) -> String {
    let local = t.with_timezone(&tz);
    let weekday = local.weekday().num_days_from_monday() as usize;
    let month = local.month0() as usize;
    let (day, year) = (local.day(), local.year());
    let (hour, minute) = (local.hour(), local.minute());
    let weekday = crate::wording::text(lang, WEEKDAYS[weekday], &[]);
    let month = crate::wording::text(lang, MONTHS[month], &[]);
    say!(
        lang,
        "deadline.text",
        weekday,
        day,
        month,
        year,
        time = format!("{hour:02}:{minute:02}"),
        zone = tz.name()
    )
}

impl Game {
    /// The deadline for people, or "none".
    pub fn deadline_text(&self, lang: Lang) -> String {
        match self.deadline() {
            Some(d) => format_deadline(d, self.settings().schedule.time_zone, lang),
            None => say!(lang, "lifecycle.none"),
        }
    }
}

impl Span {
    /// The span in a language's short form: `1j12h` in French, `1d12h` in English.
    pub fn text(self, lang: Lang) -> String {
        self.written(&say!(lang, "span.day_unit"))
    }
}
