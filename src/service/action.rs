//! The changes a moderator or a player can ask of a game, whether by the command line or
//! by mail: one place that applies each to a game and says what it causes (audit detail,
//! notices, phase record), so that both ways act alike.

use chrono::{DateTime, Utc};

use crate::game::calendar::parse_local_time;
use crate::game::span::Span;
use crate::game::{
    AuditLine, Ending, Game, GameError, NoticeKind, OrderLines, PhaseRecord, Setting, SubmitMode,
    Trigger, Vote, survivors,
};
use crate::lang::Lang;
use crate::map::Variant;
use crate::position::write_position;

use super::Effects;

/// How the moderator ends a game (houses as written; resolved when applied).
#[derive(Debug, Clone, PartialEq)]
pub enum EndBy {
    Win(Vec<String>),
    Draw,
    Concede(String),
    Abandon,
}

/// One change of a game. Houses are given as written and resolved against the variant.
#[derive(Debug, Clone)]
pub enum Action {
    Start,
    Pause,
    Resume,
    Extend(Span),
    /// Process the current phase; `phase`, when given, must name it (a guard).
    Process {
        phase: Option<String>,
        trigger: Trigger,
    },
    End(EndBy),
    /// Seats a player (or gives a seat to a new one: `replace`).
    Seat {
        house: String,
        address: String,
        secret_hash: String,
        lang: Lang,
        replace: bool,
    },
    Remove {
        house: String,
    },
    Submit {
        house: String,
        lines: OrderLines,
        mode: SubmitMode,
        source: String,
        lang: Lang,
    },
    Ready {
        house: String,
        ready: bool,
    },
    Vote {
        house: String,
        vote: Option<Vote>,
    },
    /// An absence, dates as written in the game's time zone.
    Absence {
        house: String,
        from: String,
        to: String,
    },
    Edit {
        position: String,
        reason: String,
    },
    Resign {
        house: String,
    },
    /// Undoes the last processed phase, `last` (read from the store); `phase`, when
    /// given, must name it.
    Rollback {
        last: Box<PhaseRecord>,
        phase: Option<String>,
    },
    /// Allows or forbids observers; forbidding ends the current observers and the
    /// requests waiting for confirmation.
    Observers {
        allowed: bool,
    },
    /// Turns the pictures of the game's mails on or off (docs/email.md, "Pictures").
    Pictures {
        on: bool,
    },
    /// Changes a setting (the game's rules: [`Game::change_setting`]).
    Set(Setting),
}

impl Action {
    /// The audit trail's name for the action.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Start => "start",
            Action::Pause => "pause",
            Action::Resume => "resume",
            Action::Extend(_) => "extend",
            Action::Process { .. } => "process",
            Action::End(_) => "end",
            Action::Seat { replace: false, .. } => "player-add",
            Action::Seat { replace: true, .. } => "player-replace",
            Action::Remove { .. } => "player-remove",
            Action::Submit { .. } => "orders",
            Action::Ready { .. } => "ready",
            Action::Vote { .. } => "vote",
            Action::Absence { .. } => "absence",
            Action::Edit { .. } => "edit-position",
            Action::Resign { .. } => "resign",
            Action::Rollback { .. } => "rollback",
            Action::Observers { .. } => "observers",
            Action::Pictures { .. } => "pictures",
            Action::Set(_) => "set",
        }
    }
}

/// Applies `action` to `game`, adding its audit detail, notices and phase record to
/// `effects`. On an error the game may be half changed: callers drop it.
pub fn apply(
    game: &mut Game,
    variant: &Variant,
    action: Action,
    effects: &mut Effects,
    now: DateTime<Utc>,
) -> Result<(), GameError> {
    let mut data = None;
    let line = match action {
        Action::Start => {
            game.start(variant, now)?;
            effects.notify(NoticeKind::Started, Vec::new());
            AuditLine::Started {
                deadline: game.deadline,
            }
        }
        Action::Pause => {
            game.pause(now)?;
            effects.notify(NoticeKind::Paused, Vec::new());
            AuditLine::Paused
        }
        Action::Resume => {
            game.resume(now)?;
            effects.notify(NoticeKind::Resumed, Vec::new());
            AuditLine::Resumed {
                deadline: game.deadline,
            }
        }
        Action::Extend(by) => {
            let deadline = game.extend(by, now)?;
            effects.notify(NoticeKind::DeadlineChanged { deadline }, Vec::new());
            AuditLine::Extended { by, deadline }
        }
        Action::Process { phase, trigger } => {
            game.check_phase(phase.as_deref())?;
            let record = game.process(variant, now, trigger, &crate::report::results_record)?;
            effects.notify(
                NoticeKind::Results {
                    index: record.index,
                },
                Vec::new(),
            );
            // The player and the moderator hear of a house's silence at a deadline: one
            // notice each, civil disorder saying the miss too. (A moderator's early
            // `process` is no deadline missed; civil disorder is told whatever the trigger.)
            for house in &record.missed {
                if record.civil_disorder.contains(house) || trigger != Trigger::Deadline {
                    continue;
                }
                let missed = game.seat(house).map_or(1, |s| s.missed);
                effects.notify(
                    NoticeKind::Missed {
                        house: house.clone(),
                        phase: record.phase,
                        missed,
                    },
                    vec![house.clone()],
                );
            }
            for house in &record.civil_disorder {
                effects.notify(
                    NoticeKind::CivilDisorder {
                        house: house.clone(),
                        phase: record.phase,
                    },
                    vec![house.clone()],
                );
            }
            if record.ending.is_some() {
                effects.notify(NoticeKind::GameOver, Vec::new());
            }
            let line = AuditLine::Processed {
                phase: record.phase,
                trigger,
            };
            effects.record = Some(record);
            line
        }
        Action::End(by) => {
            let ending = match by {
                EndBy::Win(houses) => Ending::Win {
                    houses: houses
                        .iter()
                        .map(|h| game.house_id(variant, h))
                        .collect::<Result<Vec<_>, _>>()?,
                    reason: "moderator".into(),
                },
                EndBy::Draw => Ending::Draw {
                    houses: survivors(variant, game, &game.position),
                },
                EndBy::Concede(house) => Ending::Concession {
                    house: game.house_id(variant, &house)?,
                },
                EndBy::Abandon => Ending::Abandoned,
            };
            game.end(ending.clone(), now)?;
            effects.notify(NoticeKind::GameOver, Vec::new());
            AuditLine::Ended { ending }
        }
        Action::Seat {
            house,
            address,
            secret_hash,
            lang,
            replace,
        } => {
            let house = game.house_id(variant, &house)?;
            if replace {
                game.replace_player(&house, &address, secret_hash, lang, now)?;
                effects.notify(
                    NoticeKind::PlayerReplaced {
                        house: house.clone(),
                    },
                    Vec::new(),
                );
            } else {
                game.add_player(&house, &address, secret_hash, lang, now)?;
            }
            AuditLine::Seated { house, address }
        }
        Action::Remove { house } => {
            let house = game.house_id(variant, &house)?;
            let player = game.remove_player(&house)?;
            AuditLine::Removed {
                house,
                address: player.address,
            }
        }
        Action::Submit {
            house,
            lines,
            mode,
            source,
            lang,
        } => {
            let house = game.house_id(variant, &house)?;
            game.submit(variant, &house, &lines, mode, &source, lang, now)?;
            AuditLine::Orders {
                lines: lines.len(),
                house,
                mode,
            }
        }
        Action::Ready { house, ready } => {
            let house = game.house_id(variant, &house)?;
            game.set_ready(&house, ready, now)?;
            AuditLine::Ready { house, ready }
        }
        Action::Vote { house, vote } => {
            let house = game.house_id(variant, &house)?;
            let ending = game.vote(variant, &house, vote.clone(), now)?;
            if ending.is_some() {
                effects.notify(NoticeKind::GameOver, Vec::new());
            }
            AuditLine::Vote { house, vote }
        }
        Action::Absence { house, from, to } => {
            let house = game.house_id(variant, &house)?;
            let zone = game.settings.schedule.time_zone;
            let start = parse_local_time(&from, zone)?;
            let end = parse_local_time(&to, zone)?;
            let moved = game.declare_absence(&house, start, end, now)?;
            // Everyone plays to the deadline: all are told when an absence moves it.
            if let Some(deadline) = moved {
                effects.notify(NoticeKind::DeadlineChanged { deadline }, Vec::new());
            }
            AuditLine::Absence {
                house,
                from: start,
                to: end,
                deadline: moved,
            }
        }
        Action::Edit { position, reason } => {
            let before = write_position(variant, &game.position);
            game.edit_position(variant, &position, now)?;
            let after = write_position(variant, &game.position);
            // The positions are data, kept as written, for whoever checks the edit.
            data = Some(format!("--- before\n{before}--- after\n{after}"));
            AuditLine::Edited { reason }
        }
        Action::Resign { house } => {
            let house = game.house_id(variant, &house)?;
            game.resign(&house, now)?;
            effects.notify(
                NoticeKind::Resigned {
                    house: house.clone(),
                },
                Vec::new(),
            );
            AuditLine::Resigned { house }
        }
        Action::Rollback { last, phase } => {
            if let Some(phase) = phase {
                // The guard names the phase to undo, not the one being played.
                let mut check = game.clone();
                check.phase = last.phase;
                check.check_phase(Some(&phase))?;
            }
            game.rollback(&last, now);
            effects.drop_record = Some(last.index);
            effects.notify(NoticeKind::RolledBack { phase: last.phase }, Vec::new());
            AuditLine::RolledBack { phase: last.phase }
        }
        Action::Observers { allowed } => {
            game.settings.observers = allowed;
            if allowed {
                AuditLine::ObserversAllowed
            } else {
                let ended = game.observers.len();
                game.observers.clear();
                game.observer_requests.clear();
                AuditLine::ObserversForbidden { ended }
            }
        }
        Action::Pictures { on } => {
            game.settings.pictures = on;
            AuditLine::Pictures { on }
        }
        Action::Set(setting) => {
            let change = game.change_setting(setting, now)?;
            // Everyone plays to the deadline: all are told when the moderator moves it.
            if let Some(deadline) = change.moved_deadline() {
                effects.notify(NoticeKind::DeadlineChanged { deadline }, Vec::new());
            }
            AuditLine::SettingChanged { change }
        }
    };
    effects.audit.push(line);
    if let Some(data) = data {
        if !effects.detail.is_empty() {
            effects.detail.push('\n');
        }
        effects.detail.push_str(&data);
    }
    Ok(())
}
