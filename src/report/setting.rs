//! A setting's change in words, for the moderator's reply and the audit trail.

use chrono::Weekday;
use chrono_tz::Tz;

use crate::game::calendar::{Span, Weekdays};
use crate::game::{Press, SettingChanged};
use crate::lang::Lang;
use crate::say;

use super::calendar::format_deadline;

impl SettingChanged {
    /// The change in `lang`, dates in the game's zone `zone`: `délai de grâce : 0h → 6h`.
    pub fn say(&self, lang: Lang, zone: Tz) -> String {
        let spans = |list: &[Span]| -> String {
            if list.is_empty() {
                say!(lang, "setting.no_reminder")
            } else {
                let texts: Vec<String> = list.iter().map(|s| s.text(lang)).collect();
                texts.join(", ")
            }
        };
        match self {
            SettingChanged::Grace { old, new } => say!(
                lang,
                "setting.grace",
                old = old.text(lang),
                new = new.text(lang)
            ),
            SettingChanged::Press { old, new } => say!(
                lang,
                "setting.press",
                old = press_words(*old, lang),
                new = press_words(*new, lang)
            ),
            SettingChanged::Reminders { old, new } => {
                say!(
                    lang,
                    "setting.reminders",
                    old = spans(old),
                    new = spans(new)
                )
            }
            SettingChanged::Days { old, new } => say!(
                lang,
                "setting.days",
                old = days_words(*old, lang),
                new = days_words(*new, lang)
            ),
            SettingChanged::Deadline { old, new, asked } => say!(
                lang,
                "setting.deadline",
                old = match old {
                    Some(d) => format_deadline(*d, zone, lang),
                    None => say!(lang, "lifecycle.none"),
                },
                new = format_deadline(*new, zone, lang),
                absence = (asked != new).then(|| format_deadline(*asked, zone, lang))
            ),
            SettingChanged::Addresses { old, new } => say!(
                lang,
                "whogame.setting",
                old = shown_words(*old, lang),
                new = shown_words(*new, lang)
            ),
            SettingChanged::GreyAuthors { old, new } => say!(
                lang,
                "summary.grey_setting",
                old = shown_words(*old, lang),
                new = shown_words(*new, lang)
            ),
            SettingChanged::Open { old, new } => say!(
                lang,
                "join.setting_open",
                old = yes_no(*old, lang),
                new = yes_no(*new, lang)
            ),
            SettingChanged::StartWhenFull { old, new } => say!(
                lang,
                "join.setting_start_when_full",
                old = yes_no(*old, lang),
                new = yes_no(*new, lang)
            ),
            SettingChanged::Bots { old, new } => say!(
                lang,
                "bot.setting",
                old = yes_no(*old, lang),
                new = yes_no(*new, lang)
            ),
            SettingChanged::Rules { old, new } => {
                say!(lang, "rules.setting", old = old.code(), new = new.code())
            }
            SettingChanged::CivilDisorder { old, new } => {
                say!(lang, "civil_disorder.setting", old, new)
            }
            SettingChanged::MinReliability { old, new } => {
                say!(lang, "record.setting", old, new)
            }
        }
    }
}

/// Whether the players' addresses are shown, in words.
pub fn shown_words(shown: bool, lang: Lang) -> String {
    if shown {
        say!(lang, "whogame.shown")
    } else {
        say!(lang, "whogame.hidden")
    }
}

fn yes_no(on: bool, lang: Lang) -> String {
    if on {
        say!(lang, "join.yes")
    } else {
        say!(lang, "join.no")
    }
}

/// The press of a game in words (`grise permise`).
pub fn press_words(press: Press, lang: Lang) -> String {
    match press {
        Press::Full => say!(lang, "press_setting.full"),
        Press::Broadcast => say!(lang, "press_setting.broadcast"),
        Press::Grey => say!(lang, "press_setting.grey"),
        Press::None => say!(lang, "press_setting.none"),
    }
}

/// Days in words, Monday first (`lundi, mardi`), or `tous les jours`.
fn days_words(days: Weekdays, lang: Lang) -> String {
    if days == Weekdays::ALL {
        return say!(lang, "setting.every_day");
    }
    let names: Vec<String> = days
        .days()
        .map(|day| match day {
            Weekday::Mon => say!(lang, "weekday.monday"),
            Weekday::Tue => say!(lang, "weekday.tuesday"),
            Weekday::Wed => say!(lang, "weekday.wednesday"),
            Weekday::Thu => say!(lang, "weekday.thursday"),
            Weekday::Fri => say!(lang, "weekday.friday"),
            Weekday::Sat => say!(lang, "weekday.saturday"),
            Weekday::Sun => say!(lang, "weekday.sunday"),
        })
        .collect();
    names.join(", ")
}
