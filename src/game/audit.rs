//! What an audit line says, kept as a code and typed values; `report` words it when it is
//! shown (`game audit`), in the language of whoever reads it (docs/storage.md, "Audit
//! trail").

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::judge::Phase;
use crate::lang::Lang;

use super::model::{Ending, SubmitMode, Trigger, Vote};
use super::span::Span;
use super::{Address, HouseKey};

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
        house: HouseKey,
        address: Address,
    },
    Removed {
        house: HouseKey,
        address: Address,
    },
    Orders {
        house: HouseKey,
        lines: usize,
        mode: SubmitMode,
    },
    Ready {
        house: HouseKey,
        ready: bool,
    },
    Vote {
        house: HouseKey,
        vote: Option<Vote>,
    },
    Absence {
        house: HouseKey,
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
        house: HouseKey,
    },
    RolledBack {
        phase: Phase,
    },
    ObserversAllowed,
    ObserversForbidden {
        ended: usize,
    },
    Pictures {
        /// A player's own pictures; none: the game's (the only kind stored before).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        house: Option<HouseKey>,
        on: bool,
    },
    Bounced {
        house: HouseKey,
        address: Address,
        reason: String,
    },
    Undeliverable {
        house: Option<HouseKey>,
        address: Address,
        reason: String,
    },
    AddressRefused {
        house: HouseKey,
        address: Address,
    },
    AddressChanged {
        house: HouseKey,
        old: Address,
        new: Address,
    },
    ObserverAsked {
        from: Address,
    },
    ObserverBadToken {
        from: Address,
    },
    ObserverJoined {
        from: Address,
    },
    ObserverLeft {
        from: Address,
    },
    /// The moderator's language (`house` none) or a player's.
    Language {
        house: Option<HouseKey>,
        lang: Lang,
    },
    /// A player's time zone for deadlines (none: the game's again).
    Zone {
        house: HouseKey,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
    },
    /// A sign-on refused: as a house (`claimed`, as the sender wrote it, masked if it
    /// held the secret: perhaps no house at all), else as the moderator; `throttled`:
    /// refused unchecked (earlier versions' lockouts; never now).
    SignOnRefused {
        #[serde(rename = "house")]
        claimed: Option<String>,
        from: Address,
        throttled: bool,
    },
    /// Sign-ons locked until then (earlier versions locked; kept to show their lines).
    SignOnsThrottled {
        until: DateTime<Utc>,
    },
    /// Sign-ons as a house (none: as the moderator) failed this many times: the owner
    /// and the moderator were sent a notice.
    SignOnFailures {
        house: Option<HouseKey>,
        failures: u32,
    },
    Press {
        /// The house that sent it; none: the moderator.
        from: Option<HouseKey>,
        recipients: usize,
        grey: bool,
    },
    ReadyWithdrawn {
        house: HouseKey,
    },
    /// The moderator changed a setting of the game.
    SettingChanged {
        change: super::setting::SettingChanged,
    },
    // The habits of njudge players.
    /// A house's player (`house` none: the moderator) chose a new secret (never kept
    /// here, nor its hash).
    SecretChanged {
        house: Option<HouseKey>,
    },
    // Joining a game.
    /// An address asked for a house (`TAKEOVER`), waiting for the moderator.
    SeatAsked {
        house: HouseKey,
        address: Address,
    },
    /// The moderator refused the request.
    SeatRefused {
        house: HouseKey,
        address: Address,
    },
    // Orders for later phases.
    AheadKept {
        house: HouseKey,
        phase: Phase,
        lines: usize,
    },
    AheadCleared {
        house: HouseKey,
        count: usize,
    },
    AheadActivated {
        house: HouseKey,
        phase: Phase,
        refused: bool,
    },
    AheadDropped {
        house: HouseKey,
        phase: Phase,
        why: super::model::AheadDrop,
    },
}
