//! The days of the week on which a deadline may fall, as a moderator writes them:
//! "lun-ven", "mon,wed,fri", "sam,dim", "tous".

use std::fmt;
use std::str::FromStr;

use chrono::Weekday;
use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::CalendarError;

/// A set of days of the week (bit 0 is Monday).
///
/// Parses day names in French or English, full or in three letters, in any case, separated by
/// commas or spaces; `a-b` is the range from a to b, wrapping over the week end (`ven-lun` is
/// Friday to Monday); `tous`, `all` or `*` is every day. Serde writes the list of lowercase
/// English three-letter names, Monday first (`["mon", "tue"]`), and reads such a list (any
/// name this parser knows) or one string in the parser's syntax (`"lun-ven"`).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Weekdays(u8);

impl Default for Weekdays {
    /// Every day.
    fn default() -> Weekdays {
        Weekdays::ALL
    }
}

/// English three-letter names, Monday first: the serde and Display form.
const SHORT: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

/// Every name a day may be written with, and its number from Monday.
const NAMES: &[(&str, u8)] = &[
    ("mon", 0),
    ("monday", 0),
    ("lun", 0),
    ("lundi", 0),
    ("tue", 1),
    ("tuesday", 1),
    ("mar", 1),
    ("mardi", 1),
    ("wed", 2),
    ("wednesday", 2),
    ("mer", 2),
    ("mercredi", 2),
    ("thu", 3),
    ("thursday", 3),
    ("jeu", 3),
    ("jeudi", 3),
    ("fri", 4),
    ("friday", 4),
    ("ven", 4),
    ("vendredi", 4),
    ("sat", 5),
    ("saturday", 5),
    ("sam", 5),
    ("samedi", 5),
    ("sun", 6),
    ("sunday", 6),
    ("dim", 6),
    ("dimanche", 6),
];

/// Words that mean every day.
const EVERY_DAY: &[&str] = &["tous", "all", "*"];

/// Joining words skipped between days (`sam et dim`).
const FILLERS: &[&str] = &["et", "and"];

impl Weekdays {
    /// Every day of the week.
    pub const ALL: Weekdays = Weekdays(0b111_1111);
    /// No day: refused by [`Schedule::validate`](super::Schedule::validate).
    pub const NONE: Weekdays = Weekdays(0);
    /// Monday to Friday.
    pub const WORKDAYS: Weekdays = Weekdays(0b001_1111);

    /// The set holding these days.
    pub fn from_days(days: &[Weekday]) -> Weekdays {
        days.iter().fold(Weekdays::NONE, |set, day| set.with(*day))
    }

    /// The same set with one more day.
    pub fn with(self, day: Weekday) -> Weekdays {
        Weekdays(self.0 | 1 << day.num_days_from_monday())
    }

    /// Whether a deadline may fall on this day.
    pub fn contains(self, day: Weekday) -> bool {
        self.0 & (1 << day.num_days_from_monday()) != 0
    }

    /// Whether no day is allowed.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The days in the set, Monday first.
    pub fn days(self) -> impl Iterator<Item = Weekday> {
        (0u8..7)
            .filter(move |n| self.0 & (1 << n) != 0)
            .filter_map(|n| Weekday::try_from(n).ok())
    }

    /// The number (from Monday) of a day name, or an error naming the nearest one.
    fn parse_day(word: &str, input: &str) -> Result<u8, CalendarError> {
        let word = word.trim_end_matches('.');
        if let Some(&(_, n)) = NAMES.iter().find(|(name, _)| *name == word) {
            return Ok(n);
        }
        // A word of three letters or fewer is an abbreviation: it is compared with the
        // abbreviations only (else `vne` would be taken for `vendredi`, which shares its
        // first letter and more, rather than for `ven`).
        let short = word.chars().count() <= 3;
        let candidates = NAMES
            .iter()
            .filter(|(name, _)| !short || name.len() <= 3)
            .map(|(name, _)| (*name, *name));
        let nearest = crate::map::nearest_of(word, candidates, 0.6);
        Err(CalendarError::UnknownWeekday {
            input: input.trim().to_string(),
            word: word.to_string(),
            nearest,
        })
    }

    /// The days of one word: a name, a range `a-b`, or a word for every day.
    fn parse_word(word: &str, input: &str) -> Result<Weekdays, CalendarError> {
        if EVERY_DAY.contains(&word) {
            return Ok(Weekdays::ALL);
        }
        let Some((from, to)) = word.split_once('-') else {
            return Weekdays::parse_day(word, input).map(|n| Weekdays(1 << n));
        };
        let (from, to) = (
            Weekdays::parse_day(from, input)?,
            Weekdays::parse_day(to, input)?,
        );
        let mut set = 0u8;
        let mut day = from;
        loop {
            set |= 1 << day;
            if day == to {
                break;
            }
            day = (day + 1) % 7;
        }
        Ok(Weekdays(set))
    }
}

impl FromStr for Weekdays {
    type Err = CalendarError;

    fn from_str(input: &str) -> Result<Weekdays, CalendarError> {
        // "lun - ven" is one range: drop the spaces around dashes before splitting on spaces.
        let mut text = input.to_lowercase().replace('\t', " ");
        while text.contains(" -") || text.contains("- ") {
            text = text.replace(" -", "-").replace("- ", "-");
        }
        let mut set = Weekdays::NONE;
        for word in text
            .split(|c: char| c == ',' || c == ';' || c == '/' || c.is_whitespace())
            .filter(|w| !w.is_empty() && !FILLERS.contains(w))
        {
            set = Weekdays(set.0 | Weekdays::parse_word(word, input)?.0);
        }
        if set.is_empty() {
            return Err(CalendarError::NoWeekday);
        }
        Ok(set)
    }
}

impl fmt::Display for Weekdays {
    /// `mon,tue,wed`: the English three-letter names, Monday first (parses back).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = self
            .days()
            .map(|d| SHORT[d.num_days_from_monday() as usize])
            .collect();
        f.write_str(&names.join(","))
    }
}

impl fmt::Debug for Weekdays {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weekdays({self})")
    }
}

impl Serialize for Weekdays {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.days().count()))?;
        for day in self.days() {
            seq.serialize_element(SHORT[day.num_days_from_monday() as usize])?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for Weekdays {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Weekdays, D::Error> {
        deserializer.deserialize_any(WeekdaysVisitor)
    }
}

/// Reads a list of day names, or one string such as `"lun-ven"`.
struct WeekdaysVisitor;

impl<'de> Visitor<'de> for WeekdaysVisitor {
    type Value = Weekdays;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a list of days such as [\"mon\", \"fri\"], or a string such as \"mon-fri\"")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Weekdays, E> {
        text.parse().map_err(E::custom)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Weekdays, A::Error> {
        // An empty list is kept as an empty set, for `Schedule::validate` to refuse.
        let mut set = Weekdays::NONE;
        while let Some(text) = seq.next_element::<String>()? {
            let days: Weekdays = text.parse().map_err(de::Error::custom)?;
            set = Weekdays(set.0 | days.0);
        }
        Ok(set)
    }
}
