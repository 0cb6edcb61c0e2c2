//! Dates and spans for people: a deadline in the game's zone and the reader's language
//! (`dimanche 22 novembre 2026 à 20:00 (Europe/Paris)`), a span with the letter of days of
//! the language (`1j12h`, `1d12h`).

use std::cell::Cell;

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

thread_local! {
    /// The time zone of the person a mail is being written for, when they chose one
    /// (`SET ZONE`): set around the writing of that one mail ([`for_reader`]).
    static READER_ZONE: Cell<Option<Tz>> = const { Cell::new(None) };
}

/// Writes what `write` writes for a reader of `zone`: every deadline in it is in that
/// zone, the game's own beside it. The zone is the reader's, not an argument of every
/// function that puts a deadline in words: results, notices, replies and the welcome
/// all reach [`format_deadline`] by many paths, and each mail has one reader.
pub fn for_reader<T>(zone: Option<Tz>, write: impl FnOnce() -> T) -> T {
    let before = READER_ZONE.with(|z| z.replace(zone));
    let written = write();
    READER_ZONE.with(|z| z.set(before));
    written
}

/// Sets the reader's zone for what is written next, inside a [`for_reader`] (a mail
/// whose reader is known only once it signs on).
pub fn set_reader(zone: Option<Tz>) {
    READER_ZONE.with(|z| z.set(zone));
}

/// A deadline for people, in the game's zone, to the minute (seconds are dropped):
/// `dimanche 22 novembre 2026 à 20:00 (Europe/Paris)`, `dimanche 1er novembre …`,
/// `Sunday 22 November 2026 at 20:00 (Europe/Paris)`. For a reader who chose a zone of
/// their own ([`for_reader`]), in that zone, the game's time beside it:
/// `Sunday 22 November 2026 at 14:00 (America/New_York; 20:00 in Europe/Paris, the
/// game's time)`.
pub fn format_deadline(t: DateTime<Utc>, tz: Tz, lang: Lang) -> String {
    match READER_ZONE.with(Cell::get).filter(|reader| *reader != tz) {
        Some(reader) => format_for_reader(t, reader, tz, lang),
        None => format_in_zone(t, tz, lang),
    }
}

fn format_for_reader(t: DateTime<Utc>, reader: Tz, game: Tz, lang: Lang) -> String {
    let local = t.with_timezone(&reader);
    let there = t.with_timezone(&game);
    let weekday = local.weekday().num_days_from_monday() as usize;
    let month = local.month0() as usize;
    // The day in the game's zone, when it is another.
    let game_day = (there.date_naive() != local.date_naive()).then(|| {
        let day = there.weekday().num_days_from_monday() as usize;
        crate::wording::text(lang, WEEKDAYS[day], &[])
    });
    say!(
        lang,
        "deadline.reader",
        weekday = crate::wording::text(lang, WEEKDAYS[weekday], &[]),
        day = local.day(),
        month = crate::wording::text(lang, MONTHS[month], &[]),
        year = local.year(),
        time = format!("{:02}:{:02}", local.hour(), local.minute()),
        zone = reader.name(),
        game_day,
        game_time = format!("{:02}:{:02}", there.hour(), there.minute()),
        game_zone = game.name()
    )
}

fn format_in_zone(t: DateTime<Utc>, tz: Tz, lang: Lang) -> String {
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
