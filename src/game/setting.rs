//! The moderator's changes of a game's settings after its creation: the grace period, the
//! press allowed, the reminders, the days deadlines fall on, the current deadline set
//! to a date, and (before the start) the rulebook edition. Every rule is here, for the mail and the command line alike; the rules for
//! people are in docs/deadlines.md ("Changing the settings of a game").

use std::str::FromStr;

use chrono::{DateTime, NaiveDateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::judge::Edition;

use super::GameError;
use super::calendar::{CalendarError, Weekdays};
use super::model::{Game, GameStatus, Press};
use super::span::Span;

/// The longest grace period a moderator may set: a week past the deadline is already
/// a phase of its own.
pub const MAX_GRACE: Span = Span::days(7);
/// The most reminders before one deadline: more would be spam, not reminders.
pub const MAX_REMINDERS: usize = 5;
/// How far ahead a deadline may be set: as far as any span reaches (365 days).
pub(super) const MAX_AHEAD: Span = Span::MAX;

/// One setting changed, with its new value.
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    /// How long the judge waits past the deadline for missing orders.
    Grace(Span),
    Press(Press),
    /// How long before the deadline players without orders are reminded (none: never).
    Reminders(Vec<Span>),
    /// The days a deadline may fall on.
    Days(Weekdays),
    /// The current phase's deadline, as a wall-clock time in the game's time zone.
    Deadline(NaiveDateTime),
    // Creating a game, who plays, summary.
    /// Whether anyone asking (`WHOGAME`, `SUMMARY`) sees the players' addresses.
    Addresses(bool),
    /// Whether the game-over mail names the authors of grey press.
    GreyAuthors(bool),
    // Joining a game.
    /// Whether strangers may take free seats by mail (`JOIN`, `TAKEOVER`).
    Open(bool),
    /// Whether an open game starts by itself when its last seat is taken.
    StartWhenFull(bool),
    // The built-in player.
    /// Whether the built-in player plays houses in civil disorder and vacant seats.
    Bots(bool),
    // The rules.
    /// The rulebook edition the game is adjudicated under; only before the start.
    Rules(Edition),
    /// Phases a house may miss in a row before it is in civil disorder (0: never).
    CivilDisorder(u32),
    /// The reliability, in percent, an address needs to take a seat by mail (0: none).
    MinReliability(u8),
}

/// Which setting a moderator names (`GRÂCE`, `--grace`…), before its value is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SettingKind {
    Grace,
    Press,
    Reminders,
    Days,
    Deadline,
    // Creating a game, who plays, summary.
    Addresses,
    GreyAuthors,
    // Joining a game.
    Open,
    StartWhenFull,
    // The built-in player.
    Bots,
    // The rules.
    Rules,
    CivilDisorder,
    MinReliability,
}

impl Setting {
    /// The setting of `kind` with the value as the moderator wrote it: a span (`6h`,
    /// `1j12h`), a press (`grise`, `grey`), reminders (`1j,2h`, `aucun`), days (`lun-ven`,
    /// `sat,sun`) or a date and time in the game's zone (`2026-12-01 20:00`).
    pub fn read(kind: SettingKind, value: &str) -> Result<Setting, GameError> {
        Ok(match kind {
            SettingKind::Grace => Setting::Grace(value.parse()?),
            SettingKind::Press => Setting::Press(value.parse()?),
            SettingKind::Reminders => Setting::Reminders(read_reminders(value)?),
            SettingKind::Days => Setting::Days(value.parse()?),
            SettingKind::Deadline => Setting::Deadline(super::calendar::parse_wall_time(value)?),
            SettingKind::Addresses => Setting::Addresses(read_shown(value)?),
            SettingKind::GreyAuthors => Setting::GreyAuthors(read_shown(value)?),
            SettingKind::Open => Setting::Open(read_yes_no(value)?),
            SettingKind::StartWhenFull => Setting::StartWhenFull(read_yes_no(value)?),
            SettingKind::Bots => Setting::Bots(read_yes_no(value)?),
            SettingKind::Rules => Setting::Rules(read_rules(value)?),
            SettingKind::CivilDisorder => Setting::CivilDisorder(read_missed(value)?),
            SettingKind::MinReliability => Setting::MinReliability(read_percent(value)?),
        })
    }
}

/// A rule edition as a moderator writes it: `2023`, `1982`, `1971`, `dptg`.
pub fn read_rules(value: &str) -> Result<Edition, GameError> {
    value.parse().map_err(|_| GameError::UnknownRules {
        input: value.trim().to_string(),
    })
}

/// The most phases missed in a row before civil disorder a moderator may set: a house
/// silent for a game year of phases is not coming back by itself.
const MAX_MISSED: u32 = 12;

/// A number of missed phases, `0` (`jamais`/`never`) to [`MAX_MISSED`].
fn read_missed(value: &str) -> Result<u32, GameError> {
    let folded = crate::map::fold(value);
    let n = match folded.as_str() {
        "jamais" | "never" => Some(0),
        _ => folded.parse::<u32>().ok(),
    };
    n.filter(|n| *n <= MAX_MISSED)
        .ok_or_else(|| GameError::BadMissedCount {
            input: value.trim().to_string(),
            max: MAX_MISSED,
        })
}

/// A percentage, `0` to `100`, with or without its sign (`80`, `80 %`, `80%`).
fn read_percent(value: &str) -> Result<u8, GameError> {
    let trimmed = value.trim();
    let digits = trimmed.strip_suffix('%').unwrap_or(trimmed).trim();
    digits
        .parse::<u8>()
        .ok()
        .filter(|n| *n <= 100)
        .ok_or_else(|| GameError::BadPercent {
            input: trimmed.to_string(),
        })
}

/// A player's time zone as written: an IANA name (`America/New_York`), or `game`
/// (`partie`) for the game's own again (none).
pub fn read_zone(value: &str) -> Result<Option<chrono_tz::Tz>, GameError> {
    let trimmed = value.trim();
    match crate::map::fold(trimmed).as_str() {
        "game" | "partie" | "jeu" => Ok(None),
        _ => trimmed
            .parse::<chrono_tz::Tz>()
            .map(Some)
            .map_err(|_| GameError::UnknownZone {
                input: trimmed.to_string(),
            }),
    }
}

/// `visibles`/`shown`/`oui`/`yes` or `cachées`/`hidden`/`non`/`no`.
fn read_shown(value: &str) -> Result<bool, GameError> {
    match crate::map::fold(value).as_str() {
        "visible" | "visibles" | "montrees" | "reveles" | "oui" | "shown" | "revealed" | "yes"
        | "on" => Ok(true),
        "cachees" | "cache" | "cachee" | "caches" | "masquees" | "non" | "hidden" | "no"
        | "off" => Ok(false),
        _ => Err(GameError::NotShownOrHidden {
            input: value.trim().to_string(),
        }),
    }
}

/// `oui`/`yes`/`on`, `non`/`no`/`off`, in any case.
pub(super) fn read_yes_no(value: &str) -> Result<bool, GameError> {
    match crate::map::fold(value).as_str() {
        "oui" | "yes" | "on" | "true" => Ok(true),
        "non" | "no" | "off" | "false" => Ok(false),
        _ => Err(GameError::NotYesNo {
            input: value.trim().to_string(),
        }),
    }
}

/// `1j,2h`, `1d 2h`, or `aucun`/`none` for no reminder at all.
fn read_reminders(value: &str) -> Result<Vec<Span>, CalendarError> {
    if matches!(
        crate::map::fold(value).as_str(),
        "none" | "aucun" | "aucune" | "0"
    ) {
        return Ok(Vec::new());
    }
    let parts: Vec<&str> = value
        .split([',', ';'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    // Commas separate reminders: `1j 2h` is one reminder, 26 hours before.
    if parts.is_empty() {
        return Err(CalendarError::InvalidSpan {
            input: value.trim().to_string(),
        });
    }
    parts.iter().map(|p| p.parse()).collect()
}

impl FromStr for Press {
    type Err = GameError;

    /// `full`/`complète`, `broadcast`/`publique`, `grey`/`grise`, `none`/`aucune`.
    fn from_str(value: &str) -> Result<Press, GameError> {
        match crate::map::fold(value).as_str() {
            "full" | "complete" | "totale" => Ok(Press::Full),
            "broadcast" | "publique" | "public" => Ok(Press::Broadcast),
            "grey" | "gray" | "grise" | "anonyme" => Ok(Press::Grey),
            "none" | "aucune" | "aucun" | "no" => Ok(Press::None),
            _ => Err(GameError::UnknownPress {
                input: value.trim().to_string(),
            }),
        }
    }
}

/// What a setting change did: the value before and after. For the deadline, the UTC
/// instants, and the instant asked for (the new deadline is later when it fell inside
/// a declared absence, which pushes it past as any deadline).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "setting", rename_all = "kebab-case")]
pub enum SettingChanged {
    Grace {
        old: Span,
        new: Span,
    },
    Press {
        old: Press,
        new: Press,
    },
    Reminders {
        old: Vec<Span>,
        new: Vec<Span>,
    },
    Days {
        old: Weekdays,
        new: Weekdays,
    },
    Deadline {
        old: Option<DateTime<Utc>>,
        new: DateTime<Utc>,
        asked: DateTime<Utc>,
    },
    // Creating a game, who plays, summary.
    Addresses {
        old: bool,
        new: bool,
    },
    GreyAuthors {
        old: bool,
        new: bool,
    },
    // Joining a game.
    Open {
        old: bool,
        new: bool,
    },
    StartWhenFull {
        old: bool,
        new: bool,
    },
    // The built-in player.
    Bots {
        old: bool,
        new: bool,
    },
    // The rules.
    Rules {
        old: Edition,
        new: Edition,
    },
    CivilDisorder {
        old: u32,
        new: u32,
    },
    MinReliability {
        old: u8,
        new: u8,
    },
}

impl SettingChanged {
    /// The new deadline, when the change set one that differs from the old: everyone
    /// playing is told of it.
    pub fn moved_deadline(&self) -> Option<DateTime<Utc>> {
        match self {
            SettingChanged::Deadline { old, new, .. } if *old != Some(*new) => Some(*new),
            _ => None,
        }
    }
}

impl Game {
    /// Changes one setting at `now`; the game is unchanged on an error.
    ///
    /// - The deadline is set only while the game runs: before the start there is none
    ///   (`start` sets it), and a paused game's deadline is given back at the resume,
    ///   counted from then, so a date set during the pause would not hold (the moderator
    ///   resumes first, in the same mail if they like). It must be to come, and within
    ///   [`MAX_AHEAD`]. It is exact (not moved to the days or time of day of the
    ///   schedule: the moderator chose it), except that a declared absence pushes it past,
    ///   as any deadline. The reminders already due for it count as sent (everyone is told
    ///   of the new deadline at once); the extensions of the phase stay counted.
    /// - The grace period and the reminders apply at once, to the current deadline too;
    ///   a reminder whose time has already passed is not sent late.
    /// - The days apply to the deadlines computed from then on (the next phases', an
    ///   absence's push); the current deadline stays where it is.
    pub fn change_setting(
        &mut self,
        setting: Setting,
        now: DateTime<Utc>,
    ) -> Result<SettingChanged, GameError> {
        if self.status == GameStatus::Finished {
            return Err(GameError::Status {
                action: "change a setting",
                status: self.status,
            });
        }
        let mut schedule = self.settings.schedule.clone();
        let changed = match setting {
            Setting::Deadline(local) => return self.set_deadline(local, now),
            Setting::Press(new) => {
                let old = std::mem::replace(&mut self.settings.press, new);
                return Ok(SettingChanged::Press { old, new });
            }
            Setting::Addresses(new) => {
                let old = std::mem::replace(&mut self.settings.show_addresses, new);
                return Ok(SettingChanged::Addresses { old, new });
            }
            Setting::GreyAuthors(new) => {
                let old = std::mem::replace(&mut self.settings.reveal_grey, new);
                return Ok(SettingChanged::GreyAuthors { old, new });
            }
            Setting::Open(new) => {
                let old = std::mem::replace(&mut self.settings.open, new);
                return Ok(SettingChanged::Open { old, new });
            }
            Setting::StartWhenFull(new) => {
                let old = std::mem::replace(&mut self.settings.start_when_full, new);
                return Ok(SettingChanged::StartWhenFull { old, new });
            }
            Setting::Bots(new) => {
                let old = std::mem::replace(&mut self.settings.bots, new);
                return Ok(SettingChanged::Bots { old, new });
            }
            Setting::Rules(new) => {
                // The players agreed to the rules when they joined, and a phase already
                // played was judged by them: they change only before the first phase.
                if self.status != GameStatus::Forming {
                    return Err(GameError::RulesAfterStart {
                        rules: self.settings.rules,
                    });
                }
                let old = std::mem::replace(&mut self.settings.rules, new);
                return Ok(SettingChanged::Rules { old, new });
            }
            // From the next deadline on: a house already in civil disorder stays so until
            // its player sends orders.
            Setting::CivilDisorder(new) => {
                let old = std::mem::replace(&mut self.settings.civil_disorder_after, new);
                return Ok(SettingChanged::CivilDisorder { old, new });
            }
            // For the seats taken from now on: a player already seated keeps their seat.
            Setting::MinReliability(new) => {
                let old = std::mem::replace(&mut self.settings.min_reliability, new);
                return Ok(SettingChanged::MinReliability { old, new });
            }
            Setting::Grace(new) => {
                if new > MAX_GRACE {
                    return Err(GameError::GraceTooLong {
                        grace: new,
                        max: MAX_GRACE,
                    });
                }
                let old = std::mem::replace(&mut schedule.grace, new);
                SettingChanged::Grace { old, new }
            }
            Setting::Reminders(mut new) => {
                if new.len() > MAX_REMINDERS {
                    return Err(GameError::TooManyReminders {
                        count: new.len(),
                        max: MAX_REMINDERS,
                    });
                }
                // Earliest first, as they are sent; one reminder said twice is one.
                new.sort_unstable_by(|a, b| b.cmp(a));
                new.dedup();
                let old = std::mem::replace(&mut schedule.reminders, new.clone());
                SettingChanged::Reminders { old, new }
            }
            Setting::Days(new) => {
                let old = std::mem::replace(&mut schedule.weekdays, new);
                SettingChanged::Days { old, new }
            }
        };
        schedule.validate()?;
        self.settings.schedule = schedule;
        self.reminders_sent = self.reminders_passed(now);
        self.update_wake(now);
        Ok(changed)
    }

    fn set_deadline(
        &mut self,
        local: NaiveDateTime,
        now: DateTime<Utc>,
    ) -> Result<SettingChanged, GameError> {
        match self.status {
            GameStatus::Running => {}
            GameStatus::Paused => return Err(GameError::DeadlineWhilePaused),
            status => {
                return Err(GameError::Status {
                    action: "set the deadline",
                    status,
                });
            }
        }
        let schedule = &self.settings.schedule;
        let zone = schedule.time_zone;
        let asked = schedule.instant(local);
        if asked <= now {
            return Err(GameError::DeadlinePast { asked, now, zone });
        }
        if asked > schedule.after(now, MAX_AHEAD) {
            return Err(GameError::DeadlineTooFar {
                asked,
                max: MAX_AHEAD,
                zone,
            });
        }
        let old = self.deadline;
        self.deadline = Some(asked);
        // A deadline the moderator set is a fresh one: absences are counted from it.
        self.absence_base = None;
        self.grace_told = false;
        self.push_past_absences(now);
        let new = self.deadline.unwrap_or(asked);
        self.reminders_sent = self.reminders_passed(now);
        self.update_wake(now);
        Ok(SettingChanged::Deadline { old, new, asked })
    }

    /// How many of the current phase's reminders are due at `now` or before.
    fn reminders_passed(&self, now: DateTime<Utc>) -> u32 {
        match (self.opened, self.deadline) {
            (Some(opened), Some(deadline)) => self
                .settings
                .schedule
                .reminder_times(opened, deadline)
                .iter()
                .filter(|t| **t <= now)
                .count() as u32,
            _ => 0,
        }
    }
}
