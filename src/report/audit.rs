//! An audit line in words (`game audit`), in the language of whoever reads it, dates in
//! the game's time zone (docs/storage.md, "Audit trail"): the game keeps the line as a code
//! and typed values.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::game::{AuditLine, Ending, SubmitMode, Trigger, Vote};
use crate::lang::Lang;
use crate::say;

use super::calendar::format_deadline;
use super::game_text::phase_words;

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
                        Some(("points", count)) => say!(lang, "ending.reason_points", count),
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
                Some(Vote::DrawWith(houses)) => say!(
                    lang,
                    "habits.audit_vote_draw_with",
                    house,
                    houses = say!(lang, "words.and_list", names = houses)
                ),
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
            AuditLine::Pictures { house: None, on } => say!(lang, "audit.pictures", on),
            AuditLine::Pictures {
                house: Some(house),
                on,
            } => say!(lang, "audit.player_pictures", house, on),
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
            AuditLine::Zone { house, zone } => say!(lang, "audit.zone", house, zone),
            AuditLine::SignOnRefused {
                claimed: house,
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
            AuditLine::SecretChanged { house } => say!(lang, "habits.audit_secret_changed", house),
            AuditLine::SeatAsked { house, address } => {
                say!(lang, "join.audit_asked", house, address)
            }
            AuditLine::SeatRefused { house, address } => {
                say!(lang, "join.audit_refused", house, address)
            }
            AuditLine::AheadKept {
                house,
                phase,
                lines,
            } => {
                let phase = phase_words(*phase, lang, "phase.plain");
                say!(lang, "ahead.audit_kept", house, phase, lines)
            }
            AuditLine::AheadCleared { house, count } => {
                say!(lang, "ahead.audit_cleared", house, count)
            }
            AuditLine::AheadActivated {
                house,
                phase,
                refused,
            } => {
                let phase = phase_words(*phase, lang, "phase.plain");
                say!(lang, "ahead.audit_activated", house, phase, refused)
            }
            AuditLine::AheadDropped { house, phase, why } => {
                let phase = phase_words(*phase, lang, "phase.plain");
                let why = super::ahead::drop_why(*why, lang);
                say!(lang, "ahead.audit_dropped", house, phase, why)
            }
        }
    }
}
