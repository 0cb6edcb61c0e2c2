//! What happened to a game: [`super::Game::execute`] returns events, and the service turns
//! them into what the store keeps (the audit trail's lines, the phase record) and into
//! notices (what players and the moderator must be told), by one mapping,
//! [`Event::trace`], written here once for the mail desk, the command line and the clock
//! alike. What happened beside the game's rules (a refused sign-on, press sent, a game
//! made) is an event too, so that no line of the trail is written another way.

use std::fmt;

use chrono::{DateTime, Utc};

use crate::judge::Phase;
use crate::lang::Lang;

use super::audit::AuditLine;
use super::model::{AheadDrop, Ending, NoticeKind, PhaseRecord, SubmitMode, Trigger, Vote};
use super::setting::SettingChanged;
use super::span::Span;
use super::{Address, HouseKey};

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
    /// The game was made (by the moderator at the shell, or by mail).
    Created {
        players: u8,
        variant: String,
    },
    /// The game moved to another version of its variant (`corbeau game variant`).
    VariantChanged {
        from: String,
        from_hash: String,
        to: String,
        to_hash: String,
    },
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
        address: Address,
        lang: Lang,
        replaced: bool,
        secret: Revealed,
    },
    Removed {
        house: HouseKey,
        address: Address,
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
    /// A player's time zone for deadlines (none: the game's).
    ZoneChanged {
        house: HouseKey,
        zone: Option<chrono_tz::Tz>,
    },
    AddressChanged {
        house: HouseKey,
        old: Address,
        new: Address,
    },
    /// A player asked for an address another house's player has: refused, told to the
    /// moderator's trail only.
    AddressRefused {
        house: HouseKey,
        address: Address,
    },
    /// An address asked to observe; the token goes to that very address.
    ObserverAsked {
        address: Address,
        token: Revealed,
        expires: DateTime<Utc>,
    },
    ObserverJoined {
        address: Address,
        secret: Revealed,
    },
    /// An address confirmed to observe with a wrong or stale token.
    ObserverBadToken {
        address: Address,
    },
    ObserverLeft {
        address: Address,
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
        address: Address,
        reason: String,
    },
    /// A mail to this address (a player's, if `house`) was refused for good; the
    /// moderator is `told` unless it was theirs or the player was flagged already.
    Undeliverable {
        house: Option<HouseKey>,
        address: Address,
        reason: String,
        told: bool,
    },
    /// A sign-on refused: as a house (`claimed`, as the sender wrote it, masked if it
    /// held the secret), else as the moderator.
    SignOnRefused {
        claimed: Option<String>,
        from: Address,
    },
    /// Sign-ons as a house (none: as the moderator) failed this many times since
    /// `since`: the owner and the moderator are told.
    SignOnFailures {
        house: Option<HouseKey>,
        failures: u32,
        since: DateTime<Utc>,
    },
    /// Press went out: from a house (none: the moderator), to this many.
    Press {
        from: Option<HouseKey>,
        recipients: usize,
        grey: bool,
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
        address: Address,
        left: usize,
        started: bool,
    },
    /// An address asked for a house; the moderator decides.
    SeatAsked {
        house: HouseKey,
        address: Address,
    },
    /// A player lost the house: given to someone else, or removed (`removed`).
    SeatLost {
        house: HouseKey,
        address: Address,
        lang: Lang,
        removed: bool,
    },
    /// A token to confirm a seat went to `address`; `again`: one was mailed already and
    /// is still good, so this request is not mailed.
    ConsentAsked {
        address: Address,
        again: bool,
    },
    /// The moderator refused the request of `address` for the house.
    SeatRefused {
        house: HouseKey,
        address: Address,
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

/// What one event leaves behind: the trail's line (and the data kept beside it, not a
/// sentence), and who must be told, each notice's kind with the houses it concerns (none:
/// every player and the moderator, or the address the notice names).
#[derive(Debug, Default, PartialEq)]
pub struct Trace {
    pub line: Option<AuditLine>,
    pub data: Option<String>,
    pub notices: Vec<(NoticeKind, Vec<HouseKey>)>,
}

impl Trace {
    fn line(line: AuditLine) -> Trace {
        Trace {
            line: Some(line),
            ..Trace::default()
        }
    }

    fn tell(mut self, kind: NoticeKind, houses: Vec<HouseKey>) -> Trace {
        self.notices.push((kind, houses));
        self
    }

    fn tell_all(self, kind: NoticeKind) -> Trace {
        self.tell(kind, Vec::new())
    }
}

impl Event {
    /// The one mapping from what happened to what is kept and told. The match names every
    /// event, with no catch-all: a new event does not compile until it says its line and
    /// its notices.
    pub fn trace(&self) -> Trace {
        let nothing = Trace::default;
        match self {
            Event::Created { players, variant } => Trace::line(AuditLine::Created {
                players: *players,
                variant: variant.clone(),
            }),
            Event::VariantChanged {
                from,
                from_hash,
                to,
                to_hash,
            } => Trace::line(AuditLine::VariantChanged {
                from: from.clone(),
                from_hash: from_hash.clone(),
                to: to.clone(),
                to_hash: to_hash.clone(),
            }),
            Event::Started { deadline } => Trace::line(AuditLine::Started {
                deadline: *deadline,
            })
            .tell_all(NoticeKind::Started),
            Event::Paused => Trace::line(AuditLine::Paused).tell_all(NoticeKind::Paused),
            Event::Resumed { deadline } => Trace::line(AuditLine::Resumed {
                deadline: *deadline,
            })
            .tell_all(NoticeKind::Resumed),
            Event::Extended { by, deadline } => Trace::line(AuditLine::Extended {
                by: *by,
                deadline: *deadline,
            })
            .tell_all(NoticeKind::DeadlineChanged {
                deadline: *deadline,
            }),
            // The record holds the whole game before the phase: the trail names it only.
            Event::Processed {
                record,
                trigger,
                missed,
            } => Trace {
                line: Some(AuditLine::Processed {
                    phase: record.phase,
                    trigger: *trigger,
                }),
                data: None,
                notices: processed_notices(record, *trigger, missed),
            },
            Event::Ended { ending } => Trace::line(AuditLine::Ended {
                ending: ending.clone(),
            })
            .tell_all(NoticeKind::GameOver),
            Event::Seated {
                house,
                address,
                replaced,
                ..
            } => {
                let trace = Trace::line(AuditLine::Seated {
                    house: house.clone(),
                    address: address.clone(),
                });
                if *replaced {
                    trace.tell_all(NoticeKind::PlayerReplaced {
                        house: house.clone(),
                    })
                } else {
                    trace
                }
            }
            Event::Removed { house, address } => Trace::line(AuditLine::Removed {
                house: house.clone(),
                address: address.clone(),
            }),
            Event::OrdersTaken {
                house, lines, mode, ..
            } => Trace::line(AuditLine::Orders {
                house: house.clone(),
                lines: *lines,
                mode: *mode,
            }),
            Event::Ready { house, ready } => Trace::line(AuditLine::Ready {
                house: house.clone(),
                ready: *ready,
            }),
            Event::ReadyWithdrawn { house } => Trace::line(AuditLine::ReadyWithdrawn {
                house: house.clone(),
            }),
            Event::Voted { house, vote, ended } => {
                let trace = Trace::line(AuditLine::Vote {
                    house: house.clone(),
                    vote: vote.clone(),
                });
                if *ended {
                    trace.tell_all(NoticeKind::GameOver)
                } else {
                    trace
                }
            }
            // Everyone plays to the deadline: all are told when an absence moves it.
            Event::Absent {
                house,
                from,
                to,
                deadline,
            } => {
                let trace = Trace::line(AuditLine::Absence {
                    house: house.clone(),
                    from: *from,
                    to: *to,
                    deadline: *deadline,
                });
                match deadline {
                    Some(deadline) => trace.tell_all(NoticeKind::DeadlineChanged {
                        deadline: *deadline,
                    }),
                    None => trace,
                }
            }
            Event::Edited {
                reason,
                before,
                after,
            } => Trace {
                line: Some(AuditLine::Edited {
                    reason: reason.clone(),
                }),
                data: Some(format!("--- before\n{before}--- after\n{after}")),
                notices: Vec::new(),
            },
            Event::Resigned { house } => Trace::line(AuditLine::Resigned {
                house: house.clone(),
            })
            .tell_all(NoticeKind::Resigned {
                house: house.clone(),
            }),
            Event::RolledBack { phase, .. } => Trace::line(AuditLine::RolledBack { phase: *phase })
                .tell_all(NoticeKind::RolledBack { phase: *phase }),
            Event::ObserversAllowed => Trace::line(AuditLine::ObserversAllowed),
            Event::ObserversForbidden { ended } => {
                Trace::line(AuditLine::ObserversForbidden { ended: *ended })
            }
            Event::Pictures { house, on } => Trace::line(AuditLine::Pictures {
                house: house.clone(),
                on: *on,
            }),
            // Everyone plays to the deadline: all are told when the moderator moves it.
            Event::SettingChanged { change } => {
                let trace = Trace::line(AuditLine::SettingChanged {
                    change: change.clone(),
                });
                match change.moved_deadline() {
                    Some(deadline) => trace.tell_all(NoticeKind::DeadlineChanged { deadline }),
                    None => trace,
                }
            }
            Event::LanguageChanged { house, lang } => Trace::line(AuditLine::Language {
                house: house.clone(),
                lang: *lang,
            }),
            Event::ZoneChanged { house, zone } => Trace::line(AuditLine::Zone {
                house: house.clone(),
                zone: zone.map(|z| z.name().to_string()),
            }),
            Event::AddressChanged { house, old, new } => Trace::line(AuditLine::AddressChanged {
                house: house.clone(),
                old: old.clone(),
                new: new.clone(),
            }),
            Event::AddressRefused { house, address } => Trace::line(AuditLine::AddressRefused {
                house: house.clone(),
                address: address.clone(),
            }),
            Event::ObserverAsked { address, .. } => Trace::line(AuditLine::ObserverAsked {
                from: address.clone(),
            }),
            Event::ObserverBadToken { address } => Trace::line(AuditLine::ObserverBadToken {
                from: address.clone(),
            }),
            Event::ObserverJoined { address, .. } => Trace::line(AuditLine::ObserverJoined {
                from: address.clone(),
            }),
            Event::ObserverLeft { address } => Trace::line(AuditLine::ObserverLeft {
                from: address.clone(),
            }),
            Event::Reminded { houses, deadline } => nothing().tell(
                NoticeKind::Reminder {
                    deadline: *deadline,
                },
                houses.clone(),
            ),
            Event::GraceRuns {
                houses,
                deadline,
                until,
            } => nothing().tell(
                NoticeKind::Grace {
                    deadline: *deadline,
                    until: *until,
                },
                houses.clone(),
            ),
            Event::Bounced {
                house,
                address,
                reason,
            } => Trace::line(AuditLine::Bounced {
                house: house.clone(),
                address: address.clone(),
                reason: reason.clone(),
            })
            .tell_all(NoticeKind::Undeliverable {
                house: Some(house.clone()),
                address: address.clone(),
                reason: reason.clone(),
            }),
            Event::Undeliverable {
                house,
                address,
                reason,
                told,
            } => {
                let trace = Trace::line(AuditLine::Undeliverable {
                    house: house.clone(),
                    address: address.clone(),
                    reason: reason.clone(),
                });
                if *told {
                    trace.tell_all(NoticeKind::Undeliverable {
                        house: house.clone(),
                        address: address.clone(),
                        reason: reason.clone(),
                    })
                } else {
                    trace
                }
            }
            Event::SignOnRefused { claimed, from } => Trace::line(AuditLine::SignOnRefused {
                claimed: claimed.clone(),
                from: from.clone(),
                throttled: false,
            }),
            Event::SignOnFailures {
                house,
                failures,
                since,
            } => Trace::line(AuditLine::SignOnFailures {
                house: house.clone(),
                failures: *failures,
            })
            .tell(
                NoticeKind::SignOnFailures {
                    house: house.clone(),
                    failures: *failures,
                    since: *since,
                },
                house.iter().cloned().collect(),
            ),
            Event::Press {
                from,
                recipients,
                grey,
            } => Trace::line(AuditLine::Press {
                from: from.clone(),
                recipients: *recipients,
                grey: *grey,
            }),
            Event::SecretChanged { house } => Trace::line(AuditLine::SecretChanged {
                house: house.clone(),
            }),
            // The seat's own lines (`Seated`, `Removed`) say the rest. Anyone may write a
            // request in anyone's name: forged ones must not fill the trail; the confirmed
            // request is what it keeps.
            Event::Joined {
                house,
                address,
                left,
                started,
            } => nothing().tell(
                NoticeKind::Joined {
                    house: house.clone(),
                    address: address.clone(),
                    left: *left,
                    started: *started,
                },
                Vec::new(),
            ),
            Event::SeatLost {
                house,
                address,
                lang,
                removed,
            } => nothing().tell(
                NoticeKind::SeatLost {
                    house: house.clone(),
                    address: address.clone(),
                    lang: *lang,
                    removed: *removed,
                },
                Vec::new(),
            ),
            Event::ConsentAsked { .. } => nothing(),
            Event::SeatAsked { house, address } => Trace::line(AuditLine::SeatAsked {
                house: house.clone(),
                address: address.clone(),
            })
            .tell(
                NoticeKind::SeatAsked {
                    house: house.clone(),
                    address: address.clone(),
                },
                Vec::new(),
            ),
            Event::SeatRefused {
                house,
                address,
                lang,
            } => Trace::line(AuditLine::SeatRefused {
                house: house.clone(),
                address: address.clone(),
            })
            .tell(
                NoticeKind::SeatRefused {
                    house: house.clone(),
                    address: address.clone(),
                    lang: *lang,
                },
                Vec::new(),
            ),
            Event::AheadKept {
                house,
                phase,
                lines,
                ..
            } => Trace::line(AuditLine::AheadKept {
                house: house.clone(),
                phase: *phase,
                lines: *lines,
            }),
            Event::AheadCleared { house, phases } => Trace::line(AuditLine::AheadCleared {
                house: house.clone(),
                count: phases.len(),
            }),
            Event::AheadActivated {
                house,
                phase,
                lines,
                refused,
                ready,
            } => Trace::line(AuditLine::AheadActivated {
                house: house.clone(),
                phase: *phase,
                refused: *refused,
            })
            .tell(
                NoticeKind::AheadActivated {
                    house: house.clone(),
                    phase: *phase,
                    lines: lines.clone(),
                    refused: *refused,
                    ready: *ready,
                },
                vec![house.clone()],
            ),
            Event::AheadDropped {
                house,
                phase,
                lines,
                why,
            } => Trace::line(AuditLine::AheadDropped {
                house: house.clone(),
                phase: *phase,
                why: *why,
            })
            .tell(
                NoticeKind::AheadDropped {
                    house: house.clone(),
                    phase: *phase,
                    lines: lines.clone(),
                    why: *why,
                },
                vec![house.clone()],
            ),
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
