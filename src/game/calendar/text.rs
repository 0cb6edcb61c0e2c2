//! The dates, times and zones moderators write (`report` writes deadlines for people).

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use chrono_tz::{TZ_VARIANTS, Tz};

use super::{CalendarError, resolve};

/// Parses a moderator's date and time in the game's zone: `2026-11-22 20:00`,
/// `2026-11-22T20:00`, `2026-11-22` (midnight local), `22/11/2026 20h30`, `22/11/2026 à 20h`,
/// or RFC 3339 with an offset (`2026-11-22T20:00:00+01:00`, `…Z`), which ignores the zone.
///
/// A local time in a spring-forward gap becomes the first instant after the gap, and one
/// in an autumn fold the earlier of its two instants (as everywhere in the calendar).
pub fn parse_local_time(s: &str, tz: Tz) -> Result<DateTime<Utc>, CalendarError> {
    if let Ok(t) = DateTime::parse_from_rfc3339(s.trim()) {
        return Ok(t.with_timezone(&Utc));
    }
    parse_wall_time(s).map(|local| resolve(tz, local))
}

/// Parses a moderator's date and time as a wall-clock time, with no zone: the forms of
/// [`parse_local_time`] but RFC 3339 with an offset (a wall time has none).
pub fn parse_wall_time(s: &str) -> Result<NaiveDateTime, CalendarError> {
    let invalid = || CalendarError::InvalidDateTime {
        input: s.trim().to_string(),
    };
    let text = s.trim();
    // `2026-11-22T20:00`: the T after an ISO date separates it from the time.
    let text = match text.as_bytes().get(10) {
        Some(b'T' | b't') if text.is_char_boundary(10) && text.is_char_boundary(11) => {
            format!("{} {}", &text[..10], &text[11..])
        }
        _ => text.to_string(),
    };
    let mut words = text
        .split_whitespace()
        .filter(|w| !matches!(w.to_lowercase().as_str(), "à" | "a" | "at"));
    let date_word = words.next().ok_or_else(invalid)?;
    let date = NaiveDate::parse_from_str(date_word, "%Y-%m-%d")
        .or_else(|_| NaiveDate::parse_from_str(date_word, "%d/%m/%Y"))
        .map_err(|_| invalid())?;
    let time_words: String = words.collect();
    let time = if time_words.is_empty() {
        NaiveTime::MIN
    } else {
        parse_time_of_day(&time_words).map_err(|_| invalid())?
    };
    Ok(date.and_time(time))
}

/// Parses a time zone: an IANA name in any case (`Europe/Paris`, `europe/paris`, `UTC`), or a
/// city alone when one zone has it (`Paris`, `new york`); otherwise an error suggesting the
/// nearest name.
pub fn parse_time_zone(s: &str) -> Result<Tz, CalendarError> {
    let text = s.trim();
    if let Ok(tz) = text.parse::<Tz>() {
        return Ok(tz);
    }
    let wanted = text.to_lowercase().replace(' ', "_");
    let city = |tz: &Tz| tz.name().rsplit('/').next().unwrap_or("").to_lowercase();
    if let Some(tz) = TZ_VARIANTS
        .iter()
        .find(|tz| tz.name().to_lowercase() == wanted)
    {
        return Ok(*tz);
    }
    let mut by_city = TZ_VARIANTS.iter().filter(|tz| city(tz) == wanted);
    if let (Some(tz), None) = (by_city.next(), by_city.next()) {
        return Ok(*tz);
    }
    // Each zone by its whole name (`europe/paris`) and by its city (`paris`).
    let names: Vec<(String, &'static str)> = TZ_VARIANTS
        .iter()
        .flat_map(|tz| [(tz.name().to_lowercase(), tz.name()), (city(tz), tz.name())])
        .collect();
    let nearest = crate::map::nearest_of(
        &wanted,
        names.iter().map(|(name, zone)| (name.as_str(), *zone)),
        0.8,
    );
    Err(CalendarError::UnknownTimeZone {
        input: text.to_string(),
        nearest,
    })
}

/// Parses a time of day: `20:00`, `8:30`, `20:00:00`, `20h`, `20h30`, `20 h 30`, `20H30`.
pub fn parse_time_of_day(s: &str) -> Result<NaiveTime, CalendarError> {
    let invalid = || CalendarError::InvalidTimeOfDay {
        input: s.trim().to_string(),
    };
    let text: String = s.split_whitespace().collect::<String>().to_lowercase();
    let Some(split) = text.find([':', 'h']) else {
        return Err(invalid());
    };
    let (hours, rest) = text.split_at(split);
    let (separator, rest) = rest.split_at(1);
    let (minutes, seconds) = match rest.split_once(':') {
        Some((minutes, seconds)) if separator == ":" => (minutes, seconds),
        _ if separator == "h" && rest.is_empty() => ("00", "00"),
        _ => (rest, "00"),
    };
    let number = |digits: &str, lengths: &[usize]| -> Option<u32> {
        if lengths.contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit()) {
            digits.parse().ok()
        } else {
            None
        }
    };
    let (Some(h), Some(m), Some(sec)) = (
        number(hours, &[1, 2]),
        number(minutes, &[2]),
        number(seconds, &[2]),
    ) else {
        return Err(invalid());
    };
    NaiveTime::from_hms_opt(h, m, sec).ok_or_else(invalid)
}
