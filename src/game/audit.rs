//! What an audit line says, kept as a code and typed values and worded when it is shown
//! (`game audit`), in the language of whoever reads it (docs/storage.md, "Audit trail").

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use crate::judge::Phase;
use crate::lang::Lang;
use crate::say;

use super::calendar::format_deadline;
use super::error::phase_words;
use super::model::{Ending, SubmitMode, Trigger, Vote};
use super::span::Span;

/// One line of an audit entry. Houses are ids, addresses and reasons as received: the
/// trail is the moderator's record, not a message to a player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "code", rename_all = "kebab-case")]
pub enum AuditLine {
    Created {
        players: u8,
        variant: String,
    },
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
    Processed {
        phase: Phase,
        trigger: Trigger,
    },
    Ended {
        ending: Ending,
    },
    Seated {
        house: String,
        address: String,
    },
    Removed {
        house: String,
        address: String,
    },
    Orders {
        house: String,
        lines: usize,
        mode: SubmitMode,
    },
    Ready {
        house: String,
        ready: bool,
    },
    Vote {
        house: String,
        vote: Option<Vote>,
    },
    Absence {
        house: String,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
        /// The deadline the absence moved, if it moved one.
        deadline: Option<DateTime<Utc>>,
    },
    /// The position before and after are in the entry's detail.
    Edited {
        reason: String,
    },
    Resigned {
        house: String,
    },
    RolledBack {
        phase: Phase,
    },
    ObserversAllowed,
    ObserversForbidden {
        ended: usize,
    },
    Pictures {
        on: bool,
    },
    Bounced {
        house: String,
        address: String,
        reason: String,
    },
    Undeliverable {
        house: Option<String>,
        address: String,
        reason: String,
    },
    AddressRefused {
        house: String,
        address: String,
    },
    AddressChanged {
        house: String,
        old: String,
        new: String,
    },
    ObserverAsked {
        from: String,
    },
    ObserverBadToken {
        from: String,
    },
    ObserverJoined {
        from: String,
    },
    ObserverLeft {
        from: String,
    },
    /// The moderator's language (`house` none) or a player's.
    Language {
        house: Option<String>,
        lang: Lang,
    },
    /// A sign-on refused: as a house (`house`, as written), else as the moderator;
    /// `throttled`: refused unchecked (earlier versions' lockouts; never now).
    SignOnRefused {
        house: Option<String>,
        from: String,
        throttled: bool,
    },
    /// Sign-ons locked until then (earlier versions locked; kept to show their lines).
    SignOnsThrottled {
        until: DateTime<Utc>,
    },
    /// Sign-ons as a house (none: as the moderator) failed this many times: the owner
    /// and the moderator were sent a notice.
    SignOnFailures {
        house: Option<String>,
        failures: u32,
    },
    Press {
        /// The house that sent it; none: the moderator.
        from: Option<String>,
        recipients: usize,
        grey: bool,
    },
    ReadyWithdrawn {
        house: String,
    },
    /// The moderator changed a setting of the game.
    SettingChanged {
        change: super::setting::SettingChanged,
    },
}

impl AuditLine {
    /// The line in `lang`, dates in the game's time zone `zone`.
    pub fn say(&self, lang: Lang, zone: Tz) -> String {
        let date = |d: &DateTime<Utc>| format_deadline(*d, zone, lang);
        let deadline = |d: &Option<DateTime<Utc>>| match d {
            Some(d) => date(d),
            None => say!(lang, "lifecycle.none"),
        };
        match self {
            AuditLine::Created { players, variant } => {
                say!(lang, "audit.created", players, variant)
            }
            AuditLine::VariantChanged {
                from,
                from_hash,
                to,
                to_hash,
            } => say!(lang, "audit.variant_changed", from, from_hash, to, to_hash),
            AuditLine::Started { deadline: d } => {
                say!(lang, "audit.started", deadline = deadline(d))
            }
            AuditLine::Paused => say!(lang, "audit.paused"),
            AuditLine::Resumed { deadline: d } => {
                say!(lang, "audit.resumed", deadline = deadline(d))
            }
            AuditLine::Extended { by, deadline } => say!(
                lang,
                "audit.extended",
                by = by.text(lang),
                deadline = date(deadline)
            ),
            AuditLine::Processed { phase, trigger } => {
                let phase = phase_words(*phase, lang, "phase.plain");
                match trigger {
                    Trigger::Deadline => say!(lang, "audit.processed_deadline", phase),
                    Trigger::Ready => say!(lang, "audit.processed_ready", phase),
                    Trigger::Moderator => say!(lang, "audit.processed_moderator", phase),
                }
            }
            // The sentence of the results (`ending.*`), with the houses' ids.
            AuditLine::Ended { ending } => match ending {
                Ending::Win { houses, reason } => {
                    let who = say!(lang, "words.and_list", names = houses);
                    let why = match reason.split_once(':') {
                        Some(("centres", count)) => say!(lang, "ending.reason_centres", count),
                        Some(("last-year", year)) => say!(lang, "ending.reason_last_year", year),
                        _ => say!(lang, "ending.reason_moderator"),
                    };
                    say!(lang, "ending.win", shared = houses.len() > 1, who, why)
                }
                Ending::Draw { houses } => say!(
                    lang,
                    "ending.draw",
                    houses = say!(lang, "words.and_list", names = houses)
                ),
                Ending::Concession { house } => say!(lang, "ending.concession", house),
                Ending::Abandoned => say!(lang, "ending.abandoned"),
            },
            AuditLine::Seated { house, address } => say!(lang, "audit.seated", house, address),
            AuditLine::Removed { house, address } => {
                say!(lang, "audit.removed", house, address)
            }
            AuditLine::Orders { house, lines, mode } => match mode {
                SubmitMode::Replace => say!(lang, "audit.orders_replace", house, lines),
                SubmitMode::Partial => say!(lang, "audit.orders_partial", house, lines),
            },
            AuditLine::Ready { house, ready } => say!(lang, "audit.ready", house, ready),
            AuditLine::Vote { house, vote } => match vote {
                Some(Vote::Draw) => say!(lang, "audit.vote_draw", house),
                Some(Vote::Concede(to)) => say!(lang, "audit.vote_concede", house, to),
                None => say!(lang, "audit.vote_withdrawn", house),
            },
            AuditLine::Absence {
                house,
                from,
                to,
                deadline,
            } => say!(
                lang,
                "audit.absence",
                house,
                from = date(from),
                to = date(to),
                deadline = deadline.as_ref().map(date)
            ),
            AuditLine::Edited { reason } => say!(lang, "audit.edited", reason),
            AuditLine::Resigned { house } => say!(lang, "audit.resigned", house),
            AuditLine::RolledBack { phase } => say!(
                lang,
                "audit.rolled_back",
                phase = phase_words(*phase, lang, "phase.plain")
            ),
            AuditLine::ObserversAllowed => say!(lang, "audit.observers_allowed"),
            AuditLine::ObserversForbidden { ended } => {
                say!(lang, "audit.observers_forbidden", ended)
            }
            AuditLine::Pictures { on } => say!(lang, "audit.pictures", on),
            AuditLine::Bounced {
                house,
                address,
                reason,
            } => say!(lang, "audit.bounced", house, address, reason),
            AuditLine::Undeliverable {
                house,
                address,
                reason,
            } => say!(lang, "audit.undeliverable", house, address, reason),
            AuditLine::AddressRefused { house, address } => {
                say!(lang, "audit.address_refused", house, address)
            }
            AuditLine::AddressChanged { house, old, new } => {
                say!(lang, "audit.address_changed", house, old, new)
            }
            AuditLine::ObserverAsked { from } => say!(lang, "audit.observer_asked", from),
            AuditLine::ObserverBadToken { from } => {
                say!(lang, "audit.observer_bad_token", from)
            }
            AuditLine::ObserverJoined { from } => say!(lang, "audit.observer_joined", from),
            AuditLine::ObserverLeft { from } => say!(lang, "audit.observer_left", from),
            AuditLine::Language {
                house,
                lang: chosen,
            } => {
                say!(lang, "audit.language", house, chosen = chosen.code())
            }
            AuditLine::SignOnRefused {
                house,
                from,
                throttled,
            } => say!(lang, "audit.sign_on_refused", house, from, throttled),
            AuditLine::SignOnsThrottled { until } => {
                say!(lang, "audit.sign_ons_throttled", until = date(until))
            }
            AuditLine::SignOnFailures { house, failures } => {
                say!(lang, "audit.sign_on_failures", house, failures)
            }
            AuditLine::Press {
                from,
                recipients,
                grey,
            } => say!(lang, "audit.press", from, recipients, grey),
            AuditLine::ReadyWithdrawn { house } => say!(lang, "audit.ready_withdrawn", house),
            AuditLine::SettingChanged { change } => {
                say!(
                    lang,
                    "audit.setting_changed",
                    change = change.say(lang, zone)
                )
            }
        }
    }
}
