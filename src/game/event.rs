//! What happened to a game: [`super::Game::execute`] returns events, and the service turns
//! them into what the store keeps (the audit trail's lines, the phase record) and into
//! notices (what players and the moderator must be told). Both mappings are the game's
//! rules, written here once for the mail desk, the command line and the clock alike.

use std::fmt;

use chrono::{DateTime, Utc};

use crate::judge::Phase;
use crate::lang::Lang;

use super::HouseKey;
use super::audit::AuditLine;
use super::model::{AheadDrop, Ending, NoticeKind, PhaseRecord, SubmitMode, Trigger, Vote};
use super::setting::SettingChanged;
use super::span::Span;

/// A secret or token in clear, made for one answer and never stored (the store keeps its
/// hash): it does not show in debugging output.
#[derive(Clone, PartialEq, Eq)]
pub struct Revealed(pub String);

impl fmt::Debug for Revealed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Revealed(…)")
    }
}

/// A house that gave no orders at a phase, and how many phases in a row it has missed.
#[derive(Debug, Clone, PartialEq)]
pub struct Missed {
    pub house: HouseKey,
    pub phases: u32,
}

/// One thing that happened to a game. Houses are the variant's ids.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    Started {
        deadline: Option<DateTime<Utc>>,
    },
    Paused,
    Resumed {
        deadline: Option<DateTime<Utc>>,
    },
    Extended {
        by: Span,
        deadline: DateTime<Utc>,
    },
    /// A phase was processed: its record is kept in the history.
    Processed {
        record: Box<PhaseRecord<super::Adjudicated>>,
        trigger: Trigger,
        /// The houses that gave no orders (civil disorder aside), with their count.
        missed: Vec<Missed>,
    },
    Ended {
        ending: Ending,
    },
    /// A player took a seat (`replaced`: a new player for a house that had one), with
    /// the secret their welcome carries.
    Seated {
        house: HouseKey,
        address: String,
        lang: Lang,
        replaced: bool,
        secret: Revealed,
    },
    Removed {
        house: HouseKey,
        address: String,
    },
    OrdersTaken {
        house: HouseKey,
        lines: usize,
        mode: SubmitMode,
        /// The house was ready and its orders now hold one the judge finds illegal: it is
        /// ready no more (docs/email.md, `READY`).
        unready: bool,
        /// What became of the set's `IF` blocks, in order.
        conditions: Vec<super::ConditionNote>,
    },
    Ready {
        house: HouseKey,
        ready: bool,
    },
    ReadyWithdrawn {
        house: HouseKey,
    },
    Voted {
        house: HouseKey,
        vote: Option<Vote>,
        /// The votes ended the game.
        ended: bool,
    },
    Absent {
        house: HouseKey,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        /// The deadline the absence moved, if it moved one.
        deadline: Option<DateTime<Utc>>,
    },
    /// The moderator replaced the position (both kept, as written, in the trail).
    Edited {
        reason: String,
        before: String,
        after: String,
    },
    Resigned {
        house: HouseKey,
    },
    /// The last phase, of this history index, was undone.
    RolledBack {
        index: u32,
        phase: Phase,
    },
    ObserversAllowed,
    ObserversForbidden {
        ended: usize,
    },
    /// The game's pictures (`house` none), or a player's own.
    Pictures {
        house: Option<HouseKey>,
        on: bool,
    },
    /// The moderator changed a setting.
    SettingChanged {
        change: SettingChanged,
    },
    /// The moderator's and the game's language (`house` none), or a player's.
    LanguageChanged {
        house: Option<HouseKey>,
        lang: Lang,
    },
    AddressChanged {
        house: HouseKey,
        old: String,
        new: String,
    },
    /// An address asked to observe; the token goes to that very address.
    ObserverAsked {
        address: String,
        token: Revealed,
        expires: DateTime<Utc>,
    },
    ObserverJoined {
        address: String,
        secret: Revealed,
    },
    ObserverLeft {
        address: String,
    },
    /// Houses without orders reminded of the deadline.
    Reminded {
        houses: Vec<HouseKey>,
        deadline: DateTime<Utc>,
    },
    /// The deadline passed; these houses are waited for until the grace period's end.
    GraceRuns {
        houses: Vec<HouseKey>,
        deadline: DateTime<Utc>,
        until: DateTime<Utc>,
    },
    /// Mail to a player's address came back.
    Bounced {
        house: HouseKey,
        address: String,
        reason: String,
    },
    /// A mail to this address (a player's, if `house`) was refused for good; the
    /// moderator is `told` unless it was theirs or the player was flagged already.
    Undeliverable {
        house: Option<HouseKey>,
        address: String,
        reason: String,
        told: bool,
    },
    // The habits of njudge players.
    /// A house's player (`house` none: the moderator) chose a new secret.
    SecretChanged {
        house: Option<HouseKey>,
    },
    // Joining a game.
    /// A stranger took a seat by mail (the `Seated` event that comes with it carries the
    /// secret); `left`: the seats still free; `started`: the game was full and started.
    Joined {
        house: HouseKey,
        address: String,
        left: usize,
        started: bool,
    },
    /// An address asked for a house; the moderator decides.
    SeatAsked {
        house: HouseKey,
        address: String,
    },
    /// A player lost the house: given to someone else, or removed (`removed`).
    SeatLost {
        house: HouseKey,
        address: String,
        lang: Lang,
        removed: bool,
    },
    /// A token to confirm a seat went to `address`; `again`: one was mailed already and
    /// is still good, so this request is not mailed.
    ConsentAsked {
        address: String,
        again: bool,
    },
    /// The moderator refused the request of `address` for the house.
    SeatRefused {
        house: HouseKey,
        address: String,
        lang: Lang,
    },
    // Orders for later phases.
    /// A block of orders for a later phase kept (`replaced`: the house had one for it).
    AheadKept {
        house: HouseKey,
        phase: Phase,
        lines: usize,
        replaced: bool,
    },
    /// Every block of the house removed (`CLEAR`): the phases they were for.
    AheadCleared {
        house: HouseKey,
        phases: Vec<Phase>,
    },
    /// The phase of a block began: the block became the house's orders (`refused`: the
    /// judge refused them then, and the house has none; `ready`: the block made it ready).
    AheadActivated {
        house: HouseKey,
        phase: Phase,
        lines: Vec<(usize, String)>,
        refused: bool,
        ready: bool,
    },
    /// A block given back unused, and why.
    AheadDropped {
        house: HouseKey,
        phase: Phase,
        lines: Vec<(usize, String)>,
        why: AheadDrop,
    },
}

impl Event {
    /// The audit trail's line for the event, if the trail keeps one.
    pub fn audit(&self) -> Option<AuditLine> {
        // A processed phase is read in place: its record holds the whole game before it.
        if let Event::Processed {
            record, trigger, ..
        } = self
        {
            return Some(AuditLine::Processed {
                phase: record.phase,
                trigger: *trigger,
            });
        }
        Some(match self.clone() {
            Event::Started { deadline } => AuditLine::Started { deadline },
            Event::Paused => AuditLine::Paused,
            Event::Resumed { deadline } => AuditLine::Resumed { deadline },
            Event::Extended { by, deadline } => AuditLine::Extended { by, deadline },
            // Read above, without the copy.
            Event::Processed { .. } => return None,
            Event::Ended { ending } => AuditLine::Ended { ending },
            Event::Seated { house, address, .. } => AuditLine::Seated { house, address },
            Event::Removed { house, address } => AuditLine::Removed { house, address },
            Event::OrdersTaken {
                house, lines, mode, ..
            } => AuditLine::Orders { house, lines, mode },
            Event::Ready { house, ready } => AuditLine::Ready { house, ready },
            Event::ReadyWithdrawn { house } => AuditLine::ReadyWithdrawn { house },
            Event::Voted { house, vote, .. } => AuditLine::Vote { house, vote },
            Event::Absent {
                house,
                from,
                to,
                deadline,
            } => AuditLine::Absence {
                house,
                from,
                to,
                deadline,
            },
            Event::Edited { reason, .. } => AuditLine::Edited { reason },
            Event::Resigned { house } => AuditLine::Resigned { house },
            Event::RolledBack { phase, .. } => AuditLine::RolledBack { phase },
            Event::ObserversAllowed => AuditLine::ObserversAllowed,
            Event::ObserversForbidden { ended } => AuditLine::ObserversForbidden { ended },
            Event::Pictures { house, on } => AuditLine::Pictures { house, on },
            Event::SettingChanged { change } => AuditLine::SettingChanged { change },
            Event::LanguageChanged { house, lang } => AuditLine::Language { house, lang },
            Event::AddressChanged { house, old, new } => {
                AuditLine::AddressChanged { house, old, new }
            }
            Event::ObserverAsked { address, .. } => AuditLine::ObserverAsked { from: address },
            Event::ObserverJoined { address, .. } => AuditLine::ObserverJoined { from: address },
            Event::ObserverLeft { address } => AuditLine::ObserverLeft { from: address },
            Event::Bounced {
                house,
                address,
                reason,
            } => AuditLine::Bounced {
                house,
                address,
                reason,
            },
            Event::Undeliverable {
                house,
                address,
                reason,
                ..
            } => AuditLine::Undeliverable {
                house,
                address,
                reason,
            },
            Event::Reminded { .. } | Event::GraceRuns { .. } => return None,
            Event::SecretChanged { house } => AuditLine::SecretChanged { house },
            // The seat's own lines (`Seated`, `Removed`) say the rest.
            // Anyone may write a request in anyone's name: forged ones must not fill the
            // trail; the confirmed request is what it keeps.
            Event::Joined { .. } | Event::SeatLost { .. } | Event::ConsentAsked { .. } => {
                return None;
            }
            Event::SeatAsked { house, address } => AuditLine::SeatAsked { house, address },
            Event::SeatRefused { house, address, .. } => AuditLine::SeatRefused { house, address },
            Event::AheadKept {
                house,
                phase,
                lines,
                ..
            } => AuditLine::AheadKept {
                house,
                phase,
                lines,
            },
            Event::AheadCleared { house, phases } => AuditLine::AheadCleared {
                house,
                count: phases.len(),
            },
            Event::AheadActivated {
                house,
                phase,
                refused,
                ..
            } => AuditLine::AheadActivated {
                house,
                phase,
                refused,
            },
            Event::AheadDropped {
                house, phase, why, ..
            } => AuditLine::AheadDropped { house, phase, why },
        })
    }

    /// Data the trail keeps beside the line, not a sentence: the positions of an edit.
    pub fn audit_data(&self) -> Option<String> {
        match self {
            Event::Edited { before, after, .. } => {
                Some(format!("--- before\n{before}--- after\n{after}"))
            }
            _ => None,
        }
    }

    /// Who must be told of the event: each notice's kind and the houses it concerns
    /// (none: every player and the moderator).
    pub fn notices(&self) -> Vec<(NoticeKind, Vec<HouseKey>)> {
        let everyone = |kind| vec![(kind, Vec::new())];
        match self {
            Event::Started { .. } => everyone(NoticeKind::Started),
            Event::Paused => everyone(NoticeKind::Paused),
            Event::Resumed { .. } => everyone(NoticeKind::Resumed),
            Event::Extended { deadline, .. } => everyone(NoticeKind::DeadlineChanged {
                deadline: *deadline,
            }),
            // Everyone plays to the deadline: all are told when the moderator or an
            // absence moves it.
            Event::SettingChanged { change } => match change.moved_deadline() {
                Some(deadline) => everyone(NoticeKind::DeadlineChanged { deadline }),
                None => Vec::new(),
            },
            Event::Absent {
                deadline: Some(deadline),
                ..
            } => everyone(NoticeKind::DeadlineChanged {
                deadline: *deadline,
            }),
            Event::Processed {
                record,
                trigger,
                missed,
            } => processed_notices(record, *trigger, missed),
            Event::Ended { .. } | Event::Voted { ended: true, .. } => {
                everyone(NoticeKind::GameOver)
            }
            Event::Seated {
                house,
                replaced: true,
                ..
            } => everyone(NoticeKind::PlayerReplaced {
                house: house.clone(),
            }),
            Event::Resigned { house } => everyone(NoticeKind::Resigned {
                house: house.clone(),
            }),
            Event::RolledBack { phase, .. } => everyone(NoticeKind::RolledBack { phase: *phase }),
            Event::Reminded { houses, deadline } => vec![(
                NoticeKind::Reminder {
                    deadline: *deadline,
                },
                houses.clone(),
            )],
            Event::GraceRuns {
                houses,
                deadline,
                until,
            } => vec![(
                NoticeKind::Grace {
                    deadline: *deadline,
                    until: *until,
                },
                houses.clone(),
            )],
            Event::Bounced {
                house,
                address,
                reason,
            } => everyone(NoticeKind::Undeliverable {
                house: Some(house.clone()),
                address: address.clone(),
                reason: reason.clone(),
            }),
            Event::Undeliverable {
                house,
                address,
                reason,
                told: true,
            } => everyone(NoticeKind::Undeliverable {
                house: house.clone(),
                address: address.clone(),
                reason: reason.clone(),
            }),
            // The houses the notice concerns are none: its address is in the notice.
            Event::Joined {
                house,
                address,
                left,
                started,
            } => vec![(
                NoticeKind::Joined {
                    house: house.clone(),
                    address: address.clone(),
                    left: *left,
                    started: *started,
                },
                Vec::new(),
            )],
            Event::SeatAsked { house, address } => vec![(
                NoticeKind::SeatAsked {
                    house: house.clone(),
                    address: address.clone(),
                },
                Vec::new(),
            )],
            Event::SeatLost {
                house,
                address,
                lang,
                removed,
            } => vec![(
                NoticeKind::SeatLost {
                    house: house.clone(),
                    address: address.clone(),
                    lang: *lang,
                    removed: *removed,
                },
                Vec::new(),
            )],
            Event::SeatRefused {
                house,
                address,
                lang,
            } => vec![(
                NoticeKind::SeatRefused {
                    house: house.clone(),
                    address: address.clone(),
                    lang: *lang,
                },
                Vec::new(),
            )],
            Event::AheadActivated {
                house,
                phase,
                lines,
                refused,
                ready,
            } => vec![(
                NoticeKind::AheadActivated {
                    house: house.clone(),
                    phase: *phase,
                    lines: lines.clone(),
                    refused: *refused,
                    ready: *ready,
                },
                vec![house.clone()],
            )],
            Event::AheadDropped {
                house,
                phase,
                lines,
                why,
            } => vec![(
                NoticeKind::AheadDropped {
                    house: house.clone(),
                    phase: *phase,
                    lines: lines.clone(),
                    why: *why,
                },
                vec![house.clone()],
            )],
            _ => Vec::new(),
        }
    }
}

/// The results for everyone; the player and the moderator hear of a house's silence at a
/// deadline, one notice each, civil disorder saying the miss too. (A moderator's early
/// `process` is no deadline missed; civil disorder is told whatever the trigger.)
fn processed_notices<R>(
    record: &PhaseRecord<R>,
    trigger: Trigger,
    missed: &[Missed],
) -> Vec<(NoticeKind, Vec<HouseKey>)> {
    let mut notices = vec![(
        NoticeKind::Results {
            index: record.index,
        },
        Vec::new(),
    )];
    for missed in missed {
        if record.civil_disorder.contains(&missed.house) || trigger != Trigger::Deadline {
            continue;
        }
        notices.push((
            NoticeKind::Missed {
                house: missed.house.clone(),
                phase: record.phase,
                missed: missed.phases,
            },
            vec![missed.house.clone()],
        ));
    }
    for house in &record.civil_disorder {
        notices.push((
            NoticeKind::CivilDisorder {
                house: house.clone(),
                phase: record.phase,
            },
            vec![house.clone()],
        ));
    }
    if record.ending.is_some() {
        notices.push((NoticeKind::GameOver, Vec::new()));
    }
    notices
}
